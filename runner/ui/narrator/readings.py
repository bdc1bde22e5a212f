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

ENGINES = ("pyttsx3", "openjtalk", "kokoro", "voicevox")

_IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff々〆〇]")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆〇ー]")
_LATIN = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ0-9０-９]")

_LETTERS = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "エー ビー シー ディー イー エフ ジー エイチ アイ ジェー ケー エル エム エヌ オー ピー キュー "
        "アール エス ティー ユー ブイ ダブリュー エックス ワイ ゼット".split(),
        strict=True,
    )
)
_DIGITS = dict(
    zip("0123456789", "ゼロ イチ ニ サン ヨン ゴ ロク ナナ ハチ キュー".split(), strict=True)
)


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
            out.append((text[pos : m.start()], False))
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


def reading_for(
    text: str,
    readings: Mapping[str, str] | None = None,
    engine: str = "pyttsx3",
    lang: str | None = None,
) -> str:
    """The exact text handed to ``engine`` for ``text``.

    ``readings`` is the story's {word: kana} map; ``lang`` defaults to what the text looks like.
    Japanese readings go into Open JTalk's user dictionary (:func:`use_dictionary`), so the
    text itself is left alone for the engines that read kanji (Open JTalk, kokoro) and made
    into kana with the dictionary for espeak-ng; only where no dictionary can be built are
    the author's kana spliced into the text (the old way, which loses the accent)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (choose from {', '.join(ENGINES)})")
    from runner.story.text import printable

    # Whole escape sequences go before anything is read: otherwise their letters are spoken
    # (ESC[2J as 「ニジェー」) and their bytes reach the engine.
    text = printable(text)
    lang = lang or detect_lang(text)
    if lang != "ja" and not is_japanese(text):
        return "".join(p for p, _ in split_readings(text, readings))
    if engine == "voicevox":
        return text  # read by the VOICEVOX ENGINE; the dictionary reaches it as accent phrases
    in_dict = use_dictionary(readings)
    parts = split_readings(text, None if in_dict else readings)
    if engine in ("openjtalk", "kokoro"):
        # Katakana is read as written by Open JTalk, so an author's は stays "ha".
        return "".join(to_katakana(p) if fixed else p for p, fixed in parts)
    out = []
    for piece, fixed in parts:
        out.append(to_katakana(piece) if fixed else g2p_kana(piece))
    kana = spell_latin("".join(out))
    return _IDEOGRAPH.sub("", kana)


# -- the story's readings as an Open JTalk user dictionary -------------------------------------

DICT_COST = -3000
"""MeCab word cost of a reading: low enough that the author's word is always taken whole,
(a system word that merely contains it, 言葉 for 葉, still wins: it is a longer match)."""
_POS = "1348,1348,{cost},名詞,固有名詞,一般,*,*,*"  # naist-jdic: 名詞,固有名詞,一般
_applied: list = [None]  # the key of the dictionary in the global Open JTalk now ("" = none)
_failed: set[str] = set()


@contextlib.contextmanager
def _quiet_fds():
    """MeCab's dictionary compiler prints progress bars on the C level stdout and stderr."""
    import os
    import sys

    for f in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            f.flush()
    saved = [os.dup(1), os.dup(2)]
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, null):
            os.close(fd)


def _phrases(nodes: list[dict]) -> list[tuple[str, int, int]]:
    """Open JTalk's accent phrases of analysed text: (pronunciation, morae, accent nucleus).
    A node with chain_flag 1 joins the phrase before it; the phrase's accent is its head's."""
    out: list[list] = []
    for n in nodes:
        pron = str(n.get("pron", "")).replace("’", "").replace("'", "")
        if n.get("pos") == "記号" or not n.get("mora_size"):
            continue
        if out and n.get("chain_flag") == 1:
            out[-1][0] += pron
            out[-1][1] += int(n["mora_size"])
        else:
            out.append([pron, int(n["mora_size"]), int(n.get("acc", 0))])
    return [(p, m, a) for p, m, a in out]


