"""`katari simulate STORY --runs N`: play many games automatically and report on the story."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many games automatically and report",
        description="Play N games through the engine with a simple policy and report the "
        "share of each ending, game length, nodes and actions never reached, "
        "places where games got stuck, and roll success rates. Game i uses "
        "seed S+i: the same seed gives the same report.",
    )
    p.add_argument("story", help="story file, folder, or shipped story id")
    p.add_argument(
        "--runs", "-n", type=int, default=100, metavar="N", help="games to play (default 100)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    p.add_argument(
        "--policy",
        choices=["random", "explorer", "greedy"],
        default="random",
        help="random: any valid action; explorer: actions not yet taken; "
        "greedy: actions leading to unvisited nodes",
    )
    p.add_argument(
        "--max-turns",
        type=int,
        default=500,
        metavar="T",
        help="turns after which a game counts as stuck in a loop (default 500)",
    )
    p.add_argument("--secrets", action="store_true", help="also try hidden actions (secret words)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="language of the text report (default: KATARI_LANG, else the story's language)",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="processes to play on (default: every core); the report is the same for any N",
    )
    p.add_argument(
        "--chunk",
        type=int,
        default=None,
        metavar="GAMES",
        help="games per chunk of seeds (default 250); the explorer and greedy policies "
        "remember what earlier games of the same chunk did",
    )
    p.add_argument(
        "--cluster",
        choices=["ray"],
        default=None,
        help="play the chunks on a Ray cluster (pip install 'katari[cluster]')",
    )
    p.add_argument(
        "--address",
        default=None,
        metavar="ADDR",
        help='the Ray cluster to join ("auto", "ray://host:10001"; default: start '
        "Ray on this machine)",
    )
    p.add_argument(
        "--fail-under",
        action="append",
        default=[],
        metavar="SPEC",
        help="exit 1 when coverage is below: PCT (nodes and actions) or "
        "nodes=PCT,actions=PCT,endings=PCT,lines=PCT",
    )
    p.add_argument(
        "--failures",
        metavar="DIR",
        default=None,
        help="write each stuck or errored game's commands to DIR/seed-N.txt, for "
        "`katari play STORY --replay-commands FILE`",
    )
    p.set_defaults(func=run)


COVERAGE = ("nodes", "actions", "endings", "lines")


def fail_under(specs: list[str]) -> dict[str, float] | str:
    """``["90", "lines=50"]`` -> {"nodes": 90, "actions": 90, "lines": 50}, or why not."""
    out: dict[str, float] = {}
    for spec in specs:
        for part in spec.split(","):
            part = part.strip()
            if not part:
                continue
            key, eq, num = part.partition("=")
            keys = [key.strip()] if eq else ["nodes", "actions"]
            if not eq:
                num = key
            try:
                pct = float(num)
            except ValueError:
                return f"--fail-under {spec!r}: a percentage, or nodes=PCT,actions=PCT,endings=PCT,lines=PCT"
            bad = [k for k in keys if k not in COVERAGE]
            if bad or not 0 <= pct <= 100:
                return f"--fail-under {spec!r}: a percentage (0-100) of {', '.join(COVERAGE)}"
            out.update(dict.fromkeys(keys, pct))
    return out


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
        sys.stderr.write(
            f"\r[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {rate:,.0f} games/s"
        )
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    import json

    from runner.authoring.parallel import cores
    from runner.authoring.simulate import CHUNK, format_report, simulate
    from runner.commands._common import open_story

    if args.runs < 1 or args.max_turns < 1:
        print("katari simulate: --runs and --max-turns must be at least 1", file=sys.stderr)
        return 2
    if (args.jobs is not None and args.jobs < 1) or (args.chunk is not None and args.chunk < 1):
        print("katari simulate: --jobs and --chunk must be at least 1", file=sys.stderr)
        return 2
    thresholds = fail_under(args.fail_under)
    if isinstance(thresholds, str):
        print(f"katari simulate: {thresholds}", file=sys.stderr)
        return 2
    story = open_story(args.story, "simulate")
    if story is None:
        return 1
    from runner.ui.i18n import played_lang

    args.lang = played_lang(args.lang, story.language)  # as play and test: the story's own
    jobs = args.jobs or cores()
    bar = _Bar(args.runs) if sys.stderr.isatty() and args.runs >= 200 else None
    try:
        rep = simulate(
            story,
            args.runs,
            seed=args.seed,
            policy=args.policy,
            max_turns=args.max_turns,
            secrets=args.secrets,
            progress=bar,
            jobs=jobs,
            chunk=args.chunk or CHUNK,
            cluster=args.cluster,
            address=args.address,
        )
    except RuntimeError as e:  # (Ray missing, or a cluster that cannot be reached)
        print(
            f"katari simulate: {str(e).splitlines()[0] if str(e) else type(e).__name__}",
            file=sys.stderr,
        )
        return 2
    if args.failures:
        problem = write_failures(args.failures, story, rep)
        if problem:
            print(f"katari simulate: {problem}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(rep.to_dict(), ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(
            format_report(rep, args.lang, story_arg=args.story, failures_dir=args.failures)
        )
        where = (
            f"{args.cluster} cluster"
            if args.cluster
            else f"{min(jobs, -(-args.runs // (args.chunk or CHUNK)))} job(s)"
        )
        if rep.elapsed > 0:
            print(
                f"{rep.runs / rep.elapsed:,.0f} games/s ({rep.elapsed:.2f} s, {where})",
                file=sys.stderr,
            )
    below = [
        f"{k} {rep.coverage[k]:.1f}% < {v:g}%" for k, v in thresholds.items() if rep.coverage[k] < v
    ]
    if below:
        print(f"katari simulate: coverage below --fail-under: {', '.join(below)}", file=sys.stderr)
        return 1
    return 0


def write_failures(folder: str, story, rep) -> str:  # noqa: ANN001
    """Each kept failure's commands as DIR/seed-N.txt; '' or why it could not."""
    from pathlib import Path

    d = Path(folder)
    try:
        d.mkdir(parents=True, exist_ok=True)
        for f in rep.failures:
            head = [
                f"# katari play {story.path} --replay-commands THIS_FILE",
                f"# {f['why']} at {f['node']} after {f['turns']} turns",
                f"# seed: {f['seed']}",
            ]
            if story.version:
                head.append(f"# story version: {story.version}")
            (d / f"seed-{f['seed']}.txt").write_text(
                "\n".join(head + f["commands"]) + "\n", encoding="utf-8"
            )
    except OSError as e:
        return f"cannot write {folder}: {e.strerror or e}"
    return ""
