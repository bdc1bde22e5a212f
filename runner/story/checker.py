"""The checker every section reader shares: diagnostics, free-form values, expressions,
narration and effects, each read where it stands and reported as ``path:line:col``.

It reads parsed YAML (plain dicts and lists, or :class:`~runner.story.located.Map` and
``Seq`` that know where each value stood) and imports no YAML library: the engine compiles
a rule system's effect data with it too (:mod:`runner.story.effects`).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeGuard

from runner.story import expr as X
from runner.story import model as M
from runner.story.bounds import MAX_NUMBER, MAX_YAML_DEPTH, number_problem, short
from runner.story.diagnostics import Diagnostic
from runner.story.durations import BIG, duration_problem, minutes
from runner.story.keys import EFFECT_COMPANIONS, EFFECT_KEYS, MERGE_KEY_HINT
from runner.story.located import Map, Seq
from runner.story.model import Narration, Outcome
from runner.story.switches import meant, switch_problem, yaml11_word


def _prose(key: Any) -> bool:
    """A key that reads as a piece of a sentence (words, or closing punctuation), not a name."""
    return isinstance(key, str) and (
        " " in key.strip() or key.rstrip().endswith((".", "!", "?", "。"))
    )


class Checker:
    """What a load has found so far, and the readers of values every section shares."""

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
        self.conditions: set[str] = set()
        """The story's named conditions (``conditions:``): names an expression may use."""
        self.has_pc = False
        """Whether ``pc.name`` has someone to name (a ``kind: pc`` character or a rule system's)."""
        self.inline_exprs: list[tuple[X.Node, str, tuple[int, int]]] = []
        """Expressions inside ``{…}`` in text, with the place of their first character."""

    # -- diagnostics -------------------------------------------------------
    def err(
        self,
        pos: tuple[int, int] | None,
        msg: str,
        code: str,
        file: str | None = None,
        severity: str = "error",
    ) -> None:
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

    def unknown_keys(self, m: dict[Any, Any], allowed: set[str], where: str) -> None:
        for k in m:
            if k not in allowed:
                near = closest(str(k), allowed)
                hint = f" (did you mean {near!r}?)" if near else ""
                if k == "<<":
                    hint = MERGE_KEY_HINT
                elif not near and _prose(k):
                    # `{say: Behind a crate, a can of oil.}`: the comma ended the text and
                    # the rest became a key. Text with a comma inside {…} or […] needs quotes.
                    hint = (
                        " (text cut at a comma? inside {…} or […] a comma separates entries:"
                        ' put the whole text in quotes, say: "…, …")'
                    )
                self.err(self.kpos(m, k), f"unknown key {k!r} in {where}{hint}", "K002")

    def want_map(
        self, v: object, pos: tuple[int, int] | None, what: str
    ) -> TypeGuard[dict[Any, Any]]:
        if not isinstance(v, dict):
            self.err(pos, f"{what} must be a mapping, not {kind_of(v)}", "K001")
            return False
        return True

    def want_str(self, v: Any, pos: tuple[int, int] | None, what: str) -> str:
        if isinstance(v, bool) or v is None or isinstance(v, (dict, list)):
            self.err(pos, f"{what} must be text, not {kind_of(v)}", "K001")
            return ""
        return str(v)

    def flag(self, m: Any, key: str, default: bool, where: str) -> bool:
        """A true/false field (``once``, ``hidden``, ``repeat``, ``show``, ``visible``): only
        YAML's ``true`` and ``false``. Anything else is an error where it stands, with the fix:
        YAML 1.2 reads ``no``, ``yes``, ``on`` and ``off`` as text, which Python would take as
        true, so a story never gets a yes/no it did not mean."""
        v = m.get(key, default)
        problem = switch_problem(key, v)
        if problem is None:
            return bool(v)
        self.err(self.vpos(m, key) or self.kpos(m, key), f"{where}: {problem}", "K001")
        return default

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
            self.err(
                pos, f"lists and mappings nested more than {MAX_YAML_DEPTH} levels deep", "K001"
            )
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
        self.err(
            pos,
            f"{kind_of(v)} is not a value a story can hold (text, a number, true/false, "
            "null, a list or a mapping)",
            "K001",
        )
        return None

    # -- expressions -------------------------------------------------------
    def expr(
        self, src: Any, pos: tuple[int, int] | None, *, condition: bool = False
    ) -> X.Node | None:
        if isinstance(src, (bool, int, float)) or src is None:
            bad = number_problem(src)
            if bad is not None:
                self.err(pos, bad, "K010")
                return None
            return ("lit", src)
        if not isinstance(src, str):
            self.err(pos, f"expected an expression, not {kind_of(src)}", "K010")
            return None
        try:
            node = X.parse(src)
        except X.ExprError as e:
            line, col = pos or (1, 1)
            off = self.expr_col(pos) + e.col
            self.err(
                (line, off if "\n" not in src else col), f"bad expression {clip(src)}: {e}", "K010"
            )
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
        todo = [
            (node, file, pos[0], self.expr_col(pos, file), condition)
            for node, file, pos, condition in self.exprs
        ]
        todo += [(node, file, pos[0], pos[1], True) for node, file, pos in self.inline_exprs]
        known = self.variables | self.conditions
        for node, file, line, start, condition in todo:
            for n in X.nodes(node):
                k = n[0]
                if k == "var" and n[1] not in known:
                    near = closest(n[1], known)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    if yaml11_word(n[1]):
                        hint = f" (true or false? write {str(meant(n[1])).lower()}: {n[1]!r} is a name here)"
                    self.err((line, start + n[2]), f"unknown variable {n[1]!r}{hint}", "K011", file)
                elif k == "attr":
                    self.check_attr(n, (line, start + n[3]), file)
                elif k == "call":
                    self.check_call(
                        n[1],
                        len(n[2]),
                        (line, start + n[3]),
                        file,
                        condition,
                        tuple(kw[0] for kw in n[4]),
                    )

    def check_attr(self, n: X.Node, pos: tuple[int, int], file: str) -> None:
        """``pc.name``, ``guard.HP``: a character's field (the sheet's, looked up in play)."""
        who = n[1]
        if who == "pc":
            if not self.has_pc:
                self.err(
                    pos,
                    f"'pc.{n[2]}': this story has no player character (add a character "
                    "with kind: pc)",
                    "K011",
                    file,
                )
            return
        if self.speakers is not None and who not in self.speakers:
            near = closest(who, [*self.speakers, "pc"])
            hint = f" (did you mean {near!r}?)" if near else ""
            self.err(
                pos,
                f"{who}.{n[2]}: {who!r} is not a character of this story{hint} (write "
                "pc.name or a character's id)",
                "K011",
                file,
            )

    def inline(self, text: str, pos: tuple[int, int] | None) -> None:
        """Checks the ``{…}`` in a line of text (narration, a label, a say): its form here, its
        names once every section is read (:meth:`check_expr_names`)."""
        if "{" not in text and "}" not in text:
            return
        from runner.story import inline as I

        line, col = pos or (1, 1)
        start = self.expr_col(pos) if "\n" not in text else None
        try:
            parts = I.parse(text)
        except I.InlineError as e:
            self.err(
                (line, col if start is None else start + e.col), f"{e} (in {clip(text)})", "K016"
            )
            return
        for node, off in I.expressions(parts):
            self.inline_exprs.append(
                (node, self.file, (line, col if start is None else start + off))
            )

    def check_call(
        self,
        name: str,
        argc: int,
        pos: tuple[int, int],
        file: str,
        condition: bool,
        kwargs: tuple[str, ...] = (),
    ) -> None:
        if self.find_hook is None:
            return
        prefix = name.split(".")[0] if "." in name else "core"
        if "." in name and prefix not in (self.rules, "core"):
            if is_rules(prefix):
                self.err(
                    pos,
                    f"{name!r} belongs to the {prefix} rules, but this story uses "
                    f"rules: {self.rules}",
                    "K012",
                    file,
                )
            else:
                self.err(pos, f"unknown function {name!r}", "K012", file)
            return
        hook = self.find_hook(name, self.rules)
        if hook is None:
            self.err(pos, f"unknown function {name!r}{hook_hint(name, self.rules)}", "K012", file)
            return
        if condition and not hook.pure:
            self.err(
                pos, f"{name!r} changes the game and cannot be used in a condition", "K013", file
            )
        try:
            params = _parameters(hook.fn)
            named = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
            for kw in kwargs:
                if kw not in named:
                    near = closest(kw, named)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    self.err(
                        pos,
                        f"{name}() has no argument {kw!r}{hint}; it takes "
                        f"{', '.join(named) or 'none'}",
                        "K014",
                        file,
                    )
                elif named.index(kw) < argc:
                    self.err(pos, f"{name}(): argument {kw!r} is given twice", "K014", file)
            # A required argument left out fails in play (a check: story_error; a `when:`:
            # the action vanishes), so it is reported here as too many are.
            for p in params:
                if p.kind == p.KEYWORD_ONLY and p.default is p.empty and p.name not in kwargs:
                    self.err(
                        pos,
                        f"{name}() needs the argument {p.name!r}; write {name}(…, {p.name}=…)",
                        "K014",
                        file,
                    )
            placed = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            least = sum(1 for p in placed if p.default is p.empty and p.name not in kwargs)
            spread = any(p.kind == p.VAR_POSITIONAL for p in params)
            most = max(argc, least) if spread else len(placed)
            if not least <= argc <= most:
                want = (
                    f"at least {least}"
                    if spread
                    else f"{least}"
                    if least == most
                    else f"{least} to {most}"
                )
                self.err(pos, f"{name}() takes {want} argument(s), got {argc}", "K014", file)
        except (TypeError, ValueError):
            pass

    # -- narration ---------------------------------------------------------
    def narration(
        self, v: Any, pos: tuple[int, int] | None, base: str, *, keeper: bool = False
    ) -> tuple[Narration, ...]:
        if v is None:
            return ()
        items = v if isinstance(v, list) else [v]
        out = []
        for i, it in enumerate(items):
            ipos = self.ipos(v, i) if isinstance(v, list) else pos
            nid = f"{base}.{i + 1}"
            if isinstance(it, str):
                text = tidy(it)
                self.inline(text, ipos)
                out.append(Narration(nid, text, None, None, keeper))
            elif isinstance(it, dict):
                self.unknown_keys(it, {"id", "text", "when", "speaker"}, "a narration line")
                if "text" not in it:
                    self.err(ipos, "a narration line needs 'text'", "K003")
                    continue
                text = self.want_str(it["text"], self.vpos(it, "text"), "narration text")
                when = (
                    self.expr(it["when"], self.vpos(it, "when"), condition=True)
                    if "when" in it
                    else None
                )
                if "id" in it:
                    nid = self.want_str(it["id"], self.vpos(it, "id"), "a narration id")
                spk = (
                    self.speaker(it.get("speaker"), self.vpos(it, "speaker") or ipos)
                    if "speaker" in it
                    else None
                )
                text = tidy(text)
                self.inline(text, self.vpos(it, "text") or ipos)
                out.append(Narration(nid, text, when, spk, keeper))
            else:
                self.err(
                    ipos, f"a narration line must be text or a mapping, not {kind_of(it)}", "K001"
                )
        return tuple(out)

    def speaker(self, who: object, pos: tuple[int, int] | None, voices: bool = False) -> str | None:
        """A line's speaker (or a ``voices`` key): ``narrator`` or a character, by id or name,
        as the character's id."""
        if not who:
            return None
        who = str(who)
        if who == "narrator" or self.speakers is None:
            return who
        cid: str | None = self.speakers.get(who)
        if cid is None:
            near = closest(who, self.speakers)
            hint = f" (did you mean {near!r}?)" if near else ""
            if voices:
                self.err(
                    pos,
                    f"voices: {who!r} is not a character of this story{hint}: 'voices' gives "
                    "'narrator' or a character a voice profile (tentacle: monster)",
                    "K008",
                )
            else:
                self.err(
                    pos,
                    f"speaker {who!r} is not a character of this story{hint}: a speaker is "
                    "'narrator' or a character's id or name (declare it under 'characters')",
                    "K008",
                )
            return who
        return cid

    # -- effects -----------------------------------------------------------
    def effects(self, v: Any, pos: tuple[int, int] | None, base: str) -> tuple[M.Effect, ...]:
        if v is None:
            return ()
        if isinstance(v, dict):
            v_list: Any = Seq()
            v_list.append(v)
            v_list.ipos.append(pos or (1, 1))
            v = v_list
        if not isinstance(v, list):
            self.err(pos, f"effects must be a list, not {kind_of(v)}", "K001")
            return ()
        out: list[M.Effect] = []
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
                self.err(
                    epos,
                    f"an effect must be a one-key mapping such as {{goto: room}}, not {kind_of(eff)}",
                    "K020",
                )
                continue
            keys = [k for k in eff if k in EFFECT_KEYS]
            if len(keys) != 1:
                if not keys:
                    k0 = next(iter(eff))
                    near = closest(str(k0), EFFECT_KEYS)
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

    def effect(
        self, key: str, val: Any, vp: tuple[int, int] | None, eff: dict[Any, Any], base: str
    ) -> M.Effect | None:
        if key in ("set", "add"):
            if not isinstance(val, dict):
                self.want_map(val, vp, f"{key!r}")
                return None
            pairs = []
            variables = self.variables
            vpos = no_pos if self.fast else self.vpos
            for name, value in val.items():
                if name not in variables:
                    near = closest(str(name), variables)
                    hint = f" (did you mean {near!r}?)" if near else ""
                    self.err(self.kpos(val, name), f"unknown variable {name!r}{hint}", "K011")
                ex = self.expr(value, vpos(val, name))
                if ex is not None:
                    pairs.append((str(name), ex))
            return M.Set("set", tuple(pairs)) if key == "set" else M.Add("add", tuple(pairs))
        if key in ("give", "take"):
            counts: list[tuple[str, int]] = []
            if isinstance(val, str):
                counts = [(val, 1)]
            elif isinstance(val, list):
                counts = [(str(x), 1) for x in val]
            elif isinstance(val, dict):
                for k, n in val.items():
                    if type(n) is not int or not 1 <= n <= MAX_NUMBER:
                        self.err(
                            self.vpos(val, k) or vp,
                            f"{key} {k!r}: the count must be a whole number "
                            f"from 1 to 10^18, not {short(n)}",
                            "K001",
                        )
                        n = 1
                    counts.append((str(k), n))
            else:
                self.err(vp, f"{key!r} takes an item id, a list or {{item: count}}", "K001")
            for item, _n in counts:
                self.refs.append(("item", item, self.file, vp or (1, 1), self.cur_node))
            return M.Give("give", tuple(counts)) if key == "give" else M.Take("take", tuple(counts))
        if key == "goto":
            t = val if type(val) is str else self.want_str(val, vp, "goto")
            self.refs.append(("goto", t, self.file, vp or (1, 1), self.cur_node))
            return M.Goto("goto", t)
        if key == "end":
            t = val if type(val) is str else self.want_str(val, vp, "end")
            self.refs.append(("end", t, self.file, vp or (1, 1), self.cur_node))
            return M.End("end", t)
        if key in ("say", "keeper"):
            lines = self.narration(val, vp, base, keeper=key == "keeper")
            return M.Say("say", lines)
        if key == "do":
            calls = val if isinstance(val, list) else [val]
            exs = []
            for j, c in enumerate(calls):
                ex = self.expr(c, self.ipos(val, j) if isinstance(val, list) else vp)
                if ex is not None:
                    exs.append(ex)
            return M.Do("do", tuple(exs))
        if key == "if":
            cond = self.expr(val, vp, condition=False)
            then = self.effects(eff.get("then"), self.vpos(eff, "then"), base + ".then")
            other = self.effects(eff.get("else"), self.vpos(eff, "else"), base + ".else")
            if "then" not in eff and "else" not in eff:
                self.err(vp, "'if' needs 'then' or 'else'", "K021")
            return M.If("if", cond, then, other)
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
            return M.Roll("roll", dice, into, str(val.get("label", "")))
        if key == "check":
            ex = self.expr(val, vp)
            outs = self.outcomes(eff.get("outcomes"), self.vpos(eff, "outcomes") or vp, base)
            if "outcomes" not in eff:
                self.err(vp, "'check' needs 'outcomes'", "K021")
            return M.Check("check", ex, outs)
        if key == "advance":
            n = minutes(val)
            if n is None:
                if (
                    isinstance(val, str)
                    and not BIG.search(val)
                    or isinstance(val, float)
                    and abs(val) <= MAX_NUMBER
                ):
                    ex = self.expr(val, vp)
                    if ex is None:
                        return None  # self.expr has said what is wrong with it
                    if ex[0] != "lit" or type(ex[1]) in (int, float):
                        return M.Advance("advance", ex)
                self.err(
                    vp,
                    duration_problem(
                        "advance",
                        val,
                        'minutes ("30", "1h30m") or an expression that gives minutes',
                    ),
                    "K007",
                )
                return None
            return M.Advance("advance", ("lit", n))
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
                self.unknown_keys(
                    body, {"say", "keeper", "effects", "goto", "end"}, f"outcome {key!r}"
                )
                effs = self.effects(body.get("effects"), self.vpos(body, "effects"), ob)
                effs = self.folded(body, ob) + effs + self.tail(body)
            elif isinstance(body, str):
                effs = (M.Say("say", self.narration(body, bpos, ob)),)
            else:
                self.err(bpos, f"outcome {key!r} must be a mapping or a list of effects", "K001")
                continue
            out.append(Outcome(str(key), effs))
        return tuple(out)

    def folded(self, m: dict[Any, Any], base: str) -> tuple[M.Effect, ...]:
        """``say``/``keeper`` written directly on an action or outcome."""
        out: list[M.Effect] = []
        if "say" in m:
            out.append(M.Say("say", self.narration(m["say"], self.vpos(m, "say"), base + ".say")))
        if "keeper" in m:
            out.append(
                M.Say(
                    "say",
                    self.narration(
                        m["keeper"], self.vpos(m, "keeper"), base + ".keeper", keeper=True
                    ),
                )
            )
        return tuple(out)

    def tail(self, m: dict[Any, Any]) -> tuple[M.Effect, ...]:
        out: list[M.Effect] = []
        for key in ("goto", "end"):
            if key in m:
                e = self.effect(key, m[key], self.vpos(m, key), m, "")
                if e:
                    out.append(e)
        return tuple(out)


