"""YAML → :class:`Story`, with every problem reported as ``path:line:col: message``."""

from __future__ import annotations

import gc
import inspect
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from runner.story import expr as X
from runner.story.bounds import MAX_NUMBER, MAX_YAML_DEPTH, number_problem, short
from runner.story.diagnostics import Diagnostic, StoryError
from runner.story.model import (
    Action,
    Character,
    Clock,
    Ending,
    Item,
    Narration,
    Node,
    Outcome,
    Story,
    TimedEvent,
    Variable,
)
from runner.story.source import (
    MAX_FILE_BYTES,
    MAX_FILES,
    MAX_STORY_BYTES,
    SourceError,
    decode,
    read_bytes,
    story_files,
    story_root,
)
from runner.story.yamlpos import Map, Refused, Seq, load_fast
from runner.story.yamlpos import load as yaml_load

NODE_KINDS = ("place", "check", "combat", "scene")
ENDING_KINDS = ("good", "normal", "bad", "death", "extra", "neutral", "partial", "failure")
TOP_KEYS = {"story", "clock", "variables", "items", "characters", "nodes", "endings",
            "events", "readings", "voices", "migrations"}
STORY_KEYS = {"id", "title", "language", "rules", "start", "credits", "licence", "license",
              "author", "description", "options", "version", "length"}
NODE_KEYS = {"kind", "title", "scene", "narration", "keeper", "on_enter", "actions", "props"}
ACTION_KEYS = {"id", "label", "aliases", "when", "once", "cost", "check", "outcomes",
               "effects", "say", "goto", "end", "hidden", "keeper"}
EFFECT_KEYS = {"set", "add", "give", "take", "goto", "end", "say", "keeper", "do", "if",
               "roll", "check", "advance"}
EFFECT_COMPANIONS = {"if": {"then", "else"}, "check": {"outcomes"}}
ID_RE = re.compile(r"^[^\W\d][\w\-]*$")
_TIME = re.compile(r"^\s*(?:([0-9]{1,19})\s*h(?:ours?)?)?\s*(?:([0-9]{1,19})\s*m(?:in(?:utes?)?)?)?\s*$")
_CLOCK = re.compile(r"^\s*([0-9]{1,2}):([0-9]{2})\s*$")


