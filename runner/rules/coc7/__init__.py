"""Call of Cthulhu 7th edition (新クトゥルフ神話TRPG) as pure hooks.

Investigator sheets live in ``state.stats[<id>]``; this system's own data (the active
investigator, the running fight, the last check, the day's SAN losses) in
``state.rules["coc7"]``. See docs/rules-coc7.md for every hook.
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError, RuleSystem
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import combat as cb
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import portable as _portable
from runner.rules.coc7 import push as ps
from runner.rules.coc7 import sanity as sn
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.bcdice import BCResult, bcdice
from runner.rules.coc7.sheet import make_enemy, make_investigator, pregens, quick_investigator
from runner.rules.dice import NeedDice, parse
from runner.rules.meta import Arg, MetaCommand

__all__ = ["SYSTEM", "BCResult", "bcdice", "make_enemy", "make_investigator", "pregens",
           "quick_investigator", "install"]

SYSTEM = RuleSystem("coc7", "新クトゥルフ神話TRPG（第7版）")
hook = SYSTEM.hook

DEFAULT_OCCUPATION = ("目星", "聞き耳", "図書館", "心理学", "説得", "回避", "応急手当", "隠密",
                      "近接戦闘(格闘)")
DEFAULT_HOBBIES = ("水泳", "投擲", "登攀", "オカルト")


def _default_id(ctx: Any) -> str:
    cache = getattr(ctx.story, "cache", None)
    found = cache.get(("coc7", "default_id")) if cache is not None else None
    if found is None:  # the story's first PC, looked for once per story
        found = "pc"
        chars = getattr(ctx.story, "characters", None) or {}
        for k, v in chars.items():
            kind = v.get("kind") if isinstance(v, dict) else getattr(v, "kind", "")
            if kind == "pc":
                found = k
                break
        if cache is not None:
            cache[("coc7", "default_id")] = found
    return found


def install(ctx: Any, sheet: dict, who: str = "") -> str:
    """Stores an investigator sheet in ``state.stats`` and makes it the active one."""
    pid = str(who or "") or ck.data(ctx).get("pc") or _default_id(ctx)
    ctx.state.stats[pid] = sheet
    ck.data(ctx)["pc"] = pid
    return pid


# ---------------------------------------------------------------- life cycle

def _story_sheets(ctx: Context) -> tuple[tuple[str, str, dict, dict], ...]:
    """(id, name, stats, props) of the story's PCs that come with characteristics, worked
    out once per story (kept in ``story.cache``; read, never changed)."""
    cache = getattr(ctx.story, "cache", None)
    found = cache.get(("coc7", "story_sheets")) if cache is not None else None
    if found is None:
        out = []
        chars = getattr(ctx.story, "characters", None) or {}
        for cid, c in chars.items():
            kind = c.get("kind") if isinstance(c, dict) else getattr(c, "kind", "")
            if kind != "pc":
                continue
            name, stats, props = ck.story_character(ctx, cid) or (cid, {}, {})
            try:
                sh.normalise_chars(stats)
            except RuleError:
                continue  # no sheet in the story: the player picks a pregen
            out.append((cid, name, stats, props))
        found = tuple(out)
        if cache is not None:
            cache[("coc7", "story_sheets")] = found
    return found


def _init(ctx: Context) -> None:
    d = ck.data(ctx)
    for cid, name, stats, props in _story_sheets(ctx):
        if cid in ctx.state.stats:
            continue
        skills = {k: v for k, v in stats.items() if sh.CHAR_ALIASES.get(sh._key(k)) is None
                  and k not in ("luck", "幸運", "age")}
        luck = stats.get("luck", stats.get("幸運"))
        ctx.state.stats[cid] = make_investigator(
            name, stats, skills, luck=int(luck) if luck is not None else None,
            source=_Dice(ctx), native=str(props.get("native", "日本語")),
            occupation=str(props.get("occupation", "")))
        d["pc"] = d.get("pc") or cid
    n = ck.option(ctx, "pregen")
    if n and not ck.pc_ids(ctx):
        choose_pregen(ctx, n)


class _Dice:
    """Adapts ctx.faces to a DiceSource for sheet-making helpers."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def face(self, sides: int) -> int:
        return self.ctx.faces([sides], expr=f"1d{sides}")[0]


