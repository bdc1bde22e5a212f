"""Narration's folded spaces (runner.story.checker.tidy): a space between two Japanese
characters goes (after ？ or ！ it becomes U+3000); any other space stays. tidy compares code
points; the regex it replaced (a class of the CJK ranges, 77 M instructions to compile at
every start) is kept here as the definition."""

from __future__ import annotations

import random
import re

import pytest

from runner.story.checker import tidy

_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60"
_FOLD = re.compile(f"([{_CJK}]) (?=[{_CJK}])")


def _definition(text: str) -> str:
    text = text.strip("\n")
    if " " not in text:
        return text
    return _FOLD.sub(lambda m: m.group(1) + ("\u3000" if m.group(1) in "？！" else ""), text)


# Each range's first and last code point and its neighbours outside, and the marks.
_ALPHABET = ["あ", "漢", "！", "？", " ", " ", "a", "1", "\u3000", "\n", "。", "\u2fff", "\u3000",
             "\u30ff", "\u3100", "\u3400", "\u4dbf", "\u4dc0", "\u4e00", "\u9fff", "\ua000",
             "\uf8ff", "\uf900", "\ufaff", "\ufb00", "\uff00", "\uff01", "\uff60", "\uff61"]  # fmt: skip


@pytest.mark.parametrize("seed", range(8))
def test_tidy_is_the_regex_definition(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5000):
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 14)))
        assert tidy(text) == _definition(text), repr(text)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("扉が 開いた。", "扉が開いた。"),
        ("待って！ こちらに", "待って！\u3000こちらに"),
        ("HP 10 と SAN", "HP 10 と SAN"),
        ("あ  い", "あ  い"),
        ("\n扉\n", "扉"),
    ],
)
def test_examples(written: str, read: str) -> None:
    assert tidy(written) == read
