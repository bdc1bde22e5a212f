"""The pure engine: ``step(story, state, command) -> (state, events)``.

Nothing here prints, reads files or the wall clock, or uses global randomness: the dice
come from the generator held in the state or from faces a person entered.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any, NamedTuple, cast

from runner.engine.evaluate import (
    MAX_ABS,
    EvalError,
    HookFailure,
    _num,
    compile_expr,
    shares_state,
)
from runner.engine.events import (
    Candidate,
    ErrorEvent,
    Event,
    NarrationEvent,
    PendingEvent,
    RollEvent,
    StateEvent,
)
from runner.engine.gm import (
    FAILURE_LEVELS,
    GM_COMMANDS,
    GM_KEY,
    SUCCESS_LEVELS,
    forced_keys,
    set_force,
    take_force,
)
from runner.engine.inline import render as render_inline
from runner.engine.match import MAX_COMMAND, Found, find, forms_of, normalise, suggestions
from runner.engine.state import State, _copy
from runner.rules import system
from runner.rules.base import RuleError
from runner.rules.dice import (
    DiceError,
    DiceSource,
    ManualDice,
    NeedDice,
    Roll,
    SeededDice,
    seed_state,
)
from runner.rules.dice import roll as roll_dice
from runner.rules.meta import as_command
from runner.story import model as m
from runner.story.effects import EffectError, compile_effects
from runner.story.inline import parse as parse_inline
from runner.story.model import (
    Action,
    Add,
    Advance,
    Check,
    Do,
    Effect,
    End,
    Give,
    Goto,
    If,
    Narration,
    Say,
    Set,
    Story,
    Take,
)
from runner.story.model import Roll as RollEffect

MAX_EFFECTS = 100_000
"""Effects one command may run; a story that loops forever is stopped with an error."""


class StoryRuntimeError(Exception):
    """A story bug found while running (bad value, endless loop); reported as an error event."""


class _Ending(Exception):
    pass


_PASSED = (
    _Ending,
    NeedDice,
    EvalError,
    RuleError,
    StoryRuntimeError,
    HookFailure,
    DiceError,
    RecursionError,
)
"""What a rule system's ``init`` or ``after_command`` raises that is not its own bug: the
game ending, dice asked of the table, a story error (``RuleError``), a failing hook it
called. Anything else is a :class:`HookFailure` naming the system and the function."""


class Choice(NamedTuple):
    """An action valid now, as a front end lists it."""

    n: int
    id: str
    label: str
    aliases: tuple[str, ...]
    action: Action


class Ctx:
    """The :class:`runner.rules.base.Context` the engine hands to hooks."""

    __slots__ = ("story", "state", "gm", "events", "dice", "goto", "budget", "owned", "checking")

    def __init__(
        self, story: Story, state: State, gm: bool, dice: DiceSource, owned: bool = True
    ) -> None:
        self.story = story
        self.state = state
        self.gm = gm
        self.events: list[Event] = []
        self.dice = dice
        self.goto: str | None = None
        self.budget = MAX_EFFECTS
        self.owned = owned
        """False while ``state.stats``/``rules`` are still the parent state's (see :meth:`own`)."""
        self.checking: Action | None = None
        """The story action whose ``check`` is being worked out, for a rule system that
        refers back to it later (a rule system offers to push a failed check)."""

    def own(self) -> None:
        """Gives the working state its own ``stats`` and ``rules`` before anything may write
        them. Called before every hook that is not known to leave them alone
        (``evaluate.shares_state``), and before rule-system callbacks."""
        if not self.owned:
            self.owned = True
            st = self.state
            st.stats = _copy(st.stats) if st.stats else {}
            st.rules = _copy(st.rules) if st.rules else {}

    # -- the Context protocol ---------------------------------------------
    def roll(self, expr: str, *, label: str = "", emit: bool = True, **extra: Any) -> Roll:
        try:
            r = roll_dice(expr, self.dice)
        except NeedDice as need:
            if not label:
                raise
            raise NeedDice(need.expr, need.sides, label=label, target=extra.get("target")) from None
        if emit and (self.gm or not extra.get("keeper")):
            ev = r.to_event(**extra)
            if label:
                ev["label"] = label
            self.events.append(ev)
        return r

    def faces(
        self, sides: list[int], *, expr: str, label: str = "", target: int | None = None
    ) -> list[int]:
        if expr == "1d100" and len(sides) >= 2 and sides.count(10) == len(sides):
            read = getattr(self.dice, "percentile", None)  # a table's 90 for the two d10s
            got: list[int] | None = read(len(sides)) if read is not None else None
            if got is not None:
                return got
        out = []
        try:
            for s in sides:
                out.append(self.dice.face(s))
        except NeedDice:
            raise NeedDice(expr, sides[len(out) :], label=label, target=target) from None
        return out

    def emit(self, event: Event) -> None:
        if event.get("keeper") and not self.gm:
            return
        self.events.append(event)

    def say(
        self, text: str, *, speaker: str | None = None, keeper: bool = False, id: str | None = None
    ) -> None:
        if keeper and not self.gm:
            return
        # Speakers are characters (#13 item 13): a rule's line "by" anything else (a voice
        # key such as "system") is the narrator's.
        who = speaker if speaker is not None and speaker in self.story.characters else None
        ev: NarrationEvent = {
            "type": "narration",
            "text": text,
            "speaker": who if who is not None else "narrator",
            "id": id,
        }
        if who is not None:
            ev["name"] = speaker_name(self, who)
        if keeper:
            ev["keeper"] = True
        self.events.append(ev)

    def call(self, name: str, *args: Any) -> Any:
        from runner.rules import find_hook

        hook = find_hook(name, self.story.rules)
        if hook is None:
            raise RuleError(f"unknown hook {name!r}")
        if not shares_state(hook):
            self.own()
        return hook.fn(self, *args)

    def run_effects(self, effects: Any) -> None:
        if effects and isinstance(effects, (list, dict)) and not isinstance(effects, tuple):
            effects = _compile_raw(self.story, effects)
        _run(self, effects)

    def end(self, ending: str) -> None:
        if ending not in self.story.endings:
            raise RuleError(f"no ending {ending!r} in this story")
        _end(self, ending)

    # -- engine helpers ----------------------------------------------------
    def eval(self, node: tuple[Any, ...]) -> Any:
        fn = self.story.cache.get(id(node))
        if fn is None:
            fn = _compiled(self.story, node)
        return fn(self)


