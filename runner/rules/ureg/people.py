"""The player characters: choosing them, their abilities, their bodies (reach, jumps, lifts)
and what they can see."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.system import hook


def _num(x: Any) -> float:
    return float(x)


@hook()
def choose(ctx: Context, spec: str, who: str = "", name: str = "") -> str:
    """Chooses a PC: an archetype (Inspiration, Nimbleness, Strength, Dexterity, Night Vision,
    Littleness) or one ○ and one × ability ("○身軽 ×低身長"); ``who`` adds a PC to the party
    (``pc2``), ``name`` names it. Returns the archetype id or ""."""
    return C.choose(ctx, spec, who, name)


@hook(pure=True)
def chosen(ctx: Context) -> bool:
    """Whether a PC has been chosen (stays true through a continue, so a story's character
    selection can be skipped when the watch starts the scenario again)."""
    return bool(C.value(ctx, "chosen"))


@hook(pure=True)
def party(ctx: Context) -> int:
    """How many PCs are still in the space."""
    return len(C.active_pcs(ctx))


@hook(pure=True)
def has(ctx: Context, ability: str, who: str = "") -> bool:
    """Whether a PC still in the space (or ``who``) has the ability (〈○強力〉, 強力, Strong)."""
    return C.has_ability(ctx, ability, who)


@hook(pure=True)
def ability(ctx: Context, which: str = "good", who: str = "") -> str:
    """The ○ (``good``) or × (``bad``) ability of a PC (default the first), e.g. "閃き"."""
    cid = who or C.pc_ids(ctx)[0]
    return str(A.stats(ctx.state).get(cid, {}).get("bad" if which == "bad" else "good", ""))


@hook(pure=True)
def archetype(ctx: Context, who: str = "") -> str:
    """The archetype id of a PC ("" for a created pair)."""
    cid = who or C.pc_ids(ctx)[0]
    result: str = A.stats(ctx.state).get(cid, {}).get("archetype", "")
    return result


@hook(pure=True)
def reach_height(ctx: Context, who: str = "") -> float:
    """Standing reach in metres (2; 〈×低身長〉 1.5)."""
    return _num(P.reach(C.character(ctx, who or C.active_pcs(ctx)[0])))


@hook(pure=True)
def jump_height(ctx: Context, who: str = "", run_up: bool = False) -> float:
    """Vertical jump in metres (0.5; 身軽 0.75; 鈍重 0.25; ×1.5 with a run-up)."""
    return _num(P.vertical_jump(C.character(ctx, who or C.active_pcs(ctx)[0]), bool(run_up)))


@hook(pure=True)
def jump_length(ctx: Context, who: str = "", run_up: bool = False) -> float:
    """Long jump in metres (1.5; 身軽 3; 鈍重 1; ×2 with a run-up)."""
    return _num(P.long_jump(C.character(ctx, who or C.active_pcs(ctx)[0]), bool(run_up)))


@hook(pure=True)
def can_cross(ctx: Context, gap: Any, who: str = "", run_up: bool = False) -> bool:
    """Whether every named PC (default: all in the space) clears a gap by a long jump."""
    g = P.metres(gap)
    return all(P.can_cross(C.character(ctx, c), g, bool(run_up)) for c in C.who_list(ctx, who))


@hook(pure=True)
def can_lift(ctx: Context, bottom: str, top: str) -> bool:
    """Whether ``bottom`` can take ``top`` on the shoulders."""
    return P.can_lift(C.character(ctx, bottom), C.character(ctx, top))


@hook(pure=True)
def can_pull_up(ctx: Context, puller: str, pulled: str) -> bool:
    """Whether ``puller`` can pull ``pulled`` up (same limits as lifting)."""
    return P.can_pull_up(C.character(ctx, puller), C.character(ctx, pulled))


@hook(pure=True)
def can_reach(ctx: Context, height: Any, items: Any = None, pcs: Any = None, how: str = "") -> bool:
    """Whether the PCs reach ``height`` m. ``items``: "ladder+wooden_box" (all used) or empty
    for any held platform; ``pcs``: ids or all; ``how``: stand, shoulder, standing_shoulder,
    touch, run_touch (comma-separated) or any."""
    ok, _ = B.reach_attempt(ctx, height, items or None, pcs, how)
    return ok


@hook()
def reach(ctx: Context, height: Any, items: Any = None, pcs: Any = None, how: str = "") -> bool:
    """Like ``can_reach`` but also says the arithmetic (「梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m」)."""
    ok, att = B.reach_attempt(ctx, height, items or None, pcs, how)
    if att is not None:
        ctx.say(att.explain(C.lang(ctx)), id="ureg.reach")
    return ok


@hook(pure=True)
def can_see(ctx: Context, who: str = "") -> bool:
    """Whether the PCs see here: node props ``light: dim|dark``; 〈×鳥目〉 is blind in the dim,
    〈○夜目〉 sees in the dark, a held light lets everyone see."""
    return C.can_see(ctx, who)


@hook(pure=True)
def movement(ctx: Context, who: str = "") -> str:
    """ "walk", "led" (taken by the hand) or "crawl"."""
    return C.movement(ctx, who)


@hook(pure=True)
def has_light(ctx: Context) -> bool:
    """Whether the party holds a light (torch, phone, lighter, lit candle)."""
    return C.has_light(ctx)
