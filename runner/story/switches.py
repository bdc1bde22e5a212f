"""True/false in one YAML dialect (#14 item 3).

Katari reads YAML 1.2, where only ``true`` and ``false`` are true/false: YAML 1.1's ``yes``,
``no``, ``on``, ``off``, ``y`` and ``n`` are text, and Python takes any text but ``""`` as
true. Every place that reads a switch (a node's ``once``, a play-test's ``gm``, a rule
system's option) asks :func:`switch_problem` and refuses anything but true/false with the fix;
:func:`yaml11_word` finds the words an author almost surely meant as a switch elsewhere (a
variable's first value).
"""

from __future__ import annotations

from typing import Any

from runner.story.bounds import short

TRUE_WORDS = frozenset(("true", "yes", "y", "on", "1", "はい"))
FALSE_WORDS = frozenset(("false", "no", "n", "off", "0", "いいえ"))
YAML11_WORDS = frozenset(("yes", "no", "on", "off", "y", "n"))
"""YAML 1.1's true/false words besides true and false (any case)."""


def yaml11_word(v: Any) -> bool:
    """Whether ``v`` is text that YAML 1.1 would have read as true or false (``no``, ``On``)."""
    return isinstance(v, str) and v.strip().lower() in YAML11_WORDS


def meant(v: Any) -> bool | None:
    """The switch a word reads as (``no`` -> False, ``yes`` -> True), or None."""
    word = str(v).strip().lower() if isinstance(v, (str, int, float)) else ""
    return True if word in TRUE_WORDS else False if word in FALSE_WORDS else None


def switch_problem(key: str, v: Any) -> str | None:
    """None for ``true``/``false``; else the one-line problem with the fix:
    ``'gm' must be true or false, not 'no'; write 'gm: false' (YAML 1.2 reads 'no' as text,
    not as yes or no)``."""
    if v is True or v is False:
        return None
    fix = meant(v)
    hint = (
        f"; write '{key}: {str(fix).lower()}'"
        if fix is not None
        else f"; write '{key}: true' or '{key}: false'"
    )
    if isinstance(v, str):
        word = v.strip().lower()
        hint += (
            " (without quotes)"
            if word in ("true", "false")
            else f" (YAML 1.2 reads {short(v)} as text, not as yes or no)"
        )
    if v is None:
        shown = "nothing"
    elif isinstance(v, (str, int, float)):
        shown = short(v)
    else:
        shown = "a mapping" if isinstance(v, dict) else "a list" if isinstance(v, list) else "text"
    return f"'{key}' must be true or false, not {shown}{hint}"
