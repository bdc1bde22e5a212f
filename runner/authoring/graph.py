"""The story map: nodes, endings and the moves between them, as DOT, SVG, Mermaid or HTML.

:func:`build` reads a loaded :class:`Story` into a :class:`Graph` (plain data); the ``to_*``
functions write it out. Large stories are drawn scene by scene (:func:`scene_graph`).
"""

from __future__ import annotations

import functools
import html
import importlib.resources
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from runner.story import model as m
from runner.story.model import Action, Effect, Node, Story

LAYOUT_LIMIT = 2000
"""Above this many nodes and endings, Graphviz takes too long and the picture is unreadable."""
EDGE_LIMIT = 1000
"""Above this many arrows (parallel ones merged), the same."""
MAX_PARALLEL = 3
"""Arrows drawn one by one between the same two boxes; more are one arrow "N moves"."""
DOT_TIMEOUT = 60.0
"""Seconds Graphviz may take to lay a map out; then it is stopped (and its process with it)."""

KIND_SHAPE = {
    "place": ("box", "#ffffff"),
    "check": ("diamond", "#fff4cc"),
    "combat": ("octagon", "#ffd9c2"),
    "scene": ("box", "#eef3ff"),
}
ENDING_COLOUR = {
    "good": "#a8e6a1",
    "normal": "#cfe2f3",
    "neutral": "#e6e6e6",
    "partial": "#fff0a8",
    "extra": "#e3d4f7",
    "bad": "#f5a9a9",
    "failure": "#f7c6a3",
    "death": "#7a7a7a",
}


class GraphvizMissing(RuntimeError):
    """The ``dot`` program is not installed."""


class LayoutTimeout(RuntimeError):
    """Graphviz did not lay the map out in time (it was stopped)."""


@dataclass(slots=True)
class Edge:
    src: str
    dst: str
    label: str
    cond: str = ""
    kind: str = "action"
    """``action``, ``enter`` (on_enter), ``event`` (a timed event) or ``rules`` (rule data)."""
    action: str = ""


@dataclass(slots=True)
class GNode:
    """A box on the map: a node, an ending, a timed event or (in a scene map) a scene."""

    key: str
    """Safe name for DOT/Mermaid/HTML (``n3``, ``e0``, ``t1``, ``s2``)."""
    id: str
    label: str
    kind: str
    """Node kind, ``ending``, ``event`` or ``scene``."""
    ending_kind: str = ""
    scene: str = ""
    start: bool = False
    info: dict = field(default_factory=dict)
    """What the HTML side panel shows."""


@dataclass(slots=True)
class Graph:
    title: str
    start: str
    nodes: dict[str, GNode]
    """Story id -> box (events keyed ``@event-id``)."""
    edges: list[Edge]
    collapsed: bool = False
    """True for a scene-level map of a large story."""
    note: str = ""


# ----------------------------------------------------------------- text of expressions

_PREC = {
    "or": 1,
    "and": 2,
    "not": 3,
    "cmp": 4,
    "+": 5,
    "-": 5,
    "*": 6,
    "/": 6,
    "//": 6,
    "%": 6,
    "neg": 7,
}


def unparse(n: Any, parent: int = 0) -> str:
    """An expression AST back to source text (for labels and the side panel)."""
    if n is None:
        return ""
    k = n[0]
    if k == "lit":
        v = n[1]
        if v is True:
            return "true"
        if v is False:
            return "false"
        if v is None:
            return "none"
        if isinstance(v, str):
            return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
        return repr(v)
    if k == "var":
        return n[1]
    if k == "call":
        args = [unparse(a) for a in n[2]] + [f"{kw[0]}={unparse(kw[1])}" for kw in n[4]]
        return f"{n[1]}({', '.join(args)})"
    if k == "attr":
        return f"{n[1]}.{n[2]}"
    if k == "neg":
        s, p = "-" + unparse(n[1], _PREC["neg"]), _PREC["neg"]
    elif k == "not":
        s, p = "not " + unparse(n[1], _PREC["not"]), _PREC["not"]
    elif k in ("and", "or"):
        p = _PREC[k]
        s = f"{unparse(n[1], p)} {k} {unparse(n[2], p + 1)}"
    elif k == "bin":
        p = _PREC[n[1]]
        s = f"{unparse(n[2], p)} {n[1]} {unparse(n[3], p + 1)}"
    elif k == "cmp":
        p = _PREC["cmp"]
        parts = [unparse(n[2][0], p + 1)]
        for op, rhs in zip(n[1], n[2][1:], strict=True):
            parts.append(f"{op} {unparse(rhs, p + 1)}")
        s = " ".join(parts)
    else:  # pragma: no cover - a node kind added later
        return "?"
    return f"({s})" if p < parent else s


