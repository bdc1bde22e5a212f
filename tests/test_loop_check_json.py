"""`katari check --json`: one JSON document of diagnostics for editors and CI (#15).

Each diagnostic has a code K…, a severity, a path, a line, a column, an end and a message;
the end covers what the message is about (the misspelt name, the bad key)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BROKEN = textwrap.dedent("""\
    story: {id: t, title: T, rules: none, start: hall}
    variables: {coins: 3}
    nodes:
      hall:
        naration: hi
        actions:
          - {id: go, label: Go, when: "coinz > 2", goto: rooom}
          - {id: x, label: X, effects: [{set: {coins: "coins +"}}], goto: hall}
      room:
        actions: [{id: out, label: Out, end: out}]
    endings: {out: {kind: good}}
    """)

WARNS = textwrap.dedent("""\
    story: {id: w, title: W, rules: none, start: hall}
    variables: {n: 0}
    nodes:
      hall:
        actions:
          - id: look
            label: Look
            check: "n > 0"
            outcomes:
              true: {goto: hall}
              false: {goto: hall}
              maybe: {goto: hall}
          - {id: out, label: Out, end: out}
    endings: {out: {kind: good}}
    """)


def _katari(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _where(text: str, needle: str) -> tuple[int, int]:
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def test_one_document_with_codes_positions_and_ranges(tmp_path: Path) -> None:
    f = tmp_path / "broken.yaml"
    f.write_text(BROKEN, encoding="utf-8")
    r = _katari("check", "--json", "--no-voice", str(f))
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)  # one document, not lines
    assert doc["format"] == "katari-check" and doc["version"] == 1
    # An unreachable node or ending is a warning (#15: work in progress plays); the rest are errors.
    assert doc["ok"] is False and doc["errors"] == len(doc["diagnostics"]) - 2 == 4
    assert doc["stories"] == [{"path": str(f), "ok": False, "errors": 4, "warnings": 2}]
    for d in doc["diagnostics"]:
        assert set(d) == {"code", "severity", "path", "line", "column", "end", "message", "story"}
        assert re.fullmatch(r"K\d{3}", d["code"]) and d["code"] != "K000", d
        assert d["severity"] == ("warning" if d["code"] in ("K034", "K035") else "error") and d[
            "path"
        ] == str(f)
        assert (d["end"]["line"], d["end"]["column"]) > (d["line"], d["column"]), d
    by_code = {d["code"]: d for d in doc["diagnostics"]}

    def covered(d: dict) -> str:
        line = BROKEN.splitlines()[d["line"] - 1]
        assert d["end"]["line"] == d["line"]
        return line[d["column"] - 1 : d["end"]["column"] - 1]

    assert covered(by_code["K002"]) == "naration"
    assert covered(by_code["K011"]) == "coinz"
    assert (by_code["K011"]["line"], by_code["K011"]["column"]) == _where(BROKEN, "coinz")
    assert covered(by_code["K031"]) == "rooom"
    assert covered(by_code["K034"]) == "room"
    assert "did you mean 'coins'" in by_code["K011"]["message"]


def test_several_stories_warnings_and_a_clean_exit(tmp_path: Path) -> None:
    f = tmp_path / "w.yaml"
    f.write_text(WARNS, encoding="utf-8")
    r = _katari("check", "--json", "--no-voice", str(f), "ureg_window_room")
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    assert doc["ok"] is True and doc["errors"] == 0 and doc["warnings"] >= 1
    assert [s["ok"] for s in doc["stories"]] == [True, True]
    assert doc["stories"][1]["id"] == "ureg_window_room" and doc["stories"][1]["nodes"] == 5
    warn = [d for d in doc["diagnostics"] if d["severity"] == "warning"]
    assert warn and all(d["story"] == str(f) for d in warn)
    assert any(d["code"] == "K303" and "'maybe'" in d["message"] for d in warn)
    # The text form says the same things, one line each.
    r2 = _katari("check", "--no-voice", str(f))
    assert sum(1 for line in r2.stdout.splitlines() if "(warning)" in line) == len(warn)


def test_an_unreadable_story_is_still_one_document(tmp_path: Path) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text("story: {id: t\nnodes: [\n", encoding="utf-8")
    r = _katari("check", "--json", "--no-voice", str(f), str(tmp_path / "missing.yaml"))
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    codes = [d["code"] for d in doc["diagnostics"]]
    assert "K101" in codes and "K100" in codes, codes
    assert len(doc["stories"]) == 2 and not any(s["ok"] for s in doc["stories"])


def test_every_diagnostic_the_check_makes_has_a_code() -> None:
    """The kind, not the case: every place that makes a diagnostic names its code K…"""
    import ast

    story = ROOT / "runner" / "story"
    sources = sorted([*story.glob("*.py"), *story.glob("sections/*.py")])
    sources += [
        ROOT / "runner" / "authoring" / "lint.py",
        ROOT / "runner" / "commands" / "check.py",
    ]
    missing = []
    for src in sources:
        tree = ast.parse(src.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = (
                f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            )
            if name not in ("err", "Diagnostic"):
                continue
            if (
                isinstance(f, ast.Attribute)
                and name == "err"
                and not (isinstance(f.value, ast.Name) and f.value.id in ("self", "chk"))
            ):
                continue
            consts = [
                a.value
                for a in [*node.args, *(k.value for k in node.keywords)]
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if not any(re.fullmatch(r"K\d{3}", c) for c in consts):
                missing.append(
                    f"{src.relative_to(story).as_posix() if src.is_relative_to(story) else src.name}:{node.lineno}"
                )
    # The checker's own `err` passes its `code` argument through, and so does the linter for a
    # rule system's own findings (RuleSystem.lint; a finding without a K3xx code becomes K300):
    # the only calls without a literal.
    assert missing == [
        "checker.py:" + str(_err_def_line()),
        "lint.py:" + str(_rules_lint_line()),
    ], missing


def _rules_lint_line() -> int:
    lines = (ROOT / "runner" / "authoring" / "lint.py").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("def _rules_lint("))
    return next(i for i in range(start, len(lines)) if "Diagnostic(" in lines[i]) + 1


def _err_def_line() -> int:
    text = (ROOT / "runner" / "story" / "checker.py").read_text(encoding="utf-8")
    lines = text.splitlines()
    start = next(i for i, x in enumerate(lines) if x.strip().startswith("def err("))
    return next(i for i in range(start, len(lines)) if "Diagnostic(" in lines[i]) + 1
