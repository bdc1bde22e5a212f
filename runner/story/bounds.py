"""The bounds on what a story may bring, in one place (docs/security.md lists them).

Sizes of files are in :mod:`runner.story.source`, expression limits in
:mod:`runner.story.expr`; this module holds the rest and the one number validator.
"""

from __future__ import annotations

from typing import Any

MAX_NUMBER = 10**18
"""Numbers a story may hold; the engine keeps every result within the same bound."""
MAX_YAML_DEPTH = 100
"""Levels of nested lists and mappings in one YAML file."""
MAX_ALIAS_NODES = 10_000
"""Values that YAML aliases (``*name``) may repeat in one file, counted as expanded: an
alias of a list of ten values repeats eleven. A few shared actions take a few hundred;
a "billion laughs" file asks for billions."""


def short(v: Any, n: int = 24) -> str:
    """``repr(v)`` cut to about ``n`` characters (a 4,000-digit number stays one line)."""
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 200:
        return (
            f"a number of {len(str(abs(v)))} digits"
            if v.bit_length() < 14000
            else "a number of thousands of digits"
        )
    r = repr(v)
    return r if len(r) <= n else r[: n - 1] + "…"


def number_problem(v: Any) -> str | None:
    """Why ``v`` cannot be a story's number (not finite, beyond ±10^18), or None if it can
    (or if it is not a number at all: true/false and text are someone else's question)."""
    t = type(v)
    if t is int:
        if -MAX_NUMBER <= v <= MAX_NUMBER:
            return None
        return f"number {short(v)} is out of range (at most ±10^18)"
    if t is float:
        if v != v:
            return "NaN is not a number a story can use"
        if abs(v) > MAX_NUMBER:
            return f"number {short(v)} is out of range (at most ±10^18)"
    return None
