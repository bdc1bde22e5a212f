"""The fast pass's scans that begin with a literal (runner/story/fastyaml.py) answer as the plain
regexes they replaced, which began by looking behind and so were tried at every character
(~0.3 s each on a 15 MB story). Each reference below is the regex as it was."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.story import fastyaml as f

VALUE_INDICATOR = re.compile(
    r"(?:(?<=:)|(?<=\s-))[ \t]+(?:[@`%]|[|>](?![-+0-9]*[ \t]*(?:#[^\n]*)?(?:\r?\n|$)))"
)
ANCHOR = re.compile(r"(?:^|[\s\[{,])&([^\s,\[\]{}]+)")

yamlish = st.text(alphabet=list("ab019_-+.eEXxOobB &:,[]{}|>@`%#\n\t\r \u3000"), max_size=24)


@settings(max_examples=3000, deadline=None)
@given(yamlish)
def test_value_indicator(text: str) -> None:
    assert f._value_indicator(text) == bool(VALUE_INDICATOR.search(text))


@settings(max_examples=3000, deadline=None)
@given(yamlish)
def test_anchors(text: str) -> None:
    assert f._anchors(text) == ANCHOR.findall(text)


@settings(max_examples=3000, deadline=None)
@given(yamlish)
def test_lax_numbers(text: str) -> None:
    assert f._lax_number(text) == bool(f._LAX_NUMBER.search(text))


def test_examples() -> None:
    assert f._lax_number("a: 1_000") and f._lax_number("[0X1F]") and f._lax_number("x: -0x1")
    assert not f._lax_number("on_enter: a1_b") and not f._lax_number("id: n_1")
    assert f._value_indicator("a: @x") and f._value_indicator("- |x") is False
    assert f._value_indicator(" - `x") and not f._value_indicator("a- `x")
    assert f._anchors("a: &x 1\nb: [&y 2]") == ["x", "y"] and f._anchors("a&b: 1") == []
