"""The events ``step()`` returns, as declared types (docs/jsonl.md is their wire form).

An event stays a plain ``dict`` at runtime (what ``--jsonl`` writes is ``json.dumps`` of it,
unchanged); these ``TypedDict`` classes only tell the type checker which keys each kind has.
A reader narrows the union :data:`Event` by its tag, ``if ev["type"] == "roll": ...``.

Keys marked ``NotRequired`` appear only sometimes. A rule system may add keys of its own to
the events it emits (a roll's ``who``, ``bonus``, ``difficulty``; a state's view keys such as
``stage`` or ``investigator``): the ones the shipped systems use are declared here, so their
hooks are checked too; a front end shows keys it does not know as they are.

This module imports nothing of Katari; a rule system imports it for its annotations only
(under ``typing.TYPE_CHECKING``: importing ``runner.engine`` at run time loads the engine).
"""

# No ``from __future__ import annotations``: the classes keep their real annotations, so
# ``__required_keys__`` and ``__optional_keys__`` are right at run time (tests read them).
from typing import Any, Literal, NotRequired, TypedDict


class NarrationEvent(TypedDict):
    """A line of the story (or of a rule system) to show or speak."""

    type: Literal["narration"]
    text: str
    speaker: str
    """``narrator`` or a character's id (for voices)."""
    id: str | None
    """The line's stable id (None for a rule system's own line)."""
    name: NotRequired[str]
    """A character's name as the player knows it at that moment."""
    keeper: NotRequired[bool]
    """A keeper-only line (only a GM's front end gets it)."""
    texts: NotRequired[dict[str, str]]
    """A rule system's line in both languages, ``{"ja": ..., "en": ...}``."""
    untranslated: NotRequired[bool]
    """A GM's ``--jsonl``: the line is still in the source language (docs/translating.md)."""


class RollEvent(TypedDict):
    """Dice rolled: every face, in order, and the total; a graded check adds its level."""

    type: Literal["roll"]
    expr: str
    dice: list[int]
    sides: list[int]
    total: int
    label: NotRequired[str]
    level: NotRequired[str]
    target: NotRequired[int | None]
    success: NotRequired[bool]
    forced: NotRequired[str]
    """The outcome a GM's ``!force`` made run."""
    rolled: NotRequired[str]
    """The dice's own level when a GM forced another."""
    keeper: NotRequired[bool]
    # Keys the shipped rule systems add to their checks' rolls:
    text: NotRequired[str]
    bonus: NotRequired[int]
    difficulty: NotRequired[str]
    who: NotRequired[str | None]
    maximum: NotRequired[bool]
    pushed: NotRequired[bool]
    san: NotRequired[bool]


class PendingEvent(TypedDict):
    """A timed event not fired yet, in a GM's ``state``."""

    id: str
    at: int | None
    time: str | None
    title: NotRequired[str]


class GMView(TypedDict):
    """What a GM's ``state`` event adds under ``gm``."""

    pending_events: list[PendingEvent]
    fired: list[str]
    all_vars: dict[str, Any]


class StateEvent(TypedDict):
    """What the player can see of the state after a turn (a GM: all of it). A rule system's
    view (``RuleSystem.view``) adds its own keys beside these."""

    type: Literal["state"]
    node: str
    title: str
    turn: int
    clock: int
    ending: NotRequired[str]
    time: NotRequired[str]
    time_left: NotRequired[int]
    vars: dict[str, Any]
    inventory: dict[str, int]
    stats: NotRequired[dict[str, dict[str, Any]]]
    gm: NotRequired[GMView]


class PromptAction(TypedDict):
    id: str
    label: str
    n: int


class PromptEvent(TypedDict):
    """The actions valid now, numbered as a player sees them."""

    type: Literal["prompt"]
    actions: list[PromptAction]


class EndingEvent(TypedDict):
    type: Literal["ending"]
    id: str
    kind: str
    title: str


class OverrideEvent(TypedDict):
    """A game master's override (docs/gm.md): what changed, as data and in English."""

    type: Literal["override"]
    what: str
    args: NotRequired[list[str]]
    code: str
    value: NotRequired[str]
    data: NotRequired[dict[str, Any]]
    message: NotRequired[str]


class DiceEvent(TypedDict):
    """The faces entered by hand that wait for the next command (``:dice``)."""

    type: Literal["dice"]
    pending: list[int]


class Candidate(TypedDict):
    n: int
    id: str
    label: str


class ErrorEvent(TypedDict):
    """A command that could not run: ``code`` says why (docs/jsonl.md lists them)."""

    type: Literal["error"]
    code: str
    message: str
    data: NotRequired[dict[str, Any]]
    label: NotRequired[str]
    candidates: NotRequired[list[Candidate]]
    suggestions: NotRequired[list[str]]
    max: NotRequired[int]


Event = (
    NarrationEvent
    | RollEvent
    | StateEvent
    | PromptEvent
    | EndingEvent
    | OverrideEvent
    | DiceEvent
    | ErrorEvent
)
"""Any event of a turn; narrow it by ``ev["type"]``."""

Events = list[Event]
