"""What many test files share (#14 item 5: these were copied into each): where the repository
and its stories are, a Katari folder of the test's own, the ``katari`` command run as a user
runs it, and the small readers of an event list.

Fixtures are found by pytest; the plain helpers are imported: ``from conftest import said``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORIES = ROOT / "stories"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``KATARI_HOME`` in a fresh folder, so no test reads or writes anyone's saves."""
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def katari(
    *args: str,
    stdin: str | None = None,
    home: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``katari ARGS`` in a child process from the repository, as a user runs it; with
    ``home``, in that Katari folder."""
    e = dict(os.environ if env is None else env)
    if home is not None:
        e["KATARI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=e,
        timeout=timeout,
    )


def play(story: Any, *lines: str, seed: int = 0, gm: bool = False) -> list[dict[str, Any]]:
    """Every event of a game played with ``lines`` as ``katari play --jsonl`` plays it; no
    line may be refused."""
    from runner.ui.jsonl import turns

    evs = list(turns(story, list(lines), seed=seed, gm=gm))
    errors = [e for e in evs if e["type"] == "error"]
    assert not errors, errors
    return evs


def states(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``state`` events."""
    return [e for e in evs if e["type"] == "state"]


def said(evs: list[dict[str, Any]]) -> str:
    """The narration, a line an event."""
    return "\n".join(e["text"] for e in evs if e["type"] == "narration")


# The compiled-story cache (runner/story/compiled.py) is off for the suite: tests edit stories
# and swap rule systems in place, and each must read what it wrote. The cache's own tests
# (tests/test_story_compiled.py) turn it on in a folder of their own.
os.environ["KATARI_CACHE"] = "off"
