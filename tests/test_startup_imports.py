"""Start-up (#14 item 6): `katari --version` and `katari roll` import neither the YAML parsers
nor prompt_toolkit nor the voice stack; `katari play` imports the voice stack only when used.
Checked through the modules each run imported (what, not how long it took)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("yaml", "yaml_rs", "prompt_toolkit", "vosk", "pyttsx3", "pyopenjtalk", "sounddevice")


SHOW = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('MODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
    "sys.argv = ['katari', *sys.argv[1:]]\n"
    "runpy.run_module('runner', run_name='__main__')\n"
)
"""Runs ``python -m runner ARGS`` and writes every module it imported to stderr at exit (the
modules, not ``-X importtime``: that misses what ``importlib.import_module`` imports)."""


def imported(args: list[str], tmp_path: Path, stdin: str = "") -> set[str]:
    env = {**os.environ, "KATARI_HOME": str(tmp_path / "home"), "KATARI_CACHE": "off"}
    r = subprocess.run(
        [sys.executable, "-c", SHOW, *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    line = next(x for x in r.stderr.splitlines() if x.startswith("MODULES "))
    return set(line.split()[1:])


@pytest.mark.parametrize("args", [["--version"], ["roll", "1d6"], ["roll", "CC<=50"]])
def test_version_and_roll_import_nothing_heavy(args: list[str], tmp_path: Path) -> None:
    mods = {m.split(".")[0] for m in imported(args, tmp_path)}
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


def test_a_command_imports_no_other_commands_module(tmp_path: Path) -> None:
    """`katari roll 1d6` builds the parser of `roll` alone; `katari --help` still lists all."""
    env = {**os.environ, "KATARI_HOME": str(tmp_path / "home")}
    code = (
        "import sys\nfrom runner.cli import main\nmain(['roll', '1d6'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('runner.commands.')))"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert r.stdout.splitlines()[-1] == "['runner.commands.roll']", r.stdout + r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "runner", "--help"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    for name in ("play", "check", "simulate", "graph", "roll", "import"):
        assert f"    {name} " in r.stdout or f"    {name}\n" in r.stdout, name


def test_a_headless_game_imports_no_voice_stack_nor_console(tmp_path: Path) -> None:
    """`katari play STORY --jsonl` reads its story with yaml-rs alone (no PyYAML) and imports
    neither prompt_toolkit nor any of the voice stack."""
    mods = {
        m.split(".")[0]
        for m in imported(["play", "deep_sea_atelier", "--jsonl", "--new"], tmp_path, stdin="")
    }
    assert "yaml_rs" in mods
    bad = mods & (set(HEAVY) - {"yaml_rs"})
    assert not bad, f"a headless game imports {sorted(bad)}"


ROLL_DICE_PART = {
    "runner.rules.coc7",  # (its __init__ is light: the whole system loads on first use)
    "runner.rules.coc7.bcdice",
    "runner.rules.coc7.bcdice_more",
    "runner.rules.coc7.tables",
    "runner.rules.coc7.checks",
    "runner.rules.coc7.sheet",
}
"""What `katari roll` may import of a rule system: coc7's dice commands (its ``katari.dice``
entry point) and what they read; no module that registers a hook."""
ROLL_MODULES = 20
"""How many of Katari's own modules `katari roll` may import (17 when this was written)."""


@pytest.mark.parametrize("args", [["roll", "1d6"], ["roll", "CC<=50"], ["roll", "x2", "BMR"]])
def test_roll_imports_no_rule_systems_hooks(args: list[str], tmp_path: Path) -> None:
    """`katari roll` finds coc7's dice commands through the ``katari.dice`` entry points and
    asks no other system, so no system's hooks are imported (#14 item 6): no module a hook of
    any installed system lives in, nothing of the systems after coc7, and few modules in all."""
    from runner.rules import names, system

    mods = imported(args, tmp_path)
    hook_modules = {h.fn.__module__ for n in names() for h in system(n).hooks.values()} | {
        "runner.rules.coc7.hooks",
        "runner.rules.coc7.system",
        "runner.rules.meta",
    }
    assert not mods & hook_modules, f"katari {' '.join(args)} imports {sorted(mods & hook_modules)}"
    systems = {m for m in mods if m.startswith("runner.rules.") and m.count(".") >= 2}
    systems = {m for m in systems if m.split(".")[2] in names()}
    assert systems == ROLL_DICE_PART, sorted(systems ^ ROLL_DICE_PART)
    ours = sorted(m for m in mods if m == "runner" or m.startswith("runner."))
    assert len(ours) <= ROLL_MODULES, ours
    assert "runner.story" not in mods  # (the story package: models, diagnostics, pathlib)
