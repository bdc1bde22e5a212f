"""Reading the story and the state without depending on their exact classes.

The engine hands hooks a frozen ``Story`` object; tests and ``validate`` hand plain dicts.
These helpers read either (attribute first, then mapping key) so the rule system works
with both, and keep every UREG field of the state in one place.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from runner.rules.ureg.items import CATALOGUE, ItemInfo, by_name

KEY = "ureg"


@functools.cache
def _is_mapping(t: Any) -> bool:
    # isinstance(obj, Mapping) asked once per class: the ABC check is slow, and get()
    # runs on every read of the story and the state.
    return issubclass(t, Mapping)


def get(obj: Any, key: str, default: Any = None) -> Any:
    if obj is None:
        return default
    if _is_mapping(type(obj)):  # type: ignore[arg-type]  # mypy: type[Any] is not Hashable
        return obj.get(key, default)
    return getattr(obj, key, default)


def as_dict(obj: Any) -> dict[str, Any]:
    """Plain dict view of a mapping or a simple object (``props`` and the like)."""
    if obj is None:
        return {}
    if _is_mapping(type(obj)):  # type: ignore[arg-type]  # mypy: type[Any] is not Hashable
        return dict(obj)
    if hasattr(obj, "__dict__"):
        return dict(vars(obj))
    return {}


def _meta(story: Any) -> Any:
    for k in ("meta", "story", "info"):
        m = get(story, k)
        if m is not None and not isinstance(m, str):
            return m
    return story


def options(story: Any) -> dict[str, Any]:
    """The story's ``options`` (rule-system settings)."""
    o = get(story, "options")
    if o is None:
        o = get(_meta(story), "options")
    return as_dict(o)


def start_node(story: Any) -> str | None:
    result: str | None = get(story, "start") or get(_meta(story), "start")
    return result


def section(story: Any, name: str) -> dict[str, Any]:
    return as_dict(get(story, name))


def _entry(story: Any, name: str, key: str) -> Any:
    """``section(story, name).get(key)`` without copying the whole section."""
    sec = get(story, name)
    if type(sec) is dict:
        return sec.get(key)
    return as_dict(sec).get(key)


def node(story: Any, node_id: str | None) -> Any:
    return _entry(story, "nodes", node_id) if node_id else None


def node_props(story: Any, node_id: str | None) -> dict[str, Any]:
    return as_dict(get(node(story, node_id), "props"))


def rules(state: Any) -> dict[str, Any]:
    """The UREG part of ``state.rules`` for writing, created on first use."""
    r = get(state, "rules")
    if r is None:
        r = {}
        try:
            state.rules = r
        except AttributeError:
            pass
    result: dict[str, Any] = r.setdefault(KEY, {})
    return result


def peek_rules(state: Any) -> Mapping[str, Any]:
    """The UREG part of ``state.rules`` for reading: never creates it (an empty mapping when
    the game has none yet). Pure hooks read through this, because the engine may run them on
    data still shared with the previous state."""
    r = get(state, "rules")
    return (r.get(KEY) if r else None) or {}


def stats(state: Any) -> dict[str, Any]:
    s = get(state, "stats")
    if s is None:
        s = {}
        state.stats = s
    result: dict[str, Any] = s
    return result


def inventory(state: Any) -> dict[str, Any]:
    inv = get(state, "inventory")
    if inv is None:
        inv = {}
        state.inventory = inv
    result: dict[str, Any] = inv
    return result


def held(state: Any) -> list[str]:
    return [k for k, n in inventory(state).items() if n]


# ---- items: a story item, its catalogue entry and merged properties ----


def story_item(story: Any, item_id: str) -> Any:
    return _entry(story, "items", item_id)


def memo(story: Any, kind: str) -> dict[Any, Any] | None:
    """A table of what ureg works out from an engine ``Story`` (which never changes), kept in
    the story's own cache; None for a plain-dict story (tests and ``validate`` hand those,
    and may change them), which is worked out afresh each time. Kept because it was measured
    (docs/architecture.md): the item tables below are worth 6-7% of window-room games/s."""
    cache = getattr(story, "cache", None)
    if type(cache) is not dict:
        return None
    table = cache.get(("ureg", kind))
    if table is None:
        table = cache[("ureg", kind)] = {}
    return table


_MISSING = object()


def catalogue_entry(story: Any, item_id: str) -> ItemInfo | None:
    """A story item names its catalogue entry by ``props.ureg``, by its id, or by its name."""
    table = memo(story, "catalogue")
    if table is None:
        return _catalogue_entry(story, item_id)
    hit = table.get(item_id, _MISSING)
    if hit is _MISSING:
        hit = table[item_id] = _catalogue_entry(story, item_id)
    result: ItemInfo | None = hit
    return result


def _catalogue_entry(story: Any, item_id: str) -> ItemInfo | None:
    source = (getattr(story, "cache", None) or {}).get("_source")
    if source is not None:  # a translation: the story as written names the entry
        return _catalogue_entry(source, item_id)
    it = story_item(story, item_id)
    props = as_dict(get(it, "props"))
    ref = props.get("ureg")
    if isinstance(ref, str) and ref in CATALOGUE:
        return CATALOGUE[ref]
    if item_id in CATALOGUE:
        return CATALOGUE[item_id]
    name = get(it, "name")
    if isinstance(name, str):
        return by_name(name)
    return None


def item_props(story: Any, item_id: str) -> dict[str, Any]:
    """Catalogue properties overlaid with the story's own ``props``. For an engine story the
    same dict is handed to every caller: read it, never change it."""
    table = memo(story, "props")
    if table is None:
        return _item_props(story, item_id)
    hit = table.get(item_id)
    if hit is None:
        hit = table[item_id] = _item_props(story, item_id)
    return hit


def _item_props(story: Any, item_id: str) -> dict[str, Any]:
    cat = catalogue_entry(story, item_id)
    merged = dict(cat.props) if cat else {}
    merged.update(as_dict(get(story_item(story, item_id), "props")))
    return merged


def item_name(story: Any, item_id: str, lang: str = "ja") -> str:
    table = memo(story, "name")
    if table is None:
        return _item_name(story, item_id, lang)
    hit = table.get((item_id, lang))
    if hit is None:
        hit = table[(item_id, lang)] = _item_name(story, item_id, lang)
    return hit


def _item_name(story: Any, item_id: str, lang: str) -> str:
    it = story_item(story, item_id)
    name = get(it, "name")
    cat = catalogue_entry(story, item_id)
    if lang == "en" and not str(get(story, "language") or "").startswith("en"):
        return (
            get(it, "name_en")
            or as_dict(get(it, "props")).get("name_en")
            or (cat.name_en if cat else None)
            or name
            or item_id
        )
    # The story's own language (a translation's too): its own name first.
    return name or ((cat.name_en if lang == "en" else cat.name) if cat else item_id)


def item_words(story: Any, item_id: str) -> list[str]:
    """Every word that names the item: id, names, story aliases, catalogue aliases."""
    words = [item_id, item_name(story, item_id, "ja"), item_name(story, item_id, "en")]
    it = story_item(story, item_id)
    props = as_dict(get(it, "props"))
    words += list(get(it, "aliases") or []) + list(props.get("aliases") or [])
    if props.get("name_en"):
        words.append(props["name_en"])
    cat = catalogue_entry(story, item_id)
    if cat:
        words += [cat.name, cat.name_en, *cat.aliases]
    return [w for w in dict.fromkeys(words) if isinstance(w, str) and w]


def characters(story: Any) -> dict[str, Any]:
    return section(story, "characters")
