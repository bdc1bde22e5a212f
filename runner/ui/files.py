"""The player's files: saves (atomic, checksummed), autosave, history, transcripts.

Everything lives in the user's data folder (``platformdirs.user_data_dir("katari")``, or
``$KATARI_HOME``), one folder per story::

    KATARI_HOME/stories/<story id>/saves/autosave.json, <slot>.json
    KATARI_HOME/stories/<story id>/history.txt
    KATARI_HOME/transcripts/<story id>-<date>.md

A save keeps the seed and every command (with hand-entered dice), so a game can be replayed
exactly, plus every State of the undo/redo timeline, so undo never rerolls.
"""

from __future__ import annotations

import datetime as _dt
import errno
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.engine.events import Event
from runner.engine.state import (
    MAX_NUMBER,
    SaveError,
    SchemaError,
    State,
    check_int,
    check_state,
    check_text,
    parse_json,
)
from runner.ui.i18n import t

SAVE_FORMAT = "katari-save"
SAVE_VERSION = 1
REPLAY_FORMAT = "katari-replay"
AUTOSAVE = "autosave"
RESTART_BACKUP = "restart-backup"
LOAD_BACKUP = "load-backup"
"""Where ``load`` keeps the game it replaces (``load-backup-2``, ... when taken)."""
_SLOT = re.compile(r"[\w\-]{1,40}")
_TMP = re.compile(r"^\.(.+)\.(\d+)\.tmp$")
MAX_COMMAND = 100_000
"""Longest command a save may hold (the console cuts typed lines far shorter)."""


# -- errors ------------------------------------------------------------------


class FileError(SaveError):
    """A ``SaveError`` the console can say in either language: ``code`` names the text
    (``why_<code>`` in runner.ui.i18n) and ``kw`` fills it; an OSError among them is named in
    the interface language too. ``str()`` is the English line, for logs and tracebacks."""

    def __init__(self, code: str, **kw: Any) -> None:
        self.code = code
        self.kw = kw
        super().__init__(reason(self, "en"))


_OS_REASONS = {
    errno.ENOENT: "not_found",
    errno.ENOTDIR: "not_dir",
    errno.EEXIST: "not_dir",
    errno.EISDIR: "is_dir",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "read_only",
    errno.ENOSPC: "disk_full",
    errno.EDQUOT: "disk_full",
}


def os_reason(e: OSError, lang: str = "ja") -> str:
    """Why a file operation failed, in the interface language (not the OS's English)."""
    if isinstance(e, NotRegularFile):
        return t("os_not_regular", lang)
    name = _OS_REASONS.get(e.errno or 0)
    if name is None:
        return t("os_other", lang, code=errno.errorcode.get(e.errno or 0, type(e).__name__))
    return t(f"os_{name}", lang)


def reason(e: BaseException, lang: str = "ja") -> str:
    """One line saying why a save, transcript or replay cannot be used, in ``lang``."""
    if isinstance(e, FileError) and e.code == "schema":
        return _schema_reason(
            e.kw.get("kind", "value"), e.kw.get("field", ""), e.kw.get("detail", ""), lang
        )
    if isinstance(e, FileError):
        kw = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in e.kw.items()}
        return t(f"why_{e.code}", lang, **kw)
    if isinstance(e, OSError):
        return os_reason(e, lang)
    if isinstance(e, SchemaError):
        return _schema_reason(e.kind, e.field, e.problem, lang)
    if isinstance(e, SaveError) and lang != "en":
        return t("why_engine", lang)  # the engine's own checks speak English only
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _schema_reason(kind: str, field: str, detail: str, lang: str) -> str:
    from runner.engine.state import MAX_DEPTH, MAX_DIGITS

    if kind == "depth":
        return t("why_too_deep", lang, n=MAX_DEPTH)
    if kind == "digits":
        return t("why_too_many_digits", lang, n=MAX_DIGITS)
    if kind == "number":
        return t("why_not_a_number", lang, what=field)
    return t("why_schema", lang, field=field, detail=detail)


def culprit(e: OSError) -> Path | None:
    """The path to blame for a failed write: for "not a directory", the file in the way."""
    if not e.filename:
        return None
    p = Path(os.fsdecode(e.filename))
    if e.errno in (errno.ENOTDIR, errno.EEXIST, errno.ENOENT):
        for q in (p, *p.parents):
            if q.exists():
                return q if not q.is_dir() else p
    return p


# -- folders -----------------------------------------------------------------


def home() -> Path:
    """The user's Katari folder (``$KATARI_HOME`` wins, for tests and portable installs)."""
    from runner.folders import home as katari_home

    return katari_home()


def _safe(name: str) -> str:
    s = re.sub(r"[^\w\-.]", "_", name).strip(".") or "_"
    return s[:80]


def story_home(story_id: str) -> Path:
    return home() / "stories" / _safe(story_id)


def saves_dir(story_id: str) -> Path:
    return story_home(story_id) / "saves"


def history_path(story_id: str) -> Path:
    return story_home(story_id) / "history.txt"


def transcripts_dir() -> Path:
    return home() / "transcripts"


def valid_slot(slot: str) -> bool:
    return bool(_SLOT.fullmatch(slot)) and not slot.startswith("-")


def slot_like(name: str) -> str | None:
    """A save name a player may use in place of the refused ``name``: the characters a name
    may not have (spaces, slashes, dots) made ``_`` (``before door`` -> ``before_door``), cut to
    40; None when nothing usable is left or it is Katari's own (the autosave)."""
    slot = re.sub(r"[^\w\-]+", "_", name).strip("_").lstrip("-")[:40].rstrip("_")
    return slot if valid_slot(slot) and not is_autosave(slot) else None


def slot_path(story_id: str, slot: str) -> Path:
    if not valid_slot(slot):
        raise FileError("bad_name", slot=slot)
    return saves_dir(story_id) / f"{slot}.json"


# -- reading and writing files safely ----------------------------------------

MAX_SAVE_BYTES = 256 << 20
"""Largest save (or journal) Katari reads: a 10,000-command game of the deep-sea story with
its whole undo timeline is about 25 MB."""
MAX_TEXT_BYTES = 64 << 20
"""Largest transcript, replay or other text file Katari reads."""


