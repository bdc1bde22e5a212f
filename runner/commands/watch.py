"""`katari watch FILE`: the players' screen of a game master's session (`--player-view FILE`)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch",
        help="show the players' view of a GM's session (katari play --gm --player-view FILE)",
        description="Follow the file a game master's `katari play STORY --gm --player-view FILE` "
        "writes and show what the players may see: narration, rolls, the actions and "
        "the status, never the keeper's notes, overrides or panel.",
    )
    p.add_argument("file", help="the --player-view file of the GM's session")
    p.add_argument(
        "--lang", choices=["ja", "en"], default=None, help="interface language (default: the GM's)"
    )
    p.add_argument("--once", action="store_true", help="show what is there now and exit")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.ui.watch import follow

    try:
        return follow(args.file, lang=args.lang, once=args.once)
    except KeyboardInterrupt:
        return 0
