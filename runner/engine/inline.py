"""Rendering ``{…}`` in a line at play time (the syntax: :mod:`runner.story.inline`).

Pure: values come from the game's state; a variation's count is kept in ``state.shown``
under ``"<key>#<n>"``; a shuffle draws from a generator seeded by the game's seed, the
line and the round (so it takes no die from the game's dice: no roll is shown, none is
asked of the table under ``--dice manual``, and adding a shuffle changes no other roll).
Saves and replays carry ``seed`` and ``shown``, so the same game shows the same text.
"""

from __future__ import annotations

import hashlib
from typing import Any

from runner.rules.dice import SeededDice, seed_state
from runner.story.inline import Cond, Parts, Value, Vary, parse


def text_of(v: Any) -> str:
    """A value as a line shows it: ``true``/``false``, no ``.0`` on whole numbers, lists
    joined with commas, ``none`` as nothing."""
    if v is None:
        return ""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (list, tuple)):
        return ", ".join(text_of(x) for x in v)
    return str(v)


def _order(seed: int, key: str, rnd: int, n: int) -> list[int]:
    """The order of ``n`` alternatives in round ``rnd`` of a shuffle (Fisher-Yates on dice
    seeded by the game's seed, the variation's key and the round)."""
    mix = int.from_bytes(hashlib.blake2b(f"{key}#{rnd}".encode(), digest_size=8).digest(), "big")
    dice = SeededDice(seed_state((seed ^ mix) & ((1 << 64) - 1)))
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = dice.face(i + 1) - 1
        order[i], order[j] = order[j], order[i]
    return order


def pick(vary: Vary, count: int, seed: int, key: str) -> int | None:
    """Which alternative a variation shows the ``count``-th time (0 first), or None."""
    n = len(vary.alternatives)
    if vary.mode == "":
        return min(count, n - 1)
    if vary.mode == "&":
        return count % n
    if vary.mode == "!":
        return count if count < n else None
    rnd, at = divmod(count, n)
    return _order(seed, key, rnd, n)[at]


def render(ctx: Any, text: str, key: str, *, advance: bool = True, fixed: int | None = None) -> str:
    """``text`` with its ``{…}`` worked out for the game in ``ctx``; ``advance`` counts the
    showing (``look`` shows the last showing again without counting); with ``fixed``, every
    variation shows its ``fixed``-th alternative and nothing is counted (a label: the times
    its action was taken)."""
    return _render(ctx, parse(text), key, advance, fixed)


def _render(ctx: Any, parts: Parts, key: str, advance: bool, fixed: int | None = None) -> str:
    out: list[str] = []
    for p in parts:
        if type(p) is str:
            out.append(p)
        elif type(p) is Value:
            out.append(text_of(ctx.eval(p.node)))
        elif type(p) is Cond:
            out.append(
                _render(ctx, p.then if ctx.eval(p.node) else p.otherwise, key, advance, fixed)
            )
        elif type(p) is Vary:
            vkey = f"{key}#{p.number}"
            st = ctx.state
            if fixed is not None:
                count = fixed
            else:
                count = st.shown.get(vkey, 0)
                if not advance:
                    count = max(count - 1, 0)
                else:
                    st.shown[vkey] = count + 1
            i = pick(p, count, st.seed, vkey)
            if i is not None:
                out.append(_render(ctx, p.alternatives[i], key, advance, fixed))
    return "".join(out)
