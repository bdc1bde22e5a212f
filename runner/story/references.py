"""What points where, checked once every section is read: ``goto``/``end``/items to things
that exist, variables and hooks in expressions, every node and ending reachable from the
start; then the rule system checks its own data (K040)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from runner.story.checker import Checker, closest, props_edges, props_speakers
from runner.story.located import file_of, locate
from runner.story.model import Character, Ending, Item, Node, Variable
from runner.story.sections.nodes import Sources
from runner.story.switches import switch_problem


def option_references(chk: Checker, options: dict[str, Any]) -> None:
    """Rule data may move the player or end the game too (an obstacle's way through, the
    ending a rule system picks, ``options: {endings: {full_victory: escaped}}``)."""
    chk.cur_node = ""
    props_edges(chk, options, "")
    props_speakers(chk, options)
    ends = options.get("endings")
    if isinstance(ends, dict):
        chk.global_edges.update(str(v) for v in ends.values() if isinstance(v, str))
    for r in chk.refs:
        if not r[4] and r[0] in ("goto", "end"):
            chk.global_edges.add(r[1])


def check_references(
    chk: Checker, meta: Any, meta_file: str, node_srcs: Sources, ending_srcs: Sources
) -> str:
    """References, expression names and reachability; returns the start node's id."""
    start = str(meta.get("start", ""))
    chk.file = meta_file
    if start and start not in chk.nodes:
        near = closest(start, chk.nodes)
        hint = f" (did you mean {near!r}?)" if near else ""
        chk.err(chk.vpos(meta, "start"), f"start node {start!r} does not exist{hint}", "K031")
    nodes, endings, items, edges = chk.nodes, chk.endings, chk.items, chk.edges
    for kind, target, file, pos, src in chk.refs:
        if kind == "goto" and target not in nodes and target not in endings:
            near = closest(target, nodes | endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"goto {target!r}: no such node or ending{hint}", "K031", file)
        elif kind == "end" and target not in endings:
            near = closest(target, endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"end {target!r}: no such ending{hint}", "K032", file)
        elif kind == "item" and target not in items:
            near = closest(target, items)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"unknown item {target!r}{hint}", "K033", file)
        if kind in ("goto", "end") and src:
            edges.setdefault(src, set()).add(target)
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
        # Work in progress is not a mistake: an unlinked node or ending is a warning, and the
        # story plays, graphs, tests and simulates.
        for name, nid, _spec, parent in node_srcs:
            if nid not in seen:
                chk.err(
                    chk.kpos(parent, nid),
                    f"node {nid!r} cannot be reached from the start {start!r}",
                    "K034",
                    name,
                    severity="warning",
                )
        for name, eid, _spec, parent in ending_srcs:
            if eid not in seen:
                chk.err(
                    chk.kpos(parent, eid),
                    f"ending {eid!r} cannot be reached from the start {start!r}"
                    + (
                        f"; if the rules end the game there, declare it under story:"
                        f" options: {{endings: {{{eid}: {eid}}}}}"
                        if str(meta.get("rules") or "none") != "none"
                        else ""
                    ),
                    "K035",
                    name,
                    severity="warning",
                )
        # On a sound graph only: a node defined twice or a goto to nowhere is the mistake.
        if not any(d.code in ("K004", "K031", "K032") for d in chk.diags):
            trapped(chk, seen, node_srcs)
    return start


def trapped(chk: Checker, seen: set[str], node_srcs: Sources) -> None:
    """Places the player can reach but never leave for an ending: a set of nodes whose ways
    out all lead back among themselves (only simulate's turn limit found them before). A
    timed event or a rule system's ending that can fire anywhere is a way out of every node."""
    if not chk.endings or chk.endings & chk.global_edges:
        return  # a story without endings (a sandbox, a fixture) walks for ever on purpose
    # Ways out: the endings, and what is not a node (a goto to nowhere is reported as such,
    # K031, so it counts as a way out here). A node with no way on of its own is reported as
    # a dead end (K030) or is moved on by its rule system (a bomb module's one node): either
    # way not a trap of this kind. Most nodes lead straight to a way out (or to a node found
    # to); the others are kept by what they lead to, and found by walking back from those.
    nodes, edges = chk.nodes, chk.edges
    out = set(chk.endings)
    out.update(nid for _n, nid, _s, _p in node_srcs if not edges.get(nid))
    back: defaultdict[str, list[str]] = defaultdict(list)
    for src, targets in edges.items():
        if targets <= nodes and targets.isdisjoint(out):
            for t in targets:
                back[t].append(src)
        else:
            out.add(src)
    todo = list(out)
    while todo:
        for src in back.get(todo.pop(), ()):
            if src not in out:
                out.add(src)
                todo.append(src)
    # A node whose on_enter always moves the player on shares its target's fate; one that
    # bounces for ever is the linter's (K304, said more precisely there).
    stuck = [
        (name, nid, parent)
        for name, nid, spec, parent in node_srcs
        if nid not in out and nid in seen and edges.get(nid) and not _passes_through(spec)
    ]
    if not stuck:
        return
    ids = [nid for _n, nid, _p in stuck]
    shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
    name, nid, parent = stuck[0]
    chk.err(
        chk.kpos(parent, nid),
        f"no way out: from {shown} no action or goto ever leads to an "
        "ending (a player who goes there can never finish)",
        "K036",
        name,
    )


