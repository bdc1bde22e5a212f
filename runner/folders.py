"""Katari's cache folder, one answer for every part that keeps something in it (the compiled
stories, the narration rendered per line, the readings dictionaries, kokoro's joined model).

``$KATARI_CACHE`` names it, and ``off`` (or ``0``, ``no``, ``false``) turns caching off;
else ``cache`` in ``$KATARI_HOME`` when that is set; else the user cache folder
(``platformdirs.user_cache_dir("katari")``, ``~/.cache/katari`` on Linux). Nothing in it is
precious: deleting it only costs time."""

from __future__ import annotations

import functools
import os
from pathlib import Path

OFF = ("off", "0", "no", "false")

_scratch: Path | None = None


def home() -> Path:
    """The user's Katari folder (``$KATARI_HOME`` wins, for tests and portable installs):
    the saves, the installed voice models. Here, not in runner.ui.files, so that finding a
    model (``katari check``'s voice-word warnings) does not import the game's front end."""
    env = os.environ.get("KATARI_HOME")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("katari", appauthor=False))


def cache_dir() -> Path | None:
    """The cache folder, or None when ``KATARI_CACHE`` turns caching off (asked at every load:
    worked out once for each setting of the variables it reads)."""
    env = os.environ
    return _cache_dir(
        env.get("KATARI_CACHE", ""), env.get("KATARI_HOME", ""), env.get("XDG_CACHE_HOME", "")
    )


@functools.lru_cache(maxsize=8)
def _cache_dir(cache: str, home: str, xdg: str) -> Path | None:
    cache = cache.strip()
    if cache:
        return None if cache.lower() in OFF else Path(cache)
    if home:
        return Path(home) / "cache"
    from platformdirs import user_cache_dir  # (XDG_CACHE_HOME: one of its inputs)

    return Path(user_cache_dir("katari", appauthor=False))


def working_cache_dir() -> Path:
    """The cache folder, or, with caching off, a temporary one of this process (removed at
    exit): for what must be written somewhere to be used at all (a compiled readings
    dictionary), never a folder named ``off``."""
    global _scratch
    found = cache_dir()
    if found is not None:
        return found
    if _scratch is None:
        # Imported here: a story's load asks cache_dir() alone (shutil and tempfile: ~3 ms).
        import atexit
        import shutil
        import tempfile

        _scratch = Path(tempfile.mkdtemp(prefix="katari-cache-"))
        atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
    return _scratch
