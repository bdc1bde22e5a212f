"""The console's words: what a typed line is (a meta word, a prefix, a quit, yes or no) and
how it is cleaned and cut to fit."""

from __future__ import annotations

import unicodedata

from runner.ui.i18n import meta_words
from runner.ui.render import width

_META = meta_words()
ECHO_MAX = 80
"""Characters of a piped line echoed after the prompt; the rest is shown as …"""
_PREFIXES = ("/", ":", "／", "：")


class Quit(Exception):
    """Leaves the loop (``quit``)."""


def _clean(line: str) -> str:
    """Drops control characters (pasted escapes, NULs) and trims; keeps every letter."""
    out = "".join(ch if (ch.isprintable() or ch in "\u3000") else " " for ch in line)
    return out.strip()


def is_quit(answer: str) -> bool:
    """Whether an answer is a word the main prompt takes for leaving (``q``, ``quit``, ``exit``,
    ``終了``, ``やめる``, ``/quit``, full-width too): every question the console asks takes them."""
    word, _ = _split(_clean(answer).lstrip("".join(_PREFIXES)))
    return _META.get(word.casefold()) == "quit"


def _fit(text: str, cols: int) -> str:
    """``text`` cut to ``cols`` terminal columns, with … where it was cut."""
    if width(text) <= cols:
        return text
    out, w = [], 0
    for ch in text:
        cw = width(ch)
        if w + cw > cols - 1:
            break
        out.append(ch)
        w += cw
    return "".join(out) + "…"


def _split(text: str) -> tuple[str, list[str]]:
    parts = unicodedata.normalize("NFKC", text).split()
    if not parts:
        return "", []
    return parts[0], parts[1:]


_YES = ("y", "yes", "はい", "うん", "ええ", "네", "예", "ok")
_NO = ("n", "no", "いいえ", "いや", "違う", "아니요", "아니")
