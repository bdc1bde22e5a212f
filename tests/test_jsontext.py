"""One scanner of JSON brackets serves the sheet reader and the rule commands (#14 item 5).

``runner.ccfolia.read.complete`` (is a pasted object whole?) and
``runner.rules.meta.json_depth`` (how deep does a rule command's JSON nest?) each had their
own copy of the same string-and-bracket loop; both now read
``runner.rules.jsontext.brackets``. The property: on any JSON-ish text both answer as their
own loops did (kept here as the reference)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.ccfolia.read import complete
from runner.rules.jsontext import brackets
from runner.rules.meta import json_depth


def old_complete(text: str) -> bool:
    depth, in_str, esc, seen = 0, False, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
            seen = True
        elif ch in "}]":
            depth -= 1
            if seen and depth <= 0:
                return True
    return False


def old_json_depth(text: str) -> int:
    depth = top = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            top = max(top, depth)
        elif ch in "]}":
            depth -= 1
    return top


# Text made mostly of what the scanner looks at: brackets, quotes, backslashes.
JSONISH = st.text(alphabet=st.sampled_from('{}[]""\\\\ a1:,\n'), max_size=80)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='a"\\{}[] ', max_size=6),
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3)
    ),
    max_leaves=12,
).map(json.dumps)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(JSONISH, JSON, st.text(max_size=40)))
def test_both_callers_answer_as_their_own_loops_did(text: str) -> None:
    assert complete(text) == old_complete(text)
    assert json_depth(text) == old_json_depth(text)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_on_real_json_the_depth_is_the_parsed_depth(text: str) -> None:
    def depth(v: object) -> int:
        if isinstance(v, list):
            return 1 + max(map(depth, v), default=0)
        if isinstance(v, dict):
            return 1 + max(map(depth, v.values()), default=0)
        return 0

    assert json_depth(text) == depth(json.loads(text))
    assert complete(text) == (text[:1] in "[{")
    assert [d for _ch, d in brackets(text)][-1:] in ([], [0])


def test_brackets_inside_strings_and_after_escapes_are_not_counted() -> None:
    text = r'{"a": "[{\"}", "b": [1, {"c": "\\"}]}'
    assert [ch for ch, _d in brackets(text)] == ["{", "[", "{", "}", "]", "}"]
    assert json_depth(text) == 3 and complete(text)
    assert not complete('{"a": "}') and not complete("just words")
