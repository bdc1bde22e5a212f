"""Diagnostics: what is wrong with a story, and where."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Diagnostic:
    path: str
    line: int
    col: int
    message: str
    code: str
    """``K`` and three digits, what kind of mistake (the table in docs/editor.md)."""
    severity: str = "error"

    def __str__(self) -> str:
        tail = " (warning)" if self.severity == "warning" else ""
        return f"{self.path}:{self.line}:{self.col}: {self.message}{tail} [{self.code}]"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "message": self.message,
            "code": self.code,
            "severity": self.severity,
        }


class StoryError(Exception):
    """A story that cannot be loaded; ``diagnostics`` lists every problem found."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        first = str(diagnostics[0]) if diagnostics else "story error"
        more = f" (and {len(diagnostics) - 1} more)" if len(diagnostics) > 1 else ""
        super().__init__(first + more)


class Declined(Exception):
    """The fast pass (no positions) met something only the careful pass can place or judge
    (a YAML it cannot read, a yes/no variable that may have been quoted): load again with
    positions. The loader knows it as ``_Retry``."""
