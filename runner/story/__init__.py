"""Stories: YAML in, a frozen :class:`Story` out, or every problem as a diagnostic."""

from runner.story.diagnostics import Diagnostic, StoryError
from runner.story.loader import check, load, story_files
from runner.story.model import Story

__all__ = ["Diagnostic", "Story", "StoryError", "check", "load", "story_files"]
