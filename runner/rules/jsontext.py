"""Brackets of JSON text, outside its strings: one scanner for whoever must know how JSON
nests before (or without) parsing it.

Rule commands bound how deep their JSON nests (:func:`runner.rules.meta.json_depth`), and
the sheet reader asks whether pasted lines already hold a whole object
(:func:`runner.ccfolia.read.complete`). Pure: standard library only, so the rules may use it.
"""

from __future__ import annotations

from collections.abc import Iterator


def brackets(text: str) -> Iterator[tuple[str, int]]:
    """Each ``[``, ``{``, ``]`` and ``}`` outside JSON strings, with the depth after it (an
    opening one adds a level, a closing one takes one away; unbalanced text may go below 0).
    A string runs from ``"`` to the next ``"`` not escaped by ``\\``; one not closed runs to
    the end."""
    depth = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            yield ch, depth
        elif ch in "]}":
            depth -= 1
            yield ch, depth