_SPACED_AFTER = frozenset("？！")
"""Full-width marks a Japanese sentence goes on after with a full-width space (「待って！　こちらに」)."""


def _cjk(c: str) -> bool:
    """A Japanese (or Chinese) character: kana, kanji, CJK and full-width punctuation.
    (Compared, not matched by a regex: a class of these ranges took 77 M instructions to
    compile, at every start.)"""
    return (
        "\u3000" <= c <= "\u30ff"
        or "\u3400" <= c <= "\u4dbf"
        or "\u4e00" <= c <= "\u9fff"
        or "\uf900" <= c <= "\ufaff"
        or "\uff01" <= c <= "\uff60"
    )


def tidy(text: str) -> str:
    """Narration as written: YAML's folded lines (``>``) join with a space, which Japanese
    does not use, so a single space between two Japanese characters is a fold and goes;
    after a full-width ？ or ！ (where Japanese sets a full-width space before the sentence
    goes on) it becomes an ideographic space U+3000, whether the author typed it or a fold
    made it. Any other space, and a U+3000 the author wrote, stay as written."""
    text = text.strip("\n")
    if " " not in text or text.isascii():  # (no Japanese: nothing to fold, in C)
        return text
    parts = text.split(" ")
    out = [parts[0]]
    for before, after in zip(parts, parts[1:], strict=False):
        if before and after and _cjk(before[-1]) and _cjk(after[0]):
            out.append("\u3000" + after if before[-1] in _SPACED_AFTER else after)
        else:
            out.append(" " + after)
    return "".join(out)


