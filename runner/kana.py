"""Kana readings of a story's words, so players can type 「めがねをかける」 for 「眼鏡をかける」.

Where the voice extra is installed, pyopenjtalk-plus reads Japanese offline (its dictionary
ships in the wheel). The loader hands a :class:`Readings` mapping to the engine as
``story.cache["_kana"]``; the engine (standard library only) just looks texts up in it and
folds what it gets (see :mod:`runner.engine.match`). A reading is made the first time a text
is looked up and then remembered, so nothing is read at load time and a story of 100,000
nodes pays only for the places played. Without pyopenjtalk the engine uses the story's own
``readings:`` alone.

Readings here are *orthographic* kana (pyopenjtalk's ``read``: 「上へ泳ぐ」 → ウエヘオヨグ),
what a player types with an input method, not the pronunciation the narrator speaks (ウエエ).
The story's ``readings:`` win over the dictionary, longest word first.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

MAX_TEXT = 200
"""Longer texts are not read (labels and what people type are far shorter)."""
MAX_KEPT = 8192
"""Readings remembered per story (least recently used go first): the story's own texts and
what players typed."""


# Their wide character classes take about a millisecond to compile, more than a small story's
# whole load: compiled when a text is first read, not at import.
@functools.cache
def _japanese() -> re.Pattern[str]:
    """A run of Japanese (kana, kanji, 々〆〇ー)."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆〇ー]+")


@functools.cache
def _ideograph() -> re.Pattern[str]:
    """One kanji (what a reading is needed for)."""
    return re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆〇]")


@functools.cache
def installed() -> bool:
    """Whether pyopenjtalk can be imported (checked without importing it; once a process:
    every load asks, and the search of ``sys.path`` cost ~80 us a load)."""
    try:
        return importlib.util.find_spec("pyopenjtalk") is not None
    except (ImportError, ValueError):
        return False


def _openjtalk() -> Any:
    # Its import prints a notice about ONNX Runtime on stdout; keep it off the console.
    with contextlib.redirect_stdout(io.StringIO()):
        import pyopenjtalk
    return pyopenjtalk


def _reader(g2p: Any) -> Callable[[re.Match[str]], str]:
    """``re.sub``'s replacement: a run of Japanese as ``g2p`` reads it."""
    return lambda m: str(g2p(m.group(0)))


class Readings(Mapping[str, str]):
    """text → katakana reading (KeyError when a text has no kanji to read)."""

    def __init__(self, author: Mapping[str, str] | None = None, g2p: Any = None) -> None:
        self.author = {str(k): str(v) for k, v in (author or {}).items() if k}
        self._g2p = g2p
        """``text -> katakana`` for one run of Japanese; None until first needed."""
        self._broken = False
        self._kept: OrderedDict[str, str | None] = OrderedDict()

    @functools.cached_property
    def _words(self) -> re.Pattern[str] | None:
        """The story's own words, longest first (compiled at the first reading, not at load)."""
        if not self.author:
            return None
        return re.compile(
            "|".join(re.escape(w) for w in sorted(self.author, key=len, reverse=True))
        )

    # -- Mapping ---------------------------------------------------------
    def __getitem__(self, text: str) -> str:
        if len(text) > MAX_TEXT or not _ideograph().search(text):
            raise KeyError(text)  # nothing to read (and nothing long is kept)
        if text in self._kept:
            hit = self._kept[text]
            self._kept.move_to_end(text)
        else:
            hit = self._read(text)
            self._kept[text] = hit
            if len(self._kept) > MAX_KEPT:
                self._kept.popitem(last=False)
        if hit is None:
            raise KeyError(text)
        return hit

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._kept))

    def __len__(self) -> int:
        return len(self._kept)

    # -- reading ---------------------------------------------------------
    def _dictionary(self) -> Any:
        if self._g2p is None and not self._broken:
            try:
                ojt = _openjtalk()

                def g2p(run: str) -> str:
                    out = []
                    for w in ojt.run_frontend(run):
                        r = w.get("read") or ""
                        out.append(
                            r if r and r != "*" and not r.startswith("、") else w.get("string", "")
                        )
                    return "".join(out)

                self._g2p = g2p
            except Exception:  # noqa: BLE001 - an optional extra that fails to load: readings: only
                self._broken = True
        return self._g2p

    def _read(self, text: str) -> str | None:
        pieces: list[tuple[str, bool]] = []
        pos = 0
        if self._words is not None:
            for m in self._words.finditer(text):
                if m.start() > pos:
                    pieces.append((text[pos : m.start()], False))
                pieces.append((self.author[m.group(0)], True))
                pos = m.end()
        if pos < len(text):
            pieces.append((text[pos:], False))
        out = []
        for piece, fixed in pieces:
            g2p = None if fixed or not _ideograph().search(piece) else self._dictionary()
            if g2p is None:
                out.append(piece)
                continue
            try:
                out.append(_japanese().sub(_reader(g2p), piece))
            except Exception:  # noqa: BLE001 - a text the dictionary chokes on keeps its letters
                out.append(piece)
        read = "".join(out)
        return read if read != text else None


def attach(story: Any) -> None:
    """Hands the engine a reading table for a Japanese story when pyopenjtalk is installed."""
    if not str(getattr(story, "language", "") or "").startswith("ja") or not installed():
        return
    story.cache["_kana"] = Readings(getattr(story, "readings", None))
