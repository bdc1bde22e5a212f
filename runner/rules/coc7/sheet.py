"""Investigator and creature sheets: characteristics, derived values, skills, creation.

A sheet is a plain JSON-able dict kept in ``state.stats[<id>]``. Skills a sheet does not
list fall back to their 7th-edition base values, computed from the characteristics.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from runner.rules.base import RuleError
from runner.rules.dice import DiceSource, roll

CHARS: tuple[str, ...] = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
CHAR_NAMES: dict[str, str] = {
    "STR": "筋力",
    "CON": "体力",
    "SIZ": "体格",
    "DEX": "敏捷性",
    "APP": "外見",
    "INT": "知性",
    "POW": "精神力",
    "EDU": "教育",
}
CHAR_ALIASES: dict[str, str] = {
    **{k.lower(): k for k in CHARS},
    **{v: k for k, v in CHAR_NAMES.items()},
    "strength": "STR",
    "constitution": "CON",
    "size": "SIZ",
    "dexterity": "DEX",
    "appearance": "APP",
    "intelligence": "INT",
    "power": "POW",
    "education": "EDU",
    "敏捷": "DEX",
    "アイデア": "INT",
    "idea": "INT",
    "知識": "EDU",
    "know": "EDU",
    "knowledge": "EDU",
}
"""Characteristic names a story may write; アイデア and 知識 are INT and EDU rolls."""

# (Japanese 7th-edition name, English name, base value, more aliases).
# A base of "DEX/2" or "EDU" is computed from the sheet.
SKILLS: tuple[tuple[str, str, int | str, tuple[str, ...]], ...] = (
    ("威圧", "Intimidate", 15, ()),
    ("言いくるめ", "Fast Talk", 5, ()),
    ("医学", "Medicine", 1, ()),
    ("運転(自動車)", "Drive Auto", 20, ("運転",)),
    ("応急手当", "First Aid", 30, ()),
    ("オカルト", "Occult", 5, ()),
    ("回避", "Dodge", "DEX/2", ()),
    ("鍵開け", "Locksmith", 1, ()),
    ("隠密", "Stealth", 20, ()),
    ("鑑定", "Appraise", 5, ()),
    ("機械修理", "Mechanical Repair", 10, ()),
    ("聞き耳", "Listen", 20, ()),
    ("近接戦闘(格闘)", "Fighting (Brawl)", 25, ("近接戦闘", "格闘", "brawl", "fighting")),
    ("近接戦闘(刀剣)", "Fighting (Sword)", 20, ()),
    ("近接戦闘(斧)", "Fighting (Axe)", 15, ()),
    ("近接戦闘(鞭)", "Fighting (Whip)", 5, ()),
    ("クトゥルフ神話", "Cthulhu Mythos", 0, ()),
    ("芸術/製作", "Art/Craft", 5, ()),
    ("経理", "Accounting", 5, ()),
    ("考古学", "Archaeology", 1, ()),
    ("コンピューター", "Computer Use", 5, ()),
    ("サバイバル", "Survival", 10, ()),
    ("自然", "Natural World", 10, ()),
    ("射撃(拳銃)", "Firearms (Handgun)", 20, ("拳銃", "handgun", "射撃", "firearms")),
    (
        "射撃(ライフル/ショットガン)",
        "Firearms (Rifle/Shotgun)",
        25,
        ("ライフル", "ショットガン", "rifle", "shotgun"),
    ),
    ("射撃(サブマシンガン)", "Firearms (Submachine Gun)", 15, ()),
    ("重機械操作", "Operate Heavy Machinery", 1, ()),
    ("乗馬", "Ride", 5, ()),
    ("信用", "Credit Rating", 0, ()),
    ("心理学", "Psychology", 10, ()),
    ("人類学", "Anthropology", 1, ()),
    ("水泳", "Swim", 20, ()),
    ("精神分析", "Psychoanalysis", 1, ()),
    ("説得", "Persuade", 10, ()),
    ("操縦", "Pilot", 1, ()),
    ("跳躍", "Jump", 20, ()),
    ("追跡", "Track", 10, ()),
    ("手さばき", "Sleight of Hand", 10, ()),
    ("電気修理", "Electrical Repair", 10, ()),
    ("電子工学", "Electronics", 1, ()),
    ("投擲", "Throw", 20, ()),
    ("登攀", "Climb", 20, ()),
    ("図書館", "Library Use", 20, ("図書館調査",)),
    ("ナビゲート", "Navigate", 10, ()),
    ("変装", "Disguise", 5, ()),
    ("法律", "Law", 5, ()),
    ("魅惑", "Charm", 15, ()),
    ("目星", "Spot Hidden", 25, ()),
    ("歴史", "History", 5, ()),
    ("動物使い", "Animal Handling", 5, ()),
    ("砲術", "Artillery", 1, ()),
    ("爆破", "Demolitions", 1, ()),
    ("読唇術", "Read Lips", 1, ()),
    ("催眠術", "Hypnosis", 1, ()),
    ("潜水", "Diving", 1, ()),
    ("科学", "Science", 1, ()),
    ("ほかの言語", "Language (Other)", 1, ()),
    ("母国語", "Language (Own)", "EDU", ()),
)

GROUPS: dict[str, int | str] = {
    "芸術/製作": 5,
    "科学": 1,
    "ほかの言語": 1,
    "母国語": "EDU",
    "操縦": 1,
    "サバイバル": 10,
    "運転": 20,
    "近接戦闘": 25,
    "射撃": 20,
}
"""Base values for a specialisation the table does not name (近接戦闘(槍) → 25...)."""

LANGUAGES: dict[str, str] = {
    "日本語": "日本語",
    "japanese": "日本語",
    "英語": "英語",
    "english": "英語",
    "ラテン語": "ラテン語",
    "latin": "ラテン語",
    "フランス語": "フランス語",
    "french": "フランス語",
    "ドイツ語": "ドイツ語",
    "german": "ドイツ語",
    "中国語": "中国語",
    "chinese": "中国語",
}

NO_IMPROVEMENT = frozenset({"クトゥルフ神話", "信用"})
"""Skills that never get an improvement mark (7e: Cthulhu Mythos, Credit Rating)."""

_ALIASES: dict[str, str] = {}
_BASE: dict[str, int | str] = {}
_EN: dict[str, str] = {}


@functools.lru_cache(maxsize=4096)
def _key(text: str, lower: bool = True) -> str:
    s = unicodedata.normalize("NFKC", str(text)).strip()
    s = s.lower() if lower else s
    s = s.replace(" ", "").replace("　", "")
    # The scenario writes 芸術・製作 and 芸術および製作; the rulebook 芸術/製作.
    s = s.replace("芸術・製作", "芸術/製作").replace("芸術および製作", "芸術/製作")
    s = s.replace("芸術製作", "芸術/製作")
    return s


for _ja, _en, _base, _more in SKILLS:
    _BASE[_ja] = _base
    _EN[_ja] = _en
    for _a in (_ja, _en, *_more):
        _ALIASES.setdefault(_key(_a), _ja)

_EN_GROUP = {
    "art/craft": "芸術/製作",
    "science": "科学",
    "languageother": "ほかの言語",
    "language(other)": "ほかの言語",
    "languageown": "母国語",
    "pilot": "操縦",
    "survival": "サバイバル",
    "fighting": "近接戦闘",
    "firearms": "射撃",
    "drive": "運転",
    "言語": "ほかの言語",
    "language": "ほかの言語",
}

_SPEC = re.compile(r"^(.+?)\((.+)\)$")


@functools.lru_cache(maxsize=4096)
def canonical(name: str) -> str:
    """Returns the Japanese 7e name of a skill or a characteristic code (目星, 射撃(拳銃), DEX).

    Unknown names come back normalised, so a story may use its own skills.
    """
    k = _key(name)
    if k in CHAR_ALIASES:
        return CHAR_ALIASES[k]
    if k in ("luck", "幸運"):
        return "幸運"
    if k in ("san", "正気度", "sanity"):
        return "正気度"
    if k in _ALIASES:
        return _ALIASES[k]
    if k in LANGUAGES:
        return f"ほかの言語({LANGUAGES[k]})"
    m = _SPEC.match(k)
    if m:
        group = m.group(1)
        m2 = _SPEC.match(_key(name, lower=False))
        assert m2 is not None  # the same key, its case kept
        spec = m2.group(2)  # keep the specialisation's case
        group = _EN_GROUP.get(group, _ALIASES.get(group, group))
        group = group.split("(")[0]
        if group in ("ほかの言語", "母国語"):
            spec = LANGUAGES.get(spec.lower(), spec)
        full = f"{group}({spec})"
        return _ALIASES.get(_key(full), full)
    return unicodedata.normalize("NFKC", str(name)).strip()


_EN_SPEC: dict[str, str] = {
    "日本語": "Japanese",
    "英語": "English",
    "ラテン語": "Latin",
    "フランス語": "French",
    "ドイツ語": "German",
    "中国語": "Chinese",
    "拳銃": "Handgun",
    "格闘": "Brawl",
    "ライフル/ショットガン": "Rifle/Shotgun",
    "薬学": "Pharmacy",
    "料理": "Cooking",
    "大工": "Carpentry",
    "自動車": "Automobile",
    "剣": "Sword",
    "槍": "Spear",
    "生物学": "Biology",
    "化学": "Chemistry",
    "物理学": "Physics",
    "天文学": "Astronomy",
    "スケッチ": "Sketching",
    "写真": "Photography",
    "演技": "Acting",
    "文学": "Literature",
}
"""Specialisations in English (a skill's words in brackets: 射撃(拳銃) → Firearms (Handgun))."""

_EN_MORE = {"幸運": "Luck", "正気度": "Sanity", "近接戦闘": "Fighting", "射撃": "Firearms"}
_EN_TAILS = (("（回避）", " (dodge)"), ("（攻撃）", " (attack)"))


@functools.lru_cache(maxsize=1024)
def english(name: str) -> str:
    """Returns the English name of a canonical skill, or the name itself
    (ほかの言語(ラテン語) → Language (Latin), as the English sheet writes it)."""
    if name in _EN:
        return _EN[name]
    if name in _EN_MORE:
        return _EN_MORE[name]
    m = _SPEC.match(name)
    if m and m.group(1) in GROUPS:
        spec = _EN_SPEC.get(m.group(2), m.group(2))
        if m.group(1) in ("ほかの言語", "母国語"):
            return f"Language ({spec})"
        for ja, en, _b, _m in SKILLS:
            if ja == m.group(1):
                return f"{en} ({spec})"
    return name


_EN_WEAPONS = {"素手": "Unarmed", "ナイフ": "Knife", "棍棒": "Club"}
_EN_ERAS = {"現代": "Modern", "1920年代": "1920s"}


def english_weapon(name: str) -> str:
    """A known weapon's name as an English sheet shows it (the sheet keeps the rules' key)."""
    return _EN_WEAPONS.get(name, name)


@functools.lru_cache(maxsize=1024)
def english_label(label: str) -> str:
    """A roll's label in English: ``WHO:水泳（回避）`` → ``WHO:Swim (dodge)``; a label
    that names no skill the rules know comes back as it is."""
    who, sep, rest = label.rpartition(":")
    tail = ""
    for ja, en in _EN_TAILS:
        if rest.endswith(ja):
            rest, tail = rest[: -len(ja)], en
            break
    return f"{who}{sep}{english(rest)}{tail}"


def _base_of(base: int | str, chars: dict[str, int]) -> int:
    if base == "DEX/2":
        return chars.get("DEX", 0) // 2
    if base == "EDU":
        return chars.get("EDU", 0)
    return int(base)


def base_value(skill: str, chars: dict[str, int]) -> int:
    """Returns the 7e base value of a canonical skill name (0 for a skill we do not know)."""
    if skill in _BASE:
        return _base_of(_BASE[skill], chars)
    m = _SPEC.match(skill)
    if m and m.group(1) in GROUPS:
        return _base_of(GROUPS[m.group(1)], chars)
    return 0


# ---------------------------------------------------------------- derived values


def hp_max(con: int, siz: int) -> int:
    return (con + siz) // 10


def mp_max(pow_: int) -> int:
    return pow_ // 5


def mov(str_: int, dex: int, siz: int, age: int | None = None) -> int:
    """7e movement rate, with the optional age penalty (−1 per decade from the 40s)."""
    if str_ < siz and dex < siz:
        m = 7
    elif str_ > siz and dex > siz:
        m = 9
    else:
        m = 8
    if age is not None and age >= 40:
        m -= min(5, (age - 30) // 10)
    return m


def damage_bonus(total: int) -> tuple[str, int]:
    """Returns (damage bonus, build) for STR+SIZ, by the 7e table.

    2-64 → −2/−2, 65-84 → −1/−1, 85-124 → 0/0, 125-164 → +1D4/1, 165-204 → +1D6/2,
    205-284 → +2D6/3, then +1D6 and +1 build for each further 80 points.
    """
    if total <= 64:
        return "-2", -2
    if total <= 84:
        return "-1", -1
    if total <= 124:
        return "0", 0
    if total <= 164:
        return "+1D4", 1
    if total <= 204:
        return "+1D6", 2
    extra = (total - 205) // 80
    return f"+{2 + extra}D6", 3 + extra


# ---------------------------------------------------------------- sheets


def _int(v: Any, what: str) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        raise RuleError(f"{what}: {v!r} is not a number") from None


def normalise_chars(chars: dict[str, Any]) -> dict[str, int]:
    """Maps characteristic names (STR, 筋力, strength) to codes; all eight are required."""
    out: dict[str, int] = {}
    for k, v in chars.items():
        code = CHAR_ALIASES.get(_key(k))
        if code is not None and _key(k) not in ("アイデア", "idea", "知識", "know", "knowledge"):
            out[code] = _int(v, k)
    missing = [c for c in CHARS if c not in out]
    if missing:
        raise RuleError(f"characteristics missing: {', '.join(missing)}")
    return out


def make_investigator(
    name: str,
    chars: dict[str, Any],
    skills: dict[str, Any] | None = None,
    *,
    luck: int | None = None,
    age: int | None = None,
    occupation: str = "",
    era: str = "",
    native: str = "日本語",
    weapons: list[dict[str, Any]] | None = None,
    source: DiceSource | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Builds an investigator sheet. Luck is rolled (3D6×5) with ``source`` when not given."""
    c = normalise_chars(chars)
    if luck is None:
        if source is None:
            raise RuleError("make_investigator: give luck or a dice source to roll it")
        luck = roll("3d6", source).total * 5
    db, build = damage_bonus(c["STR"] + c["SIZ"])
    hp = hp_max(c["CON"], c["SIZ"])
    sk: dict[str, int] = {}
    for k, v in (skills or {}).items():
        sk[canonical(k)] = _int(v, k)
    if "母国語" in sk:
        sk[f"母国語({native})"] = sk.pop("母国語")
    sheet = {
        "system": "coc7",
        "kind": "investigator",
        "name": name,
        "occupation": occupation,
        "era": era,
        "age": age,
        "native": LANGUAGES.get(_key(native), native),
        "chars": c,
        "hp": hp,
        "hp_max": hp,
        "mp": mp_max(c["POW"]),
        "mp_max": mp_max(c["POW"]),
        "san": c["POW"],
        "san_max": 99 - sk.get("クトゥルフ神話", 0),
        "san_start": c["POW"],
        "luck": int(luck),
        "luck_start": int(luck),
        "mov": mov(c["STR"], c["DEX"], c["SIZ"], age),
        "db": db,
        "build": build,
        "skills": sk,
        "marks": [],
        "weapons": [dict(w) for w in (weapons or [])],
        "cond": {
            "major_wound": False,
            "unconscious": False,
            "dying": False,
            "dead": False,
            "stable": False,
            "insane": "",
            "aided": False,
            "treated": False,
        },
    }
    sheet.update(extra)
    return sheet


_ENEMY_KEYS = {
    "hp": "hp",
    "耐久力": "hp",
    "mov": "mov",
    "移動": "mov",
    "移動率": "mov",
    "build": "build",
    "ビルド": "build",
    "fighting": "fighting",
    "近接戦闘": "fighting",
    "damage": "damage",
    "ダメージ": "damage",
    "dodge": "dodge",
    "回避": "dodge",
    "san": "san_loss",
    "san_loss": "san_loss",
    "遭遇正気度喪失": "san_loss",
    "正気度喪失": "san_loss",
    "db": "db",
    "ダメージボーナス": "db",
    "ダメージ・ボーナス": "db",
    "mp": "mp",
    "attacks": "attacks",
    "攻撃": "attacks",
    "daze_at": "daze_at",
    "armour": "armour",
    "装甲": "armour",
    "short": "short",
}


def make_enemy(
    name: str, stats: dict[str, Any], props: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Builds a creature sheet from a story character's stats.

    Listed values (HP, build, dodge, damage) win over the 7e formulas (ruling DA-10).
    ``attacks`` (in stats or props) is a list of {name, damage} or {name, maneuver: hold}.
    """
    merged = {**(props or {}), **(stats or {})}
    c: dict[str, int] = {}
    out: dict[str, Any] = {"system": "coc7", "kind": "creature", "name": name, "skills": {}}
    for k, v in merged.items():
        kk = _key(k)
        code = CHAR_ALIASES.get(kk)
        if code is not None and kk not in ("アイデア", "idea", "知識", "know", "knowledge"):
            c[code] = _int(v, k)
        elif kk in _ENEMY_KEYS:
            out[_ENEMY_KEYS[kk]] = v
        elif k not in ("name",):
            canon = canonical(k)
            if isinstance(v, (int, float)) or (isinstance(v, str) and v.strip().isdigit()):
                out["skills"][canon] = _int(v, k)
            else:
                out.setdefault("extra", {})[k] = v
    out["chars"] = c
    if "hp" not in out:
        out["hp"] = hp_max(c.get("CON", 0), c.get("SIZ", 0))
    out["hp"] = _int(out["hp"], "hp")
    out["hp_max"] = out["hp"]
    if "build" not in out or "db" not in out:
        db, build = damage_bonus(c.get("STR", 0) + c.get("SIZ", 0))
        out.setdefault("build", build)
        out.setdefault("db", db)
    out["build"] = _int(out["build"], "build")
    out["fighting"] = _int(out.get("fighting", out["skills"].get("近接戦闘(格闘)", 25)), "fighting")
    out["dodge"] = _int(out.get("dodge", c.get("DEX", 0) // 2), "dodge")
    out.setdefault("damage", "1d3")
    out["mov"] = _int(out.get("mov", mov(c.get("STR", 0), c.get("DEX", 0), c.get("SIZ", 0))), "mov")
    out["armour"] = _int(out.get("armour", 0), "armour")
    if out.get("daze_at") is not None:
        out["daze_at"] = _int(out["daze_at"], "daze_at")
    attacks = out.get("attacks") or [{"name": "攻撃", "damage": out["damage"]}]
    norm = []
    for a in attacks:
        if isinstance(a, str):
            a = {"name": a, "damage": out["damage"]}
        a = dict(a)
        a.setdefault("damage", out["damage"])
        norm.append(a)
    out["attacks"] = norm
    return out


@functools.lru_cache(maxsize=4096)
def _reading(name: str) -> tuple[str, str, str | None]:
    """How :func:`skill_value` reads a name, worked out once per name: (canonical name,
    where the value is — "char", "luck", "san" or "skill" —, the language of an
    ほかの言語(...) skill or None)."""
    skill = canonical(name)
    if skill in CHARS:
        return skill, "char", None
    if skill == "幸運":
        return skill, "luck", None
    if skill == "正気度":
        return skill, "san", None
    m = _SPEC.match(skill)
    return skill, "skill", m.group(2) if m and m.group(1) == "ほかの言語" else None


_NONE: dict[str, Any] = {}
"""What skill_value reads for a sheet without skills or characteristics (never written)."""


def skill_value(sheet: dict[str, Any], name: str) -> tuple[str, int]:
    """Returns (canonical name, value) of a skill or characteristic on ``sheet``.

    A language that is the investigator's own is rolled as 母国語 (ruling DA-01).
    """
    skill, where, language = _reading(name)
    if where == "skill":
        if language is not None and language == sheet.get("native"):
            skill = f"母国語({language})"
        elif skill == "母国語" and sheet.get("native"):
            skill = f"母国語({sheet['native']})"
        skills = sheet.get("skills", _NONE)
        if skill in skills:
            return skill, int(skills[skill])
        if sheet.get("kind") == "creature":
            if skill.startswith("近接戦闘"):
                return skill, int(sheet.get("fighting", 0))
            if skill == "回避":
                return skill, int(sheet.get("dodge", 0))
        return skill, base_value(skill, sheet.get("chars", _NONE))
    if where == "char":
        return skill, int(sheet.get("chars", _NONE).get(skill, 0))
    if where == "luck":
        return skill, int(sheet.get("luck", 0))
    return skill, int(sheet.get("san", 0))


# ---------------------------------------------------------------- creation

STANDARD_ARRAY: tuple[int, ...] = (80, 70, 60, 60, 50, 50, 50, 40)
"""Values to place on the eight characteristics (quick-start)."""
QUICK_SKILLS: tuple[int, ...] = (70, 60, 60, 50, 50, 50, 40, 40, 40)
"""Quick-fire occupation skill values; then four hobby skills get +20."""
POINT_BUY_TOTAL = 460


def roll_characteristics(source: DiceSource) -> dict[str, int]:
    """Rolls STR CON DEX APP POW with 3D6×5, SIZ INT EDU with (2D6+6)×5, in CHARS order."""
    out: dict[str, int] = {}
    for c in CHARS:
        expr = "2d6+6" if c in ("SIZ", "INT", "EDU") else "3d6"
        out[c] = roll(expr, source).total * 5
    return out


def assign_array(
    order: list[str] | tuple[str, ...], values: tuple[int, ...] = STANDARD_ARRAY
) -> dict[str, int]:
    """Places the standard array's values on characteristics in the order given."""
    codes = [CHAR_ALIASES.get(_key(o), o) for o in order]
    if sorted(codes) != sorted(CHARS):
        raise RuleError(f"give each characteristic once: {', '.join(CHARS)}")
    return dict(zip(codes, values, strict=True))


def check_point_buy(chars: dict[str, Any], total: int = POINT_BUY_TOTAL) -> dict[str, int]:
    """Validates a point-buy spread: every value 15-90 and the sum ``total``."""
    c = normalise_chars(chars)
    bad = [k for k, v in c.items() if not 15 <= v <= 90]
    if bad:
        raise RuleError(f"point buy: {', '.join(bad)} must be between 15 and 90")
    if sum(c.values()) != total:
        raise RuleError(f"point buy: the characteristics add up to {sum(c.values())}, not {total}")
    return c


def quick_skills(
    chars: dict[str, Any], occupation: list[str], hobbies: list[str]
) -> dict[str, int]:
    """Quick-fire skills: the occupation skills take 70,60,60,50,50,50,40,40,40 in order,
    then each hobby skill gets its base (or occupation value) +20."""
    c = normalise_chars(chars)
    if len(occupation) > len(QUICK_SKILLS):
        raise RuleError(f"at most {len(QUICK_SKILLS)} occupation skills")
    out: dict[str, int] = {}
    for name, val in zip(occupation, QUICK_SKILLS, strict=False):
        out[canonical(name)] = val
    for name in hobbies:
        k = canonical(name)
        out[k] = out.get(k, base_value(k, c)) + 20
    return out


def quick_investigator(
    name: str,
    chars: dict[str, Any],
    occupation: list[str],
    hobbies: list[str],
    source: DiceSource,
    **kw: Any,
) -> dict[str, Any]:
    """A whole quick-start investigator: skills by :func:`quick_skills`, Luck rolled."""
    return make_investigator(
        name, chars, quick_skills(chars, occupation, hobbies), source=source, **kw
    )


REVOLVER_38 = {
    "name": "M360J",
    "skill": "射撃(拳銃)",
    "damage": "1d10",
    "impale": True,
    "firearm": True,
    "range": 15,
    "shots": 3,
    "capacity": 5,
    "ammo": 5,
    "malfunction": 100,
    "spare": 0,
    "ammo_name": ".38スペシャル",
}
"""The scenario's revolver: 1D10, impales, 5 rounds of .38 Special (ruling DA-25)."""

WEAPONS: dict[str, dict[str, Any]] = {
    "素手": {
        "name": "素手",
        "skill": "近接戦闘(格闘)",
        "damage": "1d3",
        "db": True,
        "impale": False,
    },
    "ナイフ": {
        "name": "ナイフ",
        "skill": "近接戦闘(格闘)",
        "damage": "1d4",
        "db": True,
        "impale": True,
    },
    "棍棒": {
        "name": "棍棒",
        "skill": "近接戦闘(格闘)",
        "damage": "1d8",
        "db": True,
        "impale": False,
    },
    "M360J": REVOLVER_38,
}
_WEAPON_ALIASES = {
    "unarmed": "素手",
    "fist": "素手",
    "knife": "ナイフ",
    "club": "棍棒",
    "m360j": "M360J",
    "拳銃": "M360J",
    "revolver": "M360J",
    "リボルバー": "M360J",
}


def weapon(name: str) -> dict[str, Any]:
    """Returns a copy of a known weapon (素手, ナイフ, 棍棒, M360J)."""
    k = _WEAPON_ALIASES.get(_key(name), name)
    k = _WEAPON_ALIASES.get(k.lower(), k)
    if k not in WEAPONS:
        raise RuleError(f"unknown weapon {name!r}; known: {', '.join(WEAPONS)}")
    return dict(WEAPONS[k])


# ---------------------------------------------------------------- pregens

_PREGENS: tuple[dict[str, Any], ...] = (
    {
        "name": "黒田 剛",
        "en": "Tsuyoshi Kuroda",
        "occupation": "警察官",
        "occupation_en": "Police Officer",
        "era": "現代",
        "age": 34,
        "native": "日本語",
        "chars": {
            "STR": 80,
            "CON": 60,
            "SIZ": 60,
            "DEX": 70,
            "APP": 50,
            "INT": 50,
            "POW": 50,
            "EDU": 40,
        },
        "occ": [
            "射撃(拳銃)",
            "近接戦闘(格闘)",
            "目星",
            "聞き耳",
            "威圧",
            "法律",
            "心理学",
            "運転(自動車)",
            "応急手当",
        ],
        "hobby": ["回避", "水泳", "登攀", "隠密"],
        "luck": 50,
    },
    {
        "name": "佐伯 遥",
        "en": "Haruka Saeki",
        "occupation": "考古学の大学院生",
        "occupation_en": "Archaeology Graduate Student",
        "era": "現代",
        "age": 26,
        "native": "日本語",
        "chars": {
            "STR": 40,
            "CON": 50,
            "SIZ": 50,
            "DEX": 60,
            "APP": 60,
            "INT": 80,
            "POW": 50,
            "EDU": 70,
        },
        "occ": [
            "図書館",
            "考古学",
            "オカルト",
            "ほかの言語(ラテン語)",
            "歴史",
            "人類学",
            "鑑定",
            "目星",
            "信用",
        ],
        "hobby": ["心理学", "聞き耳", "芸術/製作(スケッチ)", "自然"],
        "luck": 60,
    },
    {
        "name": "三浦 美月",
        "en": "Mizuki Miura",
        "occupation": "看護師",
        "occupation_en": "Nurse",
        "era": "現代",
        "age": 29,
        "native": "日本語",
        "chars": {
            "STR": 50,
            "CON": 60,
            "SIZ": 50,
            "DEX": 50,
            "APP": 60,
            "INT": 70,
            "POW": 80,
            "EDU": 40,
        },
        "occ": [
            "応急手当",
            "医学",
            "心理学",
            "科学(薬学)",
            "聞き耳",
            "説得",
            "目星",
            "言いくるめ",
            "信用",
        ],
        "hobby": ["芸術/製作(料理)", "水泳", "隠密", "投擲"],
        "luck": 55,
    },
    {
        "name": "エマ・ウィットフィールド",
        "en": "Emma Whitfield",
        "occupation": "新聞記者",
        "occupation_en": "Journalist",
        "era": "1920年代",
        "age": 31,
        "native": "英語",
        "chars": {
            "STR": 50,
            "CON": 50,
            "SIZ": 40,
            "DEX": 70,
            "APP": 60,
            "INT": 60,
            "POW": 50,
            "EDU": 80,
        },
        "occ": [
            "図書館",
            "心理学",
            "言いくるめ",
            "目星",
            "説得",
            "ほかの言語(ラテン語)",
            "歴史",
            "手さばき",
            "鍵開け",
        ],
        "hobby": ["隠密", "機械修理", "投擲", "変装"],
        "luck": 65,
    },
)
"""Four ready-made investigators; each characteristic spread is the standard array."""


_pregen_sheets: list[dict[str, Any]] = []


def plain_copy(v: Any) -> Any:
    """Copies JSON-like data (a sheet is dicts, lists and scalars): far cheaper than
    ``copy.deepcopy``. Each container is copied whole, then only nested ones are visited."""
    t = type(v)
    if t is dict:
        out = v.copy()
        for k, x in v.items():
            if type(x) is dict or type(x) is list:
                out[k] = plain_copy(x)
        return out
    if t is list:
        return [plain_copy(x) if type(x) is dict or type(x) is list else x for x in v]
    return v


def _flat(v: dict[str, Any] | list[Any]) -> bool:
    """No dict or list inside (what plain_copy would not visit)."""
    for x in v.values() if type(v) is dict else v:
        if type(x) is dict or type(x) is list:
            return False
    return True


def copier(template: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    """A function returning ``plain_copy(template)``, for a sheet kept as a pattern that is
    never changed (a pregen, a story's creature) and copied again and again. Where the
    containers are is worked out once: a copy then copies each of them, without visiting
    every value of the sheet to find them."""
    steps: list[tuple[str, int]] = []  # (key, 1: flat container, 2: list of flat dicts, 0: other)
    for k, v in template.items():
        if type(v) is dict or type(v) is list:
            if _flat(v):
                steps.append((k, 1))
            elif type(v) is list and all(type(x) is dict and _flat(x) for x in v):
                steps.append((k, 2))
            else:
                steps.append((k, 0))

    def copy() -> dict[str, Any]:
        out = template.copy()
        for k, how in steps:
            v = template[k]
            out[k] = v.copy() if how == 1 else [x.copy() for x in v] if how == 2 else plain_copy(v)
        return out

    return copy


_pregen_copiers: list[Callable[[], dict[str, Any]]] = []


def _pregen_built() -> list[dict[str, Any]]:
    if not _pregen_sheets:  # built once: every game (and every simulated game) asks again
        for p in _PREGENS:
            sk = quick_skills(p["chars"], p["occ"], p["hobby"])
            _pregen_sheets.append(
                make_investigator(
                    p["name"],
                    p["chars"],
                    sk,
                    luck=p["luck"],
                    age=p["age"],
                    occupation=p["occupation"],
                    era=p["era"],
                    native=p["native"],
                    weapons=[weapon("素手")],
                    name_en=p["en"],
                )
            )
        _pregen_copiers.extend(copier(s) for s in _pregen_sheets)
    return _pregen_sheets


def pregens() -> list[dict[str, Any]]:
    """Returns the four ready-made investigator sheets (fresh copies)."""
    return [plain_copy(s) for s in _pregen_built()]


def pregen(n: int, en: bool = False) -> dict[str, Any]:
    """Ready-made investigator ``n`` (1-4), a fresh copy (only the one a game takes). ``en``:
    the sheet of an English game, its name, occupation and era in English (skills, weapons
    and the investigator's own language stay the rules' keys)."""
    _pregen_built()
    s = _pregen_copiers[n - 1]()
    if en:
        p = _PREGENS[n - 1]
        s.update(name=p["en"], occupation=p["occupation_en"], era=_EN_ERAS.get(p["era"], p["era"]))
    return s
