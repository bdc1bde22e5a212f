"""Damage and healing: damage rolls, major wounds, unconsciousness, dying and death for the
investigators, armour, crushing and dazing for enemies."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7.combat.state import _enemies, _enemy_id, _name, combat, need
from runner.rules.dice import parse

_DAMAGE = {"ja": "ダメージ", "en": "damage"}
"""A damage roll's label by ck.lang()."""


def dmg_expr(base: str, db: str = "") -> str:
    """The damage roll's text: the weapon's damage plus the damage bonus (none for 0)."""
    out = base
    d = str(db or "").strip().replace(" ", "")
    if d and d not in ("0", "+0", "-0", "なし"):
        out = base + (d if d[0] in "+-" else "+" + d)
    return out


def roll_damage(
    ctx: Context,
    expr: str,
    db: str,
    *,
    extreme: bool,
    impale: bool,
    label: str,
    halve: bool = False,
) -> int:
    """Normal, or extreme: impaling = max weapon + max DB + a weapon roll; else max of all.
    ``halve`` (an investigator's blow under water): the whole damage is rolled as BCDice
    writes it, ``(1d3+1d4)/2``, rounded down."""
    full = dmg_expr(expr, db)
    if halve:
        full = _halved(full)
    if not extreme:
        return max(0, ctx.roll(full, label=label).total)
    if impale:
        top = parse(dmg_expr(expr, db)).maximum
        more = _halved(f"{top}+{expr}") if halve else expr
        extra = ctx.roll(more, label=label + ck.t(ctx, "（貫通）", " (impale)")).total
        return max(0, extra if halve else top + extra)
    # No die is rolled, but the table sees the damage and why (the rules' maximum).
    top = max(0, parse(full).maximum)
    ja, en = "（イクストリーム成功：最大）", " (extreme success: maximum)"
    ctx.emit(
        {
            "type": "roll",
            "expr": full,
            "dice": [],
            "sides": [],
            "total": top,
            "maximum": True,
            "label": label + ck.t(ctx, ja, en),
        }
    )
    return top


def _halved(expr: str) -> str:
    return f"({expr})/2"


def apply_damage(ctx: Context, pid: str, amount: int) -> list[str]:
    """Damages an investigator: major wound (≥ half max HP at once), unconscious, dying, dead."""
    keys = _apply_damage(ctx, pid, amount)
    cd.recheck(ctx)
    return keys


def _apply_damage(ctx: Context, pid: str, amount: int) -> list[str]:
    s = ctx.state.stats[pid]
    cond = s["cond"]
    amount = max(0, int(amount))
    name = s["name"]
    if amount == 0:
        return ["unhurt"]
    if cond.get("dead"):
        return ["dead"]
    keys: list[str] = []
    cond["aided"] = cond["treated"] = False
    en = ck.lang(ctx) == "en"  # only that language's lines are built
    if amount >= s["hp_max"]:
        # The rule that kills is said with the damage: one blow of at least maximum HP.
        s["hp"] = 0
        cond.update(dead=True, dying=False, unconscious=True)
        ck.say(
            ctx,
            f"{name}に {amount} ダメージ。一撃で最大耐久力（{s['hp_max']}）以上の傷は致命傷だ。"
            f"{name}は命を落とした。",
            f"{name} takes {amount} damage in one blow, at least their maximum HP ({s['hp_max']}): "
            "a fatal blow, and dies.",
        )
        return ["dead"]
    if cond.get("dying"):
        # Our reading: more harm to someone already dying ends it.
        s["hp"] = 0
        cond.update(dead=True, dying=False)
        ck.say(
            ctx,
            f"{name}に {amount} ダメージ。瀕死の身にさらに傷を受け、{name}は息絶えた。",
            f"{name} takes {amount} more damage while dying, and dies.",
        )
        return ["dead"]
    major = amount * 2 >= s["hp_max"] or s["hp"] == 0
    before = s["hp"]
    s["hp"] = max(0, before - amount)
    ctx.say(
        f"{name} takes {amount} damage (HP {before} → {s['hp']})."
        if en
        else f"{name}に {amount} ダメージ（耐久力 {before} → {s['hp']}）。"
    )
    if major:
        cond["major_wound"] = True
        keys.append("major_wound")
    if s["hp"] == 0:
        if cond.get("major_wound"):
            cond.update(dying=True, unconscious=True, stable=False)
            ctx.say(
                f"{name} collapses, mortally wounded: dying."
                if en
                else f"{name}は重傷を負って倒れた。瀕死だ。"
            )
            return ["dying", "unconscious", *keys, "hurt"]
        cond["unconscious"] = True
        ctx.say(f"{name} falls unconscious." if en else f"{name}は気を失った。")
        return ["unconscious", *keys, "hurt"]
    if major:
        ctx.say(ck.t(ctx, "重傷だ。", "A major wound."))
        r = ck.check(ctx, "CON", "regular", 0, pid)
        ck.data(ctx)["last"]["pushable"] = False
        if "success" not in r:
            cond["unconscious"] = True
            ctx.say(ck.t(ctx, f"{name}は痛みで気を失った。", f"{name} passes out from the pain."))
            return ["unconscious", *keys, "hurt"]
    return [*keys, "hurt"]


