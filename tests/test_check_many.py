"""`katari check` of a story with hundreds of problems prints the first 100 and a count of the
rest (a generated story printed 8,001 lines); `--all` and `--json` give every one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.cli import main


def _story(folder: Path, n: int) -> Path:
    lines = ["story: {id: big, title: Big, start: a}", "nodes:", "  a:", "    narration: x"]
    lines.append("    actions:")
    lines += [f"      - {{label: a{i}, goto: nowhere{i}}}" for i in range(n)]
    folder.mkdir()
    (folder / "story.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_the_first_hundred_and_a_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _story(tmp_path / "big", 300)
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert len(lines) == 101 and all("[K031]" in x for x in lines[:100])
    assert lines[-1] == "... and 200 more (katari check --all, or --json, lists every one)"
    assert "300 error(s)" in out.err
    assert main(["check", str(folder), "--all"]) == 1
    assert len(capsys.readouterr().out.splitlines()) == 300
    assert main(["check", str(folder), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["diagnostics"]) == 300 and doc["errors"] == 300


def test_a_few_problems_are_all_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _story(tmp_path / "small", 3)
    assert main(["check", str(folder)]) == 1
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_warnings_never_hide_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """101 unreachable nodes (K034 warnings) before one unknown key (K002): the cut printed
    100 warnings and "... and 2 more", never the error."""
    lines = ["story: {id: w, title: W, start: a}", "nodes:", "  a:", "    narration: x"]
    lines.append("    actions: [{label: go, end: fin}]")
    for i in range(101):
        lines += [f"  u{i}:", "    narration: x", "    actions: [{label: go, end: fin}]"]
    lines += ["endings:", "  fin: {kind: good, oops: 1}"]
    p = tmp_path / "w.yaml"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["check", str(p)]) == 1
    out = capsys.readouterr()
    shown = out.out.splitlines()
    assert shown[0] == f"{p}:{len(lines)}:21: unknown key 'oops' in ending 'fin' [K002]", shown[0]
    assert len(shown) == 101 and all("[K034]" in x for x in shown[1:100])
    assert shown[-1] == "... and 2 more (katari check --all, or --json, lists every one)"
    assert "1 error(s)" in out.err