def _compiled(story: Story, node: tuple[Any, ...]) -> Any:
    """The compiled form of an expression, kept in the story's cache under the expression's
    ``id``. The cache also keeps the expression itself alive, so that id is never taken over
    by another expression (a GM's ``!set`` value, effect data a rule system built) while the
    entry is there."""
    fn = story.cache.get(id(node))
    if fn is None:
        fn = story.cache[id(node)] = compile_expr(node, story.rules, story.conditions)
        alive = story.cache.get("_expressions")
        if alive is None:
            alive = story.cache["_expressions"] = []
        alive.append(node)
    return fn


_MAX_RAW = 1024
"""Effect data compiled and kept per story: a rule system's data taken from the story is
compiled once; data it builds afresh each time (a new list per call) is compiled each time
and not kept, so the cache cannot grow with the number of games played."""


def _compile_raw(story: Story, effects: Any) -> tuple[Effect, ...]:
    """Compiles effect data that a rule system took from the story (obstacles and such)."""
    kept = story.cache.get("_raw_effects")
    if kept is None:
        kept = story.cache["_raw_effects"] = {}
    hit = kept.get(id(effects))
    if hit is not None and hit[0] is effects:
        done: tuple[Effect, ...] = hit[1]
        return done
    try:
        compiled = compile_effects(story, effects, "rule")
    except EffectError as e:
        raise StoryRuntimeError(f"bad effects in rule data: {e}") from None
    if len(kept) < _MAX_RAW:
        kept[id(effects)] = (effects, compiled)
    return compiled


def _dice_for(state: State, dice: list[int] | None, manual: bool) -> tuple[DiceSource, SeededDice]:
    seeded = SeededDice(state.rng)
    if manual:
        return ManualDice(dice or []), seeded
    if dice:
        return ManualDice(dice, then=seeded), seeded
    return seeded, seeded


def new_game(
    story: Story,
    seed: int = 0,
    *,
    gm: bool = False,
    dice: list[int] | None = None,
    manual: bool = False,
) -> tuple[State, list[Event]]:
    """Starts a game: the state at the start node and the opening events (with state and prompt)."""
    state = State(
        story.id,
        story.start,
        {k: v.value for k, v in story.variables.items()},
        rng=seed_state(seed),
        seed=seed,
    )
    source, seeded = _dice_for(state, dice, manual)
    ctx = Ctx(story, state, gm, source)
    try:
        rs = system(story.rules)
        if rs.init is not None:
            try:
                rs.init(ctx)
            except _PASSED:
                raise
            except Exception as e:  # noqa: BLE001 - the rule system's own bug: say whose
                raise HookFailure("init", e, rs.name) from e
        # Characters the rule system did not make a sheet for keep the story's stats.
        for c in story.characters.values():
            if c.stats and c.id not in state.stats:
                state.stats[c.id] = _copy(c.stats)
        _enter(ctx, story.start)
        _settle(ctx)
    except _Ending:
        pass
    except NeedDice as need:
        need.events = list(ctx.events)  # shown before the table is asked (see NeedDice)
        need.state = ctx.state  # the game as of those events (a status bar shows it)
        raise
    except (EvalError, RuleError, StoryRuntimeError, RecursionError) as e:
        # As in step(): a start whose effects re-trigger themselves (a repeating timed event
        # that advances the clock) is a story error, and the game starts where it stopped.
        msg = (
            "story error: effects nest too deeply"
            if isinstance(e, RecursionError)
            else f"story error: {e}"
        )
        ctx.events.append(
            {
                "type": "error",
                "code": "story_error",
                "data": {"detail": msg[len("story error: ") :]},
                "message": msg,
            }
        )
    state.rng = seeded.state
    return state, ctx.events + tail(story, state, gm=gm)


class _NodeActions(NamedTuple):
    actions: tuple[tuple[Action, Any], ...]
    """Each action with its ``when`` compiled (or None)."""
    by_id: dict[str, tuple[Action, Any]]
    """The actions whose id no other action of the node shares."""
    tests: tuple[tuple[int, str | None, Any], ...]
    """For each action that may be closed: its bit, its ``once`` key (or None), its compiled
    ``when`` (or None). Actions that are always open have no test."""
    lists: dict[int, list[Choice]]
    """The choice list for each set of closed actions (a bit mask) seen so far."""
    spoken: bool = False
    """Whether a label holds ``{…}`` (worked out for each list)."""


