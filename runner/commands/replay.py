"""`katari replay TRANSCRIPT_OR_SAVE`: re-run a game from its seed and commands and check the end."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="re-run a saved or transcribed game and check it ends the same",
        description="Re-run a game from the seed and commands in a save (JSON) or a "
        "transcript (Markdown with a katari-replay block) through the engine, "
        "and check that it ends in the recorded state. Exit 0 when it does, "
        "1 when it does not, 2 when it cannot be replayed.",
    )
    p.add_argument("file", metavar="TRANSCRIPT_OR_SAVE")
    p.add_argument(
        "--story",
        help="the story file or folder to use (default: the installed story "
        "whose id the file names)",
    )
    p.add_argument("--show", action="store_true", help="print the game as it is replayed")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="the language of the messages (default: the language the game was played in; the "
        "game itself is always replayed in that language)",
    )
    p.set_defaults(func=run)


def diff(want: Any, got: Any, path: str = "") -> list[str]:
    """Where two plain-data values differ, one line each (``vars.light: False != True``)."""
    if isinstance(want, dict) and isinstance(got, dict):
        out: list[str] = []
        for k in sorted(set(want) | set(got), key=str):
            p = f"{path}.{k}" if path else str(k)
            if k not in got:
                out.append(f"{p}: missing from the replay (recorded {want[k]!r})")
            elif k not in want:
                out.append(f"{p}: only in the replay ({got[k]!r})")
            else:
                out += diff(want[k], got[k], p)
        return out
    if want != got:
        return [f"{path}: recorded {want!r}, replay gives {got!r}"]
    return []


def _id_text(sid: Any) -> str:
    from runner.story.text import printable

    return printable(sid)[:80] if isinstance(sid, str) else "?"


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from runner.engine import NeedDice, SaveError
    from runner.rules.dice import DiceError
    from runner.stories import installed_story, resolve
    from runner.story import StoryError, load
    from runner.ui import files
    from runner.ui.i18n import default_lang, t

    lang = args.lang or default_lang()
    out = sys.stdout.write

    def fail(why: str | BaseException) -> int:
        text = why if isinstance(why, str) else files.reason(why, lang)
        sys.stderr.write(t("replay_bad", lang, why=text) + "\n")
        return 2

    try:
        data = files.read_replay(Path(args.file))
    except SaveError as e:
        return fail(e)
    path: Path | None
    if args.story:
        path = resolve(args.story)
    else:
        # The file names a story by its id, never by a path: a transcript from someone else
        # must not make Katari read whatever file it points at. Other stories: --story PATH.
        path = installed_story(data.get("story"))
        if path is None:
            return fail(t("replay_which_story", lang, id=_id_text(data.get("story"))))
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
        return fail(e)
    if story.id != data.get("story"):
        return fail(
            t("replay_other_story", lang, want=_id_text(data.get("story")), path=path, got=story.id)
        )
    # The game is replayed in the language it was played in (the names the rules put in the
    # State at the start are in it); --lang only chooses the language of these messages.
    from runner.commands._common import translated
    from runner.ui.i18n import LANGS

    played = files.recorded_lang(data, story)
    if not args.lang and played in LANGS:
        lang = played
    story = translated(story, played or "", "replay")
    if story is None:
        return 2
    if data.get("fingerprint") and data["fingerprint"] != files.fingerprint(story):
        out(t("story_changed", lang) + "\n")
    try:
        entries = [files.Entry.from_json(e) for e in data.get("commands") or []]
        sd = data.get("start_dice")
        tl = files.rebuild(
            story,
            int(data.get("seed") or 0),
            entries,
            gm=bool(data.get("gm")),
            manual=bool(data.get("manual")),
            start_dice=list(sd) if isinstance(sd, list) else None,
        )
    except (SaveError, NeedDice, DiceError, ValueError, TypeError) as e:
        if isinstance(e, files.FileError):
            return fail(e)
        return fail(t("replay_broken", lang, detail=f"{type(e).__name__}: {e}".splitlines()[0]))
    if args.show:
        from runner.story.text import printable
        from runner.ui.render import Renderer, plain

        r = Renderer(story, lang=lang, gm=tl.gm, cols=79, show_actions=False)
        for i, events in enumerate(tl.events):
            if i:  # the commands come from the file: no escape sequence reaches the terminal
                out(printable(f"\n▶ {tl.log[i - 1].command}\n"))
            text = printable(plain(r.events(events or [])))
            if text:
                out(text + "\n")
        out("\n")
    got = tl.state.to_dict()
    want = data.get("state")
    problems = diff(want, got) if isinstance(want, dict) else ["the file records no final state"]
    node = story.nodes.get(tl.state.node)
    place = (
        story.endings[tl.state.ending].title
        if tl.state.ending in story.endings
        else (node.title if node is not None else tl.state.node)
    )
    if not problems:
        out(t("replay_ok", lang, n=len(entries), place=place, turn=tl.state.turn) + "\n")
        return 0
    out(t("replay_diff", lang, n=len(entries)) + "\n")
    for line in problems[:50]:
        out(f"  {line}\n")
    if len(problems) > 50:
        out(f"  ... {len(problems) - 50} more\n")
    return 1