class _Checker:
    def __init__(self, hooks: Callable[[str, str], Any] | None) -> None:
        self.diags: list[Diagnostic] = []
        self.file = ""
        self.find_hook = hooks
        self.rules = "none"
        self.variables: set[str] = set()
        self.items: set[str] = set()
        self.nodes: set[str] = set()
        self.endings: set[str] = set()
        self.refs: list[tuple[str, str, str, tuple[int, int], str]] = []
        """(kind, target, file, pos, from_node) for goto/end/give references."""
        self.exprs: list[tuple[X.Node, str, tuple[int, int], bool]] = []
        self.edges: dict[str, set[str]] = {}
        self.global_edges: set[str] = set()
        self.cur_node = ""
        self.fast = False
        """Loading without positions: skip the work that only serves error messages."""
        self._seen_exprs: set[tuple[int, bool]] = set()
        self.texts: dict[str, list[str]] = {}
        """Each file's lines (careful pass only), to place columns inside values."""
        self.speakers: dict[str, str] | None = None
        """Who may speak: each character's id and name -> its id (None: not checked)."""

    # -- diagnostics -------------------------------------------------------
    def err(self, pos: tuple[int, int] | None, msg: str, code: str = "K000",
            file: str | None = None, severity: str = "error") -> None:
        line, col = pos or (1, 1)
        self.diags.append(Diagnostic(file or self.file, line, col, msg, code, severity))

    @staticmethod
    def kpos(m: Any, key: Any) -> tuple[int, int] | None:
        return m.kpos.get(key) if isinstance(m, Map) else None

    @staticmethod
    def vpos(m: Any, key: Any) -> tuple[int, int] | None:
        return m.vpos.get(key) if isinstance(m, Map) else None

    @staticmethod
    def ipos(s: Any, i: int) -> tuple[int, int] | None:
        return s.ipos[i] if isinstance(s, Seq) and i < len(s.ipos) else None

    def unknown_keys(self, m: Map, allowed: set[str], where: str) -> None:
        for k in m:
            if k not in allowed:
                near = _closest(str(k), allowed)
                hint = f" (did you mean {near!r}?)" if near else ""
                self.err(self.kpos(m, k), f"unknown key {k!r} in {where}{hint}", "K002")

    def want_map(self, v: Any, pos: tuple[int, int] | None, what: str) -> bool:
        if not isinstance(v, dict):
            self.err(pos, f"{what} must be a mapping, not {_kind(v)}", "K001")
            return False
        return True

    def want_str(self, v: Any, pos: tuple[int, int] | None, what: str) -> str:
        if isinstance(v, bool) or v is None or isinstance(v, (dict, list)):
            self.err(pos, f"{what} must be text, not {_kind(v)}", "K001")
            return ""
        return str(v)

    # -- free-form data ----------------------------------------------------
    def plain(self, v: Any, pos: tuple[int, int] | None, depth: int = 0) -> Any:
        """Free-form data (props, stats, options, a rule system's section) as plain dicts and
        lists, each number checked where it enters: what rules and the state may hold.

        A number out of range is reported and read as 0, so the rule system's own checks
        that follow see only numbers they can use."""
        t = type(v)
        if t is str or t is bool or v is None:
            return v
        if t is int or t is float:
            bad = number_problem(v)
            if bad is None:
                return v
            self.err(pos, bad, "K010")
            return 0
        if isinstance(v, (dict, list)) and depth >= MAX_YAML_DEPTH:
            self.err(pos, f"lists and mappings nested more than {MAX_YAML_DEPTH} levels deep", "K001")
            return {} if isinstance(v, dict) else []
        if isinstance(v, dict):
            out = {}
            vpos = self.vpos
            for k, x in v.items():
                if not (k is None or type(k) in (str, int, float, bool)):
                    k = str(k)
                out[k] = self.plain(x, vpos(v, k) or pos, depth + 1)
            return out
        if isinstance(v, list):
            ipos = self.ipos
            return [self.plain(x, ipos(v, i) or pos, depth + 1) for i, x in enumerate(v)]
        self.err(pos, f"{_kind(v)} is not a value a story can hold (text, a number, true/false, "
                      "null, a list or a mapping)", "K001")
        return None

    # -- expressions -------------------------------------------------------
    def expr(self, src: Any, pos: tuple[int, int] | None, *, condition: bool = False) -> X.Node | None:
        if isinstance(src, (bool, int, float)) or src is None:
            bad = number_problem(src)
            if bad is not None:
                self.err(pos, bad, "K010")
                return None
            return ("lit", src)
        if not isinstance(src, str):
            self.err(pos, f"expected an expression, not {_kind(src)}", "K010")
            return None
        try:
            node = X.parse(src)
        except X.ExprError as e:
            line, col = pos or (1, 1)
            off = self.expr_col(pos) + e.col
            self.err((line, off if "\n" not in src else col), f"bad expression {_short(src)}: {e}", "K010")
            return None
        if self.fast:
            key = (id(node), condition)
            if key in self._seen_exprs:
                return node
            self._seen_exprs.add(key)
        self.exprs.append((node, self.file, pos or (1, 1), condition))
        return node

    def expr_col(self, pos: tuple[int, int] | None, file: str | None = None) -> int:
        """The column of an expression's first character: one past the quote of a quoted value."""
        if pos is None:
            return 1
        line, col = pos
        lines = self.texts.get(file or self.file)
        if lines is not None and 0 < line <= len(lines):
            text = lines[line - 1]
            if 0 < col <= len(text) and text[col - 1] in "'\"":
                return col + 1
        return col

    def check_expr_names(self) -> None:
        for node, file, pos, condition in self.exprs:
            vs, cs = X.names(node)
            start = self.expr_col(pos, file)
            for name, col in sorted(vs):
                if name not in self.variables:
                    near = _closest(name, self.variables)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    self.err((pos[0], start + col), f"unknown variable {name!r}{hint}", "K011", file)
            for name, argc, col in sorted(cs):
                self.check_call(name, argc, (pos[0], start + col), file, condition)

    def check_call(self, name: str, argc: int, pos: tuple[int, int], file: str, condition: bool) -> None:
        if self.find_hook is None:
            return
        prefix = name.split(".")[0] if "." in name else "core"
        if "." in name and prefix not in (self.rules, "core"):
            if _is_rules(prefix):
                self.err(pos, f"{name!r} belongs to the {prefix} rules, but this story uses "
                              f"rules: {self.rules}", "K012", file)
            else:
                self.err(pos, f"unknown function {name!r}", "K012", file)
            return
        hook = self.find_hook(name, self.rules)
        if hook is None:
            self.err(pos, f"unknown function {name!r}{_hook_hint(name, self.rules)}", "K012", file)
            return
        if condition and not hook.pure:
            self.err(pos, f"{name!r} changes the game and cannot be used in a condition", "K013", file)
        try:
            sig = inspect.signature(hook.fn)
            params = list(sig.parameters.values())[1:]
            if not any(p.kind == p.VAR_POSITIONAL for p in params):
                most = len(params)
                least = sum(1 for p in params if p.default is p.empty and p.kind != p.KEYWORD_ONLY)
                if not least <= argc <= most:
                    want = f"{least}" if least == most else f"{least} to {most}"
                    self.err(pos, f"{name}() takes {want} argument(s), got {argc}", "K014", file)
        except (TypeError, ValueError):
            pass

    # -- narration ---------------------------------------------------------
    def narration(self, v: Any, pos: tuple[int, int] | None, base: str, *, keeper: bool = False) -> tuple[Narration, ...]:
        if v is None:
            return ()
        items = v if isinstance(v, list) else [v]
        out = []
        for i, it in enumerate(items):
            ipos = self.ipos(v, i) if isinstance(v, list) else pos
            nid = f"{base}.{i + 1}"
            if isinstance(it, str):
                out.append(Narration(nid, _tidy(it), None, None, keeper))
            elif isinstance(it, dict):
                self.unknown_keys(it, {"id", "text", "when", "speaker"}, "a narration line")
                if "text" not in it:
                    self.err(ipos, "a narration line needs 'text'", "K003")
                    continue
                text = self.want_str(it["text"], self.vpos(it, "text"), "narration text")
                when = self.expr(it["when"], self.vpos(it, "when"), condition=True) if "when" in it else None
                if "id" in it:
                    nid = self.want_str(it["id"], self.vpos(it, "id"), "a narration id")
                spk = self.speaker(it.get("speaker"), self.vpos(it, "speaker") or ipos) if "speaker" in it else None
                out.append(Narration(nid, _tidy(text), when, spk, keeper))
            else:
                self.err(ipos, f"a narration line must be text or a mapping, not {_kind(it)}", "K001")
        return tuple(out)

    def speaker(self, who: Any, pos: tuple[int, int] | None, voices: bool = False) -> str | None:
        """A line's speaker (or a ``voices`` key): ``narrator`` or a character, by id or name,
        as the character's id."""
        if not who:
            return None
        who = str(who)
        if who == "narrator" or self.speakers is None:
            return who
        cid = self.speakers.get(who)
        if cid is None:
            near = _closest(who, self.speakers)
            hint = f" (did you mean {near!r}?)" if near else ""
            if voices:
                self.err(pos, f"voices: {who!r} is not a character of this story{hint}: 'voices' gives "
                              "'narrator' or a character a voice profile (tentacle: monster)", "K008")
            else:
                self.err(pos, f"speaker {who!r} is not a character of this story{hint}: a speaker is "
                              "'narrator' or a character's id or name (declare it under 'characters')", "K008")
            return who
        return cid

    # -- effects -----------------------------------------------------------
    def effects(self, v: Any, pos: tuple[int, int] | None, base: str) -> tuple[tuple, ...]:
        if v is None:
            return ()
        if isinstance(v, dict):
            v_list: Any = Seq()
            v_list.append(v)
            v_list.ipos.append(pos or (1, 1))
            v = v_list
        if not isinstance(v, list):
            self.err(pos, f"effects must be a list, not {_kind(v)}", "K001")
            return ()
        out: list[tuple] = []
        fast = self.fast
        for i, eff in enumerate(v):
            if fast and type(eff) is dict and len(eff) == 1:
                # The common case on a correct story: one known key, no positions to find.
                key = next(iter(eff))
                if key in EFFECT_KEYS and key not in EFFECT_COMPANIONS:
                    e = self.effect(key, eff[key], None, eff, f"{base}.{i + 1}")
                    if e is not None:
                        out.append(e)
                    continue
            epos = self.ipos(v, i) or pos
            if isinstance(eff, str) and eff in ("end", "stop"):
                self.err(epos, f"effect {eff!r} needs a target", "K020")
                continue
            if not isinstance(eff, dict) or not eff:
                self.err(epos, f"an effect must be a one-key mapping such as {{goto: room}}, not {_kind(eff)}", "K020")
                continue
            keys = [k for k in eff if k in EFFECT_KEYS]
            if len(keys) != 1:
                if not keys:
                    k0 = next(iter(eff))
                    near = _closest(str(k0), EFFECT_KEYS)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    self.err(self.kpos(eff, k0), f"unknown effect {k0!r}{hint}", "K020")
                else:
                    self.err(epos, f"one effect per list item, found {', '.join(keys)}", "K020")
                continue
            key = keys[0]
            allowed = {key} | EFFECT_COMPANIONS.get(key, set())
            self.unknown_keys(eff, allowed, f"a {key!r} effect")
            val = eff[key]
            vp = self.vpos(eff, key) or epos
            e = self.effect(key, val, vp, eff, f"{base}.{i + 1}")
            if e is not None:
                out.append(e)
        return tuple(out)

    def effect(self, key: str, val: Any, vp: tuple[int, int] | None, eff: Map, base: str) -> tuple | None:
        if key in ("set", "add"):
            if not isinstance(val, dict):
                self.want_map(val, vp, f"{key!r}")
                return None
            pairs = []
            variables = self.variables
            vpos = _no_pos if self.fast else self.vpos
            for name, value in val.items():
                if name not in variables:
                    near = _closest(str(name), variables)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    self.err(self.kpos(val, name), f"unknown variable {name!r}{hint}", "K011")
                ex = self.expr(value, vpos(val, name))
                if ex is not None:
                    pairs.append((str(name), ex))
            return (key, tuple(pairs))
        if key in ("give", "take"):
            counts: list[tuple[str, int]] = []
            if isinstance(val, str):
                counts = [(val, 1)]
            elif isinstance(val, list):
                counts = [(str(x), 1) for x in val]
            elif isinstance(val, dict):
                for k, n in val.items():
                    if type(n) is not int or not 1 <= n <= MAX_NUMBER:
                        self.err(self.vpos(val, k) or vp, f"{key} {k!r}: the count must be a whole number "
                                                          f"from 1 to 10^18, not {short(n)}", "K001")
                        n = 1
                    counts.append((str(k), n))
            else:
                self.err(vp, f"{key!r} takes an item id, a list or {{item: count}}", "K001")
            for item, _n in counts:
                self.refs.append(("item", item, self.file, vp or (1, 1), self.cur_node))
            return (key, tuple(counts))
        if key == "goto":
            t = val if type(val) is str else self.want_str(val, vp, "goto")
            self.refs.append(("goto", t, self.file, vp or (1, 1), self.cur_node))
            return ("goto", t)
        if key == "end":
            t = val if type(val) is str else self.want_str(val, vp, "end")
            self.refs.append(("end", t, self.file, vp or (1, 1), self.cur_node))
            return ("end", t)
        if key in ("say", "keeper"):
            lines = self.narration(val, vp, base, keeper=key == "keeper")
            return ("say", lines)
        if key == "do":
            calls = val if isinstance(val, list) else [val]
            exs = []
            for j, c in enumerate(calls):
                ex = self.expr(c, self.ipos(val, j) if isinstance(val, list) else vp)
                if ex is not None:
                    exs.append(ex)
            return ("do", tuple(exs))
        if key == "if":
            cond = self.expr(val, vp, condition=False)
            then = self.effects(eff.get("then"), self.vpos(eff, "then"), base + ".then")
            other = self.effects(eff.get("else"), self.vpos(eff, "else"), base + ".else")
            if "then" not in eff and "else" not in eff:
                self.err(vp, "'if' needs 'then' or 'else'", "K021")
            return ("if", cond, then, other)
        if key == "roll":
            if isinstance(val, str):
                val = {"dice": val}
            if not self.want_map(val, vp, "'roll'"):
                return None
            self.unknown_keys(val, {"dice", "into", "label"}, "a 'roll' effect")
            dice = str(val.get("dice", ""))
            try:
                from runner.rules.dice import DiceError
                from runner.rules.dice import parse as dparse
                dparse(dice)
            except DiceError as e:
                self.err(self.vpos(val, "dice") or vp, str(e), "K022")
            into = val.get("into")
            if into is not None and into not in self.variables:
                self.err(self.vpos(val, "into"), f"unknown variable {into!r}", "K011")
            return ("roll", dice, into, str(val.get("label", "")))
        if key == "check":
            ex = self.expr(val, vp)
            outs = self.outcomes(eff.get("outcomes"), self.vpos(eff, "outcomes") or vp, base)
            if "outcomes" not in eff:
                self.err(vp, "'check' needs 'outcomes'", "K021")
            return ("check", ex, outs)
        if key == "advance":
            minutes = _minutes(val)
            if minutes is None:
                if isinstance(val, str) and not _BIG.search(val) or isinstance(val, float) and abs(val) <= MAX_NUMBER:
                    ex = self.expr(val, vp)
                    if ex is None or ex[0] != "lit" or type(ex[1]) in (int, float):
                        return ("advance", ex)
                self.err(vp, _duration_problem("advance", val, 'minutes ("30", "1h30m") or an expression that '
                                                               "gives minutes"), "K007")
                return None
            return ("advance", ("lit", minutes))
        return None  # pragma: no cover

    def outcomes(self, v: Any, pos: tuple[int, int] | None, base: str) -> tuple[Outcome, ...]:
        if v is None:
            return ()
        if not self.want_map(v, pos, "outcomes"):
            return ()
        out = []
        for key, body in v.items():
            bpos = self.vpos(v, key)
            ob = f"{base}.{key}"
            if isinstance(body, list):
                effs = self.effects(body, bpos, ob)
            elif isinstance(body, dict):
                self.unknown_keys(body, {"say", "keeper", "effects", "goto", "end"}, f"outcome {key!r}")
                effs = self.effects(body.get("effects"), self.vpos(body, "effects"), ob)
                effs = self.folded(body, ob) + effs + self.tail(body)
            elif isinstance(body, str):
                effs = (("say", self.narration(body, bpos, ob)),)
            else:
                self.err(bpos, f"outcome {key!r} must be a mapping or a list of effects", "K001")
                continue
            out.append(Outcome(str(key), effs))
        return tuple(out)

    def folded(self, m: Map, base: str) -> tuple[tuple, ...]:
        """``say``/``keeper`` written directly on an action or outcome."""
        out: list[tuple] = []
        if "say" in m:
            out.append(("say", self.narration(m["say"], self.vpos(m, "say"), base + ".say")))
        if "keeper" in m:
            out.append(("say", self.narration(m["keeper"], self.vpos(m, "keeper"), base + ".keeper", keeper=True)))
        return tuple(out)

    def tail(self, m: Map) -> tuple[tuple, ...]:
        out: list[tuple] = []
        for key in ("goto", "end"):
            if key in m:
                e = self.effect(key, m[key], self.vpos(m, key), m, "")
                if e:
                    out.append(e)
        return tuple(out)


