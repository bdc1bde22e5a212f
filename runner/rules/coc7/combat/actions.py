"""What an investigator does on their turn: attack, maneuver, shoot, aim, reload, throw,
flee, First Aid and Medicine; and an enemy groping in the dark."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.combat.damage import (
    _halves,
    _release,
    apply_damage,
    daze_enemy,
    heal,
    hurt,
    roll_damage,
)
from runner.rules.coc7.combat.melee import _find_weapon, melee
from runner.rules.coc7.combat.rounds import _actor, _after, _turn_done
from runner.rules.coc7.combat.state import _enemies, _enemy_id, able, combat, need


def _treat(ctx: Context, target: str, who: str, skill: str, cannot: str, apply: Any) -> list[str]:
    """A healing skill roll by ``who`` on ``target`` (default: themself), then ``apply``."""
    healer = ck.pc_id(ctx, who)
    tid = ck.pc_id(ctx, target) if target else healer
    ts = ctx.state.stats[tid]
    if ts["cond"].get("dead"):
        raise RuleError(f"{ts['name']} is dead")
    if not able(ctx.state.stats[healer]):
        raise RuleError(f"{ctx.state.stats[healer]['name']} {cannot}")
    r = ck.check(ctx, skill, "regular", 0, healer)
    keys = apply(ctx, ts, tid, r)
    cd.recheck(ctx)
    return _turn_done(ctx, healer, keys)


def first_aid(ctx: Context, target: str = "", who: str = "") -> list[str]:
    """First Aid: stabilises the dying, wakes the unconscious, or +1 HP once per injury."""
    return _treat(ctx, target, who, "応急手当", "cannot give first aid now", _first_aid)


def _first_aid(ctx: Context, ts: dict[str, Any], tid: str, r: list[str]) -> list[str]:
    cond = ts["cond"]
    if "success" not in r:
        return r
    if cond.get("dying"):
        cond.update(dying=False, stable=True)
        ts["hp"] = max(ts["hp"], 1)
        cond["aided"] = True
        ctx.say(
            ck.t(
                ctx,
                f"{ts['name']}の容体が安定した。だが医学の手当てが要る。",
                f"{ts['name']} is stabilised, but needs Medicine.",
            )
        )
        return ["stabilised", *r]
    if cond.get("aided"):
        ctx.say(
            ck.t(ctx, "この傷には、もう応急手当が済んでいる。", "This wound was already treated.")
        )
        return ["no_effect", *r]
    cond["aided"] = True
    heal(ctx, tid, 1)
    ctx.say(
        ck.t(
            ctx,
            f"{ts['name']}の耐久力が 1 回復した（{ts['hp']}）。",
            f"{ts['name']} regains 1 HP ({ts['hp']}).",
        )
    )
    return ["healed", *r]


def medicine(ctx: Context, target: str = "", who: str = "") -> list[str]:
    """Medicine: +1D3 HP once per injury; ends a stabilised investigator's danger."""
    return _treat(ctx, target, who, "医学", "cannot treat anyone now", _medicine)


def _medicine(ctx: Context, ts: dict[str, Any], tid: str, r: list[str]) -> list[str]:
    cond = ts["cond"]
    if "success" not in r:
        return r
    if cond.get("treated"):
        ctx.say(
            ck.t(
                ctx, "この傷には、もう医学の手当てが済んでいる。", "This wound was already treated."
            )
        )
        return ["no_effect", *r]
    cond.update(treated=True, dying=False, stable=False)
    got = heal(ctx, tid, ctx.roll("1d3", label=ck.t(ctx, "回復", "healing")).total)
    ctx.say(
        ck.t(
            ctx,
            f"{ts['name']}の耐久力が {got} 回復した（{ts['hp']}）。",
            f"{ts['name']} regains {got} HP ({ts['hp']}).",
        )
    )
    return ["healed", *r]


def attack(ctx: Context, target: str = "", weapon: str = "") -> list[str]:
    """The acting investigator's melee attack; the enemy fights back or dodges, whichever
    is better for it (nothing while dazed)."""
    pid = _actor(ctx)
    c = need(ctx)
    eid = _enemy_id(ctx, c, target)
    s = ctx.state.stats[pid]
    w = _find_weapon(s, str(weapon or ""), False)
    if w.get("firearm"):
        return shoot(ctx, target, "", 1, w["name"])
    e = c["c"][eid]
    es = e["sheet"]
    response = "none" if e["dazed"] > 0 else ("fight" if es["fighting"] >= es["dodge"] else "dodge")
    keys = melee(ctx, pid, eid, w, response)
    return _after(ctx, keys)


