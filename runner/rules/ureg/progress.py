"""Time, continuing after a failure, escape and victory, and the story's options."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg.system import hook


@hook()
def time_passed(ctx: Context, seconds: Any) -> None:
    """Adds real seconds played (sent by the front end); ends the game when time runs out."""
    C.time_passed(ctx, seconds)


@hook()
def time_sync(ctx: Context, total_seconds: Any) -> None:
    """Sets the real time played to the front end's total if it is larger (after an undo)."""
    C.time_sync(ctx, total_seconds)


@hook(pure=True)
def time_left(ctx: Context) -> int:
    """Seconds left on the real-time limit (−1 when the story has none)."""
    left = C.time_left(ctx)
    return -1 if left is None else left


@hook()
def wind_watch(ctx: Context, who: str = "") -> None:
    """Continue: the holder winds the pocket watch; the scenario starts again (UA-09)."""
    C.wind_watch(ctx, who)


@hook()
def restart(ctx: Context) -> None:
    """Restart: start a failed scenario again with the same PCs (if the story allows)."""
    C.restart(ctx)


@hook()
def escape(ctx: Context, who: str = "") -> None:
    """Marks characters as escaped (default: every PC still in the space)."""
    C.escape(ctx, who)


@hook(pure=True)
def escaped(ctx: Context, who: str = "") -> bool:
    """Whether the character (default: every PC) has escaped."""
    stats = A.stats(ctx.state)
    return all(stats.get(c, {}).get("status") == C.ESCAPED for c in (C.split(who) or C.pc_ids(ctx)))


@hook(pure=True)
def outcome(ctx: Context) -> str:
    """full_victory, partial_victory or failure (UA-07, UA-21)."""
    return C.outcome(ctx)


@hook(pure=True)
def full_victory(ctx: Context) -> bool:
    """Every PC and every ally NPC escaped."""
    return C.outcome(ctx) == "full_victory"


@hook(pure=True)
def partial_victory(ctx: Context) -> bool:
    """Some PC escaped, but not everyone who counts."""
    return C.outcome(ctx) == "partial_victory"


@hook(pure=True)
def failure(ctx: Context) -> bool:
    """No PC escaped."""
    return C.outcome(ctx) == "failure"


@hook()
def finish(ctx: Context) -> str:
    """Ends the game with the ending the story maps to the outcome (options.endings)."""
    return C.finish(ctx)


@hook()
def give_up(ctx: Context) -> str:
    """The players give up: the game ends with the outcome so far."""
    return C.finish(ctx)


@hook(pure=True)
def option(ctx: Context, name: str) -> Any:
    """The value of an optional rule in this story (continue, floors, ..., combat)."""
    return C.option(ctx.story, name)


@hook()
def floor(ctx: Context, name: str) -> None:
    """フロア: the PCs move to floor ``name`` (shown in the status bar). Items whose ``floor``
    prop names another floor are left behind there, and picked up again on coming back."""
    C.change_floor(ctx, name)


@hook(pure=True)
def aid(ctx: Context, name: str) -> bool:
    """Whether a real-world helper (memo, calculator, lookup) is unlocked (UA-17)."""
    allowed = C.split(A.options(ctx.story).get("aids"))
    if name in allowed:
        return True
    return any(A.item_props(ctx.story, i).get("aid") == name for i in A.held(ctx.state))