def _node_actions(story: Story, node_id: str) -> _NodeActions | None:
    """A node's actions ready for :func:`available`, built once per story (it is asked twice
    a turn, for every action)."""
    table = story.cache.get("_actions")
    if table is None:
        table = story.cache["_actions"] = {}
    hit = table.get(node_id)
    if hit is None:
        node = story.nodes.get(node_id)
        if node is None:
            return None
        acts = tuple(
            (a, None if a.when is None else _compiled(story, a.when)) for a in node.actions
        )
        ids = [a.id for a in node.actions]
        by_id = {a.id: (a, w) for a, w in acts if ids.count(a.id) == 1}
        tests = tuple(
            (1 << i, a.key if a.once else None, w)
            for i, (a, w) in enumerate(acts)
            if a.once or w is not None
        )
        spoken = any("{" in a.label or "}" in a.label for a in node.actions)
        hit = table[node_id] = _NodeActions(acts, by_id, tests, {}, spoken)
    return hit


_MAX_LISTS = 256
"""Choice lists kept per node (a node with many conditional actions may see many combinations)."""


def _choices(na: _NodeActions, closed: int) -> list[Choice]:
    """The numbered choices of a node when the actions in the ``closed`` mask are not open."""
    out: list[Choice] = []
    hidden: list[Choice] = []
    n = 0
    for i, (a, _) in enumerate(na.actions):
        if closed & (1 << i):
            continue
        if a.hidden:
            hidden.append(Choice(0, a.id, a.label, a.aliases, a))
        else:
            n += 1
            out.append(Choice(n, a.id, a.label, a.aliases, a))
    return out + hidden


def _open(
    story: Story, state: State, a: Action, when: Any, ctx: Ctx | None
) -> tuple[bool, Ctx | None]:
    """Whether action ``a`` may run now (a condition that fails to compute hides it), and the
    context made to evaluate it (kept for the next action)."""
    if a.once and state.done.get(a.key):
        return False, ctx
    if when is None:
        return True, ctx
    if ctx is None:
        ctx = Ctx(story, state, False, SeededDice(0))
    try:
        return bool(when(ctx)), ctx
    except (EvalError, RuleError):
        return False, ctx


def available(
    story: Story,
    state: State,
    *,
    labels: bool = True,
    failed: list[HookFailure] | None = None,
) -> list[Choice]:
    """The actions valid now, numbered from 1 as a player sees them (hidden ones last, unnumbered).
    With ``labels=False`` a label's ``{…}`` is left as written (for a caller that reads only
    numbers: step() given a number). When the rule system's ``offer`` fails, the story's own
    open actions are given (the game goes on) and the failure is added to ``failed``."""
    if state.ending is not None:
        return []
    na = _node_actions(story, state.node)
    if na is None:
        return []
    # Only the actions that may be closed are tested (this runs at least once a turn); the
    # numbered list for each combination of closed actions is built once and then copied.
    closed = 0
    ctx = None
    done = state.done
    for bit, once_key, when in na.tests:
        if once_key is not None and done.get(once_key):
            closed |= bit
            continue
        if when is not None:
            if ctx is None:
                ctx = Ctx(story, state, False, SeededDice(0))
            try:
                if not when(ctx):
                    closed |= bit
            except (EvalError, RuleError, HookFailure):  # (a failing hook closes it)
                closed |= bit
    hit = na.lists.get(closed)
    if hit is None:
        hit = _choices(na, closed)
        if len(na.lists) < _MAX_LISTS:
            na.lists[closed] = hit
            hit = hit.copy()
    else:
        hit = hit.copy()
    if na.spoken and labels:
        hit = _labels(story, state, hit, ctx)
    rs = system(story.rules)
    if rs.offer is None:
        return hit
    try:
        return rs.offer(story, state, hit)
    except Exception as e:  # noqa: BLE001 - the rule system's own bug: the story's actions
        if failed is not None:
            failed.append(HookFailure("offer", e, rs.name))
        return hit


def _labels(story: Story, state: State, choices: list[Choice], ctx: Ctx | None) -> list[Choice]:
    """Labels with ``{…}`` worked out for this state. A label's variations count the times
    its action was taken (``{Knock|Knock again}``); a label that cannot be worked out now
    shows as written."""
    ctx = ctx or Ctx(story, state, False, SeededDice(0))
    out = []
    for c in choices:
        label = c.label
        if "{" in label or "}" in label:
            key = c.action.key or f"{state.node}.{c.id}"
            try:
                label = _spoken(ctx, label, key, fixed=state.done.get(key, 0))
            except (EvalError, RuleError, ValueError):
                label = c.label
            c = c._replace(label=label)
        out.append(c)
    return out


def _by_id(story: Story, state: State, text: str) -> Choice | None:
    """The action ``text`` (stripped, not a number) names by its exact id, if that action is
    open now: what :func:`match` would find, without weighing every other action of the node."""
    na = _node_actions(story, state.node)
    if na is None or state.ending is not None:
        return None
    hit = na.by_id.get(text)
    if hit is None or not _open(story, state, hit[0], hit[1], None)[0]:
        return None
    a = hit[0]
    choice = Choice(0, a.id, a.label, a.aliases, a)
    offer = system(story.rules).offer
    try:
        if offer is not None and choice not in offer(story, state, [choice]):
            return None  # the rules do not allow it now (a character who cannot act)
    except Exception:  # noqa: BLE001 - a failing offer allows the story's actions (available())
        pass
    return choice


def _number(text: str) -> int | None:
    """An action number as typed, folded like text (``３``, ``¹`` → 3, 1); other scripts' digits are words."""
    if len(text) > 6:
        return None
    t = unicodedata.normalize("NFKC", text)
    return int(t) if t.isascii() and t.isdigit() else None


