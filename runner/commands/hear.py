"""`katari hear AUDIO.wav`: what the game would do with a recorded utterance.

Same grammar, same matching as `katari play --voice`: the phrases valid at a story's node
(or a list given by hand), the model's vocabulary check, the n-best decision."""

from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "hear",
        help="recognise a recorded command as the game would",
        description="Recognise a 16-bit mono WAV at the model's rate (16 kHz) exactly as the "
        "game would, and print the command it would run.",
    )
    p.add_argument("audio", nargs="+", metavar="AUDIO.wav")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--story", help="story file or folder (with --node)")
    src.add_argument(
        "--grammar", help="comma-separated phrases, each its own command (or PHRASE=COMMAND)"
    )
    p.add_argument("--node", help="node whose actions are valid (default: the start)")
    p.add_argument("--model", help="a vosk model folder (default: the installed one for --lang)")
    p.add_argument(
        "--lang", help="language of the model and meta commands (default: the story's, else ja)"
    )
    p.add_argument("--no-meta", action="store_true", help="leave the meta commands out")
    p.add_argument("--json", action="store_true", help="one JSON object per file")
    p.set_defaults(func=run)


def _grammar_phrases(spec: str) -> list[tuple[str, str]]:
    out = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        text, _, cmd = part.partition("=")
        out.append((text.strip(), (cmd or text).strip()))
    return out


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from runner.ui.listener import messages
    from runner.ui.listener.audio import AudioError, read_wav
    from runner.ui.listener.core import META, Phrase, phrases_for
    from runner.ui.listener.models import find_model, sample_rate
    from runner.ui.listener.vosk_listener import ModelError, VoskListener, load_model

    lang = args.lang
    if args.story:
        from runner import engine
        from runner.stories import resolve
        from runner.story import StoryError, load

        try:
            story = load(resolve(args.story))
        except StoryError as e:
            for d in e.diagnostics:
                print(d, file=sys.stderr)
            return 2
        lang = lang or story.language
        state, _ = engine.new_game(story)
        if args.node and args.node != state.node:
            if args.node not in story.nodes:
                print(f"{args.story}: no node {args.node!r}", file=sys.stderr)
                return 2
            state = state.copy()
            state.node = args.node
        phrases = phrases_for(
            engine.available(story, state), lang, meta={} if args.no_meta else None
        )
    else:
        lang = lang or "ja"
        phrases = [Phrase(t, c) for t, c in _grammar_phrases(args.grammar)]
        if not args.no_meta:
            phrases += [Phrase(t, c) for t, c in META.get(lang, {}).items()]
    missing = [f for f in args.audio if not Path(f).is_file()]
    if missing:
        # say so before asking for a speech model the user may not need to install yet
        for f in missing:
            print(messages.text("wav_missing", None, path=f), file=sys.stderr)
        return 2
    path = Path(args.model) if args.model else find_model(lang)
    if path is None:
        print(messages.text("no_model", None, game=False, lang=lang), file=sys.stderr)
        return 2
    rate = sample_rate(path)
    # Every recording is read (and refused, in one line) before the model, which takes
    # seconds and hundreds of MB to load, so a wrong file is said at once.
    audio: dict[int, bytes] = {}
    status = 0
    for i, f in enumerate(args.audio):
        try:
            audio[i] = read_wav(f, rate)
        except AudioError as e:
            print(e, file=sys.stderr)
            status = 2
    if not audio:
        return status
    try:
        model = load_model(path, lang)
    except ModelError as e:
        print(e, file=sys.stderr)
        return 2
    listener = VoskListener(model, lang=lang, rate=rate)
    unknown = listener.set_phrases(phrases)
    if unknown and not args.json:
        print(f"(not in the model's words, left out: {', '.join(unknown)})", file=sys.stderr)
    for i, f in enumerate(args.audio):
        if i not in audio:
            continue
        pcm = audio.pop(i)
        h = listener.recognise(pcm)
        if args.json:
            row = {
                "file": f,
                "text": h.text,
                "command": h.command,
                "confidence": round(h.confidence, 3),
                "seconds": round(h.seconds, 4),
                "phrase": h.phrase,
                "needs_confirm": h.needs_confirm,
                "audio_seconds": round(len(pcm) / (2 * rate), 3),
                "unknown_words": unknown,
            }
            print(json.dumps(row, ensure_ascii=False))
        else:
            what = h.command or "-"
            note = "  (did you mean? asks first)" if h.needs_confirm and h.command else ""
            print(
                f'{f}: {what}{note}  heard "{h.text}"  confidence {h.confidence:.2f}  '
                f"{h.seconds * 1000:.0f} ms for {len(pcm) / (2 * rate):.2f} s of audio"
            )
        if h.command is None and status == 0:
            status = 1
    return status
