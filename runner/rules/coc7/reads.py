"""Pure reads for conditions: points, skills, conditions, the fight, the last check, weapons."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import combat as cb
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.system import hook


def _pc(ctx: Context, who: str) -> dict[str, Any]:
    return ck.sheet_of(ctx, who)


@hook(pure=True)
def in_combat(ctx: Context) -> bool:
    return bool(ck.peek(ctx).get("combat"))


@hook(pure=True)
def awaiting(ctx: Context) -> str:
    """ "response" (dodge or fight back), "action" (an investigator's turn) or ""."""
    d = ctx.state.rules.get("coc7")  # ck.peek written out: asked after most commands
    c = d.get("combat") if d else None
    if not c:
        return ""
    return "response" if c["pending"] else ("action" if c["actor"] else "")


@hook(pure=True)
def hp(ctx: Context, who: str = "") -> int:
    c = ck.peek(ctx).get("combat")
    if c and who in c["c"] and c["c"][who]["side"] == "enemy":
        return int(c["c"][who]["sheet"]["hp"])
    return int(_pc(ctx, who)["hp"])


@hook(pure=True)
def mp(ctx: Context, who: str = "") -> int:
    return int(_pc(ctx, who)["mp"])


@hook(pure=True)
def sanity(ctx: Context, who: str = "") -> int:
    return int(_pc(ctx, who)["san"])


@hook(pure=True)
def luck_points(ctx: Context, who: str = "") -> int:
    return int(_pc(ctx, who)["luck"])


@hook(pure=True)
def skill(ctx: Context, name: str, who: str = "") -> int:
    return sh.skill_value(_pc(ctx, who), name)[1]


@hook(pure=True)
def native(ctx: Context, language: str, who: str = "") -> bool:
    """True if ``language`` is the investigator's own (rolled as 母国語)."""
    return _pc(ctx, who).get("native") == sh.LANGUAGES.get(sh._key(language), language)


@hook(pure=True)
def alive(ctx: Context, who: str = "") -> bool:
    return not _pc(ctx, who)["cond"].get("dead")


@hook(pure=True)
def any_alive(ctx: Context) -> bool:
    # Asked after every command by stories that end on death: the active investigator
    # alive answers at once; else one pass, no id list.
    st = ctx.state
    stats = st.stats
    d = st.rules.get("coc7")
    v = stats.get(d.get("pc") or "") if d else None
    if (
        type(v) is dict
        and v.get("system") == "coc7"
        and v.get("kind") == "investigator"
        and not v["cond"].get("dead")
    ):
        return True
    for v in stats.values():
        if (
            isinstance(v, dict)
            and v.get("system") == "coc7"
            and v.get("kind") == "investigator"
            and not v["cond"].get("dead")
        ):
            return True
    return False


@hook(pure=True)
def conscious(ctx: Context, who: str = "") -> bool:
    return cb.able(_pc(ctx, who))


@hook(pure=True)
def dying(ctx: Context, who: str = "") -> bool:
    return bool(_pc(ctx, who)["cond"].get("dying"))


@hook(pure=True)
def insane(ctx: Context, who: str = "") -> str:
    """ "", "temporary", "indefinite" or "permanent"."""
    return str(_pc(ctx, who)["cond"].get("insane", ""))


@hook(pure=True)
def held(ctx: Context, who: str = "") -> bool:
    c = ck.peek(ctx).get("combat")
    pid = ck.pc_id(ctx, who)
    return bool(c and pid in c["c"] and c["c"][pid]["held_by"])


@hook(pure=True)
def dazed(ctx: Context, target: str) -> bool:
    c = ck.peek(ctx).get("combat")
    return bool(c and target in c["c"] and c["c"][target]["dazed"] > 0)


@hook(pure=True)
def all_dazed(ctx: Context) -> bool:
    """Every enemy still standing is dazed (the moment to shut the door, ruling DA-09)."""
    c = ck.peek(ctx).get("combat")
    if not c:
        return False
    live = cb._enemies(c)
    return bool(live) and all(c["c"][k]["dazed"] > 0 for k in live)


@hook(pure=True)
def enemies_left(ctx: Context) -> int:
    c = ck.peek(ctx).get("combat")
    return len(cb._enemies(c)) if c else 0


@hook(pure=True)
def combat_round(ctx: Context) -> int:
    c = ck.peek(ctx).get("combat")
    return int(c["round"]) if c else 0


@hook(pure=True)
def last_combat(ctx: Context) -> str:
    """The result of the last finished fight (victory, defeat, escaped, repelled...)."""
    lc = ck.peek(ctx).get("last_combat")
    return str(lc["result"]) if lc else ""


@hook(pure=True)
def last_level(ctx: Context) -> str:
    last = ck.peek(ctx).get("last")
    return str(last["level"]) if last else ""


@hook(pure=True)
def last_loss(ctx: Context) -> int:
    ls = ck.peek(ctx).get("last_san")
    return int(ls["lost"]) if ls else 0


@hook(pure=True)
def ammo(ctx: Context, weapon: str = "", who: str = "") -> int:
    s = _pc(ctx, who)
    for w in s.get("weapons", []):
        if w.get("firearm") and (not weapon or w["name"] == weapon):
            return int(w.get("ammo", 0))
    return 0


@hook(pure=True)
def jammed(ctx: Context, weapon: str = "", who: str = "") -> bool:
    s = _pc(ctx, who)
    return any(
        w.get("jammed")
        for w in s.get("weapons", [])
        if w.get("firearm") and (not weapon or w["name"] == weapon)
    )


@hook(pure=True)
def has_weapon(ctx: Context, name: str, who: str = "") -> bool:
    return any(w["name"] == name for w in _pc(ctx, who).get("weapons", []))
