"""Combat, turn by turn: DEX order, melee with dodge or fight back, maneuvers, firearms,
damage, major wounds, dying, First Aid and Medicine.

The fight lives in ``state.rules["coc7"]["combat"]``. Hooks move it forward and stop
whenever an investigator must choose: ``awaiting() == "action"`` (their turn) or
``"response"`` (an attack is coming: ``dodge()`` or ``fight_back()``).
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import sheet as sh
from runner.rules.dice import parse

_NO_COND: dict = {}
"""What able() reads for a sheet without conditions (never written)."""

_DAMAGE = {"ja": "ダメージ", "en": "damage"}
"""A damage roll's label by ck.lang()."""

MAX_ROUNDS = 100
"""A fight the investigators can no longer influence is played out at most this long."""


# ---------------------------------------------------------------- small helpers

def combat(ctx: Any) -> dict | None:
    return ck.data(ctx).get("combat")


def need(ctx: Any) -> dict:
    c = combat(ctx)
    if c is None:
        raise RuleError("no combat is running: call coc7.start_combat(...) first")
    return c


def sheet(ctx: Any, cid: str) -> dict:
    return _sheet_in(ctx, combat(ctx), cid)


def _sheet_in(ctx: Any, c: dict | None, cid: str) -> dict:
    """The sheet of ``cid``: an enemy's own copy in fight ``c``, else ``state.stats``."""
    if c is not None:
        r = c["c"].get(cid)
        if r is not None and r["side"] == "enemy":
            return r["sheet"]
    return ctx.state.stats[cid]


def _name(ctx: Any, cid: str) -> str:
    return sheet(ctx, cid).get("name", cid)


def able(s: dict) -> bool:
    """Can act and defend: alive, conscious."""
    cond = s.get("cond", _NO_COND)
    return not (cond.get("dead") or cond.get("unconscious") or cond.get("dying"))


def _opts(text: Any) -> dict:
    out: dict[str, Any] = {}
    for tok in str(text or "").replace("、", ",").replace(" ", ",").split(","):
        tok = tok.strip()
        if not tok:
            continue
        k, _, v = tok.partition("=")
        out[k.strip().lower()] = v.strip() if v else True
    return out


def _pick(ctx: Any, n: int, label: str) -> int:
    """A seeded choice among n things (0-based), rolled as a keeper-only 1dn."""
    if n <= 1:
        return 0
    expr = f"1d{n}"
    f = ctx.faces([n], expr=expr)[0]
    # Through emit, so a front end that hides keeper events hides this one.
    ctx.emit({"type": "roll", "expr": expr, "dice": [f], "sides": [n], "total": f,
              "label": label, "keeper": True})
    return f - 1


def dmg_expr(base: str, db: str = "") -> str:
    if type(base) is str and type(db) is str:
        hit = _DMG_EXPR.get((base, db))
        if hit is not None:
            return hit
    out = base
    d = str(db or "").strip().replace(" ", "")
    if d and d not in ("0", "+0", "-0", "なし"):
        out = base + (d if d[0] in "+-" else "+" + d)
    if type(base) is str and type(db) is str and len(_DMG_EXPR) < 1024:
        _DMG_EXPR[base, db] = out
    return out


_DMG_EXPR: dict[tuple[str, str], str] = {}
"""(weapon damage, damage bonus) → the damage roll's text, remembered (asked every hit)."""


def roll_damage(ctx: Any, expr: str, db: str, *, extreme: bool, impale: bool, label: str,
                halve: bool = False) -> int:
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
    return max(0, parse(full).maximum)


def _halved(expr: str) -> str:
    return f"({expr})/2"


# ---------------------------------------------------------------- damage and healing

def apply_damage(ctx: Any, pid: str, amount: int) -> list[str]:
    """Damages an investigator: major wound (≥ half max HP at once), unconscious, dying, dead."""
    keys = _apply_damage(ctx, pid, amount)
    cd.recheck(ctx)
    return keys


