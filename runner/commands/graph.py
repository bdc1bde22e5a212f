"""`katari graph STORY`: the story map as SVG, Graphviz DOT, Mermaid or one HTML page."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "graph",
        help="draw the story map (svg, dot, mermaid, html)",
        description="Draw a story's map: nodes by kind, endings coloured by kind, "
        "moves labelled with the action and its condition, timed events. "
        "svg and html need Graphviz (the `dot` program).",
    )
    p.add_argument("story", help="story file, folder, or shipped story id")
    p.add_argument(
        "--format",
        "-f",
        choices=["svg", "dot", "mermaid", "html"],
        default=None,
        help="output format (default: from -o's suffix, else svg)",
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )
    p.add_argument(
        "--full", action="store_true", help="draw every node even in a very large story (slow)"
    )
    p.add_argument(
        "--limit",
        type=int,
        default=None,
        metavar="N",
        help="boxes above which a story is drawn scene by scene (default 2000)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds Graphviz may take to lay the map out (default 60); then it is stopped "
        "and an HTML page lists the boxes instead",
    )
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="language of the HTML page (default: KATARI_LANG, else the story's language)",
    )
    p.set_defaults(func=run)


_SUFFIX = {
    ".svg": "svg",
    ".dot": "dot",
    ".gv": "dot",
    ".mmd": "mermaid",
    ".mermaid": "mermaid",
    ".md": "mermaid",
    ".html": "html",
    ".htm": "html",
}


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from runner.authoring.graph import DOT_TIMEOUT, LAYOUT_LIMIT, GraphvizMissing, render
    from runner.commands._common import open_story

    fmt = (
        args.format
        or (_SUFFIX.get(Path(args.output).suffix.lower()) if args.output else None)
        or "svg"
    )
    if args.output and not args.format and Path(args.output).suffix.lower() not in _SUFFIX:
        # an SVG silently written to map.png opens as a broken image: ask instead
        print(
            f"katari graph: cannot tell the format from {args.output!r}: name it .svg, .dot, "
            f".mmd or .html, or give --format (svg, dot, mermaid, html)",
            file=sys.stderr,
        )
        return 2
    if args.timeout is not None and not 0 < args.timeout <= 3600:
        print("katari graph: --timeout is a number of seconds from 0 to 3600", file=sys.stderr)
        return 2
    story = open_story(args.story, "graph")
    if story is None:
        return 1
    from runner.ui.i18n import played_lang

    args.lang = played_lang(args.lang, story.language)  # as play and test: the story's own
    try:
        text, note = render(
            story,
            fmt,
            limit=args.limit or LAYOUT_LIMIT,
            full=args.full,
            lang=args.lang,
            timeout=args.timeout or DOT_TIMEOUT,
        )
    except GraphvizMissing as e:
        print(f"katari graph: {e}", file=sys.stderr)
        return 1
    except (ValueError, RuntimeError) as e:
        print(f"katari graph: {e}", file=sys.stderr)
        return 1
    if note:
        print(f"katari graph: {note}", file=sys.stderr)
    if args.output:
        from runner.ui.files import atomic_write  # (a regular file or a new one, never a device)

        try:
            atomic_write(Path(args.output), text.encode("utf-8"), parents=False)
        except OSError as e:
            print(f"katari graph: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"katari graph: wrote {args.output} ({fmt})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
