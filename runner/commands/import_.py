"""`katari import DOC -o DIR`: compile a keeper's scenario document into a draft story."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import",
        help="compile a scenario document into a draft story",
        description="Read a scenario document (.txt, .md or saved .html; "
        "UTF-8 or Shift_JIS) and write a story folder that `katari check` accepts "
        "and `katari play` plays: places, checks, sanity rolls, the timeline, "
        "monsters and NPCs, endings. DIR/IMPORT.md reports what was understood "
        "and what could not be placed, by line (docs/import.md). The rule "
        "systems that import documents say so (RuleSystem.importer); Katari's "
        "reads Call of Cthulhu scenarios.",
    )
    p.add_argument("doc", metavar="DOC", help="the scenario document")
    p.add_argument(
        "-o",
        "--out",
        metavar="DIR",
        help="the story folder to write (default: the document's name, here)",
    )
    p.add_argument(
        "--rules",
        default=None,
        help="rule system of the draft (default: the one that "
        "imports documents; `katari rules` lists them)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument(
        "--force",
        action="store_true",
        help="write into DIR even if it holds files (the draft's "
        "own files are replaced; nothing else is touched)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import importlib
    import json
    from pathlib import Path

    from runner.rules import installed
    from runner.ui.i18n import default_lang

    lang = default_lang()
    # The rule systems that import documents declare their importer (RuleSystem.importer).
    importers = {rs.name: rs.importer for rs in installed() if rs.importer}
    rules = args.rules or next(iter(importers), "")
    if rules not in importers:
        from runner.importer.messages import text

        print(
            f"katari import: {text('bad_rules', lang, rules=rules, known=', '.join(importers) or '-')}",
            file=sys.stderr,
        )
        return 2
    pkg = importers[rules]
    imp, messages, report, writer = (
        importlib.import_module(m)
        for m in (pkg, f"{pkg}.messages", f"{pkg}.report", f"{pkg}.writer")
    )
    ImportFailure, parse_document, text = imp.ImportFailure, imp.parse_document, messages.text
    summary, to_json, write_story = report.summary, report.to_json, writer.write_story
    out = Path(args.out) if args.out else Path(Path(args.doc).stem or "imported")
    try:
        sc = parse_document(args.doc)
        write_story(sc, out, force=args.force)
    except ImportFailure as e:
        print(f"katari import: {e.message(lang)}", file=sys.stderr)
        return 1
    except RecursionError:
        print(f"katari import: {text('not_scenario', lang, path=args.doc)}", file=sys.stderr)
        return 1
    from runner.story import check

    story, diags = check(out)
    errors = [d for d in diags if d.severity == "error"]
    if errors:  # a defect of ours, not of the document: say where, keep the draft to look at
        for d in errors[:10]:
            print(d, file=sys.stderr)
        print(
            f"katari import: the draft in {out} has {len(errors)} error(s); please report this with the "
            "document",
            file=sys.stderr,
        )
        return 1
    if args.json:
        print(json.dumps(to_json(sc), ensure_ascii=False, indent=1))
    else:
        print(summary(sc, out))
        print(f"next: katari check {out} && katari play {out} --gm")
    return 0
