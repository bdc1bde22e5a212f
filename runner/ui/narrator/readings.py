"""What text each engine is actually handed.

espeak-ng (behind pyttsx3) has a Japanese voice, but it reads kana only: every kanji comes out as
"Chinese letter" in English, and romaji is spelt letter by letter in English. So for pyttsx3 we
turn Japanese into pronunciation katakana offline with pyopenjtalk-plus ``g2p(kana=True)`` (which
gives particles as spoken: は→ワ, へ→エ, を→オ), spell any Latin letters left over in katakana,
and drop any ideograph that still slipped through (silence beats "Chinese letter").
Open JTalk reads kanji itself, so it gets the text with the author's readings put in.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Mapping

ENGINES = ("pyttsx3", "openjtalk")

_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff々〆〇]")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆〇ー]")
_LATIN = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ0-9０-９]")

_LETTERS = dict(zip(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "エー ビー シー ディー イー エフ ジー エイチ アイ ジェー ケー エル エム エヌ オー ピー キュー "
    "アール エス ティー ユー ブイ ダブリュー エックス ワイ ゼット".split(), strict=True))
_DIGITS = dict(zip("0123456789", "ゼロ イチ ニ サン ヨン ゴ ロク ナナ ハチ キュー".split(), strict=True))


def has_ideographs(text: str) -> bool:
    return bool(_IDEOGRAPH.search(text))


def is_japanese(text: str) -> bool:
    return bool(_JAPANESE.search(text))


def detect_lang(text: str, default: str = "ja") -> str:
    """Japanese if the text has any kana or kanji, else English when it has Latin letters."""
    if is_japanese(text):
        return "ja"
    if re.search(r"[A-Za-z]", text):
        return "en"
    return default


def to_katakana(text: str) -> str:
    """Hiragana → katakana by code point (ゔ and the small kana included)."""
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in text)


def split_readings(text: str, readings: Mapping[str, str] | None) -> list[tuple[str, bool]]:
    """Cut ``text`` into (piece, is_author_reading) with the author's words replaced.

    Longest words first, so {触腕: しょくわん, 蠢く触腕: うごめくしょくわん} does the right thing."""
    if not readings:
        return [(text, False)] if text else []
    words = sorted((w for w in readings if w), key=len, reverse=True)
    if not words:
        return [(text, False)] if text else []
    pattern = re.compile("|".join(re.escape(w) for w in words))
    out: list[tuple[str, bool]] = []
    pos = 0
    for m in pattern.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], False))
        out.append((str(readings[m.group(0)]), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def load_openjtalk():
    """Import pyopenjtalk without its import-time notice ("ONNX Runtime is not installed")
    reaching stdout, which would corrupt `katari speak --show-reading` and the REPL."""
    with contextlib.redirect_stdout(io.StringIO()):
        import pyopenjtalk
    return pyopenjtalk


def g2p_kana(text: str) -> str:
    """Pronunciation katakana for Japanese text (offline; the dictionary ships in the wheel)."""
    if not text.strip():
        return text
    return load_openjtalk().g2p(text, kana=True)


def spell_latin(text: str) -> str:
    """Letters and digits that survive g2p, in katakana, since the ja voice spells Latin in English."""
    def one(m: re.Match) -> str:
        c = m.group(0)
        if "０" <= c <= "９" or "Ａ" <= c <= "Ｚ" or "ａ" <= c <= "ｚ":
            c = chr(ord(c) - 0xFEE0)
        c = c.upper()
        return _LETTERS.get(c) or _DIGITS.get(c, "")
    return _LATIN.sub(one, text)


def reading_for(text: str, readings: Mapping[str, str] | None = None, engine: str = "pyttsx3",
                lang: str | None = None) -> str:
    """The exact text handed to ``engine`` for ``text``.

    ``readings`` is the story's {word: kana} map; ``lang`` defaults to what the text looks like."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    lang = lang or detect_lang(text)
    parts = split_readings(text, readings)
    if engine == "openjtalk":
        # Katakana is read as written by Open JTalk, so an author's は stays "ha".
        return "".join(to_katakana(p) if fixed else p for p, fixed in parts)
    if lang != "ja" and not is_japanese(text):
        return "".join(p for p, _ in parts)
    out = []
    for piece, fixed in parts:
        out.append(to_katakana(piece) if fixed else g2p_kana(piece))
    kana = spell_latin("".join(out))
    return _IDEOGRAPH.sub("", kana)


_SENTENCE_END = re.compile(r"(?<=[。！？!?…])(?![。！？!?…」』）)])\s*|(?<=[.])\s+|\n+")


def split_sentences(text: str, limit: int = 120) -> list[str]:
    """Sentences, so the first one can be playing while the next is synthesised.
    Over-long sentences are cut again at commas."""
    out: list[str] = []
    for s in _SENTENCE_END.split(text):
        s = s.strip()
        if not s:
            continue
        while len(s) > limit:
            cut = max(s.rfind("、", 0, limit), s.rfind(",", 0, limit))
            cut = cut + 1 if cut > 0 else limit
            out.append(s[:cut].strip())
            s = s[cut:].strip()
        if s:
            out.append(s)
    return [s for s in out if re.search(r"\w", s)]