_CJK = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60"
_FOLD_SPACE = re.compile(f"(?<=[{_CJK}]) (?=[{_CJK}])")


def _tidy(text: str) -> str:
    """Narration as written: YAML's folded lines (``>``) join with a space, which Japanese
    does not use, so a single space between two Japanese characters is a fold and goes."""
    text = text.strip("\n")
    return _FOLD_SPACE.sub("", text) if " " in text else text


def _is_rules(name: str) -> bool:
    """Whether ``name`` is an installed rule system (runner.rules' registry)."""
    from runner.rules import is_system

    return is_system(name)


def _rules_problem(rules: str) -> str:
    """Why ``rules: RULES`` cannot be used ("" when it can): not installed, or broken."""
    from runner.rules import BrokenRules, names, system

    known = names()
    if rules not in known:
        if not known:
            return (f"unknown rule system {rules!r}: no rule system is installed (the "
                    "katari.rules entry points are missing; reinstall Katari: pip install -e .)")
        near = _closest(rules, known)
        hint = f" (did you mean {near!r}?)" if near else ""
        return f"unknown rule system {short(rules, 40)}{hint}; one of: {', '.join(known)}"
    try:
        system(rules)
    except BrokenRules as e:
        return str(e)
    return ""


def _hook_hint(name: str, rules: str) -> str:
    """" (did you mean 'NAME.check'?)" for a misspelt hook, from the hooks the story may call."""
    from runner.rules import system

    names = [h for h in system("core").hooks]
    if rules != "none":
        names += [f"{rules}.{h}" for h in system(rules).hooks]
    near = _closest(name, names)
    return f" (did you mean {near!r}?)" if near else ""


