"""Entry points of the installed distributions, read the way :mod:`importlib.metadata` reads them.

Katari finds its rule systems (and anyone's) through the ``katari.rules`` entry-point group.
``importlib.metadata.entry_points`` would do, but importing it costs more than loading a
small story (it brings in the ``email`` package, ``zipfile``, ``csv``), and Katari asks on
every start. So this reads the same files the same way: each directory on ``sys.path``, in
order; in it every ``*.dist-info`` and ``*.egg-info`` folder (wheels, ``pip install
--target``, editable installs, a checkout's ``katari.egg-info``); in that its
``entry_points.txt`` (the PyPA entry-points file: INI sections of ``name = module:attr``). A
distribution seen once is not read again further down the path, as importlib.metadata does.
Zipped eggs on the path are not read (pip has not made them for years).
"""

from __future__ import annotations

import os
import re
import sys


class EntryPoint:
    """One entry point: ``name = value`` in ``group`` of the distribution ``dist``."""

    __slots__ = ("name", "value", "dist")

    def __init__(self, name: str, value: str, dist: str) -> None:
        self.name = name
        self.value = value
        """``module:attr`` (``module:attr.sub`` and ``[extras]`` are allowed by the format)."""
        self.dist = dist
        """The distribution's name and version, ``katari 0.1.0``."""

    def __repr__(self) -> str:
        return f"EntryPoint({self.name!r}, {self.value!r}, {self.dist!r})"

    def load(self) -> object:
        import importlib

        module, _, attr = self.value.partition(":")
        obj: object = importlib.import_module(module.strip())
        for part in attr.split("[")[0].strip().split(".") if attr else ():
            obj = getattr(obj, part)
        return obj


_DIST = re.compile(r"^(?P<name>[^-]+)(?:-(?P<version>[^-]+))?(?:-.*)?\.(?:dist|egg)-info$")


def entry_points(group: str) -> list[EntryPoint]:
    """Every entry point of ``group``, in path order (the first distribution of a name wins)."""
    return entry_points_of((group,))[group]


def entry_points_of(groups: tuple[str, ...]) -> dict[str, list[EntryPoint]]:
    """:func:`entry_points` of several groups, reading each distribution's file once."""
    seen: set[str] = set()
    out: dict[str, list[EntryPoint]] = {g: [] for g in groups}
    for entry in sys.path:
        folder = entry or os.getcwd()
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith((".dist-info", ".egg-info")))
        except OSError:  # not a folder (a zip), gone, unreadable
            continue
        for n in names:
            m = _DIST.match(n)
            if m is None:
                continue
            dist = m.group("name").lower().replace("_", "-").replace(".", "-")
            if dist in seen:
                continue
            seen.add(dist)
            try:
                with open(os.path.join(folder, n, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read(1 << 20)
            except (OSError, UnicodeDecodeError):
                continue
            label = f"{m.group('name')} {m.group('version') or ''}".strip()
            for group in groups:
                out[group] += [EntryPoint(k, v, label) for k, v in _section(text, group)]
    return out


def _section(text: str, group: str) -> list[tuple[str, str]]:
    """``name = value`` lines of ``[group]`` in an entry_points.txt."""
    out, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            out.append((name.strip(), value.strip()))
    return out