def dictionary_entry(word: str, kana: str) -> tuple[str, str, int, int]:
    """(reading, pronunciation, accent nucleus, morae) of one ``readings:`` entry.

    The author gives kana only. The pronunciation is Open JTalk's for that kana (こううん →
    コーウン); the accent is the one Open JTalk gives the word itself when it already says
    it that way as one accent phrase (the reading fixed only where the word ends), else the
    one it gives the kana said alone, else flat (0)."""
    pj = load_openjtalk()
    kata = to_katakana(kana)
    by_kana = _phrases(pj.run_frontend(kata))
    pron = "".join(p for p, _, _ in by_kana) or kata
    morae = sum(m for _, m, _ in by_kana) or len(kata)
    accent = 0
    by_word = _phrases(pj.run_frontend(word))
    if len(by_word) == 1 and by_word[0][0] == pron:
        accent = by_word[0][2]
    elif len(by_kana) == 1:
        accent = by_kana[0][2]
    return kata, pron, max(0, min(accent, morae)), morae


def dictionary_csv(readings: Mapping[str, str]) -> str:
    """The readings as MeCab user-dictionary rows (naist-jdic's columns, which Open JTalk reads:
    surface, ids, cost, part of speech, base form, reading, pronunciation, accent/morae)."""
    rows = []
    for word, kana in sorted(readings.items()):
        word, kana = str(word).strip(), str(kana).strip()
        if (
            not word
            or not kana
            or not is_japanese(word)
            or "," in word + kana
            or '"' in word + kana
        ):
            continue
        kata, pron, accent, morae = dictionary_entry(word, kana)
        rows.append(f"{word},{_POS.format(cost=DICT_COST)},{word},{kata},{pron},{accent}/{morae},*")
    return "\n".join(rows) + ("\n" if rows else "")


def dictionary_key(readings: Mapping[str, str] | None) -> str:
    """Names a compiled dictionary: the readings and the Open JTalk build that compiled it."""
    import hashlib
    import json

    if not readings:
        return ""
    try:
        from importlib.metadata import version

        ver = version("pyopenjtalk-plus")
    except Exception:  # noqa: BLE001
        ver = "?"
    blob = json.dumps(sorted((str(k), str(v)) for k, v in readings.items()), ensure_ascii=False)
    return hashlib.sha256(f"{ver}\n{DICT_COST}\n{blob}".encode()).hexdigest()[:16]


def compile_dictionary(readings: Mapping[str, str], folder=None):
    """The compiled user dictionary (``.dic``) for ``readings``, built once into the cache
    folder (``<cache>/readings/<key>.dic``, written through Katari's safe writer)."""
    import tempfile
    from pathlib import Path

    from runner.ui.files import atomic_write
    from runner.ui.narrator.cache import cache_dir

    key = dictionary_key(readings)
    out = Path(folder or cache_dir() / "readings") / f"{key}.dic"
    if out.is_file() and out.stat().st_size > 0:
        return out
    pj = load_openjtalk()
    csv = dictionary_csv(readings)
    if not csv:
        return None
    with tempfile.TemporaryDirectory(prefix="katari-dic-") as tmp:
        src, dic = Path(tmp) / "readings.csv", Path(tmp) / "readings.dic"
        src.write_text(csv, encoding="utf-8")
        with _quiet_fds():
            pj.mecab_dict_index(str(src), str(dic))
        atomic_write(out, dic.read_bytes())
    return out


def use_dictionary(readings: Mapping[str, str] | None) -> bool:
    """Puts the story's Japanese readings into pyopenjtalk's global Open JTalk as a user
    dictionary (or takes the last one out when there are none). Every reading made in this
    process afterwards (g2p for espeak-ng, Open JTalk's voice, kokoro's phonemes, VOICEVOX's
    accent phrases) goes through it. False when it cannot be done (the caller splices kana)."""
    ja = {k: v for k, v in (readings or {}).items() if is_japanese(str(k))}
    key = dictionary_key(ja)
    if _applied[0] == key:
        return True
    if key in _failed:
        return False
    try:
        pj = load_openjtalk()
        if not key:
            if _applied[0]:
                pj.unset_user_dict()
            _applied[0] = ""
            return True
        path = compile_dictionary(ja)
        if path is None:
            _applied[0] = key
            return True
        pj.update_global_jtalk_with_user_dict(
            [{"dic_path": str(path), "is_reading_protected": True}]
        )
    except Exception:  # noqa: BLE001 - no dictionary: the old splicing still reads the words
        _failed.add(key)
        return False
    _applied[0] = key
    return True


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