class NotRegularFile(OSError):
    """The path names something that is not a regular file (a device, a FIFO, a socket, a
    folder, or a symlink where Katari writes): Katari neither reads nor writes it."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(
            errno.EINVAL,
            "not a regular file (Katari reads and writes no devices, FIFOs, folders or links)",
            str(path),
        )


def _test_hook(name: str, turn: int | None) -> bool:
    """Test hook: ``KATARI_TEST_<NAME>=TURN:SECONDS`` sleeps at a named point when saving that
    turn, so a test can kill the process right there. Returns whether it slept."""
    spec = os.environ.get(f"KATARI_TEST_{name}")
    if not spec or turn is None:
        return False
    try:
        want, secs = spec.split(":", 1)
        if int(want) == turn:
            time.sleep(float(secs))
            return True
    except ValueError:
        pass
    return False


def _test_pause(turn: int | None) -> None:
    """``KATARI_TEST_SAVE_SLEEP``: between the temp write and the rename of a whole save."""
    _test_hook("SAVE_SLEEP", turn)


def check_target(path: Path) -> None:
    """Raises ``NotRegularFile`` unless ``path`` is a regular file or does not exist yet.

    ``lstat``: a symlink is refused too, whatever it points at; replacing it would turn it into
    a file, and writing through it would write somewhere the user did not name."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError:
        return  # (the write that follows says what is wrong)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(path)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes. A FIFO, a device or a folder is
    refused (``NotRegularFile``) without blocking or reading; a bigger file raises
    ``FileError("too_big")``; other failures are the OSError."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path)
        if st.st_size > limit:
            raise FileError("too_big", mb=limit >> 20)
        chunks: list[bytes] = []
        n = 0
        while True:
            b = os.read(fd, min(1 << 20, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
            if n > limit:
                raise FileError("too_big", mb=limit >> 20)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _fsync_dir(folder: Path) -> None:
    if hasattr(os, "O_DIRECTORY"):  # make a rename itself durable (POSIX)
        try:
            dfd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass


def _write_tmp(path: Path, data: bytes, parents: bool = True) -> Path:
    if parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _unlink(tmp)
        raise
    return tmp


def _unlink(p: Path) -> None:
    try:
        p.unlink()
    except OSError:
        pass


def atomic_write(path: Path, data: bytes, *, turn: int | None = None, parents: bool = True) -> None:
    """Writes ``data`` to ``path`` so that a crash leaves either the old file or the new one
    (creating the folders on the way unless ``parents`` is false).

    The one way Katari writes a file: saves, transcripts, exports and WAVs all come here (or
    to :func:`open_for_write`). ``path`` must be a regular file or new (``NotRegularFile``)."""
    check_target(path)
    tmp = _write_tmp(path, data, parents)
    try:
        _test_pause(turn)
        check_target(path)
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise
    _fsync_dir(path.parent)


def atomic_create(path: Path, data: bytes) -> bool:
    """Like :func:`atomic_write`, but never replaces an existing file: returns False (and
    writes nothing) when ``path`` exists. For backups, which must never overwrite a game."""
    tmp = _write_tmp(path, data)
    try:
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        _unlink(tmp)
    _fsync_dir(path.parent)
    return True


def open_for_write(path: str | Path) -> Any:
    """A binary file opened for writing at ``path`` (created or truncated), for writers that
    stream (WAVs paced in real time). Refuses what is not a regular file, as atomic_write does."""
    p = Path(path)
    check_target(p)
    fd = os.open(
        p,
        os.O_WRONLY
        | os.O_CREAT
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_CLOEXEC", 0),
        0o644,
    )
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile(p)
        os.ftruncate(fd, 0)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def clean_tmp(folder: Path) -> list[Path]:
    """Removes temp files left by a process that died mid-save (never a live one's)."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for p in folder.iterdir():
        m = _TMP.match(p.name)
        if not m:
            continue
        pid = int(m.group(2))
        if pid != os.getpid() and _alive(pid):
            continue
        try:
            p.unlink()
            removed.append(p)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


# -- the game timeline -------------------------------------------------------


@dataclass(slots=True)
class Entry:
    """One command as played: the text, and the faces of any dice entered by hand."""

    command: str
    dice: list[int] | None = None
    manual: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"command": self.command}
        if self.dice:
            d["dice"] = list(self.dice)
        if self.manual:
            d["manual"] = True
        return d

    @classmethod
    def from_json(cls, d: Any) -> Entry:
        if isinstance(d, str):
            return cls(d)
        if not isinstance(d, dict) or not isinstance(d.get("command"), str):
            raise FileError("entry_damaged")
        dice = d.get("dice")
        if dice is not None and (
            not isinstance(dice, list) or not all(isinstance(x, int) for x in dice)
        ):
            raise FileError("dice_damaged")
        return cls(d["command"], dice or None, bool(d.get("manual", False)))


@dataclass
class Timeline:
    """A game so far: the states after each command, python-chess style, and where we are.

    ``states[0]`` is the opening; ``log[i]`` took ``states[i]`` to ``states[i + 1]``. Undo and
    redo move ``pos``; a new command drops the redo branch.
    """

    story: str
    seed: int
    states: list[State]
    log: list[Entry] = field(default_factory=list)
    pos: int = 0
    gm: bool = False
    manual: bool = False
    start_dice: list[int] | None = None
    events: list[list[Event] | None] = field(default_factory=list)
    """Each state's events (the opening's for ``states[0]``); None where not known."""
    realtime: float = 0.0
    """Real seconds played (stories with a real-time limit). Kept here, outside the States,
    so that undo never gives time back."""

    def __post_init__(self) -> None:
        while len(self.events) < len(self.states):
            self.events.append(None)

    @property
    def state(self) -> State:
        return self.states[self.pos]

    @property
    def commands(self) -> list[Entry]:
        """The commands that led to the current state."""
        return self.log[: self.pos]

    @property
    def redo_log(self) -> list[Entry]:
        return self.log[self.pos :]

    def can_undo(self) -> bool:
        return self.pos > 0

    def can_redo(self) -> bool:
        return self.pos < len(self.log)

    def push(self, entry: Entry, state: State, events: list[Event] | None = None) -> None:
        del self.states[self.pos + 1 :]
        del self.events[self.pos + 1 :]
        del self.log[self.pos :]
        self.log.append(entry)
        self.states.append(state)
        self.events.append(events)
        self.pos += 1

    def undo(self, n: int = 1) -> int:
        k = max(0, min(n, self.pos))
        self.pos -= k
        return k

    def redo(self, n: int = 1) -> int:
        k = max(0, min(n, len(self.log) - self.pos))
        self.pos += k
        return k


def start(
    story: Any, seed: int, *, gm: bool = False, manual: bool = False, dice: list[int] | None = None
) -> tuple[Timeline, list[Event]]:
    """A new game's timeline and opening events (may raise ``NeedDice`` with ``manual``)."""
    from runner.engine import new_game

    state, events = new_game(story, seed, gm=gm, dice=dice, manual=manual)
    tl = Timeline(
        story.id,
        seed,
        [state],
        gm=gm,
        manual=manual,
        start_dice=list(dice) if dice else None,
        events=[events],
    )
    return tl, events


def rebuild(
    story: Any,
    seed: int,
    entries: Iterable[Entry],
    *,
    gm: bool = False,
    manual: bool = False,
    start_dice: list[int] | None = None,
) -> Timeline:
    """Replays a game from its seed and commands through the engine."""
    from runner.engine import step

    tl, _ = start(story, seed, gm=gm, manual=manual, dice=start_dice)
    for e in entries:
        new, events = step(story, tl.state, e.command, dice=e.dice, manual=e.manual, gm=gm)
        tl.push(e, new, events)
    return tl


def fill_events(story: Any, tl: Timeline) -> bool:
    """Recomputes missing per-turn events by replay, where the replay agrees with the saved
    states. Returns True when every turn's events are known."""
    if all(ev is not None for ev in tl.events):
        return True
    from runner.engine import new_game, step

    try:
        state, events = new_game(story, tl.seed, gm=tl.gm, dice=tl.start_dice, manual=tl.manual)
    except Exception:  # noqa: BLE001 - a changed story may fail in many ways; events stay unknown
        return False
    if state.to_dict() != tl.states[0].to_dict():
        return False
    tl.events[0] = tl.events[0] or events
    for i, e in enumerate(tl.log):
        try:
            state, events = step(
                story, tl.states[i], e.command, dice=e.dice, manual=e.manual, gm=tl.gm
            )
        except Exception:  # noqa: BLE001
            return False
        if state.to_dict() != tl.states[i + 1].to_dict():
            return False
        if tl.events[i + 1] is None:
            tl.events[i + 1] = events
    return True


# -- fingerprints ------------------------------------------------------------

_fp_cache: dict[str, str] = {}


def fingerprint(story: Any) -> str:
    """sha256 of the story's YAML files (names and bytes): tells a save that the story changed."""
    path = getattr(story, "path", "") or ""
    hit = _fp_cache.get(path)
    if hit is not None:
        return hit
    h = hashlib.sha256()
    try:
        from runner.story import story_files

        p = Path(path)
        for f in story_files(p):
            h.update(str(f.relative_to(p) if p.is_dir() else f.name).encode())
            h.update(b"\0")
            h.update(f.read_bytes())
            h.update(b"\0")
    except (OSError, ValueError):
        h.update(str(getattr(story, "id", "")).encode())
    out = h.hexdigest()[:32]
    _fp_cache[path] = out
    return out


def forget_fingerprint(path: str) -> None:
    """The story's files changed (``--watch``): the next :func:`fingerprint` reads them again."""
    _fp_cache.pop(str(path), None)


# -- save documents ----------------------------------------------------------


def _canonical(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def _sha(body: Any) -> str:
    return hashlib.sha256(_canonical(body)).hexdigest()


def _place(story: Any, state: State) -> str:
    if state.ending is not None:
        e = story.endings.get(state.ending) if story is not None else None
        return (e.title if e is not None and e.title else state.ending) or ""
    node = story.nodes.get(state.node) if story is not None else None
    return (node.title if node is not None and node.title else state.node) or ""


def place_of(story: Any, info: SaveInfo) -> str:
    """Where a saved game is, named by ``story`` as loaded now (in the language played now:
    a game saved in Japanese and listed in English says Darkness, not 暗闇); the name the save
    recorded where the story has no such place (or the save did not record it)."""
    if info.ended or not info.node or story is None:
        return info.place
    node = story.nodes.get(info.node)
    return node.title if node is not None and node.title else info.place


def _time(story: Any, state: State) -> str:
    from runner.engine import clock_text

    if story is not None and story.clock is not None:
        return clock_text(story, state.clock)
    return ""


def _meta(story: Any, st: State, now: _dt.datetime | None = None) -> dict:
    """What the save list shows of a game: when it was saved, where and when in the story."""
    now = now or _dt.datetime.now().astimezone()
    return {
        "saved_at": now.isoformat(timespec="seconds"),
        "place": _place(story, st),
        "node": st.node,
        "time": _time(story, st),
        "turn": st.turn,
        "ending": st.ending,
    }


def save_doc(story: Any, tl: Timeline, *, now: _dt.datetime | None = None) -> dict:
    """The JSON document of a save (with its checksum)."""
    from runner import __version__

    st = tl.state
    body = {
        "story": tl.story,
        "story_title": getattr(story, "title", ""),
        "story_path": str(getattr(story, "path", "")),
        "fingerprint": fingerprint(story),
        "story_version": str(getattr(story, "version", "") or ""),
        **_lang(story),
        "seed": tl.seed,
        "gm": tl.gm,
        "manual": tl.manual,
        "start_dice": tl.start_dice,
        "commands": [e.to_json() for e in tl.commands],
        "redo": [e.to_json() for e in tl.redo_log],
        "pos": tl.pos,
        "state": st.to_dict(),
        "states": [s.to_dict() for s in tl.states],
        **_meta(story, st, now),
        "katari": __version__,
    }
    if tl.realtime:
        body["realtime"] = round(float(tl.realtime), 3)
    return _doc(body)


def _lang(story: Any) -> dict:
    """The language the game is played in: the story's (its translation's when one was laid
    over it). A replay or a resume lays the same translation over the story, since the names
    the rules put in the State at the start are in that language."""
    lang = getattr(story, "language", None)
    return {"lang": lang} if isinstance(lang, str) and lang else {}


def recorded_lang(data: dict, story: Any) -> str | None:
    """The language a save or replay block was played in; a file from before Katari recorded
    it was played in the story's own language."""
    lang = data.get("lang")
    if isinstance(lang, str) and lang:
        return lang
    src = getattr(story, "cache", {}).get("_source", story) if story is not None else None
    return getattr(src, "language", None)


def _doc(body: dict) -> dict:
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "sha256": _sha(body), "body": body}


def _doc_bytes(doc: dict) -> bytes:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()


def journal_path(path: Path) -> Path:
    """The journal beside a save: ``autosave.json`` -> ``autosave.journal``."""
    return path.with_suffix(".journal")


def write_save(path: Path, story: Any, tl: Timeline) -> dict:
    """Writes the whole game to ``path`` at once (``save NAME``); any journal of that slot is
    dropped, since the new file holds everything."""
    doc = save_doc(story, tl)
    atomic_write(path, _doc_bytes(doc), turn=tl.state.turn)
    _unlink(journal_path(path))
    return doc


def _read_json(path: Path, limit: int = MAX_SAVE_BYTES) -> Any:
    """A bounded JSON file: regular, at most ``limit`` bytes, UTF-8, bounded depth and digits."""
    try:
        raw = read_regular(path, limit)
    except OSError as e:
        raise FileError("cannot_read_it", why=e) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("not_json") from None
    try:
        return parse_json(text)
    except SchemaError as e:
        raise FileError("schema", field=e.field, detail=e.problem, kind=e.kind) from None
    except SaveError:
        raise FileError("not_json") from None


def _verified(doc: Any) -> tuple[dict, str]:
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise FileError("not_save")
    v = doc.get("version")
    if type(v) is not int:
        raise FileError("no_version")
    if v > SAVE_VERSION:
        raise FileError("newer", v=v, have=SAVE_VERSION)
    body = doc.get("body")
    sha = doc.get("sha256")
    if not isinstance(body, dict) or not isinstance(sha, str) or _sha(body) != sha:
        raise FileError("checksum")
    return body, sha


def read_doc(path: Path) -> dict:
    """The verified body of a save file, its journal applied, checked against the save schema
    (:func:`check_body`); ``SaveError`` (one line) if it is not a good save."""
    return _read_save(path)[0]


def _read_save(path: Path) -> tuple[dict, str]:
    body, sha = _verified(_read_json(path))
    body = _apply_journal(body, sha, journal_path(path))
    check_body(body)
    return body, sha


def _schema(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except SchemaError as e:
        raise FileError("schema", field=e.field, detail=e.problem, kind=e.kind) from None


def _entries(v: Any, field: str) -> None:
    if type(v) is not list:
        raise SchemaError(field, "must be a list of commands")
    for i, e in enumerate(v):
        if type(e) is str:
            check_text(e, f"{field}[{i}]", MAX_COMMAND)
            continue
        if type(e) is not dict:
            raise SchemaError(f"{field}[{i}]", "must be a command")
        check_text(e.get("command"), f"{field}[{i}].command", MAX_COMMAND)
        if e.get("dice") is not None:
            _dice(e["dice"], f"{field}[{i}].dice")
        if type(e.get("manual", False)) is not bool:
            raise SchemaError(f"{field}[{i}].manual", "must be true or false")


def _dice(v: Any, field: str) -> None:
    if type(v) is not list or len(v) > 10_000:
        raise SchemaError(field, "must be a list of faces")
    for i, x in enumerate(v):
        check_int(x, f"{field}[{i}]", 0, 1_000_000)


def _check_body(body: Any) -> None:
    if type(body) is not dict:
        raise SchemaError("body", "must be a JSON object")
    check_text(body.get("story"), "story", 200)
    for k in (
        "story_title",
        "story_path",
        "fingerprint",
        "saved_at",
        "place",
        "time",
        "katari",
        "story_version",
    ):
        if k in body:
            check_text(body[k], k, 4096)
    if "lang" in body:
        check_text(body["lang"], "lang", 40)
    check_int(body.get("seed"), "seed", -(1 << 63), (1 << 64) - 1)
    for k in ("gm", "manual"):
        if type(body.get(k, False)) is not bool:
            raise SchemaError(k, "must be true or false")
    if body.get("start_dice") is not None:
        _dice(body["start_dice"], "start_dice")
    _entries(body.get("commands"), "commands")
    _entries(body.get("redo", []), "redo")
    states = body.get("states")
    if type(states) is not list or not states:
        raise SchemaError("states", "must be a list of states")
    for i, d in enumerate(states):
        check_state(d, f"states[{i}].")
    pos = check_int(body.get("pos"), "pos", 0, len(states) - 1)
    if pos != len(body["commands"]) or len(states) != pos + len(body.get("redo", [])) + 1:
        raise FileError("timeline")
    check_state(body.get("state"), "state.")
    check_int(body.get("turn", 0), "turn", 0)
    if body.get("ending") is not None:
        check_text(body["ending"], "ending")
    rt = body.get("realtime", 0)
    if type(rt) not in (int, float) or not 0 <= rt <= MAX_NUMBER:
        raise SchemaError("realtime", "must be a number of seconds")


def check_body(body: Any) -> None:
    """The save schema, over a whole body: every field of the right type, every number within
    ±10^18 (the dice generator's 64 bits aside), every State by ``check_state``, a timeline
    that adds up. Raises ``FileError`` (one line, naming the first wrong field)."""
    _schema(_check_body, body)


def timeline_from(body: dict, story: Any, *, checked: bool = False) -> tuple[Timeline, bool]:
    """Rebuilds the timeline of a verified save body (``check_body``, unless ``checked``).
    Returns it and whether the story changed."""
    if body.get("story") != story.id:
        raise FileError("other_story", story=body.get("story"), have=story.id)
    if not checked:
        check_body(body)
    commands = [Entry.from_json(e) for e in body["commands"]]
    redo = [Entry.from_json(e) for e in body.get("redo", [])]
    states = [State.from_dict(d, story=story, checked=True) for d in body["states"]]
    pos = body["pos"]
    current = State.from_dict(body["state"], story=story, checked=True)
    if current.to_dict() != states[pos].to_dict():
        raise FileError("state_differs")
    sd = body.get("start_dice")
    tl = Timeline(
        story.id,
        body["seed"],
        states,
        commands + redo,
        pos,
        gm=bool(body.get("gm")),
        manual=bool(body.get("manual")),
        start_dice=list(sd) if isinstance(sd, list) else None,
    )
    tl.realtime = float(body.get("realtime", 0))
    return tl, body.get("fingerprint") != fingerprint(story)


def probe(story: Any, tl: Timeline) -> None:
    """Raises ``FileError("not_playable")`` unless the engine can show the game's current
    State: its actions, its status and its description. A save that passed the schema can
    still name things the story no longer has (an edited story) in ways only the rules see."""
    from runner.engine import available, describe, state_event

    st = tl.state
    try:
        available(story, st)
        state_event(story, st, gm=tl.gm)
        if st.ending is None:
            describe(story, st, gm=tl.gm)
    except Exception as e:  # noqa: BLE001 - whatever a damaged or foreign State does to the rules
        raise FileError("not_playable", what=type(e).__name__) from None


def load_save(path: Path, story: Any) -> tuple[Timeline, bool]:
    """A save as a timeline the console can play from (``probe``d), or ``SaveError``."""
    tl, changed, _ = resume(path, story)
    return tl, changed


def resume(path: Path, story: Any) -> tuple[Timeline, Any, str | None]:
    """``load_save``, and the checksum of the file read (what an ``AutoSaver`` adopts).

    A save made on another version of the story (its fingerprint differs) is replayed on
    this one (see :func:`runner.ui.reload.migrate`); ``changed`` is then a ``Migrated`` that
    says how far the replay matched, and the checksum is None unless the replay is the saved
    game exactly, so that the first autosave keeps the old file aside, never over it."""
    body, sha = _read_save(path)
    if body.get("story") != story.id:
        raise FileError("other_story", story=body.get("story"), have=story.id)
    if body.get("fingerprint") != fingerprint(story):
        from runner.ui.reload import Migrated, migrate

        try:
            tl, rp, kept = migrate(body, story)
            probe(story, tl)
        except SaveError:
            pass  # neither a replay nor the saved States: the plain reading says why
        else:
            done = Migrated(rp, kept)
            return tl, done, sha if (done.same or kept) else None
    tl, changed = timeline_from(body, story, checked=True)
    probe(story, tl)
    return tl, changed, sha


def save_new(story_id: str, base: str, story: Any, tl: Timeline) -> str:
    """Writes the game to a new slot named ``base`` (``base-2``, ... when taken), never over
    another file; returns the slot's name."""
    data = _doc_bytes(save_doc(story, tl))
    for k in range(1, 1000):
        name = base if k == 1 else f"{base}-{k}"
        new = slot_path(story_id, name)
        if not journal_path(new).exists() and atomic_create(new, data):
            return name
    raise FileError("no_room")


# -- the journal: a save that grows by one line a command ----------------------

JOURNAL_FORMAT = "katari-journal"
COMPACT_MIN = 256 << 10
"""A journal is folded into its save once it is longer than this and than the save itself:
each command appends one line, and the whole game is rewritten only as often as its size
doubles, so a command costs the same at turn 10 and at turn 10,000."""


def _compact_due(journal: int, base: int) -> bool:
    """Whether a journal of ``journal`` bytes is folded into a save of ``base`` bytes now.
    Test hook: ``KATARI_TEST_COMPACT_BYTES=N`` folds at N bytes whatever the save's size (0:
    every save writes the whole game)."""
    spec = os.environ.get("KATARI_TEST_COMPACT_BYTES")
    if spec:
        try:
            return journal >= int(spec)
        except ValueError:
            pass
    return journal > max(COMPACT_MIN, base)


def _line(rec: dict) -> bytes:
    return _canonical({**rec, "sha256": _sha(rec)}) + b"\n"


def _read_line(raw: bytes) -> dict | None:
    """A journal line as data, or None if it is torn or its checksum fails."""
    try:
        rec = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, SaveError):
        return None
    if not isinstance(rec, dict):
        return None
    sha = rec.pop("sha256", None)
    return rec if isinstance(sha, str) and _sha(rec) == sha else None


def _apply_journal(body: dict, base_sha: str, jpath: Path) -> dict:
    """``body`` with the records of its journal applied, in order, up to the first torn or
    unverifiable line (the command in flight when the process died). A journal written for
    another save (left by a crash between a fold and the journal's removal, when the save
    already holds it) is ignored."""
    try:
        raw = read_regular(jpath, MAX_SAVE_BYTES)
    except FileNotFoundError:
        return body
    except OSError as e:
        raise FileError("cannot_read_it", why=e) from None
    lines = raw.split(b"\n")
    head = _read_line(lines[0])
    if head is None or head.get("format") != JOURNAL_FORMAT or head.get("base") != base_sha:
        return body
    log = list(body.get("commands") or []) + list(body.get("redo") or [])
    states = list(body.get("states") or [])
    if len(states) != len(log) + 1:
        raise FileError("timeline")
    pos, out, n = body.get("pos"), dict(body), 0
    for raw_line in lines[1:]:
        rec = _read_line(raw_line) if raw_line else None
        if rec is None:
            break
        at, add = rec.get("at"), rec.get("add")
        if (
            type(at) is not int
            or not 1 <= at <= len(states)
            or type(add) is not list
            or any(type(p) is not list or len(p) != 2 for p in add)
        ):
            raise FileError("schema", field="journal", detail="a record that does not fit")
        del states[at:]
        del log[at - 1 :]
        for entry, st in add:
            log.append(entry)
            states.append(st)
        pos = rec.get("pos")
        if type(pos) is not int or not 0 <= pos < len(states):
            raise FileError("schema", field="journal.pos", detail="out of range")
        last_pos: int = pos
        meta = rec.get("meta")
        if isinstance(meta, dict):
            out.update(
                {k: meta[k] for k in ("saved_at", "place", "time", "turn", "ending") if k in meta}
            )
        if "realtime" in rec:
            out["realtime"] = rec["realtime"]
        n += 1
    if n:
        out.update(
            commands=log[:last_pos],
            redo=log[last_pos:],
            states=states,
            pos=last_pos,
            state=states[last_pos],
        )
    return out


class AutoSaver:
    """The autosave of one slot, written incrementally and kill-safe.

    The first save of a session writes the whole game (atomically: temp file, fsync, rename)
    and remembers its checksum. Each later save appends one checksummed line to
    ``<slot>.journal`` (and fsyncs it): the States added since, and where the game stands.
    When the journal outgrows the save, or when the session ends, the whole game is written
    again and the journal removed. A reader (``read_doc``) applies the journal's lines to the
    save it names, stopping at a torn last line.

    The session never writes over a file it did not read: before its first write, a file in
    the slot that is not the one it loaded (``adopted``, a checksum) is moved aside."""

    def __init__(self, path: Path, adopted: str | None = None) -> None:
        self.path = path
        self.jpath = journal_path(path)
        self.adopted = adopted
        self.checked = False
        self.aside: Path | None = None
        """Set when a file found in the slot was moved aside (for the console to say so)."""
        self._tl: Timeline | None = None
        self._states: list[State] = []
        self._pos = -1
        self._realtime = 0.0
        self._base: str | None = None
        self._base_size = 0
        self._journal_size = 0
        self._fd: int | None = None

    @property
    def slot(self) -> str:
        return self.path.stem

    def save(self, story: Any, tl: Timeline) -> None:
        if (
            self._tl is not tl
            or self._base is None
            or not self._states
            or tl.states[0] is not self._states[0]
            or _compact_due(self._journal_size, self._base_size)
        ):
            self.compact(story, tl)
            return
        rec = self._record(story, tl)
        if rec is not None:
            self._append(rec, tl)

    def compact(self, story: Any, tl: Timeline) -> None:
        """Writes the whole game and drops the journal."""
        if not self.checked:
            self._guard()
        self._close()
        doc = save_doc(story, tl)
        data = _doc_bytes(doc)
        atomic_write(self.path, data, turn=tl.state.turn)
        self.checked = True
        self._base, self._base_size, self._journal_size = doc["sha256"], len(data), 0
        self._mirror(tl)
        _unlink(self.jpath)  # its lines are in the save now (or it belonged to a file moved aside)

    def close(self, story: Any = None, tl: Timeline | None = None) -> None:
        """Ends the session: folds the journal into the save (so a clean exit leaves one
        plain save file), then lets go of the file."""
        try:
            if (
                story is not None
                and tl is not None
                and self._base is not None
                and (self._journal_size or self._record(story, tl) is not None)
            ):
                self.compact(story, tl)
        finally:
            self._close()

    # -- inside --------------------------------------------------------------
    def _guard(self) -> None:
        if not os.path.lexists(self.path):
            return
        try:
            head = _head(self.path, 400)
        except OSError:
            head = b""
        m = re.search(rb'"sha256":"([0-9a-f]{64})"', head)
        if m is None or self.adopted is None or m.group(1).decode() != self.adopted:
            kind = "broken" if save_info(self.path).error else "kept"
            self.aside = move_aside(self.path, kind)

    def _mirror(self, tl: Timeline) -> None:
        self._tl = tl
        self._states = list(tl.states)
        self._pos = tl.pos
        self._realtime = tl.realtime

    def _record(self, story: Any, tl: Timeline) -> dict | None:
        """What changed since the last save, as one journal record (None: nothing)."""
        have, mine = tl.states, self._states
        p = min(len(have), len(mine))
        while p > 1 and have[p - 1] is not mine[p - 1]:
            p -= 1  # (states[0], the opening, is shared: save() checked it)
        if p == len(have) == len(mine) and tl.pos == self._pos and tl.realtime == self._realtime:
            return None
        return {
            "at": p,
            "add": [[tl.log[i - 1].to_json(), have[i].to_dict()] for i in range(p, len(have))],
            "pos": tl.pos,
            "realtime": round(float(tl.realtime), 3),
            "meta": _meta(story, tl.state),
        }

    def _append(self, rec: dict, tl: Timeline) -> None:
        line = _line(rec)
        try:
            if self._fd is None and not self.jpath.exists():
                # The first line after a fold: the journal is born whole, naming its save.
                head = _line({"format": JOURNAL_FORMAT, "version": 1, "base": self._base})
                atomic_write(self.jpath, head + line, turn=None)
                self._journal_size = len(head)
            else:
                if self._fd is None:
                    check_target(self.jpath)
                    self._fd = os.open(
                        self.jpath, os.O_WRONLY | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
                    )
                half = len(line) // 2
                if os.environ.get("KATARI_TEST_JOURNAL_SLEEP"):
                    _write_all(self._fd, line[:half])
                    os.fsync(self._fd)
                    _test_hook("JOURNAL_SLEEP", tl.state.turn)  # a kill here tears the line
                    _write_all(self._fd, line[half:])
                else:
                    _write_all(self._fd, line)
                os.fsync(self._fd)
        except BaseException:
            self._base = None  # the next save writes the whole game: no line after a torn one
            self._close()
            raise
        self._journal_size += len(line)
        del self._states[rec["at"] :]
        self._states.extend(tl.states[rec["at"] :])
        self._pos = tl.pos
        self._realtime = tl.realtime

    def _close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None


def _head(path: Path, n: int) -> bytes:
    """The first ``n`` bytes of a regular file (a FIFO or a device gives b"", unread)."""
    fd = os.open(
        path,
        os.O_RDONLY
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_CLOEXEC", 0),
    )
    try:
        return os.read(fd, n) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


# -- slots, backups, files moved aside, locks ---------------------------------

_ASIDE = re.compile(r"([\w\-]{1,40})\.(broken|kept)-(\d{8}-\d{6})(?:-(\d{1,3}))?")


def is_autosave(slot: str) -> bool:
    """Katari's own slots: ``autosave`` and ``autosave-N`` (a player cannot ``save`` there)."""
    return slot == AUTOSAVE or (
        slot.startswith(AUTOSAVE + "-") and slot[len(AUTOSAVE) + 1 :].isdigit()
    )


def save_path(story_id: str, name: str) -> Path:
    """The file of a save the player names for ``load``: a slot, or a file moved aside
    (``autosave.broken-20250101-120000``), with or without ``.json``."""
    if name.endswith(".json"):
        name = name[:-5]
    if _ASIDE.fullmatch(name):
        return saves_dir(story_id) / f"{name}.json"
    return slot_path(story_id, name)


def move_aside(path: Path, kind: str = "broken") -> Path:
    """Moves a save Katari must not write over (it cannot read it, or it is not the game the
    session loaded) to ``<slot>.<kind>-YYYYmmdd-HHMMSS.json``, with its journal; never over
    another file. Returns the new path. ``saves`` lists it and ``load`` takes its name."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    slot = path.stem
    m = _ASIDE.fullmatch(slot)
    if m:
        slot = m.group(1)
    for k in range(1, 1000):
        new = path.with_name(f"{slot}.{kind}-{stamp}" + (f"-{k}" if k > 1 else "") + ".json")
        if journal_path(new).exists():
            continue
        try:
            os.link(path, new)  # never replaces: two sessions cannot move onto one name
        except FileExistsError:
            continue
        except OSError:
            if new.exists():
                continue
            os.rename(path, new)  # a file system without hard links
        else:
            os.unlink(path)
        jp = journal_path(path)
        if jp.exists():
            try:
                os.rename(jp, journal_path(new))
            except OSError:
                pass
        _fsync_dir(path.parent)
        return new
    raise FileError("no_room")


def keep_game(story_id: str, slot: str, base: str) -> str:
    """Moves the game in ``slot`` to a new slot named ``base`` (``base-2``, ``base-3``... when
    taken), never over another file. Returns the new slot's name. The game is copied whole
    (journal folded in) before the old files are removed, so a crash leaves it somewhere."""
    path = slot_path(story_id, slot)
    jp = journal_path(path)
    data = None
    if jp.exists():
        data = _doc_bytes(_doc(read_doc(path)))
    for k in range(1, 1000):
        name = base if k == 1 else f"{base}-{k}"
        new = slot_path(story_id, name)
        if journal_path(new).exists():
            continue
        if data is not None:
            if not atomic_create(new, data):
                continue
            _unlink(jp)
            _unlink(path)
        else:
            try:
                os.link(path, new)
            except FileExistsError:
                continue
            except OSError:
                if new.exists():
                    continue
                os.rename(path, new)
            else:
                os.unlink(path)
        _fsync_dir(path.parent)
        return name
    raise FileError("no_room")


def backup_name(now: _dt.datetime | None = None) -> str:
    """The slot a game set aside by "start a new one" goes to: ``backup-YYYYmmdd-HHMM``."""
    return "backup-" + (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M")


class SlotLock:
    """An OS lock (``flock``) on one save slot, held for the session: a second session of the
    same story cannot write the game this one is playing. Released when the process ends,
    however it ends. Where locks cannot be taken (no ``fcntl``, a read-only folder) the lock
    is a no-op: nothing can be written there either."""

    def __init__(self, fd: int | None, slot: str) -> None:
        self.fd = fd
        self.slot = slot

    @classmethod
    def take(cls, story_id: str, slot: str) -> SlotLock | None:
        """The lock of ``slot``, or None if another process holds it."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return cls(None, slot)
        d = saves_dir(story_id)
        try:
            d.mkdir(parents=True, exist_ok=True)
            fd = os.open(
                d / f".{slot}.lock",
                os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0),
                0o644,
            )
        except OSError:
            return cls(None, slot)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        except OSError:
            os.close(fd)
            return cls(None, slot)
        return cls(fd, slot)

    def release(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)  # (closing the last descriptor drops the flock)
            except OSError:
                pass
            self.fd = None


