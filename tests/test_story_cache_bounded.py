"""What the engine and the rules keep in ``story.cache`` (compiled conditions, node tables,
effect data) is bounded by the story, not by how many games are played: a simulation of
thousands of games, or a day-long session, cannot grow it without end."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from runner.engine import available, new_game, step
from runner.engine.engine import _MAX_RAW, Ctx
from runner.rules.dice import SeededDice
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent
STORIES = sorted(p.name for p in (ROOT / "stories").iterdir() if (p / "story.yaml").exists())


def _games(story: Any, n: int, rng: random.Random) -> None:
    for _ in range(n):
        state, _ = new_game(story, rng.randrange(1 << 30))
        for _ in range(120):
            choices = [c for c in available(story, state) if c.n]
            if not choices or state.ending is not None:
                break
            state, _ = step(story, state, rng.choice(choices), tail_events=False)


def _size(story: Any) -> int:
    return len(story.cache) + len(story.cache.get("_raw_effects", {}))


@pytest.mark.parametrize("name", STORIES)
def test_the_cache_does_not_grow_with_games(name: str) -> None:
    story = load(ROOT / "stories" / name)
    rng = random.Random(7)
    _games(story, 600, rng)  # every place and condition random games reach, nearly
    before = _size(story)
    _games(story, 600, rng)  # (one kept entry per game would be 600)
    assert _size(story) - before <= 20, (before, _size(story))


def test_effect_data_built_afresh_each_time_is_not_kept() -> None:
    """A rule system that hands the engine a new list each call (``[{"set": ...}]``) gets it
    run each time, and the cache keeps at most ``_MAX_RAW`` of them."""
    story = load(ROOT / "stories" / "ureg_window_room")
    state, _ = new_game(story, 1)
    ctx = Ctx(story, state.fork(), False, SeededDice(0))
    var = next(iter(story.variables))
    for i in range(_MAX_RAW + 500):
        ctx.run_effects([{"set": {var: i % 2}}])
        assert ctx.state.vars[var] == i % 2
    assert len(story.cache["_raw_effects"]) <= _MAX_RAW


def test_an_expression_the_story_does_not_hold_is_never_mistaken_for_another() -> None:
    """Expressions made during play (a GM's ``!set`` value, effect data a rule system built)
    are freed after use; their compiled form must not be found again by a later expression
    that Python happens to put at the same address."""
    story = load(ROOT / "stories" / "ureg_window_room")
    state, _ = new_game(story, 1)
    ctx = Ctx(story, state.fork(), False, SeededDice(0))
    wrong = [i for i in range(3000) if ctx.eval(("lit", i)) != i]
    assert wrong == []
