"""Hooks every story has without a prefix: items, visits, dice, the clock, small maths."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError, RuleSystem

SYSTEM = RuleSystem("core", "built-in hooks")

NONE = RuleSystem("none", "ルールシステムなし（組み込みのフックだけ）")
NONE.titles["en"] = "no rule system (only the built-in hooks)"
"""``rules: none``: a story with the built-in hooks alone (declared as ``none`` in
Katari's ``katari.rules`` entry points, like every other rule system)."""


@SYSTEM.hook(pure=True)
def has(ctx: Context, item: str, count: int = 1) -> bool:
    """True when the player carries ``count`` or more of ``item``."""
    result: bool = ctx.state.inventory.get(item, 0) >= count
    return result


@SYSTEM.hook(pure=True)
def count(ctx: Context, item: str) -> int:
    """How many of ``item`` the player carries."""
    result: int = ctx.state.inventory.get(item, 0)
    return result


@SYSTEM.hook(pure=True)
def visited(ctx: Context, node: str) -> bool:
    """True once the player has been at ``node``."""
    result: bool = ctx.state.visits.get(node, 0) > 0
    return result


@SYSTEM.hook(pure=True)
def visits(ctx: Context, node: str) -> int:
    """How many times the player has entered ``node``."""
    result: int = ctx.state.visits.get(node, 0)
    return result


@SYSTEM.hook(pure=True)
def done(ctx: Context, action: str) -> int:
    """How many times an action ran: ``"node.action"``, or ``"action"`` in the current node."""
    key = action if "." in action else f"{ctx.state.node}.{action}"
    result: int = ctx.state.done.get(key, 0)
    return result


@SYSTEM.hook(pure=True)
def fired(ctx: Context, event: str) -> bool:
    """True once the timed event ``event`` has happened."""
    return event in ctx.state.fired


@SYSTEM.hook(pure=True)
def clock(ctx: Context) -> int:
    """Minutes since the story's clock started."""
    result: int = ctx.state.clock
    return result


@SYSTEM.hook(pure=True)
def here(ctx: Context) -> str:
    """The current node's id."""
    result: str = ctx.state.node
    return result


@SYSTEM.hook(name="min", pure=True)
def min_(ctx: Context, *xs: Any) -> Any:
    """The smallest of its arguments."""
    if not xs:
        raise RuleError("min() needs at least one value")
    return min(xs)


@SYSTEM.hook(name="max", pure=True)
def max_(ctx: Context, *xs: Any) -> Any:
    """The largest of its arguments."""
    if not xs:
        raise RuleError("max() needs at least one value")
    return max(xs)


@SYSTEM.hook(name="abs", pure=True)
def abs_(ctx: Context, x: Any) -> Any:
    """The absolute value."""
    return abs(x)


@SYSTEM.hook(name="int", pure=True)
def int_(ctx: Context, x: Any) -> int:
    """Rounds towards zero."""
    return int(x)


@SYSTEM.hook()
def roll(ctx: Context, dice: str, label: str = "") -> int:
    """Rolls dice notation (``"1d6+1d4"``), shows every die, returns the total."""
    return ctx.roll(str(dice), label=str(label)).total


@SYSTEM.hook()
def chance(ctx: Context, percent: Any, label: str = "") -> bool:
    """Rolls 1d100; true when it is ``percent`` or under."""
    r = ctx.roll("1d100", label=str(label), target=int(percent))
    return r.total <= int(percent)
