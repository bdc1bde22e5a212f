"""Finding stories: a path, or the id of a story we ship (``stories/`` in the repository,
package data of ``runner.shipped`` in an installed wheel)."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_STORY = "deep_sea_atelier"
FALLBACK_STORY = "ureg_window_room"


def shipped_dir() -> Path:
    env = os.environ.get("KATARI_STORIES")
    if env:
        return Path(env)
    from runner.shipped import folder

    return folder("stories")


def shipped() -> list[Path]:
    d = shipped_dir()
    if not d.is_dir():
        return []
    return sorted(
        p for p in d.iterdir() if (p.is_dir() and any(p.glob("*.yaml"))) or p.suffix == ".yaml"
    )


def installed_story(story_id: object) -> Path | None:
    """The shipped story with this id (a name like ``deep_sea_atelier``, never a path), or None."""
    from runner.story.loader import ID_RE

    if not isinstance(story_id, str) or not ID_RE.match(story_id) or len(story_id) > 200:
        return None
    d = shipped_dir()
    for cand in (d / story_id, d / f"{story_id}.yaml"):
        if cand.exists():
            return cand
    return None


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
    for path in (d / name, d / f"{name}.yaml"):
        if path.exists():
            return path
    return p
