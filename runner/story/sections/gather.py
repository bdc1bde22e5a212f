"""Every file's top-level sections, merged, each entry remembering which file it came from."""

from __future__ import annotations

from typing import Any

from runner.story.checker import Checker, closest, is_rules
from runner.story.keys import TOP_KEYS
from runner.story.located import Map


def gather(
    chk: Checker, docs: list[tuple[str, Any]]
) -> tuple[Map | None, str, dict[str, list[tuple[str, Any, Any]]], dict[str, Any]]:
    """(the ``story`` section, its file, the other sections' entries by name, rule sections)."""
    meta: Map | None = None
    meta_file = ""
    sections: dict[str, list[tuple[str, Any, Any]]] = {k: [] for k in TOP_KEYS}
    extra: dict[str, Any] = {}
    for name, data in docs:
        chk.file = name
        for key, val in data.items():
            if key == "story":
                if meta is not None:
                    chk.err(
                        chk.kpos(data, key),
                        f"a second 'story' section (the first is in {meta_file})",
                        "K004",
                    )
                    continue
                meta, meta_file = val, name
            elif key in TOP_KEYS:
                sections[key].append((name, val, data))
            elif is_rules(str(key)):
                extra[key] = val  # a rule system's own section (its name), for its hooks
            else:
                near = closest(str(key), TOP_KEYS)
                hint = f" (did you mean {near!r}?)" if near else ""
                chk.err(chk.kpos(data, key), f"unknown section {key!r}{hint}", "K002")
    return meta, meta_file, sections, extra
