"""A play-test's true/false keys read in one YAML dialect (#14 item 3): ``gm: no`` and
``allow_errors: no`` were the text "no", which counted as true (keeper lines shown, a failing
script passed). Every such key takes only true or false; anything else is refused at its line
with the fix, and true/false still do what they say."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import katari

STORY = """story: {id: pt, title: T, language: en, start: a}
nodes:
  a:
    narration: [Room.]
    actions:
      - {id: leave, label: Leave, end: fin}
      - {id: secret, label: Secret, keeper: "Only the GM sees this", say: ok}
endings:
  fin: {kind: good, title: Fin}
"""


def _run(tmp_path: Path, cases: str, home: Path) -> tuple[int, str]:
    d = tmp_path / "pt"
    (d / "tests").mkdir(parents=True)
    (d / "story.yaml").write_text(STORY, encoding="utf-8")
    (d / "tests" / "t.yaml").write_text(cases, encoding="utf-8")
    r = katari("test", str(d), home=home)
    return r.returncode, r.stdout + r.stderr


@pytest.mark.parametrize("key", ["gm", "allow_errors"])
@pytest.mark.parametrize(
    "value,fix",
    [
        ("no", "false"),
        ("No", "false"),
        ("off", "false"),
        ("n", "false"),
        ('"false"', "false"),
        ("0", "false"),
        ("yes", "true"),
        ("on", "true"),
        ("Y", "true"),
        ("1", "true"),
        ("~", None),
        ("maybe", None),
        ("[true]", None),
    ],
)
def test_a_switch_takes_only_true_or_false(
    tmp_path: Path, home: Path, key: str, value: str, fix: str | None
) -> None:
    cases = f"- name: one\n  commands: [leave]\n  {key}: {value}\n  expect: {{ending: fin}}\n"
    rc, out = _run(tmp_path, cases, home)
    assert rc == 1, out
    want = f"t.yaml:3: '{key}' must be true or false"
    assert want in out, out
    if fix:
        assert f"write '{key}: {fix}'" in out, out
    else:
        assert f"write '{key}: true' or '{key}: false'" in out, out
    assert "Traceback" not in out
    assert len([ln for ln in out.splitlines() if want in ln]) == 1


def test_true_and_false_do_what_they_say(tmp_path: Path, home: Path) -> None:
    cases = """- name: errors refused
  allow_errors: false
  commands: [zzz, leave]
  expect: {ending: fin}
- name: errors allowed
  allow_errors: true
  commands: [zzz, leave]
  expect: {ending: fin}
- name: a player does not see keeper lines
  gm: false
  commands: [secret]
  expect: {no_text: Only the GM sees}
- name: a GM does
  gm: true
  commands: [secret]
  expect: {text: Only the GM sees}
"""
    rc, out = _run(tmp_path, cases, home)
    assert "errors refused FAILED" in out, out
    assert "errors allowed PASSED" in out, out
    assert "a player does not see keeper lines PASSED" in out, out
    assert "a GM does PASSED" in out, out
    assert "1 failed" in out and "3 passed" in out, out


@pytest.mark.parametrize("value,fix", [("no", "false"), ("off", "false"), ("yes", "true")])
def test_skip_refuses_a_yes_no_word_as_its_reason(
    tmp_path: Path, home: Path, value: str, fix: str
) -> None:
    cases = f"- name: one\n  skip: {value}\n  commands: [leave]\n  expect: {{ending: fin}}\n"
    rc, out = _run(tmp_path, cases, home)
    assert rc == 1, out
    assert f"t.yaml:2: 'skip' is true, false or a reason, not '{value}'; write 'skip: {fix}'" in out


def test_skip_true_or_a_reason_skips_and_false_runs(tmp_path: Path, home: Path) -> None:
    cases = """- name: by true
  skip: true
  commands: [zzz]
  expect: {ending: fin}
- name: by reason
  skip: the door is not written yet
  commands: [zzz]
  expect: {ending: fin}
- name: runs
  skip: false
  commands: [leave]
  expect: {ending: fin}
"""
    rc, out = _run(tmp_path, cases, home)
    assert rc == 0, out
    assert "1 passed" in out and "2 skipped" in out, out


def test_a_seed_that_is_not_a_number_is_one_line(tmp_path: Path, home: Path) -> None:
    cases = "- name: one\n  seed: abc\n  commands: [leave]\n  expect: {ending: fin}\n"
    rc, out = _run(tmp_path, cases, home)
    assert rc == 1 and "t.yaml:2: seed must be a whole number, not 'abc'" in out, out
    assert "Traceback" not in out


def test_a_variable_expected_as_yes_no_names_the_fix(tmp_path: Path, home: Path) -> None:
    d = tmp_path / "v"
    (d / "tests").mkdir(parents=True)
    (d / "story.yaml").write_text(
        STORY.replace("nodes:", "variables: {lit: false}\nnodes:"), encoding="utf-8"
    )
    (d / "tests" / "t.yaml").write_text(
        "- name: one\n  commands: [leave]\n  expect: {var: {lit: no}}\n", encoding="utf-8"
    )
    r = katari("test", str(d), home=home)
    assert "expected lit = 'no', got False (write lit: false" in r.stdout, r.stdout
