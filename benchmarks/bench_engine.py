"""Engine speed: `katari check` and random play on ring stories, beside inkjs in the same run.

    python benchmarks/bench_engine.py [--sizes 1000,10000,100000] [--steps 20000] [--no-ink]

For each size it writes the ring story (benchmarks/ring.py) as Katari YAML and as ink,
times `katari check` as a user runs it (a fresh process, start-up included), and plays
random actions through the engine in-process the way inkjs's benchmark plays choices
(the same linear-congruential picks, restart at the end). Where node and npm are present,
inkjs is installed into benchmarks/out/ink and run on the ink twin. Also times loading and
checking each shipped story. Prints a table with the ratios.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from ring import ring_story_ink, ring_story_yaml  # noqa: E402

from runner.engine import available, new_game, step  # noqa: E402
from runner.story import StoryError, load  # noqa: E402

OUT = HERE / "out"


def time_check(path: Path) -> float:
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", "-q", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    dt = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"check failed on {path}: {r.stdout[:500]}")
    return dt


def random_play(path: Path, steps: int) -> float:
    story = load(path)
    rnd = 12345

    def rand() -> float:
        nonlocal rnd
        rnd = (rnd * 1103515245 + 12345) % 2147483648
        return rnd / 2147483648

    state, _ = new_game(story, 1)
    done = 0
    t = time.perf_counter()
    while done < steps:
        choices = available(story, state)
        if not choices:
            state, _ = new_game(story, 1)
            continue
        state, _events = step(story, state, choices[int(rand() * len(choices))], tail_events=False)
        done += 1
    return steps / (time.perf_counter() - t)


def ink_ready(no_ink: bool) -> Path | None:
    if no_ink or not shutil.which("node") or not shutil.which("npm"):
        return None
    d = OUT / "ink"
    if not (d / "node_modules" / "inkjs").exists():
        d.mkdir(parents=True, exist_ok=True)
        r = subprocess.run(
            ["npm", "install", "--silent", "--prefix", str(d), "inkjs"],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            print(f"(inkjs not installed: {r.stderr.strip()[:200]})")
            return None
    shutil.copy(HERE / "ink" / "bench.js", d / "bench.js")
    return d


def run_ink(d: Path, ink: Path, steps: int) -> dict | None:
    r = subprocess.run(
        ["node", "--max-old-space-size=12000", str(d / "bench.js"), str(ink), str(steps)],
        cwd=d,
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        print(f"(inkjs failed: {r.stderr.strip()[:200]})")
        return None
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--steps", type=int, default=20000)
    ap.add_argument("--no-ink", action="store_true")
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    ink_dir = ink_ready(args.no_ink)

    print("shipped stories (load + check, in-process):")
    for p in sorted((ROOT / "stories").iterdir()):
        if p.is_dir():
            t = time.perf_counter()
            try:
                s = load(p)
            except StoryError as e:
                print(f"  {p.name:<24} has errors: {e}")
                continue
            print(
                f"  {p.name:<24} {len(s.nodes):>5} nodes  {1000 * (time.perf_counter() - t):7.1f} ms"
            )

    rows = []
    for n in [int(x) for x in args.sizes.split(",")]:
        y = OUT / f"ring{n}.yaml"
        y.write_text(ring_story_yaml(n), encoding="utf-8")
        check_s = time_check(y)
        sps = random_play(y, args.steps)
        row = {"nodes": n, "katari_check_s": round(check_s, 2), "katari_steps_per_s": round(sps)}
        if ink_dir is not None:
            ink = OUT / f"ring{n}.ink"
            ink.write_text(ring_story_ink(n), encoding="utf-8")
            res = run_ink(ink_dir, ink, args.steps)
            if res:
                row["ink_compile_s"] = round(res["compile_s"], 2)
                row["ink_steps_per_s"] = res["steps_per_s"]
                row["check_speedup"] = round(res["compile_s"] / check_s, 1)
                row["play_ratio"] = round(sps / res["steps_per_s"], 2)
        rows.append(row)
        print(json.dumps(row))
    if len(rows) > 1:
        for a, b in zip(rows, rows[1:], strict=False):
            print(
                f"check time x{b['nodes'] // a['nodes']} nodes: x{b['katari_check_s'] / a['katari_check_s']:.1f} time"
            )


if __name__ == "__main__":
    main()
