"""The story's hooks that roll and change the state: checks, pushes and Luck, Sanity, the
combat hooks (runner/rules/coc7/combat), and coming round from unconsciousness or a bout."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import combat as cb
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import push as ps
from runner.rules.coc7 import sanity as sn
from runner.rules.coc7.system import hook


@hook()
def check(
    ctx: Context,
    skill: str,
    difficulty: str = "regular",
    bonus: Any = 0,
    who: str = "",
    hidden: Any = False,
    penalty: Any = 0,
) -> list[str]:
    """A skill or characteristic roll; ``bonus`` bonus dice and ``penalty`` penalty dice
    cancel one for one (a negative ``bonus`` is penalty dice); at most two either way."""
    return ck.check(ctx, skill, difficulty, ck.net_dice(bonus, penalty), who, hidden)


@hook()
def hidden_check(
    ctx: Context, skill: str, difficulty: str = "regular", bonus: Any = 0, who: str = ""
) -> list[str]:
    """A check rolled by the keeper: the roll event is keeper-only."""
    return ck.check(ctx, skill, difficulty, bonus, who, True)


@hook()
def push(ctx: Context) -> list[str]:
    """Pushes the last failed check; a failed push adds the key ``pushed_failure``."""
    return ck.push(ctx)


@hook()
def push_consequence(ctx: Context) -> int:
    """After a push: when it failed, the story's price (``push_failure``: hurt, then the
    minutes returned for the clock); 0 otherwise."""
    last = ck.data(ctx).get("last")
    if not last or not last.get("pushed") or last.get("success"):
        return 0
    cost = ps.push_failure(ctx.story)
    s = ctx.state.stats[last["who"]]
    if cost["damage"]:
        cb.damage(ctx, cost["damage"], last["who"])
    if cost["minutes"]:
        ctx.say(
            ck.t(
                ctx,
                f"{s['name']}は{cost['minutes']}分を無駄にした。",
                f"{s['name']} has lost {cost['minutes']} minutes.",
            )
        )
    return int(cost["minutes"])


@hook()
def luck(ctx: Context, difficulty: str = "regular", who: str = "") -> list[str]:
    return ck.luck(ctx, difficulty, who)


@hook()
def group_luck(ctx: Context, difficulty: str = "regular") -> list[str]:
    return ck.group_luck(ctx, difficulty)


@hook()
def spend_luck(ctx: Context) -> list[str]:
    return ck.spend_luck(ctx)


@hook()
def opposed(
    ctx: Context, skill: str, opponent: str, opp_skill: str = "", who: str = ""
) -> list[str]:
    return ck.opposed(ctx, skill, opponent, opp_skill, who)


@hook()
def san(ctx: Context, loss: str, who: str = "", source: str = "", bout: str = "") -> list[str]:
    """A Sanity roll, ``loss`` like ``1/1d6``; ``bout``: ``realtime`` when the horror is
    right there (a bout then lasts rounds), ``summary`` (hours); default real time in a fight."""
    return sn.san_check(ctx, loss, who, source, False, bout)


@hook()
def san_all(ctx: Context, loss: str, source: str = "", bout: str = "") -> list[str]:
    """A Sanity roll for every living investigator (``bout`` as for ``san``)."""
    return sn.san_all(ctx, loss, source, bout)


for _fn in (
    cb.start_combat,
    cb.end_combat,
    cb.attack,
    cb.shoot,
    cb.shoot_at,
    cb.aim,
    cb.reload,
    cb.fix_jam,
    cb.throw,
    cb.maneuver,
    cb.dodge,
    cb.fight_back,
    cb.enemy_turn,
    cb.pass_turn,
    cb.flee,
    cb.daze,
    cb.grope,
    cb.damage,
    cb.first_aid,
    cb.medicine,
    cb.tick,
):
    hook()(_fn)


@hook()
def out_cold_minutes(ctx: Context, who: str = "") -> int:
    """How long an unconscious investigator stays out: 1D10×10 minutes (7e leaves it to the
    keeper; our ruling). Rolled once per faint; the clock moves by it."""
    ck.pc_id(ctx, who)  # an unknown investigator is an error, as for every hook
    return max(
        0,
        ctx.roll("1d10*10", label=ck.t(ctx, "気を失っていた時間（分）", "minutes out cold")).total,
    )


@hook()
def come_round(ctx: Context, who: str = "") -> list[str]:
    """The unconscious investigator comes round (with at least 1 HP): ``["awake"]``."""
    pid = ck.pc_id(ctx, who)
    s = ctx.state.stats[pid]
    cond = s["cond"]
    if cond.get("dead") or (cond.get("dying") and not cond.get("stable")):
        return ["still_down"]
    s["hp"] = max(1, s["hp"])
    cond.update(unconscious=False, dying=False, stable=False)
    cd.recheck(ctx)
    ctx.say(
        ck.t(
            ctx,
            f"{s['name']}は意識を取り戻した（耐久力 {s['hp']}）。",
            f"{s['name']} comes round (HP {s['hp']}).",
        )
    )
    return ["awake"]


@hook()
def bout_minutes(ctx: Context, who: str = "") -> int:
    """The minutes a bout of madness takes off the clock: its hours (summary), or none (a
    real-time bout's rounds are seconds). Marks the bout as the one being waited out."""
    s = ck.sheet_of(ctx, who)
    b = cd.bout_running(s)
    if not b:
        return 0
    ck.data(ctx)["bout_wait"] = b.get("seq", 0)
    return int(b["left"]) * 60 if b.get("unit") == "hours" else 0


@hook()
def end_bout(ctx: Context, who: str = "") -> list[str]:
    """The bout waited out (``bout_minutes``) is over: the investigator comes to."""
    s = ck.sheet_of(ctx, who)
    b = cd.bout_running(s)
    if not b or b.get("seq", 0) != ck.data(ctx).get("bout_wait"):
        return ["none"]
    unit = ck.t(
        ctx,
        "ラウンド" if b.get("unit") == "rounds" else "時間",
        " rounds" if b.get("unit") == "rounds" else " hours",
    )
    del s["cond"]["bout"]  # over: the sheet keeps the insanity, not the bout
    cd.recheck(ctx)
    ctx.say(
        ck.t(
            ctx,
            f"{b['length']}{unit}のあいだ、{s['name']}は我を失っていた。やがて、我に返った。",
            f"For {b['length']}{unit} {s['name']} was not themself. Then they come to.",
        )
    )
    return ["over"]


@hook()
def heal(ctx: Context, amount: Any, who: str = "") -> list[str]:
    pid = ck.pc_id(ctx, who)
    n = amount if isinstance(amount, int) else ctx.roll(str(amount), label="回復").total
    cb.heal(ctx, pid, n)
    return ["healed"]


@hook()
def fighters(ctx: Context) -> dict[str, Any]:
    """The fight's own copies of the enemies, for a GM's override (``ダメージ 触腕1 2``):
    ``{"sheets": {id: sheet}, "instead_of": [the story character they were copied from]}``;
    empty outside a fight. A GM's damage to one goes through ``damage(amount, who)``."""
    c = ck.data(ctx).get("combat")
    if not c:
        return {}
    sheets = {k: r["sheet"] for k, r in c["c"].items() if r["side"] == "enemy"}
    return {"sheets": sheets, "instead_of": [c["enemy"]] if c.get("enemy") else []}
