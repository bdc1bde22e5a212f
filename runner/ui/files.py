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
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.engine.state import SaveError, State
from runner.ui.i18n import t

SAVE_FORMAT = "katari-save"
SAVE_VERSION = 1
REPLAY_FORMAT = "katari-replay"
AUTOSAVE = "autosave"
RESTART_BACKUP = "restart-backup"
_SLOT = re.compile(r"[\w\-]{1,40}")
_TMP = re.compile(r"^\.(.+)\.(\d+)\.tmp$")


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
    errno.ENOENT: "not_found", errno.ENOTDIR: "not_dir", errno.EEXIST: "not_dir",
    errno.EISDIR: "is_dir", errno.EACCES: "denied", errno.EPERM: "denied",
    errno.EROFS: "read_only", errno.ENOSPC: "disk_full", errno.EDQUOT: "disk_full",
}


def os_reason(e: OSError, lang: str = "ja") -> str:
    """Why a file operation failed, in the interface language (not the OS's English)."""
    name = _OS_REASONS.get(e.errno or 0)
    if name is None:
        return t("os_other", lang, code=errno.errorcode.get(e.errno or 0, type(e).__name__))
    return t(f"os_{name}", lang)


def reason(e: BaseException, lang: str = "ja") -> str:
    """One line saying why a save, transcript or replay cannot be used, in ``lang``."""
    if isinstance(e, FileError):
        kw = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in e.kw.items()}
        return t(f"why_{e.code}", lang, **kw)
    if isinstance(e, OSError):
        return os_reason(e, lang)
    if isinstance(e, SaveError) and lang != "en":
        return t("why_engine", lang)  # the engine's own checks speak English only
    return str(e).splitlines()[0] if str(e) else type(e).__name__


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
    env = os.environ.get("KATARI_HOME")
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("katari", appauthor=False))


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


def slot_path(story_id: str, slot: str) -> Path:
    if not valid_slot(slot):
        raise FileError("bad_name", slot=slot)
    return saves_dir(story_id) / f"{slot}.json"


# -- atomic writes -----------------------------------------------------------

def _test_pause(turn: int) -> None:
    """Test hook: ``KATARI_TEST_SAVE_SLEEP=TURN:SECONDS`` sleeps between the temp write and
    the rename when saving that turn, so a test can kill the process right there."""
    spec = os.environ.get("KATARI_TEST_SAVE_SLEEP")
    if not spec:
        return
    try:
        want, secs = spec.split(":", 1)
        if int(want) == turn:
            time.sleep(float(secs))
    except ValueError:
        pass


def atomic_write(path: Path, data: bytes, *, turn: int | None = None) -> None:
    """Writes ``data`` to ``path`` so that a crash leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if turn is not None:
            _test_pause(turn)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    if hasattr(os, "O_DIRECTORY"):  # make the rename itself durable (POSIX)
        try:
            dfd = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(dfd)
            finally:
                os.close(dfd)
        except OSError:
            pass


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
        if dice is not None and (not isinstance(dice, list) or not all(isinstance(x, int) for x in dice)):
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
    events: list[list[dict] | None] = field(default_factory=list)
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
        return self.log[self.pos:]

    def can_undo(self) -> bool:
        return self.pos > 0

    def can_redo(self) -> bool:
        return self.pos < len(self.log)

    def push(self, entry: Entry, state: State, events: list[dict] | None = None) -> None:
        del self.states[self.pos + 1:]
        del self.events[self.pos + 1:]
        del self.log[self.pos:]
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


def start(story: Any, seed: int, *, gm: bool = False, manual: bool = False,
          dice: list[int] | None = None) -> tuple[Timeline, list[dict]]:
    """A new game's timeline and opening events (may raise ``NeedDice`` with ``manual``)."""
    from runner.engine import new_game

    state, events = new_game(story, seed, gm=gm, dice=dice, manual=manual)
    tl = Timeline(story.id, seed, [state], gm=gm, manual=manual, start_dice=list(dice) if dice else None,
                  events=[events])
    return tl, events


def rebuild(story: Any, seed: int, entries: Iterable[Entry], *, gm: bool = False,
            manual: bool = False, start_dice: list[int] | None = None) -> Timeline:
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
            state, events = step(story, tl.states[i], e.command, dice=e.dice, manual=e.manual, gm=tl.gm)
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


# -- save documents ----------------------------------------------------------

