"""``katari rules [SYSTEM [TOPIC]] [--lang ja|en]``: the installed rule systems, and one's rules."""

from __future__ import annotations

import argparse
import inspect
import sys
import textwrap
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="list the installed rule systems, or show one's rules",
        description="With no SYSTEM: lists the rule systems installed here (Katari's "
        "own and any package's that declares a katari.rules entry point). "
        "`katari rules SYSTEM` shows its rules (or its hooks); "
        "`katari rules SYSTEM TOPIC` one of the topics it lists.",
    )
    p.add_argument("system", nargs="?", help="a rule system's name (see the list)")
    p.add_argument("topic", nargs="?", help="a topic of that rule system (e.g. items)")
    p.add_argument(
        "--lang",
        choices=("ja", "en"),
        default=None,
        help="language (default: $KATARI_LANG, else ja)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.rules import BrokenRules, ignored, names, refused, system
    from runner.ui.i18n import default_lang

    args.lang = args.lang or default_lang()
    out = sys.stdout
    known = names()
    if not args.system:
        for name in known:
            try:
                title = system(name).title_in(args.lang)
            except BrokenRules as e:  # a rule system that cannot load must not break the list
                title = (
                    ("(cannot be loaded: " if args.lang == "en" else "（読み込めません：")
                    + str(e)
                    + (")" if args.lang == "en" else "）")
                )
            out.write(f"{name:8} {title}\n")
        for line in (*ignored().values(), *refused().values()):
            out.write(f"  ({line})\n")  # one line each, never silently
        return 0
    if args.system in refused():
        sys.stderr.write(f"katari rules: {refused()[args.system]}\n")
        return 2
    if args.system not in known:
        sys.stderr.write(
            f"katari rules: unknown rule system {args.system!r} (installed: {', '.join(known)})\n"
        )
        return 2
    try:
        rs = system(args.system)
    except BrokenRules as e:
        sys.stderr.write(f"katari rules: {e}\n")
        return 2
    topics = rs.topics
    if args.topic in (None, "", "summary", "rules") and "rules" in topics:
        out.write(topics["rules"](args.lang))
        return 0
    if args.topic:
        aliases = {"item": "items", "アイテム": "items"}
        topic = aliases.get(args.topic, args.topic)
        if topic in topics:
            out.write(topics[topic](args.lang))
            return 0
        listed = ", ".join(t for t in topics if t != "rules") or "none"
        sys.stderr.write(f"katari rules {rs.name}: unknown topic {args.topic!r} ({listed})\n")
        return 2
    out.write(f"{rs.name}: {rs.title_in(args.lang)}\n")
    for h in rs.hooks.values():
        out.write(f"  {h.name}({', '.join(_arguments(h))})\n")
        for line in textwrap.wrap(_first_paragraph(h.doc), 84):
            out.write(f"      {line}\n")
    for text in topics.values():  # a rule system's other topics (its ready-made characters)
        out.write(text(args.lang))
    return 0


def _arguments(h: Any) -> list[str]:
    """A hook's arguments as a story passes them: a declared domain after a colon (checked by
    katari check: ``skill: skill``), a default after ``=`` (``mod=0``)."""
    try:
        params = dict(list(inspect.signature(h.fn).parameters.items())[1:])  # less ctx
    except (TypeError, ValueError):
        params = {}
    shown = []
    for a in h.args:
        text = f"{a}: {h.domains[a].name}" if a in h.domains else a
        p = params.get(a)
        if p is not None and p.default is not inspect.Parameter.empty:
            text += f"={p.default!r}"
        shown.append(text)
    return shown


def _first_paragraph(doc: str) -> str:
    """The whole first paragraph of a docstring, as one line (not its first line, which
    stops mid-sentence)."""
    para = inspect.cleandoc(doc or "").split("\n\n")[0]
    return " ".join(para.split()).replace("``", "`")
