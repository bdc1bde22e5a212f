"""Start-up: from `katari play` to its first prompt on screen, as a player sees it.

    python benchmarks/bench_startup.py [--runs 5] [--story ureg_window_room] [--base OLD_CHECKOUT]

Each run starts ``python -m runner play STORY`` on a new pseudo-terminal (a real terminal:
prompt_toolkit draws its prompt and status bar there) with an empty KATARI_HOME and reads
the screen until the prompt (``▶``) appears; then it sends end-of-input and takes the
process's CPU time (``wait4``: start-up, the first prompt and a quick exit). Two starts:

- ``new``: a new user: no saves, no history, no compiled story;
- ``again``: a returning user: the story compiled by an earlier run (runner/story/compiled.py).

``python -c pass`` is measured the same way, so the figures show what Katari adds to bare
Python. With ``--base`` the same runs are made in another checkout (the code before a
change), interleaved run by run, and the ratios printed: on a shared machine wall time
measures the neighbours as much as Katari, CPU time much less. Both checkouts' modules are
byte-compiled first, as an installed wheel's are. Target: the first prompt within 250 ms.
"""

from __future__ import annotations

import argparse
import compileall
import os
import pty
import select
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.25


def one(tree: Path, argv: list[str], marker: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(seconds until ``marker`` is on screen, CPU seconds of the whole process)."""
    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the new terminal
        try:
            os.chdir(tree)
            os.execve(sys.executable, [sys.executable, *argv], env)
        finally:
            os._exit(127)
    buf, wall = b"", None
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], 30)
            if not ready:
                break
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if wall is None and marker in buf:
                wall = time.perf_counter() - t0
                os.write(fd, b"\x04\x04")  # end of input: the console says goodbye and exits
    finally:
        _, _, ru = os.wait4(pid, 0)
        os.close(fd)
    if wall is None:
        raise SystemExit(f"bench_startup: no {marker!r} on screen:\n{buf[-2000:]!r}")
    return wall, ru.ru_utime + ru.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--story", default="ureg_window_room")
    ap.add_argument("--base", type=Path, help="another checkout to compare with (the code before)")
    args = ap.parse_args(argv)
    trees = {"this": ROOT}
    if args.base:
        trees["base"] = args.base.resolve()
    for tree in trees.values():
        compileall.compile_dir(str(tree / "runner"), quiet=1)
    env0 = {
        **os.environ,
        "TERM": "xterm-256color",
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "COLUMNS": "100",
        "LINES": "30",
    }
    play = ["-m", "runner", "play", args.story]
    bare = ["-c", "print('READY')"]
    res: dict[str, dict[str, list[tuple[float, float]]]] = {
        name: {"new": [], "again": []} for name in trees
    }
    res["python"] = {"bare": []}
    with tempfile.TemporaryDirectory() as tmp:
        caches = {name: Path(tmp) / f"cache-{name}" for name in trees}
        for name, tree in trees.items():  # the returning user's compiled story
            with tempfile.TemporaryDirectory() as home:
                env = dict(env0, PYTHONPATH=str(tree), KATARI_HOME=home)
                one(tree, play, "▶".encode(), dict(env, KATARI_CACHE=str(caches[name])))
        for _ in range(args.runs):
            res["python"]["bare"].append(one(ROOT, bare, b"READY", env0))
            for name, tree in trees.items():  # interleaved: a busy moment hurts both alike
                for start in ("new", "again"):
                    with tempfile.TemporaryDirectory() as home:
                        cache = str(Path(home) / "cache") if start == "new" else str(caches[name])
                        env = dict(env0, PYTHONPATH=str(tree), KATARI_HOME=home, KATARI_CACHE=cache)
                        res[name][start].append(one(tree, play, "▶".encode(), env))

    def med(xs: list[tuple[float, float]], i: int) -> float:
        return statistics.median(x[i] for x in xs)

    for name, starts in res.items():
        for start, xs in starts.items():
            print(
                f"{name:>6} {start:>5}: wall median {med(xs, 0) * 1000:6.0f} ms, "
                f"CPU median {med(xs, 1) * 1000:6.0f} ms  "
                f"(CPU runs: {', '.join(f'{x[1] * 1000:.0f}' for x in xs)})"
            )
    if args.base:
        for start in ("new", "again"):
            w = med(res["this"][start], 0) / med(res["base"][start], 0)
            c = med(res["this"][start], 1) / med(res["base"][start], 1)
            print(f"this/base, {start:>5}: wall x{w:.2f}, CPU x{c:.2f}")
    p = med(res["this"]["again"], 0)
    print(
        f"target {TARGET * 1000:.0f} ms (wall, returning user): {'met' if p <= TARGET else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