_ROLL_PLANS: dict[tuple[str, ...], tuple[list[int], tuple]] = {}
"""Dice texts → (every die's sides in order, each roll's parsed form and first die)."""


def _roll_totals(ctx: Any, exprs: tuple[str, ...]) -> list[int]:
    """The totals of rolling each of ``exprs`` in turn with ``dice.roll(expr, _Dice(ctx))``,
    taken with one ``ctx.faces`` call instead of one a die: the same dice in the same order,
    and when dice run out the same :class:`NeedDice` (the roll that lacks them, and the dice
    it still needs)."""
    plan = _ROLL_PLANS.get(exprs)
    if plan is None:
        sides: list[int] = []
        parts = []
        for text in exprs:
            e = parse(text)
            parts.append((e, len(sides)))
            sides += e.sides
        plan = _ROLL_PLANS[exprs] = (sides, tuple(parts))
    sides, parts = plan
    try:
        faces = ctx.faces(sides, expr=exprs[0] if len(exprs) == 1 else " ".join(exprs))
    except NeedDice as need:
        got = len(sides) - len(need.sides)
        for e, first in parts:
            if first <= got < first + e.dice_count:
                raise NeedDice(e.text, e.sides[got - first:]) from need
        raise
    return [e.total(faces[first:first + e.dice_count]) for e, first in parts]


_QUICK_ROLLS = (*("2d6+6" if c in ("SIZ", "INT", "EDU") else "3d6" for c in sh.CHARS), "3d6")
"""Quick creation's rolls: the characteristics in CHARS order (sheet.roll_characteristics),
then Luck (3D6, as make_investigator rolls it)."""


def _view(story: Any, state: Any, gm: bool) -> dict:
    d = (getattr(state, "rules", None) or {}).get("coc7") or {}
    pcs = []
    shown: list[str] = []
    en = str(getattr(story, "language", "ja")).startswith("en")
    stats = getattr(state, "stats", None) or {}
    for k, s in stats.items():
        if isinstance(s, dict) and s.get("system") == "coc7" and s.get("kind") == "investigator":
            cond = s.get("cond", {})
            pcs.append({"id": k, "name": s["name"], "hp": s["hp"], "hp_max": s["hp_max"],
                        "mp": s["mp"], "mp_max": s["mp_max"], "san": s["san"], "luck": s["luck"],
                        "conditions": [c for c in ("major_wound", "unconscious", "dying", "dead",
                                                   "stable") if cond.get(c)]
                        + ([f"insane:{cond['insane']}"] if cond.get("insane") else [])
                        + (["bout"] if cd.bout_running(s) else [])})
            words = cd.condition_names(s, en)
            if words:  # in the player's words on the status bar: 瀕死、重傷、狂気の発作…
                many = sum(1 for v in stats.values() if isinstance(v, dict)
                           and v.get("kind") == "investigator") > 1
                shown += [f"{s['name']}:{w}" for w in words] if many else words
    out: dict = {"investigators": pcs, "active": d.get("pc", "")}
    if shown:
        out["conditions"] = shown
    c = d.get("combat")
    if c:
        rows = []
        for k in c["order"]:
            r = c["c"][k]
            row: dict = {"id": k, "side": r["side"], "dazed": r["dazed"], "held_by": r["held_by"],
                         "fled": r["fled"], "down": r["down"]}
            if r["side"] == "enemy":
                row["name"] = r["sheet"]["name"]
                if gm:
                    row["hp"] = r["sheet"]["hp"]
            else:
                row["name"] = state.stats[k]["name"]
            rows.append(row)
        out["combat"] = {"round": c["round"], "order": rows,
                         "awaiting": "response" if c["pending"] else ("action" if c["actor"] else ""),
                         "actor": c["actor"]}
    return {"coc7": out}


