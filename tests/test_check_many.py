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