def maneuver(ctx: Context, target: str = "", kind: str = "escape") -> list[str]:
    """A combat maneuver by build (7e): ``escape`` from a hold, or ``hold``/``knockdown``/
    ``disarm`` an enemy. Smaller by 1 or 2 build → penalty dice; by 3 → impossible."""
    pid = _actor(ctx)
    c = need(ctx)
    me = c["c"][pid]
    kind = str(kind or "escape").lower()
    if kind in ("escape", "脱出"):
        holder = me.get("held_by")
        if not holder:
            raise RuleError("nobody is holding this investigator")
        eid = holder
    else:
        eid = _enemy_id(ctx, c, target)
    e = c["c"][eid]
    es = e["sheet"]
    response = "none" if e["dazed"] > 0 else "fight"
    keys = melee(
        ctx, pid, eid, {"name": kind, "maneuver": kind, "skill": "近接戦闘(格闘)"}, response
    )
    if keys == ["impossible"]:
        return keys  # not attempted: the turn is not used
    if "held" in keys:
        keys.remove("held")
        # melee() records a hold of the enemy by the investigator; undo it unless asked.
        e["held_by"], me["holding"] = None, None
        if kind == "hold":
            e["held_by"], me["holding"] = pid, eid
        if kind in ("escape", "脱出"):
            _release(c, eid)
            ctx.say(
                ck.t(
                    ctx,
                    f"{ctx.state.stats[pid]['name']}は{es['name']}を振りほどいた！",
                    f"{ctx.state.stats[pid]['name']} breaks free!",
                )
            )
            keys = ["escaped_hold", *keys]
        else:
            keys = [kind, *keys]  # hold/knockdown/disarm: the story reads the key
    return _after(ctx, keys)


def shoot(
    ctx: Context, target: str = "", range_: str = "", shots: Any = 1, weapon: str = ""
) -> list[str]:
    """Fires a firearm: not opposed; range ``normal``/``long`` (Hard)/``very_long`` (Extreme)/
    ``point_blank`` (+1 bonus die); 2-3 shots each take a penalty die; aiming gives a bonus
    die; a roll at or over the malfunction number jams; an Extreme success impales."""
    pid = _actor(ctx)
    c = need(ctx)
    eid = _enemy_id(ctx, c, target)
    s = ctx.state.stats[pid]
    w = _find_weapon(s, str(weapon or ""), True)
    rng = str(range_ or "normal").lower()
    diff = {
        "normal": "regular",
        "": "regular",
        "point_blank": "regular",
        "pb": "regular",
        "至近": "regular",
        "通常": "regular",
        "long": "hard",
        "遠距離": "hard",
        "very_long": "extreme",
        "extreme": "extreme",
        "超遠距離": "extreme",
    }.get(rng)
    if diff is None:
        raise RuleError(f"range {range_!r}: normal, long, very_long or point_blank")
    if w.get("jammed"):
        ctx.say(ck.t(ctx, f"{w['name']}は弾詰まりしている。", f"The {w['name']} is jammed."))
        return ["jammed"]
    n = max(1, min(int(shots or 1), int(w.get("shots", 1))))
    bonus = 0
    if rng in ("point_blank", "pb", "至近"):
        bonus += 1
    if c["c"][pid].get("aim"):
        bonus += 1
        c["c"][pid]["aim"] = False
    if n > 1:
        bonus -= 1
    if int(c["c"][eid]["sheet"].get("build", 0)) >= 4:
        bonus += 1  # a big target
    if c["opts"].get("melee"):
        bonus -= 1  # firing into a melee
    skill, value = sh.skill_value(s, w.get("skill", "射撃(拳銃)"))
    best: list[str] = []
    for _ in range(n):
        if int(w.get("ammo", 0)) <= 0:
            ctx.say(ck.t(ctx, "カチッ。弾切れだ。", "Click. Out of ammunition."))
            best = best or ["empty"]
            break
        r = ck.roll_d100(ctx, value, bonus=bonus, diff=diff, label=f"{s['name']}:{skill}", who=pid)
        if r["total"] >= int(w.get("malfunction", 100)):
            w["jammed"] = True
            ctx.say(
                ck.t(ctx, f"{w['name']}が作動しない！（故障）", f"The {w['name']} malfunctions!")
            )
            best = best or ["jam", "miss"]
            break
        w["ammo"] = int(w["ammo"]) - 1
        if not r["success"]:
            ctx.say(ck.t(ctx, "弾は外れた。", "The shot misses."))
            best = best or (["fumble", "miss"] if r["level"] == "fumble" else ["miss"])
            continue
        ck.mark(s, skill)
        extreme = ck.RANK[r["level"]] >= 3
        amount = roll_damage(
            ctx,
            w.get("damage", "1d10"),
            "",
            extreme=extreme,
            impale=bool(w.get("impale", True)),
            label=ck.t(ctx, "ダメージ", "damage"),
            halve=_halves(c, c["c"][eid]),
        )
        keys = hurt(ctx, eid, amount)
        lead = ["impale"] if extreme else []
        best = [*keys, *lead, "hit"]
        if c["c"][eid]["down"]:
            break
    ctx.say(ck.t(ctx, f"{w['name']}の残弾 {w['ammo']}。", f"{w['name']}: {w['ammo']} rounds left."))
    return _after(ctx, best)


