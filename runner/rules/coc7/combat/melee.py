"""One melee attack or maneuver, resolved: attack roll, dodge or fight back, damage."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.combat.damage import _DAMAGE, _halves, hurt, roll_damage
from runner.rules.coc7.combat.state import _sheet_in, combat


def _pc_attack_skill(
    ctx: Context, c: dict[str, Any] | None, s: dict[str, Any], default: str
) -> tuple[str, int]:
    if c is not None and c["opts"].get("underwater"):
        return sh.skill_value(s, "水泳")
    return sh.skill_value(s, default)


def _default_weapon(s: dict[str, Any]) -> dict[str, Any]:
    for w in s.get("weapons", []):
        if not w.get("firearm"):
            result: dict[str, Any] = w
            return result
    return sh.weapon("素手")


def _find_weapon(s: dict[str, Any], name: str, firearm: bool | None = None) -> dict[str, Any]:
    ws = s.setdefault("weapons", [])
    for w in ws:
        if (not name or w["name"] == name) and (
            firearm is None or bool(w.get("firearm")) == firearm
        ):
            result: dict[str, Any] = w
            return result
    if not name and firearm is False:
        return sh.weapon("素手")
    what = name or ("a firearm" if firearm else "a weapon")
    raise RuleError(f"{s['name']} has no {what}")


def melee(
    ctx: Context,
    att: str,
    tid: str,
    attack: dict[str, Any],
    response: str,
    *,
    bonus: int = 0,
    skill_name: str = "",
    skill_override: int | None = None,
) -> list[str]:
    """Resolves one melee attack (or maneuver) by ``att`` on ``tid``; returns outcome keys."""
    c = combat(ctx)
    a_rec = c["c"].get(att) if c else None
    t_rec = c["c"].get(tid) if c else None
    a_s = _sheet_in(ctx, c, att)
    t_s = _sheet_in(ctx, c, tid)
    enemy_attacks = a_s.get("kind") == "creature"
    if enemy_attacks:
        aname = attack.get("name", "攻撃")
        avalue = int(attack.get("skill", a_s["fighting"]))
        db, impale = "", bool(attack.get("impale"))
    else:
        aname, avalue = _pc_attack_skill(ctx, c, a_s, attack.get("skill", "近接戦闘(格闘)"))
        db = a_s.get("db", "") if attack.get("db", True) else ""
        impale = bool(attack.get("impale"))
    if skill_override is not None:
        avalue = skill_override
    if skill_name:
        aname = skill_name
    is_maneuver = bool(attack.get("maneuver"))
    if is_maneuver:
        gap = int(t_s.get("build", 0)) - int(a_s.get("build", 0))
        if gap >= 3:
            ctx.say(
                ck.t(
                    ctx,
                    f"体格差がありすぎて、{t_s['name']}には通じない。",
                    f"{t_s['name']} is far too big for that.",
                )
            )
            return ["impossible"]
        bonus -= max(0, gap)
    if t_rec is not None and t_rec["responded"] > 0 and response != "none":
        bonus += 1  # outnumbered: it already answered an attack this round
    ar = ck.roll_d100(ctx, avalue, bonus=bonus, label=f"{a_s['name']}:{aname}", who=att)
    ra = ck.RANK[ar["level"]]
    if ra >= 1:
        ck.mark(a_s, aname)
    rd = -2
    if response != "none":
        if response == "dodge":
            dname, dvalue = (
                _pc_attack_skill(ctx, c, t_s, "回避")
                if t_s.get("kind") != "creature"
                else ("回避", t_s["dodge"])
            )
        elif response == "fight":
            if t_s.get("kind") == "creature":
                dname, dvalue = "近接戦闘", t_s["fighting"]
            else:
                dname, dvalue = _pc_attack_skill(
                    ctx, c, t_s, _default_weapon(t_s).get("skill", "近接戦闘(格闘)")
                )
        else:  # another skill answering like a dodge (Stealth in the dark, ruling DA-07)
            dname, dvalue = sh.skill_value(t_s, response)
        dr = ck.roll_d100(ctx, dvalue, label=f"{t_s['name']}:{dname}", who=tid)
        rd = ck.RANK[dr["level"]]
        if rd >= 1:
            ck.mark(t_s, dname)
        if t_rec is not None:
            t_rec["responded"] += 1
        if response == "dodge" and t_rec is not None and t_rec.get("held_by") == att and rd < 3:
            # Held by this arm: only an Extreme dodge counts (ruling DA-11).
            rd = min(rd, 0)
    hit = counter = False
    if response == "none":
        hit = ra >= 1
    elif response == "fight":
        if ra >= 1 and ra >= rd:
            hit = True
        elif rd >= 1 and rd > ra:
            counter = True
    else:
        hit = ra >= 1 and ra > rd
    if hit:
        if is_maneuver:
            if c is not None and t_rec is not None and a_rec is not None:
                old = t_rec.get("held_by")
                if old and old in c["c"]:
                    c["c"][old]["holding"] = None
                t_rec["held_by"], a_rec["holding"] = att, tid
            ctx.say(
                ck.t(
                    ctx,
                    f"{t_s['name']}は{a_s['name']}に捕らえられた！",
                    f"{a_s['name']} seizes {t_s['name']}!",
                )
            )
            return ["held", "hit"]
        extreme = ra >= 3
        amount = roll_damage(
            ctx,
            attack.get("damage", "1d3"),
            db,
            extreme=extreme,
            impale=impale,
            label=_DAMAGE[ck.lang(ctx)],
            halve=_halves(c, t_rec),
        )
        keys = hurt(ctx, tid, amount)
        lead = (["impale"] if impale else ["extreme"]) if extreme else []
        return [*keys, *lead, "hit"]
    # Below, only the story language's line is built (this runs for every attack).
    en = ck.lang(ctx) == "en"
    if counter:
        ctx.say(f"{t_s['name']} strikes back!" if en else f"{t_s['name']}の反撃！")
        if t_s.get("kind") == "creature":
            w = next((x for x in t_s["attacks"] if not x.get("maneuver")), t_s["attacks"][0])
            amount = roll_damage(
                ctx,
                w.get("damage", "1d3"),
                "",
                extreme=False,
                impale=False,
                label="damage" if en else "ダメージ",
            )
        else:
            w = _default_weapon(t_s)
            amount = roll_damage(
                ctx,
                w.get("damage", "1d3"),
                t_s.get("db", "") if w.get("db", True) else "",
                extreme=False,
                impale=False,
                label="damage" if en else "ダメージ",
                halve=_halves(c, a_rec),
            )
        keys = hurt(ctx, att, amount)
        return ["countered", *keys, "miss"]
    if response == "dodge" and ra >= 1:
        ctx.say(f"{t_s['name']} dodges." if en else f"{t_s['name']}はかわした。")
        return ["dodged", "miss"]
    if ar["level"] == "fumble":
        ctx.say(f"{a_s['name']} fumbles." if en else f"{a_s['name']}の攻撃は大きく外れた。")
        return ["fumble", "miss"]
    ctx.say(f"{a_s['name']} misses." if en else f"{a_s['name']}の攻撃は当たらなかった。")
    return ["miss"]