def shorten(text: str, n: int = 32) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def describe_effect(e: Effect) -> str:
    """One effect as a short line of text."""
    match e:
        case m.Set(pairs=pairs) | m.Add(pairs=pairs):
            op = "=" if e.kind == "set" else "+="
            return ", ".join(f"{name} {op} {unparse(ex)}" for name, ex in pairs)
        case m.Give(counts=counts) | m.Take(counts=counts):
            return f"{e.kind} " + ", ".join(f"{i}×{n}" if n != 1 else i for i, n in counts)
        case m.Goto(target=target):
            return f"goto {target}"
        case m.End(ending=ending):
            return f"end {ending}"
        case m.Say(lines=lines):
            return "say " + " / ".join(shorten(line.text, 40) for line in lines)
        case m.Do(calls=calls):
            return "do " + "; ".join(unparse(x) for x in calls)
        case m.If(cond=cond, then=then, other=other):
            return (
                f"if {unparse(cond)}: "
                + "; ".join(describe_effect(x) for x in then)
                + (" else: " + "; ".join(describe_effect(x) for x in other) if other else "")
            )
        case m.Roll(dice=dice, into=into):
            return f"roll {dice}" + (f" → {into}" if into else "")
        case m.Check(expr=expr, outcomes=outcomes):
            return f"check {unparse(expr)} → " + ", ".join(o.key for o in outcomes)
        case m.Advance(minutes=minutes):
            return f"advance {unparse(minutes)} min"
    return str(e[0])  # pragma: no cover - an effect kind added later


def cond_text(conds: tuple[str, ...]) -> str:
    """Conditions on the way to a move, joined with `` · `` (outcome keys appear bare)."""
    if len(conds) == 1:
        return conds[0]
    return " · ".join(f"({c})" if " " in c else c for c in conds)


