"""Diagnostics for machines: ``katari check --json`` and the language server (``katari lsp``).

A diagnostic from the loader has a start (line, column: 1-based, in characters). Editors
want a range: :func:`span` finds where the thing the message is about ends, by reading the
source line at the start: a quoted value to its closing quote, a name (an id, a key, a
variable in an expression) to its last letter, anything else to the end of the line's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

FORMAT = "katari-check"
VERSION = 1

_NAME = re.compile(r"[\w\-.]+")
_STOP = re.compile(r"\s+#|\s*$")


def span(lines: list[str] | None, line: int, col: int) -> tuple[int, int]:
    """The (line, column) just past what a diagnostic at (line, col) points at (1-based,
    exclusive). Without the text, or past its end: one character."""
    if not lines or not 0 < line <= len(lines):
        return line, col + 1
    text = lines[line - 1]
    i = col - 1
    if i >= len(text):
        return line, col + 1
    ch = text[i]
    if ch in "'\"":
        j = i + 1
        while j < len(text):
            if text[j] == ch:
                if ch == "'" and j + 1 < len(text) and text[j + 1] == "'":  # '' inside '...'
                    j += 2
                    continue
                return line, j + 2
            if ch == '"' and text[j] == "\\":
                j += 1
            j += 1
        return line, col + 1  # (a closing quote, or an unclosed one)
    m = _NAME.match(text, i)
    if m is not None:
        end = m.end()
        while end > i + 1 and text[end - 1] == ".":  # a sentence's full stop is not the name's
            end -= 1
        return line, end + 1
    stop = _STOP.search(text, i)  # anything else: the rest of the line, before a comment
    end = stop.start() if stop is not None else len(text)
    return line, max(end, i + 1) + 1


def to_json(d: Any, lines_of: Callable[[str], list[str] | None]) -> dict:
    """One diagnostic as ``check --json`` writes it (see docs/editor.md)."""
    end_line, end_col = span(lines_of(d.path), d.line, d.col)
    return {
        "code": d.code,
        "severity": d.severity,
        "path": d.path,
        "line": d.line,
        "column": d.col,
        "end": {"line": end_line, "column": end_col},
        "message": d.message,
    }


class Sources:
    """The lines of the files diagnostics name, read once each (None: unreadable)."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self._lines: dict[str, list[str] | None] = {}
        for path, text in (texts or {}).items():
            self._lines[path] = text.splitlines()

    def __call__(self, path: str) -> list[str] | None:
        if path not in self._lines:
            from runner.story.source import read_text

            try:
                text: str | None = read_text(path)
            except Exception:  # noqa: BLE001 - no range is better than no diagnostic
                text = None
            self._lines[path] = text.splitlines() if text is not None else None
        return self._lines[path]


def document(results: Iterable[tuple[str, Any, list]], sources: Sources | None = None) -> dict:
    """The whole ``check --json`` document: ``results`` is (path as given, story or None,
    diagnostics) for each story checked."""
    sources = sources or Sources()
    stories = []
    diags: list[dict] = []
    for path, story, ds in results:
        errors = sum(1 for d in ds if d.severity == "error")
        entry: dict[str, Any] = {
            "path": path,
            "ok": errors == 0,
            "errors": errors,
            "warnings": len(ds) - errors,
        }
        if story is not None:
            entry.update(
                {
                    "id": story.id,
                    "title": story.title,
                    "rules": story.rules,
                    "language": story.language,
                    "nodes": len(story.nodes),
                    "endings": len(story.endings),
                }
            )
        stories.append(entry)
        diags.extend(to_json(d, sources) | {"story": path} for d in ds)
    return {
        "format": FORMAT,
        "version": VERSION,
        "ok": all(s["ok"] for s in stories),
        "errors": sum(s["errors"] for s in stories),
        "warnings": sum(s["warnings"] for s in stories),
        "stories": stories,
        "diagnostics": diags,
    }
