"""Rule systems, found by name: one registry, filled from the ``katari.rules`` entry points.

A distribution that declares

    [project.entry-points."katari.rules"]
    NAME = "module:SYSTEM"

makes ``rules: NAME`` usable in a story (docs/rules-api.md). Katari's own rule systems are
declared the same way in its pyproject.toml. ``core`` hooks are built in: a story calls them
without a prefix, and no story picks ``core`` as its rules.
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import Hook, RuleSystem

GROUP = "katari.rules"
DICE_GROUP = "katari.dice"
"""Optional: ``NAME = "module:function"``, the ``RuleSystem.dice`` of the system ``NAME`` in a
module that imports without its hooks, so that ``katari roll`` starts at once."""
_loaded: dict[str, RuleSystem] = {}
_entries: dict[str, Any] | None = None
_dice_entries: dict[str, Any] = {}
_doubles: dict[str, list[str]] = {}


class UnknownRules(KeyError):
    """No installed rule system has this name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BrokenRules(ValueError):
    """A rule system is declared but cannot be used (its module fails, or it is not a
    RuleSystem of that name); the message says which and why, in one line."""


def _found() -> dict[str, Any]:
    """Name -> entry point, read once: the first declaration of a name on the path wins."""
    global _entries, _dice_entries
    if _entries is None:
        from runner.plugins import (
            entry_points_of,  # (importlib.metadata's reading, without its import cost)
        )

        read = entry_points_of((GROUP, DICE_GROUP))
        _dice_entries = {}
        for ep in read[DICE_GROUP]:
            _dice_entries.setdefault(ep.name, ep)
        found: dict[str, Any] = {}
        for ep in read[GROUP]:
            if ep.name == "core":
                continue  # built in
            if ep.name in found:
                if found[ep.name].value != ep.value:
                    _doubles.setdefault(ep.name, []).append(ep.value)
                continue
            found[ep.name] = ep
        _entries = found
    return _entries


def names() -> tuple[str, ...]:
    """Every installed rule system's name (what ``rules:`` accepts), sorted, ``none`` last."""
    return tuple(sorted(_found(), key=lambda n: (n == "none", n)))


def ignored() -> dict[str, list[str]]:
    """Names declared again by another distribution with another value: those are ignored."""
    _found()
    return dict(_doubles)


def source(name: str) -> str:
    """Where a rule system comes from: ``module:SYSTEM (distribution version)``."""
    ep = _found().get(name)
    if ep is None:
        return "built in" if name == "core" else ""
    return f"{ep.value} ({ep.dist})" if getattr(ep, "dist", None) else ep.value


def system(name: str) -> RuleSystem:
    """The rule system called ``name``. :class:`UnknownRules` when none is installed under
    that name, :class:`BrokenRules` when it is declared but cannot be loaded."""
    rs = _loaded.get(name)
    if rs is None:
        if name == "core":
            from runner.rules.core import SYSTEM as core

            rs = core
        else:
            ep = _found().get(name)
            if ep is None:
                raise UnknownRules(name)
            try:
                loaded = ep.load()
            except Exception as e:  # noqa: BLE001 - a stranger's package: say why, in one line
                raise BrokenRules(
                    f"rule system {name!r} ({ep.value}) cannot be loaded: {type(e).__name__}: {e}"
                ) from None
            if not isinstance(loaded, RuleSystem) or loaded.name != name:
                what = (
                    f"RuleSystem {loaded.name!r}"
                    if isinstance(loaded, RuleSystem)
                    else type(loaded).__name__
                )
                raise BrokenRules(
                    f"rule system {name!r} ({ep.value}) gives a {what}, "
                    f"not RuleSystem({name!r}, ...)"
                )
            rs = loaded
        _loaded[name] = rs
    return rs


def is_system(name: str) -> bool:
    """Whether ``name`` is an installed rule system (``core`` is not one a story picks)."""
    return name in _loaded and name != "core" or name in _found()


def find_hook(name: str, rules: str) -> Hook | None:
    """Finds ``name`` (``check`` in core or ``NAME.check``) for a story using ``rules``."""
    if "." in name:
        prefix, _, short = name.partition(".")
        if prefix != "core" and not is_system(prefix):
            return None
        return system(prefix).hooks.get(short)
    return system("core").hooks.get(name)


def installed() -> list[RuleSystem]:
    """Every rule system that loads, in :func:`names` order (a broken one is left out)."""
    out = []
    for n in names():
        try:
            out.append(system(n))
        except BrokenRules:
            continue
    return out


def _dice(name: str) -> Any:
    """The system ``name``'s dice function: from its ``katari.dice`` entry point when its
    distribution declares one (without loading the system), else ``RuleSystem.dice``."""
    declared = _found().get(name)  # (reads the katari.dice entry points too)
    ep = _dice_entries.get(name)
    if ep is not None and declared is not None and ep.dist == declared.dist:  # its own
        try:
            return ep.load()
        except Exception:  # noqa: BLE001 - a stranger's package: its system says why, or not
            pass
    try:
        return system(name).dice
    except BrokenRules:
        return None


def dice_command(text: str, source: Any) -> Any:
    """A roll in an installed rule system's own dice syntax (``RuleSystem.dice``: BCDice's
    commands for one game), rolled with ``source``; None when no rule system reads ``text``.
    The systems are asked in :func:`names` order, each loaded only when it is its turn."""
    for name in names():
        dice = _dice(name)
        if dice is not None:
            res = dice(text, source)
            if res is not None:
                return res
    return None


__all__ = [
    "DICE_GROUP",
    "GROUP",
    "BrokenRules",
    "UnknownRules",
    "dice_command",
    "find_hook",
    "ignored",
    "installed",
    "is_system",
    "names",
    "source",
    "system",
]
