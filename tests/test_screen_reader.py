"""The console for screen readers (`katari play --screen-reader`, also when TERM=dumb or the
output is not a terminal): each line once, no escape sequence, the status when asked or when
it changed, the actions as a numbered list when they change; and what `--narrate` says:
narration, rolls in words, the actions when asked, the ending, never a keeper note."""

from __future__ import annotations

import io
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.console import Repl
from runner.ui.narrator import RecordingNarrator
from runner.ui.narrator.words import ja_number, roll_words
from runner.ui.screen_reader import ScreenReaderIO

ROOT = Path(__file__).resolve().parents[1]
WINDOW = ROOT / "stories" / "ureg_window_room"
DEEP = ROOT / "stories" / "deep_sea_atelier"
ESC = re.compile(r"[\x1b\x07\x08\r]")
ACTION = re.compile(r"^\d+\. |^選択肢（\d+）：$|^> |^▶ ")
GAME = "1\n見渡す\n梯子\n状態\n選択肢\n立て掛ける\n登る\n"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _env(home: Path, **kw: str) -> dict:
    env = dict(os.environ, KATARI_HOME=str(home), PYTHONPATH=str(ROOT), **kw)
    env.pop("NO_COLOR", None)
    return env


def _check_screen(out: str) -> list[str]:
    assert not ESC.search(out), repr(ESC.search(out))
    lines = [x for x in out.splitlines() if x.strip()]
    said = [x for x in lines if not ACTION.match(x)]
    repeated = {x for x in said if said.count(x) > 1}
    assert not repeated, repeated  # each line once
    # The list of actions: only when it changed (or was asked for), as a list with its length.
    lists, cur = [], None
    for x in lines:
        if re.match(r"^選択肢（(\d+)）：$", x):
            cur = [x]
            lists.append(cur)
        elif cur is not None and re.match(r"^\d+\. ", x):
            cur.append(x)
        else:
            cur = None
    for lst in lists:
        assert int(re.search(r"\d+", lst[0]).group()) == len(lst) - 1, lst
    return lines


def test_a_piped_game_writes_each_line_once_and_no_escape(home: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", "ureg_window_room", "--new", "--seed", "1"],
        input=GAME,
        capture_output=True,
        text=True,
        env=_env(home, TERM="xterm-256color"),
        timeout=120,
        cwd=home.parent,
    )
    assert r.returncode == 0, r.stderr
    assert not ESC.search(r.stderr)
    lines = _check_screen(r.stdout)
    assert "エンディング、脱出成功（グッド）" in lines and not any("━" in x for x in lines)
    # the status: once when asked (a block), else one line when part of it changed
    assert lines.count("状態：") == 1
    changes = [x for x in lines if x.startswith("状態：") and x != "状態："]
    assert changes and all(len(x) < 120 for x in changes)
    assert "状態：カード 表 木箱,梯子・伏せ 1" in lines  # what changed, not everything
    # the list after 梯子 was the same as the one asked for with 選択肢: written because asked
    asked = lines.index("▶ 選択肢")  # (piped: the console's own prompt)
    assert lines[asked + 1].startswith("選択肢（")


