"""Safe YAML loading that remembers where every key and value came from."""

from __future__ import annotations

import re
from typing import Any

import yaml

from runner.story.bounds import MAX_ALIAS_NODES, MAX_YAML_DEPTH
from runner.story.located import Map, Seq
from runner.story.text import control_problem

try:  # the C parser is several times faster on large stories
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class DuplicateKey(Exception):
    def __init__(self, key: Any, pos: tuple[int, int]) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key = key
        self.pos = pos


class Refused(yaml.MarkedYAMLError):
    """Well-formed YAML that a story may not hold (a non-core tag, an alias bomb, a control
    character, too deep a nesting): ``problem`` says why, ``problem_mark`` where."""


def _refuse(mark: Any, why: str) -> Refused:
    return Refused(None, None, why, mark)


class _Loader(_Base):  # type: ignore[misc, valid-type]  # _Base is the C or the Python loader, picked at import
    dups: list[tuple[Any, tuple[int, int]]]
    depth: int
    """Lists and mappings open around the value being built."""
    repeated: int
    """Values that aliases have repeated so far, counted as expanded."""
    shape: dict[Any, tuple[int, int]]
    """For each list or mapping built: (values in it, expanded; levels in it)."""


# YAML 1.2 core schema, as yaml-rs reads it: `no`, `on` and `10:00` stay text (YAML 1.1
# would make them false, true and 600), so both loaders agree on every story.
_Loader.yaml_implicit_resolvers = {}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]
)
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"),
)
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)
_Loader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT, list("-+0123456789."))

# Only the core schema's types reach a story: text, numbers, true/false, null, lists and
# mappings. YAML 1.1's dates, sets, binary, ordered maps and merge keys (`<<`) and every
# local or Python tag are refused where they stand.
_Loader.yaml_constructors = {}
_Loader.yaml_multi_constructors = {}
_INT = re.compile(r"^[-+]?[0-9]+$")


def _int12(loader: _Loader, node: yaml.ScalarNode) -> int:
    v = loader.construct_scalar(node).strip()
    try:
        if v.startswith("0o"):
            n = int(v[2:], 8)
        elif v.startswith("0x"):
            n = int(v[2:], 16)
        elif _INT.match(v) and len(v.lstrip("+-")) <= 4300:
            return int(v)
        else:
            raise ValueError
    except ValueError:
        raise _refuse(
            node.start_mark, f"{_clip(v)} is not a whole number Katari can read"
        ) from None
    if n.bit_length() > 14_000:  # more than 4,200 decimal digits: Python cannot print it
        raise _refuse(node.start_mark, "a number of thousands of digits")
    return n


def _float12(loader: _Loader, node: yaml.ScalarNode) -> float:
    v = loader.construct_scalar(node).strip()
    if not _FLOAT.match(v) and not _INT.match(v):
        raise _refuse(node.start_mark, f"{_clip(v)} is not a number")
    low = v.lower()
    if low.endswith(".inf"):
        return float("-inf") if low.startswith("-") else float("inf")
    if low == ".nan":
        return float("nan")
    return float(v)


def _bool12(loader: _Loader, node: yaml.ScalarNode) -> bool:
    v: str = loader.construct_scalar(node).strip().lower()
    if v not in ("true", "false"):
        raise _refuse(node.start_mark, f"{_clip(v)} is not true or false")
    return v == "true"


def _null12(loader: _Loader, node: yaml.ScalarNode) -> None:
    loader.construct_scalar(node)
    return None


def _str12(loader: _Loader, node: yaml.Node) -> str:
    v: str = loader.construct_scalar(node)
    bad = control_problem(v)
    if bad is not None:
        raise _refuse(_mark_in(node, v, bad[0]), bad[1])
    return v


def _undefined(loader: _Loader, node: yaml.Node) -> None:
    tag = node.tag or ""
    short = tag.replace("tag:yaml.org,2002:", "!!")
    raise _refuse(
        node.start_mark,
        f"the tag {short!r} is not part of YAML 1.2's core schema: a story holds "
        "text, numbers, true/false, null, lists and mappings only",
    )


def _clip(v: str) -> str:
    return repr(v if len(v) <= 24 else v[:23] + "…")


def _mark_in(node: yaml.Node, value: str, offset: int) -> Any:
    """The mark of ``offset`` inside a one-line plain or quoted scalar (else the node's)."""
    m = node.start_mark
    if "\n" in value[:offset] or getattr(node, "style", None) not in (None, "'", '"'):
        return m
    quote = 1 if getattr(node, "style", None) else 0
    return yaml.Mark(m.name, m.index, m.line, m.column + quote + offset, None, None)


def _pos(node: yaml.Node) -> tuple[int, int]:
    m = node.start_mark
    return (m.line + 1, m.column + 1)


def _enter(loader: _Loader, node: yaml.Node) -> None:
    loader.depth += 1
    if loader.depth > MAX_YAML_DEPTH:
        raise _refuse(
            node.start_mark, f"lists and mappings nested more than {MAX_YAML_DEPTH} levels deep"
        )


