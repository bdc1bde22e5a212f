"""The fast pass's YAML: yaml-rs (a Rust parser, YAML 1.2 core schema), no positions and no PyYAML.

A correct story is read by this alone. Anything yaml-rs cannot be trusted with raises, and the
loader reads the file again through the careful parser (:mod:`runner.story.yamlpos`, PyYAML),
which either refuses it where it stands or reads it the same way (docs/security.md, "YAML").
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from runner.story.bounds import MAX_ALIAS_NODES
from runner.story.text import CONTROL

_yaml_rs: ModuleType | None
try:  # a Rust parser, 20x faster than PyYAML's C loader on large stories (no positions)
    import yaml_rs as _yaml_rs
except ImportError:  # pragma: no cover - the fallback is exercised where the wheel is missing
    _yaml_rs = None


_ESCAPE = re.compile(r"\\[0abvfeNxuUr]")
"""A double-quoted escape that may stand for a control character."""
_DEEP = re.compile(r"\n(?:[ \t?:-]|[&!][^ \t\n]*){64,}")
"""A line that opens lists and mappings 64 characters deep (indentation, ``- `` and ``? ``
indicators): yaml-rs has no limit on block nesting and overflows its stack at ~20,000."""
_DEEP_PLAIN = re.compile(r"\n[ \t?:-]{64}")
""":data:`_DEEP` for a text with no ``&`` or ``!`` (the same answer, ~6x faster)."""


_LAX_NUMBER = re.compile(
    r"(?<![^\s\[{,:])(?:[-+0-9._eE]*_[-+0-9._eE]*|[-+]?0[XObB][0-9a-fA-F_]*|[-+]0[xo][0-9a-fA-F]*)"
    r"(?![^\s\]},:])"
)
"""A plain scalar that yaml-rs reads as a number and YAML 1.2's core schema as text: digits
with underscores (``1_000``, ``_9``), ``0X1F``, ``0O17``, ``0b11``, a signed ``-0x1``
(looked for by :func:`_lax_number`)."""


_RADIX_HINT = re.compile(r"0[xoXObB]")
"""Where a radix prefix (``0X``, ``-0x``) may be: each :data:`_LAX_NUMBER` holds one of these
or an underscore."""
_UNDERSCORE = re.compile(r"_(?<![^-+0-9._eE\s\[{,:]_)")
"""An underscore that may be in a :data:`_LAX_NUMBER`: after a number character, after a
space, a bracket, a comma or a colon, or at the start (``on_enter``'s is not)."""
_NUMBER_CHARS = frozenset("-+0123456789._eE")


def _lax_number(text: str) -> bool:
    """Whether :data:`_LAX_NUMBER` finds a match, tried only where one may begin. A match is
    made of number characters and follows a space, a bracket, a comma or a colon, so it begins
    where the run of number characters holding an underscore or a radix prefix begins. (The
    regex alone begins with a look-behind and is tried at every character: ~0.3 s on a 15 MB
    story. Both hints begin with a literal, which the regex engine skips to.)"""
    return any(
        _lax_number_at(text, m.start())
        for hint in (_UNDERSCORE, _RADIX_HINT)
        for m in hint.finditer(text)
    )


def _lax_number_at(text: str, i: int) -> bool:
    start = i
    while start > 0 and text[start - 1] in _NUMBER_CHARS:
        start -= 1
    before = text[start - 1] if start else " "
    return (before in "[{,:" or before.isspace()) and _LAX_NUMBER.match(text, start) is not None


_ODD_COLON = re.compile(r":(?:(?<=[\s\[{,\]}]:)|[,\]}])")
_START_COLON = re.compile(r"[ \t?-]*:")
_ANCHOR_KEY = re.compile(r"&[^\s,\[\]{}]+[ \t]*:(?:[ \t\r\n]|$)")
"""A colon after a space, a line break or a bracket, or before a flow item's end: where the two
parsers read differently a mapping entry with no key (``: x``, ``- : x``, ``[:x]``), text that
begins with a colon (``:0``), a key with no space before the next flow item (``[0:, x]``), a
list or mapping as a key (``[1, 2]: x``). A colon inside a word (``10:00``) or ending a key
(``id: x``) is neither. ``_ANCHOR_KEY``: an anchor on no key (``&a: x``)."""


def _each(template: str, chars: str) -> dict[str, re.Pattern[str]]:
    """``template`` compiled once for each character of ``chars`` (``{c}`` stands for it). A
    regex that begins with a literal is tried only where that character stands; one that
    begins with a class (``[|>@`%]``) is tried at every character, several times slower on a
    large story, whose ``>`` (``hp > 0``) and ``|`` are rarely where a value begins."""
    return {c: re.compile(template.replace("{c}", re.escape(c))) for c in chars}


_FLOW_INDICATOR = _each(r"{c}(?:(?<=[\[{,]{c})|(?<=[\[{,] {c})|(?<=[\[{,]  {c}))", "|>@`%")
"""A block-scalar or reserved indicator where a flow value begins (``[|, x]``, up to two spaces
after the bracket or comma): yaml-rs reads it as text, YAML forbids it."""
_NOT_A_HEADER = r"(?![-+0-9]*[ \t]*(?:#[^\n]*)?(?:\r?\n|$))"
_VALUE_INDICATOR = {
    **_each(r"{c}(?<=[:\- \t][ \t]{c})", "@`%"),
    **_each(r"{c}(?<=[:\- \t][ \t]{c})" + _NOT_A_HEADER, "|>"),
}
"""A value after ``key:`` or ``-`` that begins with a reserved indicator (``@``, `````, ``%``),
or with ``|``/``>`` not ending its line (``{hidden: |, goto: b}``): PyYAML refuses these where
yaml-rs reads text (found by the dialect's property test). Each regex finds the indicator after
a space or tab; :func:`_value_indicator` looks further back."""


def _value_indicator(text: str) -> bool:
    """Whether an indicator of :data:`_VALUE_INDICATOR` follows ``:`` or ``-`` and spaces or
    tabs (a ``-`` only after a space or a line break, or it is inside a word)."""
    for c, regex in _VALUE_INDICATOR.items():
        if c not in text:
            continue
        for m in regex.finditer(text):
            j = m.start() - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j >= 0 and (text[j] == ":" or text[j] == "-" and j > 0 and text[j - 1].isspace()):
                return True
    return False


def _flow_indicator(text: str) -> bool:
    return any(c in text and regex.search(text) for c, regex in _FLOW_INDICATOR.items())


_BLOCK = _each(r"{c}[-+0-9]*[ \t]*(?:#[^\n]*)?\n", "|>")
"""The end of a line that may open a block scalar (``|``, ``>``)."""


def _block_headers(text: str) -> list[re.Match[str]]:
    """The ends of lines that may open a block scalar, in order, as one regex for ``[|>]``
    would find them: a ``|`` or ``>`` in the comment of one found before is not looked at."""
    found = sorted(
        (m for c, regex in _BLOCK.items() if c in text for m in regex.finditer(text)),
        key=lambda m: m.start(),
    )
    out: list[re.Match[str]] = []
    for m in found:
        if not out or m.start() >= out[-1].end():
            out.append(m)
    return out


_ANCHOR = re.compile(r"&([^\s,\[\]{}]+)")
"""An anchor's name (after a space, a bracket, a comma or at the start: :func:`_anchors`):
YAML 1.2 lets a later anchor of the same name replace the first, PyYAML refuses it (so a
story may not do it)."""


def _anchors(text: str) -> list[str]:
    """The anchors' names in ``text``. Each regex here begins with a literal character, and
    what comes before it is looked at only where it matches: a pattern that begins with a
    look-behind or ``(?:^|…)`` is tried at every character, which on a 15 MB story cost
    ~0.3 s a pattern (benchmarks/bench_engine.py)."""
    return [
        m.group(1)
        for m in _ANCHOR.finditer(text)
        if m.start() == 0 or text[m.start() - 1] in "[{," or text[m.start() - 1].isspace()
    ]


def _empty_block(text: str) -> bool:
    """A block scalar with no lines under it: yaml-rs reads a line break, YAML 1.2 the empty
    text. True if some ``|``/``>`` at a line's end has no more-indented line after it."""
    for mt in _block_headers(text):
        i = mt.start()
        if i == 0 or text[i - 1] not in " \t:-":
            continue
        line = text.rfind("\n", 0, i) + 1
        head = text[line:i]
        indent = len(head) - len(head.lstrip(" "))  # the header line's indentation
        j = mt.end()
        while True:  # the next line that is not blank
            k = text.find("\n", j)
            row = text[j:] if k < 0 else text[j:k]
            if row.strip() or k < 0:
                break
            j = k + 1
        if not row.strip() or len(row) - len(row.lstrip(" ")) <= indent:
            return True
    return False


_COMMENT_LINE = re.compile(r"\n[ \t]*#[^\n]*")
"""A comment line with the line break before it (a regex that begins with a literal is tried
only where that character stands; ``^`` with MULTILINE is tried at every character)."""


def _uncommented(text: str) -> str:
    """``text`` without its comment lines (blank lines in their place). A line whose first
    character after its indentation is ``#`` is a comment, or text inside a block or quoted
    scalar: both parsers read it alike, so an indicator in it (a story's comment that quotes
    ``{x: ...}`` after a comma) is no reason to load the file twice."""
    return _COMMENT_LINE.sub("\n", "\n" + text)[1:] if "#" in text else text


_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
"""The ASCII characters a story may hold; every other one is a control character (CONTROL)."""


def _control(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab, a line break or the
    carriage return of a ``\\r\\n``. ASCII text (most stories) is looked at first by deleting
    every byte a story may hold: one pass in C, ~6x faster than the regex's class of
    characters tried at each character; only what is left is looked at by the regex."""
    if text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII):
        return False
    return bool(CONTROL.search(text)) and bool(CONTROL.search(text.replace("\r\n", "\n")))


def needs_care(text: str) -> bool:
    """True if the fast loader cannot be trusted with ``text``: a control character, an
    escape that may make one, a tag, deep nesting, or a scalar the two parsers would read
    differently. The careful loader then refuses it where it stands (or reads it)."""
    if _control(text):
        return True
    if (
        "\t" in text
        or _lax_number(text)
        or _ODD_COLON.search(text)
        or _START_COLON.match(text)
        or _flow_indicator(bare := _uncommented(text))
        or _value_indicator(bare)
        or _empty_block(text)
    ):
        # A tab: the two parsers differ on where one may separate (``- \tx``).
        return True
    if "&" in text:
        names = _anchors(text)
        if len(names) != len(set(names)) or _ANCHOR_KEY.search(text):
            return True
    if "\\" in text and _ESCAPE.search(text):
        return True
    i = text.find("!")
    while i >= 0:
        if _may_be_tag(text, i):
            return True
        i = text.find("!", i + 1)
    deep = _DEEP if "&" in text or "!" in text else _DEEP_PLAIN
    return deep.search(text) is not None


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


_LIMITS = (
    _yaml_rs.AliasLimits(max_total_replayed_events=MAX_ALIAS_NODES)
    if _yaml_rs is not None and hasattr(_yaml_rs, "AliasLimits")
    else None
)


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
