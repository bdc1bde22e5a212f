"""Effects written as data, compiled to the model's effect tuples: what the engine needs from
the loader at play time (a rule system's obstacles carry ``effects: [{set: ...}, {goto: ...}]``).

The same reader as the loader's (:class:`runner.story.checker.Checker`), with no YAML and no
positions: an effect the story's checks would refuse raises :class:`EffectError`.
"""

from __future__ import annotations

from typing import Any

from runner.story.checker import Checker, speakers_of
from runner.story.model import Effect, Story


class EffectError(ValueError):
    """Effect data a story could not hold; the message is the loader's."""


def compile_effects(story: Story, data: Any, base: str = "rule") -> tuple[Effect, ...]:
    """``data`` (a list of effect mappings, or one) as effect tuples, checked against the
    story's variables, items and characters; narration lines get ids under ``base``."""
    chk = Checker(None)
    chk.speakers = speakers_of(story.characters)
    chk.variables = set(story.variables)
    chk.items = set(story.items)
    compiled = chk.effects(data, None, base)
    if chk.diags:
        raise EffectError(chk.diags[0].message)
    return compiled