def match(
    story: Story,
    state: State,
    command: str,
    choices: list[Choice] | None = None,
    *,
    fuzzy: bool = True,
) -> Choice | None:
    """Finds the one action a command names: its number, id, label (with or without its
    annotation), an alias, a reading, a part of one of them, or a verb and its object (see
    :mod:`runner.engine.match`). None when it names none, or several. With ``fuzzy=False``
    only whole names count (a front end deciding between an action and its own words)."""
    choice: Choice | None = resolve(story, state, command, choices, fuzzy=fuzzy).choice
    return choice


def resolve(
    story: Story,
    state: State,
    command: str,
    choices: list[Choice] | None = None,
    *,
    fuzzy: bool = True,
) -> Found:
    """Like :func:`match`, and when a command names several actions, which ones."""
    choices = available(story, state) if choices is None else choices
    text = command.strip()
    if len(text) > MAX_COMMAND:
        return Found()
    number = _number(text)
    if number is not None:
        for c in choices:
            if c.n == number:
                return Found(c, (), "number")
        return Found()
    for c in choices:
        if c.id == text:
            return Found(c, (), "id")
    return find(story, choices, text, fuzzy=fuzzy)


def step(
    story: Story,
    state: State,
    command: str | Choice,
    *,
    dice: list[int] | None = None,
    manual: bool = False,
    gm: bool = False,
    tail_events: bool = True,
) -> tuple[State, list[Event]]:
    """Runs one command. Returns the new state (the old one is untouched) and the turn's events.

    ``command`` is what the player typed, or a :class:`Choice` from :func:`available` for
    this same state (which skips matching).

    A command that cannot run returns the same state, an ``error`` event and the prompt again.
    With ``manual``, dice come only from ``dice``; when more are needed, :class:`NeedDice` is
    raised so the front end can ask the table and call again with more faces.
    """
    if state.ending is not None:
        ended: ErrorEvent = {"type": "error", "code": "ended", "message": "the game is over"}
        return _refused(story, state, gm, tail_events, ended)
    if (
        isinstance(command, str)
        and len(command) > MAX_COMMAND
        and not command.startswith(("!", "@"))
    ):
        return _refused(
            story,
            state,
            gm,
            tail_events,
            {
                "type": "error",
                "code": "too_long",
                "max": MAX_COMMAND,
                "message": f"a command is at most {MAX_COMMAND} characters",
            },
        )
    if isinstance(command, Choice):
        # A choice that available() just gave for this very state (bots, simulations).
        choices: list[Choice] = []
        choice: Choice | None = command
        command = text = command.id
        number: int | None = None
    elif command.startswith("!"):
        return _gm_command(
            story, state, command, gm=gm, tail_events=tail_events, dice=dice, manual=manual
        )
    elif command.startswith("@"):
        return _rule_command(
            story, state, command, dice=dice, manual=manual, gm=gm, tail_events=tail_events
        )
    else:
        text = command.strip()
        number = _number(text)
        choices = []
        choice = _by_id(story, state, text) if number is None else None
        if choice is None:
            # A number is read against the numbers alone: no label's {…} is worked out for it.
            choices = available(story, state, labels=number is None)
            found = resolve(story, state, text, choices)
            choice = found.choice
            if found.candidates:  # several actions answer to it: the player says which
                return state, [_ambiguous(command, found)] + (
                    tail(story, state, gm=gm) if tail_events else []
                )
    new = state.fork()
    source, seeded = _dice_for(new, dice, manual)
    ctx = Ctx(story, new, gm, source, owned=False)
    try:
        if choice is None:
            rs = system(story.rules)
            ctx.own()  # a rule system's own reading of the command may write anything
            handled = (
                rs.on_unmatched(ctx, command)
                if rs.on_unmatched is not None and command.strip()
                else False
            )
            if not handled:
                return state, [_no_match(story, state, text, number, choices)] + (
                    tail(story, state, gm=gm) if tail_events else []
                )
            if handled == "said":  # only words (a look at something): nothing changes, no turn
                return state, ctx.events + (tail(story, state, gm=gm) if tail_events else [])
        else:
            _run_action(ctx, choice.action)
        rs = system(story.rules)
        if rs.after_command is not None and new.ending is None:
            ctx.own()
            try:
                rs.after_command(ctx, command)
            except _PASSED:
                raise
            except Exception as e:  # noqa: BLE001 - the rule system's own bug: say whose
                raise HookFailure("after_command", e, rs.name) from e
        _settle(ctx)
    except _Ending:
        pass
    except NeedDice as need:
        need.events = list(ctx.events)  # shown before the table is asked (see NeedDice)
        need.state = ctx.state  # the game as of those events (a status bar shows it)
        raise
    except (EvalError, RuleError, StoryRuntimeError, RecursionError) as e:
        msg = (
            "story error: effects nest too deeply"
            if isinstance(e, RecursionError)
            else f"story error: {e}"
        )
        return _refused(
            story,
            state,
            gm,
            tail_events,
            {
                "type": "error",
                "code": "story_error",
                "data": {"detail": msg[len("story error: ") :]},
                "message": msg,
            },
        )
    new.turn += 1
    new.rng = seeded.state
    return new, ctx.events + (tail(story, new, gm=gm) if tail_events else [])


def _refused(
    story: Story, state: State, gm: bool, tail_events: bool, error: ErrorEvent
) -> tuple[State, list[Event]]:
    """A command that could not run: the same state, its error and (with ``tail_events``)
    the turn's closing events."""
    return state, [error, *tail(story, state, gm=gm)] if tail_events else [error]


