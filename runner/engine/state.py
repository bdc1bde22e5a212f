"""The whole state of a game as plain data: copy it to undo, write it to save."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

SAVE_VERSION = 1
MIN_COMPATIBLE_VERSION = 1

MAX_NUMBER = 10**18
"""Every number in a save lies within ±MAX_NUMBER (the bound stories have too), except the
dice generator's 64-bit state and seed."""
MAX_DEPTH = 48
"""Deepest nesting a save may have (a save nests about ten levels: document, states, a
state, rules, a rule system's data, a character, its skills)."""
MAX_DIGITS = 40
"""Most digits a number in a saved document may have (±10^18 needs 19; a float, 17)."""
MAX_TEXT = 1 << 20
"""Longest string in a save (a command, a variable's text)."""
_SEED_MIN, _SEED_MAX = -(1 << 63), 1 << 64


class SaveError(ValueError):
    """A save that does not fit: another story, a newer format, or damaged data."""


class SchemaError(SaveError):
    """A value in a save that its schema does not allow; ``field`` names where it is
    (``states[3].clock``), ``str()`` says what is wrong, in English."""

    def __init__(self, field: str, problem: str, kind: str = "value") -> None:
        self.field = field
        self.problem = problem
        self.kind = kind
        """``value`` (a field of the wrong type or range), ``depth`` (nested too deep),
        ``digits`` (a number too long to read) or ``number`` (NaN, an infinity)."""
        super().__init__(f"the save is damaged ({field}: {problem})")


# -- bounded JSON --------------------------------------------------------------

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")
_LONG_NUMBER = re.compile(r"\d{%d,}" % (MAX_DIGITS + 1))


def _no_constant(name: str) -> Any:
    raise SchemaError(name, "not a number a save may hold", "number")


