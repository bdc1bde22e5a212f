"""The ``katari`` command. Each subcommand lives in ``runner/commands/<name>.py`` and exposes
``register(subparsers)``; heavy imports stay inside the functions that need them so that
``katari play`` starts fast."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from runner import __version__

ORDER = [
    "play",
    "list",
    "check",
    "new",
    "import",
    "test",
    "simulate",
    "sweep",
    "graph",
    "replay",
    "roll",
    "export",
    "strings",
    "manual",
    "rules",
    "speak",
    "voices",
    "hear",
    "voice",
    "watch",
    "schema",
    "lsp",
]  # players' commands first, then authors', then the table's, then tools


def _modules() -> list[str]:
    """The subcommands' module names (``import_`` is the command ``import``), in ORDER."""
    import runner.commands as pkg

    names = [m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")]
    names.sort(
        key=lambda n: (ORDER.index(n.rstrip("_")) if n.rstrip("_") in ORDER else len(ORDER), n)
    )  # import_.py is "import"
    return names


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` (a command's name), a parser with that command alone:
    what running it needs, without importing the other commands' modules (start-up time)."""
    p = argparse.ArgumentParser(
        prog="katari",
        description="Katari (語り): play tabletop scenarios as interactive fiction, by text or by voice.",
        epilog="`katari COMMAND --help` for each command. With no command: play the default story.",
    )
    p.add_argument("--version", action="version", version=f"katari {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    names = _modules()
    if only is not None:
        names = [n for n in names if n.rstrip("_") == only] or names
    for name in names:
        importlib.import_module(f"runner.commands.{name}").register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--version"]:  # at once: building the parser imports every command's module
        print(f"katari {__version__}")
        return 0
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
        argv = ["play", *argv]
    parser = build_parser(only=argv[0])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    if argv and not argv[0].startswith("-") and argv[0] not in sub.choices:
        from runner.stories import resolve

        if resolve(argv[0]).exists():  # `katari deep_sea_atelier`: play it
            return main(["play", *argv])
        import difflib

        near = difflib.get_close_matches(argv[0], list(sub.choices), n=1, cutoff=0.6)
        hint = f"; did you mean `katari {near[0]}`?" if near else "; see `katari --help`"
        print(f"katari: no command {argv[0]!r}{hint}", file=sys.stderr)
        return 2
    args, extra = parser.parse_known_args(argv)
    if extra:
        # Report an unknown option with the usage of the command it was given to.
        owner = sub.choices.get(getattr(args, "command", None) or "", parser)
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:
        from runner.debug import report  # a rule system's bug: one line, trace on request
        from runner.ui.i18n import default_lang

        if report(e, default_lang()):
            return 1
        raise
