"""The story's obstacles: their definitions, which stand in the way here, what they offer."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C


def obstacles(story: Any) -> dict[str, dict[str, Any]]:
    """Every obstacle of the story: id -> definition (with ``node`` a list)."""
    out: dict[str, dict[str, Any]] = {}
    for oid, ob in A.as_dict(A.options(story).get("obstacles")).items():
        d = A.as_dict(ob)
        d["node"] = C.split(d.get("node"))
        out[oid] = d
    for nid, node in A.section(story, "nodes").items():
        for oid, ob in A.as_dict(A.as_dict(A.get(node, "props")).get("obstacles")).items():
            d = A.as_dict(ob)
            d["node"] = C.split(d.get("node")) or [nid]
            out[oid] = d
    return out


def active(ctx: Context) -> dict[str, dict[str, Any]]:
    """Obstacles at the current node, not yet solved, not hidden (or revealed)."""
    solved, revealed = C.value(ctx, "solved"), C.value(ctx, "revealed")
    node = A.get(ctx.state, "node")
    return {
        oid: ob
        for oid, ob in obstacles(ctx.story).items()
        if (not ob["node"] or node in ob["node"])
        and oid not in solved
        and (not ob.get("hidden") or oid in revealed)
    }


def ob_name(ctx: Context, ob: dict[str, Any], oid: str) -> str:
    if C.lang(ctx) == "en":
        return ob.get("name_en") or ob.get("name") or oid
    return ob.get("name") or oid


def fixtures(ctx: Context, ob: dict[str, Any] | None = None) -> list[str]:
    """Story items usable where they stand (a desk, a statue): node props and the obstacle.
    An entry ``{item: box, vars: [looked]}`` is there only once those story variables are
    true (the player has seen it): a proposal cannot use, and so reveal, what was never shown."""
    node = A.get(ctx.state, "node")
    out = _seen(ctx, A.node_props(ctx.story, node).get("fixtures"))
    if ob:
        out += _seen(ctx, ob.get("fixtures"))
    return list(dict.fromkeys(out))


def _seen(ctx: Context, raw: Any) -> list[str]:
    if not isinstance(raw, (list, tuple)):
        return C.split(raw)
    story_vars = A.get(ctx.state, "vars") or {}
    out = []
    for f in raw:
        if isinstance(f, dict):
            if f.get("item") and all(story_vars.get(v) for v in C.split(f.get("vars"))):
                out.append(str(f["item"]))
        elif f is not None and f != "":
            out.append(str(f))
    return out
