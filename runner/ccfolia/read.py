"""Reading what a player brings: a file or pasted text, bounded before it is parsed.

A document is at most :data:`MAX_BYTES` bytes of UTF-8, JSON nested at most
:data:`MAX_DEPTH` levels (a CCFOLIA piece nests four), with no number longer than 40 digits;
キャラクター保管所's ``.js`` (the same JSON, sometimes wrapped as ``callback({...});``) and
JSON with words around it (``コピーしたもの：{...}``) are read too. Nothing is fetched: a URL
is refused with a line saying to save the JSON first.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import IO, Any

from runner.ccfolia.messages import SheetError
from runner.rules.jsontext import brackets

MAX_BYTES = 1 << 20
MAX_DEPTH = 16
MAX_LINES = 20000
"""Lines of pasted text read from standard input before giving up."""


def parse(text: str, where: str = "input") -> Any:
    """The JSON value in ``text`` (bounded); :class:`SheetError` if there is none."""
    from runner.engine.state import SaveError, parse_json

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise SheetError(
            "too_big", where=where, n=len(text.encode("utf-8", "surrogatepass")), max=MAX_BYTES
        )
    body = text.strip().lstrip("\ufeff")
    if not body:
        raise SheetError("empty", where=where)
    if re.match(r"^https?://", body):
        raise SheetError(
            "bad_field",
            where=where,
            what=(
                "URL です。Katari はネットから何も取ってきません。シートの JSON を"
                "ファイルに保存するか、コピーして渡してください",
                "a URL: Katari fetches nothing; save the sheet's JSON to a file "
                "(or copy it) and give that",
            ),
        )
    candidates = [body]
    m = re.match(r"^[A-Za-z_$][\w$.]*\s*\((.*)\)\s*;?\s*$", body, re.S)  # callback({...});
    if m:
        candidates.append(m.group(1))
    first, last = body.find("{"), body.rfind("}")
    if 0 <= first < last and (first, last) != (0, len(body) - 1):
        candidates.append(body[first : last + 1])
    error: SaveError | None = None
    for c in candidates:
        try:
            return parse_json(c, max_depth=MAX_DEPTH)
        except SaveError as e:
            error = error or e
    raise _json_error(error, where)


def _json_error(e: Exception | None, where: str) -> SheetError:
    """Why the text is not JSON Katari reads, said of the sheet in the user's language (the
    JSON reader's own words speak of a save)."""
    from runner.engine.state import SchemaError

    if isinstance(e, SchemaError):
        if e.kind == "depth":
            return SheetError("json_depth", where=where, max=MAX_DEPTH)
        if e.kind == "digits":
            return SheetError("json_digits", where=where, number=str(e.field))
        return SheetError("json_number", where=where, number=str(e.field)[:20])
    m = re.search(r"line (\d+), column (\d+)", str(e))
    if m:
        return SheetError(
            "not_json",
            where=where,
            why=(f"{m.group(1)} 行 {m.group(2)} 文字目", f"line {m.group(1)}, column {m.group(2)}"),
        )
    return SheetError(
        "not_json", where=where, why=("括弧が対応していません", "brackets do not match")
    )


def read_file(path: str | Path) -> tuple[Any, str]:
    """(the JSON value, where it came from) of a file (bounded, regular files only)."""
    from runner.ui import files

    p = Path(path)
    where = str(path)
    try:
        raw = files.read_regular(p, MAX_BYTES)
    except files.FileError as e:
        if e.code == "too_big":
            raise SheetError("too_big", where=where, n=MAX_BYTES + 1, max=MAX_BYTES) from None
        raise SheetError("cannot_read", where=where, why=files.reason(e, "en")) from None
    except OSError as e:
        raise SheetError("cannot_read", where=where, why=files.os_reason(e, "en")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SheetError("not_text", where=where) from None
    return parse(text, where), where


def complete(text: str) -> bool:
    """Whether pasted ``text`` holds a whole JSON object (its braces closed, strings too)."""
    seen = False
    for ch, depth in brackets(text):
        if ch in "{[":
            seen = True
        elif seen and depth <= 0:
            return True
    return False


def _line_from_fd(fd: int, limit: int) -> bytes:
    """One line from a file descriptor, a byte at a time: nothing after it is read, so what
    follows (the game's commands) stays for whoever reads standard input next."""
    out = bytearray()
    while len(out) <= limit:
        b = os.read(fd, 1)
        if not b:
            break
        out += b
        if b == b"\n":
            break
    return bytes(out)


def read_stdin(stream: IO[Any] | None = None, where: str = "-") -> tuple[Any, str]:
    """The JSON document at the start of standard input (pasted JSON ends where its braces
    close, or at an empty line); the lines after it are left unread."""
    stream = stream or sys.stdin
    try:
        fd: int | None = stream.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    buf = getattr(stream, "buffer", None)
    chunks: list[bytes] = []
    size = 0
    for _ in range(MAX_LINES):
        if fd is not None:  # (nothing has read standard input yet: read it unbuffered)
            line = _line_from_fd(fd, MAX_BYTES - size)
        else:
            src = buf if buf is not None else stream
            read: bytes | str = src.readline(MAX_BYTES - size + 1)
            line = read.encode("utf-8") if isinstance(read, str) else read
        if not line:
            break
        size += len(line)
        if size > MAX_BYTES:
            raise SheetError("too_big", where=where, n=size, max=MAX_BYTES)
        if not line.strip() and chunks:
            break
        chunks.append(line)
        try:
            if complete(b"".join(chunks).decode("utf-8", "replace")):
                break
        except UnicodeDecodeError:  # pragma: no cover - "replace" never raises
            pass
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise SheetError("not_text", where=where) from None
    return parse(text, where), where


def read(source: str, stdin: IO[Any] | None = None) -> tuple[Any, str]:
    """A file, or ``-`` for standard input."""
    if source == "-":
        return read_stdin(stdin)
    return read_file(source)
