"""Skill names as keepers write them, and their 7th-edition names.

The 7th-edition table is the rule system's own (:data:`runner.rules.coc7.sheet.SKILLS`);
this module adds the 6th edition's names, the generic words keepers use, and the words
that must never be read as a roll.
"""

from __future__ import annotations

import functools
import re

from runner.importer.read import normalise
from runner.rules.coc7 import sheet

CHARS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
CHAR_JA = {
    "筋力": "STR",
    "体力": "CON",
    "体格": "SIZ",
    "敏捷性": "DEX",
    "敏捷": "DEX",
    "外見": "APP",
    "知性": "INT",
    "精神力": "POW",
    "教育": "EDU",
}

SIXTH: dict[str, str] = {
    # 6th-edition names (and common shorthands) → 7th edition
    "こぶし": "近接戦闘(格闘)",
    "こぶし(パンチ)": "近接戦闘(格闘)",
    "パンチ": "近接戦闘(格闘)",
    "キック": "近接戦闘(格闘)",
    "組み付き": "近接戦闘(格闘)",
    "組みつき": "近接戦闘(格闘)",
    "頭突き": "近接戦闘(格闘)",
    "マーシャルアーツ": "近接戦闘(格闘)",
    "格闘": "近接戦闘(格闘)",
    "戦闘技能": "近接戦闘(格闘)",
    "近接戦闘": "近接戦闘(格闘)",
    "拳銃": "射撃(拳銃)",
    "ライフル": "射撃(ライフル/ショットガン)",
    "ショットガン": "射撃(ライフル/ショットガン)",
    "サブマシンガン": "射撃(サブマシンガン)",
    "マシンガン": "射撃(サブマシンガン)",
    "隠れる": "隠密",
    "忍び歩き": "隠密",
    "隠密行動": "隠密",
    "写真術": "芸術/製作(写真)",
    "写真": "芸術/製作(写真)",
    "生物学": "科学(生物学)",
    "化学": "科学(化学)",
    "薬学": "科学(薬学)",
    "物理学": "科学(物理学)",
    "地質学": "科学(地質学)",
    "天文学": "科学(天文学)",
    "博物学": "自然",
    "値切り": "説得",
    "コンピュータ": "コンピューター",
    "コンピューター使用": "コンピューター",
    "図書館調査": "図書館",
    "クトゥルフ神話技能": "クトゥルフ神話",
    "クトゥルフ": "クトゥルフ神話",
    "アイデア": "INT",
    "アイディア": "INT",
    "知識": "EDU",
    "幸運": "幸運",
    "運": "幸運",
    "ナビゲーション": "ナビゲート",
    "応急処置": "応急手当",
}
GROUPS_6E = {
    "製作": "芸術/製作",
    "芸術": "芸術/製作",
    "芸術・製作": "芸術/製作",
    "芸術/製作": "芸術/製作",
    "芸術および製作": "芸術/製作",
    "科学": "科学",
    "ほかの言語": "ほかの言語",
    "他の言語": "ほかの言語",
    "母国語": "母国語",
    "運転": "運転",
    "操縦": "操縦",
    "近接戦闘": "近接戦闘",
    "射撃": "射撃",
    "サバイバル": "サバイバル",
}

DISTINCT = (
    "目星",
    "聞き耳",
    "言いくるめ",
    "鍵開け",
    "機械修理",
    "電気修理",
    "応急手当",
    "精神分析",
    "手さばき",
    "隠密",
    "跳躍",
    "登攀",
    "投擲",
    "鑑定",
    "威圧",
    "魅惑",
    "アイデア",
    "心理学",
    "オカルト",
    "図書館",
    "クトゥルフ神話",
    "人類学",
    "考古学",
    "変装",
    "追跡",
    "ナビゲート",
    "幸運",
)
"""Skills whose name is never an ordinary word: ``目星で…`` is a roll even without ロール."""


def _known_names() -> list[str]:
    names = set()
    for ja, _en, _base, more in sheet.SKILLS:
        names.add(ja)
        names.update(m for m in more if not m.isascii())
    names.update(SIXTH)
    names.update(CHAR_JA)
    names.update(
        {
            "母国語",
            "ほかの言語",
            "芸術/製作",
            "芸術・製作",
            "製作",
            "芸術",
            "科学",
            "操縦",
            "運転",
            "射撃",
            "近接戦闘",
            "サバイバル",
            "他の言語",
        }
    )
    names.discard("運")
    return sorted(names, key=len, reverse=True)


KNOWN = _known_names()
_LANG = re.compile(r"^(?:ほかの言語|他の言語)?\(?([ァ-ヶー一-龥]{1,8}語)\)?$")
_SPEC = re.compile(r"^(.+?)\((.+)\)$")
_CHAR = re.compile(r"^(STR|CON|SIZ|DEX|APP|INT|POW|EDU)(?:\([^)]*\))?$", re.I)


@functools.lru_cache(maxsize=4096)
def canonical(name: str) -> str:
    """The 7th-edition name of a skill as written (``製作（人形）`` → ``芸術/製作(人形)``,
    ``ラテン語`` → ``ほかの言語(ラテン語)``, ``アイデア`` → ``INT``, ``DEX（敏捷性）`` → ``DEX``)."""
    s = normalise(name).strip()
    s = re.sub(r"\s+", "", s)
    s = re.sub(r"(?:技能)?(?:ロール|判定|チェック)$", "", s) or s
    m = _CHAR.match(s)
    if m:
        return m.group(1).upper()
    if s in CHAR_JA:
        return CHAR_JA[s]
    if s in SIXTH:
        return SIXTH[s]
    m = _LANG.match(s)
    if m and m.group(1) not in ("母国語",):
        return f"ほかの言語({m.group(1)})"
    m = _SPEC.match(s)
    if m and m.group(1) in GROUPS_6E:
        group = GROUPS_6E[m.group(1)]
        if group == "ほかの言語":
            spec = m.group(2)
            return f"ほかの言語({spec})"
        return sheet.canonical(f"{group}({m.group(2)})")
    if s in GROUPS_6E and GROUPS_6E[s] != s:
        return GROUPS_6E[s]
    return sheet.canonical(s)


def is_known(name: str) -> bool:
    s = re.sub(r"\s+", "", normalise(name))
    s = re.sub(r"(?:技能)?(?:ロール|判定|チェック)$", "", s) or s
    if _CHAR.match(s) or s in CHAR_JA or s in SIXTH or s in GROUPS_6E:
        return True
    if _LANG.match(s) and s.endswith(("語", "語)")):
        return True
    m = _SPEC.match(s)
    if m and (m.group(1) in GROUPS_6E or m.group(1) in KNOWN):
        return True
    return s in KNOWN or sheet.canonical(s) in sheet._BASE


def same_skills(a: list[str], b: list[str]) -> bool:
    return sorted(canonical(x) for x in a) == sorted(canonical(x) for x in b)
