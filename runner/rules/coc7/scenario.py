"""Scenario-level coc7 rules that the core hooks do not cover: picking an undazed enemy and a
deep-water ascent (swimming up from the sea floor under pressure, with arms that reach only
so far from their lair).

The ascent is a rule, not one story's special case: a story starts it with the depth to the
surface, the reach of the guarding creature and how many of its arms attack; each turn is one
minute of water pressure (paid in MP while a protection lasts, else in damage), one Swim move
(up or sideways) or a Swim attack, then the arms still in reach attack, answered with Swim.
Rulings DA-02, DA-19, DA-20, DA-21 in the deep-sea scenario pin the numbers.
"""

from __future__ import annotations

import math
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import combat as cb
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.system import SYSTEM

hook = SYSTEM.hook


@hook(pure=True)
def undazed_enemy(ctx: Context) -> str:
    """The id of the first enemy still standing that is not dazed ("" if none)."""
    c = ck.peek(ctx).get("combat")
    if not c:
        return ""
    for k in cb._enemies(c):
        if c["c"][k]["dazed"] <= 0:
            return k
    return ""


# ---------------------------------------------------------------- the ascent


def _ascent(ctx: Context) -> dict[str, Any]:
    a = ck.peek(ctx).get("ascent")
    if not a:
        raise RuleError("no ascent is running: call coc7.ascent_begin(...) first")
    result: dict[str, Any] = a
    return result


@hook()
def ascent_begin(
    ctx: Context,
    enemy: str,
    arms: Any = 2,
    depth: Any = 200,
    reach: Any = 50,
    pressure: str = "3d3",
) -> list[str]:
    """Starts a swim up from ``depth`` metres with ``arms`` fresh copies of story character
    ``enemy`` attacking while the swimmer is closer than ``reach`` metres to the start."""
    found = ck.story_enemy_copy(ctx, enemy)
    if found is None:
        raise RuleError(f"no story character {enemy!r}")
    name, props, _built, fresh = found
    base = fresh()  # the fight's own sheet: the built one is the story's
    short = str(props.get("short") or name)
    n = int(arms)
    recs = {}
    for i in range(1, n + 1):
        recs[f"{enemy}{i}"] = {"name": f"{short}{i}", "hp": base["hp"], "dazed": 0, "down": False}
    ck.data(ctx)["ascent"] = {
        "enemy": enemy,
        "sheet": base,
        "arms": recs,
        "rise": 0,
        "side": 0,
        "depth": int(depth),
        "reach": int(reach),
        "pressure": str(pressure),
        "minutes": 0,
    }
    return ["begun"]


def _distance(a: dict[str, Any]) -> float:
    return math.hypot(a["rise"], a["side"])


@hook(pure=True)
def ascent_rise(ctx: Context) -> int:
    """Metres climbed so far."""
    a = ck.peek(ctx).get("ascent")
    return int(a["rise"]) if a else 0


@hook(pure=True)
def ascent_left(ctx: Context) -> int:
    """Metres still to the surface."""
    a = ck.peek(ctx).get("ascent")
    return max(0, int(a["depth"]) - int(a["rise"])) if a else 0


@hook(pure=True)
def ascent_distance(ctx: Context) -> int:
    """Straight-line metres from the lair, rounded down (ruling DA-20)."""
    a = ck.peek(ctx).get("ascent")
    return int(_distance(a)) if a else 0


@hook(pure=True)
def in_reach(ctx: Context) -> bool:
    """The arms can still attack: closer than the reach (exactly the reach is safe)."""
    a = ck.peek(ctx).get("ascent")
    if not a:
        return False
    return bool(_distance(a) < a["reach"])


def _pressure(ctx: Context, a: dict[str, Any], pid: str, protected: bool) -> list[str]:
    s = ctx.state.stats[pid]
    a["minutes"] += 1
    en = ck.lang(ctx) == "en"  # every minute of the ascent: only that language's line is built
    if protected and s["mp"] > 0:
        s["mp"] -= 1
        ctx.say(
            f"The drink keeps the deep at bay. {s['name']}'s MP {s['mp'] + 1} → {s['mp']}"
            if en
            else f"薬が水圧と冷たさを退ける。{s['name']}の MP {s['mp'] + 1} → {s['mp']}"
        )
        return []
    n = ctx.roll(a["pressure"], label="deep-water damage" if en else "深海ダメージ").total
    ctx.say(
        "The pressure crushes, the cold bites, the air runs out."
        if en
        else "水圧が体を締めつけ、冷たさが骨にしみ、息が続かない。"
    )
    return cb.apply_damage(ctx, pid, n)


