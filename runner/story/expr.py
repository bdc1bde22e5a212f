"""The expression language of stories: parsed, never ``eval``-ed.

Grammar (lowest precedence first)::

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | cmp
    cmp     := sum (("=="|"!="|"<"|"<="|">"|">=") sum)*     # chains like 1 < x < 3
    sum     := prod (("+"|"-") prod)*
    prod    := unary (("*"|"/"|"//"|"%") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | STRING | "true" | "false" | "none" | NAME | call | "(" expr ")"
    call    := NAME ("." NAME)? "(" [arg ("," arg)*] ")"
    arg     := expr | NAME "=" expr                          # keyword arguments last
    attr    := NAME "." NAME                                 # pc.name, a character's stat

A call node is ``("call", name, args, col, kwargs)`` with ``kwargs`` a tuple of
``(name, node, col)``; an attribute is ``("attr", who, field, col)``: a look-up in the
game's character sheets (never Python's attributes).

Words ``and or not true false none`` may also be written ``&& || ! True False None``.
There is no power operator, no attribute access beyond a rule system's prefix, no
subscripts and no names with double underscores, so a story cannot reach Python.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

MAX_LEN = 2000
MAX_DEPTH = 40
MAX_INT_DIGITS = 15


class ExprError(ValueError):
    """A malformed or forbidden expression; ``col`` is the 0-based offset of the problem."""

    def __init__(self, message: str, col: int = 0) -> None:
        super().__init__(message)
        self.col = col


# AST nodes are tuples: ("lit", v) ("var", name) ("call", name, args) ("neg", a)
# ("not", a) ("and", a, b) ("or", a, b) ("bin", op, a, b) ("cmp", [ops], [operands])
# ("attr", who, field, col)
Node = tuple[Any, ...]

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<num>\d+(?:\.\d+)?)
    | (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
    | (?P<name>[^\W\d]\w*(?:\.[^\W\d]\w*)*)
    | (?P<op>\*\*|//|==|!=|<=|>=|&&|\|\||[-+*/%<>()!,.\[\]=^&|@~;:{}])
    | (?P<bad>\S)
    )""",
    re.VERBOSE,
)

_WORDS = {"and": "and", "or": "or", "not": "not", "&&": "and", "||": "or", "!": "not"}
_CONST = {"true": True, "false": False, "none": None, "True": True, "False": False, "None": None}
_FORBIDDEN_NAMES = {
    "import",
    "lambda",
    "exec",
    "eval",
    "open",
    "compile",
    "globals",
    "locals",
    "getattr",
    "setattr",
    "delattr",
    "vars",
    "dir",
    "input",
    "breakpoint",
    "__import__",
    "os",
    "sys",
    "subprocess",
    "for",
    "while",
    "if",
    "else",
    "def",
    "class",
    "yield",
    "await",
    "async",
    "with",
    "in",
    "is",
    "del",
    "global",
    "nonlocal",
    "return",
    "raise",
    "try",
    "except",
}


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    value: str
    col: int


def tokenize(src: str) -> list[Tok]:
    if len(src) > MAX_LEN:
        raise ExprError(f"expression is longer than {MAX_LEN} characters", MAX_LEN)
    toks: list[Tok] = []
    pos = 0
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if m is None or m.end() == pos:
            break
        kind = m.lastgroup or "bad"
        val = m.group(kind)
        col = m.start(kind)
        pos = m.end()
        if kind == "bad":
            raise ExprError(f"unexpected character {val!r}", col)
        if kind == "op" and val == "**":
            raise ExprError("the power operator ** is not allowed", col)
        if (
            kind == "op"
            and val == "="
            and len(toks) >= 2
            and toks[-1].kind == "name"
            and toks[-2].kind == "op"
            and toks[-2].value in ("(", ",")
        ):
            toks.append(Tok("kw", val, col))  # a keyword argument: check(..., bonus=1)
            continue
        if kind == "op" and val in (
            "[",
            "]",
            "{",
            "}",
            "=",
            "^",
            "&",
            "|",
            "@",
            "~",
            ";",
            ":",
            ".",
        ):
            prev = toks[-1] if toks else None
            is_list = val == "[" and (
                prev is None or prev.kind == "op" and prev.value not in (")",)
            )
            what = {
                "[": "list literals" if is_list else "subscripts",
                "]": "subscripts",
                "=": "assignment (use == to compare)",
                ".": "attribute access",
            }.get(val, f"the operator {val!r}")
            raise ExprError(
                f"{what} are not allowed" if what.endswith("s") else f"{what} is not allowed", col
            )
        toks.append(Tok(kind, val, col))
    toks.append(Tok("end", "", len(src)))
    return toks