def _sheet_lines(s: dict, en: bool) -> list[str]:
    ch = s["chars"]
    lines = [f"{s['name']}（{s.get('occupation', '')}）",
             " ".join(f"{k}{ch[k]}" for k in sh.CHARS),
             f"HP {s['hp']}/{s['hp_max']}  MP {s['mp']}/{s['mp_max']}  SAN {s['san']}  "
             f"{'Luck' if en else '幸運'} {s['luck']}  MOV {s['mov']}  DB {s['db']}  "
             f"{'Build' if en else 'ビルド'} {s['build']}"]
    sk = [f"{sh.english(k) if en else k} {v}" for k, v in sorted(s["skills"].items(), key=lambda kv: -kv[1])]
    lines.append(", ".join(sk))
    return lines


def sheet_view(s: dict, en: bool = False) -> list[str]:
    """An investigator's sheet as a player reads it: who, the characteristics, the points,
    the conditions, the weapons, the skills (RuleSystem.sheet; the console's ``sheet``)."""
    ch = s["chars"]
    head = s.get("name_en") if en and s.get("name_en") else s["name"]
    occ = s.get("occupation", "")
    lines = [f"{head}（{occ}）" if occ else head]
    if en:
        lines.append("  " + "  ".join(f"{k} {ch[k]}" for k in sh.CHARS))
    else:
        lines.append("  " + "  ".join(f"{sh.CHAR_NAMES[k]}{k} {ch[k]}" for k in sh.CHARS))
    lines.append(f"  HP {s['hp']}/{s['hp_max']}  MP {s['mp']}/{s['mp_max']}  "
                 f"SAN {s['san']}/{s.get('san_max', 99)}  {'Luck' if en else '幸運'} {s['luck']}  "
                 f"{'MOV' if en else '移動'} {s['mov']}  DB {s['db']}  "
                 f"{'Build' if en else 'ビルド'} {s['build']}")
    words = cd.condition_names(s, en)
    lines.append(("  Conditions: " if en else "  状態：")
                 + ((", " if en else "、").join(words) if words else ("fine" if en else "異常なし")))
    ws = []
    for w in s.get("weapons", []):
        text = f"{w['name']} {w.get('damage', '')}".strip()
        if w.get("firearm"):
            text += (f" ({w.get('ammo', 0)} rounds)" if en else f"（残弾 {w.get('ammo', 0)}）")
        ws.append(text)
    if ws:
        lines.append(("  Weapons: " if en else "  武器：") + (", " if en else "、").join(ws))
    sk = [f"{sh.english(k) if en else k} {v}" for k, v in sorted(s["skills"].items(), key=lambda kv: -kv[1])]
    lines.append(("  Skills: " if en else "  技能：") + (", " if en else "、").join(sk))
    return lines


def _sheet(story: Any, state: Any, lang: str = "") -> list[str]:
    """Every investigator's sheet, the active one first (RuleSystem.sheet)."""
    en = (lang or str(getattr(story, "language", "ja"))).startswith("en")
    d = (getattr(state, "rules", None) or {}).get("coc7") or {}
    pcs = [(k, v) for k, v in (getattr(state, "stats", None) or {}).items()
           if isinstance(v, dict) and v.get("system") == "coc7" and v.get("kind") == "investigator"]
    pcs.sort(key=lambda kv: kv[0] != d.get("pc"))
    out: list[str] = []
    for _, v in pcs:
        out += sheet_view(v, en)
    return out


def _meta_sheet(ctx: Context, args: list) -> None:
    s = ck.sheet_of(ctx, args[0])
    for line in sheet_view(s, ck.lang(ctx) == "en"):
        ctx.say(line)


