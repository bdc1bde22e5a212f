"""How `katari simulate` scales: games/s on 1 process, 2, every core, and on a local Ray.

    python3 benchmarks/bench_scale.py [--story deep_sea_atelier] [--runs 4000] [--repeats 2] [--json]

Each measurement plays the same seeds (the report is the same for any number of jobs: this
script checks that too) and keeps the best of ``--repeats`` runs. Ray is measured after
``ray.init`` (its start-up, several seconds, is reported apart), so the figure is what a
long sweep sees. The load average is printed with the figures: on a shared machine other
work takes cores from the run, and the speed-up with it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runner.authoring.parallel import cores  # noqa: E402
from runner.authoring.simulate import simulate  # noqa: E402
from runner.stories import resolve  # noqa: E402
from runner.story import load  # noqa: E402


def measure(story, runs: int, repeats: int, **kw) -> tuple[float, dict]:  # noqa: ANN001
    best = float("inf")
    rep = None
    for _ in range(repeats):
        t = time.perf_counter()
        rep = simulate(story, runs, seed=1000, **kw)
        best = min(best, time.perf_counter() - t)
    assert rep is not None
    return runs / best, rep.to_dict(timing=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--story", default="deep_sea_atelier")
    ap.add_argument("--runs", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray measurement")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    story = load(resolve(args.story))
    n = cores()
    rows = []
    reference = None
    for jobs in sorted({1, 2, n}):
        load_before = os.getloadavg()[0]
        rate, rep = measure(story, args.runs, args.repeats, jobs=jobs)
        reference = reference or rep
        rows.append(
            {
                "where": f"{jobs} process{'es' * (jobs > 1)}",
                "jobs": jobs,
                "games_per_s": round(rate),
                "same_report": rep == reference,
                "load_before": round(load_before, 2),
            }
        )
    ray_note = ""
    if not args.no_ray:
        try:
            import ray
        except ImportError:
            ray_note = "ray not installed (pip install 'katari[cluster]')"
        else:
            t = time.perf_counter()
            ray.init(
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
                configure_logging=False,
            )
            start_s = time.perf_counter() - t
            try:
                load_before = os.getloadavg()[0]
                measure(
                    story, min(args.runs, 500), 1, cluster="ray"
                )  # workers warm: the story loaded
                rate, rep = measure(story, args.runs, args.repeats, cluster="ray")
                rows.append(
                    {
                        "where": f"ray local ({int(ray.cluster_resources().get('CPU', 0))} CPUs)",
                        "jobs": None,
                        "games_per_s": round(rate),
                        "same_report": rep == reference,
                        "load_before": round(load_before, 2),
                        "ray_start_s": round(start_s, 1),
                    }
                )
            finally:
                ray.shutdown()
    base = rows[0]["games_per_s"]
    for r in rows:
        r["speedup"] = round(r["games_per_s"] / base, 2)
    if args.json:
        for r in rows:
            print(json.dumps({"story": args.story, "runs": args.runs, "cores": n, **r}))
        return 0
    print(
        f"{args.story}: {args.runs} games, best of {args.repeats}; {n} cores; "
        f"load average now {os.getloadavg()[0]:.2f}"
    )
    print(f"{'where':<24} {'games/s':>9} {'speed-up':>9} {'same report':>12} {'load before':>12}")
    for r in rows:
        extra = f"  (ray.init {r['ray_start_s']} s, not counted)" if "ray_start_s" in r else ""
        print(
            f"{r['where']:<24} {r['games_per_s']:>9,} {r['speedup']:>8}x {str(r['same_report']):>12} "
            f"{r['load_before']:>12}{extra}"
        )
    if ray_note:
        print(ray_note)
    return 0 if all(r["same_report"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
