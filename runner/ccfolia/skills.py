"""Skill names as sheet sites and the 6th edition write them, read as the rule system's
canonical 7th-edition names (:func:`runner.rules.coc7.sheet.canonical`).

``こぶし(パンチ)`` → 近接戦闘(格闘), ``拳銃`` → 射撃(拳銃), ``芸術(観劇)`` and ``芸術：眼鏡`` →
芸術/製作(…), ``言語(英語)`` → ほかの言語(英語), ``化学`` → 科学(化学), ``隠れる`` → 隠密 …;
アイデア, 知識, 幸運 and the SAN roll are rolls on INT, EDU, Luck and SAN, not skills.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from runner.rules.coc7 import sheet as sh

SITE_NAMES: dict[str, str] = {
    # 6th edition (and sheets that still use its names) → 7th edition
    "こぶし": "近接戦闘(格闘)",
    "こぶし(パンチ)": "近接戦闘(格闘)",
    "パンチ": "近接戦闘(格闘)",
    "キック": "近接戦闘(格闘)",
    "頭突き": "近接戦闘(格闘)",
    "組み付き": "近接戦闘(格闘)",
    "組付き": "近接戦闘(格闘)",
    "格闘": "近接戦闘(格闘)",
    "ハンドガン": "射撃(拳銃)",
    "ライフル": "射撃(ライフル/ショットガン)",
    "ショットガン": "射撃(ライフル/ショットガン)",
    "サブマシンガン": "射撃(サブマシンガン)",
    "マシンガン": "射撃(マシンガン)",
    "隠れる": "隠密",
    "忍び歩き": "隠密",
    "隠す": "手さばき",
    "写真術": "芸術/製作(写真術)",
    "化学": "科学(化学)",
    "生物学": "科学(生物学)",
    "地質学": "科学(地質学)",
    "天文学": "科学(天文学)",
    "物理学": "科学(物理学)",
    "薬学": "科学(薬学)",
    "博物学": "自然",
    "コンピュータ": "コンピューター",
    "コンピュータ―": "コンピューター",
    "ナビゲーション": "ナビゲート",
    "目星き": "目星",
}
"""Names from sheet sites and the 6th edition, and the 7th edition's name for each."""

GROUP_NAMES: dict[str, str] = {
    "芸術": "芸術/製作",
    "製作": "芸術/製作",
    "芸術/製作": "芸術/製作",
    "芸術・製作": "芸術/製作",
    "他の言語": "ほかの言語",
    "外国語": "ほかの言語",
    "言語": "ほかの言語",
    "ほかの言語": "ほかの言語",
    "母国語": "母国語",
    "運転": "運転",
    "操縦": "操縦",
    "科学": "科学",
    "サバイバル": "サバイバル",
    "近接戦闘": "近接戦闘",
    "射撃": "射撃",
}
"""Skill groups as written before a specialisation (``製作(料理)``, ``芸術：眼鏡``)."""

SIXTH_ONLY = frozenset({"値切り", "マーシャルアーツ"})
"""6th-edition skills the 7th edition does not have (kept as they are, and reported)."""

ROLLS: dict[str, tuple[str, str]] = {
    "アイデア": ("INT", "char"),
    "idea": ("INT", "char"),
    "知識": ("EDU", "char"),
    "know": ("EDU", "char"),
    "幸運": ("幸運", "luck"),
    "luck": ("幸運", "luck"),
    "san": ("正気度", "san"),
    "正気度": ("正気度", "san"),
    "正気度ロール": ("正気度", "san"),
    "sanチェック": ("正気度", "san"),
    "san値チェック": ("正気度", "san"),
    "san値": ("正気度", "san"),
    "sanc": ("正気度", "san"),
    "正気度チェック": ("正気度", "san"),
}
"""Palette labels that are rolls on a characteristic, Luck or SAN, not skills."""

_SPEC = re.compile(r"^(.+?)(?:\((.+)\)|[:：](.+))$")
_TIMES = re.compile(r"^(STR|CON|POW|DEX|APP|SIZ|INT|EDU)\s*[*×xX]\s*5$", re.IGNORECASE)


def _clean(name: str) -> str:
    s = unicodedata.normalize("NFKC", str(name)).strip()
    s = s.replace("（", "(").replace("）", ")").replace(" ", "").replace("\u3000", "")
    return s


@functools.lru_cache(maxsize=2048)
def reading(name: str) -> tuple[str, str]:
    """(the canonical name, what it is: "char", "luck", "san", "skill"). A characteristic
    comes back as its code (``筋力`` → STR), ``STR×5`` too."""
    s = _clean(name)
    low = s.lower()
    if low in ROLLS:
        return ROLLS[low]
    m = _TIMES.match(s)
    if m:
        return m.group(1).upper(), "char"
    if s in SITE_NAMES:
        return SITE_NAMES[s], "skill"
    m = _SPEC.match(s)
    if m:
        group, spec = m.group(1), (m.group(2) or m.group(3) or "").strip()
        g = GROUP_NAMES.get(group)
        if g is not None and spec:
            s = f"{g}({spec})"
    canon = sh.canonical(s)
    if canon in sh.CHARS:
        return canon, "char"
    if canon == "幸運":
        return canon, "luck"
    if canon == "正気度":
        return canon, "san"
    if canon in GROUP_NAMES and GROUP_NAMES[canon] in sh.GROUPS and canon not in sh._BASE:
        canon = GROUP_NAMES[canon]
    return canon, "skill"


def known(name: str) -> bool:
    """Whether a canonical skill name is one of the 7th edition's (or a specialisation of a
    group it has: 芸術/製作(料理), 科学(薬学), 近接戦闘(槍))."""
    if name in sh._BASE:
        return True
    m = re.match(r"^(.+?)\((.+)\)$", name)
    return bool(m and m.group(1) in sh.GROUPS)
