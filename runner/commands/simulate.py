"""`katari simulate STORY --runs N`: play many games automatically and report on the story."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="play many games automatically and report",
                       description="Play N games through the engine with a simple policy and report the "
                                   "share of each ending, game length, nodes and actions never reached, "
                                   "places where games got stuck, and roll success rates. Game i uses "
                                   "seed S+i: the same seed gives the same report.")
    p.add_argument("story", help="story file, folder, or shipped story id")
    p.add_argument("--runs", "-n", type=int, default=100, metavar="N", help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    p.add_argument("--policy", choices=["random", "explorer", "greedy"], default="random",
                   help="random: any valid action; explorer: actions not yet taken; "
                        "greedy: actions leading to unvisited nodes")
    p.add_argument("--max-turns", type=int, default=500, metavar="T",
                   help="turns after which a game counts as stuck in a loop (default 500)")
    p.add_argument("--secrets", action="store_true", help="also try hidden actions (secret words)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--lang", choices=["ja", "en"], default="ja", help="language of the text report")
    p.set_defaults(func=run)


class _Bar:
    """A progress bar on stderr, redrawn at most a hundred times."""

    def __init__(self, total: int) -> None:
        import time

        self.total = total
        self.step = max(1, total // 100)
        self.t0 = time.perf_counter()
        self.clock = time.perf_counter

    def __call__(self, done: int, total: int) -> None:
        if done % self.step and done != total:
            return
        frac = done / total
        width = 30
        fill = int(frac * width)
        rate = done / max(1e-9, self.clock() - self.t0)
        sys.stderr.write(f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {rate:,.0f} games/s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    import json

    from runner.authoring.simulate import format_report, simulate
    from runner.commands._common import open_story

    if args.runs < 1 or args.max_turns < 1:
        print("katari simulate: --runs and --max-turns must be at least 1", file=sys.stderr)
        return 2
    story = open_story(args.story, 'simulate')
    if story is None:
        return 1
    bar = _Bar(args.runs) if sys.stderr.isatty() and args.runs >= 200 else None
    rep = simulate(story, args.runs, seed=args.seed, policy=args.policy, max_turns=args.max_turns,
                   secrets=args.secrets, progress=bar)
    if args.json:
        print(json.dumps(rep.to_dict(), ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(format_report(rep, args.lang))
    return 0
