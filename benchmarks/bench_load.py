"""Loading a story for play: CPU time and peak memory, from YAML and from the compiled cache.

    python benchmarks/bench_load.py [--sizes 1000,100000] [--repeats 3] [--base PATH] [--json]

For each size the ring story (benchmarks/ring.py) is written to a temporary folder and loaded
by ``runner.story.load`` in fresh processes, each with its own empty cache folder:

- ``yaml``: the first load (no compiled form yet: the YAML is read and checked). The compiled
  form is written after the timed load, as a command's exit would write it (``flush()``: by
  the process for a small story, by a child process for a large one, whose CPU time is shown
  apart as ``writer``);
- ``cached``: the next load of the unchanged story (the compiled form is read).

CPU time is ``time.process_time()`` around the load (the machine may be shared: wall time
would measure the neighbours); peak memory is the process's ``ru_maxrss``. The best of
``--repeats`` is kept. With ``--base`` the same runs are made, interleaved, in another
checkout of Katari (the code before a change), and the ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from ring import ring_story_yaml  # noqa: E402

CODE = """
import json, resource, sys, time
t = time.process_time()
from runner.story import load
story = load(sys.argv[1])
cpu = time.process_time() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
try:  # a large story's compiled form is written by a child process: wait for it, count it apart
    from runner.story.compiled import flush
    flush()
except ImportError:
    pass
ch = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": cpu, "rss_mb": rss, "nodes": len(story.nodes),
                  "writer_cpu": ch.ru_utime + ch.ru_stime}))
"""


def run(tree: Path, story: Path, cache: Path) -> dict:
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "KATARI_CACHE": str(cache),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    out = subprocess.run(
        [sys.executable, "-c", CODE, str(story)], cwd=tree, env=env, capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(f"bench_load: loading in {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(trees: dict[str, Path], story: Path, repeats: int) -> dict[str, dict[str, dict]]:
    best: dict[str, dict[str, dict]] = {name: {} for name in trees}
    for _ in range(repeats):
        for name, tree in trees.items():  # interleaved: a busy moment hurts both alike
            with tempfile.TemporaryDirectory() as cache:
                for phase in ("yaml", "cached"):
                    r = run(tree, story, Path(cache))
                    old = best[name].get(phase)
                    if old is None or r["cpu"] < old["cpu"]:
                        best[name][phase] = {
                            **r,
                            "rss_mb": min(r["rss_mb"], old["rss_mb"]) if old else r["rss_mb"],
                        }
                    elif r["rss_mb"] < old["rss_mb"]:
                        old["rss_mb"] = r["rss_mb"]
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,100000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--base", type=Path, help="another checkout of Katari to compare with (the code before)"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    trees = {"this": ROOT}
    if args.base:
        trees["base"] = args.base.resolve()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in map(int, args.sizes.split(",")):
            story = Path(tmp) / f"ring{n}.yaml"
            story.write_text(ring_story_yaml(n), encoding="utf-8")
            best = measure(trees, story, args.repeats)
            row: dict = {
                "nodes": n,
                **{f"{name}_{phase}": r for name, by in best.items() for phase, r in by.items()},
            }
            if args.base:
                b = best["base"]["cached"]
                t = best["this"]["cached"]
                row["cpu_ratio"] = round(t["cpu"] / b["cpu"], 3)
                row["rss_ratio"] = round(t["rss_mb"] / b["rss_mb"], 3)
                row["first_load_cpu_ratio"] = round(
                    best["this"]["yaml"]["cpu"] / best["base"]["yaml"]["cpu"], 3
                )
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for row in rows:
        print(f"{row['nodes']:>7} nodes")
        for name in trees:
            for phase in ("yaml", "cached"):
                r = row[f"{name}_{phase}"]
                w = f"  (writer: {r['writer_cpu']:.3f} s CPU)" if r.get("writer_cpu") else ""
                print(
                    f"  {name:>4} {phase:>6}: {r['cpu']:7.3f} s CPU  {r['rss_mb']:7.0f} MB peak{w}"
                )
        if args.base:
            print(
                f"  this/base, an unchanged story: CPU x{row['cpu_ratio']}, peak memory x{row['rss_ratio']}; "
                f"first load CPU x{row['first_load_cpu_ratio']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
