"""The contract between the engine and a rule system.

A rule system is a module ``runner.rules.<name>`` (or a package) that exposes ``SYSTEM``,
a :class:`RuleSystem`. Its hooks are plain functions of a :class:`Context` plus positional
arguments, called from a story by name (``coc7.check("目星", "hard")``) inside expressions
or as effects. Hooks never print, open files or read the wall clock: all randomness comes
from ``ctx.roll``/``ctx.faces``, all output is events passed to ``ctx.emit``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from runner.rules.dice import Roll


class RuleError(ValueError):
    """A hook was called with arguments it cannot use (the message quotes them)."""


class Context(Protocol):
    """What a hook may see and do while the engine runs one command."""

    story: Any
    """The frozen Story (``runner.story.model.Story``)."""
    state: Any
    """The working copy of the State; hooks may change ``vars``, ``stats``, ``rules``,
    ``inventory``. It is discarded if the command fails."""
    gm: bool
    """True when the front end is a game master's: hooks may add keeper detail."""
    checking: Any
    """The story action whose ``check`` is being worked out (its ``key`` names it), or None:
    what a rule system notes to refer back to that check later."""

    def roll(self, expr: str, *, label: str = "", emit: bool = True, **extra: Any) -> Roll:
        """Rolls dice notation with the game's dice, emitting a ``roll`` event unless told not to."""
        ...

    def faces(self, sides: list[int], *, expr: str, label: str = "", target: int | None = None) -> list[int]:
        """Takes raw faces for dice with these sides, in order (for custom roll readings);
        ``label`` and ``target`` tell a table rolling by hand what the roll is for."""
        ...

    def emit(self, event: dict) -> None:
        """Adds an event (see docs/jsonl.md for the types) to this turn's output."""
        ...

    def say(self, text: str, *, speaker: str | None = None, keeper: bool = False,
            id: str | None = None) -> None:
        """Emits a narration event."""
        ...

    def call(self, name: str, *args: Any) -> Any:
        """Calls another hook by its full name (``ureg.reach``)."""
        ...

    def run_effects(self, effects: Any) -> None:
        """Runs story effects (a compiled effect list from the story) now."""
        ...


HookFn = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Hook:
    name: str
    fn: HookFn
    pure: bool
    """A pure hook only reads state and may appear in conditions; others only in effects
    and checks."""
    args: tuple[str, ...]
    """Names of the positional arguments, for messages and docs."""
    doc: str = ""


@dataclass
class RuleSystem:
    """A rule system: named hooks plus optional life-cycle functions."""

    name: str
    title: str = ""
    hooks: dict[str, Hook] = field(default_factory=dict)
    init: Callable[[Context], None] | None = None
    """Called once when a game starts, before the start node's narration."""
    view: Callable[[Any, Any, bool], dict] | None = None
    """``view(story, state, gm) -> dict`` merged into each ``state`` event."""
    on_unmatched: Callable[[Context, str], bool | str] | None = None
    """Given a command no action matched; returns True if it handled it (free proposals),
    ``"said"`` if it only answered in words (a look): the events are shown, no turn passes."""
    after_command: Callable[[Context, str], None] | None = None
    """Called after every successful command (before timed events)."""
    offer: Callable[[Any, Any, list], list] | None = None
    """``offer(story, state, choices) -> choices``: what the rules allow now, given the
    story's open actions as numbered ``Choice`` records. A rule system may take actions away
    (a character who cannot act) or add its own (a push); it never changes the state. The
    engine lists, matches and runs only what this returns."""
    sheet: Callable[[Any, Any, str], list[str]] | None = None
    """``sheet(story, state, lang) -> lines``: the characters' sheets as a player reads them
    (characteristics, points, conditions, skills), for a front end's ``sheet`` command; None
    when the rule system keeps no sheets. Pure: it reads the state, never changes it."""
    validate: Callable[[Any], list[tuple[str, str]]] | None = None
    """``validate(raw_story_dict) -> [(yaml_path, message)]`` rule-specific story checks."""
    meta_commands: dict[str, Any] = field(default_factory=dict)
    """``@name args`` commands: a :class:`runner.rules.meta.MetaCommand` each (its arguments
    declared, read and bounded at the door), or a plain ``fn(ctx, words)``."""

    def hook(self, name: str | None = None, *, pure: bool = False) -> Callable[[HookFn], HookFn]:
        """Registers a function as a hook: ``@SYSTEM.hook(pure=True)``."""

        def deco(fn: HookFn) -> HookFn:
            import inspect

            params = list(inspect.signature(fn).parameters)[1:]
            hname = name or fn.__name__.rstrip("_")
            self.hooks[hname] = Hook(f"{self.name}.{hname}", fn, pure, tuple(params),
                                     (fn.__doc__ or "").strip())
            return fn

        return deco