def _finite(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise SchemaError(text[:20], "too large a number", "number")
    return x


def parse_json(text: str, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for data from outside, bounded before the parser recurses.

    Nesting deeper than ``max_depth``, a number longer than ``MAX_DIGITS`` digits, NaN and
    infinities raise ``SaveError`` (one line); so does text that is not JSON. The depth is
    measured on the text without its strings, one level per pass, so a 100,000-deep
    document costs ``max_depth`` passes of a regular expression, never a recursion."""
    skeleton = _STRINGS.sub('""', text)
    m = _LONG_NUMBER.search(skeleton)
    if m:
        raise SchemaError(
            m.group()[:12] + "…", f"a number of more than {MAX_DIGITS} digits", "digits"
        )
    brackets = _NOT_BRACKET.sub("", skeleton)
    for _ in range(max_depth):
        if not brackets:
            break
        shorter = _PAIR.sub("", brackets)
        if shorter == brackets:
            raise SaveError("not JSON (brackets do not match)")
        brackets = shorter
    if brackets:
        raise SchemaError("(document)", f"nested deeper than {max_depth} levels", "depth")
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as e:
        raise SaveError(f"not JSON (line {e.lineno}, column {e.colno})") from None
    except RecursionError:  # pragma: no cover - the bound above comes first
        raise SchemaError("(document)", f"nested deeper than {max_depth} levels", "depth") from None


def check_json(
    value: Any,
    where: str,
    *,
    lo: int = -MAX_NUMBER,
    hi: int = MAX_NUMBER,
    max_depth: int = MAX_DEPTH,
) -> None:
    """Raises ``SaveError`` unless ``value`` is plain JSON data (dict with text keys, list,
    text, bool, None, numbers) with every number finite and within [lo, hi], no string longer
    than ``MAX_TEXT`` and no nesting deeper than ``max_depth``. Walks without recursion."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        v, at, depth = stack.pop()
        t = type(v)
        if v is None or t is bool:
            continue
        if t is int:
            if not lo <= v <= hi:
                raise SchemaError(at, "the number is out of range")
        elif t is float:
            if not (math.isfinite(v) and lo <= v <= hi):
                raise SchemaError(at, "the number is out of range")
        elif t is str:
            if len(v) > MAX_TEXT:
                raise SchemaError(at, "the text is too long")
        elif t is dict or t is list:
            if depth >= max_depth:
                raise SchemaError(at, "nested too deep", "depth")
            if t is dict:
                for k, x in v.items():
                    if type(k) is not str:
                        raise SchemaError(at, "a key is not text")
                    stack.append((x, f"{at}.{k}"[:200], depth + 1))
            else:
                stack.extend((x, f"{at}[{i}]"[:200], depth + 1) for i, x in enumerate(v))
        else:
            raise SchemaError(at, f"{t.__name__} is not JSON data")


def check_int(v: Any, field: str, lo: int = -MAX_NUMBER, hi: int = MAX_NUMBER) -> int:
    """``v`` if it is a whole number (not a bool) in [lo, hi], else ``SchemaError``."""
    if type(v) is not int:
        raise SchemaError(field, "must be a whole number")
    if not lo <= v <= hi:
        raise SchemaError(field, "the number is out of range")
    return v


def check_text(v: Any, field: str, limit: int = 1000) -> str:
    """``v`` if it is text of at most ``limit`` characters, else ``SchemaError``."""
    if type(v) is not str:
        raise SchemaError(field, "must be text")
    if len(v) > limit:
        raise SchemaError(field, "the text is too long")
    return v


def _table(d: dict[str, Any], key: str, where: str, lo: int = -MAX_NUMBER) -> None:
    v = d.get(key)
    if type(v) is not dict:
        raise SchemaError(f"{where}{key}", "must be a table")
    for k, n in v.items():
        check_int(n, f"{where}{key}.{k[:40]}", lo)


def check_state(d: Any, where: str = "") -> None:
    """The schema of a saved State (``State.to_dict()``): every field of the right type and
    range, character sheets and rule data as tables of plain JSON. ``SaveError`` (one line)
    names the first field that is wrong; ``where`` prefixes it (``states[3].``)."""
    if type(d) is not dict:
        raise SchemaError(where.rstrip(".") or "state", "must be a JSON object")
    version = d.get("version")
    if type(version) is not int:
        raise SaveError("this is not a Katari save (no version)")
    if version > SAVE_VERSION:
        raise SaveError(
            f"save format {version} is newer than this Katari understands ({SAVE_VERSION}); upgrade Katari"
        )
    if version < MIN_COMPATIBLE_VERSION:
        raise SaveError(f"save format {version} is too old to load")
    check_text(d.get("story"), f"{where}story")
    check_text(d.get("node"), f"{where}node")
    if d.get("ending") is not None:
        check_text(d["ending"], f"{where}ending")
    _table(d, "inventory", where)
    _table(d, "visits", where, 0)
    _table(d, "done", where, 0)
    if "shown" in d:
        _table(d, "shown", where, 0)
    check_int(d.get("clock"), f"{where}clock")
    check_int(d.get("turn", 0), f"{where}turn", 0)
    check_int(d.get("rng"), f"{where}rng", 0, _SEED_MAX - 1)
    check_int(d.get("seed", 0), f"{where}seed", _SEED_MIN, _SEED_MAX - 1)
    fired = d.get("fired")
    if type(fired) is not list:
        raise SchemaError(f"{where}fired", "must be a list of names")
    for i, x in enumerate(fired):
        check_text(x, f"{where}fired[{i}]")
    rules = d.get("rules")
    if type(rules) is dict and type(rules.get("_gm_force")) is str:
        # Written by earlier versions for a GM's pending 強制/force, then refused on load:
        # read as what it meant (the GM's table, runner.engine.gm.GM_KEY).
        rules["_gm"] = {"force": rules.pop("_gm_force")}
    for key in ("vars", "stats", "rules"):
        v = d.get(key)
        if type(v) is not dict:
            raise SchemaError(f"{where}{key}", "must be a table")
        if key != "vars":  # character sheets and rule systems' data: tables by name
            for k, x in v.items():
                if type(x) is not dict:
                    raise SchemaError(f"{where}{key}.{k[:40]}", "must be a table")
        check_json(v, f"{where}{key}")


def _copy(v: Any) -> Any:
    """Copies plain JSON-like data (several times faster than ``copy.deepcopy``).

    Each container is copied whole in C, then only its nested containers are visited: a
    character sheet is mostly flat numbers, and the state is copied on every command."""
    t = type(v)
    if t is dict:
        out = v.copy()
        for k, x in v.items():
            tx = type(x)
            if tx is dict or tx is list:
                out[k] = _copy(x)
        return out
    if t is list:
        out_l = v.copy()
        for i, x in enumerate(v):
            tx = type(x)
            if tx is dict or tx is list:
                out_l[i] = _copy(x)
        return out_l
    return v


@dataclass(slots=True)
class State:
    story: str
    """The story's id."""
    node: str
    vars: dict[str, Any] = field(default_factory=dict)
    inventory: dict[str, int] = field(default_factory=dict)
    visits: dict[str, int] = field(default_factory=dict)
    done: dict[str, int] = field(default_factory=dict)
    """Times each action ran, keyed ``"node.action"``."""
    clock: int = 0
    """Minutes since the story's clock started."""
    fired: list[str] = field(default_factory=list)
    stats: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, Any] = field(default_factory=dict)
    """The rule system's own data, under its name: ``rules[NAME]``."""
    rng: int = 0
    """The dice generator's whole state."""
    seed: int = 0
    turn: int = 0
    ending: str | None = None
    shown: dict[str, int] = field(default_factory=dict)
    """Times each inline variation was shown (``{~a|b}``), keyed ``"<line id>#<n>"``."""

    def copy(self) -> State:
        """A fully independent copy (undo history, saves)."""
        new = self.fork()
        new.stats = _copy(self.stats) if self.stats else {}
        new.rules = _copy(self.rules) if self.rules else {}
        return new

    def fork(self) -> State:
        """A working copy for one command that still shares ``stats`` and ``rules`` with this
        state: the engine copies them before anything may write to them (``Ctx.own``).
        Character sheets are the bulk of a state, and most commands only read them."""
        return State(
            self.story,
            self.node,
            dict(self.vars),
            dict(self.inventory),
            dict(self.visits),
            dict(self.done),
            self.clock,
            list(self.fired),
            self.stats,
            self.rules,
            self.rng,
            self.seed,
            self.turn,
            self.ending,
            dict(self.shown) if self.shown else {},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": SAVE_VERSION,
            "story": self.story,
            "node": self.node,
            "vars": _copy(self.vars),
            "inventory": dict(self.inventory),
            "visits": dict(self.visits),
            "done": dict(self.done),
            "clock": self.clock,
            "fired": list(self.fired),
            "stats": _copy(self.stats),
            "rules": _copy(self.rules),
            "rng": self.rng,
            "seed": self.seed,
            "turn": self.turn,
            "ending": self.ending,
            **({"shown": dict(self.shown)} if self.shown else {}),
        }

    @classmethod
    def from_dict(cls, d: Any, *, story: Any = None, checked: bool = False) -> State:
        """Reads a saved state (after ``check_state``, unless the caller has ``checked`` it);
        with ``story``, checks that the save belongs to it."""
        if not checked:
            check_state(d)
        st = cls(
            story=d["story"],
            node=d["node"],
            vars=_copy(d["vars"]),
            inventory=dict(d["inventory"]),
            visits=dict(d["visits"]),
            done=dict(d["done"]),
            clock=d["clock"],
            fired=list(d["fired"]),
            stats=_copy(d["stats"]),
            rules=_copy(d["rules"]),
            rng=d["rng"],
            seed=d.get("seed", 0),
            turn=d.get("turn", 0),
            ending=d.get("ending"),
            shown=dict(d.get("shown") or {}),
        )
        if story is not None:
            if st.story != story.id:
                raise SaveError(f"this save is for the story {st.story!r}, not {story.id!r}")
            if st.node not in story.nodes and st.ending is None:
                raise SaveError(
                    f"the save stands at {st.node!r}, which this story no longer has; "
                    "has the story changed since the save was made?"
                )
            missing = [v for v in story.variables if v not in st.vars]
            for v in missing:  # a story that grew a variable keeps old saves playable
                st.vars[v] = story.variables[v].value
        return st
