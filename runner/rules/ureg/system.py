"""The ureg rule system's record, which every hook module registers on."""

from __future__ import annotations

from runner.rules.base import RuleSystem

SOURCE = "Un Realistic Escape Game ベーシックシステム ver.1.5（保田琳, 2019）CC-BY"


SYSTEM = RuleSystem("ureg", "UREG ベーシックシステム ver.1.5")
SYSTEM.titles["en"] = "UREG Basic System ver.1.5"


hook = SYSTEM.hook
