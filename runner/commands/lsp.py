"""`katari lsp`: the language server for story files (stdio; docs/editor.md)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lsp",
        help="language server for story files, for editors (stdio)",
        description="Speak the Language Server Protocol on standard input and output: "
        "katari check's diagnostics as you type, go to definition, find "
        "references, completion and hover (docs/editor.md). Needs "
        "pip install 'katari[lsp]'.",
    )
    p.add_argument("--stdio", action="store_true", help="(the default; editors often pass it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from runner.lsp.server import main
    except ImportError as e:
        print(
            f"katari lsp needs pygls 2 ({e.name or e}): pip install 'katari[lsp]'", file=sys.stderr
        )
        return 2
    return main()
