"""Durations and clock times as stories write them: ``30``, ``"30m"``, ``"1h30m"``, ``"10:00"``."""

from __future__ import annotations

import re
from typing import Any

from runner.story.bounds import MAX_NUMBER, short

_TIME = re.compile(
    r"^\s*(?:([0-9]{1,19})\s*h(?:ours?)?)?\s*(?:([0-9]{1,19})\s*m(?:in(?:utes?)?)?)?\s*$"
)
CLOCK_TIME = re.compile(r"^\s*([0-9]{1,2}):([0-9]{2})\s*$")
"""A time of day, ``HH:MM``."""
_DIGITS = re.compile(r"^\s*[0-9]{1,19}\s*$")
BIG = re.compile(r"[0-9]{19}")
"""Nineteen digits in a row: a number beyond 10^18."""


def minutes(v: Any) -> int | None:
    """Reads a duration: 30, "30m", "1h", "1h30m", "1:30". None if it is not one, or if it
    is beyond ±10^18 minutes (see :func:`duration_problem` for why)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if -MAX_NUMBER <= v <= MAX_NUMBER else None
    if isinstance(v, float) and v.is_integer():
        return int(v) if abs(v) <= MAX_NUMBER else None
    if isinstance(v, str):
        if _DIGITS.match(v):
            n = int(v)
            return n if n <= MAX_NUMBER else None
        m = CLOCK_TIME.match(v)
        if m:
            hh, mm = int(m.group(1)), int(m.group(2))
            return hh * 60 + mm if hh < 24 and mm < 60 else None
        m = _TIME.match(v)
        if m and (m.group(1) or m.group(2)):
            n = int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
            return n if n <= MAX_NUMBER else None
    return None


def duration_problem(what: str, v: Any, example: str) -> str:
    """The message for a duration :func:`minutes` could not read."""
    if (
        isinstance(v, (int, float))
        and not isinstance(v, bool)
        or isinstance(v, str)
        and BIG.search(v)
    ):
        return f"{what} {short(v)} is out of range (at most 10^18 minutes)"
    return f"{what} {short(v)}: {example}"