def _apply_damage(ctx: Any, pid: str, amount: int) -> list[str]:
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
        s["hp"] = 0
        cond.update(dead=True, dying=False, unconscious=True)
        ctx.say(f"{name} takes a fatal blow and dies." if en
                else f"{name}は致命的な一撃を受け、命を落とした。")
        return ["dead"]
    if cond.get("dying"):
        # Our reading: more harm to someone already dying ends it.
        s["hp"] = 0
        cond.update(dead=True, dying=False)
        ctx.say(f"{name} dies." if en else f"{name}は息絶えた。")
        return ["dead"]
    major = amount * 2 >= s["hp_max"] or s["hp"] == 0
    before = s["hp"]
    s["hp"] = max(0, before - amount)
    ctx.say(f"{name} takes {amount} damage (HP {before} → {s['hp']})." if en
            else f"{name}に {amount} ダメージ（耐久力 {before} → {s['hp']}）。")
    if major:
        cond["major_wound"] = True
        keys.append("major_wound")
    if s["hp"] == 0:
        if cond.get("major_wound"):
            cond.update(dying=True, unconscious=True, stable=False)
            ctx.say(f"{name} collapses, mortally wounded: dying." if en
                    else f"{name}は重傷を負って倒れた。瀕死だ。")
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


def heal(ctx: Any, pid: str, amount: int) -> int:
    s = ctx.state.stats[pid]
    before = s["hp"]
    s["hp"] = min(s["hp_max"], s["hp"] + max(0, int(amount)))
    if s["hp"] > 0 and not s["cond"].get("dying"):
        s["cond"]["unconscious"] = False
    if s["hp"] * 2 > s["hp_max"]:
        s["cond"]["major_wound"] = False
    cd.recheck(ctx)
    return s["hp"] - before


def dying_roll(ctx: Any, pid: str) -> bool:
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


def tick(ctx: Any) -> list[str]:
    """One round passes outside combat: every dying investigator makes a CON roll."""
    died = False
    for pid in ck.pc_ids(ctx):
        cond = ctx.state.stats[pid]["cond"]
        if cond.get("dying") and not cond.get("stable") and not dying_roll(ctx, pid):
            died = True
    return ["dead"] if died else ["alive"]


def damage(ctx: Any, amount: Any, who: str = "", label: str = "") -> list[str]:
    """Story damage (a fall, 3d3 of deep water): a number or dice notation."""
    pid = ck.pc_id(ctx, who)
    if isinstance(amount, int):
        n = amount
    else:
        n = ctx.roll(str(amount), label=label or ck.t(ctx, "ダメージ", "damage")).total
    return apply_damage(ctx, pid, n)


def _treat(ctx: Any, target: str, who: str, skill: str, cannot: str, apply: Any) -> list[str]:
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


def first_aid(ctx: Any, target: str = "", who: str = "") -> list[str]:
    """First Aid: stabilises the dying, wakes the unconscious, or +1 HP once per injury."""
    return _treat(ctx, target, who, "応急手当", "cannot give first aid now", _first_aid)


def _first_aid(ctx: Any, ts: dict, tid: str, r: list[str]) -> list[str]:
    cond = ts["cond"]
    if "success" not in r:
        return r
    if cond.get("dying"):
        cond.update(dying=False, stable=True)
        ts["hp"] = max(ts["hp"], 1)
        cond["aided"] = True
        ctx.say(ck.t(ctx, f"{ts['name']}の容体が安定した。だが医学の手当てが要る。",
                     f"{ts['name']} is stabilised, but needs Medicine."))
        return ["stabilised", *r]
    if cond.get("aided"):
        ctx.say(ck.t(ctx, "この傷には、もう応急手当が済んでいる。", "This wound was already treated."))
        return ["no_effect", *r]
    cond["aided"] = True
    heal(ctx, tid, 1)
    ctx.say(ck.t(ctx, f"{ts['name']}の耐久力が 1 回復した（{ts['hp']}）。",
                 f"{ts['name']} regains 1 HP ({ts['hp']})."))
    return ["healed", *r]


def medicine(ctx: Any, target: str = "", who: str = "") -> list[str]:
    """Medicine: +1D3 HP once per injury; ends a stabilised investigator's danger."""
    return _treat(ctx, target, who, "医学", "cannot treat anyone now", _medicine)


def _medicine(ctx: Any, ts: dict, tid: str, r: list[str]) -> list[str]:
    cond = ts["cond"]
    if "success" not in r:
        return r
    if cond.get("treated"):
        ctx.say(ck.t(ctx, "この傷には、もう医学の手当てが済んでいる。", "This wound was already treated."))
        return ["no_effect", *r]
    cond.update(treated=True, dying=False, stable=False)
    got = heal(ctx, tid, ctx.roll("1d3", label=ck.t(ctx, "回復", "healing")).total)
    ctx.say(ck.t(ctx, f"{ts['name']}の耐久力が {got} 回復した（{ts['hp']}）。",
                 f"{ts['name']} regains {got} HP ({ts['hp']})."))
    return ["healed", *r]


