"""UREG abilities (○ strengths, × weaknesses), the six archetypes and character creation.

Creation follows ruling UA-05: one ○ and one × out of the fourteen named abilities; the
six archetypes are presets. 〇 (U+3007) is read as ○ (U+25CB).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass

from runner.rules.base import RuleError

GOOD = "○"
BAD = "×"

# name -> (English name, short effect ja, short effect en)
GOOD_ABILITIES: dict[str, tuple[str, str, str]] = {
    "閃き": (
        "Inspiration",
        "GMから1度だけ特別なヒントがもらえる（シナリオ1回につき1度）",
        "one special hint from the GM, once per scenario",
    ),
    "身軽": (
        "Nimble",
        "アクロバティックに動き、不安定な足場でも作業できる。垂直跳び75cm・幅跳び3m",
        "acrobatic, works on unstable footing; vertical jump 75 cm, long jump 3 m",
    ),
    "強力": (
        "Strong",
        "素手で硬い物を曲げ重い物を動かせる。〈×鈍重〉も肩車できる。頑丈な壁や扉は壊せない",
        "bends hard things and moves heavy ones bare-handed; can lift 〈×Heavy〉 on the shoulders; cannot break sturdy walls or doors",
    ),
    "器用": (
        "Dexterous",
        "アイテムに細かい加工ができ、狙った所へ正確に投げられる。鍵開けには適切な道具が要る",
        "fine work on items, accurate throws; picks locks only with a proper tool",
    ),
    "夜目": (
        "Night-eyed",
        "暗闇でも白黒で見え、影に隠れた物も見つける",
        "sees in the dark in black and white and finds things hidden in shadow",
    ),
    "小柄": (
        "Small",
        "普通の人が通れない狭い所を通れる。誰でも肩車や引っ張り上げができる。手の届く高さ2m",
        "passes through narrow gaps; anyone can lift or pull them up; reach 2 m",
    ),
    "武術": ("Martial arts", "戦力+2", "combat power +2"),
}
BAD_ABILITIES: dict[str, tuple[str, str, str]] = {
    "平凡": (
        "Ordinary",
        "普通のことしかできない（平均的な身長と体重）",
        "can only do ordinary things (average height and weight)",
    ),
    "非力": (
        "Weak",
        "肩車では〈○小柄〉しか持ち上げられない。道具なしでは硬い物を曲げたり重い物を運べない。素手の戦力-0.5",
        "lifts only 〈○Small〉 on the shoulders; needs tools to bend hard or carry heavy things; bare-handed power -0.5",
    ),
    "不器用": (
        "Clumsy",
        "繊細な加工や微妙な力加減ができない。鍵で開けるような簡単なことはできる",
        "no delicate work or fine control; can still use a key",
    ),
    "鳥目": (
        "Night-blind",
        "薄暗い所も暗闇と同じく見えない。手を引いてもらうか這わないと移動できない",
        "dim places are as dark as darkness; moves there only led by the hand or crawling",
    ),
    "鈍重": (
        "Heavy",
        "支えがないと不安定な足場で動けない。普通の人には肩車も引っ張り上げもできない。垂直跳び25cm・幅跳び1m",
        "cannot move on unstable footing without support; ordinary people cannot lift or pull them up; vertical jump 25 cm, long jump 1 m",
    ),
    "低身長": (
        "Short",
        "手の届く高さが50cm低い。〈○小柄〉以外を肩車・引っ張り上げできない。視線の高さ約1m",
        "every reach is 50 cm lower; lifts or pulls up only 〈○Small〉; eye level about 1 m",
    ),
    "ひ弱": ("Frail", "戦力-0.5", "combat power -0.5"),
}


@dataclass(frozen=True, slots=True)
class Archetype:
    id: str
    good: str
    bad: str
    level_ja: str
    level_en: str


ARCHETYPES: dict[str, Archetype] = {
    a.id: a
    for a in (
        Archetype("Inspiration", "閃き", "平凡", "初心者向き", "for beginners"),
        Archetype("Nimbleness", "身軽", "非力", "中級者向き", "intermediate"),
        Archetype("Strength", "強力", "不器用", "中級者向き", "intermediate"),
        Archetype("Dexterity", "器用", "鳥目", "中級者向き", "intermediate"),
        Archetype("Night Vision", "夜目", "鈍重", "上級者向き", "advanced"),
        Archetype("Littleness", "小柄", "低身長", "上級者向き", "advanced"),
    )
}

_EN_TO_JA = {v[0].lower(): k for k, v in {**GOOD_ABILITIES, **BAD_ABILITIES}.items()}
# Extra spellings a player may type or say.
_ALIASES = {
    "ひらめき": "閃き",
    "みがる": "身軽",
    "きょうりょく": "強力",
    "きよう": "器用",
    "よめ": "夜目",
    "こがら": "小柄",
    "ぶじゅつ": "武術",
    "へいぼん": "平凡",
    "ひりき": "非力",
    "ぶきよう": "不器用",
    "とりめ": "鳥目",
    "どんじゅう": "鈍重",
    "ていしんちょう": "低身長",
    "ひよわ": "ひ弱",
    "nightvision": "Night Vision",
    "night-vision": "Night Vision",
}


def normalise(text: str) -> str:
    """NFKC, 〇→○, ◯→○, x/✕/✖→×, brackets dropped."""
    t = unicodedata.normalize("NFKC", text)
    t = t.replace("〇", GOOD).replace("◯", GOOD).replace("✕", BAD).replace("✖", BAD)
    return re.sub(r"[〈〉<>＜＞《》\"'“”]", "", t).strip()


def ability_name(text: str) -> str:
    """Returns the canonical Japanese ability name for ``text`` (○/× prefix allowed)."""
    # Stories ask the same few names every turn: a string's answer is cached (anything
    # else fails in normalise, with the same message as ever).
    return _ability_name(text) if type(text) is str else _ability_name.__wrapped__(text)


@functools.lru_cache(maxsize=4096)
def _ability_name(text: str) -> str:
    t = normalise(text).lstrip(GOOD + BAD + "xX+-").strip()
    t = _ALIASES.get(t.lower(), t)
    t = _EN_TO_JA.get(t.lower(), t)
    if t in GOOD_ABILITIES or t in BAD_ABILITIES:
        return t
    raise RuleError(f"unknown UREG ability: {text!r}")


def is_good(name: str) -> bool:
    return name in GOOD_ABILITIES


@dataclass(frozen=True, slots=True)
class Character:
    """A PC's (or NPC's) abilities as the physical rules see them."""

    id: str
    good: str = ""
    bad: str = ""
    name: str = ""

    def has(self, ability: str) -> bool:
        a = ability_name(ability)
        return a in (self.good, self.bad)

    @property
    def label(self) -> str:
        return self.name or self.id

    def tags(self, lang: str = "ja") -> str:
        """〈○閃き〉〈×平凡〉 (in English 〈○Inspiration〉〈×Ordinary〉)."""
        parts = []
        if self.good:
            parts.append(f"〈{GOOD}{shown(self.good, lang)}〉")
        if self.bad:
            parts.append(f"〈{BAD}{shown(self.bad, lang)}〉")
        return "".join(parts)

    def described(self, lang: str = "ja") -> str:
        """The abilities as a player of ``lang`` reads them: 〈○閃き〉〈×平凡〉 in Japanese, in
        English words rather than the Japanese marks (``strength Inspiration, weakness
        Ordinary``)."""
        if lang != "en":
            return self.tags(lang)
        parts = [f"strength {shown(self.good, lang)}"] if self.good else []
        if self.bad:
            parts.append(f"weakness {shown(self.bad, lang)}")
        return ", ".join(parts)


def shown(name: str, lang: str = "ja") -> str:
    """An ability's name as a player of ``lang`` reads it (閃き → Inspiration in English);
    anything that is no ability name is given back as it is."""
    if lang != "en":
        return name
    hit = GOOD_ABILITIES.get(name) or BAD_ABILITIES.get(name)
    return hit[0] if hit else name


def parse_choice(spec: str) -> tuple[str, str, str]:
    """Reads an archetype name or an ability pair into (archetype id or "", good, bad).

    Accepts ``Inspiration``, ``inspiration``, ``閃き/平凡``, ``○身軽 ×低身長``, ``〇閃き,×平凡``.
    """
    # cached for a string, like ability_name
    return _parse_choice(spec) if type(spec) is str else _parse_choice.__wrapped__(spec)


@functools.lru_cache(maxsize=256)
def _parse_choice(spec: str) -> tuple[str, str, str]:
    raw = normalise(spec)
    low = raw.lower().replace("_", " ")
    low = _ALIASES.get(low.replace(" ", ""), low).lower()
    for a in ARCHETYPES.values():
        if low in (a.id.lower(), a.id.lower().replace(" ", "")):
            return a.id, a.good, a.bad
    parts = [p for p in re.split(r"[\s/,、・+&]+|(?=[○×])", raw) if p and p not in (GOOD, BAD)]
    if len(parts) != 2:
        raise RuleError(f"choose an archetype or one ○ and one × ability: {spec!r}")
    names = [ability_name(p) for p in parts]
    goods = [n for n in names if is_good(n)]
    bads = [n for n in names if not is_good(n)]
    if len(goods) != 1 or len(bads) != 1:
        raise RuleError(f"a UREG character has exactly one ○ and one × ability: {spec!r}")
    arch = next((a.id for a in ARCHETYPES.values() if (a.good, a.bad) == (goods[0], bads[0])), "")
    return arch, goods[0], bads[0]
