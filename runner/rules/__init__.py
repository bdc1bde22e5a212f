"""Rule systems, found by name. ``core`` hooks need no prefix in a story."""

from __future__ import annotations

import importlib

from runner.rules.base import Hook, RuleSystem

KNOWN = ("coc7", "ureg", "ktane", "none")
_loaded: dict[str, RuleSystem] = {}


def system(name: str) -> RuleSystem:
    """Returns the rule system called ``name`` (``none`` is an empty one)."""
    rs = _loaded.get(name)
    if rs is None:
        if name == "none":
            rs = RuleSystem("none", "no rule system")
        elif name in KNOWN or name == "core":
            rs = importlib.import_module(f"runner.rules.{name}").SYSTEM
        else:
            raise KeyError(name)
        _loaded[name] = rs
    return rs


def find_hook(name: str, rules: str) -> Hook | None:
    """Finds ``name`` (``check`` in core or ``coc7.check``) for a story using ``rules``."""
    if "." in name:
        prefix, _, short = name.partition(".")
        if prefix not in KNOWN and prefix != "core":
            return None
        return system(prefix).hooks.get(short)
    return system("core").hooks.get(name)
