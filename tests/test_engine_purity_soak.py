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


@pytest.mark.parametrize(
    "name", ["deep_sea_atelier", "ureg_glass_greenhouse", "ureg_window_room", "dungeon_2f"]
)
def test_random_games_never_touch_given_states_and_replay_exactly(name: str) -> None:
    story = load(STORIES / name)
    endings = set()
    for seed in range(GAMES):
        commands, final = _play(story, seed)
        assert _replay(story, seed, commands) == final, f"seed {seed}: the replay differs"
        endings.add(json.loads(final)["ending"])
    assert endings - {None}, endings  # the games really went somewhere


# --- ureg's and ktane's pure hooks never write the state --------------------------------
#
# The engine may run a pure hook on data it shares with the state it was given: in an
# action's ``when`` (``available`` evaluates those on that very state) and, for the hooks
# ``evaluate.shares_state`` trusts (all pure hooks), on ``stats``/``rules`` not yet copied
# for the new state.
# Here every pure ureg and ktane hook is called, with many arguments, at every state of
# random games, on a state whose containers all refuse to change: any write fails the test.


class _Frozen(Exception):
    pass


def _refuse(*_args, **_kw):
    raise _Frozen("a pure hook tried to change the state")


class _FrozenDict(dict):
    __setitem__ = __delitem__ = __ior__ = _refuse
    setdefault = pop = popitem = clear = update = _refuse


class _FrozenList(list):
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse


def _freeze(v):
    if type(v) is dict:
        return _FrozenDict({k: _freeze(x) for k, x in v.items()})
    if type(v) is list:
        return _FrozenList(_freeze(x) for x in v)
    return v


_CONTAINERS = ("vars", "inventory", "visits", "done", "fired", "stats", "rules")


def _hook_args(story: Story, state, hook) -> list[tuple]:
    """Argument tuples worth trying for a hook at this state: every name a story or the state
    gives for each parameter, plus the defaults (no arguments)."""
    from runner.rules.ureg import breakthrough
    from runner.rules.ureg.abilities import BAD_ABILITIES, GOOD_ABILITIES

    who = ["", "all", *state.stats, "pc+pc2"]
    items = ["", *story.items, *state.inventory, "ladder+box", "stepladder+pedestal"]
    choices = {
        "ability": [*GOOD_ABILITIES, *BAD_ABILITIES, "〈○強力〉", "Strong"],
        "which": ["good", "bad"],
        "who": who,
        "bottom": who,
        "top": who,
        "puller": who,
        "pulled": who,
        "pcs": who,
        "enemy": who,
        "run_up": [False, True],
        "gap": [1, 1.5, "3", 4],
        "height": [1, 2.5, "4.5", 5, 9],
        "items": items,
        "item": items,
        "how": ["", "stand", "shoulder", "standing_shoulder", "touch", "run_touch", "any"],
        "obstacle": ["", *breakthrough.obstacles(story)],
        "name": ["continue", "floors", "combat", "life", "memo", "calculator", "lookup"],
    }
    calls = [()]
    for n in range(1, len(hook.args) + 1):
        for i, name in enumerate(hook.args[:n]):
            # one parameter varied at a time, the ones before it at their first value
            head = tuple(choices[a][0] for a in hook.args[:i])
            calls += [(*head, v) for v in choices[name]]
    return list(dict.fromkeys(calls))


def _states(story: Story, games: int) -> list:
    out = []
    for seed in range(games):
        rnd = random.Random(seed)
        st, _ = new_game(story, seed)
        out.append(st)
        while st.ending is None and st.turn < MAX_TURNS:
            choices = [c for c in available(story, st) if c.n]
            if not choices:
                break
            st, _ = step(story, st, rnd.choice(choices), tail_events=False)
            out.append(st)
    return out


@pytest.mark.parametrize(
    "name,games", [("ureg_glass_greenhouse", 40), ("ureg_window_room", 40), ("dungeon_2f", 60)]
)
def test_pure_ureg_and_ktane_hooks_never_write_the_state(name: str, games: int) -> None:
    from runner.engine.engine import Ctx
    from runner.rules import system
    from runner.rules.base import RuleError
    from runner.rules.dice import SeededDice

    story = load(STORIES / name)
    pure = [h for h in system(story.rules).hooks.values() if h.pure]
    assert pure
    calls = 0
    for st in _states(story, games):
        dump = _dump(st)
        frozen = st.fork()
        for f in _CONTAINERS:
            setattr(frozen, f, _freeze(getattr(frozen, f)))
        kept = {f: getattr(frozen, f) for f in _CONTAINERS}
        for hook in pure:
            for args in _hook_args(story, st, hook):
                ctx = Ctx(story, frozen, False, SeededDice(0))
                try:
                    hook.fn(ctx, *args)
                except (RuleError, ValueError, TypeError, KeyError, IndexError):
                    pass  # a bad argument for this state: fine, as long as nothing was written
                calls += 1
                assert not ctx.events, f"{hook.name}{args} emitted {ctx.events}"
                for f in _CONTAINERS:
                    assert getattr(frozen, f) is kept[f], f"{hook.name}{args} replaced state.{f}"
        assert _dump(st) == dump
    assert calls > 1000