def _gm_command(
    story: Story,
    state: State,
    command: str,
    *,
    gm: bool,
    tail_events: bool,
    dice: list[int] | None = None,
    manual: bool = False,
) -> tuple[State, list[Event]]:
    """``!set VAR EXPR``, ``!clock +30|HH:MM``, ``!damage WHO N [STAT]``, ``!stat WHO STAT-N``,
    ``!force KEY``, ``!give ITEM``, ``!take ITEM``, ``!goto NODE``: a game master's overrides
    (see runner/engine/gm.py). They are commands like any other, so a transcript and a replay
    keep them, and they roll the command's dice: with ``manual``, a roll they set off (a timed
    event, a damage roll) raises :class:`NeedDice` like any other."""
    from runner.engine import gm as G

    closing = tail(story, state, gm=gm) if tail_events else []

    def fail(code: str, msg: str, **data: Any) -> tuple[State, list[Event]]:
        err: ErrorEvent = {"type": "error", "code": code, "data": data, "message": msg}
        return state, [err, *closing]

    if not gm:
        return fail(
            "gm_only", "overrides (!set, !clock, ...) are for a game master: play with --gm"
        )
    words = command[1:].split()
    if not words or words[0] not in GM_COMMANDS:
        return fail("gm_usage", "GM commands: " + ", ".join("!" + c for c in GM_COMMANDS), verb="")
    verb, args = words[0], words[1:]
    new = state.copy()
    source, seeded = _dice_for(new, dice, manual)
    ctx = Ctx(story, new, gm, source)
    try:
        G.run(ctx, verb, args)
        _settle(ctx)
    except _Ending:
        pass
    except NeedDice as need:
        need.events = list(ctx.events)  # shown before the table is asked (see NeedDice)
        need.state = ctx.state  # the game as of those events (a status bar shows it)
        raise
    except DiceError:  # a face its die cannot show: the front end says so (bad_dice)
        raise
    except G.Refused as e:
        return fail(e.code, str(e), **e.data)
    except (EvalError, RuleError, StoryRuntimeError, ValueError) as e:
        return fail("gm_failed", f"!{verb}: {e}", verb=verb, detail=str(e))
    new.rng = seeded.state
    return new, ctx.events + (tail(story, new, gm=gm) if tail_events else [])


def _rule_command(
    story: Story,
    state: State,
    command: str,
    *,
    dice: list[int] | None,
    manual: bool,
    gm: bool,
    tail_events: bool,
) -> tuple[State, list[Event]]:
    """``@name args``: a rule system's own command from a front end (``@tick 5``,
    ``@time_passed 30``), not a player's action. It may end the game like any effect."""
    name, _, rest = command[1:].strip().partition(" ")
    rs = system(story.rules)
    fn = rs.meta_commands.get(name)
    if fn is None:
        known = ", ".join("@" + k for k in sorted(rs.meta_commands)) or "none"
        shown = name if len(name) <= 40 else name[:40] + "…"
        return _refused(
            story,
            state,
            gm,
            tail_events,
            {
                "type": "error",
                "code": "unknown_rule_command",
                "data": {"name": shown},
                "message": f"unknown rule command @{shown} (this story's rules have: {known})",
            },
        )
    cmd = as_command(fn)
    try:
        # One validator at the door for every rule system's commands (runner/rules/meta.py).
        values = cmd.parse(name, rest, story.language)
    except RuleError as e:
        return _refused(
            story,
            state,
            gm,
            tail_events,
            {
                "type": "error",
                "code": "bad_arguments",
                "data": {"name": name, "detail": str(e)},
                "message": f"@{name}: {e}",
            },
        )
    new = state.copy()
    source, seeded = _dice_for(new, dice, manual)
    ctx = Ctx(story, new, gm, source)
    try:
        cmd.fn(ctx, values)
        _settle(ctx)
    except _Ending:
        pass
    except NeedDice as need:
        need.events = list(ctx.events)  # shown before the table is asked (see NeedDice)
        need.state = ctx.state  # the game as of those events (a status bar shows it)
        raise
    except DiceError:  # a face its die cannot show: the front end says so (bad_dice)
        raise
    except (EvalError, RuleError, StoryRuntimeError, ValueError) as e:
        return _refused(
            story,
            state,
            gm,
            tail_events,
            {
                "type": "error",
                "code": "rule_command",
                "data": {"name": name, "detail": str(e)},
                "message": f"@{name}: {e}",
            },
        )
    new.rng = seeded.state
    return new, ctx.events + (tail(story, new, gm=gm) if tail_events else [])


def _ambiguous(command: str, found: Found) -> ErrorEvent:
    """Several listed actions answer to a command: the question, as data (front ends list
    the candidates by their numbers)."""
    cands: list[Candidate] = [{"n": c.n, "id": c.id, "label": c.label} for c in found.candidates]
    listed = " / ".join(f"{c['n']}. {c['label']}" for c in cands[:8])
    return {
        "type": "error",
        "code": "ambiguous",
        "candidates": cands,
        "message": f"{command.strip()[:80]!r} could be: {listed}"
        + (" ..." if len(cands) > 8 else ""),
    }


_KNOWN_NODES = 200
"""Visited places looked through for a "not now" answer (the latest first, in visit order)."""


def _known_closed(story: Story, state: State, choices: list[Choice]) -> list[Choice]:
    """Actions the player knows but cannot take now: ones done before that are closed now,
    and the unconditional actions of other places visited. Actions never offered stay
    unknown (naming a secret must not confirm it)."""
    open_now = {id(c.action) for c in choices}
    nodes = [state.node] + [n for n in list(state.visits)[-_KNOWN_NODES:] if n != state.node]
    out: list[Choice] = []
    for nid in nodes:
        node = story.nodes.get(nid)
        if node is None:
            continue
        for a in node.actions:
            if id(a) in open_now or a.hidden:
                continue
            if state.done.get(a.key or f"{nid}.{a.id}") or (nid != state.node and a.when is None):
                out.append(Choice(len(out) + 1, a.id, a.label, a.aliases, a))
    return out


