"""The contract between Katari and a rule system (docs/rules-api.md).

A rule system is one package that exposes a :class:`RuleSystem` and declares it in the
``katari.rules`` entry-point group (``NAME = "module:SYSTEM"``); :mod:`runner.rules` finds it
there. Its hooks are plain functions of a :class:`Context` plus positional arguments, called
from a story by name (``mysys.check("目星", "hard")``) inside expressions or as effects.
Hooks never print, open files or read the wall clock: all randomness comes from
``ctx.roll``/``ctx.faces``, all output is events passed to ``ctx.emit``.

Everything else a front end or an author tool needs from a rule system it reads from the
:class:`RuleSystem` too (labels, its real-time clock, campaigns, lint, template, manuals):
nothing outside the system's own package names it.
"""

from __future__ import annotations

import inspect  # (dataclasses imports it: no cost)
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import FunctionType, MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, overload

from runner.rules.dice import Roll

if TYPE_CHECKING:  # the engine imports the rules: its event types are for annotations only
    from runner.engine.events import Event


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

    def faces(
        self, sides: list[int], *, expr: str, label: str = "", target: int | None = None
    ) -> list[int]:
        """Takes raw faces for dice with these sides, in order (for custom roll readings);
        ``label`` and ``target`` tell a table rolling by hand what the roll is for."""
        ...

    def emit(self, event: Event) -> None:
        """Adds an event (``runner.engine.events``; docs/jsonl.md for the wire form) to
        this turn's output."""
        ...

    def say(
        self, text: str, *, speaker: str | None = None, keeper: bool = False, id: str | None = None
    ) -> None:
        """Emits a narration event."""
        ...

    def call(self, name: str, *args: Any) -> Any:
        """Calls another hook by its full name (``mysys.reach``)."""
        ...

    def run_effects(self, effects: Any) -> None:
        """Runs story effects now: either the effect data a story wrote, as plain lists and
        dicts (``[{"say": "..."}, {"set": {"oil": True}}]``, exactly as in its YAML), or an
        effect tuple the loader compiled (a node's ``on_enter``)."""
        ...

    def end(self, ending: str) -> None:
        """Ends the game at the story's ending ``ending`` now (its narration is shown); the
        hook does not go on past this call. A ``RuleError`` if the story has no such ending.
        Declare the endings only your rules reach in the story's ``options: endings:`` so
        ``katari check`` knows they can be reached (docs/rules-api.md)."""
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
    outcomes: frozenset[str] | None = None
    """The outcome keys a check on this hook can give (``katari check`` warns about any
    other key under its ``outcomes:``); None when they cannot be known."""
    skill_arg: bool = False
    """Its quoted arguments name skills (editors complete them from ``RuleSystem.skills``)."""
    domains: dict[str, Domain] = field(default_factory=dict)
    """What some arguments may be (a skill, dice, a character): ``katari check`` tests the
    literal arguments of every call against them (RuleSystem.declare)."""


