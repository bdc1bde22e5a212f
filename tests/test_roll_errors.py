"""`katari roll` refuses in one form: exit 2, one `katari roll:` line on stderr, and with
`--json` one JSON object with `"error": true` on stdout (BCDice's own refusals like `x0 2D6`
printed their words and exited 0; `--json` of a refused command printed no JSON)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REFUSED = ["x0 2D6", "x999999 1d6", "1d6/0", "CC<=", "(((", "1d", "choice[]"]


def _roll(*args: str, lang: str = "en") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KATARI_LANG": lang, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "runner", "roll", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize("command", REFUSED)
def test_a_refused_command_answers_in_one_form(command: str) -> None:
    r = _roll(command)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("katari roll: ")
    j = _roll("--json", command)
    assert j.returncode == 2
    out = [json.loads(x) for x in j.stdout.strip().splitlines()]
    assert len(out) == 1 and out[0]["error"] is True and out[0]["command"] == command
    assert out[0]["text"]


def test_a_roll_still_rolls() -> None:
    r = _roll("--json", "--seed", "1", "2d6")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert "error" not in doc and len(doc["dice"]) == 2


def test_the_refusal_speaks_the_language_asked() -> None:
    assert "振れません" in _roll("CC<=", lang="ja").stderr
    assert "Cannot roll" in _roll("CC<=", lang="en").stderr
