"""The coc7 rule system's record, which every hook module registers on."""

from __future__ import annotations

from runner.rules.base import RuleSystem

SYSTEM = RuleSystem("coc7", "新クトゥルフ神話TRPG（第7版）")
SYSTEM.titles["en"] = "Call of Cthulhu 7th edition"


hook = SYSTEM.hook
