"""Rule systems, found by name: one registry, filled from the ``katari.rules`` entry points.

A distribution that declares

    [project.entry-points."katari.rules"]
    NAME = "module:SYSTEM"

makes ``rules: NAME`` usable in a story (docs/rules-api.md). Katari's own rule systems are
declared the same way in its pyproject.toml. ``core`` hooks are built in: a story calls them
without a prefix, and no story picks ``core`` as its rules.
"""

from __future__ import annotations

import re
from typing import Any

from runner.rules.base import Hook, RuleSystem

GROUP = "katari.rules"
DICE_GROUP = "katari.dice"
"""Optional: ``NAME = "module:function"``, the ``RuleSystem.dice`` of the system ``NAME`` in a
module that imports without its hooks, so that ``katari roll`` starts at once."""
_NAME = re.compile(r"[^\W\d]\w*")
"""A name a story's expression reads before a dot (runner/story/expr.py's names)."""
_loaded: dict[str, RuleSystem] = {}
_entries: dict[str, Any] | None = None
_dice_entries: dict[tuple[str, str], Any] = {}
_refused: dict[str, str] = {}
_notes: list[tuple[str, str]] = []
KATARI = "katari"
"""The distribution whose systems are Katari's own: a name it declares is always its."""


class UnknownRules(KeyError):
    """No installed rule system has this name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class BrokenRules(ValueError):
    """A rule system is declared but cannot be used (its module fails, or it is not a
    RuleSystem of that name); the message says which and why, in one line."""


def _dist_name(ep: Any) -> str:
    """``katari`` of ``katari 0.1.0``: the distribution's normalized name."""
    return str(getattr(ep, "dist", "")).split(" ")[0].lower().replace("_", "-").replace(".", "-")


def _found() -> dict[str, Any]:
    """Name -> entry point, read once. Katari's own names (and ``core``) are always Katari's;
    a name declared by two other distributions is neither's (:func:`refused`), so which
    system a story gets never depends on the order distributions sort or sit on the path."""
    global _entries
    if _entries is None:
        from runner.plugins import (
            entry_points_of,  # (importlib.metadata's reading, without its import cost)
        )

        read = entry_points_of((GROUP, DICE_GROUP))
        _dice_entries.clear()
        for ep in read[DICE_GROUP]:
            _dice_entries.setdefault((ep.name, ep.dist), ep)
        _refused.clear()
        del _notes[:]
        own = {ep.name: ep for ep in read[GROUP] if _dist_name(ep) == KATARI}
        found: dict[str, Any] = dict(own)
        others: dict[str, list[Any]] = {}
        for ep in read[GROUP]:
            if _dist_name(ep) != KATARI:
                others.setdefault(ep.name, []).append(ep)
        for name, eps in others.items():
            by = ", ".join(f"{ep.dist} ({ep.value})" for ep in eps)
            if name == "core" or name in own:
                _notes.append(
                    (
                        name,
                        f"rule system {name!r} is Katari's own; {by} declares it too and is"
                        " ignored (rename it in that distribution)",
                    )
                )
            elif not _NAME.fullmatch(name):
                _refused[name] = (
                    f"rule system {name!r} ({by}) is refused: a story writes the name before"
                    " a dot (NAME.hook()), so it is a word: letters, digits and _, not"
                    " starting with a digit"
                )
            elif len({ep.value for ep in eps}) > 1:
                _refused[name] = (
                    f"rule system {name!r} is declared by {' and '.join(ep.dist for ep in eps)}:"
                    " neither is used (uninstall one, or rename its entry point)"
                )
            else:
                found[name] = eps[0]
        _entries = found
    return _entries


def names() -> tuple[str, ...]:
    """Every installed rule system's name (what ``rules:`` accepts), sorted, ``none`` last."""
    return tuple(sorted(_found(), key=lambda n: (n == "none", n)))


def ignored() -> dict[str, str]:
    """Names another distribution declares that are Katari's own: name -> the one line
    saying so (the other declaration is ignored)."""
    _found()
    return dict(_notes)


def refused() -> dict[str, str]:
    """Declared names no story can use: not identifiers, or declared by two distributions
    with different values. Name -> the one line saying why."""
    _found()
    return dict(_refused)


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
                if name in _refused:
                    raise BrokenRules(_refused[name])
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
    ep = None if declared is None else _dice_entries.get((name, declared.dist))
    if ep is not None:  # its own distribution's
        try:
            return ep.load()
        except Exception:  # noqa: BLE001 - a stranger's package: its system says why, or not
            pass
    try:
        return system(name).dice
    except BrokenRules:
        return None


class DiceFailure(ValueError):
    """A rule system's ``dice`` raised or gave something that is not a roll's result: one
    line naming the system and what went wrong (a bug in the rule system, not the roll).
    ``detail`` is the part after "rule system " (for a front end's own wording)."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"rule system {detail}: a bug in the rule system, not the roll")
        self.detail = detail


def dice_command(text: str, source: Any) -> Any:
    """A roll in an installed rule system's own dice syntax (``RuleSystem.dice``: BCDice's
    commands for one game), rolled with ``source``; None when no rule system reads ``text``.
    The systems are asked in :func:`names` order, each loaded only when it is its turn.

    A system's ``dice`` gives None (not its syntax) or a :class:`runner.rules.bcdice.BCResult`.
    One that raises or gives anything else is passed over; when no other system reads the
    text, :class:`DiceFailure` says which failed and how (a table's dice error, a
    ``DiceError``, is the roll's own and passes through)."""
    from runner.rules.dice import DiceError, NeedDice

    failure = None
    for name in names():
        dice = _dice(name)
        if dice is None:
            continue
        try:
            res = dice(text, source)
        except (DiceError, NeedDice):
            raise
        except Exception as e:  # noqa: BLE001 - a stranger's package: one line, never a trace
            failure = failure or DiceFailure(
                f"{name!r}: dice({text[:40]!r}) failed ({type(e).__name__}: {e})"
            )
            continue
        if res is None:
            continue
        from runner.rules.bcdice import BCResult

        if isinstance(res, BCResult):
            return res
        failure = failure or DiceFailure(
            f"{name!r}: dice({text[:40]!r}) gave a {type(res).__name__}, not None nor a BCResult"
        )
    if failure is not None:
        raise failure
    return None


__all__ = [
    "DICE_GROUP",
    "GROUP",
    "BrokenRules",
    "DiceFailure",
    "UnknownRules",
    "dice_command",
    "find_hook",
    "ignored",
    "installed",
    "is_system",
    "names",
    "refused",
    "source",
    "system",
]