# ---------------------------------------------------------------- starting and ending

def start_combat(ctx: Any, enemy: str, count: Any = 1, opts: Any = "") -> list[str]:
    """Starts a fight with ``count`` copies of story character ``enemy``.

    ``opts``: comma-separated words — ``firearm`` (the investigators hold a readied gun:
    DEX+50 for the order), ``underwater`` (investigators attack and defend with Swim, their
    damage to enemies is halved), ``spare`` (stop when no investigator can act instead of
    playing the fight out), ``pcs=a+b`` (only these investigators take part).
    """
    d = ck.data(ctx)
    if d.get("combat"):
        raise RuleError("a combat is already running")
    found = ck.story_enemy_copy(ctx, enemy)
    if found is None:
        raise RuleError(f"no story character {enemy!r} to fight")
    name, props, base, fresh = found
    n = int(count or 1)
    if n < 1:
        raise RuleError("count must be at least 1")
    o = _opts(opts)
    short = str(props.get("short") or base.get("short") or name)
    recs: dict[str, dict] = {}
    names: dict[str, str] = {}
    # Each record lists its fields in one go, in the order the state has always had them.
    for i in range(1, n + 1):
        cid = f"{enemy}{i}" if n > 1 else enemy
        s = fresh()
        s["name"] = names[cid] = f"{short}{i}" if n > 1 else name
        recs[cid] = {"side": "enemy", "dex": s["chars"].get("DEX", 0), "sheet": s,
                     "skill": s["fighting"], "responded": 0, "dazed": 0, "held_by": None,
                     "holding": None, "fled": False, "down": False, "aim": False}
    stats = ctx.state.stats
    pcs = [p for p in (str(o["pcs"]).split("+") if o.get("pcs") else ck.pc_ids(ctx))
           if p in stats and not stats[p]["cond"].get("dead")]
    if not pcs:
        raise RuleError("no investigator can fight")
    for p in pcs:
        s = stats[p]
        has_gun = any(w.get("firearm") for w in s.get("weapons", []))
        dex = s["chars"]["DEX"] + (50 if o.get("firearm") and has_gun else 0)
        names[p] = s.get("name", p)
        recs[p] = {"side": "pc", "dex": dex, "skill": sh.skill_value(s, "近接戦闘(格闘)")[1],
                   "responded": 0, "dazed": 0, "held_by": None, "holding": None, "fled": False,
                   "down": False, "aim": False}
    # DEX order; a tie goes to the higher combat skill, then to the investigator.
    order = sorted(recs, key=lambda k: (-recs[k]["dex"], -recs[k]["skill"],
                                        0 if recs[k]["side"] == "pc" else 1))
    d["combat"] = {"round": 1, "order": order, "idx": 0, "c": recs, "pending": None,
                   "actor": None, "opts": o, "enemy": enemy}
    ctx.say(f"Combat! Order: {', '.join(names[k] for k in order)}" if ck.lang(ctx) == "en"
            else f"戦闘開始。行動順：{'、'.join(names[k] for k in order)}")
    return advance(ctx)


def finish(ctx: Any, result: str) -> list[str]:
    """Ends the fight with ``result`` (victory, defeat, escaped, repelled...)."""
    d = ck.data(ctx)
    c = d.get("combat")
    if c is None:
        return [result]
    enemies = {k: {"hp": r["sheet"]["hp"], "down": r["down"], "dazed": r["dazed"]}
               for k, r in c["c"].items() if r["side"] == "enemy"}
    d["last_combat"] = {"result": result, "rounds": c["round"], "enemies": enemies}
    d["combat"] = None
    says = _FINISH_SAYS.get(result, ("戦闘が終わった。", "The fight is over."))
    if result == "defeat":  # one investigator is not "the investigators" (#13 item 15)
        pcs = [k for k in c["order"] if c["c"][k]["side"] == "pc"]
        if len(pcs) == 1:
            name = ctx.state.stats[pcs[0]]["name"]
            says = (f"{name}は倒れた。", f"{name} has fallen.")
    ctx.say(ck.t(ctx, *says))
    return [result]


_FINISH_SAYS = {"victory": ("戦闘に勝利した。", "The fight is won."),
                "defeat": ("探索者たちは倒れた。", "The investigators have fallen."),
                "escaped": ("戦いから逃れた。", "Got away from the fight.")}


