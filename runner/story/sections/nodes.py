"""``nodes:``: the places and scenes of the story, each with its narration and actions.

Node ids are declared first (:func:`declare_nodes`) so that a ``goto`` may point at a node
further down; :func:`read_nodes` then reads each node, and :func:`read_actions` its actions.
"""

from __future__ import annotations

import re
from typing import Any

from runner.story.checker import Checker, has_exit, kind_of, no_pos, props_edges, props_speakers
from runner.story.durations import duration_problem, minutes
from runner.story.keys import ACTION_KEYS, ID_RE, NODE_KEYS, NODE_KINDS
from runner.story.located import Map
from runner.story.model import Action, Node
from runner.story.sections import Entries

Sources = list[tuple[str, str, Any, Any]]
"""(file, id, the entry's value, the mapping that holds it) for each node or ending."""


def declare_nodes(chk: Checker, entries: Entries) -> Sources:
    node_srcs: Sources = []
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "nodes"), "'nodes'"):
            continue
        for nid, spec in val.items():
            if not isinstance(nid, str) or not ID_RE.match(nid):
                chk.err(
                    chk.kpos(val, nid),
                    f"{nid!r} cannot be a node id (letters, digits, _ and -)",
                    "K006",
                )
                continue
            if nid in chk.nodes:
                chk.err(chk.kpos(val, nid), f"node {nid!r} is defined twice", "K004")
                continue
            chk.nodes.add(nid)
            node_srcs.append((name, nid, spec, val))
    return node_srcs


def read_nodes(chk: Checker, node_srcs: Sources, *, scenes_by_file: bool) -> dict[str, Node]:
    """Each declared node; ``scenes_by_file``: a node's scene is its file's name by default."""
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
            chk.err(
                chk.vpos(spec, "kind"),
                f"node kind {kind!r}: one of {', '.join(NODE_KINDS)}",
                "K005",
            )
        narration = chk.narration(spec.get("narration"), chk.vpos(spec, "narration"), nid)
        keeper = chk.narration(
            spec.get("keeper"), chk.vpos(spec, "keeper"), f"{nid}.keeper", keeper=True
        )
        on_enter = chk.effects(spec.get("on_enter"), chk.vpos(spec, "on_enter"), f"{nid}.enter")
        actions = read_actions(chk, spec.get("actions"), chk.vpos(spec, "actions"), nid)
        if not actions and not any(e[0] in ("goto", "end") for e in on_enter):
            if not has_exit(on_enter) and not spec.get("props"):
                chk.err(
                    npos,
                    f"node {nid!r} is a dead end: it has no actions and is not an ending "
                    "(add an action, a goto or an end)",
                    "K030",
                )
        scene = str(spec.get("scene", "")) or (_stem(name) if scenes_by_file else "")
        props_speakers(chk, spec.get("props"))
        props = chk.plain(spec.get("props") or {}, chk.vpos(spec, "props"))
        props_edges(chk, props, nid)
        nodes[nid] = Node(
            nid,
            kind,
            str(spec.get("title", "")),
            scene,
            narration,
            keeper,
            on_enter,
            actions,
            props,
        )
    return nodes


def read_actions(chk: Checker, v: Any, pos: tuple[int, int] | None, nid: str) -> tuple[Action, ...]:
    if v is None:
        return ()
    if not isinstance(v, list):
        chk.err(pos, f"actions must be a list, not {kind_of(v)}", "K001")
        return ()
    out: list[Action] = []
    ids: set[str] = set()
    # Positions only matter for messages; the fast pass (no positions) skips asking for them.
    located = not chk.fast
    vpos = chk.vpos if located else no_pos
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
        if "{" in label or "}" in label:  # (Checker.inline checks what is inside)
            chk.inline(label, vpos(a, "label") or apos)
        aid = str(a.get("id", "")) or (
            re.sub(r"\W+", "_", label.lower()).strip("_") if label.isascii() else f"a{i + 1}"
        )
        if aid in ids:
            chk.err(
                vpos(a, "id") or apos, f"action id {aid!r} is used twice in node {nid!r}", "K004"
            )
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
            c = minutes(a["cost"])
            if c is None or c < 0:
                chk.err(
                    vpos(a, "cost"),
                    duration_problem("cost", a["cost"], 'minutes, "30m" or "1h"'),
                    "K007",
                )
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
        once, hidden = a.get("once", False), a.get("hidden", False)
        if type(once) is not bool or type(hidden) is not bool:  # each said where it stands
            once = chk.flag(a, "once", False, f"action {aid!r}")
            hidden = chk.flag(a, "hidden", False, f"action {aid!r}")
        out.append(
            Action(
                aid,
                label,
                tuple(map(str, aliases)),
                when,
                once,
                cost,
                check,
                outcomes or (),
                effects,
                after,
                hidden,
                base,
            )
        )
    return tuple(out)


def _stem(name: str) -> str:
    """A file's name without its folder and its last suffix (``scenes/cave.yaml`` -> ``cave``),
    as pathlib's ``stem``; text only, so that the readers stay pure."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    dot = base.rfind(".")
    return base[:dot] if dot > 0 else base
