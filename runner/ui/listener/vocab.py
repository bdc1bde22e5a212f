"""Phrases reduced to the words a model can hear.

vosk splits each grammar line on spaces and looks every token up in the model's word list;
a token it lacks is dropped with only a log line ("Ignoring word missing in vocabulary"), so
a phrase can silently lose the very word that told it apart. We look words up ourselves
(``Model.vosk_model_find_word``) and split unspaced Japanese/Korean into the fewest model
words, so that an author's "梯子を持つ" becomes the grammar line "梯子 を 持つ".
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

HasWord = Callable[[str], bool]
MAX_WORD = 12
"""Longest model word tried when splitting unspaced text (characters)."""
_UNKNOWN = 1000  # cost of one character no word covers: any split into real words beats it


def lookup_form(text: str) -> str:
    """How a phrase is written for the model: NFKC, lower case, punctuation as spaces."""
    text = unicodedata.normalize("NFKC", text).lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        out.append(ch if cat[0] in "LNM" or ch in "'-ー" else " ")
    return " ".join("".join(out).split())


def _is_spaced_script(chunk: str) -> bool:
    """Latin, Cyrillic and the like: a word is a whole chunk, never split into letters."""
    return all(ord(ch) < 0x2E80 and not ("\uac00" <= ch <= "\ud7a3") for ch in chunk)


def split_words(text: str, has_word: HasWord) -> tuple[list[str], list[str]]:
    """(words the model has, pieces it has not) for one phrase."""
    words: list[str] = []
    unknown: list[str] = []
    for chunk in lookup_form(text).split():
        if has_word(chunk):
            words.append(chunk)
            continue
        if _is_spaced_script(chunk):
            unknown.append(chunk)
            continue
        # Fewest words, unknown characters costing far more than any word; on a tie the
        # longer first word ("사다리 를", not "사 다리를"): a noun, then its particle.
        n = len(chunk)
        inf = 10**9
        best: list[tuple[int, int, bool]] = [(inf, n, False)] * n + [(0, n, False)]
        for i in range(n - 1, -1, -1):
            for j in range(min(n, i + MAX_WORD), i, -1):  # longest first: ties keep it
                if best[j][0] >= inf:
                    continue
                piece = chunk[i:j]
                if has_word(piece):
                    if best[j][0] + 1 < best[i][0]:
                        best[i] = (best[j][0] + 1, j, True)
                elif j - i == 1 and best[j][0] + _UNKNOWN < best[i][0]:
                    best[i] = (best[j][0] + _UNKNOWN, j, False)
        parts: list[tuple[str, bool]] = []
        i = 0
        while i < n:
            _, j, known = best[i]
            parts.append((chunk[i:j], known))
            i = j
        pending = ""
        for piece, known in parts:
            if known:
                if pending:
                    unknown.append(pending)
                    pending = ""
                words.append(piece)
            else:
                pending += piece
        if pending:
            unknown.append(pending)
    return words, unknown


def has_word_of(model: Any) -> HasWord:
    """A cached word test for a vosk Model, a set of words, or a callable."""
    if callable(model) and not hasattr(model, "vosk_model_find_word"):
        return model
    if isinstance(model, (set, frozenset, dict, list, tuple)):
        vocab = set(model)
        return vocab.__contains__
    find = model.vosk_model_find_word

    @lru_cache(maxsize=65536)
    def has(word: str) -> bool:
        return find(word) >= 0

    return has


def unknown_words(phrases: Iterable[Any], model: Any) -> list[str]:
    """Words (or unspaced pieces) of ``phrases`` that ``model`` cannot hear, first seen first.

    ``phrases``: strings or :class:`~runner.ui.listener.core.Phrase`; ``model``: a vosk Model,
    a model folder (str/Path), a set of words, or a word test. For ``katari check``."""
    from pathlib import Path

    if isinstance(model, (str, Path)):
        from runner.ui.listener.models import load_model

        model = load_model(Path(model))
    has = has_word_of(model)
    seen: dict[str, None] = {}
    for p in phrases:
        text = getattr(p, "text", p)
        for piece in split_words(str(text), has)[1]:
            seen.setdefault(piece, None)
    return list(seen)
