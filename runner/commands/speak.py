"""`katari speak`: render narration to a WAV file, showing the exact text each engine reads."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "speak", help="render narration to a WAV file (and show the reading handed to the engine)",
        description="Render TEXT, or a story node's narration, to a WAV file with the voice "
                    "profiles. Japanese is read from kana made offline by pyopenjtalk-plus when "
                    "the engine is pyttsx3 (espeak-ng cannot read kanji).")
    p.add_argument("text", nargs="?", help="the text to speak")
    p.add_argument("--story", help="a story file or folder")
    p.add_argument("--node", help="with --story: the node (or ending) whose narration to speak")
    p.add_argument("--out", "-o", "--output", dest="out", metavar="FILE.wav",
                   help="the WAV file to write (-o as in graph and schema)")
    p.add_argument("--show-reading", action="store_true",
                   help="print the exact text handed to the engine, one line per narration")
    p.add_argument("--engine", choices=["pyttsx3", "openjtalk", "kokoro", "voicevox"],
                   help="use this engine (its shipped profiles where there are some)")
    p.add_argument("--voicevox-url", metavar="URL", help="the VOICEVOX ENGINE's address")
    p.add_argument("--voices", help="a voices file, or a shipped profile name (default, openjtalk)")
    p.add_argument("--lang", choices=["ja", "en"], help="the language (default: the story's, else from the text)")
    p.add_argument("--speaker", default="narrator", help="for TEXT: who speaks (default narrator)")
    p.set_defaults(func=run)


def _err(msg: str) -> int:
    print(f"katari speak: {msg}", file=sys.stderr)
    return 2


def _story_lines(args) -> tuple[list[tuple[str, str]], dict, dict, str | None] | str:
    """(text, speaker) pairs, readings, speaker→profile map, language; or an error line."""
    from runner.stories import resolve
    from runner.story import StoryError, load

    path = resolve(args.story)
    if not path.exists():
        return f"no story {args.story!r}: not a file or folder, nor a shipped story (see `katari list`)"
    try:
        story = load(path)
    except StoryError as e:
        # a diagnostic already starts with its path:line:col
        first = (getattr(e, "diagnostics", None) or [str(e)])[0]
        return f"{first} (see `katari check {args.story}`)"
    except OSError as e:
        return f"{args.story}: {e}"
    node = story.nodes.get(args.node) or story.endings.get(args.node)
    if node is None:
        return f"no node or ending {args.node!r} in {args.story}"
    lines = [(n.text, n.speaker or "narrator") for n in node.narration
             if not getattr(n, "keeper", False) and n.text]
    return lines, dict(getattr(story, "readings", {}) or {}), dict(getattr(story, "voices", {}) or {}), story.language


def run(args: argparse.Namespace) -> int:
    from runner.story.text import printable
    from runner.ui.narrator.engines import EngineError, engine_problem, get_engine, quiet_stdout
    from runner.ui.narrator.narrator import voices_for
    from runner.ui.narrator.profiles import ProfileError
    from runner.ui.narrator.readings import detect_lang, reading_for

    if args.story:
        if not args.node:
            return _err("--story needs --node")
        got = _story_lines(args)
        if isinstance(got, str):
            return _err(got)
        lines, readings, mapping, story_lang = got
        if not lines:
            return _err(f"node {args.node!r} has no narration to speak")
    elif args.text:
        lines, readings, mapping, story_lang = [(args.text, args.speaker)], {}, {}, None
    else:
        return _err("give TEXT, or --story STORY --node NODE")
    if not args.out and not args.show_reading:
        return _err("give --out FILE.wav (and/or --show-reading)")
    if getattr(args, "voicevox_url", None):
        import os

        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    try:
        voices = voices_for(args.voices, args.engine)
        voices.check_mapping(mapping)
    except ProfileError as e:
        return _err(str(e))

    from runner.ui.narrator.audio import join, write_wav

    clips = []
    for text, speaker in lines:
        lang = args.lang or detect_lang(text, story_lang or "ja")
        profile = voices.resolve(speaker, lang, mapping)
        problem = engine_problem(profile.engine, needs_kana=profile.engine == "pyttsx3" and lang == "ja")
        if problem:
            return _err(problem)
        try:
            with quiet_stdout():
                reading = reading_for(text, readings, profile.engine, lang)
        except Exception as e:  # noqa: BLE001
            return _err(f"cannot make the reading: {e}")
        if args.show_reading:
            print(printable(reading))  # text from a story or the command line: no escapes
        if args.out:
            try:
                engine = get_engine(profile.engine)
                engine.check_voice(profile.voice)
                if hasattr(engine, "readings"):
                    engine.readings = readings
                with quiet_stdout():
                    clips.append(engine.synth(reading, profile))
            except EngineError as e:
                return _err(str(e))
    if args.out:
        out = Path(args.out).resolve()
        out.parent.mkdir(parents=True, exist_ok=True)
        clip = join(clips)
        write_wav(out, clip)
        print(f"katari speak: wrote {out} ({clip.seconds:.2f} s, {clip.rate} Hz)", file=sys.stderr)
    return 0