def _kind(v: Any) -> str:
    if v is None:
        return "nothing"
    return {dict: "a mapping", Map: "a mapping", list: "a list", Seq: "a list", str: "text",
            bool: "true/false", int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def _short(s: str) -> str:
    s = s.replace("\n", " ")
    return repr(s if len(s) <= 40 else s[:37] + "...")


def _closest(word: str, options: Any) -> str | None:
    import difflib

    hits = difflib.get_close_matches(word, [str(o) for o in options], n=1, cutoff=0.75)
    return hits[0] if hits else None


def _minutes(v: Any) -> int | None:
    """Reads a duration: 30, "30m", "1h", "1h30m", "1:30". None if it is not one, or if it
    is beyond ±10^18 minutes (see :func:`_duration_problem` for why)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v if -MAX_NUMBER <= v <= MAX_NUMBER else None
    if isinstance(v, float) and v.is_integer():
        return int(v) if abs(v) <= MAX_NUMBER else None
    if isinstance(v, str):
        if _DIGITS.match(v):
            n = int(v)
            return n if n <= MAX_NUMBER else None
        m = _CLOCK.match(v)
        if m:
            hh, mm = int(m.group(1)), int(m.group(2))
            return hh * 60 + mm if hh < 24 and mm < 60 else None
        m = _TIME.match(v)
        if m and (m.group(1) or m.group(2)):
            n = int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
            return n if n <= MAX_NUMBER else None
    return None


_DIGITS = re.compile(r"^\s*[0-9]{1,19}\s*$")
_BIG = re.compile(r"[0-9]{19}")


def _duration_problem(what: str, v: Any, example: str) -> str:
    """The message for a duration :func:`_minutes` could not read."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) or isinstance(v, str) and _BIG.search(v):
        return f"{what} {short(v)} is out of range (at most 10^18 minutes)"
    return f"{what} {short(v)}: {example}"


class _Retry(Exception):
    """The fast loader met something it cannot place: load again with positions."""


def _read_files(files: list[Path], chk: _Checker, fast: bool = False,
                root: Path | None = None) -> list[tuple[str, Any]]:
    docs = []
    total = 0
    for f in files:
        name = str(f)
        chk.file = name
        try:
            raw = read_bytes(f, root, limit=min(MAX_FILE_BYTES, MAX_STORY_BYTES - total))
            total += len(raw)
            text = decode(raw)
        except SourceError as e:
            if "larger than" in e.message and total:
                e = SourceError(f"the story's files are larger than {MAX_STORY_BYTES // (1024 * 1024)} MB in all")
            chk.err(e.pos, e.message, "K100")
            continue
        if fast:
            try:
                data = load_fast(text)
            except Exception:  # noqa: BLE001 - any trouble: the careful loader explains it
                raise _Retry from None
            if data is not None and not isinstance(data, dict):
                raise _Retry
            if data is not None:
                docs.append((name, data))
            continue
        chk.texts[name] = text.splitlines()
        try:
            data, dups = yaml_load(text)
        except yaml.MarkedYAMLError as e:
            mark = e.problem_mark or e.context_mark
            pos = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            msg = f"YAML syntax: {e.problem or e.context}" if not isinstance(e, Refused) else str(e.problem)
            if e.context and e.context_mark and e.problem_mark and e.context_mark.line != e.problem_mark.line:
                # The real mistake is often where the unfinished thing began (a quote, a bracket).
                msg += f" ({e.context} that started at line {e.context_mark.line + 1}, column {e.context_mark.column + 1})"
            if "mapping values are not allowed" in msg:
                msg += "; check the indentation, or quote a value that contains ': '"
            chk.err(pos, msg, "K101")
            continue
        except yaml.YAMLError as e:
            chk.err(None, f"YAML: {e}", "K101")
            continue
        except RecursionError:
            chk.err(None, "YAML is nested too deeply", "K101")
            continue
        for key, pos in dups:
            chk.err(pos, f"duplicate key {key!r}", "K004")
        if data is None:
            continue
        if not isinstance(data, dict):
            chk.err((1, 1), f"a story file must be a mapping of sections, not {_kind(data)}", "K001")
            continue
        docs.append((name, data))
    return docs


def load(path: str | os.PathLike[str], *, check_hooks: bool = True) -> Story:
    """Loads and validates a story file or folder; raises :class:`StoryError` listing every problem."""
    story, diags = _load(path, check_hooks=check_hooks)
    errors = [d for d in diags if d.severity == "error"]
    if errors or story is None:
        raise StoryError(errors or diags)
    from runner import kana

    kana.attach(story)  # kana readings for matching what players type (pyopenjtalk, if installed)
    return story


def check(path: str | os.PathLike[str]) -> tuple[Story | None, list[Diagnostic]]:
    """Loads a story and returns it (or None) with every diagnostic, warnings included."""
    return _load(path, check_hooks=True)


def _load(path: str | os.PathLike[str], *, check_hooks: bool) -> tuple[Story | None, list[Diagnostic]]:
    # Positions cost most of the loading time on large stories, and only a story with
    # problems needs them: load fast first, and again with positions if anything is wrong.
    # The cyclic garbage collector is paused meanwhile: a large story makes millions of
    # objects and none of them is garbage, so its passes (2/3 of the time) find nothing.
    was_enabled = gc.isenabled()
    gc.disable()
    story: Story | None = None
    try:
        try:
            story, diags = _load_pass(path, check_hooks=check_hooks, fast=True)
        except _Retry:
            story, diags = None, []
        else:
            if not diags:
                return story, diags
        story, diags = _load_pass(path, check_hooks=check_hooks, fast=False)
        return story, diags
    finally:
        if was_enabled:
            # A large story lives as long as the game: move it out of the collector's sight,
            # or every later collection walks its million objects again. Only a large one:
            # frozen objects are never collected, so a process that loads many stories
            # (check of many paths, a fuzz run) would keep every one of them for ever.
            if story is not None and len(story.nodes) >= FREEZE_NODES:
                gc.freeze()
            gc.enable()


FREEZE_NODES = 1000
"""Nodes from which a loaded story is moved out of the garbage collector's sight."""


def _load_pass(path: str | os.PathLike[str], *, check_hooks: bool, fast: bool) -> tuple[Story | None, list[Diagnostic]]:
    find_hook = None
    if check_hooks:
        from runner.rules import find_hook as _fh

        find_hook = _fh
    chk = _Checker(find_hook)
    chk.fast = fast
    p = Path(path)
    if not p.exists():
        chk.err(None, "no such file or folder", "K100", file=str(path))
        return None, chk.diags
    files = story_files(p)
    if not files:
        chk.err(None, "no .yaml files in this folder", "K100", file=str(path))
        return None, chk.diags
    if len(files) > MAX_FILES:
        chk.err(None, f"more than {MAX_FILES} .yaml files in this folder", "K100", file=str(path))
        return None, chk.diags
    docs = _read_files(files, chk, fast, story_root(p))

    # Merge sections from every file, remembering which file each entry came from.
    meta: Map | None = None
    meta_file = ""
    sections: dict[str, list[tuple[str, Any, Any]]] = {k: [] for k in TOP_KEYS}
    extra: dict[str, Any] = {}
    for name, data in docs:
        chk.file = name
        for key, val in data.items():
            if key == "story":
                if meta is not None:
                    chk.err(chk.kpos(data, key), f"a second 'story' section (the first is in {meta_file})", "K004")
                    continue
                meta, meta_file = val, name
            elif key in TOP_KEYS:
                sections[key].append((name, val, data))
            elif _is_rules(str(key)):
                extra[key] = val  # a rule system's own section (its name), for its hooks
            else:
                near = _closest(str(key), TOP_KEYS)
                hint = f" (did you mean {near!r}?)" if near else ""
                chk.err(chk.kpos(data, key), f"unknown section {key!r}{hint}", "K002")
    if meta is None:
        chk.file = str(files[0])
        if not any(d.severity == "error" for d in chk.diags):
            what = "no 'story' section (id, title, language, rules, start)" if docs else \
                "no story here: the file is empty (a story needs a 'story' section and nodes)"
            chk.err((1, 1), what, "K003")
        return None, chk.diags

    chk.file = meta_file
    if not chk.want_map(meta, None, "'story'"):
        return None, chk.diags
    chk.unknown_keys(meta, STORY_KEYS, "'story'")
    for req in ("id", "title", "start"):
        if req not in meta:
            chk.err(meta.pos if isinstance(meta, Map) else None, f"'story' needs {req!r}", "K003")
    sid = chk.want_str(meta.get("id", ""), chk.vpos(meta, "id"), "story id") if "id" in meta else Path(path).stem
    if "id" in meta and sid and (not ID_RE.match(sid) or len(sid) > 100):
        # The id names save folders and is written into transcripts: a word, like a node id.
        chk.err(chk.vpos(meta, "id"), f"{short(sid, 40)} cannot be a story id (letters, digits, _ and -, "
                                      "at most 100)", "K006")
        sid = "story"
    rules = str(meta.get("rules", "none"))
    why = _rules_problem(rules)
    if why:
        chk.err(chk.vpos(meta, "rules"), why, "K005")
        rules = "none"
        chk.find_hook = None  # every hook call would be reported again: the one mistake is enough
    chk.rules = rules
    language = str(meta.get("language", "ja"))
    credits = meta.get("credits", ())
    credits_t = tuple(str(c) for c in credits) if isinstance(credits, list) else ((str(credits),) if credits else ())
    options = meta.get("options") or {}
    if not isinstance(options, dict):
        chk.err(chk.vpos(meta, "options"), "'options' must be a mapping", "K001")
        options = {}
    options = chk.plain(options, chk.vpos(meta, "options"))
    for key in list(extra):
        chk.file = _file_of(docs, key) or meta_file
        extra[key] = chk.plain(extra[key], _locate(docs, key))
    chk.file = meta_file

    # Declarations first: variables, items, characters, node and ending ids.
    variables: dict[str, Variable] = {}
    for name, val, data in sections["variables"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "variables"), "'variables'"):
            continue
        for vname, spec in val.items():
            vpos = chk.kpos(val, vname)
            if not isinstance(vname, str) or not ID_RE.match(vname) or vname in X._CONST or vname in X._WORDS:
                chk.err(vpos, f"{vname!r} cannot be a variable name", "K006")
                continue
            if vname in variables:
                chk.err(vpos, f"variable {vname!r} is declared twice", "K004")
            if isinstance(spec, dict):
                chk.unknown_keys(spec, {"value", "visible", "label", "visible_when"}, f"variable {vname!r}")
                shown_when = None
                if "visible_when" in spec:
                    shown_when = chk.expr(spec["visible_when"], chk.vpos(spec, "visible_when"), condition=True)
                    if spec.get("visible", True) is not True:
                        chk.err(chk.vpos(spec, "visible"), f"variable {vname!r}: 'visible_when' shows it "
                                "while the condition holds; drop 'visible: false'", "K001")
                value = chk.plain(spec.get("value", 0), chk.vpos(spec, "value") or chk.vpos(val, vname))
                variables[vname] = Variable(vname, value,
                                            bool(spec.get("visible", False)) or "visible_when" in spec,
                                            str(spec.get("label", "")), shown_when)
            elif isinstance(spec, list):
                chk.err(chk.vpos(val, vname), f"variable {vname!r}: a list is not a value; use a number, text or true/false", "K001")
            else:
                variables[vname] = Variable(vname, chk.plain(spec, chk.vpos(val, vname)))
    chk.variables = set(variables)

    items: dict[str, Item] = {}
    for name, val, data in sections["items"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "items"), "'items'"):
            continue
        for iid, spec in val.items():
            if iid in items:
                chk.err(chk.kpos(val, iid), f"item {iid!r} is declared twice", "K004")
            if isinstance(spec, str):
                items[str(iid)] = Item(str(iid), spec)
            elif isinstance(spec, dict):
                chk.unknown_keys(spec, {"name", "description", "props"}, f"item {iid!r}")
                items[str(iid)] = Item(str(iid), str(spec.get("name", iid)), str(spec.get("description", "")),
                                       chk.plain(spec.get("props") or {}, chk.vpos(spec, "props")))
            else:
                chk.err(chk.vpos(val, iid), f"item {iid!r} must be a name or a mapping", "K001")
    chk.items = set(items)

    characters: dict[str, Character] = {}
    for name, val, data in sections["characters"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "characters"), "'characters'"):
            continue
        for cid, spec in val.items():
            if not chk.want_map(spec, chk.vpos(val, cid), f"character {cid!r}"):
                continue
            chk.unknown_keys(spec, {"name", "kind", "stats", "props", "known_when", "unknown_name"},
                             f"character {cid!r}")
            kind = str(spec.get("kind", "npc"))
            if kind not in ("pc", "npc", "ally", "neutral", "enemy", "monster"):
                chk.err(chk.vpos(spec, "kind"), f"character kind {kind!r}: one of pc, npc, ally, neutral, enemy, monster", "K005")
            known = (chk.expr(spec["known_when"], chk.vpos(spec, "known_when"), condition=True)
                     if "known_when" in spec else None)
            characters[str(cid)] = Character(str(cid), str(spec.get("name", cid)), kind,
                                             chk.plain(spec.get("stats") or {}, chk.vpos(spec, "stats")),
                                             chk.plain(spec.get("props") or {}, chk.vpos(spec, "props")),
                                             known, str(spec.get("unknown_name", "")))
    chk.speakers = _speakers(characters)

    node_srcs: list[tuple[str, str, Any, Any]] = []
    for name, val, data in sections["nodes"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "nodes"), "'nodes'"):
            continue
        for nid, spec in val.items():
            if not isinstance(nid, str) or not ID_RE.match(nid):
                chk.err(chk.kpos(val, nid), f"{nid!r} cannot be a node id (letters, digits, _ and -)", "K006")
                continue
            if nid in chk.nodes:
                chk.err(chk.kpos(val, nid), f"node {nid!r} is defined twice", "K004")
                continue
            chk.nodes.add(nid)
            node_srcs.append((name, nid, spec, val))
    ending_srcs: list[tuple[str, str, Any, Any]] = []
    for name, val, data in sections["endings"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "endings"), "'endings'"):
            continue
        for eid, spec in val.items():
            if eid in chk.endings or eid in chk.nodes:
                chk.err(chk.kpos(val, eid), f"ending {eid!r} is defined twice or shares a node's id", "K004")
                continue
            chk.endings.add(str(eid))
            ending_srcs.append((name, str(eid), spec, val))

    # Clock.
    clock = None
    for name, val, data in sections["clock"]:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "clock"), "'clock'"):
            continue
        chk.unknown_keys(val, {"start", "limit", "show", "left_visible_when"}, "'clock'")
        start = _minutes(val.get("start", 0))
        if start is None:
            chk.err(chk.vpos(val, "start"), _duration_problem("clock start", val.get("start"), 'write a time like "10:00"'), "K007")
            start = 0
        limit = None
        if "limit" in val:
            lim = val["limit"]
            if isinstance(lim, str) and _CLOCK.match(lim):
                t = _minutes(lim)
                limit = None if t is None else ((t - start) % (24 * 60) or 24 * 60)
            else:
                limit = _minutes(lim)
            if limit is None or limit < 0:
                chk.err(chk.vpos(val, "limit"), _duration_problem("clock limit", lim, 'a time after the start ("20:00") or a duration ("10h")'), "K007")
                limit = None
        left_when = (chk.expr(val["left_visible_when"], chk.vpos(val, "left_visible_when"), condition=True)
                     if "left_visible_when" in val else None)
        clock = Clock(start, limit, bool(val.get("show", True)), left_when)

    # Nodes.
    nodes: dict[str, Node] = {}
    for name, nid, spec, parent in node_srcs:
        chk.file = name
        chk.cur_node = nid
        npos = chk.kpos(parent, nid)
        if spec is None:
            spec = Map()
        if not chk.want_map(spec, npos, f"node {nid!r}"):
            continue
        chk.unknown_keys(spec, NODE_KEYS, f"node {nid!r}")
        kind = str(spec.get("kind", "place"))
        if kind not in NODE_KINDS:
            chk.err(chk.vpos(spec, "kind"), f"node kind {kind!r}: one of {', '.join(NODE_KINDS)}", "K005")
        narration = chk.narration(spec.get("narration"), chk.vpos(spec, "narration"), nid)
        keeper = chk.narration(spec.get("keeper"), chk.vpos(spec, "keeper"), f"{nid}.keeper", keeper=True)
        on_enter = chk.effects(spec.get("on_enter"), chk.vpos(spec, "on_enter"), f"{nid}.enter")
        actions = _actions(chk, spec.get("actions"), chk.vpos(spec, "actions"), nid)
        if not actions and not any(e[0] in ("goto", "end") for e in on_enter):
            if not _has_exit(on_enter) and not spec.get("props"):
                chk.err(npos, f"node {nid!r} is a dead end: it has no actions and is not an ending "
                              "(add an action, a goto or an end)", "K030")
        scene = str(spec.get("scene", "")) or (Path(name).stem if len(files) > 1 else "")
        _props_speakers(chk, spec.get("props"))
        props = chk.plain(spec.get("props") or {}, chk.vpos(spec, "props"))
        _props_edges(chk, props, nid)
        nodes[nid] = Node(nid, kind, str(spec.get("title", "")), scene, narration, keeper, on_enter,
                          actions, props)

    endings: dict[str, Ending] = {}
    for name, eid, spec, parent in ending_srcs:
        chk.file = name
        if isinstance(spec, str):
            spec = {"kind": spec}
        if not chk.want_map(spec, chk.vpos(parent, eid), f"ending {eid!r}"):
            continue
        chk.unknown_keys(spec, {"kind", "title", "narration"}, f"ending {eid!r}")
        kind = str(spec.get("kind", "normal"))
        if kind not in ENDING_KINDS:
            chk.err(chk.vpos(spec, "kind"), f"ending kind {kind!r}: one of {', '.join(ENDING_KINDS)}", "K005")
        endings[eid] = Ending(eid, kind, str(spec.get("title", "")),
                              chk.narration(spec.get("narration"), chk.vpos(spec, "narration"), f"end.{eid}"))

    # Timed events.
    events: list[TimedEvent] = []
    seen_events: set[str] = set()
    for name, val, data in sections["events"]:
        chk.file = name
        chk.cur_node = ""
        if not isinstance(val, list):
            chk.err(chk.vpos(data, "events"), "'events' must be a list", "K001")
            continue
        for i, ev in enumerate(val):
            epos = chk.ipos(val, i)
            if not chk.want_map(ev, epos, "an event"):
                continue
            chk.unknown_keys(ev, {"id", "at", "after", "when", "effects", "repeat"}, "an event")
            evid = str(ev.get("id", f"event{i + 1}"))
            if evid in seen_events:
                chk.err(chk.vpos(ev, "id") or epos, f"event id {evid!r} is used twice", "K004")
            seen_events.add(evid)
            at = None
            if "at" in ev:
                raw = ev["at"]
                if isinstance(raw, str) and _CLOCK.match(raw):
                    if clock is None:
                        chk.err(chk.vpos(ev, "at"), "a clock time needs a 'clock' section with a start", "K007")
                    else:
                        t = _minutes(raw)
                        # A time before the start is on the next day (a story that crosses midnight).
                        at = None if t is None else (t - clock.start) % (24 * 60)
                else:
                    at = _minutes(raw)
                if at is None or at < 0:
                    chk.err(chk.vpos(ev, "at"), _duration_problem("event time", raw, 'minutes after the start, "1h", or "11:00"'), "K007")
                    at = None
            when = chk.expr(ev["when"], chk.vpos(ev, "when"), condition=True) if "when" in ev else None
            if at is None and when is None and "at" not in ev:
                chk.err(epos, f"event {evid!r} needs 'at' or 'when'", "K003")
            effs = chk.effects(ev.get("effects"), chk.vpos(ev, "effects"), f"event.{evid}")
            for e in _walk_effects(effs):
                if e[0] in ("goto", "end"):
                    chk.global_edges.add(e[1])
            events.append(TimedEvent(evid, at, when, effs, bool(ev.get("repeat", False))))
    events.sort(key=lambda e: (e.at is None, e.at or 0))

    readings: dict[str, str] = {}
    for name, val, data in sections["readings"]:
        chk.file = name
        if chk.want_map(val, chk.vpos(data, "readings"), "'readings'"):
            readings.update({str(k): str(v) for k, v in val.items()})
    voices: dict[str, str] = {}
    for name, val, data in sections["voices"]:
        chk.file = name
        if chk.want_map(val, chk.vpos(data, "voices"), "'voices'"):
            # A voice is given to a speaker: the narrator or a character (by id or name).
            voices.update({str(chk.speaker(k, chk.kpos(val, k), voices=True)): str(v) for k, v in val.items()})

    # Rule data may move the player or end the game too (an obstacle's way through, the
    # ending a rule system picks, ``options: {endings: {full_victory: escaped}}``).
    chk.cur_node = ""
    _props_edges(chk, options, "")
    _props_speakers(chk, options)
    ends = options.get("endings")
    if isinstance(ends, dict):
        chk.global_edges.update(str(v) for v in ends.values() if isinstance(v, str))
    for r in chk.refs:
        if not r[4] and r[0] in ("goto", "end"):
            chk.global_edges.add(r[1])

    # References and reachability.
    start = str(meta.get("start", ""))
    chk.file = meta_file
    if start and start not in chk.nodes:
        near = _closest(start, chk.nodes)
        hint = f" (did you mean {near!r}?)" if near else ""
        chk.err(chk.vpos(meta, "start"), f"start node {start!r} does not exist{hint}", "K031")
    for kind, target, file, pos, src in chk.refs:
        if kind == "goto" and target not in chk.nodes and target not in chk.endings:
            near = _closest(target, chk.nodes | chk.endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"goto {target!r}: no such node or ending{hint}", "K031", file)
        elif kind == "end" and target not in chk.endings:
            near = _closest(target, chk.endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"end {target!r}: no such ending{hint}", "K032", file)
        elif kind == "item" and target not in chk.items:
            near = _closest(target, chk.items)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"unknown item {target!r}{hint}", "K033", file)
        if kind in ("goto", "end") and src:
            chk.edges.setdefault(src, set()).add(target)
    chk.check_expr_names()

    if start in chk.nodes:
        seen = {start} | chk.global_edges
        todo = list(seen)
        while todo:
            n = todo.pop()
            for t in chk.edges.get(n, ()):
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
        for name, nid, _spec, parent in node_srcs:
            if nid not in seen:
                chk.err(chk.kpos(parent, nid), f"node {nid!r} cannot be reached from the start {start!r}", "K034", name)
        for name, eid, _spec, parent in ending_srcs:
            if eid not in seen:
                chk.err(chk.kpos(parent, eid), f"ending {eid!r} cannot be reached from the start {start!r}", "K035", name)

    if find_hook is not None and rules != "none":
        from runner.rules import system

        rs = system(rules)
        if rs.validate is not None:
            raw = {"story": {**meta, "options": options}, "variables": {k: v.value for k, v in variables.items()},
                   "items": {k: {"name": v.name, **v.props} for k, v in items.items()},
                   "characters": {k: {"name": c.name, "kind": c.kind, "stats": c.stats, "props": c.props}
                                  for k, c in characters.items()},
                   "nodes": {k: n.props for k, n in nodes.items()},
                   "endings": {k: {"kind": e.kind, "title": e.title} for k, e in endings.items()}, **extra}
            for where, msg in rs.validate(raw):
                chk.err(_locate(docs, where), msg, "K040", _file_of(docs, where) or meta_file)

    # The story's version and the renames that map old saves onto it (runner/story/migrations.py).
    from runner.story import migrations as _mig

    version, migs = _mig.read(chk, meta, sections["migrations"], nodes, endings, variables, items)
    chk.file = meta_file

    if any(d.severity == "error" for d in chk.diags):
        return None, sorted(chk.diags, key=lambda d: (d.path, d.line, d.col))
    story = Story(
        id=sid, title=str(meta.get("title", sid)), language=language, rules=rules, start=start,
        path=str(p), nodes=nodes, endings=endings, variables=variables, items=items,
        characters=characters, events=tuple(events), clock=clock, credits=credits_t,
        licence=str(meta.get("licence", meta.get("license", ""))), author=str(meta.get("author", "")),
        description=str(meta.get("description", "")), length=str(meta.get("length", "")),
        options=options,
        readings=readings, voices=voices, extra=extra, version=version, migrations=migs,
    )
    return story, chk.diags