@dataclass(slots=True)
class SaveInfo:
    slot: str
    path: Path
    when: str = ""
    place: str = ""
    time: str = ""
    turn: int = 0
    ended: bool = False
    commands: int = 0
    error: str | None = None
    """Why the file cannot be loaded, in one line (English; ``reason(info.exc, lang)`` says it
    in the interface language)."""
    exc: SaveError | None = None
    sha: str = ""
    """The checksum of the save file itself (what a session that resumes it adopts)."""
    lang: str | None = None
    """The language the game was played in (None: a save from before Katari recorded it,
    played in the story's own language)."""
    node: str = ""
    """Where the game was (its node's id; "" in a save from before Katari recorded it)."""


def save_info(path: Path, story_id: str | None = None) -> SaveInfo:
    slot = path.stem
    try:
        body, sha = _read_save(path)
        if story_id is not None and body.get("story") != story_id:
            raise FileError("belongs", story=body.get("story"))
    except SaveError as e:
        return SaveInfo(slot, path, error=str(e), exc=e)
    when = str(body.get("saved_at", ""))
    try:
        when = _dt.datetime.fromisoformat(when).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        pass
    return SaveInfo(
        slot,
        path,
        when,
        str(body.get("place", "")),
        str(body.get("time", "")),
        body.get("turn", 0),
        body.get("ending") is not None,
        len(body["commands"]),
        sha=sha,
        lang=body.get("lang"),
        node=str(body.get("node") or ""),
    )