def hook_hint(name: str, rules: str) -> str:
    """ " (did you mean 'NAME.check'?)" for a misspelt hook, from the hooks the story may call."""
    from runner.rules import system

    names = [h for h in system("core").hooks]
    if rules != "none":
        names += [f"{rules}.{h}" for h in system(rules).hooks]
    near = closest(name, names)
    return f" (did you mean {near!r}?)" if near else ""


def is_rules(name: str) -> bool:
    """Whether ``name`` is an installed rule system (runner.rules' registry)."""
    from runner.rules import is_system

    return is_system(name)


def kind_of(v: Any) -> str:
    if v is None:
        return "nothing"
    return {
        dict: "a mapping",
        Map: "a mapping",
        list: "a list",
        Seq: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a number",
    }.get(type(v), type(v).__name__)


def clip(s: str) -> str:
    s = s.replace("\n", " ")
    return repr(s if len(s) <= 40 else s[:37] + "...")


def closest(word: str, options: Any) -> str | None:
    import difflib

    hits = difflib.get_close_matches(word, [str(o) for o in options], n=1, cutoff=0.75)
    return hits[0] if hits else None


def no_pos(m: Any, key: Any) -> None:
    return None


def walk_effects(effs: tuple[Any, ...]) -> Any:
    for e in effs:
        yield e
        if e[0] == "if":
            yield from walk_effects(e[2])
            yield from walk_effects(e[3])
        elif e[0] == "check":
            for o in e[2]:
                yield from walk_effects(o.effects)


