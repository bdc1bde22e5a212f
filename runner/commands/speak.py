"""`katari speak`: render narration to a WAV file, showing the exact text each engine reads."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "speak",
        help="render narration to a WAV file (and show the reading handed to the engine)",
        description="Render TEXT, or a story node's narration, to a WAV file with the voice "
        "profiles. Japanese is read from kana made offline by pyopenjtalk-plus when "
        "the engine is pyttsx3 (espeak-ng cannot read kanji).",
    )
    p.add_argument("text", nargs="?", help="the text to speak")
    p.add_argument("--story", help="a story file or folder")
    p.add_argument("--node", help="with --story: the node (or ending) whose narration to speak")
    p.add_argument(
        "--out",
        "-o",
        "--output",
        dest="out",
        metavar="FILE.wav",
        help="the WAV file to write (-o as in graph and schema)",
    )
    p.add_argument(
        "--show-reading",
        action="store_true",
        help="print the exact text handed to the engine, one line per narration",
    )
    p.add_argument(
        "--engine",
        choices=["pyttsx3", "openjtalk", "kokoro", "voicevox"],
        help="use this engine (its shipped profiles where there are some)",
    )
    p.add_argument("--voicevox-url", metavar="URL", help="the VOICEVOX ENGINE's address")
    p.add_argument("--voices", help="a voices file, or a shipped profile name (default, openjtalk)")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        help="the language (default: the story's, else from the text)",
    )
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
    lines = [
        (n.text, n.speaker or "narrator")
        for n in node.narration
        if not getattr(n, "keeper", False) and n.text
    ]
    return (
        lines,
        dict(getattr(story, "readings", {}) or {}),
        dict(getattr(story, "voices", {}) or {}),
        story.language,
    )


MAX_TEXT = 100_000
"""Characters one run speaks (a few hours of speech), counted over every narration line."""
CHUNK = 1000
"""Characters made into a reading at once (Open JTalk's front end refuses much longer text);
each chunk ends at a sentence end where there is one."""

_END = re.compile(r"[。！？!?…]+[」』）)]*|[.](?=\s)|\n+")


def chunks(text: str, limit: int = CHUNK) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` characters, at the last sentence end in
    each (else a comma or a space, else anywhere); the pieces put together are ``text``."""
    out: list[str] = []
    while len(text) > limit:
        window = text[:limit]
        cut = max((m.end() for m in _END.finditer(window)), default=0)
        if cut == 0:
            cut = max(window.rfind("、"), window.rfind(","), window.rfind(" ")) + 1
        if cut <= 0:
            cut = limit
        out.append(text[:cut])
        text = text[cut:]
    if text:
        out.append(text)
    return out


class _WavOut:
    """A WAV written as it is made (memory holds one sentence, not the whole recording) to a
    temp file beside ``path``, which replaces ``path`` only when complete: a failure leaves
    the old file as it was. Written through Katari's safe writer (runner.ui.files): ``path``
    must be a regular file or new."""

    def __init__(self, path: Path) -> None:
        import os
        import wave

        from runner.ui.files import check_target, open_for_write

        self.path = path
        check_target(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
        self.file = open_for_write(self.tmp)
        self.wav: wave.Wave_write | None = None
        self.rate = 0
        self.frames = 0

    def add(self, clip, gap: float) -> None:  # noqa: ANN001 - a narrator Clip
        import wave

        from runner.ui.narrator.audio import resample

        if not clip.pcm:
            return
        if self.wav is None:
            self.rate = clip.rate
            self.wav = wave.open(self.file, "wb")
            self.wav.setnchannels(1)
            self.wav.setsampwidth(2)
            self.wav.setframerate(self.rate)
        elif gap:
            self.wav.writeframes(b"\x00\x00" * int(gap * self.rate))
            self.frames += int(gap * self.rate)
        pcm = resample(clip, self.rate).pcm
        self.wav.writeframes(pcm)
        self.frames += len(pcm) // 2

    def finish(self) -> float:
        """Completes the file; returns its length in seconds."""
        import os
        import wave

        from runner.ui.files import check_target

        if self.wav is None:  # nothing to hear: an empty WAV, as before
            self.rate = 22050
            self.wav = wave.open(self.file, "wb")
            self.wav.setnchannels(1)
            self.wav.setsampwidth(2)
            self.wav.setframerate(self.rate)
        self.wav.close()
        self.file.flush()
        os.fsync(self.file.fileno())
        self.file.close()
        check_target(self.path)
        os.replace(self.tmp, self.path)
        return self.frames / self.rate

    def abort(self) -> None:
        import contextlib

        with contextlib.suppress(Exception):
            if self.wav is not None:
                self.wav.close()
        with contextlib.suppress(Exception):
            self.file.close()
        with contextlib.suppress(OSError):
            self.tmp.unlink()


def _synth(engine, text: str, profile):  # noqa: ANN001, ANN202
    """One sentence, once more when espeak ends its loop before writing anything (as the
    narrator does, runner/ui/narrator/worker.py)."""
    clip = engine.synth(text, profile)
    if not clip.pcm and re.search(r"\w", text):
        clip = engine.synth(text, profile)
    return clip


def run(args: argparse.Namespace) -> int:
    from runner.story.text import printable
    from runner.ui.narrator.engines import EngineError, engine_problem, get_engine, quiet_stdout
    from runner.ui.narrator.narrator import voices_for
    from runner.ui.narrator.profiles import ProfileError
    from runner.ui.narrator.readings import detect_lang, reading_for, split_sentences

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
    size = sum(len(text) for text, _ in lines)
    if size > MAX_TEXT:
        return _err(
            f"too much text to speak at once ({size} characters; at most {MAX_TEXT}): "
            "split it into parts"
        )
    if getattr(args, "voicevox_url", None):
        import os

        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    try:
        voices = voices_for(args.voices, args.engine)
        voices.check_mapping(mapping)
    except ProfileError as e:
        return _err(str(e))

    wav = None
    if args.out:
        out = Path(args.out).resolve()
        try:
            wav = _WavOut(out)
        except OSError as e:
            return _err(f"cannot write {out}: {_why(e)}")
    try:
        for text, speaker in lines:
            lang = args.lang or detect_lang(text, story_lang or "ja")
            profile = voices.resolve(speaker, lang, mapping)
            problem = engine_problem(
                profile.engine, needs_kana=profile.engine == "pyttsx3" and lang == "ja"
            )
            if problem:
                return _err(problem)
            try:
                with quiet_stdout():
                    # Long text a chunk at a time: the reading's front end refuses long text,
                    # and espeak-ng crashed on one utterance of ~46,000 characters.
                    parts = [reading_for(c, readings, profile.engine, lang) for c in chunks(text)]
            except Exception as e:  # noqa: BLE001
                return _err(
                    f"cannot make the reading: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
                )
            if args.show_reading:
                print(
                    printable("".join(parts))
                )  # text from a story or the command line: no escapes
            if wav is not None:
                try:
                    engine = get_engine(profile.engine)
                    engine.check_voice(profile.voice)
                    if hasattr(engine, "readings"):
                        engine.readings = readings
                    gap = 0.3 if wav.wav is not None else 0.0
                    # Sentence by sentence, as `play --narrate` speaks: time and memory grow
                    # with the text, not faster.
                    for reading in parts:
                        for sentence in split_sentences(reading):
                            with quiet_stdout():
                                wav.add(_synth(engine, sentence, profile), gap)
                            gap = 0.0
                except EngineError as e:
                    return _err(str(e))
        if wav is not None:
            seconds = wav.finish()
            print(
                f"katari speak: wrote {wav.path} ({seconds:.2f} s, {wav.rate} Hz)", file=sys.stderr
            )
            wav = None
    except OSError as e:
        return _err(f"cannot write {Path(args.out).resolve()}: {_why(e)}")
    finally:
        if wav is not None:
            wav.abort()
    return 0


def _why(e: OSError) -> str:
    from runner.ui.files import os_reason

    return os_reason(e, "en")
