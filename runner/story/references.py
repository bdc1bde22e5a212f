"""What points where, checked once every section is read: ``goto``/``end``/items to things
that exist, variables and hooks in expressions, every node and ending reachable from the
start; then the rule system checks its own data (K040)."""

from __future__ import annotations

from typing import Any

from runner.story.checker import Checker, closest, props_edges, props_speakers
from runner.story.located import file_of, locate
from runner.story.model import Character, Ending, Item, Node, Variable
from runner.story.sections.nodes import Sources


def option_references(chk: Checker, options: dict) -> None:
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


def check_references(chk: Checker, meta: Any, meta_file: str, node_srcs: Sources,
                     ending_srcs: Sources) -> str:
    """References, expression names and reachability; returns the start node's id."""
    start = str(meta.get("start", ""))
    chk.file = meta_file
    if start and start not in chk.nodes:
        near = closest(start, chk.nodes)
        hint = f" (did you mean {near!r}?)" if near else ""
        chk.err(chk.vpos(meta, "start"), f"start node {start!r} does not exist{hint}", "K031")
    for kind, target, file, pos, src in chk.refs:
        if kind == "goto" and target not in chk.nodes and target not in chk.endings:
            near = closest(target, chk.nodes | chk.endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"goto {target!r}: no such node or ending{hint}", "K031", file)
        elif kind == "end" and target not in chk.endings:
            near = closest(target, chk.endings)
            hint = f" (did you mean {near!r}?)" if near else ""
            chk.err(pos, f"end {target!r}: no such ending{hint}", "K032", file)
        elif kind == "item" and target not in chk.items:
            near = closest(target, chk.items)
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
    return start


def check_rule_data(chk: Checker, rules: str, meta: Any, options: dict, variables: dict[str, Variable],
                    items: dict[str, Item], characters: dict[str, Character], nodes: dict[str, Node],
                    endings: dict[str, Ending], extra: dict[str, Any], docs: list[tuple[str, Any]],
                    meta_file: str) -> None:
    """The rule system's own checks of its data (K040), placed where the data stands."""
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
            chk.err(locate(docs, where), msg, "K040", file_of(docs, where) or meta_file)