class _Parser:
    def __init__(self, src: str) -> None:
        self.src = src
        self.toks = tokenize(src)
        self.i = 0
        self.depth = 0
        self.height: dict[int, int] = {}
        """Levels of each node built so far (by id; every node stays alive until the end)."""

    def peek(self) -> Tok:
        return self.toks[self.i]

    def next(self) -> Tok:
        t = self.toks[self.i]
        self.i += 1
        return t

    def word(self, t: Tok) -> str | None:
        if t.kind in ("name", "op"):
            return _WORDS.get(t.value)
        return None

    def expect(self, value: str) -> Tok:
        t = self.next()
        if t.kind == "kw":
            raise ExprError("assignment (use == to compare) is not allowed", t.col)
        if t.value != value or t.kind not in ("op",):
            got = "the end" if t.kind == "end" else repr(t.value)
            raise ExprError(f"expected {value!r} but found {got}", t.col)
        return t

    def mk(self, node: Node, col: int, *kids: Node) -> Node:
        """``node`` with its height: the tree is bounded, not only the parentheses, so that
        ``1+1+…+1`` cannot build a tree deeper than the evaluator and checker may walk."""
        h = 1 + max((self.height.get(id(k), 1) for k in kids), default=0)
        if h > MAX_DEPTH:
            raise ExprError(
                f"expression is nested more than {MAX_DEPTH} deep "
                f"(each operator in a chain counts: split it with variables)",
                col,
            )
        self.height[id(node)] = h
        return node

    def enter(self, col: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"expression is nested more than {MAX_DEPTH} deep", col)

    def parse(self) -> Node:
        node = self.or_()
        t = self.peek()
        if t.kind == "kw":
            raise ExprError("assignment (use == to compare) is not allowed", t.col)
        if t.kind != "end":
            raise ExprError(f"unexpected {t.value!r}", t.col)
        return node

    def or_(self) -> Node:
        a = self.and_()
        while self.word(self.peek()) == "or":
            col = self.next().col
            b = self.and_()
            a = self.mk(("or", a, b), col, a, b)
        return a

    def and_(self) -> Node:
        a = self.not_()
        while self.word(self.peek()) == "and":
            col = self.next().col
            b = self.not_()
            a = self.mk(("and", a, b), col, a, b)
        return a

    def not_(self) -> Node:
        t = self.peek()
        if self.word(t) == "not":
            self.next()
            self.enter(t.col)
            a = self.not_()
            n = self.mk(("not", a), t.col, a)
            self.depth -= 1
            return n
        return self.cmp()

    def cmp(self) -> Node:
        a = self.sum()
        ops, operands = [], [a]
        col = 0
        while self.peek().kind == "op" and self.peek().value in ("==", "!=", "<", "<=", ">", ">="):
            t = self.next()
            col = t.col
            ops.append(t.value)
            operands.append(self.sum())
        if not ops:
            return a
        return self.mk(("cmp", tuple(ops), tuple(operands)), col, *operands)

    def sum(self) -> Node:
        a = self.prod()
        while self.peek().kind == "op" and self.peek().value in ("+", "-"):
            t = self.next()
            b = self.prod()
            a = self.mk(("bin", t.value, a, b), t.col, a, b)
        return a

    def prod(self) -> Node:
        a = self.unary()
        while self.peek().kind == "op" and self.peek().value in ("*", "/", "//", "%"):
            t = self.next()
            b = self.unary()
            a = self.mk(("bin", t.value, a, b), t.col, a, b)
        return a

    def unary(self) -> Node:
        t = self.peek()
        if t.kind == "op" and t.value in ("-", "+"):
            self.next()
            self.enter(t.col)
            n = self.unary()
            self.depth -= 1
            if n[0] == "lit" and isinstance(n[1], (int, float)) and not isinstance(n[1], bool):
                return self.mk(("lit", -n[1] if t.value == "-" else n[1]), t.col)
            return self.mk(("neg", n), t.col, n) if t.value == "-" else n
        return self.atom()

    def arg(self, args: list[Node], kwargs: list[tuple[str, Node, int]]) -> None:
        """One argument of a call: an expression, or ``name=expr`` (keyword arguments last)."""
        t = self.peek()
        if t.kind == "name" and self.toks[self.i + 1].kind == "kw":
            self.i += 2
            if "." in t.value or "__" in t.value:
                raise ExprError(f"bad argument name {t.value!r}", t.col)
            if any(k[0] == t.value for k in kwargs):
                raise ExprError(f"argument {t.value!r} given twice", t.col)
            kwargs.append((t.value, self.or_(), t.col))
            return
        if kwargs:
            raise ExprError("a positional argument cannot follow a keyword argument", t.col)
        args.append(self.or_())

    def atom(self) -> Node:
        t = self.next()
        if t.kind == "num":
            if len(t.value.split(".")[0]) > MAX_INT_DIGITS:
                raise ExprError(f"number {t.value[:20]}… is too large", t.col)
            return ("lit", float(t.value) if "." in t.value else int(t.value))
        if t.kind == "str":
            body = t.value[1:-1]
            return ("lit", re.sub(r"\\(.)", r"\1", body))
        if t.kind == "name":
            name = t.value
            if "__" in name:
                raise ExprError(f"names with double underscores are not allowed: {name!r}", t.col)
            if name in _CONST:
                return ("lit", _CONST[name])
            if name in _WORDS:
                raise ExprError(f"unexpected {name!r}", t.col)
            base = name.split(".")[0]
            if base in _FORBIDDEN_NAMES or name in _FORBIDDEN_NAMES:
                raise ExprError(f"{name!r} is not allowed in a story expression", t.col)
            if self.peek().value == "(" and self.peek().kind == "op":
                if name.count(".") > 1:
                    raise ExprError(f"unknown function {name!r}", t.col)
                self.next()
                self.enter(t.col)
                args: list[Node] = []
                kwargs: list[tuple[str, Node, int]] = []
                if self.peek().value != ")":
                    self.arg(args, kwargs)
                    while self.peek().value == ",":
                        self.next()
                        self.arg(args, kwargs)
                self.expect(")")
                self.depth -= 1
                kids = [*args, *(k[1] for k in kwargs)]
                return self.mk(("call", name, tuple(args), t.col, tuple(kwargs)), t.col, *kids)
            if "." in name:
                who, _, fld = name.partition(".")
                if "." in fld:
                    raise ExprError(f"attribute access is not allowed: {name!r}", t.col)
                return ("attr", who, fld, t.col)
            return ("var", name, t.col)
        if t.kind == "op" and t.value == "(":
            self.enter(t.col)
            n = self.or_()
            self.expect(")")
            self.depth -= 1
            return n
        if t.kind == "end":
            raise ExprError("expression ends too early", t.col)
        raise ExprError(f"unexpected {t.value!r}", t.col)


