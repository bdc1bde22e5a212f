"""Dice: notation, a seeded generator whose whole state is one integer, and hand-entered faces.

Notation: sums and differences of ``NdM`` terms and constants, e.g. ``1d6+1d4``, ``3d3``,
``2d10-1``, ``1d100``; and, as BCDice writes them, products, quotients and parentheses:
``(1d6+2)*2``, ``1d6/2`` (rounded down, as BCDice does; ``/2U`` or ``/2C`` rounds up, ``/2R``
to the nearest, halves away from zero, ``/2F`` down); dice kept or dropped, ``5D6KH3`` (the
three highest), ``KL``, ``DH``, ``DL``, ``MAX``/``MIN`` (one die); and BCDice's D66: a die
written with 66 sides is two d6 read as tens and units (11-66), as BCDice reads ``1D66``.
``D`` may be upper case; full-width digits and operators are accepted.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:  # the engine imports the rules: its event types are for annotations only
    from runner.engine.events import RollEvent

MAX_DICE = 1000
MAX_SIDES = 1000

_MASK = (1 << 64) - 1


class DiceError(ValueError):
    """A dice expression that cannot be read (or a face its die cannot show).

    ``code`` names the problem and ``values`` fill its words, so a front end can say it in the
    player's language (runner/ui/i18n.py ``dice_<code>``); ``str()`` is the English."""

    ENGLISH = {
        "face": "a d{sides} cannot show {face}",
        "empty": "empty dice expression",
        "read": "cannot read dice expression {text!r} at {rest!r}",
        "ends": "cannot read dice expression {text!r}: it stops too soon",
        "count": "{text!r}: between 1 and {most} dice, please",
        "sides": "{text!r}: dice have between 1 and {most} sides",
        "many": "{text!r}: more than {most} dice",
        "zero": "{text!r}: division by zero",
        "divisor": "{text!r}: the divisor is or may be 0",
        "nested": "{text!r}: parentheses nested too deeply",
        "keep": "{text!r}: keep or drop at most {most} dice",
    }

    def __init__(self, code: str, **values: Any) -> None:
        self.code, self.values = code, values
        super().__init__(self.ENGLISH[code].format(**values))


def short(text: str, n: int = 40) -> str:
    """``text`` for a message: at most ``n`` characters of it."""
    return text[:n] + "…" if len(text) > n else text


def quote(text: str, n: int = 40) -> str:
    """``text`` for a message: at most ``n`` characters of it, quoted."""
    return repr(short(text, n))


class NeedDice(Exception):
    """Raised by :class:`ManualDice` when the person at the table has to roll.

    ``expr`` is what is being rolled and ``sides`` the dice still needed, in order; ``label``
    (the check or roll's name, ``目星``) and ``target`` (the value to roll under) let the
    front end say what the table is rolling for. ``events`` are the events the command had
    made before this roll (filled in by the engine as the exception leaves ``step()`` or
    ``new_game()``): a front end shows them before it asks, since the same faces make the same
    events again when it runs the command once more. ``state`` is the game as of those events
    (the command's own copy, half run: the clock a GM's ``!clock +70`` moved before the roll it
    set off), for a status bar to show while the table rolls; never a state to play on.
    """

    def __init__(
        self, expr: str, sides: list[int], *, label: str = "", target: int | None = None
    ) -> None:
        super().__init__(f"roll {expr}: {len(sides)} dice needed")
        self.expr = expr
        self.sides = sides
        self.label = label
        self.target = target
        self.events: list[Any] = []
        self.state: Any = None


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


