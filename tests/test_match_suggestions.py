""" "Did you mean" suggestions are difflib's close matches, whatever the matcher skips.

The matcher drops, before difflib looks, the texts that share too few characters with what
was typed to reach difflib's cutoff (a count done in C instead of difflib's per-character
``quick_ratio``). Guard: on random texts (kana, kanji, Latin, repeats) the suggestions are
exactly what difflib gives over every candidate, in the same order."""

from __future__ import annotations

import difflib
import random

from runner.engine.match import _may_be_close, normalise, suggestions

ALPHABET = "あいうかきくをにへる本棚調べ時計窓abcxyz12"


def _text(rnd: random.Random) -> str:
    return "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(1, 12)))


def _difflib_alone(text: str, candidates: dict[str, str], n: int = 3) -> list[str]:
    """suggestions() as written before the filter: difflib over every candidate."""
    key = normalise(text)
    out: list[str] = []
    for h in difflib.get_close_matches(key, list(candidates), n=n * 2, cutoff=0.55):
        if candidates[h] not in out:
            out.append(candidates[h])
    if not out:
        for norm, label in candidates.items():
            if len(key) >= 2 and (key in norm or norm in key) and label not in out:
                out.append(label)
    return out[:n]


def test_suggestions_are_difflibs_over_every_candidate() -> None:
    rnd = random.Random(14)
    found = 0
    for _ in range(3000):
        labels = [_text(rnd) for _ in range(rnd.randint(0, 12))]
        candidates = {normalise(x): x for x in labels if normalise(x)}
        typed = rnd.choice([*labels, _text(rnd)]) if labels else _text(rnd)
        if rnd.random() < 0.5 and len(typed) > 1:  # a near miss: one character changed
            i = rnd.randrange(len(typed))
            typed = typed[:i] + rnd.choice(ALPHABET) + typed[i + 1 :]
        got = suggestions(typed, candidates)
        assert got == _difflib_alone(typed, candidates), (typed, candidates)
        found += bool(got)
    assert found > 500  # the table reaches texts that have suggestions


def test_the_filter_keeps_every_text_difflib_finds_close() -> None:
    rnd = random.Random(5)
    for _ in range(3000):
        key = normalise(_text(rnd)) or "あ"
        texts = [normalise(_text(rnd)) or "い" for _ in range(8)]
        kept = set(_may_be_close(key, texts, 0.55))
        for x in texts:
            s = difflib.SequenceMatcher(None, x, key)
            if s.ratio() >= 0.55:
                assert x in kept, (key, x)
