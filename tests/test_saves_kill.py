"""A game killed with SIGKILL in the middle of writing its autosave loses only the command in
flight: the game runs in a real terminal (a pty) or a pipe; the kill lands between the temp write
and the rename of a whole save (``KATARI_TEST_SAVE_SLEEP``), in the middle of a journal line
(``KATARI_TEST_JOURNAL_SLEEP``), or at random moments while the journal is appended to and
folded into the save every few commands (``KATARI_TEST_COMPACT_BYTES``); the next session
resumes from the last good save."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "stories" / "ureg_window_room"
WALK = ROOT / "tests" / "data" / "long_walk"
KILLS = int(os.environ.get("KATARI_KILL_ROUNDS", "12"))
"""Random kills in the CI run (``KATARI_KILL_ROUNDS=200`` for the long run)."""

pty = pytest.importorskip("pty")


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KATARI_", "PYTEST"))}
    env.update(
        KATARI_HOME=str(home),
        TERM="xterm",
        PROMPT_TOOLKIT_NO_CPR="1",
        COLUMNS="80",
        LINES="24",
        PYTHONPATH=str(ROOT),
        **extra,
    )
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
        # Every save writes the whole game here: the kill lands in the rename window.
        os.execve(
            sys.executable,
            [sys.executable, "-m", "runner", "play", str(STORY), "--new", "--seed", "5"],
            _env(home, KATARI_TEST_SAVE_SLEEP="3:60", KATARI_TEST_COMPACT_BYTES="0"),
        )
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
    assert "六メートル四方の部屋" in b"".join(screen).decode(
        "utf-8", "replace"
    )  # the status bar was drawn
    # The autosave is whole and holds everything but the command in flight.
    body = files.read_doc(auto)
    assert body["turn"] == 2
    assert [c["command"] for c in body["commands"]] == ["1", "look around"]
    assert list(saves.glob(".autosave.json.*.tmp"))  # the dead process's half-done write
    # The next session offers to resume, cleans the stale temp file, and the game goes on.
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(STORY)],
        input="y\nはしご\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(home),
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    assert "続けますか" in p.stdout and "続きから再開しました" in p.stdout
    assert "肩にかついだ" in p.stdout
    assert "Traceback" not in p.stderr
    body = files.read_doc(auto)
    assert [c["command"] for c in body["commands"]] == ["1", "look around", "はしご"]
    assert not list(saves.glob(".autosave.json.*.tmp"))


class _Session:
    """``katari play`` on a pipe, read by a thread: a command is acknowledged once the next
    prompt is on the output (the autosave runs before the turn is shown)."""

    def __init__(self, home: Path, story: Path, *args: str, **env: str) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "runner", "play", str(story), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=_env(home, **env),
        )
        self.out = bytearray()
        self.reader = threading.Thread(target=self._drain, daemon=True)
        self.reader.start()

    def _drain(self) -> None:
        while True:
            b = self.p.stdout.read1(65536)  # type: ignore[union-attr]
            if not b:
                return
            self.out += b

    def prompts(self) -> int:
        return bytes(self.out).count("▶ ".encode())

    def send(self, line: str) -> None:
        self.p.stdin.write(line.encode() + b"\n")  # type: ignore[union-attr]
        self.p.stdin.flush()  # type: ignore[union-attr]

    def command(self, line: str) -> None:
        n = self.prompts()
        self.send(line)
        _wait(lambda: self.prompts() > n)

    def kill(self) -> None:
        self.p.kill()
        self.p.wait()
        self.reader.join(5)


def test_sigkill_in_the_middle_of_a_journal_line_loses_only_that_command(tmp_path: Path) -> None:
    from runner.ui import files

    home = tmp_path / "home"
    auto = home / "stories" / "ureg_window_room" / "saves" / "autosave.json"
    # Turn 1 writes the whole game, turn 2 starts the journal, turn 3 appends to it: half its
    # line is on disk (and fsynced) when the process dies.
    s = _Session(home, STORY, "--new", "--seed", "5", KATARI_TEST_JOURNAL_SLEEP="3:60")
    _wait(lambda: s.prompts() == 1)
    s.command("1")
    s.command("look around")
    journal = files.journal_path(auto)
    size = journal.stat().st_size
    s.send("はしご")
    _wait(lambda: journal.stat().st_size > size)
    s.kill()
    assert not journal.read_bytes().endswith(b"\n")  # the torn line
    body = files.read_doc(auto)
    assert [c["command"] for c in body["commands"]] == ["1", "look around"] and body["turn"] == 2
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(STORY)],
        input="y\nはしご\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(home),
        timeout=60,
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    assert "続きから再開しました" in p.stdout and "肩にかついだ" in p.stdout
    body = files.read_doc(auto)
    assert [c["command"] for c in body["commands"]] == ["1", "look around", "はしご"]
    assert not journal.exists()  # a clean exit folds the journal into the save


def test_random_sigkills_while_the_journal_grows_and_is_folded_lose_only_the_command_in_flight(
    tmp_path: Path,
) -> None:
    """Kills at random moments of a long game whose journal is folded into the save every few
    commands: the save always loads, and holds every acknowledged command (and at most the one
    in flight), whatever the kill interrupted: an append, a fold's whole write, its rename, or
    the journal's removal after it."""
    from runner.story import load
    from runner.ui import files

    story = load(WALK)
    home = tmp_path / "home"
    auto = home / "stories" / "long_walk" / "saves" / "autosave.json"
    rnd = random.Random(20)
    acked = 0
    seen: Counter[str] = Counter()
    for _ in range(KILLS):
        s = _Session(home, WALK, "--seed", "3", KATARI_TEST_COMPACT_BYTES="1200")
        if acked:
            _wait(lambda s=s: "続けますか".encode() in bytes(s.out))
            s.send("y")
        _wait(lambda s=s: s.prompts() >= 1)
        for _ in range(rnd.randint(0, 6)):
            s.command("walk")
            acked += 1
        s.send("walk")
        time.sleep(rnd.uniform(0, 0.03))
        s.kill()
        assert b"Traceback" not in s.p.stderr.read()  # type: ignore[union-attr]
        seen[_where(auto)] += 1
        tl, _ = files.load_save(auto, story)
        saved = len(tl.commands)
        assert saved in (acked, acked + 1), (saved, acked)
        assert tl.state.vars["steps"] == saved
        acked = saved
    assert acked >= KILLS
    print(f"\n{KILLS} kills: " + ", ".join(f"{k} {v}" for k, v in seen.most_common()))


def _where(auto: Path) -> str:
    """What a kill interrupted, as the files left show it."""
    from runner.ui import files

    saves = auto.parent
    journal = files.journal_path(auto)
    if any(saves.glob(".autosave.*.tmp")):
        return "a whole write (temp file left)"
    if journal.exists():
        data = journal.read_bytes()
        if not data.endswith(b"\n"):
            return "a journal line (torn)"
        head = files._read_line(data.split(b"\n")[0]) or {}
        sha = json.loads(auto.read_bytes())["sha256"]
        if head.get("base") != sha:
            return "after a fold's rename (stale journal)"
        return "between appends"
    return "between a fold and the next append"
