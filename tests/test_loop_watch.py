"""`katari play STORY --watch` (#15): each save of a story file re-checks it; errors are shown
in place, one line each, and the game goes on; a story that loads is replayed to the same
point, or to the first command that no longer fits. `restart` re-reads changed files."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

STORY = textwrap.dedent("""\
    story: {id: harbour, title: Harbour, rules: none, start: quay, language: en}
    variables: {gold: 0}
    nodes:
      quay:
        narration: Gulls over the quay.
        actions:
          - {id: down, label: Go down the steps, goto: cellar}
          - {id: leave, label: Leave, end: gone}
      cellar:
        narration: Barrels in the dark.
        actions:
          - {id: open, label: Open a barrel, effects: [{add: {gold: 2}}]}
          - {id: up, label: Climb up, goto: quay}
    endings: {gone: {kind: normal, title: Gone}}
    """)


class Session:
    """`katari play --watch` on pipes, read on a thread; waits poll for the expected text."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
            "KATARI_HOME": str(home),
            "COLUMNS": "300",
        }
        self.p = subprocess.Popen(
            [sys.executable, "-m", "runner", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env=env,
        )
        self.out = b""
        self._lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        while True:
            b = os.read(self.p.stdout.fileno(), 65536)
            if not b:
                return
            with self._lock:
                self.out += b

    @property
    def text(self) -> str:
        with self._lock:
            return self.out.decode("utf-8", "replace")

    def wait_for(self, needle: str, after: int = 0, timeout: float = 60) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            i = self.text.find(needle, after)
            if i >= 0:
                return i + len(needle)
            time.sleep(0.05)
        raise AssertionError(f"{needle!r} never appeared; output:\n{self.text[after:]}")

    def send(self, line: str) -> int:
        mark = len(self.text)
        assert self.p.stdin is not None
        self.p.stdin.write((line + "\n").encode())
        self.p.stdin.flush()
        return mark

    def close(self) -> None:
        if self.p.poll() is None:
            try:
                self.send("quit")
                self.p.wait(timeout=30)
            except Exception:  # noqa: BLE001
                self.p.kill()


def _save(path: Path, text: str) -> None:
    # A new size as well as a new time: some file systems keep whole seconds only.
    path.write_text(text, encoding="utf-8")


def test_watch_reloads_replays_and_keeps_the_game_through_errors(tmp_path: Path) -> None:
    d = tmp_path / "harbour"
    d.mkdir()
    f = d / "story.yaml"
    _save(f, STORY)
    s = Session(["play", str(d), "--watch", "--lang", "en", "--seed", "1"], tmp_path / "home")
    try:
        at = s.wait_for("Watching")
        at = s.wait_for("> ", at)
        at = s.wait_for("Barrels in the dark.", s.send("down"))
        at = s.wait_for("> ", at)
        s.send("open")
        at = s.wait_for("> ", s.wait_for("\n", s.wait_for("open", at)))

        # 1. An edit that loads: replayed to the same point, the new text shown.
        mark = len(s.text)
        _save(f, STORY.replace("Barrels in the dark.", "Barrels and a lamp."))
        at = s.wait_for(
            "Story reloaded. The story changed; all 2 commands replay the same way.", mark
        )
        at = s.wait_for("Barrels and a lamp.", at)

        # 2. An edit with errors: shown in place, one line each; the game goes on.
        mark = len(s.text)
        broken = STORY.replace("goto: quay}", "goto: qauy}").replace("naration", "x")
        _save(f, broken.replace("Barrels in the dark.", "Barrels and a lamp."))
        at = s.wait_for("Cannot reload: 1 error(s)", mark)
        line = s.text[at:].splitlines()[1]
        assert (
            line.startswith(f"{f}:")
            and "goto 'qauy': no such node or ending (did you mean 'quay'?)" in line
        )
        at = s.wait_for(
            "Barrels and a lamp.", s.send("look")
        )  # still the reloaded story, same place

        # 3. The fix renames 'open': the replay stops there, said in one line.
        mark = len(s.text)
        _save(f, STORY.replace("{id: open, label: Open a barrel", "{id: pry, label: Pry the lid"))
        at = s.wait_for(
            "Story reloaded. Command 2 ('open') no longer fits the story (no such action there now); "
            "replayed up to turn 1",
            mark,
        )
        at = s.wait_for("Pry the lid", at)

        # 4. Put it back before playing on: the whole log is tried again, to turn 2.
        mark = len(s.text)
        _save(f, STORY + "\n")
        s.wait_for("Story reloaded. The story changed; all 2 commands replay the same way.", mark)
    finally:
        s.close()
    assert "Traceback" not in s.text


def test_restart_rereads_changed_files_without_watch(tmp_path: Path) -> None:
    d = tmp_path / "harbour"
    d.mkdir()
    f = d / "story.yaml"
    _save(f, STORY)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(tmp_path / "home"),
        "COLUMNS": "300",
    }
    p = subprocess.Popen(
        [sys.executable, "-m", "runner", "play", str(d), "--lang", "en"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write("down\n")
    p.stdin.flush()
    seen = ""
    while "Barrels in the dark." not in seen:
        seen += p.stdout.readline()
    _save(f, STORY.replace("Gulls over the quay.", "Fog over the quay."))
    out, err = p.communicate("restart\nquit\n", timeout=60)
    assert "Story files re-read." in out and "Fog over the quay." in out, out
    assert err == ""


def test_watch_is_for_the_console(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", "ureg_window_room", "--watch", "--jsonl"],
        input="",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "KATARI_HOME": str(tmp_path)},
    )
    assert (
        r.returncode == 2 and r.stderr.count("\n") == 1 and "--watch is for the console" in r.stderr
    )


def test_watch_inside_the_prompt_toolkit_console(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher's wake interrupts prompt_toolkit's prompt, the reload runs on the console's
    thread, and a half-typed line survives it."""
    from conftest import vt100
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from runner.story import load
    from runner.ui.console import Repl

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    d = tmp_path / "harbour"
    d.mkdir()
    f = d / "story.yaml"
    _save(f, STORY)
    buf, out = vt100(40, 100)
    box: dict = {}

    def until(cond, timeout: float = 30) -> None:  # noqa: ANN001
        end = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < end, buf.getvalue()[-2000:]
            time.sleep(0.02)

    with create_pipe_input() as inp:

        def author() -> None:
            until(
                lambda: (
                    "repl" in box and box["repl"].tl is not None and box["repl"].watcher is not None
                )
            )
            repl = box["repl"]
            inp.send_text("down\r")
            until(lambda: repl.state.node == "cellar")
            inp.send_text("op")  # half typed when the file is saved
            time.sleep(0.3)
            _save(f, STORY.replace("Barrels in the dark.", "Barrels and a lamp."))
            until(lambda: repl.story.nodes["cellar"].narration[0].text == "Barrels and a lamp.")
            inp.send_text("en\r")
            until(lambda: repl.state.vars["gold"] == 2)
            inp.send_text("\x04")

        th = threading.Thread(target=author)
        th.start()
        with create_app_session(input=inp, output=out):
            repl = Repl(
                load(d),
                use_prompt_toolkit=True,
                color=False,
                history=False,
                new=True,
                seed=1,
                watch=True,
                lang="en",
            )
            box["repl"] = repl
            repl.run()
        th.join()
    assert [e.command for e in repl.tl.commands] == ["down", "open"]
    assert (
        "Story reloaded. The story changed; all 1 commands replay the same way." in buf.getvalue()
    )
