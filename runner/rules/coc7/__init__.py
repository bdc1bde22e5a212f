"""Call of Cthulhu 7th edition (新クトゥルフ神話TRPG) as pure hooks.

Investigator sheets live in ``state.stats[<id>]``; this system's own data (the active
investigator, the running fight, the last check, the day's SAN losses) in
``state.rules["coc7"]``. See docs/rules-coc7.md for every hook.

The package: ``system`` (the RuleSystem every module registers its hooks on),
``investigators``, ``actions`` (the hooks that roll), ``reads`` (pure reads for conditions),
``views`` (what front ends show), ``offer`` (a push or Luck offered after a failed check);
the rules themselves in ``checks``, ``sheet``, ``combat``, ``sanity``, ``condition``, ``push``;
``front`` (what front ends read) and ``scenario`` (one scenario's hooks); ``hooks`` puts the
whole system together.

Importing this package is light: ``coc7.SYSTEM`` (and the rest of ``__all__``) loads
``hooks`` on first use. So the dice commands, ``bcdice`` (with ``bcdice_more``, ``tables``,
``checks``, ``sheet``: no hook registers there), import without the hooks: the ``katari.dice``
entry point names them, and ``katari roll`` starts at once (docs/rules-api.md).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "SYSTEM",
    "make_enemy",
    "make_investigator",
    "pregens",
    "quick_investigator",
    "install",
]


def __getattr__(name: str) -> Any:
    """``coc7.SYSTEM`` and the rest of ``__all__``, from the whole system (other names are
    left to the import system: ``from runner.rules.coc7 import sheet`` is the module)."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"{__name__}.hooks"), name)
