"""Headless play: one command a line in, one JSON event a line out.

See docs/jsonl.md. Every turn (the start, then each input line, whatever it holds) writes its
events, then one ``state``, then exactly one ``prompt`` or ``ending``.

Input is read as bytes and checked here, at the door: a line that is not UTF-8 or is longer
than :data:`MAX_LINE` bytes is an ``error`` event (and the turn's ``state`` and ``prompt``),
never a traceback. Output is always valid UTF-8 JSON, one object a line.
"""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, cast

from runner.debug import debugging, hook_failure_line, show_trace
from runner.engine import new_game, step, tail
from runner.engine.evaluate import HookFailure
from runner.engine.events import ErrorEvent, Event
from runner.engine.state import State
from runner.rules.dice import MAX_DICE, MAX_SIDES, DiceError, TableFaces
from runner.story import Story, load

MAX_LINE = 16384
"""Bytes of one input line (a command, a ``:dice`` line or a rule command such as ``@carry``)."""


@dataclass(frozen=True, slots=True)
class BadLine:
    """An input line that never became text: ``code`` and a one-line ``message``."""

    code: str
    message: str


def read_lines(stream: IO[bytes], limit: int = MAX_LINE) -> Iterator[str | BadLine]:
    """The lines of a byte stream, decoded as UTF-8; a line that is not UTF-8 or is longer
    than ``limit`` bytes comes as a :class:`BadLine` (its bytes are read in bounded pieces
    and dropped, so memory never holds more than ``limit`` bytes of it)."""
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        if len(raw) > limit and not raw.endswith(b"\n"):
            size = len(raw)
            while True:
                more = stream.readline(1 << 16)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    size -= more.endswith(b"\n")
                    break
            yield BadLine("too_long", f"line too long ({size} bytes; at most {limit}): ignored")
            continue
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            yield BadLine(
                "bad_encoding",
                f"line is not UTF-8 (byte 0x{raw[e.start]:02x} at {e.start}): ignored",
            )


def _quote(text: str, n: int = 24) -> str:
    return repr(text[:n] + "…" if len(text) > n else text)


def read_faces(text: str, have: int = 0) -> tuple[list[int], str]:
    """The faces of a ``:dice`` line (``3,5`` or ``3 5``), or ([], why not). A face is a
    whole number a die can show: 1 to MAX_SIDES, or 0 (a d10's or d100's 10 or 100);
    whether it fits the die that is rolled is checked when it is used."""
    words = unicodedata.normalize("NFKC", text).replace(",", " ").split()
    if not words:
        return [], ":dice takes the faces of the dice, e.g. :dice 3,5"
    if have + len(words) > MAX_DICE:
        return [], f":dice: at most {MAX_DICE} faces waiting at once"
    faces = []
    for w in words:
        if not (w.isdigit() and w.isascii() and len(w) <= 4 and int(w) <= MAX_SIDES):
            return (
                [],
                f":dice: {_quote(w)} is not a die's face (a whole number from 1 to {MAX_SIDES})",
            )
        faces.append(int(w))
    return faces, ""


PREFIXES = ("/", ":", "／", "：")
"""A leading mark that makes a line a console word even where a story action has its name."""

CONSOLE_ONLY: dict[str, str] = {
    # A console word (runner.ui.i18n.META) -> what a --jsonl front end does instead. `sheet`
    # works here (it is the rule command `@sheet`); every other word is answered in one line.
    "help": "the prompt event lists the actions valid now",
    "look": "the narration events of each turn are the description",
    "inventory": "the state event carries the inventory",
    "status": "the state event carries the status",
    "history": "the input lines are the history",
    "save": "a --jsonl game is its input lines: send them again with the same --seed",
    "load": "a --jsonl game is its input lines: send them again with the same --seed",
    "saves": "a --jsonl game keeps no saves",
    "undo": "send the lines again without the last ones, with the same --seed",
    "redo": "send the lines again with the same --seed",
    "restart": "start a new katari play --jsonl",
    "transcript": "the output is the record",
    "roll": "katari roll EXPR rolls dice outside a game",
    "reveal": "rolls are never secret here",
    "import": "katari play STORY --investigator FILE brings an investigator in",
    "narrate": "the narrator is the console's (katari play --narrate)",
    "skip": "the narrator is the console's (katari play --narrate)",
    "again": "send the line again",
    "actions": "the prompt event lists the actions valid now",
    "faster": "the narrator is the console's (katari play --narrate)",
    "slower": "the narrator is the console's (katari play --narrate)",
    "voice": "the narrator is the console's (katari play --narrate)",
    "pause": "a front end's clock reports to the game with its rule commands (@time_passed)",
    "resume": "a front end's clock reports to the game with its rule commands (@time_passed)",
    "gm": "with --gm, a line !set, !clock, !damage, !force, !give, !take or !goto",
    "quit": "close the input to end",
}


