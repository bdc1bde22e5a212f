"""Extra checks for `katari check`, on a story that already loads.

The loader finds what makes a story unplayable; these find what makes it wrong in ways an
author would not notice until a game goes there: a name mistyped inside an expression's
text (``has('lantrn')``), an outcome key no check can return (``fumbel``: the hook declares
its keys, ``Hook.outcomes``), on-enter gotos that bounce
between nodes for ever, and what the story's rule system checks itself (``RuleSystem.lint``,
e.g. a story whose checks need a character it never gets). Each is a :class:`Diagnostic` at
the place in the YAML.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from typing import Any

from runner.story import Diagnostic, Story, story_files
from runner.story import expr as X
from runner.story.located import Map, Seq
from runner.story.source import read_text, story_root

_BOOL = {"success", "failure"}
# Core hooks whose first argument names something the story declares.
_NAME_ARGS = {
    "has": "items",
    "count": "items",
    "visited": "nodes",
    "visits": "nodes",
    "fired": "events",
}
_EXPR_KEYS = ("when", "check", "if", "do")


def _near(word: str, options: Any) -> str:
    hit = difflib.get_close_matches(word, sorted(str(o) for o in options), n=1, cutoff=0.6)
    return f" (did you mean {hit[0]!r}?)" if hit else ""


def _walk(v: Any) -> Iterator[Map]:
    """Every mapping in a YAML tree."""
    if isinstance(v, Map):
        yield v
        for x in v.values():
            yield from _walk(x)
    elif isinstance(v, Seq):
        for x in v:
            yield from _walk(x)


def _expr_col(text: str, m: Map, key: Any, col: int, lines: list[str]) -> tuple[int, int]:
    """The line and column of offset ``col`` inside the expression ``m[key]``."""
    line, c = m.vpos.get(key, m.pos)
    if "\n" in text:
        return line, c
    quoted = (
        0 < line <= len(lines) and 0 < c <= len(lines[line - 1]) and lines[line - 1][c - 1] in "'\""
    )
    return line, c + col + (1 if quoted else 0)


def _calls(node: X.Node) -> Iterator[tuple[str, tuple, int]]:
    k = node[0]
    if k == "call":
        yield node[1], node[2], node[3]
        for a in (*node[2], *(kw[1] for kw in node[4])):
            yield from _calls(a)
    elif k in ("neg", "not"):
        yield from _calls(node[1])
    elif k in ("and", "or"):
        yield from _calls(node[1])
        yield from _calls(node[2])
    elif k == "bin":
        yield from _calls(node[2])
        yield from _calls(node[3])
    elif k == "cmp":
        for a in node[2]:
            yield from _calls(a)


def domain_problems(node: X.Node, story: Story, src: str = "") -> list[tuple[int, str]]:
    """(column in ``src``, message) for each literal argument of a hook call outside the
    domain its rule system declares for it (a misspelt skill, dice that cannot be read)."""
    out: list[tuple[int, str]] = []
    for n in X.nodes(node):
        if n[0] == "call":
            out += _call_problems(n, story, src)
    return out


def _call_problems(n: X.Node, story: Story, src: str = "") -> list[tuple[int, str]]:
    """:func:`domain_problems` of the one call ``n`` (its arguments not looked into)."""
    from runner.rules import find_hook

    hook = find_hook(n[1], story.rules)
    if hook is None or not hook.domains:
        return []
    out: list[tuple[int, str]] = []
    given = [*zip(hook.args, n[2], strict=False), *((kw[0], kw[1]) for kw in n[4])]
    for param, arg in given:
        dom = hook.domains.get(param)
        if dom is None or arg[0] != "lit":
            continue
        msg = dom.check(arg[1], story)
        if msg:
            at = src.find(str(arg[1]), n[3]) if src and isinstance(arg[1], str) else -1
            out.append((at - 1 if at > 0 else n[3], f"{n[1]}(): {msg}"))
    return out


def _outcome_keys(node: X.Node, rules: str) -> set[str] | None:
    """The keys a check expression can give (a hook declares its own: ``Hook.outcomes``), or
    None when they cannot be known here."""
    k = node[0]
    if k in ("cmp", "not", "and", "or"):
        return _BOOL
    if k == "lit" and isinstance(node[1], bool):
        return _BOOL
    if k == "call":
        if node[1] in ("has", "visited", "fired", "chance"):
            return _BOOL
        if "." in node[1]:
            from runner.rules import find_hook

            hook = find_hook(node[1], rules)
            if hook is not None and hook.outcomes is not None:
                return set(hook.outcomes)
    return None


def _parse(text: Any) -> X.Node | None:
    if not isinstance(text, str):
        return None
    try:
        return X.parse(text)
    except X.ExprError:
        return None  # the loader reports it


def _suspect(story: Story, names: dict[str, set[str]]) -> bool:
    """Whether the story model shows anything these checks report.

    Finding where a problem is needs the YAML again with positions, which costs far more
    than the loading itself on a large story; a clean story (the usual case) skips it."""
    if _system(story).lint is not None:
        return True  # the rule system's own checks read the text
    if _enter_loops(story, {}):
        return True
    seen: set[int] = set()

    def bad_expr(node: X.Node | None) -> bool:
        if node is None or node[0] == "lit" or id(node) in seen:
            return False
        seen.add(id(node))
        for n in X.nodes(node):  # (most expressions, ``hp > 0``, call nothing)
            if n[0] != "call":
                continue
            if _call_problems(n, story):
                return True
            kind, args = _NAME_ARGS.get(n[1]), n[2]
            if (
                kind
                and args
                and args[0][0] == "lit"
                and isinstance(args[0][1], str)
                and args[0][1] not in names[kind]
            ):
                return True
        return False

    def bad_lines(lines: Any) -> bool:
        return any(bad_expr(ln.when) for ln in lines)

    def bad_outcomes(check: X.Node | None, outcomes: Any) -> bool:
        keys = _outcome_keys(check, story.rules) if check is not None else None
        if keys is not None and any(o.key not in keys and o.key != "otherwise" for o in outcomes):
            return True
        return bad_expr(check) or any(bad_effects(o.effects) for o in outcomes)

    def bad_effects(effects: Any) -> bool:
        for e in effects:
            k = e[0]
            if k in ("set", "add"):
                if any(bad_expr(x) for _n, x in e[1]):
                    return True
            elif k == "do":
                if any(bad_expr(x) for x in e[1]):
                    return True
            elif k == "if":
                if bad_expr(e[1]) or bad_effects(e[2]) or bad_effects(e[3]):
                    return True
            elif k == "check":
                if bad_outcomes(e[1], e[2]):
                    return True
            elif k == "advance":
                if bad_expr(e[1]):
                    return True
            elif k == "say" and bad_lines(e[1]):
                return True
        return False

    for n in story.nodes.values():
        if bad_lines(n.narration) or bad_lines(n.keeper) or bad_effects(n.on_enter):
            return True
        for a in n.actions:
            if (
                bad_expr(a.when)
                or bad_effects(a.effects)
                or bad_effects(a.after)
                or bad_outcomes(a.check, a.outcomes)
            ):
                return True
    if any(bad_lines(e.narration) for e in story.endings.values()):
        return True
    return any(bad_expr(ev.when) or bad_effects(ev.effects) for ev in story.events)


def lint(story: Story) -> list[Diagnostic]:
    """Every problem found, for a story :func:`runner.story.check` loaded."""
    out: list[Diagnostic] = []
    names = {
        "items": set(story.items),
        "nodes": set(story.nodes) | set(story.endings),
        "events": {e.id for e in story.events},
    }
    out += _comma_splits(story)
    untitled = any(e.at is not None and not e.title for e in story.events)
    if not untitled and not _suspect(story, names):
        return out
    # Only now the YAML again, with positions (PyYAML: a clean story never imports it).
    from runner.story.yamlpos import load as yaml_load

    node_pos: dict[str, tuple[str, int, int]] = {}
    texts: list[str] = []
    root = story_root(story.path)
    for f in story_files(story.path):
        try:
            text = read_text(f, root)
            data, _ = yaml_load(text)
        except Exception:  # noqa: BLE001 - a story that loaded reads again; be safe anyway
            continue
        texts.append(text)
        if not isinstance(data, Map):
            continue
        lines = text.splitlines()
        file = str(f)
        nodes = data.get("nodes")
        if isinstance(nodes, Map):
            for nid in nodes:
                node_pos[str(nid)] = (file, *nodes.kpos.get(nid, nodes.pos))
        out += _untitled(data.get("events"), file)
        for m in _walk(data):
            out += _names_in(m, file, names, lines, story)
            out += _outcomes(m, file, story.rules)
    out += _enter_loops(story, node_pos)
    out += _rules_lint(story, texts)
    return out


# A text list written in YAML's flow style on one line: `narration: [A, b.]`. Lists holding
# quotes, brackets, braces or a comment are left alone (their commas may be meant).
_FLOW_TEXT = re.compile(r"(narration|say|text|keeper)\s*:\s*\[([^\[\]{}\"'#\n]*)\]")
"""(The key must begin the line or follow a space, ``{`` or ``,``: checked where it matches,
since a pattern that begins by looking behind is tried at every character.)"""
_FLOW_TEXT_HINT = re.compile(r"\[[^\[\]{}\"'#\n]*,")
"""A ``[`` with a comma after it on its line, before any quote, bracket or comment: in every
line :data:`_FLOW_TEXT` warns about. A file without one (most of a large generated story) is
not read line by line."""
_ENDS_SENTENCE = tuple(".!?…:;)]\"'”’。！？」』）")


def _comma_splits(story: Story) -> list[Diagnostic]:
    """K308: ``narration: [A heavy door, swollen with salt.]`` is two lines to YAML ("A heavy
    door" and "swollen with salt."): in a ``[…]`` list a comma separates items. Warned when
    an item runs on into the next: the first has no closing punctuation and the next starts
    in lower case (so Japanese text, with no case, is never flagged)."""
    out: list[Diagnostic] = []
    root = story_root(story.path)
    for f in story_files(story.path):
        try:
            text = read_text(f, root)
        except Exception:  # noqa: BLE001 - a story that loaded reads again; be safe anyway
            continue
        if not _FLOW_TEXT_HINT.search(text):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if "," not in line:  # (no list of two items)
                continue
            for m in _FLOW_TEXT.finditer(line):
                if m.start() and not (line[m.start() - 1] in "{," or line[m.start() - 1].isspace()):
                    continue
                items = [x.strip() for x in m.group(2).split(",")]
                for a, b in zip(items, items[1:], strict=False):
                    if (
                        a
                        and b
                        and b[0].islower()
                        and b[0].isascii()
                        and not a.endswith(_ENDS_SENTENCE)
                    ):
                        col = m.start(2) + 1
                        whole = ", ".join(items)
                        out.append(
                            Diagnostic(
                                str(f),
                                n,
                                col,
                                f"{m.group(1)}: [{m.group(2).strip()}] is {len(items)} lines"
                                f" ({a!r}, {b!r}, ...): in a [...] list a comma starts a new"
                                f' line; if it is one sentence, quote it: ["{whole}"]',
                                "K308",
                                severity="warning",
                            )
                        )
                        break
    return out


def _names_in(
    m: Map, file: str, names: dict[str, set[str]], lines: list[str], story: Story | None = None
) -> list[Diagnostic]:
    out = []
    targets: list[tuple[Map, Any]] = [(m, k) for k in _EXPR_KEYS if k in m]
    for k in ("set", "add"):
        if isinstance(m.get(k), Map):
            targets += [(m[k], v) for v in m[k]]
    for where, key in targets:
        text = where.get(key)
        node = _parse(text)
        if node is None or not isinstance(text, str):  # (_parse reads only text)
            continue
        for col, msg in domain_problems(node, story, text) if story is not None else ():
            line, c = _expr_col(text, where, key, col, lines)
            out.append(Diagnostic(file, line, c, msg, "K306"))
        for name, args, col in _calls(node):
            kind = _NAME_ARGS.get(name)
            if not kind or not args or args[0][0] != "lit" or not isinstance(args[0][1], str):
                continue
            if args[0][1] not in names[kind]:
                line, c = _expr_col(text, where, key, col, lines)
                what = {"items": "item", "nodes": "node or ending", "events": "timed event"}[kind]
                out.append(
                    Diagnostic(
                        file,
                        line,
                        c,
                        f"{name}({args[0][1]!r}): no such {what}{_near(args[0][1], names[kind])}",
                        "K301",
                    )
                )
    return out


def _untitled(events: Any, file: str) -> list[Diagnostic]:
    """A timed event (``at:``) without a ``title:``: the GM panel would name it by its id."""
    out = []
    for ev in events if isinstance(events, list) else []:
        if isinstance(ev, Map) and "at" in ev and not ev.get("title"):
            line, col = ev.pos
            out.append(
                Diagnostic(
                    file,
                    line,
                    col,
                    f"timed event {str(ev.get('id', ''))!r} has no title: "
                    "the GM panel and status name it by its id (add a `title:`, a few words saying "
                    "what happens)",
                    "K307",
                    "warning",
                )
            )
    return out


def _outcomes(m: Map, file: str, rules: str) -> list[Diagnostic]:
    outs = m.get("outcomes")
    if "check" not in m or not isinstance(outs, Map):
        return []
    node = _parse(m["check"])
    keys = _outcome_keys(node, rules) if node is not None else None
    if keys is None:
        return []
    out = []
    for key in outs:
        if str(key) in keys or key == "otherwise":
            continue
        line, col = outs.kpos.get(key, outs.pos)
        out.append(
            Diagnostic(
                file,
                line,
                col,
                f"outcome {key!r} can never happen: this check gives "
                f"{', '.join(sorted(keys))}{_near(str(key), keys | {'otherwise'})}",
                "K303",
                "warning",
            )
        )
    return out


def _first_goto(effects: tuple) -> str | None:
    """Where a node's on_enter always sends the player, if it always does."""
    for eff in effects:
        if eff[0] == "goto":
            return eff[1]
        if eff[0] == "end":
            return None
    return None


def _enter_loops(story: Story, pos: dict[str, tuple[str, int, int]]) -> list[Diagnostic]:
    nxt = {nid: _first_goto(n.on_enter) for nid, n in story.nodes.items()}
    out, reported = [], set()
    for start in story.nodes:
        path: list[str] = []
        seen: set[str] = set()
        cur: str | None = start
        while cur in story.nodes and cur not in seen and nxt.get(cur):
            seen.add(cur)
            path.append(cur)
            cur = nxt[cur]
        if cur in seen and cur not in reported:
            loop = path[path.index(cur) :]
            reported.update(loop)
            file, line, col = pos.get(cur, (story.path, 1, 1))
            out.append(
                Diagnostic(
                    file,
                    line,
                    col,
                    "on_enter gotos go round for ever: " + " → ".join([*loop, cur]),
                    "K304",
                )
            )
    return out


def _system(story: Story):  # noqa: ANN202 - a RuleSystem
    from runner.rules import system

    return system(story.rules)


def _rules_lint(story: Story, texts: list[str]) -> list[Diagnostic]:
    """The rule system's own warnings about the story as a whole (RuleSystem.lint), at the
    top of its first file."""
    rs_lint = _system(story).lint
    if rs_lint is None:
        return []
    first = str(story_files(story.path)[0])
    out = []
    try:
        found = [(str(m), c, s) for m, c, s in rs_lint(story, texts)]
    except Exception as e:  # noqa: BLE001 - the rule system's own bug: one line, not a trace
        from runner.story.references import rule_system_failed

        found = [(rule_system_failed(story.rules, "lint", e), "K300", "error")]
    for msg, code, severity in found:
        # Every diagnostic has a code (K3xx for lint); a rule system's that has none is K300.
        code = code if isinstance(code, str) and re.fullmatch(r"K3\d\d", code) else "K300"
        out.append(
            Diagnostic(first, 1, 1, str(msg), code, "error" if severity == "error" else "warning")
        )
    return out


__all__ = ["lint"]