def end_combat(ctx: Any, result: str = "ended") -> list[str]:
    """Ends the running fight from the story (the door shut on dazed arms: ``repelled``)."""
    need(ctx)
    return finish(ctx, str(result or "ended"))


def _present(c: dict) -> list[str]:
    return [k for k in c["order"] if c["c"][k]["side"] == "pc" and not c["c"][k]["fled"]]


def _enemies(c: dict) -> list[str]:
    return [k for k in c["order"] if c["c"][k]["side"] == "enemy" and not c["c"][k]["down"]]


def _end_state(ctx: Any, c: dict) -> str | None:
    # Asked before every turn of the fight: plain loops over the order, no id lists.
    cc, order = c["c"], c["order"]
    for k in order:
        r = cc[k]
        if r["side"] == "enemy" and not r["down"]:
            break
    else:
        return "victory"
    stats = ctx.state.stats
    fled = alive = False
    for k in order:
        r = cc[k]
        if r["side"] != "pc":
            continue
        if r["fled"]:
            fled = True
            continue
        s = stats[k]
        if not s["cond"].get("dead"):
            if able(s):
                return None  # an investigator present can still act
            alive = True
    if not alive:
        return "escaped" if fled else "defeat"
    if fled:
        return "escaped"
    if c["opts"].get("spare") or c["round"] > MAX_ROUNDS:
        return "defeat"
    return None


def _end_round(ctx: Any, c: dict) -> None:
    for k in c["order"]:
        r = c["c"][k]
        r["responded"] = 0
        if r["side"] == "pc" and not r["fled"]:
            cond = ctx.state.stats[k]["cond"]
            if cond.get("dying") and not cond.get("stable"):
                dying_roll(ctx, k)
            b = cond.get("bout")
            if b and b.get("left", 0) > 0 and not cond.get("dead"):
                b["left"] -= 1  # a bout that began outside the fight counts in rounds here
                if b["left"] == 0:
                    del cond["bout"]
                    cd.recheck(ctx)
                    name = ctx.state.stats[k]["name"]
                    ctx.say(ck.t(ctx, f"{name}は我に返った。", f"{name} comes to."))
        elif r["side"] == "enemy" and r["dazed"] > 0 and not r["down"]:
            r["dazed"] -= 1
            if r["dazed"] == 0:
                ctx.say(ck.t(ctx, f"{_name(ctx, k)}が我に返った。", f"{_name(ctx, k)} recovers."))
    c["round"] += 1
    c["idx"] = 0
    ctx.say(f"Round {c['round']}." if ck.lang(ctx) == "en" else f"第{c['round']}ラウンド。")


def advance(ctx: Any) -> list[str]:
    """Runs the fight until an investigator must choose, or it ends; returns what waits."""
    c = combat(ctx)
    if c is None:
        return []
    c["actor"] = None
    order, cc = c["order"], c["c"]
    settled = False  # True while nothing changed since _end_state last said "go on"
    while True:
        if not settled:
            end = _end_state(ctx, c)
            if end:
                return finish(ctx, end)
        settled = False
        if c["idx"] >= len(order):
            _end_round(ctx, c)
            continue
        cid = order[c["idx"]]
        r = cc[cid]
        if r["side"] == "enemy":
            if r["down"] or r["dazed"] > 0:
                c["idx"] += 1
                settled = True  # skipping a turn changes nothing _end_state reads
                continue
            _enemy_declare(ctx, c, cid)
            if c["pending"]:
                return ["response"]
            c["idx"] += 1
            continue
        ps = ctx.state.stats[cid]
        if r["fled"] or not able(ps):
            c["idx"] += 1
            settled = True
            continue
        b = (ps["cond"].get("bout") if ps.get("cond") else None)
        if b and b.get("left", 0) > 0:
            _bout_turn(ctx, c, cid, ps, b)  # the bout acts in the investigator's place
            c["idx"] += 1
            continue
        c["actor"] = cid
        return ["action"]


def _turn_done(ctx: Any, pid: str, keys: list[str]) -> list[str]:
    """In a fight, an action by the investigator whose turn it is uses that turn."""
    c = combat(ctx)
    if c is not None and c.get("actor") == pid and not c.get("pending"):
        return _after(ctx, keys)
    return keys


def _after(ctx: Any, keys: list[str]) -> list[str]:
    """Ends the actor's turn, runs the fight on, and puts a combat result first."""
    c = combat(ctx)
    if c is not None:
        c["idx"] += 1
        nxt = advance(ctx)
        if nxt and nxt[0] not in ("action", "response"):
            return [nxt[0], *keys]
    return keys


