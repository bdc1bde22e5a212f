"""Start-up: time from `katari play` to its first prompt on screen, as a new user sees it.

    python benchmarks/bench_startup.py [--runs 5] [--story ureg_window_room]

Each run starts a fresh tmux session (a real terminal: prompt_toolkit draws its prompt and
status bar there) with an empty KATARI_HOME, launches `python -m runner play STORY`, and
polls the screen until the prompt appears; then again with a cache folder kept from run to run
(the story compiled by the first run, as a returning user has it: runner/story/compiled.py). The same is done for `python -c pass` (until its
marker appears) so the ratio shows what Katari adds to bare Python start-up. Target: the
first prompt within 0.5 s. tmux is installed with apt-get when missing.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.5


def ensure_tmux() -> str:
    tmux = shutil.which("tmux")
    if tmux:
        return tmux
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "tmux"],
        check=False,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    tmux = shutil.which("tmux")
    if not tmux:
        sys.exit("bench_startup: tmux is needed (apt-get install tmux)")
    return tmux


def time_to_screen(
    tmux: str, command: str, marker: str, env: dict[str, str], timeout: float = 20.0
) -> float:
    """Seconds from launching ``command`` in a new tmux window until ``marker`` is on screen."""
    name = f"katari-bench-{uuid.uuid4().hex[:8]}"
    exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    # The shell is started first and waits for a go signal, so tmux's own start-up is not timed.
    go = Path(tempfile.mkdtemp()) / "go"
    script = (
        f"while [ ! -e {shlex.quote(str(go))} ]; do sleep 0.005; done; cd {shlex.quote(str(ROOT))}; "
        f"env {exports} {command}; sleep 5"
    )
    subprocess.run(
        [tmux, "new-session", "-d", "-s", name, "-x", "100", "-y", "30", "sh", "-c", script],
        check=True,
    )
    try:
        time.sleep(0.2)
        t0 = time.perf_counter()
        go.touch()
        while True:
            screen = subprocess.run(
                [tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True
            ).stdout
            if marker in screen:
                return time.perf_counter() - t0
            if time.perf_counter() - t0 > timeout:
                raise RuntimeError(f"no {marker!r} on screen after {timeout}s:\n{screen}")
            time.sleep(0.005)
    finally:
        subprocess.run([tmux, "kill-session", "-t", name], stderr=subprocess.DEVNULL)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--story", default="ureg_window_room")
    args = ap.parse_args()
    tmux = ensure_tmux()
    py = shlex.quote(sys.executable)
    base = {
        "TERM": "xterm-256color",
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "PYTHONPATH": str(ROOT),
    }
    bare, play, again = [], [], []
    cmd = f"{py} -m runner play {shlex.quote(args.story)}"
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(args.runs):
            bare.append(time_to_screen(tmux, f"{py} -c \"print('READY')\"", "READY", base))
            with (
                tempfile.TemporaryDirectory() as home
            ):  # a new user: no saves, no history, no cache
                env = dict(base, KATARI_HOME=home, KATARI_CACHE=str(Path(home) / "cache"))
                play.append(time_to_screen(tmux, cmd, "▶", env))
            with (
                tempfile.TemporaryDirectory() as home
            ):  # no saves, the story compiled by an earlier run
                env = dict(base, KATARI_HOME=home, KATARI_CACHE=cache)
                again.append(time_to_screen(tmux, cmd, "▶", env))
    b, p, a = (
        statistics.median(bare),
        statistics.median(play),
        statistics.median(again[1:] or again),
    )
    print(
        f"python -c pass        : median {b * 1000:7.1f} ms  (runs: {', '.join(f'{x * 1000:.0f}' for x in bare)})"
    )
    print(
        f"katari play → prompt  : median {p * 1000:7.1f} ms  (runs: {', '.join(f'{x * 1000:.0f}' for x in play)})"
    )
    print(
        f"  the story compiled  : median {a * 1000:7.1f} ms  (runs after the first: "
        f"{', '.join(f'{x * 1000:.0f}' for x in again[1:])})"
    )
    print(f"ratio                 : {p / b:.1f}x bare Python")
    print(f"target {TARGET * 1000:.0f} ms        : {'met' if p <= TARGET else 'MISSED'}")
    return 0 if p <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
