"""`katari strings export|import STORY`: a story's player-visible strings for translators
(gettext PO, or CSV for spreadsheets), and their translation back beside the story."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "strings",
        help="export a story's strings for translation, import a translation",
        description="Translate a story: export its strings (gettext PO for Poedit and "
        "the like, or CSV for a spreadsheet), translate them, import the "
        "result; then `katari play STORY --lang LANG`. See docs/translating.md.",
    )
    ss = p.add_subparsers(dest="strings_command", metavar="export|import")
    e = ss.add_parser(
        "export",
        help="write every string of a story to translate",
        description="Write every player-visible string of STORY, each with its stable id: "
        "the translation made so far is filled in, and a stale one is marked "
        "fuzzy (needs review).",
    )
    e.add_argument("story", help="story folder or file, or shipped story id")
    e.add_argument("--lang", required=True, help="the language to translate into (en, ja, fr, ...)")
    e.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default="-",
        help="where to write (default: standard output); FILE.csv writes CSV",
    )
    e.add_argument("--format", choices=("po", "csv"), default=None, help="po (default) or csv")
    e.set_defaults(func=run_export)
    i = ss.add_parser(
        "import",
        help="put a translation beside the story (STORY/translations/LANG.po)",
        description="Read a translated PO or CSV file and write it as the story's "
        "translation (STORY/translations/LANG.po), then say what is "
        "translated, missing or stale.",
    )
    i.add_argument("story", help="story folder or file, or shipped story id")
    i.add_argument("file", help="the translated .po or .csv file")
    i.add_argument(
        "--lang", default="", help="its language (default: the file's own Language header)"
    )
    i.set_defaults(func=run_import)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def run_export(args: argparse.Namespace) -> int:
    from runner.commands._common import open_story
    from runner.story import translate as T

    if not T.valid_lang(args.lang):
        print(
            f"katari strings: --lang {args.lang!r}: a language code such as en, ja or pt-BR",
            file=sys.stderr,
        )
        return 2
    story = open_story(args.story, "strings")
    if story is None:
        return 1
    fmt = args.format or ("csv" if str(args.output).lower().endswith(".csv") else "po")
    old = None
    try:
        found = T.load_units(story, args.lang)
    except T.TranslationError as e:
        print(f"katari strings: {e} (exporting without it)", file=sys.stderr)
        found = None
    if found is not None:
        old = found[1]
    text = (
        T.render_csv(story, args.lang, old) if fmt == "csv" else T.render_po(story, args.lang, old)
    )
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)  # (translations/ may be new)
        with open(args.output, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as e:
        print(f"katari strings: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
        return 1
    n = len(T.entries(story))
    print(
        f"wrote {args.output}: {n} strings of {story.id} to translate into {args.lang}",
        file=sys.stderr,
    )
    return 0


def run_import(args: argparse.Namespace) -> int:
    from runner.commands._common import open_story
    from runner.story import translate as T

    if args.lang and not T.valid_lang(args.lang):
        print(
            f"katari strings: --lang {args.lang!r}: a language code such as en, ja or pt-BR",
            file=sys.stderr,
        )
        return 2
    story = open_story(args.story, "strings")
    if story is None:
        return 1
    try:
        rep = T.import_file(story, args.file, args.lang)
    except T.TranslationError as e:
        print(f"katari strings: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"katari strings: cannot write the translation: {e.strerror or e}", file=sys.stderr)
        return 1
    print(
        f"wrote {rep.path}: {rep.translated} translated, {rep.missing} missing, {rep.stale} stale"
    )
    if rep.unknown:
        shown = ", ".join(rep.unknown[:5]) + (" ..." if len(rep.unknown) > 5 else "")
        print(f"dropped {len(rep.unknown)} id(s) the story does not have: {shown}")
    for p in rep.problems:
        print(f"warning: {p}")
    if rep.missing or rep.stale:
        print(f"`katari check {args.story} --lang {rep.path.stem.rsplit('.', 1)[-1]}` lists them")
    return 0
