"""`katari check PATH...`: validate stories; every problem as path:line:col: message."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check stories for errors",
                       description="Check story files or folders. Prints every problem as "
                                   "path:line:column: message; exits 1 if there is any error.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="story file, story folder, or shipped story id")
    p.add_argument("--json", action="store_true", help="print diagnostics as JSON lines")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.stories import resolve
    from runner.story import check

    bad = 0
    for raw in args.paths:
        path = resolve(raw)
        story, diags = check(path)
        for d in diags:
            if args.json:
                print(json.dumps(d.to_dict(), ensure_ascii=False))
            else:
                print(d, file=sys.stdout)
        errors = [d for d in diags if d.severity == "error"]
        if errors:
            bad += 1
            if not args.json:
                print(f"{path}: {len(errors)} error(s)", file=sys.stderr)
        elif not args.quiet and not args.json and story is not None:
            print(f"{path}: ok ({len(story.nodes)} nodes, {len(story.endings)} endings, rules {story.rules})")
    return 1 if bad else 0
