"""The fight's course: starting and ending it, DEX order and rounds, the enemies' turns,
bouts of madness in a fight, and the investigator's answer to an attack."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.combat.damage import _release, dying_roll
from runner.rules.coc7.combat.melee import _default_weapon, melee
from runner.rules.coc7.combat.state import (
    MAX_ROUNDS,
    _enemies,
    _name,
    _opts,
    _pick,
    _present,
    able,
    combat,
    need,
)


def start_combat(ctx: Context, enemy: str, count: Any = 1, opts: Any = "") -> list[str]:
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
    recs: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    # Each record lists its fields in one go, in the order the state has always had them.
    for i in range(1, n + 1):
        cid = f"{enemy}{i}" if n > 1 else enemy
        s = fresh()
        s["name"] = names[cid] = f"{short}{i}" if n > 1 else name
        recs[cid] = {
            "side": "enemy",
            "dex": s["chars"].get("DEX", 0),
            "sheet": s,
            "skill": s["fighting"],
            "responded": 0,
            "dazed": 0,
            "held_by": None,
            "holding": None,
            "fled": False,
            "down": False,
            "aim": False,
        }
    stats = ctx.state.stats
    pcs = [
        p
        for p in (str(o["pcs"]).split("+") if o.get("pcs") else ck.pc_ids(ctx))
        if p in stats and not stats[p]["cond"].get("dead")
    ]
    if not pcs:
        raise RuleError("no investigator can fight")
    for p in pcs:
        s = stats[p]
        has_gun = any(w.get("firearm") for w in s.get("weapons", []))
        dex = s["chars"]["DEX"] + (50 if o.get("firearm") and has_gun else 0)
        names[p] = s.get("name", p)
        recs[p] = {
            "side": "pc",
            "dex": dex,
            "skill": sh.skill_value(s, "近接戦闘(格闘)")[1],
            "responded": 0,
            "dazed": 0,
            "held_by": None,
            "holding": None,
            "fled": False,
            "down": False,
            "aim": False,
        }
    # DEX order; a tie goes to the higher combat skill, then to the investigator.
    order = sorted(
        recs,
        key=lambda k: (-recs[k]["dex"], -recs[k]["skill"], 0 if recs[k]["side"] == "pc" else 1),
    )
    d["combat"] = {
        "round": 1,
        "order": order,
        "idx": 0,
        "c": recs,
        "pending": None,
        "actor": None,
        "opts": o,
        "enemy": enemy,
    }
    ck.say(
        ctx,
        f"戦闘開始。行動順：{'、'.join(names[k] for k in order)}",
        f"Combat! Order: {', '.join(names[k] for k in order)}",
    )
    return advance(ctx)


def finish(ctx: Context, result: str) -> list[str]:
    """Ends the fight with ``result`` (victory, defeat, escaped, repelled...)."""
    d = ck.data(ctx)
    c = d.get("combat")
    if c is None:
        return [result]
    enemies = {
        k: {"hp": r["sheet"]["hp"], "down": r["down"], "dazed": r["dazed"]}
        for k, r in c["c"].items()
        if r["side"] == "enemy"
    }
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


_FINISH_SAYS = {
    "victory": ("戦闘に勝利した。", "The fight is won."),
    "defeat": ("探索者たちは倒れた。", "The investigators have fallen."),
    "escaped": ("戦いから逃れた。", "Got away from the fight."),
}


def end_combat(ctx: Context, result: str = "ended") -> list[str]:
    """Ends the running fight from the story (the door shut on dazed arms: ``repelled``)."""
    need(ctx)
    return finish(ctx, str(result or "ended"))


def _end_state(ctx: Context, c: dict[str, Any]) -> str | None:
    if not _enemies(c):
        return "victory"
    fled = any(c["c"][k]["fled"] for k in c["order"] if c["c"][k]["side"] == "pc")
    alive = False
    for k in _present(c):
        s = ctx.state.stats[k]
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


def _end_round(ctx: Context, c: dict[str, Any]) -> None:
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


def advance(ctx: Context) -> list[str]:
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
        b = ps["cond"].get("bout") if ps.get("cond") else None
        if b and b.get("left", 0) > 0:
            _bout_turn(ctx, c, cid, ps, b)  # the bout acts in the investigator's place
            c["idx"] += 1
            continue
        c["actor"] = cid
        return ["action"]


def _turn_done(ctx: Context, pid: str, keys: list[str]) -> list[str]:
    """In a fight, an action by the investigator whose turn it is uses that turn."""
    c = combat(ctx)
    if c is not None and c.get("actor") == pid and not c.get("pending"):
        return _after(ctx, keys)
    return keys


def _after(ctx: Context, keys: list[str]) -> list[str]:
    """Ends the actor's turn, runs the fight on, and puts a combat result first."""
    c = combat(ctx)
    if c is not None:
        c["idx"] += 1
        nxt = advance(ctx)
        if nxt and nxt[0] not in ("action", "response"):
            return [nxt[0], *keys]
    return keys


