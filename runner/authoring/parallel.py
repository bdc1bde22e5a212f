"""Chunks of simulated games on several cores, or on a Ray cluster.

:func:`runner.authoring.simulate.simulate` cuts its seeds into fixed-size chunks; this module
plays them elsewhere and hands back each chunk's :class:`~runner.authoring.simulate.Partial`.
The chunks do not depend on where they run, so the merged report is the same for one
process, for ``--jobs N`` and for ``--cluster ray``.

Local processes are forked where the OS can (the story, already loaded and compiled, is
shared copy-on-write) and spawned elsewhere; spawned processes and Ray workers receive the
story's files (names and bytes, a story is small) and load them once per process.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

_STORY: Any = None
"""The story a forked worker plays (set in the parent just before the workers start)."""
_LOADED: dict[str, Any] = {}
"""Stories a spawned or Ray worker has loaded, by the hash of their files."""


def cores() -> int:
    """The cores this process may use (the default for ``--jobs``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# -- the story, as files ---------------------------------------------------------


def bundle(story: Any) -> dict:
    """The story's YAML files as ``{"name": ..., "files": {relative path: bytes}, "key": sha}``:
    what a process with no access to this machine's disk needs to load it."""
    from runner.story import story_files

    p = Path(story.path)
    files: dict[str, bytes] = {}
    for f in story_files(p):
        rel = str(f.relative_to(p)) if p.is_dir() else f.name
        files[rel] = f.read_bytes()
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel] + b"\0")
    # The options travel too: ``katari sweep`` plays the story with options of its own.
    options = json.dumps(story.options, sort_keys=True, ensure_ascii=False, default=str)
    h.update(options.encode())
    return {
        "name": p.name,
        "dir": p.is_dir(),
        "files": files,
        "key": h.hexdigest(),
        "options": story.options,
    }


def from_bundle(b: dict) -> Any:
    """Loads (once per process) the story a :func:`bundle` holds."""
    hit = _LOADED.get(b["key"])
    if hit is not None:
        return hit
    from runner.story import load

    root = Path(tempfile.mkdtemp(prefix="katari-sim-"))
    for rel, data in b["files"].items():
        target = (root / b["name"] / rel) if b["dir"] else (root / rel)
        if ".." in Path(rel).parts or Path(rel).is_absolute():
            raise ValueError(f"bad file name in a story bundle: {rel!r}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    story = load(root / b["name"] if b["dir"] else root / next(iter(b["files"])))
    if b.get("options") is not None and b["options"] != story.options:
        import dataclasses

        story = dataclasses.replace(
            story,
            options=b["options"],
            cache={k: v for k, v in story.cache.items() if k == "_kana"},
        )
    _LOADED[b["key"]] = story
    return story


# -- workers -------------------------------------------------------------------


def _play_forked(start: int, count: int, opts: Mapping[str, Any]) -> Any:
    from runner.authoring.simulate import play_chunk

    return play_chunk(_STORY, start, count, **opts)


def _play_bundled(b: dict[str, Any], start: int, count: int, opts: Mapping[str, Any]) -> Any:
    from runner.authoring.simulate import play_chunk

    return play_chunk(from_bundle(b), start, count, **opts)


def run_chunks(
    story: Any,
    todo: list[tuple[int, int]],
    opts: Mapping[str, Any],
    *,
    jobs: int = 0,
    cluster: str | None = None,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    runs: int = 0,
) -> list:
    """Plays every (first seed, games) chunk of ``todo``; returns their Partials (any order)."""
    if cluster == "ray":
        return _ray(story, todo, opts, address=address, progress=progress, runs=runs)
    if cluster is not None:
        raise ValueError(f"unknown cluster {cluster!r}: ray")
    return _local(story, todo, opts, jobs=jobs or cores(), progress=progress, runs=runs)


def _local(
    story: Any,
    todo: list[tuple[int, int]],
    opts: Mapping[str, Any],
    *,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    runs: int,
) -> list:
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    global _STORY
    fork = "fork" in mp.get_all_start_methods()
    ctx = mp.get_context("fork" if fork else "spawn")
    _STORY = story if fork else None
    out = []
    done = 0
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, len(todo))), mp_context=ctx)
    try:
        if fork:
            pending = {pool.submit(_play_forked, s, n, opts) for s, n in todo}
        else:
            b = bundle(story)
            pending = {pool.submit(_play_bundled, b, s, n, opts) for s, n in todo}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                part = f.result()
                out.append(part)
                done += part.count
                if progress is not None:
                    progress(done, runs)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        _STORY = None
    pool.shutdown()
    return out


def _ray(
    story: Any,
    todo: list[tuple[int, int]],
    opts: Mapping[str, Any],
    *,
    address: str | None,
    progress: Callable[[int, int], None] | None,
    runs: int,
) -> list:
    try:
        import logging

        import ray
    except ImportError:
        raise RuntimeError("--cluster ray needs Ray: pip install 'katari[cluster]'") from None
    started = False
    if not ray.is_initialized():
        # address None starts a Ray on this machine; "auto" or "ray://host:10001" joins a cluster.
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
            configure_logging=False,
        )
        started = True
    try:
        task = ray.remote(_play_bundled)
        ref = ray.put(bundle(story))
        pending = [task.remote(ref, s, n, opts) for s, n in todo]
        out = []
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                part = ray.get(r)
                out.append(part)
                done += part.count
                if progress is not None:
                    progress(done, runs)
        return out
    finally:
        if started:
            ray.shutdown()
