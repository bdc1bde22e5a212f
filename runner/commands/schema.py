"""`katari schema`: the JSON Schema of story files (or play-test files), for editors."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of story files (for editors)",
        description="Print the JSON Schema (draft 2020-12) of Katari story files, so an "
        "editor can complete keys and flag mistakes as you type "
        "(see docs/editor.md).",
    )
    p.add_argument(
        "--tests", action="store_true", help="the schema of play-test files (tests/*.yaml) instead"
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from runner.story.schema import dumps, playtest_schema, story_schema

    text = dumps(playtest_schema() if args.tests else story_schema())
    if args.output:
        from runner.ui.files import atomic_write  # (a regular file or a new one, never a device)

        out = Path(args.output)
        try:
            atomic_write(out, text.encode("utf-8"))
        except OSError as e:
            print(f"katari schema: cannot write {out}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"katari schema: wrote {out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
