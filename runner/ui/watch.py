"""The players' view of a game master's session: ``katari play STORY --gm --player-view FILE``
writes what a player may see, one JSON object a line, and ``katari watch FILE`` (another
terminal, a shared screen) follows it.

Only what a player may see goes into the file: narration and rolls that are not the keeper's,
the actions, endings, and the state as a player sees it (``state_event(gm=False)``). Keeper
notes, overrides, the GM panel, hidden values and the GM's own mistakes never do; an override
shows only through what it changes for the players (its narration, the status bar).

Lines: ``{"type": "hello", "story": path, "title": ..., "lang": ...}`` first, then for each
turn ``{"type": "turn", "command": text or null}`` followed by its events and one ``state``;
``{"type": "note", "code": "undone" | "redone" | "loaded" | "restarted", ...}`` when the GM
takes moves back or loads; ``{"type": "bye"}`` when the session ends.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

from runner.engine import state_event
from runner.ui.i18n import t
from runner.ui.render import Renderer, plain, status_items

if TYPE_CHECKING:  # annotations only
    from runner.engine.events import Event

PLAYER_EVENTS = ("narration", "roll", "ending", "prompt")
"""Event types a player sees (unless marked ``keeper``)."""


def player_events(events: Iterable[Event]) -> list[Event]:
    """The events of a turn that a player may see, in order (no state: see PlayerView)."""
    return [e for e in events if e.get("type") in PLAYER_EVENTS and not e.get("keeper")]


class PlayerView:
    """Writes the players' view of a session to ``path`` (created afresh, flushed each turn)."""

    def __init__(self, path: str | Path, story: Any, lang: str) -> None:
        self.path = Path(os.path.expanduser(str(path)))
        self.story = story
        self.failed: OSError | None = None
        self._f: IO[str] | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._f = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for the session
        except OSError as e:
            self.failed = e
            return
        self._write(
            {
                "type": "hello",
                "story": str(getattr(story, "path", "") or story.id),
                "id": story.id,
                "title": story.title or story.id,
                "lang": lang,
            }
        )

    def _write(self, *objs: Mapping[str, object]) -> None:
        if self._f is None:
            return
        try:
            for o in objs:
                self._f.write(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n")
            self._f.flush()
        except (OSError, ValueError) as e:
            self.failed = e if isinstance(e, OSError) else OSError(str(e))
            self.close()

    def turn(self, command: str | None, events: Iterable[Event], state: Any) -> None:
        """One turn: the command a player typed (None for the GM's own), what they see of it,
        and the state as they see it."""
        shown = player_events(events)
        if not shown:
            return  # nothing a player sees (a GM's slip, an answer only the GM reads)
        self._write(
            {"type": "turn", "command": command}, *shown, state_event(self.story, state, gm=False)
        )

    def note(self, code: str, **data: Any) -> None:
        self._write({"type": "note", "code": code, **data})

    def close(self) -> None:
        if self._f is not None:
            try:
                self._f.write(json.dumps({"type": "bye"}) + "\n")
                self._f.close()
            except (OSError, ValueError):
                pass
            self._f = None


# -- katari watch ------------------------------------------------------------------


def _load_story(hello: dict) -> Any:
    try:
        from runner.story import load

        path = Path(str(hello.get("story") or ""))
        if path.exists():
            return load(path)
        from runner.stories import resolve

        found = resolve(str(hello.get("id") or ""))
        return load(found) if found.exists() else None
    except Exception:  # noqa: BLE001 - names and labels are a nicety; the view works without
        return None


class Watcher:
    """Renders a player-view stream for the players' screen."""

    def __init__(self, out: IO[str], lang: str | None, cols: int) -> None:
        self.out = out
        self.lang = lang
        self.cols = cols
        self.story: Any = None
        self.done = False

    def renderer(self) -> Renderer:
        return Renderer(self.story, lang=self.lang or "ja", gm=False, cols=self.cols)

    def say(self, text: str) -> None:
        self.out.write(text + "\n")

    def line(self, raw: str) -> None:
        try:
            ev = json.loads(raw)
        except ValueError:
            return  # a line cut short or not ours: skip it
        if not isinstance(ev, dict):
            return
        kind = ev.get("type")
        lang = self.lang or str(ev.get("lang") or "ja")
        if kind == "hello":
            self.lang = self.lang or (ev.get("lang") if ev.get("lang") in ("ja", "en") else "ja")
            self.story = _load_story(ev)
            self.say(
                t("watch_head", self.lang or "ja", title=ev.get("title") or ev.get("id") or "?")
            )
        elif kind == "turn":
            if ev.get("command"):
                self.say(t("prompt", lang) + str(ev["command"])[:80])
        elif kind == "note":
            code = str(ev.get("code") or "")
            text = t(
                f"watch_{code}", lang, **{k: v for k, v in ev.items() if k not in ("type", "code")}
            )
            if not text.startswith("watch_"):
                self.say(text)
        elif kind == "state":
            items = status_items(ev, self.story, lang, short=True)
            if ev.get("turn") is not None:
                items.append((t("turn", lang), str(ev["turn"])))
            self.say("── " + " │ ".join(f"{k} {v}".strip() for k, v in items) + " ──")
        elif kind == "bye":
            self.say(t("watch_bye", lang))
            self.done = True
        elif kind in PLAYER_EVENTS and not ev.get("keeper"):
            # a line of the game's own events (written by PlayerView above)
            text = plain(self.renderer().event(cast("Event", ev)))
            if text:
                self.say(text)
        self.out.flush()


def follow(
    path: str | Path,
    out: IO[str] | None = None,
    *,
    lang: str | None = None,
    once: bool = False,
    poll: float = 0.2,
    cols: int | None = None,
    stop: Callable[[], bool] | None = None,
) -> int:
    """``katari watch``: shows the stream at ``path`` from its start and follows it until the
    GM's session ends (or, with ``once``, until what is there now is shown). A file made
    afresh by a new session starts the view again."""
    out = out or sys.stdout
    if cols is None:
        try:
            cols = max(20, os.get_terminal_size(out.fileno()).columns - 1)
        except (OSError, ValueError, AttributeError):
            cols = 79
    w = Watcher(out, lang, cols)
    p = Path(os.path.expanduser(str(path)))
    waited = False
    while not p.exists():
        if once:
            out.write(t("watch_none", lang or "ja", path=p) + "\n")
            return 1
        if not waited:
            out.write(t("watch_wait", lang or "ja", path=p) + "\n")
            out.flush()
            waited = True
        time.sleep(poll)
    pos, buf, ino = 0, b"", None
    while True:
        try:
            st = p.stat()
            if ino is not None and (st.st_ino != ino or st.st_size < pos):
                pos, buf = 0, b""  # a new session wrote the file afresh
                w.say("")
            ino = st.st_ino
            with open(p, "rb") as f:
                f.seek(pos)
                chunk = f.read()
        except OSError:
            chunk = b""
        if chunk:
            pos += len(chunk)
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                w.line(raw.decode("utf-8", "replace"))
                if w.done and not once:
                    return 0
        if once or (stop is not None and stop()):
            return 0
        time.sleep(poll)
