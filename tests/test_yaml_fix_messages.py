"""YAML mistakes answered with the fix (#14 item 3): a tab in the indentation gave the parser's
"found character that cannot start any token", a merge key (``<<: *base``) "unknown key '<<'".
Both now say what is wrong and how to write it, at the place, in stories and play-tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import katari

HEAD = "story: {id: y, title: T, language: en, start: a}\n"
END = "endings:\n  fin: {kind: good, title: Fin}\n"
TAB = "a tab in the indentation: YAML indents with spaces, not tabs (replace the tab with spaces"


@pytest.mark.parametrize(
    "body,at",
    [
        ("nodes:\n  a:\n\tnarration: [Room.]\n    actions: [{label: go, end: fin}]\n", "4:1"),
        ("nodes:\n  a:\n   \tnarration: [Room.]\n    actions: [{label: go, end: fin}]\n", "4:4"),
        (
            "nodes:\n  a:\n    actions:\n      - {label: go, end: fin}\n\t  - {label: x, end: fin}\n",
            "6:1",
        ),
        ("nodes:\n  a:\n    narration: |\n\tRoom.\n    actions: [{label: go, end: fin}]\n", "5:1"),
    ],
)
def test_a_tab_in_the_indentation_says_so(tmp_path: Path, home: Path, body: str, at: str) -> None:
    p = tmp_path / "y.yaml"
    p.write_text(HEAD + body + END, encoding="utf-8")
    r = katari("check", str(p), home=home)
    assert r.returncode == 1
    assert f"y.yaml:{at}: {TAB}" in r.stdout, r.stdout
    assert "cannot start any token" not in r.stdout + r.stderr


def test_a_tab_elsewhere_is_still_fine(tmp_path: Path, home: Path) -> None:
    p = tmp_path / "y.yaml"
    p.write_text(
        HEAD + "nodes:\n  a:\n    narration: [Room.]\t# note\n"
        "    actions: [{label: go,\tend: fin}]\n" + END,
        encoding="utf-8",
    )
    r = katari("check", str(p), home=home)
    assert r.returncode == 0, r.stdout


def test_a_merge_key_says_how_to_write_it(tmp_path: Path, home: Path) -> None:
    p = tmp_path / "y.yaml"
    p.write_text(
        HEAD + "nodes:\n  a: &base\n    narration: [Room.]\n    actions: [{label: go, end: fin}]\n"
        "  b:\n    <<: *base\n    narration: [Other.]\n" + END,
        encoding="utf-8",
    )
    r = katari("check", str(p), home=home)
    assert (
        "y.yaml:7:5: unknown key '<<' in node 'b' (a merge key: Katari reads YAML 1.2, which has "
        "no merge keys; write the keys out here, or, when nothing in it changes, give the whole "
        "mapping by its alias: 'KEY: *NAME') [K002]" in r.stdout
    ), r.stdout


def test_play_tests_say_the_same(tmp_path: Path, home: Path) -> None:
    d = tmp_path / "y"
    (d / "tests").mkdir(parents=True)
    (d / "story.yaml").write_text(
        HEAD
        + "nodes:\n  a:\n    narration: [Room.]\n    actions: [{id: go, label: go, end: fin}]\n"
        + END,
        encoding="utf-8",
    )
    t = d / "tests" / "t.yaml"
    t.write_text("- name: one\n\tcommands: [go]\n", encoding="utf-8")
    r = katari("test", str(d), home=home)
    assert f"t.yaml:2: {TAB}" in r.stdout, r.stdout
    t.write_text(
        "- &base\n  name: one\n  commands: [go]\n  expect: {ending: fin}\n"
        "- <<: *base\n  name: two\n",
        encoding="utf-8",
    )
    r = katari("test", str(d), home=home)
    assert "t.yaml:5: unknown key '<<' in a test case (a merge key:" in r.stdout, r.stdout
