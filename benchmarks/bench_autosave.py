"""What the autosave costs a command, at turn 10, 100, 1,000 and 10,000.

    python3 benchmarks/bench_autosave.py [--turns 10000] [--dir FOLDER] [--json]

A deep-sea game (its real State, about 2.3 KB of JSON, after a few commands) grows one
command at a time; after each one the console's autosave runs as in play:

- ``journal`` (what Katari does): ``files.AutoSaver.save`` appends one checksummed, fsynced
  line, and folds the journal into the save when it outgrows it. Figures at each turn N: the
  median of the 50 commands around N (a plain append), and over commands N/2..N the mean
  (folds included: what a command costs in the long run), its CPU time (what Katari does,
  without waiting for the disk) and the slowest (a fold).
- ``whole`` (before): ``files.write_save`` writes the whole undo timeline and fsyncs it,
  every command; timed on a few commands at each turn.

Files go to ``--dir`` (default: a temporary folder beside this script, on the disk the
saves live on; a tmpfs /tmp would make fsync free and the figures meaningless).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runner.engine import new_game, step  # noqa: E402
from runner.stories import resolve  # noqa: E402
from runner.story import load  # noqa: E402
from runner.ui import files  # noqa: E402

CHECKPOINTS = (10, 100, 1_000, 10_000)
WINDOW = 50


def opening(story):
    st, _ = new_game(story, 7)
    for cmd in ("1", "部屋を調べる", "目星"):
        st, _ = step(story, st, cmd)
    return st


def grow(tl: files.Timeline, base, n: int) -> None:
    """Plays ``n`` more commands: each a new State (as step() makes them), the clock moving."""
    for _ in range(n):
        st = tl.state.copy()
        st.turn += 1
        st.clock += 1
        tl.push(files.Entry("時計を見る"), st)


def journal_run(story, base, folder: Path, turns: int) -> tuple[dict[int, dict], int, int]:
    tl = files.Timeline(story.id, 7, [base])
    saver = files.AutoSaver(folder / "journal.json")
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(turns):
        grow(tl, base, 1)
        t0, c0 = time.perf_counter(), time.process_time()
        saver.save(story, tl)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    out = {}
    for n in CHECKPOINTS:
        if n > turns:
            continue
        w = times[max(0, n - 1 - WINDOW // 2) : min(turns, n + WINDOW // 2)]
        run = times[n // 2 : n]  # the second half of the game so far: its folds included
        out[n] = {
            "median_ms": statistics.median(w) * 1e3,
            "mean_ms": statistics.fmean(run) * 1e3,
            "max_ms": max(run) * 1e3,
            "cpu_ms": statistics.fmean(cpu[n // 2 : n]) * 1e3,
        }
    size = (folder / "journal.json").stat().st_size
    jp = files.journal_path(folder / "journal.json")
    return out, size, jp.stat().st_size if jp.exists() else 0


def whole_run(story, base, folder: Path, turns: int) -> dict[int, dict]:
    tl = files.Timeline(story.id, 7, [base])
    out = {}
    path = folder / "whole.json"
    for n in CHECKPOINTS:
        if n > turns:
            continue
        grow(tl, base, n - tl.pos)
        k = 3 if n >= 10_000 else 10
        times, cpu = [], []
        for _ in range(k):
            grow(tl, base, 1)
            t0, c0 = time.perf_counter(), time.process_time()
            files.write_save(path, story, tl)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        tl.undo(k)
        del tl.states[tl.pos + 1 :]
        del tl.log[tl.pos :]
        del tl.events[tl.pos + 1 :]
        out[n] = {
            "median_ms": statistics.median(times) * 1e3,
            "cpu_ms": statistics.median(cpu) * 1e3,
            "size": path.stat().st_size,
        }
    return out


def fsync_ms(folder: Path, n: int = 30) -> float:
    """The disk's own price: appending 3 KB to a file and fsyncing it (median ms)."""
    import os

    p = folder / "fsync.bin"
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    times = []
    try:
        for _ in range(n):
            t0 = time.perf_counter()
            os.write(fd, b"x" * 3000)
            os.fsync(fd)
            times.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
    return statistics.median(times) * 1e3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=10_000)
    ap.add_argument("--dir", type=Path, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    story = load(resolve("deep_sea_atelier"))
    base = opening(story)
    parent = args.dir or Path(__file__).resolve().parent
    folder = Path(tempfile.mkdtemp(prefix=".bench-autosave-", dir=parent))
    try:
        disk = fsync_ms(folder)
        journal, size, jsize = journal_run(story, base, folder, args.turns)
        whole = whole_run(story, base, folder, args.turns)
        disk = (disk + fsync_ms(folder)) / 2
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    state_bytes = len(json.dumps(base.to_dict(), ensure_ascii=False).encode())
    if args.json:
        print(
            json.dumps(
                {
                    "state_bytes": state_bytes,
                    "fsync_ms": disk,
                    "journal": journal,
                    "whole": whole,
                    "save_bytes": size,
                    "journal_bytes": jsize,
                },
                indent=1,
            )
        )
        return 0
    print(
        f"deep-sea State: {state_bytes:,} bytes of JSON; after {args.turns:,} commands the save is "
        f"{size / 1e6:.1f} MB and its journal {jsize / 1e6:.2f} MB; appending 3 KB and fsyncing it costs "
        f"{disk:.2f} ms on this disk"
    )
    print(
        "| turn | journal: median | mean, folds included | its CPU | slowest (a fold) "
        "| whole file every command | its CPU | its size |"
    )
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in CHECKPOINTS:
        if n not in journal:
            continue
        j, w = journal[n], whole[n]
        print(
            f"| {n:,} | {j['median_ms']:.1f} ms | {j['mean_ms']:.1f} ms | {j['cpu_ms']:.2f} ms "
            f"| {j['max_ms']:,.0f} ms | {w['median_ms']:,.0f} ms | {w['cpu_ms']:,.0f} ms "
            f"| {w['size'] / 1e6:.2f} MB |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
