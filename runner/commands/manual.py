"""``katari manual NAME``: prints a manual a rule system ships (a bomb module's expert manual:
the other side of the game)."""

from __future__ import annotations

import argparse
import sys


def manuals() -> dict:
    """Every manual the installed rule systems declare (RuleSystem.manuals), by name."""
    from runner.rules import installed

    out: dict = {}
    for rs in installed():
        for name, m in rs.manuals.items():
            out.setdefault(name, m)
    return out


def manual_text(name: str, lang: str = "ja") -> str:
    """The manual of ``name`` (or an alias) in ``lang`` (``ja`` or ``en``); KeyError for an
    unknown one."""
    from importlib import resources

    known = manuals()
    key = name.lower()
    if key not in known:
        key = next((n for n, m in known.items() if key in (a.lower() for a in m.aliases)), key)
    m = known[key]
    return (
        resources.files(m.package).joinpath(m.pattern.format(lang=lang)).read_text(encoding="utf-8")
    )


def run(args: argparse.Namespace) -> int:
    from runner.ui.i18n import default_lang

    args.lang = args.lang or default_lang()
    known = manuals()
    if not args.module:
        for name in known:
            sys.stdout.write(name + "\n")
        return 0
    try:
        text = manual_text(args.module, args.lang)
    except KeyError:
        msg = (
            f"katari manual: 「{args.module}」のマニュアルはありません（あるもの: {', '.join(known)}）"
            if args.lang == "ja"
            else f"katari manual: no manual for {args.module!r} (known: {', '.join(known)})"
        )
        sys.stderr.write(msg + "\n")
        return 2
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "manual",
        help="print a manual a rule system ships (katari manual dungeon_2f)",
        description="Prints a manual a rule system ships: a bomb module's manual, which the "
        "expert reads while the player defuses.",
    )
    p.add_argument("module", nargs="?", help="its name, e.g. dungeon_2f; none: list them")
    p.add_argument(
        "--lang",
        choices=("ja", "en"),
        default=None,
        help="language (default: $KATARI_LANG, else ja)",
    )
    p.set_defaults(func=run)
