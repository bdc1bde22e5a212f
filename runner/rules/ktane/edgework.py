"""A bomb's edgework, drawn from the game's dice: serial number, indicators, batteries.

Every function takes ``face(sides) -> 1..sides`` so that a test can feed fixed faces and
the rule system can feed ``ctx.faces``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

Face = Callable[[int], int]

LETTERS = "ABCDEFGHIJKLMNPQRSTUVWXZ"
"""The game's serial letters: O and Y are never used (O reads as 0)."""
DIGITS = "0123456789"
INDICATORS = ("SND", "CLR", "CAR", "IND", "FRQ", "SIG", "NSA", "MSA", "TRN", "BOB", "FRK")
MAX_INDICATORS = 3
MAX_HOLDERS = 2


def _pick(face: Face, alphabet: str | tuple[Any, ...]) -> str:
    return alphabet[face(len(alphabet)) - 1]


def serial(face: Face) -> str:
    """Draws a serial in the game's format: two letters-or-digits, a digit, two letters, a digit."""
    both = LETTERS + DIGITS
    return (
        _pick(face, both)
        + _pick(face, both)
        + _pick(face, DIGITS)
        + _pick(face, LETTERS)
        + _pick(face, LETTERS)
        + _pick(face, DIGITS)
    )


def is_serial(text: str) -> bool:
    """True for six characters in the game's serial format."""
    both = LETTERS + DIGITS
    return (
        len(text) == 6
        and text[0] in both
        and text[1] in both
        and text[2] in DIGITS
        and text[3] in LETTERS
        and text[4] in LETTERS
        and text[5] in DIGITS
    )


@functools.lru_cache(maxsize=64)
def first_digit(serial_number: str) -> int:
    """The first digit of a serial (the format guarantees one). Cached: a module's every
    stage-1 roll reads it, and the zones are drawn by playing the module through."""
    for ch in serial_number:
        if ch.isdigit():
            return int(ch)
    raise ValueError(f"serial {serial_number!r} has no digit")


def indicators(face: Face) -> list[dict[str, Any]]:
    """Draws 0..3 distinct indicators, each lit or unlit."""
    count = face(MAX_INDICATORS + 1) - 1
    left = list(INDICATORS)
    out: list[dict[str, Any]] = []
    for _ in range(count):
        label = left.pop(face(len(left)) - 1)
        out.append({"label": label, "lit": face(2) == 2})
    return out


def batteries(face: Face) -> int:
    """Draws 0..2 battery holders, each holding one D or two AA batteries (0..4 in all)."""
    holders = face(MAX_HOLDERS + 1) - 1
    return sum(face(2) for _ in range(holders))


def generate(face: Face) -> dict[str, Any]:
    """A whole edgework record: ``{serial, indicators, batteries}``."""
    return {"serial": serial(face), "indicators": indicators(face), "batteries": batteries(face)}


def has_indicator(edge: dict[str, Any], label: str) -> bool:
    """True if an indicator with this label is present, lit or unlit."""
    return any(i["label"] == label for i in edge.get("indicators", ()))
