"""`katari new NAME`: write a small, commented story folder to start from."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "new",
        help="start a new story from a small template",
        description="Write NAME/story.yaml (a small, valid, commented story) and "
        "NAME/tests/smoke.yaml (its play-tests).",
    )
    p.add_argument(
        "name",
        help="the folder to create (e.g. my_story or stories/my_story); its last part "
        "is the story id (letters, digits, _ and -)",
    )
    p.add_argument(
        "--rules",
        default="none",
        metavar="RULES",
        help="rule system of the template (default none; `katari rules` lists the "
        "installed ones, each may bring a template)",
    )
    p.add_argument(
        "--dir", default=".", metavar="DIR", help="where to create the folder (default: here)"
    )
    p.add_argument("--title", default="", help="the story's title")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="language of the story written (default: $KATARI_LANG, else ja)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.authoring.scaffold import ScaffoldError, new_story
    from runner.ui.i18n import default_lang

    try:
        folder = new_story(
            args.name,
            rules=args.rules,
            parent=args.dir,
            title=args.title,
            lang=args.lang or default_lang(),
        )
    except (ScaffoldError, OSError) as e:
        print(f"katari new: {e}", file=sys.stderr)
        return 1
    print(f"created {folder}/story.yaml and {folder}/tests/smoke.yaml")
    print(f"next: katari check {folder} && katari test {folder} && katari play {folder}")
    return 0
