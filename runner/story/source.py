"""Where a story's bytes enter: regular files inside the story's folder, read with a bound.

Every reader of story YAML (the loader, ``check``'s voice words, lint, play-tests) goes
through :func:`read_text`. It refuses, in one line each:

- anything that is not a regular file (a device such as ``/dev/zero``, a FIFO, a socket),
  without blocking on it;
- a link that leads out of the story's folder (a story reads only its own files);
- a file larger than :data:`MAX_FILE_BYTES`, counting what is read, not what ``stat`` says;
- text that is not UTF-8.

A story named by the user as a single file may itself be a link: the user chose it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Bytes one story file may hold."""
MAX_STORY_BYTES = 64 * 1024 * 1024
"""Bytes all the YAML files of one story may hold together."""
MAX_FILES = 1000
"""YAML files one story folder may hold."""

_CHUNK = 1 << 20


class SourceError(Exception):
    """A story file that cannot be read; ``pos`` is (line, col) when the problem has one."""

    def __init__(self, message: str, pos: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos


def story_root(path: str | os.PathLike[str]) -> Path | None:
    """The folder a story's files must stay inside (resolved), or None for a single file."""
    p = Path(path)
    return Path(os.path.realpath(p)) if p.is_dir() else None


def story_files(path: str | os.PathLike[str]) -> list[Path]:
    """The YAML files of a story: the file itself, or a folder's ``*.yaml`` (not ``tests/``).

    Lists at most :data:`MAX_FILES` + 1 names (the loader refuses a folder with more) and never
    looks inside ``tests/``; what each name is (a link, a device) is :func:`read_text`'s to
    judge. (``os.scandir``: the folder is listed at every load, and ``Path.rglob`` cost a
    quarter of a small story's load.)"""
    p = Path(path)
    if not p.is_dir():
        return [p]
    found: list[Path] = []
    folders = [p]
    while folders and len(found) <= MAX_FILES:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:  # (a folder that cannot be listed holds nothing: rglob's answer too)
            continue
        for e in listed:
            if e.name.endswith((".yaml", ".yml")) and not e.name.startswith("."):
                found.append(folder / e.name)
            # Down into folders, not into links to them, nor into play-tests (tests/).
            if e.name != "tests" and _is_folder(e):
                folders.append(folder / e.name)
    return sorted(found[: MAX_FILES + 1])


def _is_folder(e: os.DirEntry[str]) -> bool:
    try:
        return e.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _inside(real: str, root: Path) -> bool:
    r = str(root)
    return real == r or real.startswith(r.rstrip(os.sep) + os.sep)


def read_bytes(
    f: str | os.PathLike[str], root: Path | None = None, *, limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of a regular file (inside ``root`` when given), at most ``limit`` of them.

    Raises :class:`SourceError` with a one-line reason for anything else."""
    real = os.path.realpath(f)
    try:
        # Look before opening: opening a device or a FIFO may block or have effects.
        st = os.stat(real)
    except FileNotFoundError:
        raise SourceError("no such file or folder") from None
    except OSError as e:
        raise SourceError(f"cannot read: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise SourceError("is a folder with no story files")
    if not stat.S_ISREG(st.st_mode):
        raise SourceError(
            "is not a regular file (a device, a pipe or a socket); a story reads only regular files"
        )
    if root is not None and not _inside(real, root):
        raise SourceError(
            "is a link to a file outside the story folder; a story reads only its own files"
        )
    if st.st_size > limit:
        raise SourceError(f"file is larger than {limit // (1024 * 1024)} MB")
    flags = (
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    try:
        fd = os.open(real, flags)
    except OSError as e:
        raise SourceError(f"cannot read: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # it changed since we looked
            raise SourceError(
                "is not a regular file (a device, a pipe or a socket); a story reads only regular files"
            )
        chunks: list[bytes] = []
        n = 0
        while True:
            b = os.read(fd, min(_CHUNK, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
            if n > limit:  # it grew since we looked
                raise SourceError(f"file is larger than {limit // (1024 * 1024)} MB")
    except OSError as e:
        raise SourceError(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def read_text(
    f: str | os.PathLike[str], root: Path | None = None, *, limit: int = MAX_FILE_BYTES
) -> str:
    """:func:`read_bytes` as UTF-8 text; a byte that is not UTF-8 is a located SourceError."""
    return decode(read_bytes(f, root, limit=limit))


def decode(data: bytes) -> str:
    """UTF-8 bytes as text; a byte that is not UTF-8 is a located SourceError."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[: e.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise SourceError(
            f"not UTF-8 text ({e.reason} at byte {e.start}); save the file as UTF-8", (line, col)
        ) from None