def _actions(chk: _Checker, v: Any, pos: tuple[int, int] | None, nid: str) -> tuple[Action, ...]:
    if v is None:
        return ()
    if not isinstance(v, list):
        chk.err(pos, f"actions must be a list, not {_kind(v)}", "K001")
        return ()
    out: list[Action] = []
    ids: set[str] = set()
    # Positions only matter for messages; the fast pass (no positions) skips asking for them.
    located = not chk.fast
    vpos = chk.vpos if located else _no_pos
    for i, a in enumerate(v):
        apos = chk.ipos(v, i) if located else None
        if not isinstance(a, dict):
            chk.want_map(a, apos, "an action")
            continue
        if not a.keys() <= ACTION_KEYS:
            chk.unknown_keys(a, ACTION_KEYS, "an action")
        if "label" not in a:
            chk.err(apos, "an action needs a 'label' (what the player sees)", "K003")
            continue
        label = a["label"]
        if type(label) is not str:
            label = chk.want_str(label, vpos(a, "label"), "label")
        aid = str(a.get("id", "")) or (re.sub(r"\W+", "_", label.lower()).strip("_") if label.isascii() else f"a{i + 1}")
        if aid in ids:
            chk.err(vpos(a, "id") or apos, f"action id {aid!r} is used twice in node {nid!r}", "K004")
        ids.add(aid)
        aliases = a.get("aliases") or ()
        if isinstance(aliases, str):
            aliases = [aliases]
        if not isinstance(aliases, (list, tuple)):
            chk.err(vpos(a, "aliases"), "aliases must be a list of words", "K001")
            aliases = []
        when = chk.expr(a["when"], vpos(a, "when"), condition=True) if "when" in a else None
        cost = 0
        if "cost" in a:
            c = _minutes(a["cost"])
            if c is None or c < 0:
                chk.err(vpos(a, "cost"), _duration_problem("cost", a["cost"], 'minutes, "30m" or "1h"'), "K007")
            else:
                cost = c
        base = f"{nid}.{aid}"
        check = outcomes = None
        if "check" in a or "outcomes" in a:
            check = chk.expr(a["check"], vpos(a, "check")) if "check" in a else None
            outcomes = chk.outcomes(a.get("outcomes"), vpos(a, "outcomes"), base)
            if check is not None and "outcomes" not in a:
                chk.err(vpos(a, "check"), "a check needs 'outcomes'", "K021")
            if "outcomes" in a and check is None and "check" not in a:
                chk.err(chk.kpos(a, "outcomes"), "'outcomes' without a 'check'", "K021")
        effects = chk.effects(a["effects"], vpos(a, "effects"), base) if "effects" in a else ()
        if "say" in a or "keeper" in a:
            effects = chk.folded(a, base) + effects
        after = chk.tail(a) if "goto" in a or "end" in a else ()
        out.append(Action(aid, label, tuple(map(str, aliases)), when, bool(a.get("once", False)),
                          cost, check, outcomes or (), effects, after, bool(a.get("hidden", False)), base))
    return tuple(out)


