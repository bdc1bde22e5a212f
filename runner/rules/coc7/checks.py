"""Percentile rolls: success levels, difficulty, bonus and penalty dice, checks, pushes, Luck.

Dice order is BCDice's: one tens d10 per die (1 + bonus/penalty dice), then the units d10;
a face of 10 reads 0, and 00 + 0 reads 100.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol, cast

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import sheet as sh

if TYPE_CHECKING:  # the engine imports the rules: its event types are for annotations only
    from runner.engine.events import RollEvent

LEVELS: tuple[str, ...] = ("fumble", "failure", "regular", "hard", "extreme", "critical")
RANK: dict[str, int] = {lv: i - 1 for i, lv in enumerate(LEVELS)}
"""fumble −1, failure 0, regular 1, hard 2, extreme 3, critical 4."""
LEVEL_JA: dict[str, str] = {
    "critical": "クリティカル",
    "extreme": "イクストリーム成功",
    "hard": "ハード成功",
    "regular": "レギュラー成功",
    "success": "成功",
    "failure": "失敗",
    "fumble": "ファンブル",
}
LEVEL_EN: dict[str, str] = {
    "critical": "critical",
    "extreme": "extreme success",
    "hard": "hard success",
    "regular": "regular success",
    "success": "success",
    "failure": "failure",
    "fumble": "fumble",
}
DIFFICULTY: dict[str, str] = {
    "": "regular",
    "regular": "regular",
    "normal": "regular",
    "r": "regular",
    "レギュラー": "regular",
    "通常": "regular",
    "hard": "hard",
    "h": "hard",
    "ハード": "hard",
    "困難": "hard",
    "extreme": "extreme",
    "e": "extreme",
    "イクストリーム": "extreme",
    "極限": "extreme",
    "critical": "critical",
    "c": "critical",
    "クリティカル": "critical",
}
DIFF_JA = {
    "regular": "レギュラー",
    "hard": "ハード",
    "extreme": "イクストリーム",
    "critical": "クリティカル",
}
NO_PUSH = frozenset({"幸運", "正気度"})
"""Never pushed (nor Luck spent on): Luck and Sanity rolls; combat rolls are never pushable
either (7e), and neither is a fumble or a roll already pushed."""


def difficulty(text: Any) -> str:
    if type(text) is str:
        d = DIFFICULTY.get(text)  # the keys are already stripped and lower case
        if d is not None:
            return d
    d = DIFFICULTY.get(str(text or "").strip().lower())
    if d is None:
        raise RuleError(f"unknown difficulty {text!r}: use regular, hard or extreme")
    return d


def level_of(total: int, target: int) -> str:
    """The 7e success level of a d100 result against ``target`` (BCDice's reading).

    01 is always critical; 100 always fumbles, and 96-99 fumble when the target is under 50.
    """
    if total == 1:
        return "critical"
    if total >= (96 if target < 50 else 100):
        return "fumble"
    if total <= target // 5:
        return "extreme"
    if total <= target // 2:
        return "hard"
    if total <= target:
        return "regular"
    return "failure"


def needed(value: int, diff: str) -> int:
    """The number to roll under for a difficulty (critical: only 01)."""
    if diff == "regular":
        return value
    if diff == "hard":
        return value // 2
    if diff == "extreme":
        return value // 5
    if diff == "critical":
        return 0
    raise KeyError(diff)


def judge(total: int, value: int, diff: str) -> tuple[str, bool]:
    """Returns (level rolled against ``value``, success at difficulty ``diff``).

    The fumble range follows the number needed (a Hard roll on 60 needs 30, so 96+ fumbles).
    """
    lv = level_of(total, value)
    if diff == "regular":
        return lv, RANK[lv] >= 1
    if total == 1:
        return "critical", True
    if total >= (96 if needed(value, diff) < 50 else 100):
        return "fumble", False
    return lv, RANK[lv] >= RANK[diff]


_SUCCESS_ORDER = ("critical", "extreme", "hard", "regular")
_SUCCESS_KEYS = {lv: [*_SUCCESS_ORDER[i:], "success"] for i, lv in enumerate(_SUCCESS_ORDER)}


def outcome_keys(level: str, ok: bool) -> list[str]:
    """Outcome keys, most specific first: extreme → [extreme, hard, regular, success]."""
    if not ok:
        return ["fumble", "failure"] if level == "fumble" else ["failure"]
    keys = _SUCCESS_KEYS.get(level)
    if keys is None:
        raise ValueError(f"{level!r} is not a success level")
    return keys[:]  # a fresh list: callers add to it


def read_percentile(tens: list[int], units: int, bonus: int) -> tuple[int, list[int]]:
    """Combines tens d10 faces and a units d10 face into (kept result, every candidate)."""
    u = units % 10
    cands = []
    for t in tens:
        v = (t % 10) * 10 + u
        cands.append(100 if v == 0 else v)
    return (min(cands) if bonus >= 0 else max(cands)), cands


def bcdice_text(
    target: int | None,
    bonus: int,
    cands: list[int],
    total: int,
    result: str | None,
    label: str = "",
    en: bool = False,
) -> str:
    """The BCDice Cthulhu7th line, e.g. ``(1D100<=46) ボーナス・ペナルティダイス[1] ＞ 47, 37 ＞ 37 ＞ レギュラー成功``,
    after ``〈label〉`` when there is one; ``en``: the same line in English words
    (``(1D100<=46) bonus/penalty dice[1] > 47, 37 > 37 > regular success``)."""
    expr = "1D100" if target is None else f"1D100<={target}"
    shown = str(cands[0]) if len(cands) == 1 else ", ".join(map(str, cands))
    dice, sep = ("bonus/penalty dice", " > ") if en else ("ボーナス・ペナルティダイス", " ＞ ")
    text = sep.join([f"({expr}) {dice}[{bonus}]", shown, str(total)] + ([result] if result else []))
    return f"〈{label}〉 {text}" if label else text


def ruled_text(ev: Any, forced: str, language: str) -> str | None:
    """A d100 roll's line once the GM ruled ``forced``: the dice as rolled, then the ruling
    in place of the dice's verdict (never both), in ``language``'s words; None for a roll
    that is not a d100 check (it keeps its own text)."""
    dice = [int(x) for x in ev.get("dice") or []]
    total = ev.get("total")
    if len(dice) < 2 or not isinstance(total, int):
        return None
    en = str(language or "ja").lower().startswith("en")
    bonus = int(ev.get("bonus") or 0)
    n = len(dice) - 1
    cands = [total] if n == 1 else read_percentile(dice[:n], dice[n], bonus)[1]
    word = (LEVEL_EN if en else LEVEL_JA).get(forced, forced)
    ruling = f"{word} (the GM's ruling)" if en else f"{word}（GMの裁定）"
    return bcdice_text(ev.get("target"), bonus, cands, total, ruling, ev.get("label") or "", en)


# ---------------------------------------------------------------- state helpers

_LANG_OF: dict[str, str] = {}
"""Story language → "en" or "ja", remembered: asked for nearly every line a hook says."""


def lang(ctx: Context) -> str:
    try:
        lg = ctx.story.language
    except AttributeError:
        lg = None
    out = _LANG_OF.get(lg) if type(lg) is str else None
    if out is None:
        out = "en" if str(lg or "ja").lower().startswith("en") else "ja"
        if type(lg) is str and len(_LANG_OF) < 64:
            _LANG_OF[lg] = out
    return out


def t(ctx: Context, ja: str, en: str) -> str:
    return en if lang(ctx) == "en" else ja


def say(ctx: Context, ja: str, en: str) -> None:
    """A rule's line in both languages: ``text`` in the story's, ``texts`` in both, so a
    console in the other language (``--lang en`` on a Japanese story) shows its own."""
    ctx.emit(
        {
            "type": "narration",
            "text": en if lang(ctx) == "en" else ja,
            "texts": {"ja": ja, "en": en},
            "speaker": "narrator",
            "id": None,
        }
    )


class _HasStory(Protocol):
    """What :func:`option` reads: a Context, or anything else that holds a story."""

    story: Any


def option(ctx: _HasStory, key: str, default: Any = None) -> Any:
    """A story setting: ``coc7:`` section, then ``story.options`` (flat or under coc7)."""
    story = getattr(ctx, "story", None)
    for src in (
        (getattr(story, "extra", None) or {}).get("coc7"),
        (getattr(story, "options", None) or {}).get("coc7"),
        getattr(story, "options", None),
    ):
        if isinstance(src, dict) and key in src:
            return src[key]
    return default


def data(ctx: Context) -> dict[str, Any]:
    """This rule system's part of the state (``state.rules["coc7"]``)."""
    rules = ctx.state.rules
    d = rules.get("coc7")
    if d is None:
        d = rules["coc7"] = {
            "pc": "",
            "last": None,
            "day": 0,
            "day_loss": {},
            "day_start": {},
            "san_by_source": {},
        }
    result: dict[str, Any] = d
    return result


_NO_DATA: Mapping[str, Any] = MappingProxyType({})


def peek(ctx: Context) -> Mapping[str, Any]:
    """Reads ``state.rules["coc7"]`` without creating it. Pure hooks read only through this:
    the engine lets them run on state it shares with the previous turn's, so they must
    never write (tests/test_engine_purity_soak.py)."""
    return ctx.state.rules.get("coc7") or _NO_DATA


def pc_ids(ctx: Context) -> list[str]:
    """Ids of the investigator sheets in ``state.stats``, in insertion order."""
    return [
        k
        for k, v in ctx.state.stats.items()
        if isinstance(v, dict) and v.get("system") == "coc7" and v.get("kind") == "investigator"
    ]


def pc_id(ctx: Context, who: str = "") -> str:
    """Resolves ``who`` (an id, a sheet name or "") to an investigator id; "" is the active one."""
    stats = ctx.state.stats
    if who:
        who = str(who)
        if who in stats:
            return who
        ids = pc_ids(ctx)
        for k in ids:
            if stats[k].get("name") == who:
                return k
        raise RuleError(f"no investigator {who!r}; known: {', '.join(ids) or 'none'}")
    active = peek(ctx).get("pc")
    if active and active in stats:
        result: str = active  # the common case, asked by most hooks every turn: no list to build
        return result
    ids = pc_ids(ctx)
    if ids:
        return ids[0]
    raise RuleError("no investigator yet: call coc7.choose_pregen(n) or coc7.create(...) first")


def sheet_of(ctx: Context, who: str = "") -> dict[str, Any]:
    result: dict[str, Any] = ctx.state.stats[pc_id(ctx, who)]
    return result


def story_character(ctx: Context, cid: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """(name, stats, props) of a story character, whether the story is a model or plain data."""
    chars = getattr(getattr(ctx, "story", None), "characters", None) or {}
    c = chars.get(cid)
    if c is None:
        for k, v in chars.items():
            name = v.get("name") if isinstance(v, dict) else getattr(v, "name", "")
            if name == cid:
                c, cid = v, k
                break
    if c is None:
        return None
    if isinstance(c, dict):
        return c.get("name", cid), dict(c.get("stats") or {}), dict(c.get("props") or {})
    return (
        getattr(c, "name", cid),
        dict(getattr(c, "stats", {}) or {}),
        dict(getattr(c, "props", {}) or {}),
    )


# ---------------------------------------------------------------- rolling

_NO_WHO: Any = object()
"""roll_d100's ``who`` when not given: the event has no ``who``."""
_D100_SIDES = {n: [10] * n for n in range(2, 8)}
"""Sides for 1 + n tens dice and a units die, shared by every roll (never changed)."""
_RESULT = {
    (lv, diff, ok): LEVEL_JA[lv]
    + ("" if diff == "regular" else f" ＞ {DIFF_JA[diff]}{'成功' if ok else '失敗'}")
    for lv in LEVELS
    for diff in DIFF_JA
    for ok in (False, True)
}
"""The end of a BCDice line: success level, then the difficulty's verdict (not for regular)."""
_RESULT_EN = {
    (lv, diff, ok): LEVEL_EN[lv]
    + ("" if diff == "regular" else f" > {diff} {'success' if ok else 'failure'}")
    for lv in LEVELS
    for diff in DIFF_JA
    for ok in (False, True)
}
"""The same end in English words (a game played in English)."""


_JUDGED: dict[tuple[int, int, str], tuple[str, bool, str]] = {}
"""(total, value, difficulty) → (level, success, the BCDice line's end), remembered: a
fight judges the same few hundred pairs over and over."""


def _judged(total: int, value: int, diff: str) -> tuple[str, bool, str]:
    key = (total, value, diff)
    hit = _JUDGED.get(key)
    if hit is None:
        level, ok = judge(total, value, diff)
        hit = (level, ok, _RESULT[level, diff, ok])
        if len(_JUDGED) < 65536 and type(value) is int:
            _JUDGED[key] = hit
    return hit


def roll_d100(
    ctx: Context,
    value: int | None,
    *,
    bonus: int = 0,
    diff: str = "regular",
    label: str = "",
    hidden: bool = False,
    emit: bool = True,
    who: Any = _NO_WHO,
    **extra: Any,
) -> dict[str, Any]:
    """Rolls a percentile die with bonus (>0) or penalty (<0) dice and emits one roll event.

    Returns {total, dice, level, success, candidates, text}; level and success are None
    when ``value`` is None (a bare d100). ``who`` and ``extra`` are added to the event.
    """
    if label and lang(ctx) == "en":
        label = sh.english_label(label)  # the skill's English name: Tentacle1:Fighting
    n = (bonus if bonus >= 0 else -bonus) + 1 if type(bonus) is int else abs(int(bonus)) + 1
    sides = _D100_SIDES.get(n + 1) or [10] * (n + 1)
    faces = list(ctx.faces(sides, expr="1d100", label=label, target=value))
    if n == 1:
        total = (faces[0] % 10) * 10 + faces[1] % 10 or 100  # 00 + 0 reads 100
        cands = [total]
    else:
        total, cands = read_percentile(faces[:n], faces[n], bonus)
    if value is None:
        level = ok = None
        text = bcdice_text(None, bonus, cands, total, None, label, lang(ctx) == "en")
    else:
        level, ok, res = _judged(total, value, diff)
        if lang(ctx) == "en":
            text = bcdice_text(value, bonus, cands, total, _RESULT_EN[level, diff, ok], label, True)
        else:
            text = bcdice_text(value, bonus, cands, total, res, label)
    out = {
        "total": total,
        "dice": faces,
        "level": level,
        "success": ok,
        "candidates": cands,
        "text": text,
        "target": value,
        "difficulty": diff,
        "bonus": bonus,
    }
    if emit:
        if value is None or level is None or ok is None:  # a bare d100 (one test for mypy)
            ev: RollEvent = {
                "type": "roll",
                "expr": "1d100",
                "dice": faces,
                "sides": [10] * (n + 1),
                "total": total,
                "label": label,
                "text": text,
                "bonus": bonus,
            }
        else:
            ev = {
                "type": "roll",
                "expr": f"1d100<={value}",
                "dice": faces,
                "sides": [10] * (n + 1),
                "total": total,
                "label": label,
                "text": text,
                "bonus": bonus,
                "level": level,
                "target": value,
                "difficulty": diff,
                "success": ok,
            }
        if hidden:
            ev["keeper"] = True
        if who is not _NO_WHO:
            ev["who"] = who
        if extra:  # keys of this system's own (``pushed``, ``san``) ride along
            ev = cast("RollEvent", {**ev, **extra})
        ctx.emit(ev)
    return out


def _bonus(bonus: Any, penalty: Any = 0) -> int:
    try:
        return int(bonus or 0) - int(penalty or 0)
    except (TypeError, ValueError):
        raise RuleError(f"bonus/penalty dice must be whole numbers, not {bonus!r}") from None


MAX_EXTRA_DICE = 2


def net_dice(bonus: Any = 0, penalty: Any = 0) -> int:
    """Bonus and penalty dice cancel one for one; 7e allows at most two of either."""
    n = bonus - penalty if type(bonus) is int and type(penalty) is int else _bonus(bonus, penalty)
    # max(-2, min(2, n)) written out: asked for every check
    if n > MAX_EXTRA_DICE:
        return MAX_EXTRA_DICE
    if n < -MAX_EXTRA_DICE:
        return -MAX_EXTRA_DICE
    return n


_NEVER_MARKED = frozenset({*sh.CHARS, "幸運", "正気度", *sh.NO_IMPROVEMENT})


def mark(sheet: dict[str, Any], skill: str) -> None:
    """Ticks a skill for improvement (never characteristics, Luck, SAN, Mythos, Credit)."""
    if sheet.get("kind") != "investigator" or skill in _NEVER_MARKED:
        return
    if skill not in sheet.setdefault("marks", []):
        sheet["marks"].append(skill)


def check(
    ctx: Context,
    skill: str,
    diff: Any = "regular",
    bonus: Any = 0,
    who: str = "",
    hidden: Any = False,
    *,
    pushed: bool = False,
) -> list[str]:
    """A skill or characteristic roll by an investigator; returns outcome keys."""
    d = difficulty(diff)
    pid = pc_id(ctx, who)
    s = ctx.state.stats[pid]
    name, value = sh.skill_value(s, skill)
    b = net_dice(bonus)
    label = name if lang(ctx) == "ja" else sh.english(name)
    r = roll_d100(
        ctx, value, bonus=b, diff=d, label=label, hidden=bool(hidden), who=pid, pushed=pushed
    )
    ok = bool(r["success"])
    if ok:
        mark(s, name)
    dd = data(ctx)
    pushable = (
        not ok
        and not pushed
        and name not in NO_PUSH
        and r["level"] != "fumble"
        and not dd.get("combat")
    )
    dd["last"] = last = {
        "skill": name,
        "value": value,
        "difficulty": d,
        "bonus": b,
        "who": pid,
        "total": r["total"],
        "level": r["level"],
        "success": ok,
        "pushed": pushed,
        "hidden": bool(hidden),
        "pushable": pushable,
    }
    # The story action whose check this is, and when: what a push refers back to (kept for
    # a check the dice passed too, in case the GM rules it a failure: ``ruled``).
    act = getattr(ctx, "checking", None)
    last["action"] = act.key if act is not None else ""
    last["turn"] = getattr(ctx.state, "turn", 0)
    keys = outcome_keys(r["level"], ok)
    if pushed and not ok:
        keys = ["pushed_failure", *keys]
    return keys


def ruled(ctx: Context, forced: str, roll: Any) -> None:
    """The GM ruled the check just made ``forced`` (RuleSystem.ruled): a push and a Luck
    spend follow only a check that FAILED as ruled (7e). A check ruled a success, or any
    outcome of the story's that is not a failure, offers neither; a check ruled a failure
    (or a fumble) is offered them exactly as a rolled failure (or fumble) is: a push unless
    it is a fumble, Luck for the margin the dice missed by (none when the dice passed)."""
    last = peek(ctx).get("last")
    if (
        not last
        or not isinstance(roll, dict)
        or last.get("turn") != getattr(ctx.state, "turn", 0)
        or last.get("total") != roll.get("total")
        or last.get("who") != roll.get("who")
    ):
        return  # not a check the rules remember (an opposed roll, a Sanity roll, ...)
    last = data(ctx)["last"]
    if forced in ("failure", "fumble"):
        last["level"], last["success"] = forced, False
        last["pushable"] = (
            not last.get("pushed")
            and last.get("skill") not in NO_PUSH
            and forced != "fumble"
            and not data(ctx).get("combat")
        )
    else:
        if forced in LEVEL_JA:  # a rule level: the check succeeded
            if forced != "success":
                last["level"] = forced
            elif not last.get("success"):
                last["level"] = "regular"
            last["success"] = True
        last["pushable"] = False


def push(ctx: Context) -> list[str]:
    """Pushes the last failed check (once; never Luck, SAN, a fumble or combat)."""
    last = data(ctx).get("last")
    if not last or not last.get("pushable"):
        raise RuleError("nothing to push: only a failed, unpushed skill check can be pushed")
    ctx.say(
        t(
            ctx,
            f"覚悟を決めて、もう一度〈{last['skill']}〉に挑む（プッシュ・ロール）。",
            f"You push the {sh.english(last['skill'])} roll.",
        )
    )
    return check(
        ctx,
        last["skill"],
        last["difficulty"],
        last["bonus"],
        last["who"],
        last.get("hidden", False),
        pushed=True,
    )


def luck(ctx: Context, diff: Any = "regular", who: str = "", hidden: Any = False) -> list[str]:
    """A Luck roll (no improvement mark, cannot be pushed)."""
    return check(ctx, "幸運", diff, 0, who, hidden)


def group_luck(ctx: Context, diff: Any = "regular") -> list[str]:
    """A Luck roll by the investigator with the lowest Luck (7e group Luck)."""
    ids = pc_ids(ctx)
    if not ids:
        raise RuleError("no investigators")
    low = min(ids, key=lambda k: ctx.state.stats[k].get("luck", 0))
    return check(ctx, "幸運", diff, 0, low)


def spend_luck(ctx: Context) -> list[str]:
    """Optional rule: spends Luck to turn the last failed skill check into a bare success."""
    last = data(ctx).get("last")
    if (
        not last
        or last.get("success")
        or last.get("skill") in NO_PUSH
        or last.get("pushed")
        or last.get("level") == "fumble"
    ):
        raise RuleError("Luck can only be spent on a failed skill check that was not pushed")
    s = ctx.state.stats[last["who"]]
    cost = last["total"] - needed(last["value"], last["difficulty"])
    if cost > s.get("luck", 0) or cost <= 0:
        ctx.say(
            t(
                ctx,
                f"幸運が足りない（必要 {cost}、残り {s.get('luck', 0)}）。",
                f"Not enough Luck (needs {cost}, has {s.get('luck', 0)}).",
            )
        )
        return ["failure"]
    s["luck"] -= cost
    last.update(success=True, pushable=False)
    mark(s, last["skill"])
    say(
        ctx,
        f"幸運を {cost} 消費して成功にした（残り {s['luck']}）。",
        f"You spend {cost} Luck to succeed (Luck now {s['luck']}).",
    )
    return [last["difficulty"], "success"] if last["difficulty"] != "critical" else ["success"]


def opposed(
    ctx: Context, skill: str, opponent: str, opp_skill: str = "", who: str = "", bonus: Any = 0
) -> list[str]:
    """An opposed roll: the higher level wins; a tie goes to the higher skill, else a draw.

    Returns ["win"], ["lose"] or ["draw"] (both failed, or all equal), plus the level keys.
    """
    pid = pc_id(ctx, who)
    me = ctx.state.stats[pid]
    other = sheet_for(ctx, opponent)
    name, value = sh.skill_value(me, skill)
    oname, ovalue = sh.skill_value(other, opp_skill or skill)
    a = roll_d100(ctx, value, bonus=_bonus(bonus), label=name, who=pid)
    b = roll_d100(ctx, ovalue, label=f"{other.get('name', opponent)}:{oname}", who=opponent)
    ra, rb = RANK[a["level"]], RANK[b["level"]]
    if ra >= 1:
        mark(me, name)
    if ra < 1 and rb < 1:
        res = "draw"
    elif ra != rb:
        res = "win" if ra > rb else "lose"
    elif value != ovalue:
        res = "win" if value > ovalue else "lose"
    else:
        res = "draw"
    return [res, *outcome_keys(a["level"], ra >= 1)]


def story_enemy(ctx: Context, cid: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
    """(name, props, creature sheet) of story character ``cid``, or None if there is none.

    The sheet is built once per story and kept in ``story.cache``: callers must copy it
    (``sheet.plain_copy``, or :func:`story_enemy_copy`) before it goes into a game's state."""
    hit = _story_enemy(ctx, cid)
    return hit[:3] if hit is not None else None


def story_enemy_copy(
    ctx: Context, cid: str
) -> tuple[str, dict[str, Any], dict[str, Any], Callable[[], dict[str, Any]]] | None:
    """:func:`story_enemy` and a function returning a fresh copy of the sheet (a fight
    copies it for every enemy it starts with)."""
    return _story_enemy(ctx, cid)


def _story_enemy(
    ctx: Context, cid: str
) -> tuple[str, dict[str, Any], dict[str, Any], Callable[[], dict[str, Any]]] | None:
    cache = getattr(getattr(ctx, "story", None), "cache", None)
    key = ("coc7", "enemy", cid)
    hit = cache.get(key) if cache is not None else None
    if hit is None:
        sc = story_character(ctx, cid)
        if sc is None:
            return None
        name, stats, props = sc
        built = sh.make_enemy(name, stats, props)
        hit = (name, props, built, sh.copier(built))
        if cache is not None:
            cache[key] = hit
    return hit


def sheet_for(ctx: Context, cid: str) -> dict[str, Any]:
    """A sheet for an investigator id, a combatant or a story character (built on the fly)."""
    if (
        cid in ctx.state.stats
        and isinstance(ctx.state.stats[cid], dict)
        and ctx.state.stats[cid].get("system") == "coc7"
    ):
        result: dict[str, Any] = ctx.state.stats[cid]
        return result
    combat = data(ctx).get("combat")
    if combat and cid in combat["c"]:
        result = combat["c"][cid]["sheet"]
        return result
    sc = story_character(ctx, cid)
    if sc is None:
        raise RuleError(f"no character {cid!r}")
    name, stats, props = sc
    if (
        any(sh.CHAR_ALIASES.get(sh._key(k)) for k in stats)
        and str(props.get("kind", "")) != "investigator"
    ):
        return sh.make_enemy(name, stats, props)
    raise RuleError(f"character {cid!r} has no coc7 stats")
