"""Text a story brings, and text Katari writes to a terminal: no control characters.

A story is text: the loader refuses any control character other than newline and tab
(:data:`CONTROL`) with a located message, so narration cannot clear the screen, set the
window title or write the clipboard (terminal escape sequences all start with one).

:func:`printable` is the one sanitiser for what reaches a terminal from elsewhere (a save,
a transcript, a player's line echoed back): it removes whole escape sequences and any other
control character, keeping newlines and tabs.
"""

from __future__ import annotations

import functools
import re

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Control characters (Unicode category Cc) other than tab and newline."""


@functools.cache
def _sequence() -> re.Pattern[str]:
    """A terminal escape sequence or a control character (compiled on first need: rare)."""
    return re.compile(
        r"""\x1b\[[0-?]*[ -/]*[@-~]?              # CSI: cursor moves, erase, colours
          | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC: window title, clipboard (52), links
          | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?       # DCS, SOS, PM, APC strings
          | \x1b[ -/]*[0-~]?                       # any other escape
          | \x9b[0-?]*[ -/]*[@-~]?                 # CSI as one C1 character
          | [\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?  # C1 string openers
          | [\x00-\x08\x0b-\x1f\x7f-\x9f]         # any other control character
        """,
        re.VERBOSE,
    )


def control_problem(text: str) -> tuple[int, str] | None:
    """(offset, message) of the first control character in ``text``, or None."""
    m = CONTROL.search(text)
    if m is None:
        return None
    ch = m.group()
    what = {
        "\x1b": " (escape: a terminal control sequence)",
        "\r": " (carriage return)",
        "\x00": " (NUL)",
    }.get(ch, "")
    return (
        m.start(),
        f"control character U+{ord(ch):04X}{what} in text: a story holds text only, "
        "without control characters other than newline and tab",
    )


def printable(text: str) -> str:
    """``text`` without terminal escape sequences or other control characters (newlines and
    tabs stay): safe to write to a terminal."""
    if not CONTROL.search(text):
        return text
    return _sequence().sub("", text)