def percentile_faces(given: list[int], count: int) -> tuple[list[int], int]:
    """The d10 faces (1-10; 10 shows 0) of a percentile roll of ``count`` d10s, the tens dice
    then the units die, from the numbers a table read off its dice; and how many of ``given``
    it used. The console's ``--dice manual`` answer and ``--jsonl``'s ``:dice`` read alike
    (docs/gm.md, docs/jsonl.md):

    - the usual two dice: one number is the roll, ``47``; ``00``, ``0`` and ``100`` are 100,
      ``5`` is 05. Two numbers are the tens die and the units die when they can be: a tens die
      ``0``-``9`` or ``20``-``90`` as it is printed, a units die ``0``-``9``; ``10`` is a
      d10's 0, as in the faces a roll event lists (``9 0`` is 90, ``40 7`` is 47, ``1 10`` is
      10, ``10 10`` is 100);
    - with bonus or penalty dice, one number a die, read the same way (fewer than ``count``
      when ``given`` runs out).

    Raises :class:`DiceError` (code ``face``, with ``face`` and ``sides``) for a number no
    die shows."""
    if not given:
        return [], 0

    def tens(f: int) -> int | None:
        return f if 0 <= f <= 10 else f // 10 if f % 10 == 0 and 20 <= f <= 90 else None

    if count == 2:
        f = given[0]
        t = tens(f)
        if t is not None and len(given) > 1 and 0 <= given[1] <= 10:
            return [t or 10, given[1] or 10], 2
        if not 0 <= f <= 100:
            raise _bad_face(f, 100)
        v = f or 100
        return [v // 10 % 10 or 10, v % 10 or 10], 1
    out = []
    for i, f in enumerate(given[:count]):
        t = tens(f) if i < count - 1 else f
        if t is None or not 0 <= t <= 10:
            raise _bad_face(f, 10)
        out.append(t or 10)
    return out, len(out)


def _bad_face(face: int, sides: int) -> DiceError:
    return DiceError("face", sides=sides, face=face)


class TableFaces(list[int]):
    """Faces as a table read them off its dice (``--jsonl``'s ``:dice``): a percentile roll's
    two d10s may be one number, as at the console (:func:`percentile_faces`)."""


class ManualDice:
    """Faces given by a person (or a test) in the order they are rolled.

    With ``then`` set, dice past the given faces come from it; otherwise running out
    raises :class:`NeedDice` so the front end can ask for them. Given as
    :class:`TableFaces`, a percentile roll reads them as the table does (:meth:`percentile`).
    """

    def __init__(self, faces: list[int] | None = None, then: DiceSource | None = None) -> None:
        self.table = isinstance(faces, TableFaces)
        self.faces = list(faces or [])
        self.used = 0
        self.then = then

    def percentile(self, count: int) -> list[int] | None:
        """The faces of a percentile roll of ``count`` d10s read from numbers a table gave
        (:func:`percentile_faces`); None when the faces are one a die (saves, replays, the
        console's answers) or none are left: then each die is read with :meth:`face`."""
        if not self.table or self.used >= len(self.faces):
            return None
        got, n = percentile_faces(self.faces[self.used :], count)
        self.used += n
        return got + [self.face(10) for _ in range(count - len(got))]

    def face(self, sides: int) -> int:
        if self.used < len(self.faces):
            f = self.faces[self.used]
            self.used += 1
            if sides == 10 and f == 0:
                f = 10
            if sides == 100 and f == 0:
                f = 100
            if not 1 <= f <= sides:
                raise DiceError("face", sides=sides, face=f)
            return f
        if self.then is not None:
            return self.then.face(sides)
        raise NeedDice(f"1d{sides}", [sides])


D66 = 66
"""A die of this many "sides" is BCDice's D66: two d6, the first the tens, the second the units."""
FILTERS = ("KH", "KL", "DH", "DL")
"""Keep the highest / lowest n dice, drop the highest / lowest n."""


@dataclass(frozen=True, slots=True)
class Term:
    sign: int
    count: int
    """Number of dice; 0 for a constant."""
    sides: int
    """Faces of each die, or the constant's value when ``count`` is 0 (:data:`D66`: a D66)."""
    keep: str = ""
    """"" or one of :data:`FILTERS`: which of the dice count."""
    n: int = 0
    """How many dice ``keep`` keeps or drops."""

    @property
    def faces(self) -> int:
        """Physical dice this term rolls (a D66 is two d6)."""
        return self.count * 2 if self.sides == D66 else self.count

    def physical(self) -> list[int]:
        """The sides of each physical die, in the order rolled."""
        return [6] * (self.count * 2) if self.sides == D66 else [self.sides] * self.count

    def values(self, faces: list[int] | tuple[int, ...]) -> list[int]:
        """Each die's value from its physical faces (a D66 pair reads tens then units)."""
        if self.sides == D66:
            return [faces[i] * 10 + faces[i + 1] for i in range(0, len(faces), 2)]
        return list(faces)

    def value(self, faces: list[int] | tuple[int, ...]) -> int:
        """The term's total (before its sign) from its physical faces, filters applied."""
        vals = self.values(faces)
        if not self.keep:
            return sum(vals)
        vals.sort()
        n = self.n
        if self.keep == "KH":
            kept = vals[max(0, len(vals) - n) :] if n else []
        elif self.keep == "KL":
            kept = vals[:n]
        elif self.keep == "DH":
            kept = vals[: max(0, len(vals) - n)]
        else:
            kept = vals[n:]
        return sum(kept)

    def span(self) -> tuple[int, int]:
        """The smallest and largest :meth:`value`."""
        lo_die, hi_die = (11, 66) if self.sides == D66 else (1, self.sides)
        k = self.count
        if self.keep in ("KH", "KL"):
            k = min(self.n, self.count)
        elif self.keep in ("DH", "DL"):
            k = max(0, self.count - self.n)
        return k * lo_die, k * hi_die


@dataclass(frozen=True, slots=True)
class DiceExpr:
    text: str
    terms: tuple[Term, ...]
    """A plain sum: its terms. With ``tree``: every dice term in the order rolled (sign +1)."""
    tree: tuple[Any, ...] | None = None
    """Arithmetic beyond a plain sum (``*``, ``/``, parentheses): a tree of ``("n", value)``,
    ``("dice", index into terms)``, ``("neg", x)`` and ``(op, left, right)`` with op one of
    ``+ - * / /U /R``. None for a plain sum."""

    @property
    def dice_count(self) -> int:
        """Physical dice rolled (a D66 counts two)."""
        return sum(t.count * 2 if t.sides == 66 else t.count for t in self.terms)

    @property
    def sides(self) -> list[int]:
        return [s for t in self.terms for s in t.physical()]

    @property
    def minimum(self) -> int:
        if self.tree is not None:
            return _range(self.tree, self.terms)[0]
        return sum(
            t.sign * (t.count if t.count else t.sides)
            if t.sign > 0
            else -(t.count * t.sides if t.count else t.sides)
            for t in self.terms
        )

    @property
    def maximum(self) -> int:
        if self.tree is not None:
            return _range(self.tree, self.terms)[1]
        return sum(
            t.sign * (t.count * t.sides if t.count else t.sides)
            if t.sign > 0
            else -(t.count if t.count else t.sides)
            for t in self.terms
        )

    def total(self, faces: list[int] | tuple[int, ...]) -> int:
        """The value of the expression for these faces (every die, in the order rolled)."""
        if self.tree is None:
            total, i = 0, 0
            for t in self.terms:
                if t.count == 0:
                    total += t.sign * t.sides
                    continue
                for f in faces[i : i + t.count]:
                    total += t.sign * f
                i += t.count
            return total
        sums, i = [], 0
        for t in self.terms:
            n = t.faces
            sums.append(t.value(faces[i : i + n]))
            i += n
        return _value(self.tree, sums, self.text)


@dataclass(frozen=True, slots=True)
class Roll:
    """A rolled expression: every die, and the total."""

    expr: str
    dice: tuple[int, ...]
    sides: tuple[int, ...]
    total: int
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_event(self, **more: object) -> RollEvent:
        ev: dict[str, Any] = {
            "type": "roll",
            "expr": self.expr,
            "dice": list(self.dice),
            "sides": list(self.sides),
            "total": self.total,
        }
        ev.update(self.extra)
        ev.update(more)
        # A plain dict: a rule system's extra keys ride along (runner.engine.events).
        return cast("RollEvent", ev)


_TERM = re.compile(r"([+-]?)(?:(\d*)[dD](\d+)|(\d+))")
_cache: dict[str, DiceExpr] = {}
_ARITH = frozenset("*/()KkHhLlMmAaXxIiNn")
"""Characters that make an expression more than a plain sum (arithmetic, keep/drop filters)."""
MAX_NESTING = 20
"""Parentheses deeper than this are refused (a typed or hostile expression stays cheap)."""


def normalise(text: str) -> str:
    return (
        unicodedata.normalize("NFKC", text)
        .replace(" ", "")
        .replace("－", "-")
        .replace("×", "*")
        .replace("÷", "/")
    )


def parse(text: str) -> DiceExpr:
    """Parses dice notation; raises :class:`DiceError` with the bad input quoted."""
    hit = _cache.get(text)
    if hit is not None:
        return hit
    s = normalise(text)
    if not s:
        raise DiceError("empty")
    if not _ARITH.isdisjoint(s):
        expr = _Arith(text, s).parse()
        if len(_cache) < 4096:
            _cache[text] = expr
        return expr
    pos, terms = 0, []
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (pos > 0 and not m.group(1)):
            raise DiceError("read", text=short(text), rest=short(s[pos:]))
        sign = -1 if m.group(1) == "-" else 1
        if m.group(4) is not None:
            terms.append(Term(sign, 0, int(m.group(4))))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not 1 <= count <= MAX_DICE:
                raise DiceError("count", text=short(text), most=MAX_DICE)
            if not 1 <= sides <= MAX_SIDES:
                raise DiceError("sides", text=short(text), most=MAX_SIDES)
            terms.append(Term(sign, count, sides))
        pos = m.end()
    if any(t.sides == D66 and t.count for t in terms):
        expr = _Arith(text, s).parse()  # two d6 a die: the tree reader works it out
        if len(_cache) < 4096:
            _cache[text] = expr
        return expr
    if sum(t.count for t in terms) > MAX_DICE:
        raise DiceError("many", text=short(text), most=MAX_DICE)
    expr = DiceExpr(text, tuple(terms))
    if len(_cache) < 4096:
        _cache[text] = expr
    return expr


def parse_tree(text: str) -> DiceExpr:
    """Like :func:`parse`, but always as a tree, parentheses kept where they were written: for
    printing an expression back as BCDice does (:mod:`runner.rules.bcdice`). Not cached."""
    s = normalise(text)
    if not s:
        raise DiceError("empty")
    return _Arith(text, s).parse()


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
            if t.sides == 66:  # a D66 (only in a tree: its total is worked out below)
                for _ in range(t.count * 2):
                    faces.append(source.face(6))
                    sides.append(6)
                continue
            for _ in range(t.count):
                f = source.face(t.sides)
                faces.append(f)
                sides.append(t.sides)
                total += t.sign * f
    except NeedDice as need:
        raise NeedDice(e.text, e.sides[len(faces) :]) from need
    if e.tree is not None:
        total = e.total(faces)
    return Roll(e.text, tuple(faces), tuple(sides), total)


# ---------------------------------------------------------------- products and quotients


def _divide(a: int, b: int, how: str, text: str) -> int:
    """BCDice's division: rounded down (``/``, ``/F``), up (``/U``, ``/C``) or to the nearest,
    halves away from zero (``/R``). Ruby's integer division, like Python's ``//``, rounds
    towards −∞ (BCDice rounds ``/U`` and ``/R`` through a float; exact here)."""
    if b == 0:
        raise DiceError("zero", text=short(text))
    if how in ("/", "/F"):
        return a // b
    if how in ("/U", "/C"):
        return -((-a) // b)
    q, r = divmod(abs(a) * 2 + abs(b), abs(b) * 2)  # |a/b| + 1/2, rounded down
    return q if (a < 0) == (b < 0) else -q


def _value(node: tuple[Any, ...], sums: list[int], text: str) -> int:
    k = node[0]
    if k == "n":
        result: int = node[1]
        return result
    if k == "dice":
        result = sums[node[1]]
        return result
    if k == "neg":
        return -_value(node[1], sums, text)
    if k == "paren":
        return _value(node[1], sums, text)
    a, b = _value(node[1], sums, text), _value(node[2], sums, text)
    if k == "+":
        return a + b
    if k == "-":
        return a - b
    if k == "*":
        return a * b
    return _divide(a, b, k, text)


def _range(node: tuple[Any, ...], terms: tuple[Term, ...]) -> tuple[int, int]:
    """The smallest and largest value of a tree (every operation is monotonic in each
    argument on ranges that do not cross zero, so the corners bound it)."""
    k = node[0]
    if k == "n":
        return node[1], node[1]
    if k == "dice":
        result: tuple[int, int] = terms[node[1]].span()
        return result
    if k == "neg":
        lo, hi = _range(node[1], terms)
        return -hi, -lo
    if k == "paren":
        return _range(node[1], terms)
    (a0, a1), (b0, b1) = _range(node[1], terms), _range(node[2], terms)
    if k == "+":
        return a0 + b0, a1 + b1
    if k == "-":
        return a0 - b1, a1 - b0
    c: tuple[int, ...]
    if k == "*":
        c = (a0 * b0, a0 * b1, a1 * b0, a1 * b1)
    else:
        c = tuple(_divide(x, y, k, "") for x in (a0, a1) for y in (b0, b1))
    return min(c), max(c)


class _Arith:
    """A recursive-descent reader for ``+ - * /`` (``/U``, ``/R``) and parentheses over dice
    terms and whole numbers, with the usual precedence."""

    def __init__(self, text: str, s: str) -> None:
        self.text, self.s, self.pos, self.depth = text, s, 0, 0
        self.terms: list[Term] = []

    def fail(self) -> DiceError:
        rest = self.s[self.pos :]
        if not rest:
            return DiceError("ends", text=short(self.text))
        return DiceError("read", text=short(self.text), rest=short(rest))

    def parse(self) -> DiceExpr:
        tree = self.sum()
        if self.pos != len(self.s):
            raise self.fail()
        if sum(t.faces for t in self.terms) > MAX_DICE:
            raise DiceError("many", text=short(self.text), most=MAX_DICE)
        return DiceExpr(self.text, tuple(self.terms), tree)

    def peek(self) -> str:
        return self.s[self.pos] if self.pos < len(self.s) else ""

    def sum(self) -> tuple[Any, ...]:
        node = self.product()
        while self.peek() in ("+", "-"):
            op = self.s[self.pos]
            self.pos += 1
            node = (op, node, self.product())
        return node

    def product(self) -> tuple[Any, ...]:
        node = self.unary()
        while self.peek() in ("*", "/"):
            op = self.s[self.pos]
            self.pos += 1
            right = self.unary()
            if op == "/" and self.peek() in ("U", "u", "R", "r", "F", "f", "C", "c"):
                op = "/" + self.s[self.pos].upper()
                self.pos += 1
            if op.startswith("/"):
                lo, hi = _range(right, tuple(self.terms))
                if lo <= 0 <= hi:
                    raise DiceError("divisor", text=short(self.text))
            node = (op, node, right)
        return node

    def unary(self) -> tuple[Any, ...]:
        c = self.peek()
        if c in ("+", "-"):
            self.pos += 1
            inner = self.unary()
            return ("neg", inner) if c == "-" else inner
        if c == "(":
            self.depth += 1
            if self.depth > MAX_NESTING:
                raise DiceError("nested", text=short(self.text))
            self.pos += 1
            node = self.sum()
            if self.peek() != ")":
                raise self.fail()
            self.pos += 1
            self.depth -= 1
            return ("paren", node)
        m = _ATOM.match(self.s, self.pos)
        if not m:
            raise self.fail()
        self.pos = m.end()
        if m.group(6) is not None:
            return ("n", int(m.group(6)))
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        if not 1 <= count <= MAX_DICE:
            raise DiceError("count", text=short(self.text), most=MAX_DICE)
        if not 1 <= sides <= MAX_SIDES:
            raise DiceError("sides", text=short(self.text), most=MAX_SIDES)
        keep, n = "", 0
        if m.group(3):
            keep, n = m.group(3).upper(), int(m.group(4) or 1)  # KH alone keeps one, as BCDice
        elif m.group(5):
            keep, n = ("KH" if m.group(5).upper() == "MAX" else "KL"), 1
        if keep:
            if n > MAX_DICE:
                raise DiceError("keep", text=short(self.text), most=MAX_DICE)
        self.terms.append(Term(1, count, sides, keep, n))
        return ("dice", len(self.terms) - 1)


_ATOM = re.compile(r"(?:(\d*)[dD](\d+)(?:([KkDd][HhLl])(\d*)|(MAX|MIN|max|min))?|(\d+))")