def _actor(ctx: Any) -> str:
    c = need(ctx)
    if c["pending"]:
        raise RuleError("an attack is coming: answer with coc7.dodge() or coc7.fight_back()")
    if not c.get("actor"):
        advance(ctx)
        c = combat(ctx)
        if c is None or not c.get("actor"):
            raise RuleError("it is not an investigator's turn")
    return c["actor"]


def _enemy_id(ctx: Any, c: dict, target: Any) -> str:
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
            return k
    if t.isdigit() and 1 <= int(t) <= len(live):
        return live[int(t) - 1]
    raise RuleError(f"no enemy {t!r}; fighting: {', '.join(_name(ctx, k) for k in live)}")


# ---------------------------------------------------------------- enemies

def _enemy_declare(ctx: Any, c: dict, cid: str) -> None:
    cc = c["c"]
    r = cc[cid]
    s = r["sheet"]
    stats = ctx.state.stats
    # The investigators present and alive, and those of them able to act, in one pass
    # (this runs before every enemy attack).
    present: list[str] = []
    active: list[str] = []
    for k in c["order"]:
        x = cc[k]
        if x["side"] == "pc" and not x["fled"]:
            cond = stats[k]["cond"]
            if not cond.get("dead"):
                present.append(k)
                if not (cond.get("unconscious") or cond.get("dying")):  # able(), less dead
                    active.append(k)
    if r["holding"] and r["holding"] not in present:
        _release(c, cid)  # its prey is dead or gone
    en = ck.lang(ctx) == "en"  # asked once
    if r["holding"] in present:
        target = r["holding"]
    else:
        pool = active or present
        target = pool[_pick(ctx, len(pool), "target" if en else "攻撃対象")]
    attacks = s["attacks"]
    if r["holding"] == target:
        attacks = [a for a in attacks if not a.get("maneuver")] or attacks
    attack = attacks[_pick(ctx, len(attacks), "attack" if en else "攻撃方法")]
    c["pending"] = {"attacker": cid, "target": target, "attack": attack}
    ts = stats[target]
    ctx.say(f"{s['name']} attacks {ts['name']}: {attack['name']}!" if en
            else f"{s['name']}が{ts['name']}に「{attack['name']}」で襲いかかる！")
    if not able(ts):
        resolve_pending(ctx, "none")
    elif (ts["cond"].get("bout") or {}).get("left", 0) > 0:
        resolve_pending(ctx, _BOUT_RESPONSE.get(ts["cond"]["bout"].get("roll"), "dodge"))


# ---------------------------------------------------------------- bouts of madness in a fight

# A real-time bout takes the investigator out of the player's hands for its rounds (7e). Our
# reading of the table's entries in a fight: the violent one attacks and fights back, the
# one who faints or is in hysterics does not defend, the others only dodge by instinct.
_BOUT_RESPONSE = {3: "fight", 6: "none", 8: "none"}
_BOUT_TURN_SAYS = {
    3: ("{n}は狂ったように暴れ出した！", "{n} lashes out wildly!"),
    6: ("{n}はその場に崩れ落ち、動かない。", "{n} has fainted and does not move."),
    7: ("{n}は逃げ場を探してうろたえるばかりだ。", "{n} casts about for a way out, in panic."),
    8: ("{n}は笑い、泣き、叫ぶばかりで、何もできない。", "{n} laughs, weeps and screams, and can do nothing."),
}


def _bout_turn(ctx: Any, c: dict, pid: str, s: dict, b: dict) -> None:
    """The investigator's turn while a bout of madness lasts: the bout acts."""
    roll = b.get("roll")
    ja, en = _BOUT_TURN_SAYS.get(roll, ("{n}は狂気の発作のさなかにあり、自分の意思では動けない。",
                                        "{n} is in the grip of madness and cannot act."))
    ctx.say(ck.t(ctx, ja, en).format(n=s["name"]))
    if roll == 3:
        live = _enemies(c)
        if live:
            e = c["c"][live[0]]
            es = e["sheet"]
            response = "none" if e["dazed"] > 0 else ("fight" if es["fighting"] >= es["dodge"] else "dodge")
            melee(ctx, pid, live[0], _default_weapon(s), response)


