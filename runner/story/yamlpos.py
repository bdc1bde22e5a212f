"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

from typing import Any

import yaml

try:  # the C parser is several times faster on large stories
    _Base = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class Map(dict):
    """A dict that knows the position of itself, its keys and its values (1-based)."""

    __slots__ = ("pos", "kpos", "vpos")

    def __init__(self) -> None:
        super().__init__()
        self.pos: tuple[int, int] = (1, 1)
        self.kpos: dict[Any, tuple[int, int]] = {}
        self.vpos: dict[Any, tuple[int, int]] = {}


class Seq(list):
    __slots__ = ("pos", "ipos")

    def __init__(self) -> None:
        super().__init__()
        self.pos: tuple[int, int] = (1, 1)
        self.ipos: list[tuple[int, int]] = []


class DuplicateKey(Exception):
    def __init__(self, key: Any, pos: tuple[int, int]) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key = key
        self.pos = pos


class _Loader(_Base):  # type: ignore[misc, valid-type]
    dups: list[tuple[Any, tuple[int, int]]]


def _pos(node: yaml.Node) -> tuple[int, int]:
    m = node.start_mark
    return (m.line + 1, m.column + 1)


def _map(loader: _Loader, node: yaml.MappingNode) -> Map:
    m = Map()
    m.pos = _pos(node)
    loader.flatten_mapping(node)
    kpos, vpos = m.kpos, m.vpos
    construct = loader.construct_object
    for k_node, v_node in node.value:
        key = construct(k_node, deep=True)
        try:
            hash(key)
        except TypeError:
            key = str(key)
        if key in m:
            loader.dups.append((key, _pos(k_node)))
        m[key] = construct(v_node, deep=True)
        km = k_node.start_mark
        kpos[key] = (km.line + 1, km.column + 1)
        vm = v_node.start_mark
        vpos[key] = (vm.line + 1, vm.column + 1)
    return m


def _seq(loader: _Loader, node: yaml.SequenceNode) -> Seq:
    s = Seq()
    s.pos = _pos(node)
    construct = loader.construct_object
    for item in node.value:
        s.append(construct(item, deep=True))
        im = item.start_mark
        s.ipos.append((im.line + 1, im.column + 1))
    return s


_Loader.add_constructor("tag:yaml.org,2002:map", _map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _seq)


def load(text: str) -> tuple[Any, list[tuple[Any, tuple[int, int]]]]:
    """Loads one YAML document; returns the data and any duplicate keys with positions.

    Raises ``yaml.YAMLError`` (with ``problem_mark``) on malformed YAML."""
    loader = _Loader(text)
    loader.dups = []
    try:
        data = loader.get_single_data()
    finally:
        loader.dispose()
    return data, loader.dups
