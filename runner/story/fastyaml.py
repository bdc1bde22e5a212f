"""The fast pass's YAML: yaml-rs (a Rust parser, YAML 1.2 core schema), no positions and no PyYAML.

A correct story is read by this alone. Anything yaml-rs cannot be trusted with raises, and the
loader reads the file again through the careful parser (:mod:`runner.story.yamlpos`, PyYAML),
which either refuses it where it stands or reads it the same way (docs/security.md, "YAML").
"""

from __future__ import annotations

import re
from typing import Any

from runner.story.bounds import MAX_ALIAS_NODES
from runner.story.text import CONTROL

try:  # a Rust parser, 20x faster than PyYAML's C loader on large stories (no positions)
    import yaml_rs as _yaml_rs
except ImportError:  # pragma: no cover - the fallback is exercised where the wheel is missing
    _yaml_rs = None


_ESCAPE = re.compile(r"\\[0abvfeNxuUr]")
"""A double-quoted escape that may stand for a control character."""
_DEEP = re.compile(r"\n(?:[ \t?:-]|[&!][^ \t\n]*){64,}")
"""A line that opens lists and mappings 64 characters deep (indentation, ``- `` and ``? ``
indicators): yaml-rs has no limit on block nesting and overflows its stack at ~20,000."""


def needs_care(text: str) -> bool:
    """True if the fast loader cannot be trusted with ``text``: a control character, an
    escape that may make one, a tag, or deep nesting. The careful loader then refuses it
    where it stands (or finds it harmless)."""
    if CONTROL.search(text) and CONTROL.search(text.replace("\r\n", "\n")):
        return True
    if "\\" in text and _ESCAPE.search(text):
        return True
    i = text.find("!")
    while i >= 0:
        if _may_be_tag(text, i):
            return True
        i = text.find("!", i + 1)
    return _DEEP.search(text) is not None


def _may_be_tag(text: str, i: int) -> bool:
    """Whether the ``!`` at ``i`` may begin a tag: where a value begins (after ``: ``,
    ``- ``, ``? ``, ``[``, ``{``, ``,``, an anchor or at a line's start), not inside one
    (``x != 4``, ``Wow!``)."""
    j = i - 1
    while j >= 0 and text[j] in " \t":
        j -= 1
    if j < 0 or text[j] in ":-?[{,\n\r":
        return True
    if j < i - 1:  # after a word and a space: an anchor (&name) or inside plain text
        k = j
        while k >= 0 and text[k] not in " \t\n":
            k -= 1
        return text[k + 1] == "&"
    return False


_LIMITS = (_yaml_rs.AliasLimits(max_total_replayed_events=MAX_ALIAS_NODES)
           if _yaml_rs is not None and hasattr(_yaml_rs, "AliasLimits") else None)


def load_fast(text: str) -> Any:
    """Loads one YAML document without positions (YAML 1.2 core schema).

    Raises ValueError (or ``yaml.YAMLError``) on anything unusual, duplicate keys included:
    the caller then loads again with :func:`load` to say where."""
    if _yaml_rs is not None:
        if needs_care(text):
            raise ValueError("the careful loader is needed")
        return _yaml_rs.loads(text, parse_datetime=False, alias_limits=_LIMITS)
    from runner.story.yamlpos import load

    data, dups = load(text)
    if dups:
        raise ValueError("duplicate keys")
    return data
