"""A variable that starts as one of YAML 1.1's true/false words (#14 item 3): ``lamp_lit: no``
is the text "no" in YAML 1.2, which ``when: lamp_lit`` takes as true. ``katari check`` warns
where it stands with the fix (K009); a quoted word is text on purpose. In an expression
(``set: {lamp_lit: no}``, ``when: lamp_lit == off``) the word is a name: the unknown-variable
error names the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import katari

STORY = """story: {{id: v, title: T, language: en, start: a}}
variables:
  {decl}
nodes:
  a:
    narration: [Room.]
    actions:
      - {{id: look, label: Look, when: lamp_lit, say: You see by the lamp.}}
      - {{id: leave, label: Leave, end: fin{effects}}}
endings:
  fin: {{kind: good, title: Fin}}
"""


def _check(tmp_path: Path, home: Path, decl: str, effects: str = "") -> str:
    p = tmp_path / "v.yaml"
    p.write_text(STORY.format(decl=decl, effects=effects), encoding="utf-8")
    r = katari("check", str(p), home=home)
    return r.stdout + r.stderr


@pytest.mark.parametrize(
    "decl,col,word,fix",
    [
        ("lamp_lit: no", 13, "no", "false"),
        ("lamp_lit: No", 13, "No", "false"),
        ("lamp_lit: OFF", 13, "OFF", "false"),
        ("lamp_lit: n", 13, "n", "false"),
        ("lamp_lit: yes", 13, "yes", "true"),
        ("lamp_lit: on", 13, "on", "true"),
        ("lamp_lit: Y", 13, "Y", "true"),
        ("lamp_lit: {value: no, visible: true}", 21, "no", "false"),
    ],
)
def test_a_yes_no_word_as_a_first_value_is_warned_with_the_fix(
    tmp_path: Path, home: Path, decl: str, col: int, word: str, fix: str
) -> None:
    out = _check(tmp_path, home, decl)
    assert (
        f"v.yaml:3:{col}: variable 'lamp_lit' starts as the text {word!r}, which counts as "
        f"true in a condition; for a switch write 'lamp_lit: {fix}'" in out
    ), out
    assert "(warning) [K009]" in out


@pytest.mark.parametrize(
    "decl",
    [
        "lamp_lit: false",
        "lamp_lit: true",
        'lamp_lit: "no"',
        "lamp_lit: {value: 'on'}",
        "lamp_lit: none",
        "lamp_lit: nope",
    ],
)
def test_true_false_and_quoted_or_other_words_are_not_warned(
    tmp_path: Path, home: Path, decl: str
) -> None:
    out = _check(tmp_path, home, decl)
    assert "K009" not in out, out


@pytest.mark.parametrize("word,fix", [("no", "false"), ("yes", "true"), ("off", "false")])
def test_a_yes_no_word_in_an_expression_names_the_fix(
    tmp_path: Path, home: Path, word: str, fix: str
) -> None:
    out = _check(tmp_path, home, "lamp_lit: false", f", effects: [{{set: {{lamp_lit: {word}}}}}]")
    assert (
        f"unknown variable {word!r} (true or false? write {fix}: {word!r} is a name here) [K011]"
        in out
    ), out