def _no_pos(m: Any, key: Any) -> None:
    return None


def _walk_effects(effs: tuple) -> Any:
    for e in effs:
        yield e
        if e[0] == "if":
            yield from _walk_effects(e[2])
            yield from _walk_effects(e[3])
        elif e[0] == "check":
            for o in e[2]:
                yield from _walk_effects(o.effects)


def _has_exit(effs: tuple) -> bool:
    return any(e[0] in ("goto", "end") for e in _walk_effects(effs))


def _props_edges(chk: _Checker, props: Any, nid: str) -> None:
    """Rule data on a node (obstacles and their ways through) may move the player too."""
    if isinstance(props, dict):
        for k, v in props.items():
            if k in ("goto", "end") and isinstance(v, str):
                chk.refs.append((k, v, chk.file, (1, 1), nid))
            else:
                _props_edges(chk, v, nid)
    elif isinstance(props, list):
        for v in props:
            _props_edges(chk, v, nid)


def _speakers(characters: dict[str, Character]) -> dict[str, str]:
    """Each character's id and name -> its id (an id wins over another character's name)."""
    out = {c.name: cid for cid, c in characters.items() if c.name}
    out.update({cid: cid for cid in characters})
    return out


def _props_speakers(chk: _Checker, props: Any) -> None:
    """Lines in rule data (an obstacle's ``say: {text, speaker}``) name their speakers too."""
    if isinstance(props, dict):
        if "speaker" in props and "text" in props:
            chk.speaker(props["speaker"], chk.vpos(props, "speaker"))
        for v in props.values():
            _props_speakers(chk, v)
    elif isinstance(props, list):
        for v in props:
            _props_speakers(chk, v)


def _locate(docs: list[tuple[str, Any]], where: str) -> tuple[int, int] | None:
    """Finds the position of a dotted path like ``characters.boss.stats`` in the loaded files."""
    parts = [p for p in re.split(r"[./]", where) if p]
    for _name, data in docs:
        cur: Any = data
        pos = None
        for part in parts:
            key: Any = int(part) if part.isdigit() and isinstance(cur, list) else part
            if isinstance(cur, Map) and key in cur:
                pos = cur.kpos.get(key, pos)
                cur = cur[key]
            elif isinstance(cur, Seq) and isinstance(key, int) and key < len(cur):
                pos = cur.ipos[key]
                cur = cur[key]
            else:
                break
        if pos:
            return pos
    return None


def _file_of(docs: list[tuple[str, Any]], where: str) -> str | None:
    first = re.split(r"[./]", where)[0]
    for name, data in docs:
        if isinstance(data, dict) and first in data:
            return name
    return None
