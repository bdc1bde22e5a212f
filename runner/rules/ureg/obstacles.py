"""Obstacles: solved and revealed, proposals to get past them, items found and changed, hints."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import core as C
from runner.rules.ureg.system import hook


@hook(pure=True)
def solved(ctx: Context, obstacle: str) -> bool:
    """Whether the obstacle has been broken through."""
    return obstacle in C.value(ctx, "solved")


@hook()
def solve(ctx: Context, obstacle: str) -> None:
    """Marks an obstacle as broken through (for story actions that solve it their own way)."""
    if obstacle not in B.obstacles(ctx.story):
        raise RuleError(f"no UREG obstacle {obstacle!r}")
    if obstacle not in C.R(ctx)["solved"]:
        C.R(ctx)["solved"].append(obstacle)


@hook()
def reveal(ctx: Context, obstacle: str) -> None:
    """Makes a ``hidden`` obstacle active."""
    if obstacle not in B.obstacles(ctx.story):
        raise RuleError(f"no UREG obstacle {obstacle!r}")
    if obstacle not in C.R(ctx)["revealed"]:
        C.R(ctx)["revealed"].append(obstacle)


@hook()
def propose(ctx: Context, text: str) -> bool:
    """Runs a free proposal as if typed (「梯子を窓に立て掛けて登る」)."""
    return bool(B.propose(ctx, text))


@hook()
def find(ctx: Context, items: Any) -> None:
    """探索: the players find the items (``"box+ladder"``); their item cards turn face up and
    proposals may name them from now on (before, a word for them is not understood)."""
    C.find(ctx, items)


@hook(pure=True)
def found(ctx: Context, item: str) -> bool:
    """Whether the players have found the item (its card is face up, or it is held)."""
    return C.found(ctx, item)


@hook(pure=True)
def modified(ctx: Context, item: str) -> str:
    """How an item has been changed: "bent", "lit", "ladder"/"step" (stepladder) or ""."""
    result: str = C.value(ctx, "mods").get(item, "")
    return result


@hook()
def hint(ctx: Context, about: str = "") -> bool:
    """〈○閃き〉's one special hint (once per scenario, UA-19), about the obstacle ``about``
    (the player's question) or the first one here."""
    return B.give_hint(ctx, about or None)


@hook(pure=True)
def hint_available(ctx: Context) -> bool:
    """Whether the special hint can still be given."""
    return C.hint_available(ctx)
