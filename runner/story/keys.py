"""The words of the story format: its sections, the keys each part may hold, and the kinds.

``runner/story/schema.py`` writes the same words out for editors (a test keeps the two in step).
"""

from __future__ import annotations

import re

NODE_KINDS = ("place", "check", "combat", "scene")
CHARACTER_KINDS = ("pc", "npc", "ally", "neutral", "enemy", "monster")
ENDING_KINDS = ("good", "normal", "bad", "death", "extra", "neutral", "partial", "failure")
TOP_KEYS = {
    "story",
    "clock",
    "variables",
    "items",
    "characters",
    "nodes",
    "endings",
    "events",
    "readings",
    "voices",
    "migrations",
    "conditions",
}
STORY_KEYS = {
    "id",
    "title",
    "language",
    "rules",
    "start",
    "credits",
    "licence",
    "license",
    "author",
    "description",
    "options",
    "version",
    "length",
}
NODE_KEYS = {"kind", "title", "scene", "narration", "keeper", "on_enter", "actions", "props"}
ACTION_KEYS = {
    "id",
    "label",
    "aliases",
    "when",
    "once",
    "cost",
    "check",
    "outcomes",
    "effects",
    "say",
    "goto",
    "end",
    "hidden",
    "keeper",
}
EFFECT_KEYS = {
    "set",
    "add",
    "give",
    "take",
    "goto",
    "end",
    "say",
    "keeper",
    "do",
    "if",
    "roll",
    "check",
    "advance",
}
EFFECT_COMPANIONS = {"if": {"then", "else"}, "check": {"outcomes"}}
ID_RE = re.compile(r"^[^\W\d][\w\-]*$")


MERGE_KEY_HINT = (
    " (a merge key: Katari reads YAML 1.2, which has no merge keys; write the keys out here,"
    " or, when nothing in it changes, give the whole mapping by its alias: 'KEY: *NAME')"
)
"""Said after "unknown key '<<'": ``<<: *base`` is YAML 1.1's merge, text in YAML 1.2."""