_parsed: dict[str, Node] = {}


def parse(src: str) -> Node:
    """Parses an expression; raises :class:`ExprError` with the column of the problem.

    ASTs are immutable tuples, so one parse serves every place the same text appears."""
    if not isinstance(src, str):
        return ("lit", src)
    hit = _parsed.get(src)
    if hit is None:
        hit = _Parser(src).parse()
        if len(_parsed) < 50_000:
            _parsed[src] = hit
    return hit


def names(node: Node) -> tuple[set[tuple[str, int]], set[tuple[str, int, int]]]:
    """Returns the variables ``(name, col)`` and calls ``(name, argc, col)`` in an AST."""
    vs: set[tuple[str, int]] = set()
    cs: set[tuple[str, int, int]] = set()

    def walk(n: Node) -> None:
        k = n[0]
        if k == "var":
            vs.add((n[1], n[2]))
        elif k == "call":
            cs.add((n[1], len(n[2]), n[3]))
            for a in n[2]:
                walk(a)
            for kw in n[4]:
                walk(kw[1])
        elif k in ("neg", "not"):
            walk(n[1])
        elif k in ("and", "or"):
            walk(n[1])
            walk(n[2])
        elif k == "bin":
            walk(n[2])
            walk(n[3])
        elif k == "cmp":
            for a in n[2]:
                walk(a)

    walk(node)
    return vs, cs


def nodes(node: Node) -> list[Node]:
    """Every node of an AST, parents before children (calls, attributes, variables...)."""
    out: list[Node] = []
    todo = [node]
    while todo:
        n = todo.pop()
        out.append(n)
        k = n[0]
        if k == "call":
            todo.extend(reversed([*n[2], *(kw[1] for kw in n[4])]))
        elif k in ("neg", "not"):
            todo.append(n[1])
        elif k in ("and", "or"):
            todo.extend((n[2], n[1]))
        elif k == "bin":
            todo.extend((n[3], n[2]))
        elif k == "cmp":
            todo.extend(reversed(n[2]))
    return out
