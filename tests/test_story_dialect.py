"""One YAML dialect (#14 item 3): the fast pass (yaml-rs) and the careful pass (PyYAML, with
positions) read every document the same way, and a true/false field takes only true or false.

The property tests generate documents and stories from the scalars where YAML dialects part
(``no``, ``on``, ``1_000``, ``0X1F``, ``10:00``, ``~``, empty keys, tabs, quotes) and assert that
both passes give the same data, and the same story or the same problems.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from runner.story.fastyaml import load_fast
from runner.story.loader import _load_pass, _Retry
from runner.story.yamlpos import load as careful_load

ROOT = Path(__file__).resolve().parent.parent

STORY = """story: {{id: t, title: T, language: en, rules: none, start: a}}
variables:
  flag: false
nodes:
  a:
    narration: [Start.]
    actions:
      - {{id: go, label: Go, goto: b{action}}}
  b:
    actions:
      - {{id: win, label: Win, end: w}}
endings:
  w: {{kind: good}}
{extra}"""


def _check(tmp_path: Path, text: str) -> subprocess.CompletedProcess[str]:
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "runner", "check", str(p)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "action,extra,where,fix",
    [
        (", once: no", "", "8:", "'once' must be true or false, not 'no'; write 'once: false'"),
        (
            ', hidden: "yes"',
            "",
            "8:",
            "'hidden' must be true or false, not 'yes'; write 'hidden: true'",
        ),
        (", once: on", "", "8:", "write 'once: true'"),
        (', hidden: "false"', "", "8:", "write 'hidden: false' (without quotes)"),
        (", once: 1", "", "8:", "'once' must be true or false, not 1; write 'once: true'"),
        (
            "",
            "events:\n  - {id: e, at: 5, repeat: yes, effects: [{set: {flag: true}}]}\n",
            "15:",
            "event 'e': 'repeat' must be true or false, not 'yes'; write 'repeat: true'",
        ),
        (
            "",
            "clock: {start: '10:00', show: off}\n",
            "14:",
            "clock: 'show' must be true or false, not 'off'; write 'show: false'",
        ),
        (
            "",
            "variables:\n  n: {value: 1, visible: nope}\n",
            "",
            "'visible' must be true or false, not 'nope'; "
            "write 'visible: true' or 'visible: false'",
        ),
    ],
)
def test_a_true_false_field_takes_only_true_or_false(
    tmp_path: Path, action: str, extra: str, where: str, fix: str
) -> None:
    text = STORY.format(action=action, extra=extra)
    if extra.startswith(
        "variables:"
    ):  # one variables section: the second one's entry joins the first
        text = text.replace(
            "  flag: false\n", "  flag: false\n  n: {value: 1, visible: nope}\n"
        ).replace(extra, "")
        where = "4:"
    r = _check(tmp_path, text)
    assert r.returncode == 1, r.stdout + r.stderr
    line = next(x for x in r.stdout.splitlines() if "must be true or false" in x)
    assert fix in line and f"s.yaml:{where}" in line, line
    assert "Traceback" not in r.stderr


def test_true_and_false_still_read_as_written(tmp_path: Path) -> None:
    from runner.story import load

    p = tmp_path / "s.yaml"
    p.write_text(STORY.format(action=", once: true, hidden: false", extra=""), encoding="utf-8")
    go = load(p).nodes["a"].actions[0]
    assert go.once is True and go.hidden is False


# -- the property: both passes read the same way -------------------------------------------

TRICKY = [
    "no",
    "yes",
    "on",
    "off",
    "No",
    "Y",
    "n",
    "true",
    "false",
    "True",
    "FALSE",
    "tRue",
    "~",
    "null",
    "Null",
    "NULL",
    "",
    "10:00",
    "1:30",
    "0o17",
    "0O17",
    "0x1F",
    "0X1F",
    "0b11",
    "1_000",
    "_9",
    "+0o7",
    "-0x1",
    "1e3",
    "1E3",
    ".5",
    "+1",
    "-0",
    "007",
    ".inf",
    "-.Inf",
    ".nan",
    "1.",
    "3.25",
    "2001-01-01",
    "'no'",
    '"yes"',
    "'1_000'",
    "x y",
    "a_b",
    "- x",
    ": x",
    "&a x",
    "*a",
    "[1, no]",
    "{k: on}",
    "\tno",
    "|",
    ">",
]

scalar = st.one_of(
    st.sampled_from(TRICKY),
    st.text(alphabet="0123456789+-._eExXoObBnNy~:' ", min_size=1, max_size=6),
)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and len(a) == len(b)
            and all(map(_same, a, b))
            and all(map(_same, a.values(), b.values()))
        )
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a):
        return math.isnan(b)
    return type(a) is type(b) and a == b


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["k: {}\n", "- {}\n", "{}: 1\n", "k: [{}, x]\n", "k:\n  - {}\n"]),
            scalar,
        ),
        min_size=1,
        max_size=4,
    )
)
def test_both_parsers_read_a_document_the_same_way(parts: list[tuple[str, str]]) -> None:
    for shape, s in parts:
        doc = shape.format(s)
        try:
            fast = load_fast(doc)
        except Exception:  # noqa: BLE001 - the fast pass hands it to the careful one
            continue
        try:
            careful, dups = careful_load(doc)
        except Exception as e:  # noqa: BLE001
            raise AssertionError(
                f"the fast pass read {doc!r} as {fast!r}; the careful pass refuses it: {e}"
            ) from e
        assert not dups or fast is None, doc
        assert _same(fast, careful), (doc, fast, careful)


def _story(actions: list[tuple[str, str, str]], var: str, text: str) -> str:
    acts = "".join(
        f"      - {{id: a{i}, label: {label}, once: {once}, hidden: {hidden}, goto: b}}\n"
        for i, (label, once, hidden) in enumerate(actions)
    )
    return (
        f"story: {{id: t, title: T, language: en, rules: none, start: a}}\n"
        f"variables:\n  v: {var}\n"
        f"nodes:\n  a:\n    narration:\n      - {text}\n    actions:\n{acts}"
        f"  b:\n    actions:\n      - {{id: win, label: Win, end: w}}\n"
        f"endings:\n  w: {{kind: good}}\n"
    )


flag = st.one_of(st.sampled_from(["true", "false"]), scalar)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.tuples(scalar, flag, flag), min_size=1, max_size=3), scalar, scalar)
@example(actions=[("no", "true", "|")], var="no", text="no")  # a block indicator as a flow value
def test_both_passes_give_the_same_story_or_the_same_problems(
    tmp_path: Path, actions: list[tuple[str, str, str]], var: str, text: str
) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(_story(actions, var, text), encoding="utf-8")
    try:
        fast, fdiags = _load_pass(p, check_hooks=True, fast=True)
    except _Retry:
        return  # the fast pass declined: the careful pass alone reads this story
    careful, cdiags = _load_pass(p, check_hooks=True, fast=False)
    assert sorted((d.code, d.message) for d in fdiags) == sorted(
        (d.code, d.message) for d in cdiags
    ), p.read_text(encoding="utf-8")
    assert fast == careful, p.read_text(encoding="utf-8")
    if fast is not None:
        for a in fast.nodes["a"].actions:
            assert type(a.once) is bool and type(a.hidden) is bool
