"""Parsed YAML that remembers where it stood: :class:`Map` and :class:`Seq`, and lookups by path.

The careful pass (:mod:`runner.story.yamlpos`) builds them; the readers only ask them where a
value was. Nothing here imports a YAML library.
"""

from __future__ import annotations

import re
from typing import Any


class Map(dict[Any, Any]):
    """A dict that knows the position of itself, its keys and its values (1-based)."""

    __slots__ = ("pos", "kpos", "vpos")

    def __init__(self) -> None:
        super().__init__()
        self.pos: tuple[int, int] = (1, 1)
        self.kpos: dict[Any, tuple[int, int]] = {}
        self.vpos: dict[Any, tuple[int, int]] = {}


class Seq(list[Any]):
    __slots__ = ("pos", "ipos")

    def __init__(self) -> None:
        super().__init__()
        self.pos: tuple[int, int] = (1, 1)
        self.ipos: list[tuple[int, int]] = []


def locate(docs: list[tuple[str, Any]], where: str) -> tuple[int, int] | None:
    """Finds the position of a dotted path like ``characters.boss.stats`` in the loaded files."""
    parts = [p for p in re.split(r"[./]", where) if p]
    for _name, data in docs:
        cur: Any = data
        pos = None
        for part in parts:
            key: Any = int(part) if part.isdigit() and isinstance(cur, list) else part
            if isinstance(cur, Map) and key in cur:
                pos = cur.kpos.get(key, pos)
                cur = cur[key]
            elif isinstance(cur, Seq) and isinstance(key, int) and key < len(cur):
                pos = cur.ipos[key]
                cur = cur[key]
            else:
                break
        if pos:
            return pos
    return None


def file_of(docs: list[tuple[str, Any]], where: str) -> str | None:
    first = re.split(r"[./]", where)[0]
    for name, data in docs:
        if isinstance(data, dict) and first in data:
            return name
    return None
