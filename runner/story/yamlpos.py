"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

import re
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


# YAML 1.2 core schema, as yaml-rs reads it: `no`, `on` and `10:00` stay text (YAML 1.1
# would make them false, true and 600), so both loaders agree on every story.
_Loader.yaml_implicit_resolvers = {}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def _int12(loader: _Loader, node: yaml.ScalarNode) -> int:
    v = loader.construct_scalar(node)
    if v.startswith("0o"):
        return int(v[2:], 8)
    if v.startswith("0x"):
        return int(v[2:], 16)
    return int(v)


_Loader.add_constructor("tag:yaml.org,2002:int", _int12)


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


try:  # a Rust parser, 20x faster than PyYAML's C loader on large stories (no positions)
    import yaml_rs as _yaml_rs
except ImportError:  # pragma: no cover - the fallback is exercised where the wheel is missing
    _yaml_rs = None


def load_fast(text: str) -> Any:
    """Loads one YAML document without positions (YAML 1.2 core schema).

    Raises ValueError (or ``yaml.YAMLError``) on anything unusual, duplicate keys included:
    the caller then loads again with :func:`load` to say where."""
    if _yaml_rs is not None:
        return _yaml_rs.loads(text)
    data, dups = load(text)
    if dups:
        raise ValueError("duplicate keys")
    return data