def test_term_dumb_on_a_terminal_is_the_screen_reader_console(home: Path) -> None:
    """TERM=dumb on a real terminal (a pty): no prompt_toolkit, no escape sequence at all."""
    master, slave = pty.openpty()
    p = subprocess.Popen(
        [sys.executable, "-m", "runner", "play", "ureg_window_room", "--new", "--seed", "1"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=_env(home, TERM="dumb"),
        cwd=home.parent,
        close_fds=True,
    )
    os.close(slave)
    buf = b""

    def read_until(pattern: bytes, timeout: float = 60, count: int = 1) -> None:
        nonlocal buf
        end = time.monotonic() + timeout
        while buf.count(pattern) < count and time.monotonic() < end:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    buf += os.read(master, 65536)
                except OSError:
                    break
        assert pattern in buf, buf.decode(errors="replace")[-500:]

    try:
        read_until("> ".encode())
        for i, cmd in enumerate(("1", "見渡す", "梯子", "立て掛ける", "登る"), 2):
            os.write(master, (cmd + "\n").encode())
            read_until(b"> ", 60, count=i)  # the next prompt: the command was answered
        read_until("エンディング、脱出成功".encode())
        os.write(master, b"quit\n")
        p.wait(60)
    finally:
        if p.poll() is None:
            p.kill()
        os.close(master)
    text = buf.decode("utf-8", "replace").replace("\r\n", "\n")
    assert "\x1b" not in text, repr(text[:300])
    assert "選択肢（5）：" in text and "▶" not in text


def test_screen_reader_flag_wins_and_rolls_are_words(home: Path) -> None:
    out = io.StringIO()
    story = load(DEEP)
    repl = Repl(story, io=ScreenReaderIO(io.StringIO(""), out), seed=4, new=True)
    repl.begin()
    for cmd in (
        "pregen2",
        "take_lighter",
        "wake",
        "use_lighter",
        "switch_on",
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        "flip",
        "groove_look",
    ):
        repl.handle(cmd)
    repl.finish()
    text = out.getvalue()
    assert not ESC.search(text)
    rolls = [x for x in text.splitlines() if "に対して" in x]
    assert rolls, text[-2000:]
    assert re.match(r"^\S+、\d+に対して\d+、\S+", rolls[0]), rolls


def test_roll_words_and_numbers() -> None:
    assert ja_number(23) == "二十三" and ja_number(40) == "四十" and ja_number(100) == "百"
    assert ja_number(1205) == "千二百五" and ja_number(0) == "零" and ja_number(30000) == "三万"
    ev = {
        "type": "roll",
        "label": "目星",
        "target": 40,
        "total": 23,
        "level": "regular",
        "success": True,
    }
    assert roll_words(ev, "ja") == "目星、四十に対して二十三、レギュラー成功"
    assert (
        roll_words({**ev, "total": 71, "level": "failure", "success": False}, "ja")
        == "目星、四十に対して七十一、失敗"
    )
    assert roll_words(ev, "en") == "目星, 23 against 40, regular success"
    assert roll_words({"label": "ダメージ", "total": 7}, "ja") == "ダメージ、七"
    assert roll_words(ev, "ja", spoken=False) == "目星、40に対して23、レギュラー成功"


def test_narrate_reads_the_screen_in_order_never_keeper_notes(home: Path) -> None:
    story = load(DEEP)
    nar = RecordingNarrator()
    out = io.StringIO()
    repl = Repl(
        story, io=ScreenReaderIO(io.StringIO(""), out), seed=4, new=True, gm=True, narrator=nar
    )
    repl.begin()
    for cmd in (
        "pregen2",
        "take_lighter",
        "wake",
        "use_lighter",
        "switch_on",
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        "flip",
        "groove_look",
        "選択肢",
        "zzz",
        "速く",
        "遅く",
        "遅く",
        "back",
        "go_shelf",
        "way_spines",
        "md_read",
        "back",
        "cast_spell",
        "chant",
    ):
        repl.handle(cmd)
    repl.finish()
    assert repl.state.ending == "spell_home"
    spoken = [(x["speaker"], x["text"]) for x in nar.lines]
    texts = [t for _, t in spoken]
    keeper = (
        [e for e in repl.tl.events_at(repl.tl.pos) if e.get("keeper")]
        if hasattr(repl.tl, "events_at")
        else []
    )
    assert not keeper or not any(k["text"] in texts for k in keeper)
    assert not any("【KP" in t or "キーパー" in t for t in texts)
    rolls = [t for s, t in spoken if "に対して" in t]
    assert rolls and all(s == "system" for s, t in spoken if t in rolls)
    assert re.search(r"[一二三四五六七八九十百]+に対して[一二三四五六七八九十百]+、", rolls[0]), (
        rolls
    )
    lists = [t for t in texts if t.startswith("選択肢は")]
    assert len(lists) == 1 and "一、" in lists[0]  # asked once, spoken once
    assert any("「zzz」" in t for t in texts)  # what went wrong is said too
    assert texts[-1].startswith("エンディング、")  # the ending, last
    assert ("faster",) in nar.log and nar.log.count(("slower",)) == 2
    assert "読み上げの速さ：×1.25" in out.getvalue() and "読み上げの速さ：×0.8" in out.getvalue()
    # in order: each narration line is spoken where it is on the screen
    screen = out.getvalue().replace(" ", "")
    at = 0
    for s, t in spoken:
        if s != "system":
            found = screen.find(t.replace(" ", "").split("。")[0][:12], at)
            assert found >= 0, (t, screen[at : at + 300])  # each one after the one before
            at = found
