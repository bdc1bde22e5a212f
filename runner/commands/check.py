"""`katari check PATH...`: validate stories; every problem as path:line:col: message."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

SHOWN = 100
"""Problems printed before a count of the rest: a generated story with thousands of errors
should not flood the terminal (its first problems are usually the cause of the rest). Past
SHOWN, errors come first: a hundred warnings once hid the only error behind "... and 2 more"."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="check stories for errors",
        description="Check story files or folders. Prints every problem as "
        "path:line:column: message; exits 1 if there is any error.",
    )
    p.add_argument(
        "paths", nargs="+", metavar="PATH", help="story file, story folder, or shipped story id"
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document: every diagnostic with its code, severity, path, "
        "line, column, end and message (docs/editor.md)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.add_argument(
        "--all",
        action="store_true",
        help=f"print every problem (without it, the first {SHOWN} and a count of the rest)",
    )
    p.add_argument(
        "--model",
        metavar="PATH",
        help="vosk model to check spoken words against (default: the installed model "
        "for the story's language, if any)",
    )
    p.add_argument("--no-voice", action="store_true", help="skip the spoken-words check")
    p.add_argument(
        "--lang",
        default=None,
        metavar="LANG",
        help="also check the story's translation into LANG: each string not translated "
        "(K400) or stale since its source changed (K401), as warnings (docs/translating.md)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.stories import resolve
    from runner.story import Diagnostic, check
    from runner.story.text import printable

    bad = 0
    results = []
    for raw in args.paths:
        path = resolve(raw)
        story, diags = check(path)
        if story is None and not any(d.severity == "error" for d in diags):
            # An empty file loads as nothing at all: say so rather than print nothing.
            diags = diags + [
                Diagnostic(
                    str(path),
                    1,
                    1,
                    "no story here: the file is empty "
                    "(a story needs a 'story' section and 'nodes')",
                    "K003",
                )
            ]
        if story is not None:
            from runner.authoring.lint import lint

            diags = diags + lint(story)
        if story is not None and not args.no_voice:
            diags = diags + voice_warnings(story, args.model)
        if story is not None and getattr(args, "lang", None):
            from runner.story.translate import check as check_translation

            diags = diags + check_translation(story, args.lang)
        if args.json:
            results.append((str(path), story, diags))
            if any(d.severity == "error" for d in diags):
                bad += 1
            continue
        shown = diags if args.all else cut(diags)
        for d in shown:
            print(printable(str(d)), file=sys.stdout)
        if len(shown) < len(diags):
            print(
                f"... and {len(diags) - len(shown)} more (katari check --all, or --json, "
                "lists every one)",
                file=sys.stdout,
            )
        errors = [d for d in diags if d.severity == "error"]
        if errors:
            bad += 1
            if not args.json:
                print(f"{path}: {len(errors)} error(s)", file=sys.stderr)
        elif not args.quiet and not args.json and story is not None:
            n, e = len(story.nodes), len(story.endings)
            print(
                f"{path}: ok ({n} node{'s' * (n != 1)}, {e} ending{'s' * (e != 1)}, rules {story.rules})"
            )
    if args.json:
        from runner.authoring.diagjson import document

        print(json.dumps(document(results), ensure_ascii=False, indent=1))
    return 1 if bad else 0


def cut(diags: list[Any]) -> list[Any]:
    """The diagnostics printed without ``--all``: all of them, in the order found, when they
    fit in :data:`SHOWN` lines; else errors first, then warnings, the first SHOWN of them. A
    hundred warnings never hide an error."""
    if len(diags) <= SHOWN:
        return diags
    errors = [d for d in diags if d.severity == "error"]
    return (errors + [d for d in diags if d.severity != "error"])[:SHOWN]


def voice_warnings(story, model_arg: str | None) -> list:  # noqa: ANN001
    """Words of labels and aliases that the vosk model cannot hear, once each, located.

    Runs only where a model for the story's language is installed (or given): players
    with that model could not say those words."""
    from pathlib import Path

    from runner.story import Diagnostic, story_files
    from runner.story.source import SourceError, read_text, story_root

    # Only where the models live and the vocabulary look-up: the listener's audio and
    # recogniser code, and vosk itself, are imported only when there is a model to read.
    from runner.ui.listener.models import ModelError, find_model, load_model
    from runner.ui.listener.vocab import unknown_words

    path = Path(model_arg) if model_arg else find_model(story.language)
    if path is None:
        return []
    try:
        model = load_model(path, story.language)
    except ModelError as e:
        return [Diagnostic(story.path, 1, 1, f"voice check skipped: {e}", "K200", "warning")]
    model_name = path.parent.name if path.name == "model" else path.name
    root = story_root(story.path)
    files = []
    for f in story_files(story.path):
        try:
            files.append((f, read_text(f, root)))
        except SourceError:  # it loaded a moment ago; if it changed since, skip it
            continue
    out = []
    reported: set[str] = set()
    for node in story.nodes.values():
        for a in node.actions:
            for phrase in (a.label, *a.aliases):
                for word in unknown_words([phrase], model):
                    if word in reported:
                        continue
                    reported.add(word)
                    where, line, col = story.path, 1, 1
                    for f, text in files:
                        i = text.find(phrase)
                        if i >= 0:
                            line = text.count("\n", 0, i) + 1
                            col = i - (text.rfind("\n", 0, i) + 1) + 1
                            where = str(f)
                            break
                    out.append(
                        Diagnostic(
                            where,
                            line,
                            col,
                            f"{word!r} (in {phrase!r}, node {node.id!r}) is not in the "
                            f"vocabulary of the voice model {model_name}: players cannot say it",
                            "K201",
                            "warning",
                        )
                    )
    return out
