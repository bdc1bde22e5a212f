"""Full games per second through the engine: each shipped story and a synthetic ring.

    python3 benchmarks/bench_simulate.py [--seconds 2] [--repeats 3] [--ring 10000] [--json]

For each story: ``simulate`` (the author's tool, random policy: report included) and a bare
loop (``new_game`` + ``available`` + ``step(tail_events=False)``), games/s and steps/s, on
one core, the best of ``--repeats`` runs. The target is 1,000 full games per second on the
deep-sea story.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ring import ring_story_yaml  # noqa: E402

from runner.authoring.simulate import simulate  # noqa: E402
from runner.engine import available, new_game, step  # noqa: E402
from runner.stories import shipped  # noqa: E402
from runner.story import Story, load  # noqa: E402

TARGET_STORY = "deep_sea_atelier"
TARGET_GAMES_PER_S = 1000
MAX_TURNS = 500


def bare_games(story: Story, games: int, seed: int = 0) -> int:
    """Plays ``games`` random games; returns the number of steps taken."""
    steps = 0
    for i in range(games):
        rnd = random.Random(seed + i).random
        st, _ = new_game(story, seed + i)
        while st.ending is None and st.turn < MAX_TURNS:
            ch = [c for c in available(story, st) if c.n]
            if not ch:
                break
            st, _ = step(story, st, ch[int(rnd() * len(ch))], tail_events=False)
            steps += 1
    return steps


def measure(name: str, story: Story, seconds: float, repeats: int = 3) -> dict:
    # Size the run from a short warm-up so every story takes about `seconds`; keep the best of
    # `repeats` runs (other work on the machine only ever slows a run down).
    t = time.perf_counter()
    bare_games(story, 20)
    per_game = max(1e-6, (time.perf_counter() - t) / 20)
    games = max(50, int(seconds / per_game))
    bare_s = sim_s = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        steps = bare_games(story, games, seed=1000)
        bare_s = min(bare_s, time.perf_counter() - t)
        t = time.perf_counter()
        rep = simulate(story, games, seed=1000, max_turns=MAX_TURNS)
        sim_s = min(sim_s, time.perf_counter() - t)
    return {
        "story": name,
        "nodes": len(story.nodes),
        "games": games,
        "turns_mean": rep.turns["mean"],
        "bare_games_per_s": round(games / bare_s),
        "bare_steps_per_s": round(steps / bare_s),
        "simulate_games_per_s": round(games / sim_s),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--repeats", type=int, default=3, help="runs per measurement; the best is kept")
    ap.add_argument("--ring", type=int, default=10_000, help="nodes in the ring story (0: skip)")
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    args = ap.parse_args(argv)

    rows = []
    for path in shipped():
        story = load(path)
        rows.append(measure(story.id, story, args.seconds, args.repeats))
    if args.ring:
        with tempfile.TemporaryDirectory() as tmp:
            f = Path(tmp) / "ring.yaml"
            f.write_text(ring_story_yaml(args.ring), encoding="utf-8")
            t = time.perf_counter()
            story = load(f)
            load_s = time.perf_counter() - t
        row = measure(f"ring{args.ring}", story, args.seconds, args.repeats)
        row["load_s"] = round(load_s, 2)
        rows.append(row)

    verdict = 0
    for r in rows:
        if r["story"] == TARGET_STORY:
            r["target_games_per_s"] = TARGET_GAMES_PER_S
            r["meets_target"] = r["bare_games_per_s"] >= TARGET_GAMES_PER_S
            verdict = 0 if r["meets_target"] else 1
    if args.json:
        for r in rows:
            print(json.dumps(r))
    else:
        print(
            f"{'story':<22} {'nodes':>6} {'turns':>6} {'games/s':>9} {'steps/s':>9} {'simulate':>9}"
        )
        for r in rows:
            mark = ""
            if "meets_target" in r:
                mark = (
                    "  ok (target 1,000)"
                    if r["meets_target"]
                    else "  BELOW the 1,000 games/s target"
                )
            extra = f"  (load {r['load_s']} s)" if "load_s" in r else ""
            print(
                f"{r['story']:<22} {r['nodes']:>6} {r['turns_mean']:>6} {r['bare_games_per_s']:>9,} "
                f"{r['bare_steps_per_s']:>9,} {r['simulate_games_per_s']:>9,}{mark}{extra}"
            )
        if not any(r["story"] == TARGET_STORY for r in rows):
            print(f"({TARGET_STORY} is not in stories/ yet: no target to check)")
    return verdict


if __name__ == "__main__":
    sys.exit(main())