def has_exit(effs: tuple[Any, ...]) -> bool:
    return any(e[0] in ("goto", "end") for e in walk_effects(effs))


def speakers_of(characters: dict[str, Any]) -> dict[str, str]:
    """Each character's id and name -> its id (an id wins over another character's name)."""
    out = {c.name: cid for cid, c in characters.items() if c.name}
    out.update({cid: cid for cid in characters})
    return out


def props_edges(chk: Checker, props: Any, nid: str) -> None:
    """Rule data on a node (obstacles and their ways through) may move the player too."""
    if isinstance(props, dict):
        for k, v in props.items():
            if k in ("goto", "end") and isinstance(v, str):
                chk.refs.append((k, v, chk.file, (1, 1), nid))
            else:
                props_edges(chk, v, nid)
    elif isinstance(props, list):
        for v in props:
            props_edges(chk, v, nid)


def props_speakers(chk: Checker, props: Any) -> None:
    """Lines in rule data (an obstacle's ``say: {text, speaker}``) name their speakers too."""
    if isinstance(props, dict):
        if "speaker" in props and "text" in props:
            chk.speaker(props["speaker"], chk.vpos(props, "speaker"))
        for v in props.values():
            props_speakers(chk, v)
    elif isinstance(props, list):
        for v in props:
            props_speakers(chk, v)


@functools.cache
def _parameters(fn: Callable[..., Any]) -> tuple[inspect.Parameter, ...]:
    """A hook function's parameters after its context, read once per function (a story calls
    the same hooks in many places; ``inspect.signature`` is slow). Bounded by the registered
    hooks."""
    return tuple(inspect.signature(fn).parameters.values())[1:]
