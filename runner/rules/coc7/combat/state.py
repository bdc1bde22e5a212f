"""The running fight's record (``state.rules["coc7"]["combat"]``) and small reads of it:
who is present, which enemies stand, who a target names."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck

_NO_COND: dict[str, Any] = {}
"""What able() reads for a sheet without conditions (never written)."""


MAX_ROUNDS = 100
"""A fight the investigators can no longer influence is played out at most this long."""


def combat(ctx: Context) -> dict[str, Any] | None:
    return ck.data(ctx).get("combat")


def need(ctx: Context) -> dict[str, Any]:
    c = combat(ctx)
    if c is None:
        raise RuleError("no combat is running: call coc7.start_combat(...) first")
    return c


def sheet(ctx: Context, cid: str) -> dict[str, Any]:
    return _sheet_in(ctx, combat(ctx), cid)


def _sheet_in(ctx: Context, c: dict[str, Any] | None, cid: str) -> dict[str, Any]:
    """The sheet of ``cid``: an enemy's own copy in fight ``c``, else ``state.stats``."""
    if c is not None:
        r = c["c"].get(cid)
        if r is not None and r["side"] == "enemy":
            result: dict[str, Any] = r["sheet"]
            return result
    result = ctx.state.stats[cid]
    return result


def _name(ctx: Context, cid: str) -> str:
    result: str = sheet(ctx, cid).get("name", cid)
    return result


def able(s: dict[str, Any]) -> bool:
    """Can act and defend: alive, conscious."""
    cond = s.get("cond", _NO_COND)
    return not (cond.get("dead") or cond.get("unconscious") or cond.get("dying"))


def _opts(text: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for tok in str(text or "").replace("、", ",").replace(" ", ",").split(","):
        tok = tok.strip()
        if not tok:
            continue
        k, _, v = tok.partition("=")
        out[k.strip().lower()] = v.strip() if v else True
    return out


def _pick(ctx: Context, n: int, label: str) -> int:
    """A seeded choice among n things (0-based), rolled as a keeper-only 1dn."""
    if n <= 1:
        return 0
    expr = f"1d{n}"
    f = ctx.faces([n], expr=expr)[0]
    # Through emit, so a front end that hides keeper events hides this one.
    ctx.emit(
        {
            "type": "roll",
            "expr": expr,
            "dice": [f],
            "sides": [n],
            "total": f,
            "label": label,
            "keeper": True,
        }
    )
    return f - 1


def _present(c: dict[str, Any]) -> list[str]:
    return [k for k in c["order"] if c["c"][k]["side"] == "pc" and not c["c"][k]["fled"]]


def _enemies(c: dict[str, Any]) -> list[str]:
    return [k for k in c["order"] if c["c"][k]["side"] == "enemy" and not c["c"][k]["down"]]


def _enemy_id(ctx: Context, c: dict[str, Any], target: Any) -> str:
    live = _enemies(c)
    if not live:
        raise RuleError("no enemy left")
    t = str(target or "")
    if not t:
        return live[0]
    if t in c["c"] and c["c"][t]["side"] == "enemy":
        return t
    for k in c["order"]:
        if c["c"][k]["side"] == "enemy" and _name(ctx, k) == t:
            result: str = k
            return result
    if t.isdigit() and 1 <= int(t) <= len(live):
        return live[int(t) - 1]
    raise RuleError(f"no enemy {t!r}; fighting: {', '.join(_name(ctx, k) for k in live)}")
