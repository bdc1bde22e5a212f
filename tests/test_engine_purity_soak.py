"""Random full games through ``available``/``step``: no step may change a state it was given
(or any earlier state: the engine shares character sheets between turns until a hook may
write them), and a replay of the same seed and commands ends in the very same state."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.story import Story, load

STORIES = Path(__file__).resolve().parent.parent / "stories"
GAMES = 200
MAX_TURNS = 300


def _dump(state) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, ensure_ascii=False)


def _play(story: Story, seed: int) -> tuple[list[str], str]:
    """One random game; checks every step's purity; returns (commands, final dump)."""
    rnd = random.Random(seed)
    st, _ = new_game(story, seed)
    history = [(st, _dump(st))]
    commands: list[str] = []
    while st.ending is None and st.turn < MAX_TURNS:
        choices = [c for c in available(story, st) if c.n]
        if not choices:
            break
        c = rnd.choice(choices)
        before = history[-1][1]
        # Both ways in: the id as typed (matched again) and the Choice itself.
        new, _ = step(story, st, c.id if rnd.random() < 0.5 else c, tail_events=False)
        assert _dump(st) == before, f"seed {seed}: {c.id!r} changed the state it was given"
        commands.append(c.id)
        st = new
        history.append((st, _dump(st)))
    for i, (old, dump) in enumerate(history):
        assert _dump(old) == dump, f"seed {seed}: the state after turn {i} changed later"
    return commands, history[-1][1]


def _replay(story: Story, seed: int, commands: list[str]) -> str:
    st, _ = new_game(story, seed)
    for cmd in commands:
        st, _ = step(story, st, cmd, tail_events=False)
    return _dump(st)


@pytest.mark.parametrize("name", ["deep_sea_atelier", "ureg_glass_greenhouse"])
def test_random_games_never_touch_given_states_and_replay_exactly(name: str) -> None:
    story = load(STORIES / name)
    endings = set()
    for seed in range(GAMES):
        commands, final = _play(story, seed)
        assert _replay(story, seed, commands) == final, f"seed {seed}: the replay differs"
        endings.add(json.loads(final)["ending"])
    assert endings - {None}, endings  # the games really went somewhere
