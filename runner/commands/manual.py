"""``katari manual MODULE``: prints a bomb module's manual (the expert's side of the game)."""

from __future__ import annotations

import argparse
import sys

MANUALS = {"dungeon_2f": ("runner.rules.ktane", "manual_{lang}.md")}
"""Module name -> (package holding the manual, file name pattern)."""
ALIASES = {"dungeon": "dungeon_2f", "dungeon2f": "dungeon_2f", "ダンジョン・2f": "dungeon_2f",
           "ダンジョン2f": "dungeon_2f", "ダンジョン": "dungeon_2f"}


def manual_text(name: str, lang: str = "ja") -> str:
    """The manual of ``name`` in ``lang`` (``ja`` or ``en``); KeyError for an unknown module."""
    from importlib import resources

    key = ALIASES.get(name.lower(), name.lower())
    package, pattern = MANUALS[key]
    return resources.files(package).joinpath(pattern.format(lang=lang)).read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    if not args.module:
        for name in MANUALS:
            sys.stdout.write(name + "\n")
        return 0
    try:
        text = manual_text(args.module, args.lang)
    except KeyError:
        msg = (f"katari manual: 「{args.module}」のマニュアルはありません（あるもの: {', '.join(MANUALS)}）"
               if args.lang == "ja" else
               f"katari manual: no manual for {args.module!r} (known: {', '.join(MANUALS)})")
        sys.stderr.write(msg + "\n")
        return 2
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "manual", help="print a bomb module's manual (katari manual dungeon_2f)",
        description="Prints the manual that the expert reads while the player defuses.")
    p.add_argument("module", nargs="?", help="module name, e.g. dungeon_2f; none: list them")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language (default ja)")
    p.set_defaults(func=run)