def shoot_at(ctx: Context, thing: str = "", weapon: str = "") -> list[str]:
    """Fires one round at an object (a lamp, a lock), not at an enemy: a Firearms roll that
    spends the round and may jam, and no damage roll. Returns check keys (``success``... or
    ``failure``; ``jam``/``empty``/``jammed`` first when the gun did not fire). The turn goes
    on: the story passes it (``coc7.pass_turn()``) or uses the result, as with a check."""
    c = combat(ctx)
    pid = _actor(ctx) if c else ck.pc_id(ctx)
    s = ctx.state.stats[pid]
    w = _find_weapon(s, str(weapon or ""), True)
    if w.get("jammed"):
        ctx.say(ck.t(ctx, f"{w['name']}は弾詰まりしている。", f"The {w['name']} is jammed."))
        return ["jammed", "failure"]
    if int(w.get("ammo", 0)) <= 0:
        ctx.say(ck.t(ctx, "カチッ。弾切れだ。", "Click. Out of ammunition."))
        return ["empty", "failure"]
    skill, value = sh.skill_value(s, w.get("skill", "射撃(拳銃)"))
    label = f"{s['name']}:{skill}" + (f" → {thing}" if thing else "")
    r = ck.roll_d100(ctx, value, label=label, who=pid)
    ck.data(ctx)["last"] = None  # a shot is never pushed
    if r["total"] >= int(w.get("malfunction", 100)):
        w["jammed"] = True
        ctx.say(ck.t(ctx, f"{w['name']}が作動しない！（故障）", f"The {w['name']} malfunctions!"))
        return ["jam", "failure"]
    w["ammo"] = int(w["ammo"]) - 1
    if r["success"]:
        ck.mark(s, skill)
    ctx.say(ck.t(ctx, f"{w['name']}の残弾 {w['ammo']}。", f"{w['name']}: {w['ammo']} rounds left."))
    return ck.outcome_keys(r["level"], bool(r["success"]))


def aim(ctx: Context) -> list[str]:
    """Spends the turn aiming: the next shot gets a bonus die."""
    pid = _actor(ctx)
    need(ctx)["c"][pid]["aim"] = True
    ctx.say(ck.t(ctx, "狙いを定めた。", "You take aim."))
    return _after(ctx, ["aimed"])


def reload(ctx: Context, weapon: str = "") -> list[str]:
    """Loads up to two spare rounds into the gun (takes the turn in a fight)."""
    c = combat(ctx)
    pid = _actor(ctx) if c else ck.pc_id(ctx)
    s = ctx.state.stats[pid]
    w = _find_weapon(s, str(weapon or ""), True)
    room = int(w.get("capacity", 0)) - int(w.get("ammo", 0))
    n = min(2, room, int(w.get("spare", 0)))
    if n <= 0:
        ctx.say(ck.t(ctx, "込める弾がない。", "No rounds to load."))
        return ["no_ammo"]
    w["ammo"] += n
    w["spare"] -= n
    ctx.say(ck.t(ctx, f"{n}発を装填した（残弾 {w['ammo']}）。", f"Loaded {n} ({w['ammo']} now)."))
    return _after(ctx, ["reloaded"]) if c else ["reloaded"]