_WORDS: dict[str, str] | None = None
"""The console's words (runner.ui.i18n.meta_words), read at the first line that needs them."""


def console_word(story: Story, state: State, line: str) -> str | ErrorEvent | None:
    """A console word typed here (docs/repl.md), matched as the console matches it: with a
    leading ``/`` or ``:`` always, else unless a story action has that name. ``sheet [WHO]``
    becomes the rule command ``@sheet [WHO]`` (a str: the line to play); every other word is
    an ``error`` event saying it is the console's and what to do here (a dict); None: not a
    console word, the line is played as it is."""
    global _WORDS
    text = line.strip()
    if not text or text[0] in "@!":
        return None
    explicit = text[0] in PREFIXES
    words = unicodedata.normalize("NFKC", text[1:] if explicit else text).split()
    if _WORDS is None:
        from runner.ui.i18n import meta_words

        _WORDS = meta_words()
    name = _WORDS.get(words[0].casefold()) if words else None
    if name is None:
        return None
    from runner.engine import available, match, resolve
    from runner.engine.match import is_verb_phrase

    if not explicit and state.ending is None:
        here = available(story, state)
        if match(story, state, text, here, fuzzy=False) is not None:
            return None  # a story action of that name wins over a console word
        if is_verb_phrase(text):
            found = resolve(story, state, text, here)
            if found.choice is not None or found.candidates:
                return None  # "look at the clock": the story's
    if name == "sheet":
        from runner.rules import system

        rs = system(story.rules)
        if rs.sheet is None or "sheet" not in rs.meta_commands:
            why = "this story's rules keep no character sheet"
        elif not rs.sheet(story, state, story.language):
            why = "no character sheet yet: choose a character first"
        else:
            return " ".join(["@sheet", *words[1:]])
        return {"type": "error", "code": "no_sheet", "message": f"{words[0]}: {why}"}
    return {
        "type": "error",
        "code": "console_only",
        "message": f"{words[0][:40]!r} is a console command (katari play without --jsonl); "
        f"here: {CONSOLE_ONLY[name]}",
        "data": {"command": name},
    }


def turns(
    story: Story,
    lines: Iterable[str | BadLine],
    *,
    seed: int = 0,
    gm: bool = False,
    dice: list[int] | None = None,
) -> Iterator[Event]:
    """Yields every event of a game fed with ``lines``; ``dice`` are faces used first, in order.

    Every line, whatever it holds, is answered by its events, one ``state`` and one ``prompt``
    or ``ending``."""
    pending = list(dice or [])
    try:
        state, events = new_game(story, seed, gm=gm)
    except HookFailure as e:  # the rule system's init failed: one line, and no game
        show_trace(e)
        yield _failed(e)
        return
    yield from events
    for raw in lines:
        if isinstance(raw, BadLine):
            yield {"type": "error", "code": raw.code, "message": raw.message}
            yield from tail(story, state, gm=gm)
            continue
        line = raw.rstrip("\r\n")
        if line == ":dice" or line.startswith(":dice "):
            # A table's real dice for the next rolls (tests, bots, a GM's helper).
            faces, problem = read_faces(line[6:], len(pending))
            if problem:
                yield {"type": "error", "code": "bad_dice", "message": problem}
            else:
                pending.extend(faces)
                yield {"type": "dice", "pending": list(pending)}
            yield from tail(story, state, gm=gm)
            continue
        said = console_word(story, state, line)
        if isinstance(said, dict):
            yield said
            yield from tail(story, state, gm=gm)
            continue
        if said is not None:
            line = said
        # The faces given are for this command only: whether it uses them all, runs, or
        # fails (a typo, or a face its die cannot show: a 9 for a d6), the rest are dropped,
        # so one bad face never spoils the rolls after it.
        used, pending = (TableFaces(pending) if pending else None), []
        try:
            new, events = step(story, state, line, dice=used, gm=gm)
        except DiceError as e:
            yield {"type": "error", "code": "bad_dice", "message": f"{e}: the command did not run"}
            yield from tail(story, state, gm=gm)
            continue
        except HookFailure as e:  # a rule system's bug: name the hook, trace on request
            show_trace(e)
            yield _failed(e)
            yield from tail(story, state, gm=gm)
            continue
        except Exception as e:  # noqa: BLE001 - a bug must cost the command, not the session
            show_trace(e)
            more = "" if debugging() else " (KATARI_DEBUG=1 prints the traceback)"
            yield {
                "type": "error",
                "code": "internal",
                "message": f"internal error ({type(e).__name__}): the command did not run{more}",
            }
            yield from tail(story, state, gm=gm)
            continue
        state = new
        yield from events


