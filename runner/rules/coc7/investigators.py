"""Investigators: the story's own sheets made at the start, ready-made and quick-start
investigators, weapons, ammunition, magic points and improvement; the story's character
stats checked (RuleSystem.validate)."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import combat as cb
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.sheet import make_investigator, quick_investigator
from runner.rules.coc7.system import hook
from runner.rules.coc7.views import _sheet_lines
from runner.rules.dice import NeedDice, parse

DEFAULT_OCCUPATION = (
    "目星",
    "聞き耳",
    "図書館",
    "心理学",
    "説得",
    "回避",
    "応急手当",
    "隠密",
    "近接戦闘(格闘)",
)


DEFAULT_HOBBIES = ("水泳", "投擲", "登攀", "オカルト")


def _default_id(ctx: Context) -> str:
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


def install(ctx: Context, sheet: dict[str, Any], who: str = "") -> str:
    """Stores an investigator sheet in ``state.stats`` and makes it the active one."""
    pid = str(who or "") or ck.data(ctx).get("pc") or _default_id(ctx)
    ctx.state.stats[pid] = sheet
    ck.data(ctx)["pc"] = pid
    return pid


def _story_sheets(ctx: Context) -> tuple[tuple[str, str, dict[str, Any], dict[str, Any]], ...]:
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
        skills = {
            k: v
            for k, v in stats.items()
            if sh.CHAR_ALIASES.get(sh._key(k)) is None and k not in ("luck", "幸運", "age")
        }
        luck = stats.get("luck", stats.get("幸運"))
        ctx.state.stats[cid] = make_investigator(
            name,
            stats,
            skills,
            luck=int(luck) if luck is not None else None,
            source=_Dice(ctx),
            native=str(props.get("native", "日本語")),
            occupation=str(props.get("occupation", "")),
        )
        d["pc"] = d.get("pc") or cid
    n = ck.option(ctx, "pregen")
    if n and not ck.pc_ids(ctx):
        choose_pregen(ctx, n)


class _Dice:
    """Adapts ctx.faces to a DiceSource for sheet-making helpers."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def face(self, sides: int) -> int:
        return self.ctx.faces([sides], expr=f"1d{sides}")[0]


_ROLL_PLANS: dict[tuple[str, ...], tuple[list[int], tuple[Any, ...]]] = {}
"""Dice texts → (every die's sides in order, each roll's parsed form and first die)."""


def _roll_totals(ctx: Context, exprs: tuple[str, ...]) -> list[int]:
    """The totals of rolling each of ``exprs`` in turn with ``dice.roll(expr, _Dice(ctx))``,
    taken with one ``ctx.faces`` call instead of one a die: the same dice in the same order,
    and when dice run out the same :class:`NeedDice` (the roll that lacks them, and the dice
    it still needs)."""
    plan = _ROLL_PLANS.get(exprs)
    if plan is None:
        sides: list[int] = []
        built = []
        for text in exprs:
            e = parse(text)
            built.append((e, len(sides)))
            sides += e.sides
        plan = _ROLL_PLANS[exprs] = (sides, tuple(built))
    sides, parts = plan
    try:
        faces = ctx.faces(sides, expr=exprs[0] if len(exprs) == 1 else " ".join(exprs))
    except NeedDice as need:
        got = len(sides) - len(need.sides)
        for e, first in parts:
            if first <= got < first + e.dice_count:
                raise NeedDice(e.text, e.sides[got - first :]) from need
        raise
    return [e.total(faces[first : first + e.dice_count]) for e, first in parts]


_QUICK_ROLLS = (*("2d6+6" if c in ("SIZ", "INT", "EDU") else "3d6" for c in sh.CHARS), "3d6")
"""Quick creation's rolls: the characteristics in CHARS order (sheet.roll_characteristics),
then Luck (3D6, as make_investigator rolls it)."""


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
                from runner.rules.coc7.domains import attack_damage

                enemy = sh.make_enemy(str(c.get("name", cid)), stats, c.get("props") or {})
                out += attack_damage(cid, stats, enemy)  # damage: 1d is found here, not in a fight
        except (RuleError, ValueError, TypeError) as e:
            out.append((f"characters.{cid}.stats", str(e)))
    return out


def _pregen_number(n: Any) -> int:
    count = len(sh._PREGENS)
    try:
        i = int(n)
    except (TypeError, ValueError):
        raise RuleError(f"pregen {n!r}: give a number 1-{count}") from None
    if not 1 <= i <= count:
        raise RuleError(f"pregen {n!r}: give a number 1-{count}")
    return i


@hook(pure=True)
def pregen_label(ctx: Context, n: Any) -> str:
    """Ready-made investigator ``n``'s name and occupation as a menu shows them
    (``{coc7.pregen_label(1)}``: 黒田 剛（警察官）, Tsuyoshi Kuroda (Police Officer)), from the
    same data as the sheet ``choose_pregen(n)`` gives, in the story's language."""
    p = sh._PREGENS[_pregen_number(n) - 1]
    if ck.lang(ctx) == "en":
        return f"{p['en']} ({p['occupation_en']})"
    return f"{p['name']}（{p['occupation']}）"


@hook()
def choose_pregen(ctx: Context, n: Any, who: str = "") -> list[str]:
    """Takes ready-made investigator ``n`` (1-4) as the active investigator."""
    i = _pregen_number(n)
    s = sh.pregen(i, ck.lang(ctx) == "en")
    install(ctx, s, who)
    ctx.say(
        ck.t(
            ctx,
            f"探索者：{s['name']}（{s['occupation']}）",
            f"Investigator: {s['name_en']} ({s['occupation']})",
        )
    )
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
    s = quick_investigator(
        name or ck.t(ctx, "探索者", "Investigator"),
        chars,
        list(DEFAULT_OCCUPATION),
        list(DEFAULT_HOBBIES),
        _Dice(ctx),
        luck=luck3 * 5,
        weapons=[sh.weapon("素手")],
    )
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