def _canonical(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def _place(story: Any, state: State) -> str:
    if state.ending is not None:
        e = story.endings.get(state.ending) if story is not None else None
        return (e.title if e is not None and e.title else state.ending) or ""
    node = story.nodes.get(state.node) if story is not None else None
    return (node.title if node is not None and node.title else state.node) or ""


def _time(story: Any, state: State) -> str:
    from runner.engine import clock_text

    if story is not None and story.clock is not None:
        return clock_text(story, state.clock)
    return ""


def save_doc(story: Any, tl: Timeline, *, now: _dt.datetime | None = None) -> dict:
    """The JSON document of a save (with its checksum)."""
    from runner import __version__

    now = now or _dt.datetime.now().astimezone()
    st = tl.state
    body = {
        "story": tl.story,
        "story_title": getattr(story, "title", ""),
        "story_path": str(getattr(story, "path", "")),
        "fingerprint": fingerprint(story),
        "seed": tl.seed,
        "gm": tl.gm,
        "manual": tl.manual,
        "start_dice": tl.start_dice,
        "commands": [e.to_json() for e in tl.commands],
        "redo": [e.to_json() for e in tl.redo_log],
        "pos": tl.pos,
        "state": st.to_dict(),
        "states": [s.to_dict() for s in tl.states],
        "saved_at": now.isoformat(timespec="seconds"),
        "place": _place(story, st),
        "time": _time(story, st),
        "turn": st.turn,
        "ending": st.ending,
        "katari": __version__,
    }
    if tl.realtime:
        body["realtime"] = round(float(tl.realtime), 3)
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "sha256": hashlib.sha256(_canonical(body)).hexdigest(),
            "body": body}


def write_save(path: Path, story: Any, tl: Timeline) -> dict:
    doc = save_doc(story, tl)
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode()
    atomic_write(path, data, turn=tl.state.turn)
    return doc


def read_doc(path: Path) -> dict:
    """The verified body of a save file; ``SaveError`` (one line) if it is not a good save."""
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FileError("cannot_read_it", why=e) from None
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise FileError("not_json") from None
    if not isinstance(doc, dict) or doc.get("format") != SAVE_FORMAT:
        raise FileError("not_save")
    v = doc.get("version")
    if not isinstance(v, int):
        raise FileError("no_version")
    if v > SAVE_VERSION:
        raise FileError("newer", v=v, have=SAVE_VERSION)
    body = doc.get("body")
    if not isinstance(body, dict) or hashlib.sha256(_canonical(body)).hexdigest() != doc.get("sha256"):
        raise FileError("checksum")
    return body


def timeline_from(body: dict, story: Any) -> tuple[Timeline, bool]:
    """Rebuilds the timeline of a verified save body. Returns it and whether the story changed."""
    if body.get("story") != story.id:
        raise FileError("other_story", story=body.get("story"), have=story.id)
    try:
        commands = [Entry.from_json(e) for e in body["commands"]]
        redo = [Entry.from_json(e) for e in body.get("redo", [])]
        states = [State.from_dict(d, story=story) for d in body["states"]]
        pos = int(body["pos"])
        seed = int(body["seed"])
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, SaveError):
            raise
        raise FileError("damaged", what=type(e).__name__) from None
    if pos != len(commands) or len(states) != len(commands) + len(redo) + 1:
        raise FileError("timeline")
    current = State.from_dict(body["state"], story=story)
    if current.to_dict() != states[pos].to_dict():
        raise FileError("state_differs")
    sd = body.get("start_dice")
    tl = Timeline(story.id, seed, states, commands + redo, pos, gm=bool(body.get("gm")),
                  manual=bool(body.get("manual")), start_dice=list(sd) if isinstance(sd, list) else None)
    rt = body.get("realtime", 0)
    tl.realtime = float(rt) if isinstance(rt, (int, float)) and not isinstance(rt, bool) and rt >= 0 else 0.0
    return tl, body.get("fingerprint") != fingerprint(story)


def load_save(path: Path, story: Any) -> tuple[Timeline, bool]:
    return timeline_from(read_doc(path), story)


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


def save_info(path: Path, story_id: str | None = None) -> SaveInfo:
    slot = path.stem
    try:
        body = read_doc(path)
        if story_id is not None and body.get("story") != story_id:
            raise FileError("belongs", story=body.get("story"))
    except SaveError as e:
        return SaveInfo(slot, path, error=str(e), exc=e)
    when = str(body.get("saved_at", ""))
    try:
        when = _dt.datetime.fromisoformat(when).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        pass
    return SaveInfo(slot, path, when, str(body.get("place", "")), str(body.get("time", "")),
                    int(body.get("turn", 0) or 0), body.get("ending") is not None,
                    len(body.get("commands") or []))


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
    return {"format": REPLAY_FORMAT, "version": 1, "story": tl.story, "story_path": str(getattr(story, "path", "")),
            "fingerprint": fingerprint(story), "seed": tl.seed, "gm": tl.gm, "manual": tl.manual,
            "start_dice": tl.start_dice, "commands": [e.to_json() for e in tl.commands],
            "state": tl.state.to_dict()}