def _failed(e: HookFailure) -> ErrorEvent:
    """A failed hook or rule-system function as an ``internal`` error event."""
    ev: ErrorEvent = {"type": "error", "code": "internal", "message": hook_failure_line(e)}
    if e.system:
        ev["data"] = {"system": e.system, "function": e.hook}
    return ev


def run(
    story: Story | str, lines: Iterable[str], *, seed: int = 0, gm: bool = False
) -> list[Event]:
    """Plays a whole game in-process and returns its events (for tests and bots)."""
    s = load(story) if isinstance(story, str) else story
    return list(turns(s, lines, seed=seed, gm=gm))


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_dumps_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def encode(ev: Mapping[str, object]) -> bytes:
    """One event as a line of UTF-8 JSON. Text that cannot be UTF-8 (a lone surrogate from
    an in-process caller) is written as a JSON escape, so the line is valid either way."""
    try:
        return (_dumps(ev) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (_dumps_ascii(ev) + "\n").encode("ascii")


def play(
    story: Story,
    inp: IO[bytes] | Iterable[str | BadLine],
    out: IO[bytes] | IO[str],
    *,
    seed: int = 0,
    gm: bool = False,
    first: str | None = None,
    state_out: list[State] | None = None,
) -> int:
    """Plays from ``inp`` (a byte stream, read with :func:`read_lines`, or lines already
    read), writing JSON lines to ``out`` (bytes, or text). ``first`` is a line
    sent before the input (``--campaign-from``'s ``@carry``). Returns 1 when the game
    could not start (the rule system's ``init`` failed: one ``internal`` error event)."""
    lines: Iterable[str | BadLine] = (
        read_lines(cast(IO[bytes], inp))
        if hasattr(inp, "readline") and not isinstance(inp, io.TextIOBase)
        else cast(Iterable[str | BadLine], inp)
    )
    if first is not None:
        lines = _chain(first, lines)
    text_out = cast(IO[str], out) if isinstance(out, io.TextIOBase) else None
    byte_out = cast(IO[bytes], out)
    # A game master's view of a translated story marks the lines still in the source language.
    fallback = story.translation.fallback if gm and story.translation is not None else ()
    started = False
    try:
        for ev in turns(story, lines, seed=seed, gm=gm):
            started = started or ev["type"] == "state"
            if fallback and ev["type"] == "narration" and ev.get("id") in fallback:
                ev = {**ev, "untranslated": True}
            line = encode(ev)
            if text_out is not None:
                text_out.write(line.decode("utf-8"))
            else:
                byte_out.write(line)
            if ev["type"] in ("prompt", "ending"):
                out.flush()
        out.flush()
    except BrokenPipeError:
        # The reader went away: nobody is left to tell. Point the stream at /dev/null so
        # the interpreter's own flush at exit does not complain either.
        try:
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass
    return 0 if started else 1  # (the rule system's init failed: no game)


def _chain(first: str, rest: Iterable[str | BadLine]) -> Iterator[str | BadLine]:
    yield first
    yield from rest
