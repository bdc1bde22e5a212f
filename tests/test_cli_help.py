"""`katari --help` lists every command in the order a user meets them (players', then
authors', then the table's tools), with none left trailing at the end unplaced."""

from __future__ import annotations

import pkgutil
import re
import subprocess
import sys

import runner.commands as pkg
from runner.cli import ORDER


def test_every_command_has_a_place_in_the_help_order() -> None:
    names = {
        m.name.rstrip("_") for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")
    }
    assert names - set(ORDER) == set(), "add the new command to runner/cli.py ORDER"


def test_help_lists_the_commands_in_that_order() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "runner", "--help"], capture_output=True, text=True, check=True
    ).stdout
    listed = re.findall(r"^    (\w+)\s", out, re.MULTILINE)
    assert listed[:5] == ["play", "list", "check", "new", "import"]
    assert listed == [n for n in ORDER if n in listed]
