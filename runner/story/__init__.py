"""Stories: YAML in, a frozen :class:`Story` out, or every problem as a diagnostic.

``load`` and ``check`` are imported on first use: the engine imports :mod:`runner.story.model`
(and through it this package) without loading the loader.
"""

from typing import Any

from runner.story.diagnostics import Diagnostic, StoryError
from runner.story.model import Story
from runner.story.source import story_files

__all__ = ["Diagnostic", "Story", "StoryError", "check", "load", "story_files"]


def __getattr__(name: str) -> Any:
    if name in ("load", "check"):
        from runner.story import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'runner.story' has no attribute {name!r}")
