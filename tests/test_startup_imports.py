"""Start-up (#14 item 6): `katari --version` and `katari roll` import neither the YAML parsers
nor prompt_toolkit nor the voice stack; `katari play` imports the voice stack only when used.
Checked through ``python -X importtime`` (what was imported, not how long it took)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("yaml", "yaml_rs", "prompt_toolkit", "vosk", "pyttsx3", "pyopenjtalk", "sounddevice")


def imported(args: list[str], tmp_path: Path, stdin: str = "") -> set[str]:
    env = {**os.environ, "KATARI_HOME": str(tmp_path / "home"), "KATARI_CACHE": "off"}
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "runner", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return {
        m.group(1).strip().split(".")[0]
        for m in re.finditer(r"^import time:\s+\d+ \|\s+\d+ \|(.*)$", r.stderr, re.M)
    }


@pytest.mark.parametrize("args", [["--version"], ["roll", "1d6"], ["roll", "CC<=50"]])
def test_version_and_roll_import_nothing_heavy(args: list[str], tmp_path: Path) -> None:
    mods = imported(args, tmp_path)
    assert "runner" in mods  # the measurement saw Katari's own imports
    assert not mods & set(HEAVY), f"katari {' '.join(args)} imports {sorted(mods & set(HEAVY))}"


def test_version_builds_no_parser(tmp_path: Path) -> None:
    """`katari --version` answers before the subcommands' modules are imported."""
    r = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "runner", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.stdout.startswith("katari ")
    assert "runner.commands" not in r.stderr
