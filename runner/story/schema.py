"""The JSON Schema (draft 2020-12) of story files and play-test files, for editors.

Written out by hand so each key has a type and a description; ``tests/test_authoring_schema.py``
checks that its keys stay in step with :mod:`runner.story.loader` (STORY_KEYS, NODE_KEYS,
ACTION_KEYS, EFFECT_KEYS, ...). The loader remains the judge: the schema catches typos and
shapes as an author types, ``katari check`` catches the rest (unknown nodes, bad expressions).
"""

from __future__ import annotations

import json
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"

NODE_KINDS = ["place", "check", "combat", "scene"]
ENDING_KINDS = ["good", "normal", "bad", "death", "extra", "neutral", "partial", "failure"]
CHARACTER_KINDS = ["pc", "npc", "ally", "neutral", "enemy", "monster"]


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _obj(
    props: dict[str, Any], *, required: list[str] | None = None, desc: str = "", closed: bool = True
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    if desc:
        out["description"] = desc
    return out


def _d(schema: dict[str, Any], desc: str) -> dict[str, Any]:
    return {**schema, "description": desc}


_EXPR = {
    "type": ["string", "number", "boolean", "null"],
    "description": "An expression: variables, numbers, 'text', + - * / // %, comparisons, "
    "and/or/not, and calls such as has('key') or a rule system's hooks (NAME.check('目星')).",
}
_DURATION = {
    "type": ["integer", "string"],
    "description": 'Minutes: 30, "30m", "1h", "1h30m" or "1:30".',
}
_IDS = {
    "anyOf": [
        {"type": "string"},
        {"type": "array", "items": {"type": "string"}},
        {"type": "object", "additionalProperties": {"type": "integer"}},
    ],
    "description": "An item id, a list of ids, or {item: count}.",
}

EFFECT_SCHEMAS: dict[str, dict[str, Any]] = {
    "set": _obj(
        {
            "set": _d(
                {"type": "object", "additionalProperties": _ref("expr")},
                "Variables to set: {name: expression}.",
            )
        },
        required=["set"],
    ),
    "add": _obj(
        {
            "add": _d(
                {"type": "object", "additionalProperties": _ref("expr")},
                "Amounts to add (negative to subtract): {name: expression}.",
            )
        },
        required=["add"],
    ),
    "give": _obj({"give": _IDS}, required=["give"]),
    "take": _obj({"take": _IDS}, required=["take"]),
    "goto": _obj(
        {"goto": _d({"type": "string"}, "Move to a node (or straight to an ending).")},
        required=["goto"],
    ),
    "end": _obj(
        {"end": _d({"type": "string"}, "End the game with this ending.")}, required=["end"]
    ),
    "say": _obj({"say": _ref("narration")}, required=["say"]),
    "keeper": _obj(
        {"keeper": _d(_ref("narration"), "A note only a game master sees.")}, required=["keeper"]
    ),
    "do": _obj(
        {
            "do": _d(
                {"anyOf": [_ref("expr"), {"type": "array", "items": _ref("expr")}]},
                "Call a rule-system hook for its effect, e.g. \"NAME.solve('door')\".",
            )
        },
        required=["do"],
    ),
    "if": _obj(
        {"if": _ref("expr"), "then": _ref("effects"), "else": _ref("effects")}, required=["if"]
    ),
    "roll": _obj(
        {
            "roll": {
                "anyOf": [
                    _d({"type": "string"}, "Dice such as 1d6+1."),
                    _obj(
                        {
                            "dice": _d({"type": "string"}, "Dice such as 2d6."),
                            "into": _d({"type": "string"}, "A variable that receives the total."),
                            "label": {"type": "string"},
                        },
                        required=["dice"],
                    ),
                ]
            }
        },
        required=["roll"],
    ),
    "check": _obj(
        {"check": _ref("expr"), "outcomes": _ref("outcomes")}, required=["check", "outcomes"]
    ),
    "advance": _obj(
        {"advance": _d({"type": ["integer", "string"]}, "Minutes to move the clock on.")},
        required=["advance"],
    ),
}

ACTION_PROPS: dict[str, dict[str, Any]] = {
    "id": _d({"type": "string"}, "Stable id, used in saves, tests and `done('node.id')`."),
    "label": _d({"type": ["string", "number"]}, "What the player sees (and may type)."),
    "aliases": _d(
        {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": ["string", "number"]}}]},
        "Other words that choose this action (typed or spoken).",
    ),
    "when": _d(_ref("expr"), "Offered only while this is true."),
    "once": _d({"type": "boolean"}, "Offered until taken once."),
    "cost": _DURATION,
    "check": _d(_ref("expr"), "A roll or test whose result picks one of the outcomes."),
    "outcomes": _ref("outcomes"),
    "effects": _ref("effects"),
    "say": _ref("narration"),
    "keeper": _d(_ref("narration"), "A note only a game master sees."),
    "goto": _d({"type": "string"}, "Where the action leads (after its outcome)."),
    "end": _d({"type": "string"}, "The ending the action leads to."),
    "hidden": _d({"type": "boolean"}, "Not listed: matched only when the player types or says it."),
}

NODE_PROPS: dict[str, dict[str, Any]] = {
    "kind": _d({"enum": NODE_KINDS}, "place (default), check, combat or scene."),
    "title": {"type": ["string", "number"]},
    "scene": _d({"type": "string"}, "A group for maps of large stories."),
    "narration": _ref("narration"),
    "keeper": _d(_ref("narration"), "Notes only a game master sees."),
    "on_enter": _d(_ref("effects"), "Effects each time the player arrives."),
    "actions": {"type": "array", "items": _ref("action")},
    "props": _d({"type": "object"}, "Data for the rule system (obstacles, lighting, ...)."),
}

STORY_PROPS: dict[str, dict[str, Any]] = {
    "id": _d({"type": "string"}, "The story's id (letters, digits, _ and -)."),
    "title": {"type": ["string", "number"]},
    "language": _d({"type": "string"}, "ja (default) or en."),
    # "rules" (the installed rule systems' names) is added by story_schema().
    "start": _d({"type": "string"}, "The node where play begins."),
    "credits": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "licence": {"type": "string"},
    "license": {"type": "string"},
    "author": {"type": "string"},
    "description": {"type": "string"},
    "options": _d({"type": "object"}, "Rule-system settings."),
    "version": {"type": ["string", "number"]},
    "length": _d({"type": ["string", "number"]}, 'How long a game takes, e.g. "30分".'),
}

TOP_PROPS: dict[str, dict[str, Any]] = {
    "story": _obj(STORY_PROPS, desc="What the story is and where it starts (in exactly one file)."),
    "clock": _obj(
        {
            "start": _d(
                {"type": ["string", "integer"]}, 'The time shown at the start, e.g. "10:00".'
            ),
            "limit": _d(
                {"type": ["string", "integer"]}, 'When time runs out: "20:00" or a duration.'
            ),
            "show": {"type": "boolean"},
            "left_visible_when": _d(_ref("expr"), "Show the time left only while this holds."),
        }
    ),
    "variables": {"type": "object", "additionalProperties": _ref("variable")},
    "conditions": _d(
        {"type": "object", "additionalProperties": _ref("expr")},
        "Named conditions: name -> expression, usable in any when/if/check and in {…}.",
    ),
    "items": {"type": "object", "additionalProperties": _ref("item")},
    "characters": {"type": "object", "additionalProperties": _ref("character")},
    "nodes": {"type": "object", "additionalProperties": _ref("node")},
    "endings": {"type": "object", "additionalProperties": _ref("ending")},
    "events": {"type": "array", "items": _ref("event")},
    "readings": _d(
        {"type": "object", "additionalProperties": {"type": "string"}},
        "How to read words aloud: {漢字: かんじ}.",
    ),
    "voices": _d(
        {"type": "object", "additionalProperties": {"type": "string"}}, "Speaker -> voice."
    ),
    "migrations": _d(
        {
            "type": "array",
            "items": _obj(
                {
                    "version": _d(
                        {"type": ["string", "number"]}, "The story version that made these renames."
                    ),
                    "nodes": _d(
                        {"type": "object", "additionalProperties": {"type": "string"}},
                        "Old node id -> new.",
                    ),
                    "variables": _d(
                        {"type": "object", "additionalProperties": {"type": "string"}},
                        "Old variable -> new.",
                    ),
                    "items": _d(
                        {"type": "object", "additionalProperties": {"type": "string"}},
                        "Old item id -> new.",
                    ),
                    "actions": _d(
                        {"type": "object", "additionalProperties": {"type": "string"}},
                        "node.old_action (or old_action) -> new action id.",
                    ),
                }
            ),
        },
        "Renames that map saves of older story versions onto this one.",
    ),
}

_LINE = {
    "anyOf": [
        {"type": ["string", "number"]},
        _obj(
            {
                "id": {"type": "string"},
                "text": {"type": ["string", "number"]},
                "when": _ref("expr"),
                "speaker": {"type": "string"},
            },
            required=["text"],
        ),
    ]
}


def _loads(name: str) -> bool:
    from runner.rules import BrokenRules, system

    try:
        system(name)
    except BrokenRules:
        return False
    return True


def story_schema() -> dict[str, Any]:
    """The schema of one story file (any file of a multi-file story: every section is optional).
    ``rules`` lists the rule systems installed here (runner.rules' registry), and each may
    have a top-level section of its name."""
    from runner.rules import names, system

    rules = list(names())
    titles = ", ".join(f"{r} ({system(r).title})" if _loads(r) else r for r in rules)
    story = _obj(
        {**STORY_PROPS, "rules": _d({"enum": rules}, f"The rule system: {titles}.")},
        desc=TOP_PROPS["story"]["description"],
    )
    top = {
        **TOP_PROPS,
        "story": story,
        **{
            r: _d({"type": ["object", "array", "null"]}, f"Data for the {r} rule system.")
            for r in rules
        },
    }
    return {
        "$schema": DRAFT,
        "title": "Katari story",
        "description": "A Katari story file (see docs/authoring.md). Check with `katari check`.",
        "type": "object",
        "properties": top,
        "additionalProperties": False,
        "$defs": {
            "expr": _EXPR,
            "narration": {
                "anyOf": [_LINE, {"type": "array", "items": _LINE}],
                "description": "Text, or a list of lines: text or {id, text, when, speaker}.",
            },
            "effect": {
                "anyOf": list(EFFECT_SCHEMAS.values()),
                "description": "One effect: set, add, give, take, goto, end, say, keeper, do, "
                "if/then/else, roll, check/outcomes, advance.",
            },
            "effects": {"anyOf": [_ref("effect"), {"type": "array", "items": _ref("effect")}]},
            "outcome": {
                "anyOf": [
                    {"type": "string"},
                    {"type": "array", "items": _ref("effect")},
                    _obj(
                        {
                            "say": _ref("narration"),
                            "keeper": _ref("narration"),
                            "effects": _ref("effects"),
                            "goto": {"type": "string"},
                            "end": {"type": "string"},
                        }
                    ),
                ]
            },
            "outcomes": _d(
                {"type": "object", "additionalProperties": _ref("outcome")},
                "Outcome key (success, failure, critical, hard, ..., otherwise) -> what happens.",
            ),
            "action": _obj(ACTION_PROPS, required=["label"]),
            "node": {**_obj(NODE_PROPS), "type": ["object", "null"]},
            "ending": {
                "anyOf": [
                    {"enum": ENDING_KINDS},
                    _obj(
                        {
                            "kind": {"enum": ENDING_KINDS},
                            "title": {"type": ["string", "number"]},
                            "narration": _ref("narration"),
                        }
                    ),
                ]
            },
            "event": _obj(
                {
                    "id": {"type": "string"},
                    "title": _d({"type": "string"}, "What the GM panel and status call the event."),
                    "at": _d(
                        {"type": ["integer", "string"]}, 'Minutes after the start, "1h" or "11:00".'
                    ),
                    "after": {"type": ["integer", "string"]},
                    "when": _ref("expr"),
                    "effects": _ref("effects"),
                    "repeat": {"type": "boolean"},
                }
            ),
            "variable": {
                "anyOf": [
                    {"type": ["string", "number", "boolean", "null"]},
                    _obj(
                        {
                            "value": {},
                            "visible": {"type": "boolean"},
                            "label": {"type": "string"},
                            "visible_when": _d(
                                _ref("expr"), "Shown to a player only while this condition holds."
                            ),
                        }
                    ),
                ]
            },
            "item": {
                "anyOf": [
                    {"type": "string"},
                    _obj(
                        {
                            "name": {"type": ["string", "number"]},
                            "description": {"type": "string"},
                            "props": {"type": "object"},
                        }
                    ),
                ]
            },
            "character": _obj(
                {
                    "name": {"type": ["string", "number"]},
                    "kind": {"enum": CHARACTER_KINDS},
                    "known_when": _d(
                        _ref("expr"), "The player knows the name only while this holds."
                    ),
                    "unknown_name": _d(
                        {"type": "string"}, "What the player calls the character until then."
                    ),
                    "stats": {"type": "object"},
                    "props": {"type": "object"},
                }
            ),
        },
    }


def playtest_schema() -> dict[str, Any]:
    """The schema of a play-test file (``tests/*.yaml``, see docs/playtests.md)."""
    faces = {
        "anyOf": [
            {"type": "integer"},
            {"type": "string"},
            {"type": "array", "items": {"type": "integer"}},
        ]
    }
    names = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    expect = _obj(
        {
            "after": _d(
                {"type": "integer", "minimum": 0},
                "Check after this many commands (0: at the start); without it, at the end.",
            ),
            "node": {"type": "string"},
            "ending": {"type": ["string", "null"]},
            "var": {"type": "object"},
            "vars": {"type": "object"},
            "has": {"anyOf": [{"type": "string"}, {"type": "array"}, {"type": "object"}]},
            "lacks": names,
            "clock": {"type": ["integer", "string"]},
            "turn": {"type": "integer"},
            "text": _d(names, "Text seen in the narration so far."),
            "no_text": names,
            "offers": names,
            "not_offers": names,
            "visited": names,
            "fired": names,
        },
        desc="Things that must hold; every key given is checked.",
    )
    case = _obj(
        {
            "name": {"type": "string"},
            "seed": {"type": "integer"},
            "gm": {"type": "boolean"},
            "dice": _d(faces, "Faces for the first rolls, in order."),
            "commands": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"type": ["string", "number"]},
                        _obj(
                            {"command": {"type": ["string", "number"]}, "dice": faces},
                            required=["command"],
                        ),
                    ]
                },
            },
            "expect": {"anyOf": [expect, {"type": "array", "items": expect}]},
            "allow_errors": {"type": "boolean"},
            "skip": _d(
                {"type": ["string", "boolean"]}, "true, or the reason to skip the case for now."
            ),
        },
        required=["commands"],
    )
    return {
        "$schema": DRAFT,
        "title": "Katari play-tests",
        "anyOf": [case, {"type": "array", "items": case}],
    }


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
