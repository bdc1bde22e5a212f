"""docs/rules-api.md names every field of the contract (#14: a newcomer writing a rule system
from the docs alone found ``text_keys``, ``texts`` and ``Campaign.rules_key`` only in the
code). A field added to ``RuleSystem`` or to one of its declarations must be documented."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from runner.rules import base

DOC = (Path(__file__).resolve().parent.parent / "docs" / "rules-api.md").read_text(encoding="utf-8")

BASICS = {"name", "title", "hooks"}  # RuleSystem("name", "title"), @SYSTEM.hook


def documented(field: str, owner: str) -> bool:
    return bool(
        re.search(rf"`{field}[`(:= ]", DOC)  # a table's `text_keys: ...`, `texts(lang)`
        or re.search(rf"{owner}\.{field}\b", DOC)  # RuleSystem.active_pc
        or re.search(rf"{owner}\([^)]*\b{field}\b[^)]*\)", DOC)  # Campaign(wants, carry, rules_key)
    )


def test_every_rule_system_field_is_documented() -> None:
    fields = [f.name for f in dataclasses.fields(base.RuleSystem)]
    assert "text_keys" in fields and "texts" in fields
    missing = [f for f in fields if f not in BASICS and not documented(f, "RuleSystem")]
    assert missing == []


def test_every_declaration_field_is_documented() -> None:
    missing = []
    for cls in (base.Display, base.Campaign, base.RealTimeClock, base.Investigators):
        missing += [f"{cls.__name__}.{f}" for f in cls._fields if not documented(f, cls.__name__)]
    assert missing == []


def test_the_context_is_documented() -> None:
    members = [m for m in vars(base.Context) if not m.startswith("_")]
    assert "end" in members and "run_effects" in members
    assert [m for m in members if f"`ctx.{m}" not in DOC] == []
