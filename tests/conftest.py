"""What many test files share (#14 item 5: these were copied into each): where the repository
and its stories are, a Katari folder of the test's own, the ``katari`` command run as a user
runs it, the small readers of an event list, and the console played through prompt_toolkit's
pipe input (``tui``).

Fixtures are found by pytest; the plain helpers are imported: ``from conftest import said``.
"""

from __future__ import annotations

import io
import os
import re
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
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """``katari ARGS`` in a child process from the repository (or ``cwd``), as a user runs
    it; with ``home``, in that Katari folder."""
    e = dict(os.environ if env is None else env)
    if home is not None:
        e["KATARI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd or ROOT,
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

# -- the console through prompt_toolkit's pipe input ----------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07|\r")
"""The terminal's escape sequences (CSI, charset, keypad, OSC) and carriage returns."""


def unescape(screen: str) -> str:
    """What a VT100 output wrote, as text: its escape sequences dropped."""
    return ANSI.sub("", screen)


def vt100(
    rows: int = 40, cols: int = 100, *, term: str = "xterm", cpr: bool = False
) -> tuple[io.StringIO, Any]:
    """A prompt_toolkit VT100 output of ``rows`` × ``cols`` into a buffer: (buffer, output)."""
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    buf = io.StringIO()
    size = Size(rows=rows, columns=cols)
    return buf, Vt100_Output(buf, lambda: size, term=term, enable_cpr=cpr)


def tui(
    story: Any, keys: str, *, rows: int = 40, cols: int = 100, term: str = "xterm", **kw: Any
) -> tuple[Any, str]:
    """A whole console session in a real prompt_toolkit app, its keys fed through a pipe
    input (``\\r`` is Enter, ``\\x04`` Ctrl-D): (the console, what it wrote, escapes and
    all). ``kw`` goes to ``Repl`` (prompt_toolkit on, colour and the history file off unless
    given)."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from runner.ui.console import Repl

    kw.setdefault("color", False)
    kw.setdefault("history", False)
    buf, out = vt100(rows, cols, term=term)
    with create_pipe_input() as inp:
        inp.send_text(keys)
        with create_app_session(input=inp, output=out):
            repl = Repl(story, use_prompt_toolkit=True, **kw)
            code = repl.run()
    assert code == 0
    return repl, buf.getvalue()


# -- real time on a clock the test moves --------------------------------------------------


class FakeClock:
    """A monotonic clock that stands still until the test moves ``now``."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ClockedInput:
    """Lines typed after the given number of (fake) seconds at the prompt."""

    def __init__(self, clock: FakeClock, script: list[tuple[float, str]]) -> None:
        self.clock = clock
        self.script = list(script)

    def readline(self) -> str:
        if not self.script:
            return ""
        wait, line = self.script.pop(0)
        self.clock.now += wait
        return line + "\n"


# -- the console on piped lines ---------------------------------------------------------------


def piped(story: Any, text: str = "", *, cols: int = 100, **kw: Any) -> tuple[Any, io.StringIO]:
    """A console that reads ``text`` as piped lines (PlainIO, ``cols`` wide), not yet run:
    (the console, its output). ``kw`` goes to ``Repl``."""
    from runner.ui.console import PlainIO, Repl

    out = io.StringIO()
    return Repl(story, io=PlainIO(io.StringIO(text), out, cols=cols), **kw), out


def played(story: Any, lines: list[str], *, cols: int = 100, **kw: Any) -> tuple[Any, str]:
    """A whole console session on piped ``lines`` (one a line), run to the end of its input:
    (the console, everything it wrote)."""
    repl, out = piped(story, "\n".join(lines) + "\n", cols=cols, **kw)
    assert repl.run() == 0
    return repl, out.getvalue()
