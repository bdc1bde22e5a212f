"""Call of Cthulhu's investigator adapter (``RuleSystem.investigators.adapter``, see
docs/rules-api.md): what the front ends call to read a CCFOLIA piece or a キャラクター保管所
sheet into the rule system's portable form, and to write a sheet back out as a CCFOLIA piece.
It reads files and standard input, so it lives here and not in the rule system's package."""

from __future__ import annotations

from runner.ccfolia.export import piece
from runner.ccfolia.investigator import Imported, investigator, load
from runner.ccfolia.messages import SheetError, say
from runner.ccfolia.read import MAX_BYTES, complete, parse, read_file

__all__ = [
    "MAX_BYTES",
    "Imported",
    "SheetError",
    "complete",
    "investigator",
    "load",
    "parse",
    "piece",
    "read_file",
    "say",
]