def _arg_names(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The names of a hook's arguments after its context, as ``inspect.signature`` gives them.
    A plain function with no ``*args`` or ``**kwargs`` has them in its code object, in that
    order (positional, then keyword-only); the signature is read only for anything else (a
    wrapped function, a partial, a method). A rule system registers dozens of hooks at every
    start, and a signature costs ~300 bytecodes (tests/test_rules_hook_args.py)."""
    if isinstance(fn, FunctionType) and not hasattr(fn, "__wrapped__"):
        code = fn.__code__
        if not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
            return code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
    return tuple(inspect.signature(fn).parameters)[1:]


Labels = Mapping[str, Mapping[str, str]]
"""``{lang: {key: label}}`` in ``ja`` and ``en``."""


_EMPTY: Mapping[Any, Any] = MappingProxyType({})


# The declarations below are NamedTuples, not dataclasses: a rule system is loaded at every
# start, and a dataclass costs about thirty times as much to define.
class Display(NamedTuple):
    """How front ends show a rule system's part of a ``state`` event and its sheets: the
    status bar, the GM panel, the players' view. Keys it does not name are shown as they are."""

    labels: Labels = _EMPTY
    """Names of its view keys, sheet keys and character kinds, ``{lang: {key: label}}``."""
    values: Mapping[str, Mapping[str, Mapping[Any, str]]] = _EMPTY
    """Names of view values that have their own (``{lang: {key: {value: name}}}``: an LED's
    colour, a button, yes/no)."""
    stats: tuple[str, ...] = ()
    """Sheet keys the status bar shows first, in order (the usual gauges); empty: the
    generic ones (HP, MP, life), else a sheet's first numbers."""
    status_skip: frozenset[str] = frozenset()
    """View keys the status bar leaves out (the GM panel still shows hidden ones)."""
    same_as_stats: frozenset[str] = frozenset()
    """View keys that list the characters already shown from ``stats``."""
    conditions: tuple[str, ...] = ()
    """Flags of a sheet's ``cond`` mapping the GM panel marks (``［重傷］``)."""
    sheet_skip: frozenset[str] = frozenset()
    """Sheet numbers the GM panel does not repeat after the gauges."""
    text: Callable[[str, Any, str, bool], str | None] | None = None
    """``text(key, value, lang, short) -> str | None``: its own wording of a view value
    (``short``: the status bar's); None leaves the value to the generic form."""
    word: Callable[[str, str], str | None] | None = None
    """``word(value, lang) -> str | None``: a text a story keeps in a variable that is one of
    this system's own words (an ability's name), as ``lang`` names it (the GM panel's
    variables); None: shown as stored."""


class RealTimeClock(NamedTuple):
    """A clock of real seconds the console runs for a story (a countdown), and tells the
    game about through the system's own rule commands, so logs and replays keep it."""

    limit: Callable[[Any], float | None]
    """``limit(story) -> seconds``, or None when this story has no real-time clock."""
    spent: Callable[[Any, float], float]
    """``spent(state, limit) -> seconds`` the game has been told about."""
    report: Callable[[int, int, bool], str]
    """``report(delta, total, behind) -> "@command args"``: tells the game ``delta`` more
    seconds have passed (``total`` in all); ``behind`` when the game's count is behind the
    console's (an undo or a load brought back an older State)."""
    waits: Callable[[Any, Any], bool] | None = None
    """``waits(story, state)``: True while the clock has not started yet (an opening)."""
    live: tuple[tuple[str, ...], ...] = ()
    """Paths of ``state`` event fields the console's live countdown replaces in the status
    bar (``("time_left",)``, ``("mysys", "time_left")``)."""


class Campaign(NamedTuple):
    """Characters who go on from a finished game into another story (``play --campaign-from``)."""

    wants: Callable[[Any], bool]
    """``wants(story)``: whether a story is a campaign scenario of this system."""
    carry: Callable[[dict[str, Any], str, str], str]
    """``carry(finished_state, prev, lang) -> "@command args"`` for the new game's first line,
    from a finished game's saved State (plain JSON data: take only plain text on). Raises
    :class:`RuleError` (one line in ``lang``, naming the game ``prev``) when nobody goes on."""
    rules_key: str = ""
    """The key under ``state.rules`` a finished game of this system has (default its name)."""


class Template(NamedTuple):
    """``katari new --rules NAME``: a small, valid, commented story to start from. Both are
    ``str.format`` texts: ``{id}`` and ``{title}`` in the story, ``{path}`` in the test
    (write literal braces twice)."""

    story: str
    test: str


class Manual(NamedTuple):
    """A manual ``katari manual NAME`` prints: the file ``pattern.format(lang=...)`` (``ja``
    or ``en``) in ``package``'s resources."""

    package: str
    pattern: str
    aliases: tuple[str, ...] = ()


class Investigators(NamedTuple):
    """Player characters brought from the online table and taken back to it: ``katari play
    --investigator FILE``, the console's ``import`` (and JSON pasted at its prompt), ``katari
    roll --investigator FILE``, ``katari export --format ccfolia``. The pure half is the rule
    system's own; reading documents (files, standard input, pasted JSON) and writing a sheet
    in a table's format is an adapter's, a module outside ``runner/rules``, named here
    (docs/rules-api.md)."""

    adapter: str
    """The module that reads documents into sheets and writes sheets back out; it offers
    ``investigator(doc, where) -> Imported`` (``.sheet``, the portable form; ``.source``;
    ``.notes``, each with ``.message(lang)``), ``load(source) -> Imported`` (a file, or ``-``
    for standard input), ``read_file(path) -> (doc, where)``, ``parse(text, where) -> doc``,
    ``complete(text) -> bool`` and ``MAX_BYTES`` (pasted text), ``piece(sheet, note=) -> dict``
    (CCFOLIA's clipboard JSON), ``SheetError`` (``.message(lang)``, one line) and
    ``say(code, lang, **kw)`` for ``imported``, as ``runner.ccfolia.adapter`` does."""
    command: Callable[[dict[str, Any]], str]
    """``command(portable) -> "@name {...}"``: the rule command that plays an imported sheet
    in as a game's first command (so saves, undo and replays keep it)."""
    sheet: Callable[[Any], dict[str, Any]]
    """``sheet(portable) -> sheet``: the full sheet of an imported one (what ``katari roll
    --investigator`` rolls against); :class:`RuleError` when it is not one."""
    creation: Callable[[Any, str], Any]
    """``creation(story, node_id) -> action | None``: the character choice's action an
    import takes the place of (the console offers ``import`` there)."""
    active: Callable[[Any], dict[str, Any] | None]
    """``active(state) -> sheet | None``: the active investigator's sheet in a game (chat-
    palette rolls, the exported piece)."""


Finding = tuple[str, str, str]
"""``(message, code, severity)`` of a rule system's lint, about the story as a whole."""


@dataclass(frozen=True, slots=True)
class Domain:
    """The values an argument may take: ``check(value, story)`` gives the problem with a
    literal value (``"unknown skill 'Spot Hiden' (did you mean 'Spot Hidden'?)"``) or None.
    ``story`` is the loaded Story. Declared by the rule system, never by the engine."""

    name: str
    """For docs and hovers: ``skill``, ``dice``, ``difficulty``, ``character``..."""
    check: Callable[[Any, Any], str | None]


_CONTEXT_NAMES = ("ctx", "context", "_ctx", "_context", "_")


def _no_context(fn: HookFn) -> str:
    """Why ``fn``'s first parameter cannot be a hook's context ("" when it can): there is
    none, it is keyword-only or ``*args``, or it is named as an argument (``def
    test(target)``: the story's first argument would land in the context's place). The
    context is the first parameter named ``ctx``/``context`` or annotated ``Context``. A
    plain function is read from its code object, as :func:`_arg_names` does (no signature)."""
    if isinstance(fn, FunctionType) and not hasattr(fn, "__wrapped__"):
        code = fn.__code__
        if code.co_argcount == 0:
            if code.co_flags & inspect.CO_VARARGS:
                return f"its first parameter is *{code.co_varnames[code.co_kwonlyargcount]}"
            if code.co_kwonlyargcount:
                return f"its first parameter is {code.co_varnames[0]} (keyword-only)"
            return "it has no parameters"
        first = code.co_varnames[0]
        note: Any = fn.__annotations__.get(first, "")
    else:
        try:
            params = list(inspect.signature(fn).parameters.values())
        except (TypeError, ValueError):
            return "its signature cannot be read"
        if not params:
            return "it has no parameters"
        if params[0].kind not in (params[0].POSITIONAL_ONLY, params[0].POSITIONAL_OR_KEYWORD):
            return f"its first parameter is {params[0]}"
        first, note = params[0].name, params[0].annotation
    named = note if isinstance(note, str) else getattr(note, "__name__", "")
    if first in _CONTEXT_NAMES or named.rsplit(".", 1)[-1] == "Context":
        return ""
    return f"its first parameter {first!r} is not named ctx nor annotated Context"


@dataclass
class RuleSystem:
    """A rule system: named hooks plus optional life-cycle functions, and what front ends
    and author tools need to know about it (all optional)."""

    name: str
    title: str = ""
    hooks: dict[str, Hook] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    """The title in other languages (``{"en": "Call of Cthulhu 7th edition"}``); ``title``
    where one is missing (:meth:`title_in`)."""
    init: Callable[[Context], None] | None = None
    """Called once when a game starts, before the start node's narration."""
    view: Callable[[Any, Any, bool], dict[str, Any]] | None = None
    """``view(story, state, gm) -> dict`` merged into each ``state`` event."""
    on_unmatched: Callable[[Context, str], bool | str] | None = None
    """Given a command no action matched; returns True if it handled it (free proposals),
    ``"said"`` if it only answered in words (a look): the events are shown, no turn passes."""
    after_command: Callable[[Context, str], None] | None = None
    """Called after every successful command (before timed events)."""
    offer: Callable[[Any, Any, list[Any]], list[Any]] | None = None
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
    active_pc: Callable[[Context], str] | None = None
    """The id of the player character whose sheet ``pc.name`` reads (None: the story's
    ``kind: pc`` character)."""
    meta_commands: dict[str, Any] = field(default_factory=dict)
    """``@name args`` commands: a :class:`runner.rules.meta.MetaCommand` each (its arguments
    declared, read and bounded at the door; ``player=True`` for the ones a player may type,
    the others are sent by front ends and bots), or a plain ``fn(ctx, words)``."""
    display: Display = field(default_factory=Display)
    """Labels and fields for the status bar, the GM panel and the players' view."""
    realtime: RealTimeClock | None = None
    """A real-time clock the console runs for some of its stories."""
    campaign: Campaign | None = None
    """Characters carried over from a finished game (``katari play --campaign-from``)."""
    lint: Callable[[Any, list[str]], list[Finding]] | None = None
    """``lint(story, texts) -> [(message, code, severity)]``: ``katari check``'s warnings
    about a story that loads (``texts``: its files' text); codes K3xx."""
    templates: dict[str, Template] = field(default_factory=dict)
    """The story ``katari new --rules NAME`` writes, by language (``ja``, ``en``); none: not
    offered."""
    manuals: dict[str, Manual] = field(default_factory=dict)
    """Manuals ``katari manual NAME`` prints (a bomb module's expert manual)."""
    topics: dict[str, Callable[[str], str]] = field(default_factory=dict)
    """``katari rules NAME [TOPIC]``: ``topic(lang) -> text``. ``katari rules NAME`` shows
    the topic ``rules`` when there is one, else the list of hooks followed by every topic."""
    skills: Callable[[], list[tuple[str, str]]] | None = None
    """``skills() -> [(name, note)]``: what a check names, for completion in editors."""
    importer: str = ""
    """The package of a scenario-document importer that writes drafts for this system
    (``katari import DOC --rules NAME``): it offers ``parse_document``, ``ImportFailure``,
    ``writer.write_story``, ``report.summary``/``to_json`` as ``runner.importer`` does."""
    investigators: Investigators | None = None
    """Investigators imported from and exported to the online table (CCFOLIA, キャラクター
    保管所); None: this system's stories take none (the front ends say so in one line)."""
    dice: Callable[[str, Any], Any] | None = None
    """``dice(text, source) -> result | None``: a roll in this system's own dice syntax
    (``katari roll``, the console's ``roll``), or None when ``text`` is not one. The result
    has ``text`` and ``to_json()``."""
    switches: frozenset[str] = frozenset()
    """The ``story.options`` this system reads as on/off (``luck_spending``): ``katari
    check`` takes only true or false there and refuses ``no``, ``yes``, ``on``, ``off`` (text
    in YAML 1.2, hence true) with the fix, in ``options``, ``options.NAME`` and the section
    ``NAME:``."""
    text_keys: frozenset[str] = frozenset()
    """Keys of the rule data a story writes (node ``props``, ``story.options``, the rule
    section) whose text values (or lists of text) players read or type: an obstacle's
    ``name``, ``hint``, ``say``, ``aliases``... ``katari strings`` exports them for translation."""
    texts: Callable[[str], dict[str, str]] | None = None
    """``texts(lang) -> {key: text}``: the rule system's own words in ``lang`` ("" when it
    has none), by stable key, for translators. A story's translation may reword them
    (``rules.<system>.<key>``: ``Story.translation.rule_texts``)."""
    ruled: Callable[[Any, str, Any], None] | None = None
    """``ruled(ctx, forced, roll_event)``: the GM ruled the check just made ``forced`` (its
    roll event, marked, or None): what the rules remember of the check follows the ruling
    (Call of Cthulhu offers a push and Luck only after a check that failed as ruled)."""
    ruled_text: Callable[[Any, str, str], str | None] | None = None
    """``ruled_text(roll_event, forced, language) -> text | None``: a check's roll line once
    the GM forced ``forced``, naming the ruling and never the dice's own verdict (None: the
    roll keeps its text; without this hook the engine adds the ruling after the text)."""

    def declare(self, hook: str, **domains: Domain) -> None:
        """Declares the domains of some arguments of a hook already registered."""
        from dataclasses import replace

        h = self.hooks[hook]
        unknown = set(domains) - set(h.args)
        if unknown:
            raise TypeError(f"{self.name}.{hook} has no argument {sorted(unknown)}")
        self.hooks[hook] = replace(h, domains={**h.domains, **domains})

    @overload
    def hook(self, name: HookFn, /) -> HookFn: ...

    @overload
    def hook(
        self,
        name: str | None = None,
        *,
        pure: bool = False,
        outcomes: Iterable[str] | None = None,
        skill_arg: bool = False,
    ) -> Callable[[HookFn], HookFn]: ...

    def hook(
        self,
        name: str | HookFn | None = None,
        *,
        pure: bool = False,
        outcomes: Iterable[str] | None = None,
        skill_arg: bool = False,
    ) -> Any:
        """Registers a function as a hook: ``@SYSTEM.hook(pure=True)``; ``outcomes``: the
        keys it can give as a check. ``@SYSTEM.hook`` without parentheses registers it with
        the defaults. The function's first parameter is the context (``def test(ctx,
        target)``): a function without one is refused here, with a TypeError that says so
        (the system then cannot be loaded, and ``katari rules``/``check`` show that line)."""

        def deco(fn: HookFn) -> HookFn:
            hname = (name if isinstance(name, str) else None) or fn.__name__.rstrip("_")
            why = _no_context(fn)
            if why:
                raise TypeError(
                    f"hook {self.name}.{hname}: a hook's first parameter is the context"
                    f" (def {fn.__name__}(ctx, ...)); {why}"
                )
            params = _arg_names(fn)
            self.hooks[hname] = Hook(
                f"{self.name}.{hname}",
                fn,
                pure,
                params,
                (fn.__doc__ or "").strip(),
                frozenset(outcomes) if outcomes is not None else None,
                skill_arg,
            )
            return fn

        if callable(name):  # the bare @SYSTEM.hook
            return deco(name)
        return deco

    def title_in(self, lang: str) -> str:
        """The system's title in ``lang`` (its ``title`` where it has none in that language)."""
        return self.titles.get(lang) or self.title or self.name

    def label(self, key: str, lang: str) -> str | None:
        """The name of a view or sheet key in ``lang`` (falling back to Japanese), or None."""
        labels = self.display.labels
        table = labels.get(lang) or labels.get("ja") or {}
        return table.get(key)