def resolve_pending(ctx: Any, response: str) -> list[str]:
    c = need(ctx)
    p = c["pending"]
    if not p:
        raise RuleError("no attack is waiting for an answer")
    c["pending"] = None
    att, tid, attack = p["attacker"], p["target"], p["attack"]
    res = melee(ctx, att, tid, attack, response)
    return res


def respond(ctx: Any, response: str) -> list[str]:
    """Answers the waiting attack (dodge / fight) and runs the fight on."""
    keys = resolve_pending(ctx, response)
    return _after(ctx, keys)


def dodge(ctx: Any) -> list[str]:
    """Dodges the waiting attack (a tie goes to the dodger)."""
    return respond(ctx, "dodge")


def fight_back(ctx: Any) -> list[str]:
    """Fights back against the waiting attack (a tie goes to the attacker)."""
    return respond(ctx, "fight")


def enemy_turn(ctx: Any, response: str = "") -> list[str]:
    """Resolves the waiting enemy attack with ``response`` (dodge, fight, none; default dodge)."""
    r = str(response or "dodge").lower()
    r = {"回避": "dodge", "反撃": "fight", "fight_back": "fight", "なし": "none"}.get(r, r)
    if r not in ("dodge", "fight", "none"):
        raise RuleError(f"response {response!r}: dodge, fight or none")
    return respond(ctx, r)


# ---------------------------------------------------------------- melee

def _pc_attack_skill(ctx: Any, c: dict | None, s: dict, default: str) -> tuple[str, int]:
    if c is not None and c["opts"].get("underwater"):
        return sh.skill_value(s, "水泳")
    return sh.skill_value(s, default)


def _default_weapon(s: dict) -> dict:
    for w in s.get("weapons", []):
        if not w.get("firearm"):
            return w
    return sh.weapon("素手")


def _find_weapon(s: dict, name: str, firearm: bool | None = None) -> dict:
    ws = s.setdefault("weapons", [])
    for w in ws:
        if (not name or w["name"] == name) and (firearm is None or bool(w.get("firearm")) == firearm):
            return w
    if not name and firearm is False:
        return sh.weapon("素手")
    what = name or ("a firearm" if firearm else "a weapon")
    raise RuleError(f"{s['name']} has no {what}")


def melee(ctx: Any, att: str, tid: str, attack: dict, response: str, *,
          bonus: int = 0, skill_name: str = "", skill_override: int | None = None) -> list[str]:
    """Resolves one melee attack (or maneuver) by ``att`` on ``tid``; returns outcome keys."""
    c = combat(ctx)
    a_rec = c["c"].get(att) if c else None
    t_rec = c["c"].get(tid) if c else None
    # _sheet_in() written out: an enemy's own copy in the fight, else state.stats.
    stats = ctx.state.stats
    a_s = a_rec["sheet"] if a_rec is not None and a_rec["side"] == "enemy" else stats[att]
    t_s = t_rec["sheet"] if t_rec is not None and t_rec["side"] == "enemy" else stats[tid]
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
            ctx.say(ck.t(ctx, f"体格差がありすぎて、{t_s['name']}には通じない。",
                         f"{t_s['name']} is far too big for that."))
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
            dname, dvalue = _pc_attack_skill(ctx, c, t_s, "回避") if t_s.get("kind") != "creature" \
                else ("回避", t_s["dodge"])
        elif response == "fight":
            if t_s.get("kind") == "creature":
                dname, dvalue = "近接戦闘", t_s["fighting"]
            else:
                dname, dvalue = _pc_attack_skill(
                    ctx, c, t_s, _default_weapon(t_s).get("skill", "近接戦闘(格闘)"))
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
            if t_rec is not None and a_rec is not None:
                old = t_rec.get("held_by")
                if old and old in c["c"]:
                    c["c"][old]["holding"] = None
                t_rec["held_by"], a_rec["holding"] = att, tid
            ctx.say(ck.t(ctx, f"{t_s['name']}は{a_s['name']}に捕らえられた！",
                         f"{a_s['name']} seizes {t_s['name']}!"))
            return ["held", "hit"]
        extreme = ra >= 3
        amount = roll_damage(ctx, attack.get("damage", "1d3"), db, extreme=extreme,
                             impale=impale, label=_DAMAGE[ck.lang(ctx)],
                             halve=_halves(c, t_rec))
        keys = hurt(ctx, tid, amount)
        lead = (["impale"] if impale else ["extreme"]) if extreme else []
        return [*keys, *lead, "hit"]
    # Below, only the story language's line is built (this runs for every attack).
    en = ck.lang(ctx) == "en"
    if counter:
        ctx.say(f"{t_s['name']} strikes back!" if en else f"{t_s['name']}の反撃！")
        if t_s.get("kind") == "creature":
            w = next((x for x in t_s["attacks"] if not x.get("maneuver")), t_s["attacks"][0])
            amount = roll_damage(ctx, w.get("damage", "1d3"), "", extreme=False, impale=False,
                                 label="damage" if en else "ダメージ")
        else:
            w = _default_weapon(t_s)
            amount = roll_damage(ctx, w.get("damage", "1d3"),
                                 t_s.get("db", "") if w.get("db", True) else "",
                                 extreme=False, impale=False, label="damage" if en else "ダメージ",
                                 halve=_halves(c, a_rec))
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


