"""`katari sweep STORY --set OPTION=a,b,c --runs N`: endings per value of a story option."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "sweep",
        help="simulate under each value of story options and tabulate the endings",
        description="Play the same N games (seeds S..S+N-1) under every value of each "
        "--set story option (every combination when several are given) and "
        "print the share of each ending per setting.",
    )
    p.add_argument("story", help="story file, folder, or shipped story id")
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="OPTION=A,B,C",
        help="a story option (a key of story.options, or a dotted path into one) and the "
        "values to try; repeat for a grid",
    )
    p.add_argument(
        "--runs", "-n", type=int, default=200, metavar="N", help="games per setting (default 200)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="first seed (default 0)")
    p.add_argument("--policy", choices=["random", "explorer", "greedy"], default="random")
    p.add_argument("--max-turns", type=int, default=500, metavar="T")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help="processes to play on (default: every core)",
    )
    p.add_argument("--cluster", choices=["ray"], default=None, help="play on a Ray cluster")
    p.add_argument("--address", default=None, metavar="ADDR", help="the Ray cluster to join")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="language of the table (default: KATARI_LANG, else the story's language)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from runner.authoring.parallel import cores
    from runner.authoring.sweep import SweepError, format_table, parse_sets, sweep
    from runner.commands._common import open_story

    if args.runs < 1 or args.max_turns < 1 or (args.jobs is not None and args.jobs < 1):
        print("katari sweep: --runs, --max-turns and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        sets = parse_sets(args.sets)
    except SweepError as e:
        print(f"katari sweep: {e}", file=sys.stderr)
        return 2
    story = open_story(args.story, "sweep")
    if story is None:
        return 1
    from runner.ui.i18n import played_lang

    args.lang = played_lang(args.lang, story.language)  # as play and test: the story's own
    try:
        res = sweep(
            story,
            sets,
            args.runs,
            seed=args.seed,
            policy=args.policy,
            max_turns=args.max_turns,
            jobs=args.jobs or cores(),
            cluster=args.cluster,
            address=args.address,
        )
    except SweepError as e:
        print(f"katari sweep: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(
            f"katari sweep: {str(e).splitlines()[0] if str(e) else type(e).__name__}",
            file=sys.stderr,
        )
        return 2
    if args.json:
        print(json.dumps(res, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(format_table(res, args.lang))
    return 0
