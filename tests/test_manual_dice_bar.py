"""The status bar while the table rolls (the table tour's item 6): a GM's ``!clock +70`` sets
off the tremor's Luck roll, and while the dice prompt waits the bar (and the GM's panel) show
11:10, the time of the events already on screen, not the 10:00 from before the command."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from conftest import unescape, vt100
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from runner.commands._common import translated
from runner.story import load
from runner.ui.console import Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
CASES = {
    "en": ("1\rphone\r3\rgm set light yes\rgm clock +70\r", "enter the roll", "Turn", "Time"),
    "ja": ("1\rスマホ\r目を覚ます\r変数 天井の照明 はい\r時計 +70\r", "出目を入力", "手番", "時刻"),
}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


def _while_asked(lang: str, rows: int, cols: int) -> tuple[str, Repl]:
    """The screen drawn while the dice prompt waits (from the override's line on)."""
    keys, asked, field, _ = CASES[lang]
    story = translated(load(DEEP), lang) if lang == "en" else load(DEEP)
    buf, out = vt100(rows, cols, cpr=True)
    seen: dict[str, str] = {}
    with create_pipe_input() as inp:
        inp.send_text("\x1b[1;1R" + keys)

        def answer() -> None:
            # Poll for the prompt, answer its cursor-position request (so the bottom toolbar
            # is drawn), poll for the bar, then roll 50 and leave.
            deadline = time.monotonic() + 90
            while asked not in unescape(buf.getvalue()) and time.monotonic() < deadline:
                time.sleep(0.05)
            n = len(buf.getvalue())
            inp.send_text("\x1b[1;1R")
            while field not in unescape(buf.getvalue()[n:]) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)  # (the rest of the same redraw)
            seen["screen"] = unescape(buf.getvalue()[n:])
            inp.send_text("50\r\x04")

        th = threading.Thread(target=answer, daemon=True)
        th.start()
        with create_app_session(input=inp, output=out):
            repl = Repl(
                story, use_prompt_toolkit=True, color=False, history=False, new=True,
                lang=lang, gm=True, manual=True, seed=1,
            )  # fmt: skip
            repl.run()
        th.join()
    return seen["screen"], repl


@pytest.mark.parametrize(("lang", "rows", "cols"), [("en", 24, 80), ("ja", 40, 120)])
def test_the_bar_shows_the_time_the_clock_was_moved_to_while_the_dice_are_asked(
    lang: str, rows: int, cols: int
) -> None:
    screen, repl = _while_asked(lang, rows, cols)
    _, _, turn, time_field = CASES[lang]
    # The last bar and GM panel line drawn while the prompt waits.
    bar = [ln for ln in screen.splitlines() if f"{time_field} " in ln][-1]
    panel = [ln for ln in screen.splitlines() if "GM" in ln and turn in ln and "│" not in ln][-1]
    assert f"{time_field} 11:10" in bar and "10:00" not in bar, screen
    assert "11:10" in panel and "10:00" not in panel, screen
    assert repl.state.clock == 70 and repl.state.vars["tentacle"] is True  # the roll was made
