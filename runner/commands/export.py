"""`katari export SAVE|TRANSCRIPT --format ccfolia|ccfolia-log|replay`: a played game, out to
the online table (docs/ccfolia.md)."""

from __future__ import annotations

import argparse
import json
import sys

FORMATS = ("ccfolia", "ccfolia-log", "replay")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a played game's investigator or log for CCFOLIA and blogs",
        description="Write what a save or a transcript holds in the online table's formats: "
        "ccfolia (the investigator after play, as CCFOLIA's clipboard JSON: paste "
        "it onto a board), ccfolia-log (the room log as CCFOLIA's ログ出力 HTML), "
        "replay (リプレイ text: 名前：発言). The game is re-run from its seed and "
        "commands; nothing is fetched.",
    )
    p.add_argument("file", metavar="SAVE_OR_TRANSCRIPT")
    p.add_argument(
        "--format", "-f", choices=FORMATS, default="ccfolia", help="what to write (default ccfolia)"
    )
    p.add_argument(
        "--output",
        "-o",
        metavar="OUT",
        default=None,
        help="write to OUT (default: standard output)",
    )
    p.add_argument(
        "--gm",
        action="store_true",
        help="a GM log: keeper notes and hidden rolls too (tab [info]), and the GM's overrides",
    )
    p.add_argument("--story", help="the story to use (default: the one the file names)")
    p.add_argument(
        "--lang", choices=["ja", "en"], default=None, help="language of messages (default ja)"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from runner.engine import NeedDice, SaveError
    from runner.rules.dice import DiceError
    from runner.stories import resolve
    from runner.story import StoryError, load
    from runner.ui import files
    from runner.ui.i18n import default_lang, t

    lang = args.lang or default_lang()

    def fail(text: str) -> int:
        print(f"katari export: {text}", file=sys.stderr)
        return 2

    try:
        data = files.read_replay(Path(args.file))
    except SaveError as e:
        return fail(files.reason(e, lang))
    path = resolve(args.story) if args.story else None
    if path is None:
        sp = data.get("story_path") or ""
        path = Path(sp) if sp and Path(sp).exists() else resolve(str(data.get("story") or ""))
    try:
        story = load(path)
    except StoryError as e:
        return fail(
            t(
                "replay_story_errors",
                lang,
                path=path,
                n=len(e.diagnostics),
                first=e.diagnostics[0] if e.diagnostics else "",
            )
        )
    except OSError as e:
        return fail(files.reason(e, lang))
    if story.id != data.get("story"):
        return fail(t("replay_other_story", lang, want=data.get("story"), path=path, got=story.id))
    try:
        entries = [files.Entry.from_json(e) for e in data.get("commands") or []]
        sd = data.get("start_dice")
        tl = files.rebuild(
            story,
            int(data.get("seed") or 0),
            entries,
            gm=bool(data.get("gm")) or args.gm,
            manual=bool(data.get("manual")),
            start_dice=list(sd) if isinstance(sd, list) else None,
        )
    except (SaveError, NeedDice, DiceError, ValueError, TypeError) as e:
        if isinstance(e, files.FileError):
            return fail(files.reason(e, lang))
        return fail(t("replay_broken", lang, detail=f"{type(e).__name__}: {e}".splitlines()[0]))
    from runner.ccfolia import export

    title = getattr(story, "title", "") or story.id
    if args.format == "ccfolia":
        from runner.ui import investigators

        inv = investigators.of(story.rules)
        if inv is None:  # the story's rule system has no investigators (RuleSystem.investigators)
            return fail(investigators.refusal(story, "--format ccfolia", lang))
        s = export.active_investigator(tl.state, story.rules)
        if s is None:
            return fail(
                {
                    "ja": "このゲームにはまだ探索者がいません（探索者を選ぶ前のセーブです）",
                    "en": "this game has no investigator yet (saved before one was chosen)",
                }.get(lang, "")
            )
        note = f"Katari『{title}』のあと" if lang == "ja" else f"after Katari: {title}"
        out = json.dumps(
            investigators.adapter(inv).piece(s, note=note),
            ensure_ascii=False,
            separators=(",", ":"),
        )
    else:
        msgs = export.messages(story, tl, gm=args.gm)
        out = (
            export.log_html(title, msgs)
            if args.format == "ccfolia-log"
            else export.replay_text(title, msgs)
        )
    if args.output:
        try:
            files.atomic_write(
                Path(args.output), out.encode("utf-8") + (b"" if out.endswith("\n") else b"\n")
            )
        except OSError as e:
            return fail(f"{args.output}: {files.reason(e, lang)}")
        return 0
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 0
