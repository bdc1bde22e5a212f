"""Two sessions of one story (#20 item 11): the first holds an OS lock on its autosave for the
whole session; a second one is told, in one line, that the game is open elsewhere, and chooses
another slot (a new game) or a read-only look at it, where nothing is written. Neither loses
anything. Both are real ``katari play`` processes on pipes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from runner.ui import files

ROOT = Path(__file__).resolve().parent.parent
WALK = ROOT / "tests" / "data" / "long_walk"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KATARI_", "PYTEST"))}
    env.update(KATARI_HOME=str(home), PYTHONPATH=str(ROOT), COLUMNS="100")
    return env


def _wait(pred, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


class _Session:
    """``katari play`` kept running on a pipe (the forgotten terminal)."""

    def __init__(self, home: Path, *args: str) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "runner", "play", str(WALK), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=_env(home),
        )
        self.out = bytearray()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        while True:
            b = self.p.stdout.read1(65536)  # type: ignore[union-attr]
            if not b:
                return
            self.out += b

    def prompts(self) -> int:
        return bytes(self.out).count("▶ ".encode())

    def command(self, line: str) -> None:
        n = self.prompts()
        self.p.stdin.write(line.encode() + b"\n")  # type: ignore[union-attr]
        self.p.stdin.flush()  # type: ignore[union-attr]
        _wait(lambda: self.prompts() > n)

    def close(self) -> str:
        self.p.stdin.close()  # type: ignore[union-attr]
        assert self.p.wait(30) == 0
        assert b"Traceback" not in self.p.stderr.read()  # type: ignore[union-attr]
        return bytes(self.out).decode("utf-8")


def _play(home: Path, stdin: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", "play", str(WALK), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(home),
        timeout=60,
    )


def _commands(path: Path) -> list[str]:
    return [c["command"] for c in files.read_doc(path)["commands"]]


def test_a_second_session_is_told_and_neither_loses_anything(tmp_path: Path) -> None:
    home = tmp_path / "home"
    saves = home / "stories" / "long_walk" / "saves"
    auto = saves / "autosave.json"
    first = _Session(home, "--seed", "1")
    _wait(lambda: first.prompts() == 1)
    for _ in range(3):
        first.command("walk")
    assert _commands(auto) == ["walk"] * 3

    # Read-only: the game as last saved, played in memory; nothing is written.
    before = sorted((p.name, p.stat().st_mtime_ns) for p in saves.iterdir())
    p = _play(home, "r\nwalk\nwalk\nstatus\nsave mine\nrestart\nwalk\n")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "このゲーム（autosave）は別の画面で開かれています。" in p.stdout
    assert "続けますか" not in p.stdout
    assert "読み取り専用で開きました" in p.stdout and "歩数: 5" in p.stdout
    assert "読み取り専用で開いているので、セーブしません。" in p.stdout
    assert "読み取り専用だったので、何も保存していません" in p.stdout
    assert sorted((p.name, p.stat().st_mtime_ns) for p in saves.iterdir()) == before

    # Another slot: a new game of its own, beside the first.
    p = _play(home, "n\nwalk\nwalk\nstatus\n")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "別の画面で開かれています" in p.stdout and "歩数: 2" in p.stdout
    assert _commands(saves / "autosave-2.json") == ["walk"] * 2

    # --new while the game is open elsewhere: the other slot is taken, and said.
    p = _play(home, "walk\n", "--new")
    assert (
        "「autosave」は別の画面で使われています。このゲームは「autosave-3」にセーブします。"
        in p.stdout
    )

    # The first session never noticed: it goes on and ends with all of its game.
    first.command("walk")
    first.command("walk")
    first.command("status")
    out = first.close()
    assert "歩数: 5" in out
    assert _commands(auto) == ["walk"] * 5
    assert _commands(saves / "autosave-2.json") == ["walk"] * 2


def test_ctrl_c_at_the_busy_question_asks_again_and_eof_leaves_quietly(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = _Session(home, "--seed", "1")
    _wait(lambda: first.prompts() == 1)
    first.command("walk")
    p = _play(home, "x\nq\n")
    assert p.returncode == 0 and "n・r・q のどれかで答えてください。" in p.stdout
    p = _play(home, "")  # Ctrl-D
    assert p.returncode == 0 and p.stderr == ""
    first.command("walk")
    first.close()
    assert _commands(home / "stories" / "long_walk" / "saves" / "autosave.json") == ["walk"] * 2
    assert not (home / "stories" / "long_walk" / "saves" / "autosave-2.json").exists()
