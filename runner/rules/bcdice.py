"""BCDice's commands common to every game system, as Japanese online tables type them.

``common(text, source)`` reads what BCDice's ``CommonCommand`` reads and prints what it
prints for the same dice: sums of dice with a target (``2D6+1``, ``(1D6+2)*2``, ``1D6/2U``,
``5D6KH3``, ``1D100<=50``, ``2D6>=7``, ``1D6>?``), ``D66``, ``C(1+2*3)``, ``choice[a,b,c]``
(also ``choice(a,b,c)`` and ``choice a b c``) and the repeats ``x3 CMD``, ``rep3 CMD``,
``repeat3 CMD``. Each may start with ``S`` (a secret roll); a word after the command is a
comment (``2D6 ダメージ``). A game system's own commands come first (its
``RuleSystem.dice``, which also runs the repeats).

The dice come from a :class:`~runner.rules.dice.DiceSource` in BCDice's order, so the faces
BCDice reports rolling give the same text here (tests/test_bcdice_differential.py checks it
against BCDice itself). Where Katari differs on purpose: a divisor that can be zero is
refused (BCDice reads ``x/0`` as 1), dice are at most 1,000 and sides at most 1,000 (BCDice:
200 dice, 10,000 sides), and ``2D`` without sides is not read as ``2D6``.

Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from runner.rules.dice import (
    D66,
    DiceError,
    DiceExpr,
    DiceSource,
    NeedDice,
    parse_tree,
)

REPEAT_LIMIT = 100
CHOICE_LIMIT = 100
MAX_TEXT = 1000
"""Characters of a command (with its comment): longer text is no command."""

REPEAT_NESTED = "Repeatコマンドの重複はできません"
REPEAT_RANGE = f"繰り返し回数は1以上、{REPEAT_LIMIT}以下としてください"
CHOICE_MANY = f"項目数は{CHOICE_LIMIT}以下としてください"
CALC_ZERO = "ゼロ除算が発生したため計算できませんでした"


@dataclass
class BCResult:
    """One command's result: BCDice's text plus the numbers behind it."""

    text: str
    command: str = ""
    total: int | None = None
    dice: list[int] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)
    level: str | None = None
    """critical, extreme, hard, regular, success, failure, fumble; 6th edition: special,
    broken (故障); None when nothing was judged."""
    levels: list[str] | None = None
    """CBR: the level against each target."""
    rank: str | None = None
    """CBR: success, partial or failure."""
    target: int | None = None
    bonus: int = 0
    secret: bool = False
    error: bool = False
    san: dict[str, Any] | None = None
    """SAN: {before, loss, after, expr}."""
    comment: str = ""
    """Words after the command (``CC<=50 目星``: 目星), echoed before the result as CCFOLIA does."""
    flags: dict[str, Any] = field(default_factory=dict)
    """BCDice's own verdict: any of success, failure, critical, fumble set True."""
    parts: list[BCResult] | None = None
    """A repeat: each run's result."""

    @property
    def success(self) -> bool | None:
        if self.rank is not None:
            return self.rank == "success"
        if self.level is None:
            return None
        return self.level in SUCCESS_LEVELS

    def line(self) -> str:
        """What a table shows: the result, after the command and its comment when there is
        one (CCFOLIA's ``CC<=60 【目星】 (1D100<=60) ＞ …``)."""
        if not self.comment:
            return self.text
        return f"{self.command}{chr(10) if chr(10) in self.text else ' '}{self.text}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "command": self.command,
            "text": self.text,
            "total": self.total,
            "dice": list(self.dice),
            "sides": list(self.sides),
            "level": self.level,
            "success": self.success,
            "critical": self.level == "critical",
            "fumble": self.level == "fumble",
            "secret": self.secret,
        }
        if self.target is not None:
            out["target"] = self.target
        if self.bonus:
            out["bonus"] = self.bonus
        if self.levels is not None:
            out["levels"] = list(self.levels)
            out["rank"] = self.rank
        if self.san is not None:
            out["san"] = dict(self.san)
        if self.comment:
            out["comment"] = self.comment
            out["line"] = self.line()
        if self.parts is not None:
            out["results"] = [p.to_json() for p in self.parts]
        if self.error:
            out["error"] = True
        return out


SUCCESS_LEVELS = frozenset({"critical", "extreme", "hard", "regular", "success", "special"})


# ---------------------------------------------------------------- reading a line


def normal(text: str) -> str:
    """What BCDice reads: full-width letters, digits and signs as ASCII (CCFOLIA does this
    before BCDice sees the line)."""
    return unicodedata.normalize("NFKC", str(text)).strip()


