"""The fast pass's scans that begin with a literal (runner/story/fastyaml.py) answer as the plain
regexes they replaced, which began by looking behind and so were tried at every character
(~0.3 s each on a 15 MB story). Each reference below is the regex as it was."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.story import fastyaml as f
from runner.story.text import CONTROL

VALUE_INDICATOR = re.compile(
    r"(?:(?<=:)|(?<=\s-))[ \t]+(?:[@`%]|[|>](?![-+0-9]*[ \t]*(?:#[^\n]*)?(?:\r?\n|$)))"
)
ANCHOR = re.compile(r"(?:^|[\s\[{,])&([^\s,\[\]{}]+)")
# The scans below began with a class of characters and were tried at every character; each
# is now one regex per character that begins with it (~5x faster on a 5 MB story).
FLOW_INDICATOR = re.compile(r"[|>@`%](?:(?<=[\[{,].)|(?<=[\[{,] .)|(?<=[\[{,]  .))")
BLOCK = re.compile(r"[|>][-+0-9]*[ \t]*(?:#[^\n]*)?\n")
DEEP = re.compile(r"\n(?:[ \t?:-]|[&!][^ \t\n]*){64,}")

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


@settings(max_examples=3000, deadline=None)
@given(yamlish)
def test_flow_indicator(text: str) -> None:
    assert f._flow_indicator(text) == bool(FLOW_INDICATOR.search(text))


blockish = st.text(alphabet=list("a0-+ #|>\n\t:"), max_size=24)


@settings(max_examples=3000, deadline=None)
@given(blockish)
def test_block_headers(text: str) -> None:
    assert [m.span() for m in f._block_headers(text)] == [m.span() for m in BLOCK.finditer(text)]


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.sampled_from([" ", "\t", "?", ":", "-", "&a", "!b", "a", "\n"]), max_size=6),
    st.lists(
        st.sampled_from([" ", " ", " ", "\t", "?", ":", "-", "&a", "!b"]), min_size=56, max_size=72
    ),
    st.lists(st.integers(0, 70), max_size=2),
)
def test_deep(before: list[str], run: list[str], breaks: list[int]) -> None:
    for i in breaks:  # a word or a line break in the run, here and there
        run.insert(min(i, len(run)), "a")
    plain = [" " if x in ("&a", "!b") else x for x in run]  # no anchor or tag
    for text in ("".join(before) + "\n" + "".join(run), "\n" + "".join(plain)):
        deep = f._DEEP if "&" in text or "!" in text else f._DEEP_PLAIN
        assert bool(deep.search(text)) == bool(DEEP.search(text))


@settings(max_examples=2000, deadline=None)
@given(
    st.text(alphabet=list("a :\t\n\r\x00\x07\x0b\x1b\x1f\x7f\x80\x85\x9f\xa0\u3000"), max_size=12)
)
def test_control(text: str) -> None:
    # (the check needs_care made before: a control character, a lone \r included)
    before = bool(CONTROL.search(text) and CONTROL.search(text.replace("\r\n", "\n")))
    assert f._control(text) == before


def test_examples() -> None:
    assert f._lax_number("a: 1_000") and f._lax_number("[0X1F]") and f._lax_number("x: -0x1")
    assert not f._lax_number("on_enter: a1_b") and not f._lax_number("id: n_1")
    assert f._value_indicator("a: @x") and f._value_indicator("- |x") is False
    assert f._value_indicator(" - `x") and not f._value_indicator("a- `x")
    assert f._anchors("a: &x 1\nb: [&y 2]") == ["x", "y"] and f._anchors("a&b: 1") == []
    assert f._flow_indicator("a: [x, |]") and not f._flow_indicator("when: hp > 0")
    assert [m.start() for m in f._block_headers("a: | # > b\nc: >\n")] == [3, 14]
    assert f._value_indicator("a:  \t|x") and not f._value_indicator("when: hp > 0")
