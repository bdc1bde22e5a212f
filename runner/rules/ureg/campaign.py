"""A campaign: the characters who escaped, carried into the next scenario."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.story.model import Goto


def campaign_carry(state: Any) -> dict[str, Any]:
    """What a campaign carries into its next scenario: the PCs' abilities only (no items;
    the 閃き hint is fresh again, UA-19). The front end sends it as ``@carry`` (see
    ``carry_command``), which calls ``apply_carry``."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    return {
        cid: {k: stats[cid][k] for k in ("name", "archetype", "good", "bad") if k in stats[cid]}
        for cid in r.get("pcs", [])
        if cid in stats
    }


def escaped_pcs(state: Any) -> list[str]:
    """The PCs of a finished game who escaped (the ones a campaign takes on)."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    return [c for c in r.get("pcs", []) if (stats.get(c) or {}).get("status") == C.ESCAPED]


def carry_command(carry: dict[str, Any]) -> str:
    """``@carry {...}`` for a carry: compact JSON on one line; spaces inside names are
    written as \\u0020 because the engine splits a rule command's arguments on spaces."""
    import json

    return "@carry " + json.dumps(carry, ensure_ascii=False, separators=(",", ":")).replace(
        " ", "\\u0020"
    )


def apply_carry(ctx: Context, carry: dict[str, Any]) -> None:
    """Sets the carried PCs in a new campaign scenario (after ``init``) and locks the choice.
    The carried PCs are the party: a placeholder or story PC not carried leaves it."""
    stats = A.stats(ctx.state)
    r = C.R(ctx)
    for cid, d in carry.items():
        stats.setdefault(cid, {"life": 1, "status": C.IN}).update(d)
    for cid in r["pcs"]:
        if cid not in carry and cid in stats and not A.get(A.characters(ctx.story), cid):
            del stats[cid]  # the default solo PC made by init: not part of this party
    r["pcs"] = list(carry)
    r["chosen"] = True
    r["carried"] = True


_CARRY_KEYS = ("name", "archetype", "good", "bad")


def _meta_carry(ctx: Context, args: list[Any]) -> None:
    """``@carry {"pc":{"name":..,"good":..,"bad":..}}``: the first command of a campaign
    scenario (``katari play STORY --campaign-from PREVIOUS`` sends it); its JSON comes
    read and bounded (runner/rules/meta.py)."""
    from runner.rules.ureg.abilities import BAD_ABILITIES, GOOD_ABILITIES

    if not C.option(ctx.story, "campaign"):
        raise RuleError(
            C.t(
                ctx,
                "この物語はキャンペーンのシナリオではありません（options に campaign: true がない）",
                "this story is not a campaign scenario (its options have no campaign: true)",
            )
        )
    r = C.R(ctx)
    if A.get(ctx.state, "turn", 0) or r.get("chosen"):
        raise RuleError(
            C.t(
                ctx,
                "引き継ぎはシナリオの始めにだけできます（もう始まっています）",
                "a carry can only start a scenario; this game has already moved on",
            )
        )
    carry = args[0]
    if (
        not isinstance(carry, dict)
        or not carry
        or not all(isinstance(k, str) and k and isinstance(v, dict) for k, v in carry.items())
    ):
        raise RuleError('@carry takes a JSON object of PCs: {"pc":{"good":..,"bad":..}}')
    clean: dict[str, Any] = {}
    for cid, d in carry.items():
        good, bad = d.get("good"), d.get("bad")
        if good not in GOOD_ABILITIES or bad not in BAD_ABILITIES:
            raise RuleError(
                f"@carry: {cid} needs a ○ ability and a × ability (good, bad), not {good!r}/{bad!r}"
            )
        clean[cid] = {k: str(d[k]) for k in _CARRY_KEYS if isinstance(d.get(k), str)}
    apply_carry(ctx, clean)
    for cid in clean:
        c = C.character(ctx, cid)
        ctx.say(
            C.t(
                ctx,
                f"前のシナリオから脱出者を引き継ぎます（持ち物は持ち越せません）。{c.label}：{c.tags()}",
                f"Your escapee carries on from the last scenario (items stay behind). {c.label}: {c.described('en')}.",
            ),
            id="ureg.carry",
        )
    # The scenario begins again from its start, so a character selection that skips when
    # ``ureg.chosen()`` is true takes the carried PC straight in.
    start = A.start_node(ctx.story)
    if start:
        ctx.run_effects((Goto("goto", start),))
