"""`katari import DOC -o DIR`: compile a keeper's scenario document into a draft story."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="compile a scenario document into a draft story",
                       description="Read a Call of Cthulhu scenario document (.txt, .md or saved .html; "
                                   "UTF-8 or Shift_JIS) and write a story folder that `katari check` accepts "
                                   "and `katari play` plays: places, checks, sanity rolls, the timeline, "
                                   "monsters and NPCs, endings. DIR/IMPORT.md reports what was understood "
                                   "and what could not be placed, by line (docs/import.md).")
    p.add_argument("doc", metavar="DOC", help="the scenario document")
    p.add_argument("-o", "--out", metavar="DIR", help="the story folder to write (default: the document's "
                                                      "name, here)")
    p.add_argument("--rules", default="coc7", help="rule system of the draft (only coc7)")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.add_argument("--force", action="store_true", help="write into DIR even if it holds files (the draft's "
                                                        "own files are replaced; nothing else is touched)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from runner.importer import ImportFailure, parse_document
    from runner.importer.messages import text
    from runner.importer.report import summary, to_json
    from runner.importer.writer import write_story
    from runner.ui.i18n import default_lang

    lang = default_lang()
    if args.rules != "coc7":
        print(f"katari import: {text('bad_rules', lang, rules=args.rules)}", file=sys.stderr)
        return 2
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
        print(f"katari import: the draft in {out} has {len(errors)} error(s); please report this with the "
              "document", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(to_json(sc), ensure_ascii=False, indent=1))
    else:
        print(summary(sc, out))
        print(f"next: katari check {out} && katari play {out} --gm")
    return 0
