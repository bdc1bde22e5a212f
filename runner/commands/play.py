"""`katari play [STORY]`: play in the console, or headless with --jsonl."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a story (the default story if none is named)",
                       description="Play a story in the console. With --jsonl, read one command a line "
                                   "and write one JSON event a line (see docs/jsonl.md).")
    p.add_argument("story", nargs="?", help="story file, folder, or shipped story id (see `katari list`)")
    p.add_argument("--jsonl", action="store_true", help="headless: JSON lines on stdin/stdout")
    p.add_argument("--seed", type=int, default=None, help="seed for the dice (same seed + same commands = same game)")
    p.add_argument("--gm", action="store_true", help="game master mode: keeper notes and hidden state")
    p.add_argument("--dice", default=None, metavar="manual",
                   help="'manual': every roll asks for the faces the table rolled")
    p.add_argument("--lang", choices=["ja", "en"], default=None, help="interface language (default ja)")
    p.add_argument("--transcript", metavar="FILE", help="write the session as Markdown to FILE")
    p.add_argument("--new", action="store_true", help="start a new game even if one can be resumed")
    p.add_argument("--narrate", action="store_true", help="read narration aloud")
    p.add_argument("--engine", default=None, choices=["pyttsx3", "openjtalk"],
                   help="speech engine: pyttsx3 (default) or openjtalk")
    p.add_argument("--voices", metavar="FILE", help="voice profile YAML overriding the shipped ones")
    p.add_argument("--audio-out", metavar="OUT", default=None,
                   help="where narration goes: default (the sound card), alsa:DEVICE, or dir:FOLDER "
                        "(WAV files; also $KATARI_AUDIO_OUT)")
    p.add_argument("--voice", nargs="?", const="push", choices=["push", "continuous"], default=None,
                   help="speak commands: push-to-talk with F5 or Ctrl-Space (default), or continuous")
    p.add_argument("--voice-input", nargs="+", metavar="WAV",
                   help="play from recorded utterances (16-bit mono WAVs at the model's rate), "
                        "then go on by keyboard")
    p.add_argument("--model", metavar="PATH", help="vosk model folder for --voice / --voice-input")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.commands._common import open_story

    story = open_story(args.story, 'play')
    if story is None:
        return 1
    if args.jsonl:
        from runner.ui.jsonl import play

        seed = args.seed if args.seed is not None else 0
        return play(story, sys.stdin, sys.stdout, seed=seed, gm=args.gm)
    from runner.ui.repl import main as repl_main

    return repl_main(story, args)