def split(text: str) -> tuple[str, str]:
    """(the command word, the rest): BCDice reads up to the first white space."""
    parts = text.split(None, 1)
    if not parts:
        return "", ""
    return parts[0], (parts[1].strip() if len(parts) > 1 else "")


def faces(source: DiceSource, sides: list[int], expr: str) -> list[int]:
    """The faces of ``sides`` from ``source``; when dice run out, :class:`NeedDice` names
    ``expr`` and every die still needed."""
    got: list[int] = []
    try:
        for s in sides:
            got.append(source.face(s))
    except NeedDice:
        raise NeedDice(expr, sides[len(got) :]) from None
    return got


# ---------------------------------------------------------------- sums of dice (AddDice)

_CMP = re.compile(r"[<>!=]+")
_CMP_SHOW = {
    "<=": "<=",
    "=<": "<=",
    ">=": ">=",
    "=>": ">=",
    "<>": "<>",
    "!=": "<>",
    "=!": "<>",
    "<": "<",
    ">": ">",
    "=": "=",
    "==": "=",
}


def _cmp_op(op: str) -> str | None:
    """BCDice's reading of a run of < > ! = (``Normalize.comparison_operator``)."""
    if "<=" in op or "=<" in op:
        return "<="
    if ">=" in op or "=>" in op:
        return ">="
    if "<>" in op or "!=" in op or "=!" in op:
        return "<>"
    if "<" in op:
        return "<"
    if ">" in op:
        return ">"
    if "=" in op:
        return "="
    return None


def _compare(total: int, op: str, target: int) -> bool:
    if op == "<=":
        return total <= target
    if op == ">=":
        return total >= target
    if op == "<":
        return total < target
    if op == ">":
        return total > target
    if op == "=":
        return total == target
    return total != target


def _unneg(node: tuple[Any, ...]) -> tuple[Any, ...]:
    """BCDice drops a double minus (``--1D6`` is ``1D6``)."""
    while node[0] == "neg" and node[1][0] == "neg":
        node = node[1][1]
    return node


def _shape(node: tuple[Any, ...]) -> tuple[Any, ...]:
    """The tree as BCDice prints it: ``a+-b`` becomes ``a-b`` and ``a--b`` becomes ``a+b``
    (its parser's ``expand_negate``)."""
    k = node[0]
    if k in ("n", "dice"):
        return node
    if k in ("neg", "paren"):
        inner = _shape(node[1])
        return _unneg((k, inner))
    left, right = _shape(node[1]), _shape(node[2])
    if k in ("+", "-") and right[0] == "neg":
        return ("-" if k == "+" else "+", left, right[1])
    return (k, left, right)


_ROUND_SHOWN = {"/": "", "/U": "U", "/C": "U", "/R": "R", "/F": "F"}
"""How AddDice prints a division's rounding (its C is its U)."""


def _expr(node: tuple[Any, ...], e: DiceExpr) -> str:
    """BCDice's ``expr``: ``2D6+1``, ``5D6KH3``, ``1D6/2U``."""
    k = node[0]
    if k == "n":
        return str(node[1])
    if k == "dice":
        t = e.terms[node[1]]
        return f"{t.count}D{t.sides}{t.keep}{t.n if t.keep else ''}"
    if k == "neg":
        return "-" + _expr(node[1], e)
    if k == "paren":
        return f"({_expr(node[1], e)})"
    if k.startswith("/"):
        return f"{_expr(node[1], e)}/{_expr(node[2], e)}{_ROUND_SHOWN[k]}"
    return f"{_expr(node[1], e)}{k}{_expr(node[2], e)}"


def _output(node: tuple[Any, ...], e: DiceExpr, shown: list[str]) -> str:
    """BCDice's ``output``: each dice term as ``total[faces]``."""
    k = node[0]
    if k == "n":
        return str(node[1])
    if k == "dice":
        result: str = shown[node[1]]
        return result
    if k == "neg":
        return "-" + _output(node[1], e, shown)
    if k == "paren":
        return f"({_output(node[1], e, shown)})"
    if k.startswith("/"):
        return f"{_output(node[1], e, shown)}/{_output(node[2], e, shown)}{_ROUND_SHOWN[k]}"
    return f"{_output(node[1], e, shown)}{k}{_output(node[2], e, shown)}"


_BARE_D66 = re.compile(r"(?<![\d)])[dD]66(?!\d)")
_CONST = re.compile(r"^[-+*/()\dUuRrFfCc]+$")