def hurt(ctx: Any, tid: str, amount: int) -> list[str]:
    """Damages a combatant or investigator; enemies may be crushed or dazed (ruling DA-09)."""
    c = combat(ctx)
    rec = c["c"].get(tid) if c else None
    if rec is None or rec["side"] == "pc":
        return apply_damage(ctx, tid, amount)
    s = rec["sheet"]
    amount = max(0, amount - int(s.get("armour", 0)))
    before = s["hp"]
    s["hp"] = max(0, before - amount)
    en = ck.lang(ctx) == "en"  # only that language's line is built
    ctx.say(f"{s['name']} takes {amount} damage." if en else f"{s['name']}に {amount} ダメージ。")
    if ctx.gm:
        ctx.say(f"{s['name']} HP {before} → {s['hp']}" if en
                else f"{s['name']}の耐久力 {before} → {s['hp']}", keeper=True)
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


def _halves(c: dict | None, target: dict | None) -> bool:
    """Under water the investigators' blows on an enemy are halved (the deep-sea scenario):
    rolled as ``(damage)/2``."""
    return bool(c is not None and c["opts"].get("underwater") and target is not None
                and target["side"] == "enemy")


def _release(c: dict, eid: str) -> None:
    rec = c["c"][eid]
    held = rec.get("holding")
    if held and held in c["c"]:
        c["c"][held]["held_by"] = None
    rec["holding"] = None


def daze_enemy(ctx: Any, eid: str, rounds: Any = "1d10") -> int:
    """Dazes (怯み) an enemy for 1D10 rounds: it makes no attacks and lets go of its hold."""
    c = need(ctx)
    rec = c["c"][eid]
    n = rounds if isinstance(rounds, int) else ctx.roll(str(rounds), label=ck.t(ctx, "怯み", "daze")).total
    rec["dazed"] = max(rec["dazed"], int(n))
    _release(c, eid)
    ctx.say(ck.t(ctx, f"{_name(ctx, eid)}が怯んだ（{rec['dazed']}ラウンド）。",
                 f"{_name(ctx, eid)} flinches ({rec['dazed']} rounds)."))
    return rec["dazed"]


def daze(ctx: Any, target: str = "", rounds: Any = "1d10") -> list[str]:
    """Story hook: dazes an enemy (``all`` for every one)."""
    c = need(ctx)
    ids = _enemies(c) if str(target) in ("all", "全部") else [_enemy_id(ctx, c, target)]
    for e in ids:
        daze_enemy(ctx, e, rounds)
    return ["dazed"]


# ---------------------------------------------------------------- investigator actions

def attack(ctx: Any, target: str = "", weapon: str = "") -> list[str]:
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


def maneuver(ctx: Any, target: str = "", kind: str = "escape") -> list[str]:
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
    keys = melee(ctx, pid, eid, {"name": kind, "maneuver": kind, "skill": "近接戦闘(格闘)"},
                 response)
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
            ctx.say(ck.t(ctx, f"{ctx.state.stats[pid]['name']}は{es['name']}を振りほどいた！",
                         f"{ctx.state.stats[pid]['name']} breaks free!"))
            keys = ["escaped_hold", *keys]
        else:
            keys = [kind, *keys]  # hold/knockdown/disarm: the story reads the key
    return _after(ctx, keys)