def list_saves(story_id: str) -> list[SaveInfo]:
    """Every save file of a story, newest first; damaged ones carry ``error``."""
    d = saves_dir(story_id)
    if not d.is_dir():
        return []
    clean_tmp(d)
    infos = [save_info(p, story_id) for p in d.glob("*.json") if not p.name.startswith(".")]
    infos.sort(key=lambda i: (i.error is None, i.when, i.slot), reverse=True)
    return infos


# -- transcripts -------------------------------------------------------------


def replay_block(story: Any, tl: Timeline) -> dict:
    """What ``katari replay`` needs to re-run a game and check where it ends."""
    return {
        "format": REPLAY_FORMAT,
        "version": 1,
        "story": tl.story,
        "story_path": str(getattr(story, "path", "")),
        "fingerprint": fingerprint(story),
        "story_version": str(getattr(story, "version", "") or ""),
        **_lang(story),
        "seed": tl.seed,
        "gm": tl.gm,
        "manual": tl.manual,
        "start_dice": tl.start_dice,
        "commands": [e.to_json() for e in tl.commands],
        "state": tl.state.to_dict(),
    }


def transcript_markdown(
    story: Any, tl: Timeline, *, lang: str = "ja", started: str = "", credits: Iterable[str] = ()
) -> str:
    """The game so far as a shareable Markdown replay, with a machine-readable block at the end."""
    from runner.ui.render import _md, markdown_turn

    fill_events(story, tl)
    ja = lang == "ja"
    out = [
        f"# {_md(getattr(story, 'title', '') or tl.story)}"
        + (" — リプレイ" if ja else " — replay"),
        "",
    ]
    meta = [
        ("物語" if ja else "Story", f"`{tl.story}`"),
        ("シード" if ja else "Seed", f"`{tl.seed}`"),
    ]
    if started:
        meta.append(("日時" if ja else "Date", started))
    if tl.gm:
        meta.append(("モード" if ja else "Mode", "GM"))
    if tl.manual:
        meta.append(("ダイス" if ja else "Dice", "手振り" if ja else "rolled by hand"))
    out += [f"- {k}: {v}" for k, v in meta] + ["", "---", ""]
    for i in range(tl.pos + 1):
        events = tl.events[i]
        cmd = None if i == 0 else tl.log[i - 1].command
        if events is None:
            out.append(f"**▶ {_md(cmd or '')}**" if cmd is not None else "")
            out.append("")
            out.append("*（記録なし）*" if ja else "*(not recorded)*")
            out.append("")
            continue
        shown = [e for e in events if e.get("type") != "prompt"]
        out.append(
            markdown_turn(shown, story, lang=lang, gm=tl.gm, command=cmd, n=i if cmd else None)
        )
    credits = list(credits)
    if credits:  # the voices that read the game aloud, credited as their terms ask (VOICEVOX:…)
        out += [
            "## " + ("読み上げの声" if ja else "Voices"),
            "",
            *[f"- {_md_line(c)}" for c in credits],
            "",
        ]
    block = json.dumps(replay_block(story, tl), ensure_ascii=False, separators=(",", ":"))
    out += [
        "---",
        "",
        "<details><summary>"
        + (
            "再現データ（katari replay で再生できます）"
            if ja
            else "Replay data (re-run it with katari replay)"
        )
        + "</summary>",
        "",
        "```" + REPLAY_FORMAT,
        block,
        "```",
        "",
        "</details>",
        "",
    ]
    return "\n".join(out)


