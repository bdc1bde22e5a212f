"""Real-time rules in the console: UREG's time limit and the bomb's countdown, measured on an
injected monotonic clock (no test sleeps for minutes), reported through step(), pausable,
and never given back by undo."""

from __future__ import annotations

import io
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from conftest import ClockedInput, FakeClock, unescape, vt100
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
GREENHOUSE = ROOT / "stories" / "ureg_glass_greenhouse"  # time_limit_minutes: 30


@pytest.fixture(scope="module")
def greenhouse():
    return load(GREENHOUSE)


def _spent(repl: Repl) -> float:
    return repl.state.rules["ureg"]["time_spent"]


def test_ureg_time_is_reported_paused_and_never_given_back(home: Path, greenhouse) -> None:
    clock = FakeClock()
    script = [
        (0, "1"),
        (100, "時計"),
        (50, "undo 2"),
        (10, "status"),
        (0, "1"),
        (0, "pause"),
        (600, "status"),
        (0, "resume"),
        (20, "時計"),
    ]
    out = io.StringIO()
    repl = Repl(
        greenhouse,
        io=PlainIO(ClockedInput(clock, script), out, cols=100),
        seed=1,
        new=True,
        clock=clock,
    )
    repl.run()
    text = out.getvalue()
    cmds = [e.command for e in repl.tl.commands]
    # 100 s waited before 時計: reported first. After undoing both moves the State is back at 0 s,
    # but the console's own total is not: the status still shows 27:20 left (1800 - 160) and
    # the next command catches the State up with @time_sync. The paused 600 s never count.
    assert cmds == ["@time_sync 160", "1", "@time_passed 20", "時計"]
    assert "残り時間: 27:20" in text
    assert "残り時間: 27:20 ⏸ 一時停止中" in text
    assert "時間を止めました" in text and "時間が動き出しました" in text
    assert _spent(repl) == 180
    # The total is saved beside the timeline, and a resumed game starts from it.
    body = files.read_doc(files.slot_path(greenhouse.id, "autosave"))
    assert body["realtime"] == 180
    clock.now += 5000  # the program was closed meanwhile: that does not count
    again = Repl(greenhouse, io=PlainIO(io.StringIO("y\n"), io.StringIO(), cols=100), clock=clock)
    again.begin()
    assert again.rt is not None and again.rt.total() == pytest.approx(180)
    # The transcript shows the reports as real time, not as a player's commands.
    md = files.transcript_markdown(greenhouse, repl.tl)
    assert "*⏱ 実時間 +20 秒*" in md


def test_time_running_out_ends_the_game_with_no_key_pressed(home: Path, greenhouse) -> None:
    clock = FakeClock()
    buf, out = vt100(30, 80)
    with create_pipe_input() as inp:
        inp.send_text("1\r")
        box: dict = {}

        def table() -> None:
            deadline = time.monotonic() + 20
            while "repl" not in box or box["repl"].tl is None or box["repl"].state.turn < 1:
                time.sleep(0.01)
            clock.now += 29 * 60  # nobody types: 29 minutes pass, then one more
            time.sleep(0.2)
            assert box["repl"].state.ending is None
            clock.now += 61
            while box["repl"].state.ending is None and time.monotonic() < deadline:
                time.sleep(0.01)
            inp.send_text("\x04")

        th = threading.Thread(target=table)
        th.start()
        with create_app_session(input=inp, output=out):
            repl = Repl(
                greenhouse,
                use_prompt_toolkit=True,
                color=False,
                history=False,
                new=True,
                seed=1,
                clock=clock,
                tick=0.02,
                report_every=10_000,
            )
            box["repl"] = repl
            repl.run()
        th.join()
    screen = unescape(buf.getvalue())
    assert repl.state.ending in ("time_up", "failure")
    assert "制限時間が過ぎた" in screen
    assert [e.command for e in repl.tl.commands] == ["1", "@time_passed 1801"]


def test_plain_pipe_input_also_runs_out_of_time(home: Path, greenhouse) -> None:
    clock = FakeClock()
    r, w = os.pipe()
    os.write(w, "1\n".encode())
    inp = os.fdopen(r, "r", encoding="utf-8")
    out = io.StringIO()
    repl = Repl(
        greenhouse,
        io=PlainIO(inp, out, cols=100),
        seed=1,
        new=True,
        clock=clock,
        tick=0.02,
        report_every=60,
    )

    def table() -> None:
        while repl.tl is None or repl.state.turn < 1:
            time.sleep(0.01)
        for _ in range(31):  # a minute at a time: periodic reports while waiting at the prompt
            clock.now += 60
            time.sleep(0.08)
        end = time.monotonic() + 10
        while repl.state.ending is None and time.monotonic() < end:
            time.sleep(0.01)
        os.close(w)

    th = threading.Thread(target=table)
    th.start()
    repl.run()
    th.join()
    cmds = [e.command for e in repl.tl.commands]
    assert repl.state.ending in ("time_up", "failure")
    assert cmds[0] == "1" and len(cmds) > 5 and all(c.startswith("@time_passed ") for c in cmds[1:])
    assert sum(int(c.split()[1]) for c in cmds[1:]) == 1800
    assert "制限時間が過ぎた" in out.getvalue()


def test_the_bomb_countdown_ticks_in_real_time(home: Path, tmp_path: Path) -> None:
    d = tmp_path / "bomb"
    shutil.copytree(ROOT / "stories" / "dungeon_2f", d)
    y = d / "story.yaml"
    y.write_text(
        y.read_text(encoding="utf-8").replace("timer: null", "timer: 60"), encoding="utf-8"
    )
    story = load(d)
    clock = FakeClock()
    out = io.StringIO()
    repl = Repl(
        story, io=PlainIO(io.StringIO(), out, cols=100), seed=3, new=True, gm=True, clock=clock
    )
    repl.begin()
    repl.handle("status")
    assert "残り時間: 1:00" in out.getvalue()
    clock.now += 20
    btn = repl.state_ev["hidden"]["expected"]  # the GM sees the one right button
    repl.handle({"forward": "前", "left": "左", "right": "右", "sword": "剣", "shield": "盾"}[btn])
    assert repl.state.rules["ktane"]["time_left"] == 40
    assert [e.command for e in repl.tl.commands][0] == "@tick 20"
    clock.now += 15
    repl.handle("undo")  # back before the press (and its tick): the countdown stays at 25 s
    assert repl.realtime_items() == [("残り時間", "0:25")]
    clock.now += 30
    repl.handle("status")
    assert repl.state.ending is None  # nothing is sent until the next report...
    repl.sync_time()  # ...which the timer (or the next command) makes
    assert repl.state.ending == "exploded"
    # The State after the undo had heard of 20 s; 65 s have been played: 45 more, not 30.
    assert [e.command for e in repl.tl.commands] == ["@tick 20", "@tick 45"]
