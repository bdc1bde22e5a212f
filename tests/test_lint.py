"""The linter and the type checker, as tests: `.ci/run` is exactly the README's test command
(`bash .ci/install dev && .venv/bin/python -m pytest`), so what CI checks is what a
contributor runs. ruff check and ruff format --check over the whole tree; mypy --strict over the
engine, the story and the rule systems, plain mypy over the whole package (#14 item 4; see
pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    found = str(path) if path.exists() else shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: `bash .ci/install dev` installs it (the dev extra)")
    return found


def test_ruff_finds_nothing() -> None:
    r = subprocess.run(
        [_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_ruff_format_leaves_the_tree_unchanged() -> None:
    r = subprocess.run(
        [_tool("ruff"), "format", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, "run `ruff format .`:\n" + r.stdout[-4000:] + r.stderr[-2000:]


def test_mypy_strict_passes_on_the_engine_the_story_and_the_rules() -> None:
    """The pure core and the rule contract: events are TypedDicts, effects NamedTuples, every
    hook's context a ``Context`` (pyproject.toml's [tool.mypy] says what else is set)."""
    r = subprocess.run(
        [_tool("mypy"), "--strict", "runner/engine", "runner/story", "runner/rules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_mypy_passes_on_the_whole_package() -> None:
    """Everything else at least plain mypy, with pyproject.toml's settings (#14 item 4)."""
    r = subprocess.run(
        [_tool("mypy"), "runner"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
