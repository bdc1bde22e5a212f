"""A game killed with SIGKILL in the middle of writing its autosave loses only the command in
flight: the game runs in a real terminal (a pty), the kill lands between the temp write and the
rename (``KATARI_TEST_SAVE_SLEEP``), and the next session resumes from the last good save."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "stories" / "ureg_window_room"

pty = pytest.importorskip("pty")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KATARI_", "PYTEST"))}
    env.update(KATARI_HOME=str(home), TERM="xterm", PROMPT_TOOLKIT_NO_CPR="1", COLUMNS="80",
               LINES="24", PYTHONPATH=str(ROOT), **extra)
    return env


def _wait(pred, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def _autosave_turn(path: Path) -> int | None:
    from runner.ui import files

    try:
        return files.read_doc(path)["turn"]
    except Exception:  # noqa: BLE001 - not written yet
        return None


def test_sigkill_during_a_save_loses_only_the_command_in_flight(tmp_path: Path) -> None:
    from runner.ui import files

    home = tmp_path / "home"
    saves = home / "stories" / "ureg_window_room" / "saves"
    auto = saves / "autosave.json"
    pid, fd = pty.fork()
    if pid == 0:  # the child: a player's terminal
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "runner", "play", str(STORY), "--new", "--seed", "5"],
                  _env(home, KATARI_TEST_SAVE_SLEEP="3:60"))
    screen: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return
            if not data:
                return
            screen.append(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        _wait(lambda: "▶".encode() in b"".join(screen))
        for turn, cmd in [(1, "1"), (2, "look around")]:
            os.write(fd, cmd.encode() + b"\r")
            _wait(lambda t=turn: _autosave_turn(auto) == t)
        os.write(fd, "はしご\r".encode())  # turn 3: its save stops just before the rename
        _wait(lambda: any(saves.glob(".autosave.json.*.tmp")))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    assert "六メートル四方の部屋" in b"".join(screen).decode("utf-8", "replace")  # the status bar was drawn
    # The autosave is whole and holds everything but the command in flight.
    body = files.read_doc(auto)
    assert body["turn"] == 2
    assert [c["command"] for c in body["commands"]] == ["1", "look around"]
    assert list(saves.glob(".autosave.json.*.tmp"))  # the dead process's half-done write
    # The next session offers to resume, cleans the stale temp file, and the game goes on.
    p = subprocess.run([sys.executable, "-m", "runner", "play", str(STORY)], input="y\nはしご\n",
                       capture_output=True, text=True, cwd=ROOT, env=_env(home), timeout=60)
    assert p.returncode == 0, p.stderr
    assert "続けますか" in p.stdout and "続きから再開しました" in p.stdout
    assert "肩にかついだ" in p.stdout
    assert "Traceback" not in p.stderr
    body = files.read_doc(auto)
    assert [c["command"] for c in body["commands"]] == ["1", "look around", "はしご"]
    assert not list(saves.glob(".autosave.json.*.tmp"))