def shoot(ctx: Any, target: str = "", range_: str = "", shots: Any = 1,
          weapon: str = "") -> list[str]:
    """Fires a firearm: not opposed; range ``normal``/``long`` (Hard)/``very_long`` (Extreme)/
    ``point_blank`` (+1 bonus die); 2-3 shots each take a penalty die; aiming gives a bonus
    die; a roll at or over the malfunction number jams; an Extreme success impales."""
    pid = _actor(ctx)
    c = need(ctx)
    eid = _enemy_id(ctx, c, target)
    s = ctx.state.stats[pid]
    w = _find_weapon(s, str(weapon or ""), True)
    rng = str(range_ or "normal").lower()
    diff = {"normal": "regular", "": "regular", "point_blank": "regular", "pb": "regular",
            "至近": "regular", "通常": "regular", "long": "hard", "遠距離": "hard",
            "very_long": "extreme", "extreme": "extreme", "超遠距離": "extreme"}.get(rng)
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
            ctx.say(ck.t(ctx, f"{w['name']}が作動しない！（故障）", f"The {w['name']} malfunctions!"))
            best = best or ["jam", "miss"]
            break
        w["ammo"] = int(w["ammo"]) - 1
        if not r["success"]:
            ctx.say(ck.t(ctx, "弾は外れた。", "The shot misses."))
            best = best or (["fumble", "miss"] if r["level"] == "fumble" else ["miss"])
            continue
        ck.mark(s, skill)
        extreme = ck.RANK[r["level"]] >= 3
        amount = roll_damage(ctx, w.get("damage", "1d10"), "", extreme=extreme,
                             impale=bool(w.get("impale", True)), label=ck.t(ctx, "ダメージ", "damage"),
                             halve=_halves(c, c["c"][eid]))
        keys = hurt(ctx, eid, amount)
        lead = ["impale"] if extreme else []
        best = [*keys, *lead, "hit"]
        if c["c"][eid]["down"]:
            break
    ctx.say(ck.t(ctx, f"{w['name']}の残弾 {w['ammo']}。", f"{w['name']}: {w['ammo']} rounds left."))
    return _after(ctx, best)


def shoot_at(ctx: Any, thing: str = "", weapon: str = "") -> list[str]:
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


def aim(ctx: Any) -> list[str]:
    """Spends the turn aiming: the next shot gets a bonus die."""
    pid = _actor(ctx)
    combat(ctx)["c"][pid]["aim"] = True
    ctx.say(ck.t(ctx, "狙いを定めた。", "You take aim."))
    return _after(ctx, ["aimed"])


def reload(ctx: Any, weapon: str = "") -> list[str]:
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


def fix_jam(ctx: Any, weapon: str = "") -> list[str]:
    """Clears a jam with a Mechanical Repair roll (takes the turn in a fight)."""
    c = combat(ctx)
    pid = _actor(ctx) if c else ck.pc_id(ctx)
    w = _find_weapon(ctx.state.stats[pid], str(weapon or ""), True)
    r = ck.check(ctx, "機械修理", "regular", 0, pid)
    if "success" in r:
        w["jammed"] = False
    return _after(ctx, r) if c else r


def throw(ctx: Any, target: str = "", thing: str = "fire") -> list[str]:
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
    keys = melee(ctx, pid, eid, {"name": "投擲", "skill": "投擲", "damage": kind, "db": False},
                 "none" if e["dazed"] else "dodge")
    return _after(ctx, keys)


def pass_turn(ctx: Any) -> list[str]:
    """Ends the acting investigator's turn (after a story action such as reaching a switch)."""
    _actor(ctx)
    return _after(ctx, ["passed"])


def flee(ctx: Any) -> list[str]:
    """Leaves the fight (not while held); a chase, if any, is the story's business."""
    pid = _actor(ctx)
    c = need(ctx)
    if c["c"][pid].get("held_by"):
        ctx.say(ck.t(ctx, "捕まっていて逃げられない！", "You are held and cannot get away!"))
        return ["held"]
    c["c"][pid]["fled"] = True
    ctx.say(ck.t(ctx, f"{ctx.state.stats[pid]['name']}は戦いから離れた。",
                 f"{ctx.state.stats[pid]['name']} flees the fight."))
    return _after(ctx, ["fled"])


def grope(ctx: Any, enemy: str, response: str = "隠密", who: str = "") -> list[str]:
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
        ctx.say(ck.t(ctx, f"{es['name']}が{s['name']}を探り当てた！", f"{es['name']} finds {s['name']}!"))
        amount = roll_damage(ctx, w.get("damage", "1d3"), "", extreme=False, impale=False,
                             label=ck.t(ctx, "ダメージ", "damage"))
        return ["found", *apply_damage(ctx, pid, amount)]
    ctx.say(ck.t(ctx, f"{s['name']}は見つからなかった。", f"{s['name']} stays hidden."))
    return ["hidden"]
