"""Finding stories: a path, or the id of a story we ship in ``stories/``."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_STORY = "deep_sea_atelier"
FALLBACK_STORY = "ureg_window_room"


def shipped_dir() -> Path:
    env = os.environ.get("KATARI_STORIES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "stories"


def shipped() -> list[Path]:
    d = shipped_dir()
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if (p.is_dir() and any(p.glob("*.yaml"))) or p.suffix == ".yaml")


def resolve(name: str | None) -> Path:
    """Turns a story argument into a path: an existing path, or a shipped story's id."""
    if not name:
        d = shipped_dir()
        for cand in (DEFAULT_STORY, FALLBACK_STORY):
            if (d / cand).exists():
                return d / cand
        return d / DEFAULT_STORY
    p = Path(name)
    if p.exists():
        return p
    d = shipped_dir()
    for cand in (d / name, d / f"{name}.yaml"):
        if cand.exists():
            return cand
    return p


def open_story(name: str | None, command: str):  # noqa: ANN201 - Story | None
    """Loads a story for a command, or prints why not (one line when there is no such
    story; its first diagnostics when it has errors) to stderr and returns None."""
    import sys

    from runner.story import StoryError, load

    path = resolve(name)
    if not path.exists():
        ids = ", ".join(p.stem if p.suffix else p.name for p in shipped())
        print(f"katari {command}: no story {str(name or path)!r}: not a file or folder, nor a shipped story "
              f"({ids or 'none installed'})", file=sys.stderr)
        return None
    try:
        return load(path)
    except StoryError as e:
        for d in e.diagnostics[:20]:
            print(d, file=sys.stderr)
        more = len(e.diagnostics) - 20
        tail = f" (and {more} more)" if more > 0 else ""
        print(f"katari {command}: {path} has errors{tail}; see `katari check {path}`", file=sys.stderr)
        return None
