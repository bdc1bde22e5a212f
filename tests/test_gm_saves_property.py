"""Every state a game can reach, a game master's overrides included, is one a save keeps.

A table found that one ``強制 失敗`` made the game's autosave unreadable for ever (the pending
force was stored in a shape the save check refuses). The kind of defect: the engine writes a
state that ``check_state`` rejects. The guard: random games of every shipped story with
random overrides (force, clock, set, damage, stat, give, take, goto) mixed into the moves;
after every command the state goes through JSON, the save check and ``State.from_dict`` and
comes back the same, and the whole game replays exactly."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.engine.gm import outcome_keys
from runner.engine.state import State, check_state
from runner.rules.dice import NeedDice
from runner.story import load

STORIES = Path(__file__).resolve().parent.parent / "stories"
NAMES = sorted(p.name for p in STORIES.iterdir() if (p / "story.yaml").is_file())


def _overrides(story, state, rnd: random.Random) -> str:
    outcomes = list(outcome_keys(story)) or ["success"]
    items = list(story.items) or ["x"]
    people = list(state.stats) or ["pc"]
    variables = list(story.variables) or ["v"]
    nodes = list(story.nodes)
    return rnd.choice(
        [
            f"!force {rnd.choice(outcomes)}",
            f"!force {rnd.choice(outcomes)}",
            f"!clock +{rnd.choice([1, 10, 30, 90, 240])}",
            f"!set {rnd.choice(variables)} {rnd.choice(['true', 'false', '0', '3', '1 + 1'])}",
            f"!damage {rnd.choice(people)} {rnd.choice([1, 2, '1d3'])}",
            f"!give {rnd.choice(items)}",
            f"!take {rnd.choice(items)}",
            f"!goto {rnd.choice(nodes)}",
        ]
    )


def _through_a_save(state) -> None:
    d = json.loads(json.dumps(state.to_dict(), ensure_ascii=False))
    check_state(d)  # raises on any field a save would refuse
    again = State.from_dict(d)
    assert json.dumps(again.to_dict(), sort_keys=True) == json.dumps(
        state.to_dict(), sort_keys=True
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_state_with_gm_overrides_survives_a_save(name: str) -> None:
    story = load(STORIES / name)
    forced_seen = 0
    for seed in range(40):
        rnd = random.Random(seed)
        st, _ = new_game(story, seed, gm=True)
        commands: list[str] = []
        while st.ending is None and st.turn < 150:
            if rnd.random() < 0.3:
                cmd = _overrides(story, st, rnd)
            else:
                choices = [c for c in available(story, st) if c.n]
                if not choices:
                    break
                cmd = rnd.choice(choices).id
            try:
                new, _ = step(story, st, cmd, gm=True, tail_events=False)
            except NeedDice:  # (automatic dice never ask; kept for clarity)
                raise
            commands.append(cmd)
            st = new
            forced_seen += "_gm" in st.rules
            _through_a_save(st)
        replay, _ = new_game(story, seed, gm=True)
        for cmd in commands:
            replay, _ = step(story, replay, cmd, gm=True, tail_events=False)
        assert json.dumps(replay.to_dict(), sort_keys=True) == json.dumps(
            st.to_dict(), sort_keys=True
        )
    assert forced_seen, "no game ever had a pending force: the guard tested nothing"


def test_a_save_written_with_the_old_pending_force_loads_and_keeps_it() -> None:
    """Saves written before this fix hold ``rules._gm_force`` as a string: they load now, and
    the force still applies to the next check."""
    story = load(STORIES / "deep_sea_atelier")
    st, _ = new_game(story, 1, gm=True)
    d = json.loads(json.dumps(st.to_dict()))
    d["rules"]["_gm_force"] = "failure"
    check_state(d)
    back = State.from_dict(d)
    assert back.rules["_gm"] == {"force": "failure"} and "_gm_force" not in back.rules