def _gone(s: dict[str, Any]) -> bool:
    return not cb.able(s)


@hook()
def ascent_turn(ctx: Context, move: str = "up", protected: Any = False) -> list[str]:
    """One minute of the ascent. ``move``: ``up`` (Swim: 20 m, failed 10 m), ``side``
    (40 m / 20 m), ``attack`` (a Swim attack on the first arm in reach, damage halved) or
    ``wait``. Returns ``surfaced``, ``dead``, ``unconscious`` or the move's keys, then
    ``in_reach``/``out_of_reach``."""
    a = _ascent(ctx)
    pid = ck.pc_id(ctx)
    s = ctx.state.stats[pid]
    keys = _pressure(ctx, a, pid, bool(protected))
    if _gone(s):
        return ["dead" if s["cond"].get("dead") else "unconscious", *keys]
    move = str(move or "up").lower()
    if move in ("up", "side", "上昇", "横"):
        up = move in ("up", "上昇")
        r = ck.check(ctx, "水泳", "regular", 0, pid)
        ok = "success" in r
        en = ck.lang(ctx) == "en"
        if up:
            m = 20 if ok else 10
            a["rise"] = min(a["depth"], a["rise"] + m)
            ctx.say(
                f"You rise {m} m ({a['depth'] - a['rise']} m to go)."
                if en
                else f"{m}m 浮上した（海面まであと {a['depth'] - a['rise']}m）。"
            )
        else:
            m = 40 if ok else 20
            a["side"] += m
            ctx.say(f"You swim {m} m sideways." if en else f"横へ {m}m 泳いだ。")
        keys = ["moved", *r]
    elif move in ("attack", "攻撃"):
        keys = _swim_attack(ctx, a, pid, s)
    elif move not in ("wait", "待つ"):
        raise RuleError(f"move {move!r}: up, side, attack or wait")
    if a["rise"] >= a["depth"]:
        ctx.say(ck.t(ctx, "海面に顔が出た。", "Your head breaks the surface."))
        return ["surfaced", *keys]
    if _distance(a) < a["reach"]:
        for eid, arm in a["arms"].items():
            if arm["down"]:
                continue
            if arm["dazed"] > 0:
                arm["dazed"] -= 1
                continue
            keys = _arm_attack(ctx, a, eid, pid, s) + keys
            if _gone(s):
                return ["dead" if s["cond"].get("dead") else "unconscious", *keys]
        return [*keys, "in_reach"]
    ctx.say(
        ck.t(
            ctx,
            "触腕はもう追ってこない。ここは届かない深さだ。",
            "The arms no longer follow: you are out of their reach.",
        )
    )
    return [*keys, "out_of_reach"]


def _swim_attack(ctx: Context, a: dict[str, Any], pid: str, s: dict[str, Any]) -> list[str]:
    live = [k for k, v in a["arms"].items() if not v["down"]]
    if not live or _distance(a) >= a["reach"]:
        ctx.say(ck.t(ctx, "攻撃できる触腕は近くにない。", "No arm is within reach."))
        return ["no_target"]
    eid = live[0]
    arm = a["arms"][eid]
    me = ck.roll_d100(ctx, sh.skill_value(s, "水泳")[1], label=f"{s['name']}:水泳（攻撃）", who=pid)
    dodged = False
    if arm["dazed"] <= 0:
        dr = ck.roll_d100(ctx, int(a["sheet"]["dodge"]), label=f"{arm['name']}:回避", who=eid)
        dodged = ck.RANK[dr["level"]] >= ck.RANK[me["level"]] and ck.RANK[dr["level"]] >= 1
    if ck.RANK[me["level"]] < 1 or dodged:
        ctx.say(
            ck.t(ctx, "水の重さに阻まれ、攻撃は届かなかった。", "The water slows the blow: a miss.")
        )
        return ["miss"]
    w = cb._default_weapon(s)
    n = cb.roll_damage(
        ctx,
        w.get("damage", "1d3"),
        s.get("db", "") if w.get("db", True) else "",
        extreme=ck.RANK[me["level"]] >= 3,
        impale=bool(w.get("impale")),
        label=ck.t(ctx, "ダメージ（水中で半減）", "damage (halved under water)"),
        halve=True,
    )
    arm["hp"] = max(0, arm["hp"] - n)
    ctx.say(
        ck.t(
            ctx,
            f"{arm['name']}に {n} ダメージ（水中で半減）。",
            f"{arm['name']} takes {n} (halved).",
        )
    )
    if arm["hp"] == 0:
        arm["down"] = True
        ctx.say(ck.t(ctx, f"{arm['name']}は潰れた。", f"{arm['name']} is destroyed."))
        return ["crushed", "hit"]
    at = a["sheet"].get("daze_at")
    if at and n >= int(at):
        arm["dazed"] = ctx.roll("1d10", label=ck.t(ctx, "怯み", "daze")).total
        ctx.say(ck.t(ctx, f"{arm['name']}が怯んだ。", f"{arm['name']} flinches."))
        return ["dazed", "hit"]
    return ["hit"]