def _target(text: str) -> int | None:
    """The value of a target written as arithmetic without dice (``50``, ``(60+10)/2``)."""
    if not text or not _CONST.match(text) or not any(c.isdigit() for c in text):
        return None
    try:
        e = parse_tree(text)
    except DiceError:
        return None
    if e.terms:
        return None
    return e.total([])


def add_dice(word: str, source: DiceSource, *, raw: str = "") -> BCResult | None:
    """A sum of dice (BCDice's AddDice), with an optional comparison; None if ``word`` is not one."""
    s = word
    secret = False
    if s[:1] in ("S", "s") and len(s) > 1 and s[1] in "0123456789(+-Dd":
        secret, s = True, s[1:]
    m = _CMP.search(s)
    op = target = None
    unknown = False
    if m:
        op = _cmp_op(m.group())
        rhs = s[m.end() :]
        s = s[: m.start()]
        if op is None:
            return None
        if rhs == "?":
            unknown = True
        else:
            target = _target(rhs)
            if target is None:
                return None
    if not s or not any(c in "dD" for c in s) or _BARE_D66.search(s):
        return None  # (BCDice's AddDice refuses D66 written without a count: that is D66's)
    try:
        e = parse_tree(s)
    except DiceError:
        return None
    if not e.terms:
        return None
    sides = e.sides
    got = faces(source, sides, raw or word)
    shown: list[str] = []
    i = 0
    for t in e.terms:
        n = t.faces
        chunk = got[i : i + n]
        i += n
        vals = t.values(chunk)
        if t.keep:
            vals = sorted(vals)
        shown.append(f"{t.value(chunk)}[{','.join(map(str, vals))}]")
    total = e.total(got)
    assert e.tree is not None  # parse_tree always gives a tree
    tree = _shape(e.tree)
    expr = _expr(tree, e)
    if op is not None:
        expr += _CMP_SHOW[op] + ("?" if unknown else str(target))
    seq = [f"({expr})"]
    plain_die = tree[0] == "dice" and not e.terms[tree[1]].keep and e.terms[tree[1]].count <= 1
    if not plain_die:
        seq.append(_output(tree, e, shown))
    seq.append(str(total))
    level = None
    flags: dict[str, Any] = {}
    if op is not None and not unknown:
        ok = _compare(total, op, target)  # type: ignore[arg-type]  # a target stands with every op
        level = "success" if ok else "failure"
        seq.append("成功" if ok else "失敗")
        flags = {"success": True} if ok else {"failure": True}
    return BCResult(
        " ＞ ".join(seq),
        raw or word,
        total,
        got,
        sides,
        level,
        target=target if op == "<=" else None,
        secret=secret,
        flags=flags,
    )


# ---------------------------------------------------------------- D66

_D66 = re.compile(r"^(S)?D66([ANSD])?$", re.IGNORECASE)


def d66(word: str, source: DiceSource, *, raw: str = "") -> BCResult | None:
    """``D66`` (``D66A``/``D66S`` sorted up, ``D66D`` down, ``D66N`` as rolled): two d6,
    tens then units. Katari's D66 is not sorted by default, as BCDice's CoC systems."""
    m = _D66.match(word)
    if not m:
        return None
    suffix = (m.group(2) or "").upper()
    got = faces(source, [6, 6], raw or word)
    a, b = got
    if suffix in ("A", "S") and a > b or suffix == "D" and a < b:
        a, b = b, a
    value = a * 10 + b
    return BCResult(
        f"(D66{suffix}) ＞ {value}", raw or word, value, got, [6, 6], secret=m.group(1) is not None
    )


# ---------------------------------------------------------------- C(...) arithmetic

_CALC = re.compile(r"^(S)?C([-+(\d].*)$", re.IGNORECASE)


class _CalcError(Exception):
    pass