def _no_match(
    story: Story, state: State, text: str, number: int | None, choices: list[Choice]
) -> ErrorEvent:
    """Why nothing answers to ``text`` (stripped; ``number``: its :func:`_number`)."""
    if not text:
        return {"type": "error", "message": "empty command", "code": "empty"}
    if number is not None:
        visible = [c for c in choices if c.n]
        return {
            "type": "error",
            "code": "no_such_number",
            "message": f"no action {text}: choose 1 to {len(visible)}"
            if visible
            else f"no action {text}",
        }
    closed = _known_closed(story, state, choices)
    known = find(story, closed, text, verbs=False) if closed else Found()
    if known.choice is not None or known.candidates:
        ev: ErrorEvent = {
            "type": "error",
            "code": "not_now",
            "message": f"cannot do {text[:80]!r} now",
        }
        if known.choice is not None:
            ev["label"] = _labels(story, state, [known.choice], None)[0].label  # as shown
        return ev
    cands: dict[str, str] = {}
    for c, f in forms_of(story, [c for c in choices if c.n]):
        cands[normalise(c.label)] = c.label
        for form in (*f.plain, normalise(c.id), *(normalise(al) for al in c.aliases)):
            cands.setdefault(form, c.label)
    near = suggestions(text, cands)
    ev = {
        "type": "error",
        "code": "unknown_command",
        "message": f"did not understand {text[:80]!r}",
    }
    if near:
        ev["suggestions"] = near
        ev["message"] += "; did you mean " + " / ".join(repr(s) for s in near) + "?"
    return ev


def _run_action(ctx: Ctx, a: Action) -> None:
    st = ctx.state
    key = a.key or f"{st.node}.{a.id}"
    st.done[key] = st.done.get(key, 0) + 1
    _run(ctx, a.effects)
    if a.check is not None:
        ctx.checking = a
        since = len(ctx.events)
        result = ctx.eval(a.check)
        ctx.checking = None
        _outcome(ctx, result, a.outcomes, since)
    _run(ctx, a.after)
    if a.cost:
        advance(ctx, a.cost)


def _keys(result: Any) -> list[str]:
    if result is True:
        return ["success"]
    if result is False or result is None:
        return ["failure"]
    if isinstance(result, str):
        return [result]
    if isinstance(result, (list, tuple)):
        return [str(x) for x in result]
    return [str(result)]


def _outcome(ctx: Ctx, result: Any, outcomes: Iterable[Any], since: int | None = None) -> None:
    """Runs the outcome of a check that gave ``result``; a GM's forced outcome wins, and the
    check's roll (the last one among ``ctx.events[since:]``) then carries ``forced`` so no
    screen shows a verdict that did not run."""
    keys = _keys(result)
    table = {o.key: o for o in outcomes}
    if GM_KEY in ctx.state.rules:
        ctx.own()
        forced = take_force(ctx.state.rules)
        fk = None if forced is None else forced_keys(forced, table)
        if forced is not None and fk is None:
            # This check cannot have that result: it runs as rolled, the GM's choice waits.
            set_force(ctx.state.rules, forced)
            ctx.events.append(
                {
                    "type": "override",
                    "what": "force",
                    "code": "force_kept",
                    "value": forced,
                    "data": {"value": forced, "outcomes": list(table)},
                    "message": f"GM: this check cannot be {forced}; kept for the next one",
                }
            )
        elif forced is not None and fk is not None:
            keys = fk
            marked = _mark_forced(ctx, since, forced)
            ruled = system(ctx.story.rules).ruled
            if ruled is not None:  # the rules' memory of the check follows the ruling
                ruled(ctx, forced, marked)
            ctx.events.append(
                {
                    "type": "override",
                    "what": "force",
                    "code": "forced",
                    "value": forced,
                    "data": {"value": forced},
                    "message": f"GM: outcome forced to {forced}",
                }
            )
    for k in keys:
        o = table.get(k)
        if o is not None:
            _run(ctx, o.effects)
            return
    o = table.get("otherwise")
    if o is not None:
        _run(ctx, o.effects)


def _mark_forced(ctx: Ctx, since: int | None, forced: str) -> RollEvent | None:
    """The check's roll, told that the GM ruled ``forced``: ``forced`` names the outcome that
    runs and ``rolled`` keeps what the dice said (``level`` and ``success`` become the ruling's
    where it is a rule level, so nothing reads the dice's verdict as the result)."""
    evs = ctx.events
    for i in range(len(evs) - 1, (since or 0) - 1, -1):
        ev = evs[i]
        if ev["type"] != "roll":
            continue
        marked: RollEvent = {**ev, "forced": forced}
        if "level" in ev:
            marked["rolled"] = ev["level"]
            if forced in FAILURE_LEVELS or forced in SUCCESS_LEVELS:
                if forced != "success":
                    marked["level"] = forced
                elif not ev.get("success"):
                    marked["level"] = "regular"
                marked["success"] = forced not in FAILURE_LEVELS
        if "text" in ev:  # the line the table reads names the ruling, not the dice's verdict
            lang = str(ctx.story.language or "ja")
            rt = system(ctx.story.rules).ruled_text
            text = rt(marked, forced, lang) if rt is not None else None
            if text is None:
                text = f"{ev['text']} → GM: {forced}"
            marked["text"] = text
        evs[i] = marked
        return marked
    return None


