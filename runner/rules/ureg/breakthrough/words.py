"""The words of a proposal: what each intent is said with, folded for matching."""

from __future__ import annotations

import unicodedata

from runner.rules.ureg.items import CATALOGUE

INTENTS: dict[str, tuple[str, ...]] = {
    "hint": ("ヒント", "hint", "閃", "ひらめ"),
    "shoulder": ("肩車", "かたぐるま", "shoulder"),
    "run": ("助走", "じょそう", "run-up", "run up", "running", "run and"),
    "jump": ("跳", "飛び", "飛ぶ", "飛ん", "じゃんぷ", "jump", "leap", "とぶ", "とん"),
    "climb": (
        "登",
        "のぼ",
        "上が",
        "あが",
        "届",
        "とど",
        "立て掛",
        "立てかけ",
        "たてか",
        "乗",
        "のる",
        "のって",
        "climb",
        "reach",
        "lean",
        "stand on",
        "get up",
        "step on",
    ),
    "break": (
        "壊",
        "こわ",
        "割",
        "わる",
        "わって",
        "破",
        "やぶ",
        "砕",
        "くだ",
        "叩き",
        "たたき",
        "爆破",
        "break",
        "smash",
        "bash",
        "blow",
        "blast",
        "destroy",
    ),
    "unlock": ("鍵を開", "解錠", "開錠", "ぴっきんぐ", "unlock", "pick the lock", "pick"),
    "open": ("開け", "あけ", "開く", "ひらく", "open"),
    "light": (
        "照ら",
        "てら",
        "灯",
        "点け",
        "火をつけ",
        "明かりをつけ",
        "火を",
        "light",
        "illuminat",
        "shine",
        "ignite",
    ),
    "bend": ("曲げ", "まげ", "曲", "bend"),
    "join": (
        "繋",
        "つな",
        "くっつ",
        "くっ付",
        "貼",
        "結",
        "むす",
        "接着",
        "継ぎ",
        "join",
        "tie",
        "tape",
        "glue",
        "attach",
        "combine",
        "connect",
    ),
    "poke": ("突", "つつ", "つい", "押", "おす", "おし", "poke", "push", "prod", "knock"),
    "cross": ("渡", "わた", "越", "こえ", "cross", "bridge", "over the gap"),
    "squeeze": (
        "潜",
        "くぐ",
        "通り抜",
        "すり抜",
        "とおりぬ",
        "squeeze",
        "crawl through",
        "slip through",
    ),
    "move": (
        "持ち上",
        "もちあ",
        "動か",
        "うごか",
        "どか",
        "ずら",
        "lift",
        "move",
        "shift",
        "heave",
    ),
    "fold": ("閉じ", "たた", "close", "fold"),
    "fight": (
        "戦",
        "たたか",
        "殴",
        "なぐ",
        "叩",
        "打ちかか",
        "うちかか",
        "攻撃",
        "こうげき",
        "襲",
        "倒",
        "挑",
        "立ち向か",
        "たちむか",
        "斬",
        "刺",
        "撃",
        "fight",
        "attack",
        "hit",
        "strike",
        "punch",
    ),
    "spread": ("広げ", "ひろげ", "伸ば", "のば", "unfold", "extend"),
    # Looking and taking are no breakthrough: a look is answered without a turn, taking is
    # the story's own actions' business (see propose).
    "examine": (
        "調べ",
        "しらべ",
        "見る",
        "見て",
        "みる",
        "眺め",
        "ながめ",
        "観察",
        "確かめ",
        "たしかめ",
        "覗",
        "のぞ",
        "examine",
        "inspect",
        "look at",
        "check",
    ),
    "take": (
        "取る",
        "取っ",
        "取り",
        "とる",
        "拾",
        "ひろう",
        "ひろっ",
        "持つ",
        "持っ",
        "もつ",
        "もっ",
        "外す",
        "外し",
        "はずす",
        "はずし",
        "摘",
        "抱え",
        "take",
        "pick up",
        "grab",
    ),
}


LOOK_ONLY = {"examine"}


TAKE_ONLY = {"take"}


# Intents that make sense with no object named (「肩車して手を伸ばす」); the others need an item
# or an obstacle in the sentence, so everyday words do not turn into proposals.
STRONG_INTENTS = {"shoulder", "jump", "climb", "squeeze", "break", "cross"}


_HIRAGANA = {k: k - 0x60 for k in range(ord("ァ"), ord("ヶ") + 1)}
"""Katakana → hiragana (``str.translate``'s table)."""


def fold(text: str) -> str:
    """NFKC, lower case, katakana → hiragana: the form every match compares."""
    return unicodedata.normalize("NFKC", text).lower().translate(_HIRAGANA)


# 「鍵を開ける」 and the like name a lock, not a key in hand: (the noun, the phrase), folded.
_LOCK_PHRASES = tuple(
    (fold(n), fold(n + v))
    for n in ("鍵", "かぎ", "錠", "じょう")
    for v in ("を開", "をあ", "を外", "をはず")
)


# Words holding an intent's key that mean something else: 見渡す (look around) is not 渡る.
_NOT_INTENTS = ("見渡", "みわた")


# The fixed words, folded once: each intent's keys, and each catalogue item's names.
_INTENT_KEYS = tuple((intent, tuple(fold(k) for k in keys)) for intent, keys in INTENTS.items())


_CATALOGUE_WORDS = tuple(
    (cat.id, tuple(fold(w) for w in (cat.name, cat.name_en, *cat.aliases)))
    for cat in CATALOGUE.values()
)
