"""Dice: notation, a seeded generator whose whole state is one integer, and hand-entered faces.

Notation: sums and differences of ``NdM`` terms and constants, e.g. ``1d6+1d4``, ``3d3``,
``2d10-1``, ``1d100``. ``D`` may be upper case; full-width digits are accepted.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol

MAX_DICE = 1000
MAX_SIDES = 1000

_MASK = (1 << 64) - 1


class DiceError(ValueError):
    """A dice expression that cannot be read."""


class NeedDice(Exception):
    """Raised by :class:`ManualDice` when the person at the table has to roll.

    ``expr`` is what is being rolled and ``sides`` the dice still needed, in order.
    """

    def __init__(self, expr: str, sides: list[int]) -> None:
        super().__init__(f"roll {expr}: {len(sides)} dice needed")
        self.expr = expr
        self.sides = sides


class DiceSource(Protocol):
    def face(self, sides: int) -> int:
        """Returns one die's face, 1..sides."""
        ...


def splitmix64(x: int) -> tuple[int, int]:
    """Returns (next state, output) of the SplitMix64 generator."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


class SeededDice:
    """A deterministic die roller whose whole state is the integer ``state``."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def face(self, sides: int) -> int:
        # Rejection sampling keeps every face equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        # splitmix64() written out: this runs for every die of every game.
        x = self.state
        while True:
            x = (x + 0x9E3779B97F4A7C15) & _MASK
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = x
                return z % sides + 1


def seed_state(seed: int) -> int:
    """Turns a user's seed into a well-mixed generator state."""
    return splitmix64(seed & _MASK)[1]


class ManualDice:
    """Faces given by a person (or a test) in the order they are rolled.

    With ``then`` set, dice past the given faces come from it; otherwise running out
    raises :class:`NeedDice` so the front end can ask for them.
    """

    def __init__(self, faces: list[int] | None = None, then: DiceSource | None = None) -> None:
        self.faces = list(faces or [])
        self.used = 0
        self.then = then

    def face(self, sides: int) -> int:
        if self.used < len(self.faces):
            f = self.faces[self.used]
            self.used += 1
            if sides == 10 and f == 0:
                f = 10
            if sides == 100 and f == 0:
                f = 100
            if not 1 <= f <= sides:
                raise DiceError(f"a d{sides} cannot show {f}")
            return f
        if self.then is not None:
            return self.then.face(sides)
        raise NeedDice(f"1d{sides}", [sides])


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    count: int
    """Number of dice; 0 for a constant."""
    sides: int
    """Faces of each die, or the constant's value when ``count`` is 0."""


@dataclass(frozen=True, slots=True)
class DiceExpr:
    text: str
    terms: tuple[Term, ...]

    @property
    def dice_count(self) -> int:
        return sum(t.count for t in self.terms)

    @property
    def sides(self) -> list[int]:
        return [t.sides for t in self.terms for _ in range(t.count)]

    @property
    def minimum(self) -> int:
        return sum(t.sign * (t.count if t.count else t.sides) if t.sign > 0 else
                   -(t.count * t.sides if t.count else t.sides) for t in self.terms)

    @property
    def maximum(self) -> int:
        return sum(t.sign * (t.count * t.sides if t.count else t.sides) if t.sign > 0 else
                   -(t.count if t.count else t.sides) for t in self.terms)


@dataclass(frozen=True, slots=True)
class Roll:
    """A rolled expression: every die, and the total."""

    expr: str
    dice: tuple[int, ...]
    sides: tuple[int, ...]
    total: int
    extra: dict = field(default_factory=dict, compare=False)

    def to_event(self, **more: object) -> dict:
        ev: dict = {"type": "roll", "expr": self.expr, "dice": list(self.dice),
                    "sides": list(self.sides), "total": self.total}
        ev.update(self.extra)
        ev.update(more)
        return ev


_TERM = re.compile(r"([+-]?)(?:(\d*)[dD](\d+)|(\d+))")
_cache: dict[str, DiceExpr] = {}


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).replace(" ", "").replace("－", "-")


def parse(text: str) -> DiceExpr:
    """Parses dice notation; raises :class:`DiceError` with the bad input quoted."""
    hit = _cache.get(text)
    if hit is not None:
        return hit
    s = normalise(text)
    if not s:
        raise DiceError("empty dice expression")
    pos, terms = 0, []
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (pos > 0 and not m.group(1)):
            raise DiceError(f"cannot read dice expression {text!r} at {s[pos:]!r}")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            terms.append(Term(sign, 0, int(m.group(4))))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise DiceError(f"{text!r}: between 1 and {MAX_DICE} dice, please")
            if not 1 <= sides <= MAX_SIDES:
                raise DiceError(f"{text!r}: dice have between 1 and {MAX_SIDES} sides")
            terms.append(Term(sign, count, sides))
        pos = m.end()
    if sum(t.count for t in terms) > MAX_DICE:
        raise DiceError(f"{text!r}: more than {MAX_DICE} dice")
    expr = DiceExpr(text, tuple(terms))
    if len(_cache) < 4096:
        _cache[text] = expr
    return expr


def roll(expr: str | DiceExpr, source: DiceSource) -> Roll:
    """Rolls ``expr`` with ``source``; dice are taken in the order written."""
    e = parse(expr) if isinstance(expr, str) else expr
    faces: list[int] = []
    sides: list[int] = []
    total = 0
    try:
        for t in e.terms:
            if t.count == 0:
                total += t.sign * t.sides
                continue
            for _ in range(t.count):
                f = source.face(t.sides)
                faces.append(f)
                sides.append(t.sides)
                total += t.sign * f
    except NeedDice as need:
        raise NeedDice(e.text, e.sides[len(faces):]) from need
    return Roll(e.text, tuple(faces), tuple(sides), total)
