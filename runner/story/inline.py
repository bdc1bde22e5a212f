"""Text that speaks: ``{…}`` inside narration, labels and ``say`` (parsed here, rendered by
:mod:`runner.engine.inline` at play time).

Inside a line of text::

    {coins}  {pc.name}  {sys.skill('Spot')}     the value of an expression (a condition:
                                                 no hook that changes the game)
    {rich: You are rich.|You are not.}           an inline condition (ink's form; the second
                                                 branch may be left out: {rich: and rich})
    {Once.|Twice.|Ever after.}                   a sequence: one each time, then the last
    {&Mon|Tue|Wed}                               a cycle: round and round
    {!First time.|Second time.}                  once only: each once, then nothing
    {~A gull cries.|Bells ring.}                 a shuffle: each showing draws one (a new
                                                 order each round, from the game's seed)
    {{ and }}                                    a brace as itself

Branches and alternatives may hold ``{…}`` themselves. What decides the kind: a leading
``~``, ``&`` or ``!`` makes a variation; else the whole of it, if it reads as an expression,
is one; else a ``:`` before the first ``|`` makes a condition (the text before it); else a
``|`` makes a sequence. So a condition cannot hold ``:`` or ``|`` (write ``or`` for ``||``).

A line is parsed once (:func:`parse`, cached by text); its variations are numbered in the
order they stand (``index``), and a game counts the showings of each under
``"<line id>#<index>"``, so a save or a replay shows the same text again.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from runner.story import expr as X


class InlineError(ValueError):
    """A malformed ``{…}``; ``col`` is the 0-based offset in the text."""

    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.col = col


class Value(NamedTuple):
    node: X.Node
    col: int
    """Offset of the expression's first character in the line."""


class Cond(NamedTuple):
    node: X.Node
    col: int
    then: tuple[Any, ...]
    otherwise: tuple[Any, ...]


class Vary(NamedTuple):
    mode: str
    """``""`` sequence, ``&`` cycle, ``!`` once only, ``~`` shuffle."""
    alternatives: tuple[tuple[Any, ...], ...]
    number: int
    """The variation's number in its line (0 for the first), for the game's count."""


Parts = tuple[Any, ...]
"""A line as parts: text, :class:`Value`, :class:`Cond`, :class:`Vary`."""

MODES = {"": "sequence", "&": "cycle", "!": "once-only", "~": "shuffle"}

_parsed: dict[str, Parts] = {}


def has_inline(text: str) -> bool:
    return "{" in text or "}" in text


def parse(text: str) -> Parts:
    """The parts of a line; raises :class:`InlineError` with the offset of the problem. A line
    without braces is ``(text,)``."""
    hit = _parsed.get(text)
    if hit is None:
        counter = [0]
        hit = tuple(_parts(text, 0, len(text), counter))
        if len(_parsed) < 50_000:
            _parsed[text] = hit
    return hit


def _close(text: str, i: int, end: int) -> int:
    """The offset of the ``}`` that closes the ``{`` at ``i``."""
    depth = 0
    j = i
    while j < end:
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise InlineError("a '{' is not closed: close it with '}', or write '{{' for a brace", i)


def _parts(text: str, start: int, end: int, counter: list[int]) -> list[Any]:
    out: list[Any] = []
    buf: list[str] = []
    i = start
    while i < end:
        c = text[i]
        if c == "{" and i + 1 < end and text[i + 1] == "{":
            buf.append("{")
            i += 2
        elif c == "}" and i + 1 < end and text[i + 1] == "}":
            buf.append("}")
            i += 2
        elif c == "}":
            raise InlineError("a lone '}': write '}}' for a brace", i)
        elif c == "{":
            j = _close(text, i, end)
            if buf:
                out.append("".join(buf))
                buf = []
            out.append(_construct(text, i + 1, j, counter))
            i = j + 1
        else:
            buf.append(c)
            i += 1
    if buf:
        out.append("".join(buf))
    return out


def _split(text: str, start: int, end: int, seps: str) -> list[int]:
    """Offsets of the separators in ``seps`` outside any nested ``{…}``."""
    out = []
    depth = 0
    for j in range(start, end):
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and c in seps:
            out.append(j)
    return out


def _construct(text: str, s: int, e: int, counter: list[int]) -> object:
    body = text[s:e]
    if not body.strip():
        raise InlineError("an empty '{}': write {name} for a value, or '{{}}' for braces", s - 1)
    if body[0] in "~&!":
        mode = body[0]
        return _vary(text, s + 1, e, mode, counter)
    try:
        return Value(X.parse(body), s)
    except X.ExprError as e_expr:
        problem = e_expr
    first = _split(text, s, e, ":|")
    if first and text[first[0]] == ":":
        colon = first[0]
        try:
            node = X.parse(text[s:colon])
        except X.ExprError as e2:
            raise InlineError(
                f"bad condition {text[s:colon].strip()[:40]!r} in {{condition: text|text}}: {e2}",
                s + e2.col,
            ) from None
        bars = _split(text, colon + 1, e, "|")
        if len(bars) > 1:
            raise InlineError(
                "an inline condition has at most two branches: {condition: yes|no}", bars[1]
            )
        mid = bars[0] if bars else e
        begin = colon + 1
        while begin < mid and text[begin] == " ":  # {rich: You are rich.}: no space
            begin += 1
        then = tuple(_parts(text, begin, mid, counter))
        other = tuple(_parts(text, mid + 1, e, counter)) if bars else ()
        return Cond(node, s, then, other)
    if first:
        return _vary(text, s, e, "", counter)
    raise InlineError(f"bad expression {body.strip()[:40]!r} in {{…}}: {problem}", s + problem.col)


def _vary(text: str, s: int, e: int, mode: str, counter: list[int]) -> Vary:
    index = counter[0]
    counter[0] += 1
    cuts = [s - 1, *_split(text, s, e, "|"), e]
    alts = tuple(
        tuple(_parts(text, a + 1, b, counter)) for a, b in zip(cuts, cuts[1:], strict=False)
    )
    return Vary(mode, alts, index)


def expressions(parts: Parts) -> list[tuple[X.Node, int]]:
    """Every expression in a line's parts, with its offset in the line."""
    out: list[tuple[X.Node, int]] = []

    def walk(ps: Parts) -> None:
        for p in ps:
            if isinstance(p, Value):
                out.append((p.node, p.col))
            elif isinstance(p, Cond):
                out.append((p.node, p.col))
                walk(p.then)
                walk(p.otherwise)
            elif isinstance(p, Vary):
                for a in p.alternatives:
                    walk(a)

    walk(parts)
    return out


def plain(parts: Parts) -> bool:
    """True when the line is only text (nothing to render at play time)."""
    return all(isinstance(p, str) for p in parts)