def _child(loader: _Loader, child: yaml.Node, mark: Any) -> Any:
    """Builds a value inside a list or mapping, counting what aliases repeat."""
    if child in loader.recursive_objects:
        raise _refuse(mark, "an alias inside its own anchor: the value would contain itself")
    if child in loader.constructed_objects:  # built before: this is an alias (*name)
        size, height = loader.shape.get(child, (1, 0))
        loader.repeated += size
        if loader.repeated > MAX_ALIAS_NODES:
            raise _refuse(
                mark,
                f"aliases (*name) repeat more than {MAX_ALIAS_NODES:,} values in this file "
                "(an alias bomb?)",
            )
        if loader.depth + height > MAX_YAML_DEPTH:
            raise _refuse(
                mark,
                f"lists and mappings nested more than {MAX_YAML_DEPTH} levels deep "
                "(through an alias)",
            )
    return loader.construct_object(child, deep=True)


def _shape(loader: _Loader, kids: Any) -> tuple[int, int]:
    size, height = 1, 1
    shape = loader.shape
    for k in kids:
        s, h = shape.get(k, (1, 0))
        size += s
        if h >= height:
            height = h + 1
    return size, height


def _map(loader: _Loader, node: yaml.Node) -> Map:
    if not isinstance(node, yaml.MappingNode):
        raise _refuse(node.start_mark, "a mapping tag on something that is not a mapping")
    m = Map()
    m.pos = _pos(node)
    _enter(loader, node)
    kpos, vpos = m.kpos, m.vpos
    for k_node, v_node in node.value:
        km = k_node.start_mark
        key = _child(loader, k_node, km)
        try:
            hash(key)
        except TypeError:
            key = str(key)
        if key in m:
            loader.dups.append((key, _pos(k_node)))
        m[key] = _child(loader, v_node, km)
        kpos[key] = (km.line + 1, km.column + 1)
        vm = v_node.start_mark
        vpos[key] = (vm.line + 1, vm.column + 1)
    loader.depth -= 1
    loader.shape[node] = _shape(loader, (n for pair in node.value for n in pair))
    return m


def _seq(loader: _Loader, node: yaml.Node) -> Seq:
    if not isinstance(node, yaml.SequenceNode):
        raise _refuse(node.start_mark, "a list tag on something that is not a list")
    s = Seq()
    s.pos = _pos(node)
    _enter(loader, node)
    mark = node.start_mark
    built = loader.constructed_objects
    for item in node.value:
        alias = item in built
        s.append(_child(loader, item, mark))
        im = item.start_mark
        s.ipos.append((im.line + 1, im.column + 1))
        # An alias's node is its anchor's, far away: a problem with one is placed just
        # after the item before it (or at the list).
        if not alias:
            mark = item.end_mark or mark
    loader.depth -= 1
    loader.shape[node] = _shape(loader, node.value)
    return s


_Loader.add_constructor("tag:yaml.org,2002:null", _null12)
_Loader.add_constructor("tag:yaml.org,2002:bool", _bool12)
_Loader.add_constructor("tag:yaml.org,2002:int", _int12)
_Loader.add_constructor("tag:yaml.org,2002:float", _float12)
_Loader.add_constructor("tag:yaml.org,2002:str", _str12)
_Loader.add_constructor("tag:yaml.org,2002:map", _map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _seq)
_Loader.add_constructor(None, _undefined)


def load(text: str) -> tuple[Any, list[tuple[Any, tuple[int, int]]]]:
    """Loads one YAML document; returns the data and any duplicate keys with positions.

    Raises ``yaml.YAMLError`` (with ``problem_mark``) on malformed YAML, and
    :class:`Refused` (a ``MarkedYAMLError`` too) on YAML a story may not hold."""
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as e:
        raise _reader_refused(text, e) from None
    loader.dups = []
    loader.depth = 0
    loader.repeated = 0
    loader.shape = {}
    try:
        data = loader.get_single_data()
    except yaml.reader.ReaderError as e:
        raise _reader_refused(text, e) from None
    except yaml.scanner.ScannerError as e:
        raise _tab_refused(text, e) or e from None
    finally:
        loader.dispose()
    return data, loader.dups


def _tab_refused(text: str, e: yaml.scanner.ScannerError) -> Refused | None:
    """A tab in a line's indentation, said so with the fix: the parser's own words ("found
    character that cannot start any token") never name the tab. None: not a tab's fault."""
    mark = e.problem_mark
    if mark is None:
        return None
    lines = text.splitlines()
    line = lines[mark.line] if mark.line < len(lines) else ""
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    if "\t" not in indent:
        return None
    col = indent.index("\t")
    return _refuse(
        yaml.Mark("<story>", mark.index, mark.line, col, None, None),
        "a tab in the indentation: YAML indents with spaces, not tabs "
        "(replace the tab with spaces, as many as the lines around it use)",
    )


def _reader_refused(text: str, e: yaml.reader.ReaderError) -> Refused:
    """A character YAML does not allow, at its line and column."""
    i = max(0, min(int(getattr(e, "position", 0) or 0), len(text)))
    line = text.count("\n", 0, i)
    col = i - (text.rfind("\n", 0, i) + 1)
    ch = getattr(e, "character", None)
    if isinstance(ch, int):
        ch = chr(ch)
    if isinstance(ch, str) and control_problem(ch):
        why = control_problem(ch)[1]  # type: ignore[index]  # not None: tested on the line above
    else:
        why = f"character {ch!r} is not allowed in YAML" if ch is not None else str(e)
    return _refuse(yaml.Mark("<story>", i, line, col, None, None), why)
