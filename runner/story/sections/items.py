"""``items:``: each item's name, description and rule data."""

from __future__ import annotations

from runner.story.checker import Checker
from runner.story.model import Item
from runner.story.sections import Entries


def read_items(chk: Checker, entries: Entries) -> dict[str, Item]:
    items: dict[str, Item] = {}
    for name, val, data in entries:
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
                items[str(iid)] = Item(
                    str(iid),
                    str(spec.get("name", iid)),
                    str(spec.get("description", "")),
                    chk.plain(spec.get("props") or {}, chk.vpos(spec, "props")),
                )
            else:
                chk.err(chk.vpos(val, iid), f"item {iid!r} must be a name or a mapping", "K001")
    chk.items = set(items)
    return items