class _Calc:
    """BCDice's Calc: + - * / (/U or /C up, /R nearest, /F down) and parentheses on whole
    numbers, printed back as it reads them."""

    def __init__(self, s: str) -> None:
        self.s, self.pos, self.depth = s, 0, 0

    def peek(self) -> str:
        return self.s[self.pos] if self.pos < len(self.s) else ""

    def add(self) -> tuple[str, Callable[[], int]]:
        out, fn = self.mul()
        while self.peek() in ("+", "-") and self.peek():
            op = self.s[self.pos]
            self.pos += 1
            o2, f2 = self.mul()
            out = f"{out}{op}{o2}"
            fn = (
                (lambda a, b: lambda: a() + b())(fn, f2)
                if op == "+"
                else (lambda a, b: lambda: a() - b())(fn, f2)
            )
        return out, fn

    def mul(self) -> tuple[str, Callable[[], int]]:
        out, fn = self.unary()
        while self.peek() in ("*", "/") and self.peek():
            op = self.s[self.pos]
            self.pos += 1
            o2, f2 = self.unary()
            if op == "*":
                out, fn = f"{out}*{o2}", (lambda a, b: lambda: a() * b())(fn, f2)
                continue
            how = ""
            if self.peek().upper() in ("U", "C", "R", "F") and self.peek():
                how = {"U": "C"}.get(self.peek().upper(), self.peek().upper())
                self.pos += 1
            out = f"{out}/{o2}{how}"
            fn = (lambda a, b, h: lambda: _calc_div(a(), b(), h))(fn, f2, how)
        return out, fn

    def unary(self) -> tuple[str, Callable[[], int]]:
        c = self.peek()
        if c == "+":
            self.pos += 1
            return self.unary()
        if c == "-":
            self.pos += 1
            o, f = self.unary()
            return "-" + o, (lambda g: lambda: -g())(f)
        if c == "(":
            self.depth += 1
            if self.depth > 20:
                raise _CalcError
            self.pos += 1
            o, f = self.add()
            if self.peek() != ")":
                raise _CalcError
            self.pos += 1
            self.depth -= 1
            return f"({o})", f
        m = re.compile(r"\d+").match(self.s, self.pos)
        if not m or len(m.group()) > 18:
            raise _CalcError
        self.pos = m.end()
        v = int(m.group())
        return str(v), lambda: v