def transcript_markdown(story: Any, tl: Timeline, *, lang: str = "ja", started: str = "") -> str:
    """The game so far as a shareable Markdown replay, with a machine-readable block at the end."""
    from runner.ui.render import _md, markdown_turn

    fill_events(story, tl)
    ja = lang == "ja"
    out = [f"# {_md(getattr(story, 'title', '') or tl.story)}" + (" — リプレイ" if ja else " — replay"), ""]
    meta = [("物語" if ja else "Story", f"`{tl.story}`"), ("シード" if ja else "Seed", f"`{tl.seed}`")]
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
        out.append(markdown_turn(shown, story, lang=lang, gm=tl.gm, command=cmd, n=i if cmd else None))
    block = json.dumps(replay_block(story, tl), ensure_ascii=False, separators=(",", ":"))
    out += ["---", "", "<details><summary>" + ("再現データ（katari replay で再生できます）" if ja else
                                              "Replay data (re-run it with katari replay)") + "</summary>",
            "", "```" + REPLAY_FORMAT, block, "```", "", "</details>", ""]
    return "\n".join(out)


def write_transcript(path: Path, story: Any, tl: Timeline, *, lang: str = "ja", started: str = "") -> None:
    atomic_write(path, transcript_markdown(story, tl, lang=lang, started=started).encode())


def default_transcript_path(story_id: str) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return transcripts_dir() / f"{_safe(story_id)}-{stamp}.md"


def read_replay(path: Path) -> dict:
    """The replay data of a transcript (Markdown) or a save (JSON), as a replay block."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise FileError("cannot_read", path=str(path), why=e) from None
    except UnicodeDecodeError:
        raise FileError("not_text", path=str(path)) from None
    if text.lstrip().startswith("{"):
        body = read_doc(path)
        return {"format": REPLAY_FORMAT, "story": body.get("story"), "story_path": body.get("story_path", ""),
                "fingerprint": body.get("fingerprint"), "seed": body.get("seed"), "gm": body.get("gm", False),
                "manual": body.get("manual", False), "start_dice": body.get("start_dice"),
                "commands": body.get("commands", []), "state": body.get("state")}
    m = re.search(r"^```" + REPLAY_FORMAT + r"[ \t]*\n(.*?)\n```", text, re.S | re.M)
    if not m:
        raise FileError("no_block", name=path.name, fmt=REPLAY_FORMAT)
    try:
        data = json.loads(m.group(1))
    except json.JSONDecodeError:
        raise FileError("block_not_json") from None
    if not isinstance(data, dict) or data.get("format") != REPLAY_FORMAT:
        raise FileError("block_not_katari")
    return data


def newest_autosave(story_id: str) -> SaveInfo | None:
    """The newest readable autosave of a story (``autosave`` or ``autosave-N``), or None."""
    for info in list_saves(story_id):
        if info.error is None and (info.slot == AUTOSAVE or info.slot.startswith(AUTOSAVE + "-")):
            return info
    return None


def finished_game(path: Path) -> dict:
    """What a campaign needs from an earlier game's save or transcript: a replay block
    (``story``, ``state``, ``story_path``, ...). ``SaveError`` (one line) if unreadable."""
    data = read_replay(path)
    if not isinstance(data.get("state"), dict) or not isinstance(data.get("story"), str):
        raise FileError("damaged", what="state")
    return data


def new_history_file(story_id: str) -> Path:
    p = history_path(story_id)
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


__all__ = [
    "AUTOSAVE", "Entry", "FileError", "SaveError", "SaveInfo", "Timeline", "atomic_write", "clean_tmp",
    "culprit", "os_reason", "reason", "finished_game", "newest_autosave",
    "default_transcript_path", "fill_events", "fingerprint", "history_path", "home", "list_saves",
    "load_save", "read_doc", "read_replay", "rebuild", "save_doc", "save_info", "saves_dir",
    "slot_path", "start", "story_home", "timeline_from", "transcript_markdown", "valid_slot",
    "write_save", "write_transcript",
]
