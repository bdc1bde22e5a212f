"""Text that reaches the narrator from outside a story (a sheet's name, `katari speak`'s
argument, a transcript) may hold terminal escape sequences: none of their letters is read
aloud, whichever engine reads."""

from __future__ import annotations

import subprocess
import sys

import pytest

from runner.ui.narrator.readings import reading_for

HOSTILE = [
    "\x1b[2J",
    "\x1b]0;pwned\x07",
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b[31m",
    "\x1bP1;2|xyz\x1b\\",
    "\x9b2J",
]


@pytest.mark.parametrize("engine", ["pyttsx3", "openjtalk"])
@pytest.mark.parametrize("seq", HOSTILE)
def test_an_escape_sequence_is_never_read_aloud(engine: str, seq: str) -> None:
    clean = reading_for("雨が降る。", engine=engine, lang="ja")
    assert reading_for(f"雨が{seq}降る。", engine=engine, lang="ja") == clean


def test_speak_show_reading_drops_whole_sequences() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "runner", "speak", "\x1b[2Jあ\x1b]0;x\x07い", "--show-reading"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "アイ"
