"""Reaching a height: the forms items take as platforms, and who can stand on what."""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.abilities import Character


def forms(ctx: Context, item: str) -> list[P.Form]:
    props = A.item_props(ctx.story, item)
    mods = C.value(ctx, "mods")
    if mods.get(item) == "bent":
        return []  # a bent ladder is a hook now, not a ladder
    name = A.item_name(ctx.story, item, "ja")
    name_en = A.item_name(ctx.story, item, "en")
    out = []
    own = A.as_dict(A.get(A.story_item(ctx.story, item), "props"))
    plat = props.get("platform")
    if "height" in own and "platform" not in own:
        plat = None  # the story's own height wins over the catalogue's forms
    if isinstance(plat, list):
        for f in plat:
            f = A.as_dict(f)
            if item in mods and f.get("form") not in (mods[item], None):
                continue
            out.append(
                P.Form(
                    item,
                    name,
                    name_en,
                    P.metres(f["height"]),
                    bool(f.get("unstable")),
                    bool(f.get("support")),
                )
            )
    elif props.get("height") is not None and plat is not False:
        out.append(
            P.Form(
                item,
                name,
                name_en,
                P.metres(props["height"]),
                bool(props.get("unstable")),
                bool(props.get("support")),
            )
        )
    return out


def reach_attempt(
    ctx: Context,
    height: Any,
    items: Any = None,
    pcs: Any = None,
    how: str = "",
    *,
    run_up_room: bool = True,
    pull_up: bool = False,
) -> tuple[bool, P.Attempt | None]:
    """Decides whether the PCs reach ``height`` m; ``items`` None = any held platform."""
    target = P.metres(height)
    ids = C.who_list(ctx, pcs)
    people = [C.character(ctx, c) for c in ids]
    exact = items is not None and items != ""
    chosen = C.split(items) if exact else A.held(ctx.state)
    fb = {i: forms(ctx, i) for i in chosen}
    fb = {i: f for i, f in fb.items() if f}
    try:
        stances = P.stance_set(how)
    except ValueError as e:
        raise RuleError(str(e)) from None
    ok, fail = _solve(
        target,
        tuple(people),
        tuple((i, tuple(f)) for i, f in fb.items()),
        stances,
        exact,
        run_up_room,
        pull_up,
    )
    return (ok is not None), (ok or fail)


@functools.lru_cache(maxsize=1024)
def _solve(
    target: Fraction,
    people: tuple[Character, ...],
    forms_by_item: tuple[Any, ...],
    stances: tuple[str, ...],
    exact: bool,
    run_up_room: bool,
    pull_up: bool = False,
) -> tuple[P.Attempt | None, P.Attempt | None]:
    """``P.solve``, remembered: it is a pure function of these (frozen) values, and a story
    asks the same reach over and over. The Attempts are shared, so they are only read."""
    return P.solve(
        target,
        list(people),
        {i: list(f) for i, f in forms_by_item},
        stances=stances,
        exact_items=exact,
        run_up_room=run_up_room,
        pull_up=pull_up,
    )