def check_rule_data(
    chk: Checker,
    rules: str,
    meta: Any,
    options: dict[str, Any],
    variables: dict[str, Variable],
    items: dict[str, Item],
    characters: dict[str, Character],
    nodes: dict[str, Node],
    endings: dict[str, Ending],
    extra: dict[str, Any],
    docs: list[tuple[str, Any]],
    meta_file: str,
) -> None:
    """The rule system's own checks of its data (K040), placed where the data stands."""
    from runner.rules import system

    rs = system(rules)
    check_switches(chk, rs.name, rs.switches, meta, docs, meta_file)
    if rs.validate is not None:
        raw = {
            "story": {**meta, "options": options},
            "variables": {k: v.value for k, v in variables.items()},
            "items": {k: {"name": v.name, **v.props} for k, v in items.items()},
            "characters": {
                k: {"name": c.name, "kind": c.kind, "stats": c.stats, "props": c.props}
                for k, c in characters.items()
            },
            "nodes": {k: n.props for k, n in nodes.items()},
            "endings": {k: {"kind": e.kind, "title": e.title} for k, e in endings.items()},
            **extra,
        }
        try:
            found = [(str(where), str(msg)) for where, msg in rs.validate(raw)]
        except Exception as e:  # noqa: BLE001 - the rule system's own bug: one line, at rules:
            found = [("story.rules", f"{rule_system_failed(rules, 'validate', e)}")]
        for where, msg in found:
            chk.err(locate(docs, where), msg, "K040", file_of(docs, where) or meta_file)


def rule_system_failed(rules: str, part: str, e: BaseException) -> str:
    """The one line for a rule system's own function that raised while checking a story."""
    return (
        f"rule system {rules!r}: {part} failed ({type(e).__name__}: {e}): a bug in the rule"
        " system, not the story (its checks are left out)"
    )


def check_switches(
    chk: Checker,
    name: str,
    switches: frozenset[str],
    meta: Any,
    docs: list[tuple[str, Any]],
    meta_file: str,
) -> None:
    """The options a rule system reads as on/off (``RuleSystem.switches``) take only true or
    false, where the system reads them: ``story.options``, ``story.options.NAME`` and the
    section ``NAME:``. ``luck_spending: no`` is the text "no" in YAML 1.2, which is true."""
    if not switches:
        return
    opts = meta.get("options")
    section = next((d[name] for _, d in docs if isinstance(d, dict) and name in d), None)
    places = [
        (opts, "story.options", meta_file),
        (opts.get(name) if isinstance(opts, dict) else None, f"story.options.{name}", meta_file),
        (section, name, file_of(docs, name) or meta_file),
    ]
    for m, path, file in places:
        if not isinstance(m, dict):
            continue
        for key in [k for k in m if k in switches]:
            problem = switch_problem(key, m[key])
            if problem is not None:
                pos = chk.vpos(m, key) or chk.kpos(m, key) or locate(docs, f"{path}.{key}")
                chk.err(pos, f"{path}: {problem}", "K001", file)


def _passes_through(spec: Any) -> bool:
    """Whether a node's ``on_enter`` always sends the player on (a goto before any end or if)."""
    effs = spec.get("on_enter") if isinstance(spec, dict) else None
    for e in effs if isinstance(effs, list) else [effs] if isinstance(effs, dict) else []:
        if not isinstance(e, dict) or "end" in e or "if" in e or "check" in e:
            return False
        if "goto" in e:
            return True
    return False
