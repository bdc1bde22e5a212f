"""What a UREG table does that the stories missed (#13 items 16, 22, 23, 25): the real clock
starts with the opening, players make their own escapers, the sample room's three item cards,
and a proposal never confirms an item the player has not found."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.repl import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
GREENHOUSE = ROOT / "stories" / "ureg_glass_greenhouse"
WINDOW = ROOT / "stories" / "ureg_window_room"


def katari(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "runner", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def events(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines()]


class FakeClock:
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


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


# ---------------------------------------------------------------- item 16: the clock starts with the opening

def test_the_console_clock_stands_still_during_the_character_selection(home: Path) -> None:
    clock = FakeClock()
    # Two minutes reading the selection, then the opening; thirty seconds later a move.
    script = [(120, "1"), (30, "時計"), (0, "status")]
    out = io.StringIO()
    repl = Repl(load(GREENHOUSE), io=PlainIO(ClockedInput(clock, script), out, cols=100), seed=1,
                new=True, clock=clock)
    repl.run()
    cmds = [e.command for e in repl.tl.commands]
    assert cmds == ["1", "@time_passed 30", "時計"], cmds
    assert repl.state.rules["ureg"]["time_spent"] == 30
    assert "残り時間: 29:30" in out.getvalue()


def test_time_reported_before_the_opening_does_not_count() -> None:
    r = katari("play", "ureg_glass_greenhouse", "--jsonl", "--seed", "1",
               stdin="@time_passed 300\ninspiration\n@time_passed 40\n")
    st = [e["ureg"] for e in events(r.stdout) if e["type"] == "state"]
    assert [s["time_spent"] for s in st] == [0, 0, 0, 40]
    assert st[1]["time_left"] == 1800 and st[3]["time_left"] == 1760