def advance(ctx: Ctx, minutes: int) -> None:
    """Moves the clock on and fires the timed events that fall due, once each, in order."""
    st = ctx.state
    if minutes <= 0:
        return
    st.clock = min(st.clock + minutes, MAX_ABS)
    for ev in ctx.story.events:
        if ev.at is None or ev.at > st.clock:
            continue
        if ev.id in st.fired and not ev.repeat:
            continue
        if ev.when is not None and not ctx.eval(ev.when):
            continue
        if ev.id not in st.fired:
            st.fired.append(ev.id)
        _run(ctx, ev.effects)


def _settle(ctx: Ctx) -> None:
    """After a command: condition events, then the move to a new node (which may chain)."""
    hops = 0
    trail: list[str] = []
    story = ctx.story
    conds = story.cache.get("_cond_events")
    if conds is None:  # (event, its compiled condition), checked after every command and move
        conds = story.cache["_cond_events"] = tuple(
            (e, _compiled(story, e.when))
            for e in story.events
            if e.at is None and e.when is not None
        )
    fired = ctx.state.fired
    while True:
        for ev, when in conds:
            if not ev.repeat and ev.id in fired:
                continue
            if when(ctx):
                if ev.id not in fired:
                    fired.append(ev.id)
                _run(ctx, ev.effects)
        if ctx.goto is None:
            return
        target, ctx.goto = ctx.goto, None
        _enter(ctx, target)
        hops += 1
        if hops > 990:
            trail.append(target)
            if hops > 1000:
                last = trail[-1]
                prev = len(trail) - 2 - trail[-2::-1].index(last) if last in trail[:-1] else 0
                loop = trail[prev:]
                raise StoryRuntimeError(
                    "more than 1000 moves in one command: a goto loop through " + " → ".join(loop)
                )


def _enter(ctx: Ctx, node_id: str) -> None:
    st = ctx.state
    if node_id in ctx.story.endings:
        _end(ctx, node_id)
    node = ctx.story.nodes[node_id]
    st.node = node_id
    st.visits[node_id] = st.visits.get(node_id, 0) + 1
    _narrate(ctx, node.narration)
    if ctx.gm:
        _narrate(ctx, node.keeper)
    _run(ctx, node.on_enter)


def _spoken(ctx: Ctx, text: str, key: str, advance: bool = True, fixed: int | None = None) -> str:
    """A story's line as shown now: its ``{…}`` worked out (runner.engine.inline)."""
    if "{" not in text and "}" not in text:
        return text
    story = ctx.story
    if ("inline", text) not in story.cache:  # keeps the parsed parts (and their ASTs) alive
        story.cache[("inline", text)] = parse_inline(text)
    return render_inline(ctx, text, key, advance=advance, fixed=fixed)


def _narrate(ctx: Ctx, lines: Iterable[Narration], advance: bool = True) -> None:
    for line in lines:
        if line.keeper and not ctx.gm:
            continue
        if line.when is not None and not ctx.eval(line.when):
            continue
        text = line.text
        if "{" in text or "}" in text:
            text = _spoken(ctx, text, line.id, advance)
        ev: NarrationEvent = {
            "type": "narration",
            "text": text,
            "speaker": line.speaker or "narrator",
            "id": line.id,
        }
        if line.speaker is not None and line.speaker != "narrator":
            ev["name"] = speaker_name(ctx, line.speaker)
        if line.keeper:
            ev["keeper"] = True
        ctx.events.append(ev)


def speaker_name(ctx: Ctx, cid: str) -> str:
    """A character's name as the player knows it now: its ``name`` once ``known_when`` holds,
    its ``unknown_name`` (「少女」) until then."""
    c = ctx.story.characters.get(cid)
    if c is None:
        return cid
    if c.known_when is None or _holds(ctx, c.known_when):
        return c.name
    return c.unknown_name or ("???" if ctx.story.language == "en" else "？？？")


def _end(ctx: Ctx, ending_id: str) -> None:
    e = ctx.story.endings[ending_id]
    _narrate(ctx, e.narration)
    ctx.state.ending = ending_id
    ctx.goto = None
    raise _Ending


def _run(ctx: Ctx, effects: tuple[Effect, ...]) -> None:
    # The commonest effects first: this runs for every effect of every command. (`type(e) is`
    # rather than `isinstance`: an isinstance that fails asks the object its __class__.)
    for e in effects:
        ctx.budget -= 1
        if ctx.budget < 0:
            raise StoryRuntimeError("more than 100,000 effects in one command (an endless loop?)")
        st = ctx.state
        if type(e) is Set:
            for name, ex in e.pairs:
                st.vars[name] = _num(ctx.eval(ex))
        elif type(e) is Goto:
            if e.target in ctx.story.endings:
                _end(ctx, e.target)
            ctx.goto = e.target
        elif type(e) is If:
            cond = e.cond
            _run(ctx, e.then if (cond is None or ctx.eval(cond)) else e.other)
        elif type(e) is Say:
            _narrate(ctx, e.lines)
        elif type(e) is RollEffect:
            r = ctx.roll(e.dice, label=e.label)
            if e.into:
                st.vars[e.into] = r.total
        elif type(e) is Add:
            for name, ex in e.pairs:
                v = ctx.eval(ex)
                old = st.vars.get(name, 0)
                try:
                    st.vars[name] = _num(old + v)
                except TypeError:
                    raise EvalError(f"cannot add {v!r} to {name} ({old!r})") from None
        elif type(e) is Do:
            for ex in e.calls:
                ctx.eval(ex)
        elif type(e) is Check:
            since = len(ctx.events)
            result = None if e.expr is None else ctx.eval(e.expr)  # (None: a story with errors)
            _outcome(ctx, result, e.outcomes, since)
        elif type(e) is Give:
            for item, n in e.counts:
                st.inventory[item] = min(st.inventory.get(item, 0) + n, MAX_ABS)
        elif type(e) is Take:
            for item, n in e.counts:
                left = st.inventory.get(item, 0) - n
                if left > 0:
                    st.inventory[item] = left
                else:
                    st.inventory.pop(item, None)
        elif type(e) is End:
            _end(ctx, e.ending)
        elif type(e) is Advance:
            v = ctx.eval(e.minutes)
            if type(v) not in (int, float):
                raise EvalError(f"advance needs minutes, not {v!r}"[:200])
            advance(ctx, int(v))
        else:  # pragma: no cover
            raise StoryRuntimeError(f"unknown effect {e!r}"[:200])