def _calc_div(a: int, b: int, how: str) -> int:
    if b == 0:
        raise ZeroDivisionError
    if how in ("", "F"):
        return a // b
    if how == "C":
        return -((-a) // b)
    q = (abs(a) * 2 + abs(b)) // (abs(b) * 2)
    return q if (a < 0) == (b < 0) else -q


def calc(word: str, *, raw: str = "") -> BCResult | None:
    """``C(1+2*3)``: arithmetic, no dice (BCDice's Calc). ``c(1+2*3) ＞ 7``."""
    m = _CALC.match(word)
    if not m:
        return None
    body = m.group(2)
    p = _Calc(body)
    try:
        out, fn = p.add()
    except _CalcError:
        return None
    if p.pos != len(body):
        return None
    shown = out if out.startswith("(") and _closes_at_end(out) else f"({out})"
    try:
        value: int | str = fn()
    except ZeroDivisionError:
        value = CALC_ZERO
    total = value if isinstance(value, int) else None
    return BCResult(f"c{shown} ＞ {value}", raw or word, total, secret=m.group(1) is not None)


def _closes_at_end(text: str) -> bool:
    """Whether the parenthesis opening ``text`` closes at its last character."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(text) - 1
    return False


# ---------------------------------------------------------------- choice

_CHOICE = re.compile(r"^\s*(S)?choice(\d*)([\[(]|\s+)", re.IGNORECASE)
_CLOSE = {"[": "]", "(": ")"}


def _shorthand(item: str) -> list[Any] | None:
    m = re.match(r"^(\d+)-(\d+)$", item)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if a > b or b - a >= CHOICE_LIMIT:
            return None if a > b else list(range(a, a + CHOICE_LIMIT + 1))
        return list(range(a, b + 1))
    m = re.match(r"^([a-z])-([a-z])$", item) or re.match(r"^([A-Z])-([A-Z])$", item)
    if m and m.group(1) <= m.group(2):
        return [chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1)]
    return None


def choice(text: str, source: DiceSource, *, raw: str = "") -> BCResult | None:
    """``choice[a,b,c]``, ``choice(a,b,c)``, ``choice a b c``; ``choice2[...]`` picks two
    without repeats; ``choice[A-D]`` and ``choice[1-6]`` are ranges. Each pick rolls a die
    with as many sides as items are left."""
    m = _CHOICE.match(text)
    if not m:
        return None
    takes = int(m.group(2)) if m.group(2) else 1
    if takes == 0:
        return None
    opener = m.group(3)
    rest = text[m.end() :]
    comment = ""
    if opener in _CLOSE:
        # As BCDice scans: items end at every comma, the last at the first closing bracket
        # after the last comma; what follows is a comment.
        *items, tail = rest.split(",")
        end = tail.find(_CLOSE[opener])
        if end < 0:
            return None
        items.append(tail[:end])
        comment = tail[end + 1 :].strip()
        items = [x.strip() for x in items]
        kind = opener
    else:
        items = rest.split()
        kind = " "
    items = [x for x in items if x != ""]
    if len(items) == 1:
        items = _shorthand(items[0]) or []
    if not items or len(items) < takes:
        return None
    joined = ",".join(map(str, items))
    expr = {
        "[": f"choice{takes if takes > 1 else ''}[{joined}]",
        "(": f"choice{takes if takes > 1 else ''}({joined})",
        " ": f"choice{takes if takes > 1 else ''} {' '.join(map(str, items))}",
    }[kind]
    secret = m.group(1) is not None
    if len(items) > CHOICE_LIMIT:
        return BCResult(CHOICE_MANY, raw or text, secret=secret, error=True)
    left = list(items)
    chosen: list[Any] = []
    got: list[int] = []
    sides: list[int] = []
    try:
        for _ in range(takes):
            f = source.face(len(left))
            got.append(f)
            sides.append(len(left))
            chosen.append(left.pop(f - 1))
    except NeedDice:
        raise NeedDice(raw or text, [len(items) - i for i in range(len(got), takes)]) from None
    sep = " " if kind == " " else ", "
    return BCResult(
        f"({expr}) ＞ {sep.join(map(str, chosen))}",
        raw or text,
        None,
        got,
        sides,
        secret=secret,
        comment=comment,
    )


# ---------------------------------------------------------------- repeats

_REPEAT = re.compile(r"^(S)?(repeat|rep|x)(\d+)\s+(\S.*)$", re.IGNORECASE | re.DOTALL)
_NESTED = re.compile(r"^(repeat|rep|x)\d+", re.IGNORECASE)


def repeat(text: str, run: Callable[[str], BCResult | None], *, raw: str = "") -> BCResult | None:
    """``x3 CMD``, ``rep3 CMD``, ``repeat3 CMD``: CMD run 1 to 100 times, ``#1`` … ``#3``.
    ``run`` reads one command (the game system's, then the common ones)."""
    m = _REPEAT.match(text)
    if not m:
        return None
    secret = m.group(1) is not None
    trailer = m.group(4).strip()
    if _NESTED.match(trailer):
        return BCResult(REPEAT_NESTED, raw or text, secret=secret, error=True)
    times = int(m.group(3)) if len(m.group(3)) <= 4 else REPEAT_LIMIT + 1
    if not 1 <= times <= REPEAT_LIMIT:
        return BCResult(REPEAT_RANGE, raw or text, secret=secret, error=True)
    parts: list[BCResult | None] = []
    dice: list[int] = []
    sides: list[int] = []
    for _ in range(times):
        try:
            r = run(trailer)
        except NeedDice as need:
            raise NeedDice(raw or text, need.sides) from None
        parts.append(r)
        if r is not None:
            dice += r.dice
            sides += r.sides
    if all(p is None for p in parts):
        return BCResult(
            f"繰り返し対象のコマンドが実行できませんでした ({trailer})",
            raw or text,
            secret=secret,
            error=True,
        )
    text_out = "\n\n".join(
        f"#{i}\n{p.text if p is not None else ''}" for i, p in enumerate(parts, 1)
    )
    done = [p for p in parts if p is not None]
    _, comment = split(trailer)
    if trailer.lower().startswith("choice"):
        comment = done[0].comment if done else ""
    return BCResult(
        text_out,
        raw or text,
        None,
        dice,
        sides,
        secret=secret or any(p.secret for p in done),
        parts=done,
        comment=comment,
    )


# ---------------------------------------------------------------- all of them


def common(text: str, source: DiceSource) -> BCResult | None:
    """The common commands (not the repeats): sums of dice, C(...), choice, D66."""
    raw = normal(text)
    if not raw or len(raw) > MAX_TEXT:
        return None
    word, rest = split(raw)
    res = add_dice(word, source, raw=raw)
    if res is None:
        res = calc(word, raw=raw)
    if res is None:
        res = choice(raw, source, raw=raw)
        if res is not None:
            return res
    if res is None:
        res = d66(word, source, raw=raw)
    if res is not None:
        res.comment = rest
    return res


__all__ = [
    "BCResult",
    "CALC_ZERO",
    "CHOICE_MANY",
    "D66",
    "REPEAT_NESTED",
    "REPEAT_RANGE",
    "add_dice",
    "calc",
    "choice",
    "common",
    "d66",
    "faces",
    "normal",
    "repeat",
    "split",
]
