"""Matching what a player types or says to the actions valid now."""

from __future__ import annotations

import difflib
import re
import unicodedata

_PUNCT = re.compile(r"[\s\u3000。、，．・！？!?「」『』（）()\[\]【】\"'`~…‥ー－\-_.,:;]+")
_cache: dict[str, str] = {}


def _kata_to_hira(s: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in s)


def normalise(text: str) -> str:
    """Folds width (全角/半角), kana (カタカナ→ひらがな), case and punctuation away."""
    hit = _cache.get(text)
    if hit is not None:
        return hit
    s = unicodedata.normalize("NFKC", text)
    s = _kata_to_hira(s).casefold()
    s = _PUNCT.sub("", s)
    if len(_cache) < 100_000:
        _cache[text] = s
    return s


def suggestions(text: str, candidates: dict[str, str], n: int = 3) -> list[str]:
    """Labels whose normalised words are close to ``text`` (``candidates``: normalised → label)."""
    key = normalise(text)
    if not key:
        return []
    hits = difflib.get_close_matches(key, list(candidates), n=n * 2, cutoff=0.55)
    out: list[str] = []
    for h in hits:
        label = candidates[h]
        if label not in out:
            out.append(label)
    if not out:
        for norm, label in candidates.items():
            if len(key) >= 2 and (key in norm or norm in key) and label not in out:
                out.append(label)
    return out[:n]