def _validate(raw: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    chars = (raw or {}).get("characters") or {}
    if not isinstance(chars, dict):
        return out
    for cid, c in chars.items():
        if not isinstance(c, dict) or not c.get("stats"):
            continue
        stats = c["stats"]
        if not isinstance(stats, dict):
            out.append((f"characters.{cid}.stats", "stats must be a mapping"))
            continue
        try:
            if c.get("kind") == "pc":
                sh.normalise_chars(stats)
            else:
                sh.make_enemy(str(c.get("name", cid)), stats, c.get("props") or {})
        except (RuleError, ValueError, TypeError) as e:
            out.append((f"characters.{cid}.stats", str(e)))
    return out


_CHOICE: list = []
"""The engine's Choice record, fetched once on the first offer (the engine imports the rules)."""


def _choice() -> Any:
    if not _CHOICE:
        from runner.engine.engine import Choice

        _CHOICE.append(Choice)
    return _CHOICE[0]


def _offer(story: Any, state: Any, choices: list) -> list:
    """What the rules allow (RuleSystem.offer): asked a few times a turn, so the common case
    (everyone can act, no failed check just now) is a few dictionary reads."""
    d = state.rules.get("coc7")
    if d is None:
        return choices
    if "down" in d and d["down"]:  # someone cannot act (condition.recheck keeps this)
        return cd.offers(story, state, choices, _choice())
    last = d.get("last")
    if last is None or not last.get("pushable") or last.get("turn") != state.turn - 1:
        return choices  # a push or Luck only right after a failed check
    extra = ps.offers(story, state, d, state.stats.get(d.get("pc") or "") or {})
    if not extra:
        return choices
    Choice = _choice()
    shown = [c for c in choices if c.n]
    for a in extra:
        shown.append(Choice(len(shown) + 1, a.id, a.label, a.aliases, a))
    return shown + choices[len(shown) - len(extra):]  # the hidden ones stay last


SYSTEM.init = _init
SYSTEM.view = _view
SYSTEM.sheet = _sheet
SYSTEM.offer = _offer
SYSTEM.validate = _validate
SYSTEM.meta_commands["sheet"] = MetaCommand(_meta_sheet, (Arg("who", "word", ""),), player=True)
# An investigator imported from CCFOLIA or キャラクター保管所 (runner/ccfolia): sent by the front
# end (`katari play --investigator FILE`, the console's `import`), never typed by a player.
SYSTEM.meta_commands["investigator"] = _portable.META


# ---------------------------------------------------------------- investigators

@hook()
def choose_pregen(ctx: Context, n: Any, who: str = "") -> list[str]:
    """Takes ready-made investigator ``n`` (1-4) as the active investigator."""
    count = len(sh._PREGENS)
    try:
        i = int(n)
    except (TypeError, ValueError):
        raise RuleError(f"pregen {n!r}: give a number 1-{count}") from None
    if not 1 <= i <= count:
        raise RuleError(f"pregen {n!r}: give a number 1-{count}")
    s = sh.pregen(i)
    install(ctx, s, who)
    ctx.say(ck.t(ctx, f"探索者：{s['name']}（{s['occupation']}）", f"Investigator: {s['name_en']}"))
    return ["chosen"]


@hook()
def quick_create(ctx: Context, name: str = "", method: str = "roll", who: str = "") -> list[str]:
    """Quick-start creation: ``roll`` (3D6×5 / (2D6+6)×5) or ``array`` (80,70,60,60,50,50,50,40
    in STR CON SIZ DEX APP INT POW EDU order), with a general set of skills."""
    # The dice of sheet.roll_characteristics and make_investigator's Luck, in one go.
    if method in ("roll", "dice", "ダイス"):
        *totals, luck3 = _roll_totals(ctx, _QUICK_ROLLS)
        chars = {c: n * 5 for c, n in zip(sh.CHARS, totals, strict=True)}
    elif method in ("array", "standard", "配分"):
        chars = sh.assign_array(sh.CHARS)
        luck3 = _roll_totals(ctx, ("3d6",))[0]
    else:
        raise RuleError(f"method {method!r}: roll or array")
    s = quick_investigator(name or ck.t(ctx, "探索者", "Investigator"), chars,
                           list(DEFAULT_OCCUPATION), list(DEFAULT_HOBBIES), _Dice(ctx),
                           luck=luck3 * 5, weapons=[sh.weapon("素手")])
    install(ctx, s, who)
    ctx.say(" / ".join(_sheet_lines(s, ck.lang(ctx) == "en")))
    return ["created"]


@hook()
def set_active(ctx: Context, who: str) -> list[str]:
    """Makes another investigator the one whose checks ``who``-less hooks roll."""
    ck.data(ctx)["pc"] = ck.pc_id(ctx, who)
    return ["ok"]


@hook()
def give_weapon(ctx: Context, name: str, who: str = "") -> list[str]:
    """Gives a known weapon (M360J, ナイフ, 棍棒) to an investigator."""
    s = ck.sheet_of(ctx, who)
    w = sh.weapon(name)
    s.setdefault("weapons", []).append(w)
    return ["given"]


@hook()
def give_ammo(ctx: Context, n: Any, weapon: str = "", who: str = "") -> list[str]:
    """Spare rounds for a firearm (e.g. the investigator carries .38 Special)."""
    s = ck.sheet_of(ctx, who)
    w = cb._find_weapon(s, str(weapon or ""), True)
    w["spare"] = int(w.get("spare", 0)) + int(n)
    return ["given"]


@hook()
def spend_mp(ctx: Context, n: Any, who: str = "") -> list[str]:
    """Spends magic points (the transfer spell's 10); ["not_enough"] leaves MP untouched."""
    s = ck.sheet_of(ctx, who)
    n = int(n)
    if s["mp"] < n:
        return ["not_enough"]
    s["mp"] -= n
    return ["spent"]


@hook()
def improve(ctx: Context, who: str = "") -> list[str]:
    """Development phase: each ticked skill improves by 1D10 on a d100 over it (or over 95)."""
    s = ck.sheet_of(ctx, who)
    grew = False
    for skill in list(s.get("marks", [])):
        _, value = sh.skill_value(s, skill)
        r = ctx.roll("1d100", label=ck.t(ctx, f"成長:{skill}", f"improve: {skill}")).total
        if r > value or r > 95:
            gain = ctx.roll("1d10", label=skill).total
            s["skills"][skill] = value + gain
            grew = True
    s["marks"] = []
    return ["improved"] if grew else ["none"]


# ---------------------------------------------------------------- checks

@hook()
def check(ctx: Context, skill: str, difficulty: str = "regular", bonus: Any = 0,
          who: str = "", hidden: Any = False, penalty: Any = 0) -> list[str]:
    """A skill or characteristic roll; ``bonus`` bonus dice and ``penalty`` penalty dice
    cancel one for one (a negative ``bonus`` is penalty dice); at most two either way."""
    return ck.check(ctx, skill, difficulty, ck.net_dice(bonus, penalty), who, hidden)


@hook()
def hidden_check(ctx: Context, skill: str, difficulty: str = "regular", bonus: Any = 0,
                 who: str = "") -> list[str]:
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
        ctx.say(ck.t(ctx, f"{s['name']}は{cost['minutes']}分を無駄にした。",
                     f"{s['name']} has lost {cost['minutes']} minutes."))
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
def opposed(ctx: Context, skill: str, opponent: str, opp_skill: str = "", who: str = "") -> list[str]:
    return ck.opposed(ctx, skill, opponent, opp_skill, who)


# ---------------------------------------------------------------- sanity

@hook()
def san(ctx: Context, loss: str, who: str = "", source: str = "", bout: str = "") -> list[str]:
    """A Sanity roll, ``loss`` like ``1/1d6``; ``bout``: ``realtime`` when the horror is
    right there (a bout then lasts rounds), ``summary`` (hours); default real time in a fight."""
    return sn.san_check(ctx, loss, who, source, False, bout)


@hook()
def san_all(ctx: Context, loss: str, source: str = "", bout: str = "") -> list[str]:
    """A Sanity roll for every living investigator (``bout`` as for ``san``)."""
    return sn.san_all(ctx, loss, source, bout)


# ---------------------------------------------------------------- combat and health

for _fn in (cb.start_combat, cb.end_combat, cb.attack, cb.shoot, cb.shoot_at, cb.aim, cb.reload, cb.fix_jam,
            cb.throw, cb.maneuver, cb.dodge, cb.fight_back, cb.enemy_turn, cb.pass_turn,
            cb.flee, cb.daze, cb.grope, cb.damage, cb.first_aid, cb.medicine, cb.tick):
    hook()(_fn)


# ---------------------------------------------------------------- conditions (what the rules offer)

@hook()
def out_cold_minutes(ctx: Context, who: str = "") -> int:
    """How long an unconscious investigator stays out: 1D10×10 minutes (7e leaves it to the
    keeper; our ruling). Rolled once per faint; the clock moves by it."""
    ck.pc_id(ctx, who)  # an unknown investigator is an error, as for every hook
    return max(0, ctx.roll("1d10*10", label=ck.t(ctx, "気を失っていた時間（分）",
                                                 "minutes out cold")).total)


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
    ctx.say(ck.t(ctx, f"{s['name']}は意識を取り戻した（耐久力 {s['hp']}）。",
                 f"{s['name']} comes round (HP {s['hp']})."))
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
    unit = ck.t(ctx, "ラウンド" if b.get("unit") == "rounds" else "時間",
                " rounds" if b.get("unit") == "rounds" else " hours")
    del s["cond"]["bout"]  # over: the sheet keeps the insanity, not the bout
    cd.recheck(ctx)
    ctx.say(ck.t(ctx, f"{b['length']}{unit}のあいだ、{s['name']}は我を失っていた。やがて、我に返った。",
                 f"For {b['length']}{unit} {s['name']} was not themself. Then they come to."))
    return ["over"]


@hook()
def heal(ctx: Context, amount: Any, who: str = "") -> list[str]:
    pid = ck.pc_id(ctx, who)
    n = amount if isinstance(amount, int) else ctx.roll(str(amount), label="回復").total
    cb.heal(ctx, pid, n)
    return ["healed"]


# ---------------------------------------------------------------- pure reads (conditions)

def _pc(ctx: Any, who: str) -> dict:
    return ck.sheet_of(ctx, who)


@hook(pure=True)
def in_combat(ctx: Context) -> bool:
    return bool(ck.peek(ctx).get("combat"))


@hook(pure=True)
def awaiting(ctx: Context) -> str:
    """"response" (dodge or fight back), "action" (an investigator's turn) or ""."""
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
    if type(v) is dict and v.get("system") == "coc7" and v.get("kind") == "investigator" \
            and not v["cond"].get("dead"):
        return True
    for v in stats.values():
        if isinstance(v, dict) and v.get("system") == "coc7" and v.get("kind") == "investigator" \
                and not v["cond"].get("dead"):
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
    """"", "temporary", "indefinite" or "permanent"."""
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
    return any(w.get("jammed") for w in s.get("weapons", [])
               if w.get("firearm") and (not weapon or w["name"] == weapon))


@hook(pure=True)
def has_weapon(ctx: Context, name: str, who: str = "") -> bool:
    return any(w["name"] == name for w in _pc(ctx, who).get("weapons", []))


# What front ends need from this system (labels, outcome keys, lint, skills, BCDice rolls):
# runner/rules/coc7/front.py.
from runner.rules.coc7 import front as _front  # noqa: E402,F401
from runner.rules.coc7 import scenario as _scenario  # noqa: E402,F401  (scenario hooks register on SYSTEM)