def write_transcript(
    path: Path,
    story: Any,
    tl: Timeline,
    *,
    lang: str = "ja",
    started: str = "",
    credits: Iterable[str] = (),
) -> None:
    atomic_write(
        path, transcript_markdown(story, tl, lang=lang, started=started, credits=credits).encode()
    )


def _md_line(text: str) -> str:
    return "".join(ch for ch in str(text) if ch.isprintable())[:300]


def default_transcript_path(story_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return transcripts_dir() / f"{_safe(story_id)}-{stamp}.md"


def read_replay(path: Path) -> dict:
    """The replay data of a transcript (Markdown) or a save (JSON), as a replay block checked
    against its schema (:func:`check_replay`)."""
    try:
        raw = read_regular(path, MAX_TEXT_BYTES)
    except OSError as e:
        raise FileError("cannot_read", path=str(path), why=e) from None
    except FileError as e:
        raise FileError("cannot_read", path=str(path), why=reason(e, "en")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError("not_text", path=str(path)) from None
    if text.lstrip().startswith("{"):
        body = read_doc(path)
        return {
            "format": REPLAY_FORMAT,
            "story": body.get("story"),
            "story_path": body.get("story_path", ""),
            "fingerprint": body.get("fingerprint"),
            **({"lang": body["lang"]} if "lang" in body else {}),
            "seed": body.get("seed"),
            "gm": body.get("gm", False),
            "manual": body.get("manual", False),
            "start_dice": body.get("start_dice"),
            "commands": body.get("commands", []),
            "state": body.get("state"),
        }
    m = re.search(r"^```" + REPLAY_FORMAT + r"[ \t]*\n(.*?)\n```", text, re.S | re.M)
    if not m:
        raise FileError("no_block", name=path.name, fmt=REPLAY_FORMAT)
    try:
        data = parse_json(m.group(1))
    except SchemaError as e:
        raise FileError("schema", field=e.field, detail=e.problem, kind=e.kind) from None
    except SaveError:
        raise FileError("block_not_json") from None
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise FileError("block_not_katari")
    check_replay(data)
    return data


def _check_replay(data: dict) -> None:
    check_text(data.get("story"), "story", 200)
    for k in ("story_path", "fingerprint", "story_version"):
        if data.get(k) is not None:
            check_text(data[k], k, 4096)
    if data.get("lang") is not None:
        check_text(data["lang"], "lang", 40)
    check_int(data.get("seed", 0), "seed", -(1 << 63), (1 << 64) - 1)
    for k in ("gm", "manual"):
        if type(data.get(k, False)) is not bool:
            raise SchemaError(k, "must be true or false")
    if data.get("start_dice") is not None:
        _dice(data["start_dice"], "start_dice")
    _entries(data.get("commands", []), "commands")
    if data.get("state") is not None:
        check_state(data["state"], "state.")


def check_replay(data: dict) -> None:
    """The schema of a replay block: the same types and bounds as a save's."""
    _schema(_check_replay, data)


def newest_autosave(story_id: str) -> SaveInfo | None:
    """The newest readable autosave of a story (``autosave`` or ``autosave-N``), or None."""
    for info in list_saves(story_id):
        if info.error is None and (info.slot == AUTOSAVE or info.slot.startswith(AUTOSAVE + "-")):
            return info
    return None


def resumable(story_id: str) -> SaveInfo | None:
    """The autosave a console session offers to resume: the newest readable, unfinished
    autosave with at least one command, or None."""
    for info in list_saves(story_id):
        if is_autosave(info.slot) and not info.error and not info.ended and info.commands > 0:
            return info
    return None


def newest_finished(story_id: str) -> SaveInfo | None:
    """The newest readable save of a story whose game has ended, in any slot: a finished
    game set aside by a new one (``backup-…``) still counts for the next scenario."""
    for info in list_saves(story_id):
        if info.error is None and info.ended:
            return info
    return None


def finished_game(path: Path) -> dict:
    """What a campaign needs from an earlier game's save or transcript: a replay block
    (``story``, ``state``, ``story_path``, ...). ``SaveError`` (one line) if unreadable."""
    data = read_replay(path)  # (checked against the replay schema)
    if data.get("state") is None:
        raise FileError("damaged", what="state")
    return data


def new_history_file(story_id: str) -> Path:
    p = history_path(story_id)
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


__all__ = [
    "AUTOSAVE",
    "AutoSaver",
    "Entry",
    "FileError",
    "LOAD_BACKUP",
    "NotRegularFile",
    "SaveError",
    "SaveInfo",
    "SlotLock",
    "Timeline",
    "atomic_create",
    "atomic_write",
    "backup_name",
    "check_body",
    "check_replay",
    "check_target",
    "clean_tmp",
    "culprit",
    "default_transcript_path",
    "fill_events",
    "finished_game",
    "fingerprint",
    "history_path",
    "home",
    "is_autosave",
    "journal_path",
    "keep_game",
    "list_saves",
    "load_save",
    "move_aside",
    "newest_autosave",
    "newest_finished",
    "open_for_write",
    "os_reason",
    "probe",
    "read_doc",
    "read_regular",
    "read_replay",
    "reason",
    "rebuild",
    "resume",
    "save_doc",
    "save_info",
    "save_new",
    "save_path",
    "saves_dir",
    "slot_path",
    "start",
    "story_home",
    "timeline_from",
    "transcript_markdown",
    "valid_slot",
    "write_save",
    "write_transcript",
]