def _actor(ctx: Context) -> str:
    c = need(ctx)
    if c["pending"]:
        raise RuleError("an attack is coming: answer with coc7.dodge() or coc7.fight_back()")
    if not c.get("actor"):
        advance(ctx)
        now = combat(ctx)
        if now is None or not now.get("actor"):
            raise RuleError("it is not an investigator's turn")
        return str(now["actor"])
    return str(c["actor"])


def _enemy_declare(ctx: Context, c: dict[str, Any], cid: str) -> None:
    cc = c["c"]
    r = cc[cid]
    s = r["sheet"]
    stats = ctx.state.stats
    present = [k for k in _present(c) if not stats[k]["cond"].get("dead")]
    active = [k for k in present if able(stats[k])]
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
    ctx.say(
        f"{s['name']} attacks {ts['name']}: {attack['name']}!"
        if en
        else f"{s['name']}が{ts['name']}に「{attack['name']}」で襲いかかる！"
    )
    if not able(ts):
        resolve_pending(ctx, "none")
    elif (ts["cond"].get("bout") or {}).get("left", 0) > 0:
        resolve_pending(ctx, _BOUT_RESPONSE.get(ts["cond"]["bout"].get("roll"), "dodge"))


# A real-time bout takes the investigator out of the player's hands for its rounds (7e). Our
# reading of the table's entries in a fight: the violent one attacks and fights back, the
# one who faints or is in hysterics does not defend, the others only dodge by instinct.
_BOUT_RESPONSE = {3: "fight", 6: "none", 8: "none"}


_BOUT_TURN_SAYS: dict[Any, tuple[str, str]] = {
    3: ("{n}は狂ったように暴れ出した！", "{n} lashes out wildly!"),
    6: ("{n}はその場に崩れ落ち、動かない。", "{n} has fainted and does not move."),
    7: ("{n}は逃げ場を探してうろたえるばかりだ。", "{n} casts about for a way out, in panic."),
    8: (
        "{n}は笑い、泣き、叫ぶばかりで、何もできない。",
        "{n} laughs, weeps and screams, and can do nothing.",
    ),
}


def _bout_turn(
    ctx: Context, c: dict[str, Any], pid: str, s: dict[str, Any], b: dict[str, Any]
) -> None:
    """The investigator's turn while a bout of madness lasts: the bout acts."""
    roll = b.get("roll")
    ja, en = _BOUT_TURN_SAYS.get(
        roll,
        (
            "{n}は狂気の発作のさなかにあり、自分の意思では動けない。",
            "{n} is in the grip of madness and cannot act.",
        ),
    )
    ctx.say(ck.t(ctx, ja, en).format(n=s["name"]))
    if roll == 3:
        live = _enemies(c)
        if live:
            e = c["c"][live[0]]
            es = e["sheet"]
            response = (
                "none"
                if e["dazed"] > 0
                else ("fight" if es["fighting"] >= es["dodge"] else "dodge")
            )
            melee(ctx, pid, live[0], _default_weapon(s), response)


def resolve_pending(ctx: Context, response: str) -> list[str]:
    c = need(ctx)
    p = c["pending"]
    if not p:
        raise RuleError("no attack is waiting for an answer")
    c["pending"] = None
    att, tid, attack = p["attacker"], p["target"], p["attack"]
    res = melee(ctx, att, tid, attack, response)
    return res


def respond(ctx: Context, response: str) -> list[str]:
    """Answers the waiting attack (dodge / fight) and runs the fight on."""
    keys = resolve_pending(ctx, response)
    return _after(ctx, keys)


def dodge(ctx: Context) -> list[str]:
    """Dodges the waiting attack (a tie goes to the dodger)."""
    return respond(ctx, "dodge")


def fight_back(ctx: Context) -> list[str]:
    """Fights back against the waiting attack (a tie goes to the attacker)."""
    return respond(ctx, "fight")


def enemy_turn(ctx: Context, response: str = "") -> list[str]:
    """Resolves the waiting enemy attack with ``response`` (dodge, fight, none; default dodge)."""
    r = str(response or "dodge").lower()
    r = {"回避": "dodge", "反撃": "fight", "fight_back": "fight", "なし": "none"}.get(r, r)
    if r not in ("dodge", "fight", "none"):
        raise RuleError(f"response {response!r}: dodge, fight or none")
    return respond(ctx, r)