def _arm_attack(
    ctx: Context, a: dict[str, Any], eid: str, pid: str, s: dict[str, Any]
) -> list[str]:
    es = a["sheet"]
    arm = a["arms"][eid]
    en = ck.lang(ctx) == "en"  # every arm, every minute: only that language's line is built
    strikes = [x for x in es["attacks"] if not x.get("maneuver")] or es["attacks"]
    w = strikes[cb._pick(ctx, len(strikes), "attack" if en else "攻撃方法")]
    ctx.say(f"{arm['name']} attacks!" if en else f"{arm['name']}が「{w['name']}」で襲いかかる！")
    ar = ck.roll_d100(ctx, int(es["fighting"]), label=f"{arm['name']}:近接戦闘", who=eid)
    dname, dvalue = sh.skill_value(s, "水泳")  # underwater every dodge is Swim
    dr = ck.roll_d100(ctx, dvalue, label=f"{s['name']}:{dname}（回避）", who=pid)
    ra, rd = ck.RANK[ar["level"]], ck.RANK[dr["level"]]
    if ra >= 1 and ra > rd:
        n = cb.roll_damage(
            ctx,
            w.get("damage", es["damage"]),
            "",
            extreme=ra >= 3,
            impale=False,
            label="damage" if en else "ダメージ",
        )
        return ["hit_by", *cb.apply_damage(ctx, pid, n)]
    if ra < 1:  # the arm missed: whether or not the swimmer's dodge worked
        ctx.say(f"{arm['name']} misses." if en else f"{arm['name']}の一撃は水を切っただけだった。")
        return ["miss"]
    ctx.say(f"{s['name']} kicks clear." if en else f"{s['name']}は水を蹴ってかわした。")
    return ["dodged"]


# ---------------------------------------------------------------- small generic helpers


@hook(pure=True)
def best_skill(ctx: Context, *names: str) -> str:
    """The name among ``names`` the active investigator is best at (for "roll any one of")."""
    if not names:
        raise RuleError("best_skill needs at least one skill name")
    s = ck.sheet_of(ctx)
    best, top = names[0], None
    for n in names:  # max() by value; the first of equals wins
        v = sh.skill_value(s, str(n))[1]
        if top is None or v > top:
            best, top = n, v
    return str(best)


@hook()
def weapon_damage(ctx: Context, weapon: str = "", who: str = "") -> int:
    """Rolls the investigator's melee damage (weapon plus damage bonus) and returns it, for
    harm to things that are not combatants (a door, a box)."""
    s = ck.sheet_of(ctx, who)
    w = cb._find_weapon(s, str(weapon or ""), False)
    db = s.get("db", "") if w.get("db", True) else ""
    return cb.roll_damage(
        ctx,
        w.get("damage", "1d3"),
        db,
        extreme=False,
        impale=False,
        label=ck.t(ctx, "ダメージ", "damage"),
    )


@hook()
def tell_time(ctx: Context) -> list[str]:
    """Says the story clock's time (a bedside clock, a wristwatch)."""
    start = ctx.story.clock.start if getattr(ctx.story, "clock", None) else 0
    t = (start + int(ctx.state.clock)) % (24 * 60)
    ctx.say(
        ck.t(
            ctx,
            f"時計の針は{t // 60}時{t % 60:02d}分を指している。",
            f"The clock shows {t // 60}:{t % 60:02d}.",
        )
    )
    return ["told"]


@hook()
def grope_all(ctx: Context, response: str = "隠密") -> list[str]:
    """The lights go out mid-fight (ruling DA-07): every enemy still standing and not dazed
    gropes once for every investigator present, who answers with ``response``; then the
    fight ends as ``repelled``. Returns ``found`` if anyone was found, else ``hidden``."""
    c = cb.need(ctx)
    found = False
    for eid in [k for k in cb._enemies(c) if c["c"][k]["dazed"] <= 0]:
        for pid in cb._present(c):
            if ctx.state.stats[pid]["cond"].get("dead"):
                continue
            if "found" in cb.grope(ctx, eid, response, pid):
                found = True
    cb.finish(ctx, "repelled")
    return ["found" if found else "hidden"]
