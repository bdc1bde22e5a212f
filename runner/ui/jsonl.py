"""Headless play: one command a line in, one JSON event a line out.

See docs/jsonl.md. Every turn (the start, then each command) writes its events, then one
``state``, then exactly one ``prompt`` or ``ending``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import IO

from runner.engine import new_game, step
from runner.engine.state import State
from runner.rules.dice import DiceError
from runner.story import Story, load


def turns(story: Story, lines: Iterable[str], *, seed: int = 0, gm: bool = False,
          dice: list[int] | None = None) -> Iterator[dict]:
    """Yields every event of a game fed with ``lines``; ``dice`` are faces used first, in order."""
    pending = list(dice or [])
    state, events = new_game(story, seed, gm=gm)
    yield from events
    for raw in lines:
        line = raw.rstrip("\r\n")
        if line.startswith(":dice "):
            # A table's real dice for the next rolls (tests, bots, a GM's helper).
            try:
                pending.extend(int(x) for x in line[6:].replace(",", " ").split())
            except ValueError:
                yield {"type": "error", "message": f"cannot read dice {line[6:]!r}"}
            continue
        used = None
        if pending:
            used = pending
        try:
            new, events = step(story, state, line, dice=used, gm=gm)
        except DiceError as e:
            yield {"type": "error", "message": str(e)}
            continue
        if used is not None and new is not state:
            pending = []
        state = new
        yield from events


def run(story: Story | str, lines: Iterable[str], *, seed: int = 0, gm: bool = False) -> list[dict]:
    """Plays a whole game in-process and returns its events (for tests and bots)."""
    s = load(story) if isinstance(story, str) else story
    return list(turns(s, lines, seed=seed, gm=gm))


def play(story: Story, inp: IO[str], out: IO[str], *, seed: int = 0, gm: bool = False,
         state_out: list[State] | None = None) -> int:
    """Plays from a stream of lines, writing JSON lines; returns 0."""
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    write = out.write
    for ev in turns(story, inp, seed=seed, gm=gm):
        write(dumps(ev))
        write("\n")
        if ev["type"] in ("prompt", "ending"):
            out.flush()
    out.flush()
    return 0
