"""The runtime model of a story: frozen, plain, and free of YAML.

The many small records (lines, actions, nodes) are NamedTuples: as immutable as frozen
dataclasses and several times cheaper to build, which counts on stories of 100,000 nodes.

Expressions are kept as ASTs from :mod:`runner.story.expr`; effects as one NamedTuple per
kind (:class:`Goto`, :class:`Set`, ... below). The engine compiles and caches what it runs in ``Story.cache``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

Expr = tuple[Any, ...]
"""An expression AST (see :mod:`runner.story.expr`)."""


class Narration(NamedTuple):
    id: str
    """Stable id: for voice recordings, translations and "seen" marks."""
    text: str
    when: Expr | None = None
    speaker: str | None = None
    keeper: bool = False
    """Keeper-only: shown to a game master, never to players, never spoken."""


class Outcome(NamedTuple):
    key: str
    effects: tuple[Effect, ...] = ()


# Effects: one NamedTuple per kind, its first field the kind's word, so that code matches them
# by class (``match e: case Goto(target=t): ...``) and an old ``e[0] == "goto"`` still reads them.


class Set(NamedTuple):
    """``set: {var: expr}``: each variable takes its expression's value."""

    kind: Literal["set"]
    pairs: tuple[tuple[str, Expr], ...]


class Add(NamedTuple):
    """``add: {var: expr}``: each variable grows by its expression's value."""

    kind: Literal["add"]
    pairs: tuple[tuple[str, Expr], ...]


class Give(NamedTuple):
    kind: Literal["give"]
    counts: tuple[tuple[str, int], ...]


class Take(NamedTuple):
    kind: Literal["take"]
    counts: tuple[tuple[str, int], ...]


class Goto(NamedTuple):
    """To a node, or to an ending when the target is one."""

    kind: Literal["goto"]
    target: str


class End(NamedTuple):
    kind: Literal["end"]
    ending: str


class Say(NamedTuple):
    kind: Literal["say"]
    lines: tuple[Narration, ...]


class Do(NamedTuple):
    """Calls for their effects on the rules (``do: lose_san(1)``)."""

    kind: Literal["do"]
    calls: tuple[Expr, ...]


class If(NamedTuple):
    """``then`` when ``cond`` holds (or is None), else ``other``."""

    kind: Literal["if"]
    cond: Expr | None
    then: tuple[Effect, ...]
    other: tuple[Effect, ...]


class Roll(NamedTuple):
    kind: Literal["roll"]
    dice: str
    into: str | None
    label: str


class Check(NamedTuple):
    """A rule check's result picks one of ``outcomes`` by its key."""

    kind: Literal["check"]
    expr: Expr | None
    outcomes: tuple[Outcome, ...]


class Advance(NamedTuple):
    """The clock moves on by ``minutes`` (an expression)."""

    kind: Literal["advance"]
    minutes: Expr


Effect = Set | Add | Give | Take | Goto | End | Say | Do | If | Roll | Check | Advance
"""One effect; a story's effects are a ``tuple[Effect, ...]``."""
EFFECT_TYPES: dict[str, type] = {
    t.__name__.lower(): t
    for t in (Set, Add, Give, Take, Goto, End, Say, Do, If, Roll, Check, Advance)
}
"""Each effect type by its kind's word."""


class Action(NamedTuple):
    id: str
    label: str
    aliases: tuple[str, ...] = ()
    when: Expr | None = None
    once: bool = False
    cost: int = 0
    check: Expr | None = None
    outcomes: tuple[Outcome, ...] = ()
    effects: tuple[Effect, ...] = ()
    """Run before the check (if any); ``say``, ``goto`` and ``end`` written on the action
    are folded in, in that order, after the outcome."""
    after: tuple[Effect, ...] = ()
    """Effects after the check's outcome: the action's own ``goto``/``end``."""
    hidden: bool = False
    """Matched when typed or spoken but not listed (secret words)."""
    key: str = ""
    """``"node.action"``: how the state counts the times it ran."""


class Node(NamedTuple):
    id: str
    kind: str = "place"
    title: str = ""
    scene: str = ""
    """A group for maps of large stories: the file or folder it came from, or ``scene:``."""
    narration: tuple[Narration, ...] = ()
    keeper: tuple[Narration, ...] = ()
    on_enter: tuple[Effect, ...] = ()
    actions: tuple[Action, ...] = ()
    props: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ending:
    id: str
    kind: str
    title: str = ""
    narration: tuple[Narration, ...] = ()


@dataclass(frozen=True, slots=True)
class TimedEvent:
    id: str
    at: int | None = None
    """Minutes after the clock's start."""
    when: Expr | None = None
    effects: tuple[Effect, ...] = ()
    repeat: bool = False
    title: str = ""
    """What the GM panel and status call it (player text: translated like the rest)."""


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    value: Any
    visible: bool = False
    label: str = ""
    visible_when: Expr | None = None
    """Shown to a player only while this condition holds (``visible`` is then true)."""


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    name: str
    description: str = ""
    props: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    kind: str = "npc"
    stats: dict[str, Any] = field(default_factory=dict)
    props: dict[str, Any] = field(default_factory=dict)
    known_when: Expr | None = None
    """The player knows the character's ``name`` only while this holds (None: always)."""
    unknown_name: str = ""
    """What the player calls the character until then (「少女」, 「声」)."""


@dataclass(frozen=True, slots=True)
class Clock:
    start: int = 0
    """Minutes after midnight shown at the start (10:00 → 600)."""
    limit: int | None = None
    """Minutes after the start when time runs out, if ever."""
    show: bool = True
    left_visible_when: Expr | None = None
    """The time left is shown to a player only while this condition holds (None: always)."""


@dataclass(frozen=True)
class Story:
    id: str
    title: str
    language: str
    rules: str
    start: str
    path: str
    nodes: dict[str, Node]
    endings: dict[str, Ending]
    variables: dict[str, Variable] = field(default_factory=dict)
    items: dict[str, Item] = field(default_factory=dict)
    characters: dict[str, Character] = field(default_factory=dict)
    events: tuple[TimedEvent, ...] = ()
    clock: Clock | None = None
    credits: tuple[str, ...] = ()
    licence: str = ""
    author: str = ""
    description: str = ""
    length: str = ""
    """How long a game takes, as the author says ("30分", "2-3 hours")."""
    options: dict[str, Any] = field(default_factory=dict)
    readings: dict[str, str] = field(default_factory=dict)
    voices: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    """Top-level sections a rule system reads (a section named after the story's rule system), as plain data."""
    version: str = ""
    """``story.version`` as written ("3", "1.2"); "" when the story has none."""
    conditions: dict[str, Expr] = field(default_factory=dict)
    """Named conditions (``conditions: {can_swim: "…"}``): a name usable in any expression."""
    migrations: tuple[Any, ...] = ()
    """Renames for saves of older versions (runner.story.migrations.Migration, oldest first)."""
    translation: Any = None
    """The translation this Story was overlaid with (runner.story.translate.Applied), or None
    for the story as written; ``language`` is then the translation's (the language played)."""
    cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """Derived data computed once per loaded story: the engine's compiled closures and
    per-node action tables, and rule systems' own tables under keys that start with their
    name (``(NAME, ...)``). Not part of the story's identity."""

    def narration_by_id(self) -> dict[str, Narration]:
        out: dict[str, Narration] = {}
        for n in self.nodes.values():
            for line in (*n.narration, *n.keeper):
                out[line.id] = line
        for e in self.endings.values():
            for line in e.narration:
                out[line.id] = line
        return out