def heal(ctx: Context, pid: str, amount: int) -> int:
    s = ctx.state.stats[pid]
    before = s["hp"]
    s["hp"] = min(s["hp_max"], s["hp"] + max(0, int(amount)))
    if s["hp"] > 0 and not s["cond"].get("dying"):
        s["cond"]["unconscious"] = False
    if s["hp"] * 2 > s["hp_max"]:
        s["cond"]["major_wound"] = False
    cd.recheck(ctx)
    result: int = s["hp"] - before
    return result


def dying_roll(ctx: Context, pid: str) -> bool:
    """The dying investigator's CON roll for this round; returns True if they still live."""
    s = ctx.state.stats[pid]
    r = ck.check(ctx, "CON", "regular", 0, pid)
    ck.data(ctx)["last"]["pushable"] = False
    if "success" in r:
        ctx.say(ck.t(ctx, f"{s['name']}はまだ持ちこたえている。", f"{s['name']} clings to life."))
        return True
    s["cond"].update(dead=True, dying=False)
    cd.recheck(ctx)
    ctx.say(ck.t(ctx, f"{s['name']}は息を引き取った。", f"{s['name']} dies."))
    return False


def tick(ctx: Context) -> list[str]:
    """One round passes outside combat: every dying investigator makes a CON roll."""
    died = False
    for pid in ck.pc_ids(ctx):
        cond = ctx.state.stats[pid]["cond"]
        if cond.get("dying") and not cond.get("stable") and not dying_roll(ctx, pid):
            died = True
    return ["dead"] if died else ["alive"]


def damage(ctx: Context, amount: Any, who: str = "", label: str = "") -> list[str]:
    """Story damage (a fall, 3d3 of deep water): a number or dice notation. ``who`` may be
    an enemy in the current fight (a GM's ``ダメージ 触腕1 2``): the fight's copy takes it."""
    c = combat(ctx)
    foe = c["c"].get(str(who)) if c and who else None
    pid = str(who) if foe is not None and foe["side"] == "enemy" else ck.pc_id(ctx, who)
    if isinstance(amount, int):
        n = amount
    else:
        n = ctx.roll(str(amount), label=label or ck.t(ctx, "ダメージ", "damage")).total
    return hurt(ctx, pid, n)  # (an investigator's harm is apply_damage's, in a fight or not)


def hurt(ctx: Context, tid: str, amount: int) -> list[str]:
    """Damages a combatant or investigator; enemies may be crushed or dazed (ruling DA-09)."""
    c = combat(ctx)
    rec = c["c"].get(tid) if c else None
    if c is None or rec is None or rec["side"] == "pc":
        return apply_damage(ctx, tid, amount)
    s = rec["sheet"]
    amount = max(0, amount - int(s.get("armour", 0)))
    before = s["hp"]
    s["hp"] = max(0, before - amount)
    en = ck.lang(ctx) == "en"  # only that language's line is built
    ctx.say(f"{s['name']} takes {amount} damage." if en else f"{s['name']}に {amount} ダメージ。")
    if ctx.gm:
        ctx.say(
            f"{s['name']} HP {before} → {s['hp']}"
            if en
            else f"{s['name']}の耐久力 {before} → {s['hp']}",
            keeper=True,
        )
    if s["hp"] == 0:
        rec["down"] = True
        _release(c, tid)
        ctx.say(f"{s['name']} is destroyed." if en else f"{s['name']}は潰れた。")
        return ["crushed", "hurt"]
    at = s.get("daze_at")
    if at and amount >= int(at):
        daze_enemy(ctx, tid)
        return ["dazed", "hurt"]
    return ["hurt"] if amount else ["unhurt"]


def _halves(c: dict[str, Any] | None, target: dict[str, Any] | None) -> bool:
    """Under water the investigators' blows on an enemy are halved (the deep-sea scenario):
    rolled as ``(damage)/2``."""
    return bool(
        c is not None
        and c["opts"].get("underwater")
        and target is not None
        and target["side"] == "enemy"
    )


def _release(c: dict[str, Any], eid: str) -> None:
    rec = c["c"][eid]
    held = rec.get("holding")
    if held and held in c["c"]:
        c["c"][held]["held_by"] = None
    rec["holding"] = None


def daze_enemy(ctx: Context, eid: str, rounds: Any = "1d10") -> int:
    """Dazes (怯み) an enemy for 1D10 rounds: it makes no attacks and lets go of its hold."""
    c = need(ctx)
    rec = c["c"][eid]
    n = (
        rounds
        if isinstance(rounds, int)
        else ctx.roll(str(rounds), label=ck.t(ctx, "怯み", "daze")).total
    )
    rec["dazed"] = max(rec["dazed"], int(n))
    _release(c, eid)
    ctx.say(
        ck.t(
            ctx,
            f"{_name(ctx, eid)}が怯んだ（{rec['dazed']}ラウンド）。",
            f"{_name(ctx, eid)} flinches ({rec['dazed']} rounds).",
        )
    )
    result: int = rec["dazed"]
    return result


def daze(ctx: Context, target: str = "", rounds: Any = "1d10") -> list[str]:
    """Story hook: dazes an enemy (``all`` for every one)."""
    c = need(ctx)
    ids = _enemies(c) if str(target) in ("all", "全部") else [_enemy_id(ctx, c, target)]
    for e in ids:
        daze_enemy(ctx, e, rounds)
    return ["dazed"]