def clock_text(story: Story, minutes: int) -> str:
    start = story.clock.start if story.clock else 0
    t = start + minutes
    day, t = divmod(t, 24 * 60)
    s = f"{t // 60:02d}:{t % 60:02d}"
    return s if not day else f"{s} (+{day}d)"


def state_event(
    story: Story, state: State, *, gm: bool = False, failed: list[HookFailure] | None = None
) -> StateEvent:
    """What the player can see of the state (and, for a GM, the hidden parts). When the rule
    system's ``view`` fails, the event goes without it and the failure is added to ``failed``."""
    node = story.nodes.get(state.node)
    ev: dict[str, Any] = {
        "type": "state",
        "node": state.node,
        "title": node.title if node else "",
        "turn": state.turn,
        "clock": state.clock,
    }
    if state.ending is not None and state.ending in story.endings:
        ev["ending"] = state.ending
        ev["title"] = story.endings[state.ending].title or ev["title"]
    conditional = story.cache.get("_visible_when")
    if conditional is None:
        conditional = story.cache["_visible_when"] = any(
            v.visible_when is not None for v in story.variables.values()
        ) or (story.clock is not None and story.clock.left_visible_when is not None)
    ctx = Ctx(story, state, False, SeededDice(0)) if conditional and not gm else None
    if story.clock is not None:
        ev["time"] = clock_text(story, state.clock)
        if story.clock.limit is not None and (gm or _holds(ctx, story.clock.left_visible_when)):
            ev["time_left"] = max(0, story.clock.limit - state.clock)
    vis = {}
    for name, var in story.variables.items():
        if gm or (var.visible and _holds(ctx, var.visible_when)):
            vis[name] = state.vars.get(name)
    ev["vars"] = vis
    ev["inventory"] = {k: v for k, v in state.inventory.items()}
    if state.stats:
        ev["stats"] = {
            cid: s
            for cid, s in state.stats.items()
            if gm or (story.characters.get(cid) is None or story.characters[cid].kind == "pc")
        }
    rs = system(story.rules)
    if rs.view is not None:
        try:
            ev.update(rs.view(story, state, gm))
        except Exception as e:  # noqa: BLE001 - the rule system's own bug: the game goes on
            if failed is not None:
                failed.append(HookFailure("view", e, rs.name))
    if gm:
        ev["gm"] = {
            "pending_events": [_pending(story, e) for e in story.events if e.id not in state.fired],
            "fired": list(state.fired),
            "all_vars": dict(state.vars),
        }
    # Built as a plain dict: the rule system's view adds keys of its own.
    return cast(StateEvent, ev)


def _pending(story: Story, e: m.TimedEvent) -> PendingEvent:
    p: PendingEvent = {
        "id": e.id,
        "at": e.at,
        "time": clock_text(story, e.at) if e.at is not None else None,
    }
    if e.title:
        p["title"] = e.title
    return p


def _holds(ctx: Ctx | None, when: Any) -> bool:
    """Whether a ``visible_when`` condition lets a player see a field (no condition: yes;
    a condition that cannot be computed: no)."""
    if when is None or ctx is None:
        return True
    try:
        return bool(ctx.eval(when))
    except (EvalError, RuleError):
        return False


def tail(story: Story, state: State, *, gm: bool = False) -> list[Event]:
    """The turn's closing events: one ``state``, then one ``prompt`` or ``ending``; before
    them, an ``error`` event (code ``internal``) for each of the rule system's ``view`` and
    ``offer`` that failed (the state goes without its view, the prompt with the story's own
    actions)."""
    failed: list[HookFailure] = []
    out: list[Event] = [state_event(story, state, gm=gm, failed=failed)]
    if state.ending is not None:
        e = story.endings[state.ending]
        out.append({"type": "ending", "id": e.id, "kind": e.kind, "title": e.title})
    else:
        out.append(
            {
                "type": "prompt",
                "actions": [
                    {"id": c.id, "label": c.label, "n": c.n}
                    for c in available(story, state, failed=failed)
                    if c.n
                ],
            }
        )
    if failed:
        return [_failure_event(f) for f in failed] + out
    return out


def _failure_event(f: HookFailure) -> ErrorEvent:
    """A rule system's ``view`` or ``offer`` that failed, as one ``internal`` error."""
    what = "its view is left out" if f.hook == "view" else "the story's own actions are offered"
    return {
        "type": "error",
        "code": "internal",
        "message": f"{f}: a bug in the rule system, not the story; {what}",
        "data": {"system": f.system, "function": f.hook},
    }


def describe(story: Story, state: State, *, gm: bool = False) -> list[Event]:
    """The current place's narration again (for ``look``), without running anything."""
    node = story.nodes.get(state.node)
    if node is None:
        return []
    ctx = Ctx(story, state, gm, SeededDice(0))
    _narrate(ctx, node.narration, advance=False)
    if gm:
        _narrate(ctx, node.keeper, advance=False)
    return ctx.events
