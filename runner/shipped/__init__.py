"""The stories and voice profiles Katari ships, read with :mod:`importlib.resources`.

In the repository ``runner/shipped/stories`` and ``runner/shipped/voices`` are links to the
top-level ``stories/`` and ``voices/`` folders, where authors edit them; a built wheel carries
them here as package data (``pyproject.toml``), so an installed Katari needs no checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def folder(kind: str) -> Path:
    """``stories`` or ``voices``: the shipped folder as a real path (links resolved, so a
    checkout's paths are the top-level ``stories/...`` they always were)."""
    return Path(str(resources.files(__name__) / kind)).resolve()