def moves(
    effects: tuple, conds: tuple[str, ...] = ()
) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Every ``goto``/``end`` in effects: (kind, target, the conditions on the way there)."""
    for e in effects:
        k = e[0]
        if k in ("goto", "end"):
            yield k, e[1], conds
        elif k == "if":
            c = unparse(e[1])
            yield from moves(e[2], (*conds, c))
            yield from moves(e[3], (*conds, f"not ({c})"))
        elif k == "check":
            for o in e[2]:
                yield from moves(o.effects, (*conds, o.key))


def action_moves(a: Action) -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """Where an action can lead: before its check, per outcome, and its own goto/end."""
    base = (unparse(a.when),) if a.when is not None else ()
    yield from moves(a.effects, base)
    for o in a.outcomes:
        yield from moves(o.effects, (*base, o.key))
    yield from moves(a.after, base)


def targets(effects: tuple) -> Iterator[str]:
    """Every ``goto``/``end`` target in effects (no condition text: fast, for simulation)."""
    for e in effects:
        k = e[0]
        if k in ("goto", "end"):
            yield e[1]
        elif k == "if":
            yield from targets(e[2])
            yield from targets(e[3])
        elif k == "check":
            for o in e[2]:
                yield from targets(o.effects)


def action_targets(a: Action) -> frozenset[str]:
    """Where an action can lead."""
    out = set(targets(a.effects)) | set(targets(a.after))
    for o in a.outcomes:
        out.update(targets(o.effects))
    return frozenset(out)


def _props_moves(v: Any) -> Iterator[str]:
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("goto", "end") and isinstance(x, str):
                yield x
            else:
                yield from _props_moves(x)
    elif isinstance(v, list):
        for x in v:
            yield from _props_moves(x)


# ----------------------------------------------------------------- building


def _lines(lines: tuple) -> list[dict]:
    return [
        {
            "text": ln.text,
            "when": unparse(ln.when) if ln.when is not None else "",
            "speaker": ln.speaker or "",
        }
        for ln in lines
    ]


def _node_info(n: Node) -> dict:
    acts = []
    for a in n.actions:
        acts.append(
            {
                "id": a.id,
                "label": a.label,
                "when": unparse(a.when) if a.when is not None else "",
                "once": a.once,
                "hidden": a.hidden,
                "cost": a.cost,
                "check": unparse(a.check) if a.check is not None else "",
                "effects": [describe_effect(e) for e in (*a.effects, *a.after)],
                "outcomes": {o.key: [describe_effect(e) for e in o.effects] for o in a.outcomes},
                "targets": sorted({t for _k, t, _c in action_moves(a)}),
            }
        )
    return {
        "id": n.id,
        "title": n.title,
        "kind": n.kind,
        "scene": n.scene,
        "narration": _lines(n.narration),
        "keeper": _lines(n.keeper),
        "on_enter": [describe_effect(e) for e in n.on_enter],
        "actions": acts,
    }


def build(story: Story, *, merge: bool = True) -> Graph:
    """Reads the story's nodes, endings, timed events and every move between them.

    ``merge``: many arrows between the same two boxes become one (for drawing); simulate's
    explanations take every move with its action and condition (``merge=False``)."""
    nodes: dict[str, GNode] = {}
    for i, n in enumerate(story.nodes.values()):
        nodes[n.id] = GNode(
            f"n{i}",
            n.id,
            n.title or n.id,
            n.kind,
            scene=n.scene,
            start=n.id == story.start,
            info=_node_info(n),
        )
    for i, e in enumerate(story.endings.values()):
        nodes[e.id] = GNode(
            f"e{i}",
            e.id,
            e.title or e.id,
            "ending",
            ending_kind=e.kind,
            info={
                "id": e.id,
                "title": e.title,
                "kind": "ending",
                "ending": e.kind,
                "narration": _lines(e.narration),
            },
        )
    edges: list[Edge] = []
    for n in story.nodes.values():
        for _k, t, conds in moves(n.on_enter):
            edges.append(Edge(n.id, t, "(enter)", cond_text(conds), "enter"))
        for a in n.actions:
            seen: set[tuple[str, str]] = set()
            for _k, t, conds in action_moves(a):
                cond = cond_text(conds)
                if (t, cond) in seen:
                    continue
                seen.add((t, cond))
                edges.append(Edge(n.id, t, a.label or a.id, cond, "action", a.id))
        for t in dict.fromkeys(_props_moves(n.props)):
            edges.append(Edge(n.id, t, "(rules)", "", "rules"))
    for i, ev in enumerate(story.events):
        key = "@" + ev.id
        when = unparse(ev.when) if ev.when is not None else ""
        at = f"{ev.at} min" if ev.at is not None else ""
        label = (
            "⏰ "
            + ev.id
            + (f"\n{at}" if at else "")
            + (f"\nif {shorten(when, 28)}" if when else "")
        )
        nodes[key] = GNode(
            f"t{i}",
            key,
            label,
            "event",
            info={
                "id": ev.id,
                "title": f"⏰ {ev.id}",
                "kind": "event",
                "at": ev.at,
                "when": when,
                "repeat": ev.repeat,
                "effects": [describe_effect(e) for e in ev.effects],
            },
        )
        for _k, t, conds in moves(ev.effects):
            edges.append(Edge(key, t, "", cond_text(conds), "event"))
    # Endings the rule system fires (declared in ``options: endings:``, docs/rules-api.md)
    # are reached by the rules, from anywhere: one box for the rules, a dashed arrow to each.
    ends = story.options.get("endings") if isinstance(story.options, dict) else None
    fired = [t for t in (ends or {}).values() if isinstance(t, str) and t in story.endings]
    if fired and isinstance(ends, dict):
        label = f"⚙ {story.rules}"
        nodes["@rules"] = GNode(
            "r0",
            "@rules",
            label,
            "event",
            info={
                "id": "rules",
                "title": label,
                "kind": "event",
                "at": None,
                "when": "",
                "repeat": False,
                "effects": [f"end: {t}" for t in dict.fromkeys(fired)],
            },
        )
        for key, t in ends.items():
            if isinstance(t, str) and t in story.endings:
                edges.append(Edge("@rules", t, str(key), "", "rules"))
    kept = [e for e in edges if e.dst in nodes]
    return Graph(story.title, story.start, nodes, merge_parallel(kept) if merge else kept)


def merge_parallel(edges: list[Edge], keep: int = MAX_PARALLEL) -> list[Edge]:
    """The arrows, with more than ``keep`` between the same two boxes drawn as one: a node
    with 20,000 actions to one place is one arrow, not 20,000 for Graphviz to route."""
    count: dict[tuple[str, str], int] = {}
    for e in edges:
        count[(e.src, e.dst)] = count.get((e.src, e.dst), 0) + 1
    if all(n <= keep for n in count.values()):
        return edges
    out: list[Edge] = []
    done: set[tuple[str, str]] = set()
    for e in edges:
        pair = (e.src, e.dst)
        n = count[pair]
        if n <= keep:
            out.append(e)
        elif pair not in done:
            done.add(pair)
            out.append(Edge(e.src, e.dst, f"{n} moves", "", e.kind))
    return out


def scene_graph(g: Graph) -> Graph:
    """One box per scene (and per ending), edges counted between them: a map of a large story."""
    scene_of: dict[str, str] = {}
    nodes: dict[str, GNode] = {}
    counts: dict[str, int] = {}
    for gn in g.nodes.values():
        if gn.kind in ("ending", "event"):
            continue
        s = gn.scene or "(main)"
        scene_of[gn.id] = s
        counts[s] = counts.get(s, 0) + 1
    for i, s in enumerate(sorted(counts)):
        is_start = scene_of.get(g.start) == s
        nodes[s] = GNode(
            f"s{i}",
            s,
            f"{s}\n{counts[s]} nodes",
            "scene",
            start=is_start,
            info={
                "id": s,
                "title": s,
                "kind": "scene",
                "nodes": sorted(k for k, v in scene_of.items() if v == s)[:500],
            },
        )
    for gn in g.nodes.values():
        if gn.kind in ("ending", "event"):
            nodes[gn.id] = gn
            scene_of[gn.id] = gn.id
    agg: dict[tuple[str, str], int] = {}
    for e in g.edges:
        a, b = scene_of.get(e.src), scene_of.get(e.dst)
        if a is None or b is None or a == b:
            continue
        agg[(a, b)] = agg.get((a, b), 0) + 1
    edges = [
        Edge(a, b, f"{n} moves" if n > 1 else "1 move", "", "scene") for (a, b), n in agg.items()
    ]
    start = scene_of.get(g.start, g.start)
    return Graph(
        g.title,
        start,
        nodes,
        edges,
        collapsed=True,
        note=f"{sum(counts.values())} nodes drawn as {len(counts)} scenes",
    )


def too_large(g: Graph, limit: int = LAYOUT_LIMIT) -> bool:
    return len(g.nodes) > limit or len(g.edges) > max(EDGE_LIMIT, limit // 2)


def _size(g: Graph) -> str:
    n, m = len(g.nodes), len(g.edges)
    return f"{n} boxes" + (f" and {m} arrows" if m > max(EDGE_LIMIT, n) else "")


def for_layout(g: Graph, limit: int = LAYOUT_LIMIT) -> Graph | None:
    """The graph to draw: itself, its scene map if it is too large, or None if neither fits."""
    if not too_large(g, limit):
        return g
    s = scene_graph(g)
    scenes = sum(1 for n in s.nodes.values() if n.kind == "scene")
    if scenes > 1 and not too_large(s, limit):
        return s
    return None


# ----------------------------------------------------------------- DOT / SVG


def _dq(s: str) -> str:
    """A DOT double-quoted string (backslashes, quotes and newlines escaped)."""
    s = str(s).replace("\\", "\\\\").replace('"', '\\"')
    s = s.replace("\r", "").replace("\n", "\\n")
    return f'"{s}"'


def _edge_label(e: Edge) -> str:
    parts = []
    if e.label:
        parts.append(shorten(e.label, 24))
    if e.cond:
        parts.append("[" + shorten(e.cond, 30) + "]")
    return "\n".join(parts)


def _node_attrs(gn: GNode) -> str:
    if gn.kind == "ending":
        colour = ENDING_COLOUR.get(gn.ending_kind, "#e6e6e6")
        font = "#ffffff" if gn.ending_kind == "death" else "#000000"
        label = f"{gn.label}\n({gn.ending_kind})"
        attrs = f'shape=doubleoctagon, style=filled, fillcolor="{colour}", fontcolor="{font}"'
    elif gn.kind == "event":
        label = gn.label
        attrs = 'shape=note, style="filled,dashed", fillcolor="#fffbe6"'
    elif gn.key[0] == "s":
        label = gn.label
        attrs = 'shape=folder, style=filled, fillcolor="#eef3ff"'
    else:
        shape, colour = KIND_SHAPE.get(gn.kind, ("box", "#ffffff"))
        label = gn.label if gn.label == gn.id else f"{gn.label}\n{gn.id}"
        style = "rounded,filled" if gn.kind == "scene" else "filled"
        attrs = f'shape={shape}, style="{style}", fillcolor="{colour}"'
    if gn.start:
        label = "▶ " + label
        attrs += ", penwidth=2.5"
    return f"{attrs}, label={_dq(label)}, id={_dq('k' + gn.key)}, tooltip={_dq(gn.id)}"


def to_dot(g: Graph, *, clusters: bool = True) -> str:
    """Graphviz DOT text; nodes grouped by scene when the story has more than one."""
    out = [
        "digraph story {",
        f'  graph [rankdir=LR, fontname="sans-serif", label={_dq(g.title + (" — " + g.note if g.note else ""))}, '
        "labelloc=t, nodesep=0.3, ranksep=0.5];",
        '  node [fontname="sans-serif", fontsize=11];',
        '  edge [fontname="sans-serif", fontsize=9, color="#555555"];',
    ]
    scenes: dict[str, list[GNode]] = {}
    for gn in g.nodes.values():
        # Only story nodes (keys n…) belong to a scene; endings and events float outside.
        scenes.setdefault(gn.scene if clusters and gn.key[0] == "n" else "", []).append(gn)
    use_clusters = len(scenes) > 1
    for ci, (scene, members) in enumerate(scenes.items()):
        indent = "  "
        if use_clusters and scene:
            out.append(f"  subgraph cluster_{ci} {{")
            out.append(f'    label={_dq(scene)}; style="rounded,dashed"; color="#8899bb";')
            indent = "    "
        for gn in members:
            out.append(f"{indent}{gn.key} [{_node_attrs(gn)}];")
        if use_clusters and scene:
            out.append("  }")
    keys = {k: gn.key for k, gn in g.nodes.items()}
    for e in g.edges:
        attrs = [f"label={_dq(_edge_label(e))}"] if _edge_label(e) else []
        if e.kind in ("event", "rules"):
            attrs.append("style=dashed")
        if e.kind == "enter":
            attrs.append("style=bold")
        if e.cond:
            attrs.append(f"tooltip={_dq(e.cond)}")
        out.append(
            f"  {keys[e.src]} -> {keys[e.dst]}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";"
        )
    out.append("}")
    return "\n".join(out) + "\n"


def render_svg(dot_text: str, *, timeout: float = DOT_TIMEOUT) -> str:
    """Lays the graph out with Graphviz's ``dot`` and returns the SVG text.

    ``dot`` runs in a process group of its own, with a CPU-time limit and (on Linux) the
    order to die with Katari; after ``timeout`` seconds, or on any interruption, the group is
    killed and reaped, so no layout is left running. Raises :class:`LayoutTimeout`."""
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizMissing(
            "graphviz is not installed: install it (apt install graphviz, "
            "brew install graphviz, or https://graphviz.org/download/) "
            "or use --format mermaid / dot"
        )
    posix = os.name == "posix"
    extra: dict[str, Any] = (
        {"start_new_session": True, "preexec_fn": _child_limits(timeout)} if posix else {}
    )
    proc = subprocess.Popen(
        [exe, "-Tsvg"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **extra,
    )
    try:
        out, err = proc.communicate(dot_text.encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        raise LayoutTimeout(
            f"Graphviz took longer than {timeout:g} s to lay the map out and was stopped: "
            "the map is too tangled to draw; use --format html for a searchable list "
            "(it falls back to one), --format dot or mermaid, or add scene: to nodes"
        ) from None
    except BaseException:
        _stop(proc)
        raise
    if proc.returncode != 0:
        raise RuntimeError("dot failed: " + err.decode("utf-8", "replace").strip()[:500])
    return out.decode("utf-8", "replace")


def _child_limits(timeout: float) -> Any:
    """What ``dot`` sets up before it starts (POSIX): a CPU-time limit a little above the
    timeout, and, on Linux, SIGKILL when its parent dies (even by SIGKILL)."""
    cpu = int(timeout) + 5

    def setup() -> None:
        import resource
        import signal

        try:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        except (ValueError, OSError):
            pass
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
            except (OSError, AttributeError):
                pass

    return setup


def _stop(proc: subprocess.Popen) -> None:
    """Kills ``dot`` and anything it started, and reaps it."""
    import signal

    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover
            proc.kill()
    except OSError:
        pass
    for f in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if f is not None:
                f.close()
        except OSError:
            pass
    proc.wait()


# ----------------------------------------------------------------- Mermaid


def _mq(s: str) -> str:
    """Text inside a Mermaid ``"..."`` label: quotes and markup as entity codes."""
    s = (
        str(s)
        .replace("&", "#amp;")
        .replace('"', "#quot;")
        .replace("<", "#lt;")
        .replace(">", "#gt;")
    )
    s = s.replace("\r", "").replace("\n", "<br/>")
    return s.replace("|", "#124;").replace("`", "#96;")


def to_mermaid(g: Graph) -> str:
    """A Mermaid flowchart for pasting into Markdown (```mermaid)."""
    out = ["flowchart LR"]
    scenes: dict[str, list[GNode]] = {}
    for gn in g.nodes.values():
        scenes.setdefault(gn.scene if gn.key[0] == "n" else "", []).append(gn)
    use_sub = len(scenes) > 1

    def box(gn: GNode) -> str:
        label = gn.label if gn.key[0] != "n" or gn.label == gn.id else f"{gn.label}\n{gn.id}"
        if gn.start:
            label = "▶ " + label
        t = _mq(label)
        if gn.kind == "ending":
            return f'{gn.key}(["{t}"]):::end_{gn.ending_kind}'
        if gn.kind == "check":
            return f'{gn.key}{{"{t}"}}'
        if gn.kind == "combat":
            return f'{gn.key}{{{{"{t}"}}}}'
        if gn.kind == "event":
            return f'{gn.key}>"{t}"]:::event'
        if gn.kind == "scene":
            return f'{gn.key}("{t}")'
        return f'{gn.key}["{t}"]'

    for si, (scene, members) in enumerate(scenes.items()):
        ind = "  "
        if use_sub and scene:
            out.append(f'  subgraph sc{si} ["{_mq(scene)}"]')
            ind = "    "
        for gn in members:
            out.append(ind + box(gn))
        if use_sub and scene:
            out.append("  end")
    keys = {k: gn.key for k, gn in g.nodes.items()}
    for e in g.edges:
        lab = _edge_label(e)
        arrow = "-.->" if e.kind in ("event", "rules") else "-->"
        out.append(
            f"  {keys[e.src]} {arrow}" + (f'|"{_mq(lab)}"|' if lab else "") + f" {keys[e.dst]}"
        )
    for kind, colour in ENDING_COLOUR.items():
        font = ",color:#fff" if kind == "death" else ""
        out.append(f"  classDef end_{kind} fill:{colour}{font}")
    out.append("  classDef event fill:#fffbe6,stroke-dasharray:3 3")
    return "\n".join(out) + "\n"


# ----------------------------------------------------------------- HTML


def _json_for_script(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no ``<!--``)."""
    s = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        s.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _svg_body(svg: str) -> str:
    """Drops the XML declaration, DOCTYPE and comments Graphviz writes before ``<svg``."""
    i = svg.find("<svg")
    return svg[i:] if i >= 0 else ""


def to_html(g: Graph, svg: str | None, *, lang: str = "ja") -> str:
    """One self-contained page: the map (inline SVG) with zoom, pan and a side panel.

    With ``svg`` None (a story too large to lay out) the page lists the nodes instead.
    """
    data: dict[str, Any] = {
        "title": g.title,
        "start": g.start,
        "collapsed": g.collapsed,
        "note": g.note,
        "lang": lang,
        "nodes": {},
    }
    for gn in g.nodes.values():
        info = dict(gn.info) if gn.info else {"id": gn.id, "title": gn.label, "kind": gn.kind}
        info["key"] = gn.key
        info.setdefault("id", gn.id)
        data["nodes"]["k" + gn.key] = info
    start_key = "k" + g.nodes[g.start].key if g.start in g.nodes else ""
    data["startKey"] = start_key
    t = _T[lang if lang in _T else "en"]
    body = (
        _svg_body(svg)
        if svg
        else f'<p class="nolayout">{html.escape(t["nolayout"])}</p><ul id="list"></ul>'
    )
    values = {
        "LANG": html.escape(lang),
        "TITLE": html.escape(g.title),
        "MAPOF": html.escape(t["map"]),
        "NOTE": html.escape(g.note),
        "HELP": html.escape(t["help"]),
        "SEARCH": html.escape(t["search"]),
        "PICK": html.escape(t["pick"]),
        "COUNTS": html.escape(
            t["counts"].format(
                n=sum(1 for x in g.nodes.values() if x.kind not in ("ending", "event")),
                e=sum(1 for x in g.nodes.values() if x.kind == "ending"),
                m=len(g.edges),
            )
        ),
        "DATA": _json_for_script(data),
        "SVG": body,
    }
    # One pass: text put into a slot is never scanned again, whatever the story says.
    return re.sub(r"\{\{([A-Z]+)\}\}", lambda m: values[m.group(1)], _page())


@functools.cache
def _page() -> str:
    """The page's HTML, CSS and script with ``{{SLOT}}`` holes: graph_page.html, package data."""
    return (
        importlib.resources.files("runner.authoring")
        .joinpath("graph_page.html")
        .read_text(encoding="utf-8")
    )


_T = {
    "ja": {
        "map": "ストーリーマップ",
        "help": "ホイールで拡大縮小、ドラッグで移動、クリックで詳細。",
        "search": "ノードを検索（id・題名）",
        "pick": "ノードをクリックすると、語り・GMメモ・行動が出ます。",
        "counts": "ノード {n}・エンディング {e}・移動 {m}",
        "nolayout": "ノードが多すぎて配置図を描けません。一覧から選ぶか、scene: でまとめてください。",
    },
    "en": {
        "map": "story map",
        "help": "Wheel to zoom, drag to pan, click a box for details.",
        "search": "find a node (id or title)",
        "pick": "Click a node to see its narration, keeper notes and actions.",
        "counts": "{n} nodes · {e} endings · {m} moves",
        "nolayout": "Too many nodes to lay out; pick one from the list, or group nodes with scene:.",
    },
}


def render(
    story: Story,
    fmt: str,
    *,
    limit: int = LAYOUT_LIMIT,
    full: bool = False,
    lang: str = "ja",
    timeout: float = DOT_TIMEOUT,
) -> tuple[str, str]:
    """The map of ``story`` in ``fmt`` (svg, dot, mermaid, html) and a note for the author.

    Raises :class:`GraphvizMissing` for svg/html without Graphviz, and ValueError for an
    SVG of a story too large to lay out.
    """
    g = build(story)
    note = ""
    drawn: Graph | None = g
    size = _size(g)
    if not full and too_large(g, limit):
        drawn = for_layout(g, limit)
        if drawn is not None:
            note = f"{size} is too many to draw one by one: drawing {drawn.note}."
        elif fmt in ("dot", "mermaid"):
            drawn = g
            note = (
                f"{size} and no scenes to group them: the {fmt} text is complete "
                "but too large to render well; add scene: to nodes or split the story into files."
            )
    if fmt == "dot":
        assert drawn is not None
        return to_dot(drawn), note
    if fmt == "mermaid":
        assert drawn is not None
        return to_mermaid(drawn), note
    if fmt == "svg":
        if drawn is None:
            raise ValueError(
                f"{size} is too many to lay out and the story has no "
                "scenes to group them; use --format html (a searchable list), "
                "--format dot, or add scene: to nodes"
            )
        return render_svg(to_dot(drawn), timeout=timeout), note
    if fmt == "html":
        if drawn is None:
            note = f"{size} is too many to lay out: the page lists them instead."
            return to_html(g, None, lang=lang), note
        try:
            svg = render_svg(to_dot(drawn), timeout=timeout)
        except LayoutTimeout:
            note = f"Graphviz took longer than {timeout:g} s to lay the map out: the page lists them instead."
            return to_html(g, None, lang=lang), note
        return to_html(drawn, svg, lang=lang), note
    raise ValueError(f"unknown format {fmt!r}")