def fix_jam(ctx: Context, weapon: str = "") -> list[str]:
    """Clears a jam with a Mechanical Repair roll (takes the turn in a fight)."""
    c = combat(ctx)
    pid = _actor(ctx) if c else ck.pc_id(ctx)
    w = _find_weapon(ctx.state.stats[pid], str(weapon or ""), True)
    r = ck.check(ctx, "機械修理", "regular", 0, pid)
    if "success" in r:
        w["jammed"] = False
    return _after(ctx, r) if c else r


def throw(ctx: Context, target: str = "", thing: str = "fire") -> list[str]:
    """Throws something at an enemy with Throw: ``fire`` (a burning object) or ``food``
    (seafood) dazes it on a success with no damage and no dodge (rulings DA-08, DA-09);
    ``all`` as the target dazes every enemy. Dice notation throws a weapon (it may dodge)."""
    pid = _actor(ctx)
    c = need(ctx)
    kind = str(thing or "fire").lower()
    if kind in ("fire", "火", "炎", "food", "食べ物", "食材", "海産物"):
        r = ck.check(ctx, "投擲", "regular", 0, pid)
        ck.data(ctx)["last"]["pushable"] = False
        if "success" in r:
            ids = _enemies(c) if str(target) in ("all", "全部") else [_enemy_id(ctx, c, target)]
            for e in ids:
                daze_enemy(ctx, e)
            return _after(ctx, ["dazed", *r])
        return _after(ctx, r)
    eid = _enemy_id(ctx, c, target)
    e = c["c"][eid]
    keys = melee(
        ctx,
        pid,
        eid,
        {"name": "投擲", "skill": "投擲", "damage": kind, "db": False},
        "none" if e["dazed"] else "dodge",
    )
    return _after(ctx, keys)


def pass_turn(ctx: Context) -> list[str]:
    """Ends the acting investigator's turn (after a story action such as reaching a switch)."""
    _actor(ctx)
    return _after(ctx, ["passed"])


def flee(ctx: Context) -> list[str]:
    """Leaves the fight (not while held); a chase, if any, is the story's business."""
    pid = _actor(ctx)
    c = need(ctx)
    if c["c"][pid].get("held_by"):
        ctx.say(ck.t(ctx, "捕まっていて逃げられない！", "You are held and cannot get away!"))
        return ["held"]
    c["c"][pid]["fled"] = True
    ctx.say(
        ck.t(
            ctx,
            f"{ctx.state.stats[pid]['name']}は戦いから離れた。",
            f"{ctx.state.stats[pid]['name']} flees the fight.",
        )
    )
    return _after(ctx, ["fled"])


def grope(ctx: Context, enemy: str, response: str = "隠密", who: str = "") -> list[str]:
    """In the dark, an enemy gropes for an investigator (ruling DA-07): its Fighting against
    their ``response`` (Stealth or Dodge) like a dodge, a tie to the investigator. Found →
    the enemy's normal damage. Works with or without a running fight."""
    pid = ck.pc_id(ctx, who)
    c = combat(ctx)
    if c is not None and enemy in c["c"]:
        es = c["c"][enemy]["sheet"]
    else:
        es = ck.sheet_for(ctx, enemy)
    s = ctx.state.stats[pid]
    ar = ck.roll_d100(ctx, int(es["fighting"]), label=f"{es['name']}:近接戦闘", who=enemy)
    if able(s):
        rname, rvalue = sh.skill_value(s, response)
        dr = ck.roll_d100(ctx, rvalue, label=f"{s['name']}:{rname}", who=pid)
        if ck.RANK[dr["level"]] >= 1:
            ck.mark(s, rname)
        rd = ck.RANK[dr["level"]]
    else:
        rd = -2  # someone unconscious or dying cannot hide or dodge
    ra = ck.RANK[ar["level"]]
    if ra >= 1 and ra > rd:
        w = next((x for x in es["attacks"] if not x.get("maneuver")), es["attacks"][0])
        ctx.say(
            ck.t(
                ctx, f"{es['name']}が{s['name']}を探り当てた！", f"{es['name']} finds {s['name']}!"
            )
        )
        amount = roll_damage(
            ctx,
            w.get("damage", "1d3"),
            "",
            extreme=False,
            impale=False,
            label=ck.t(ctx, "ダメージ", "damage"),
        )
        return ["found", *apply_damage(ctx, pid, amount)]
    ctx.say(ck.t(ctx, f"{s['name']}は見つからなかった。", f"{s['name']} stays hidden."))
    return ["hidden"]
