"""A story's ``version`` and its ``migrations:``: renames that map old saves and command logs
onto the story as it is now.

```yaml
story: {id: harbour, version: 3, ...}
migrations:
  - version: 2                  # made in version 2: saves of version 1 (or none) need it
    nodes: {cellar: basement}   # old id: new id (endings too)
    variables: {gold: coins}
    items: {key: brass_key}
  - version: 3
    actions: {basement.open: unlock, hide: duck}  # node.old: new (node as named now), or old: new anywhere
```

A save records the version of the story it was made with; loading it on a changed story
replays its commands (see :func:`runner.ui.files.resume`), renamed by every migration made
after that version, in order. Nothing here imports anything outside the standard library.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

_VERSION = re.compile(r"^\d+(\.\d+)*$")
KINDS = ("nodes", "variables", "items", "actions")


class Migration(NamedTuple):
    version: str
    """The story version that made these renames ("" : every save of a changed story)."""
    nodes: dict[str, Any]
    variables: dict[str, Any]
    items: dict[str, Any]
    actions: dict[str, Any]
    """``"node.old": "new"`` (the node as named now) or ``"old": "new"`` (in every node)."""


def version_key(v: Any) -> tuple[int, ...] | None:
    """``3`` -> (3,), ``"1.2"`` -> (1, 2); None for anything else (or nothing)."""
    if v is None or isinstance(v, bool):
        return None
    s = str(v).strip()
    return tuple(int(x) for x in s.split(".")) if _VERSION.match(s) else None


def version_text(v: Any) -> str:
    return "" if v is None else str(v).strip()


def read(
    chk: Any,
    meta: Any,
    sections: list[Any],
    nodes: dict[str, Any],
    endings: dict[str, Any],
    variables: dict[str, Any],
    items: dict[str, Any],
) -> tuple[str, tuple[Migration, ...]]:
    """The story's version and migrations, every mistake reported through the loader's
    checker ``chk`` (K050 a version, K051 the shape of a migration, K052 a name it renames to
    that the story does not have)."""
    version = ""
    if "version" in meta:
        raw = meta["version"]
        if version_key(raw) is None:
            chk.err(
                chk.vpos(meta, "version"),
                f"story version {raw!r}: a number such as 3 or 1.2",
                "K050",
            )
        else:
            version = version_text(raw)
    out: list[Migration] = []
    where = {"nodes": set(nodes) | set(endings), "variables": set(variables), "items": set(items)}
    for name, val, data in sections:
        chk.file = name
        if not isinstance(val, list):
            chk.err(
                chk.vpos(data, "migrations"),
                "'migrations' must be a list of {version, nodes, variables, items, actions}",
                "K051",
            )
            continue
        for i, m in enumerate(val):
            mpos = chk.ipos(val, i)
            if not isinstance(m, dict):
                chk.err(
                    mpos,
                    "a migration must be a mapping such as {version: 2, nodes: {old: new}}",
                    "K051",
                )
                continue
            chk.unknown_keys(m, {"version", *KINDS}, "a migration")
            mv = ""
            if "version" in m:
                if version_key(m["version"]) is None:
                    chk.err(
                        chk.vpos(m, "version"),
                        f"migration version {m['version']!r}: a number such as 3 or 1.2",
                        "K050",
                    )
                else:
                    mv = version_text(m["version"])
                    if version and version_key(mv) > version_key(version):  # type: ignore[operator]  # both read as versions above
                        chk.err(
                            chk.vpos(m, "version"),
                            f"migration version {mv} is newer than the story's version {version}",
                            "K050",
                        )
            maps: dict[str, dict[str, Any]] = {}
            for kind in KINDS:
                spec = m.get(kind)
                if spec is None:
                    maps[kind] = {}
                    continue
                if not isinstance(spec, dict):
                    chk.err(chk.vpos(m, kind), f"migration {kind!r}: a mapping of old: new", "K051")
                    maps[kind] = {}
                    continue
                pairs = {}
                for old, new in spec.items():
                    if not isinstance(new, str) or not new or not isinstance(old, str):
                        chk.err(
                            chk.vpos(spec, old),
                            f"migration {kind!r}: {old!r} must map to a new name",
                            "K051",
                        )
                        continue
                    if kind == "actions":
                        node, _, _aid = old.rpartition(".")
                        holders = (
                            [nodes[node]]
                            if node in nodes
                            else list(nodes.values())
                            if not node
                            else []
                        )
                        if node and node not in nodes:
                            chk.err(
                                chk.kpos(spec, old),
                                f"migration actions: no node {node!r} (name the node as it is now)",
                                "K052",
                            )
                        elif not any(a.id == new for n in holders for a in n.actions):
                            chk.err(
                                chk.vpos(spec, old),
                                f"migration actions: no action {new!r}"
                                + (f" in node {node!r}" if node else " in any node"),
                                "K052",
                            )
                    elif new not in where[kind]:
                        what = {
                            "nodes": "node or ending",
                            "variables": "variable",
                            "items": "item",
                        }[kind]
                        chk.err(
                            chk.vpos(spec, old),
                            f"migration {kind}: {old!r} becomes {new!r}, but "
                            f"the story has no {what} {new!r}",
                            "K052",
                        )
                    pairs[old] = new
                maps[kind] = pairs
            out.append(
                Migration(mv, maps["nodes"], maps["variables"], maps["items"], maps["actions"])
            )
    out.sort(key=lambda m: version_key(m.version) or ())
    return version, tuple(out)


# -- applying them -----------------------------------------------------------------


def pending(story: Any, since: str | None) -> list[Migration]:
    """The migrations a save or log made with story version ``since`` needs (all of them
    when it has none), oldest first."""
    migs = getattr(story, "migrations", ()) or ()
    key = version_key(since) if since else None
    return [m for m in migs if key is None or not m.version or key < (version_key(m.version) or ())]


def _name(migs: list[Migration], kind: str, name: str) -> str:
    for m in migs:
        name = getattr(m, kind).get(name, name)
    return name


def command(migs: list[Migration], node: str, text: str) -> str:
    """A command as typed: an old action id becomes the new one (in ``node``, as named now)."""
    for m in migs:
        if not m.actions:
            continue
        new = m.actions.get(f"{node}.{text}") or m.actions.get(text)
        if new is not None:
            text = new
    return text


def state(migs: list[Migration], d: dict[str, Any]) -> dict[str, Any]:
    """A saved State (``State.to_dict()``) with old names renamed, to compare with a replay."""
    if not migs:
        return d
    d = dict(d)

    def node(n: Any) -> Any:
        return _name(migs, "nodes", n) if isinstance(n, str) else n

    d["node"] = node(d.get("node"))
    d["ending"] = node(d.get("ending"))
    d["vars"] = {_name(migs, "variables", k): v for k, v in (d.get("vars") or {}).items()}
    d["inventory"] = {_name(migs, "items", k): v for k, v in (d.get("inventory") or {}).items()}
    d["visits"] = {node(k): v for k, v in (d.get("visits") or {}).items()}
    done = {}
    for k, v in (d.get("done") or {}).items():
        n, _, a = str(k).partition(".")
        n = node(n)
        done[f"{n}.{command(migs, n, a)}"] = v
    d["done"] = done
    return d
