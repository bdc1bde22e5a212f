"""A save made at any turn and loaded again plays on exactly as the game it was made from
(#14 item 5; ink's own test suite saves and reloads at every step the same way). Every
command of every shipped story's play-tests is played twice: on the live State, and on the
State written to JSON (as `katari play` saves it) and read back. The two must give the same
events and the same next State."""

from __future__ import annotations

import json

import pytest

from runner.authoring.playtest import _step_counting, load_cases, playtest_files
from runner.engine import new_game
from runner.engine.state import State
from runner.stories import shipped
from runner.story import load

CASES = [(p, case) for p in shipped() for f in playtest_files(p) for case in load_cases(f)]


def _reloaded(story, state: State) -> State:
    saved = json.dumps(state.to_dict(), ensure_ascii=False)
    return State.from_dict(json.loads(saved), story=story)


@pytest.mark.parametrize(("path", "case"), CASES, ids=[f"{p.name}:{c.name}" for p, c in CASES])
def test_a_save_at_every_turn_plays_on_the_same(path, case) -> None:
    if case.skip:
        pytest.skip("the play-test is skipped")
    story = load(path)
    state, _ = new_game(story, case.seed, gm=case.gm)
    queue = list(case.dice)
    turns = 0
    for cmd in case.commands:
        if state.ending is not None:
            break
        queue = cmd.dice + queue
        again = _reloaded(story, state)
        assert again.to_dict() == state.to_dict()
        new, events, used = _step_counting(story, state, cmd.text, queue, case.gm)
        new2, events2, used2 = _step_counting(story, again, cmd.text, queue, case.gm)
        where = f"{case.file}:{cmd.line} ({cmd.text!r})"
        assert used2 == used, where
        assert events2 == events, where
        assert new2.to_dict() == new.to_dict(), where
        queue = queue[used:]
        state = new
        turns += 1
    assert turns == len(case.commands) or state.ending is not None
    assert _reloaded(story, state).to_dict() == state.to_dict()


def test_every_shipped_story_with_play_tests_is_covered() -> None:
    with_tests = {p.name for p in shipped() if playtest_files(p)}
    assert with_tests and with_tests == {p.name for p, _c in CASES}
