"""A game carried onto an edited story: replay of its commands, saves of older versions,
and the watcher behind ``katari play STORY --watch``.

:func:`replay` plays a game's seed and commands (renamed by the story's ``migrations:``)
on a story, and says where the first command no longer fits and where the game first goes
differently from the recorded one (the way Inky replays choices after an edit).
:func:`migrate` uses it to load a save made on an older version of the story.
:class:`Watcher` polls the story's files (modification time and size) and calls back when a
save of them has settled.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.ui import files
from runner.ui.files import Entry, FileError, Timeline

if TYPE_CHECKING:  # annotations only
    from runner.engine.events import Event
    from runner.engine.state import State

MSG = {
    "ja": {
        "replay_same": "物語の変更後も、{n} 手すべてが同じように進みました。",
        "replay_diverged": "{n} 手をすべて再生しました。{turn} 手目から展開が変わります（物語が変わったため）：{was} → {now}。",
        "replay_opening": "{n} 手をすべて再生しました。始まりから展開が変わります（物語が変わったため）。",
        "replay_stopped": "{k} 手目「{cmd}」が今の物語では使えません（{why}）。{kept} 手目までを再生し、そこから続けます。",
        "replay_kept_saved": "{k} 手目「{cmd}」が今の物語では使えません（{why}）。セーブされたままの状態で続けます。",
        "why_ended": "その前にゲームが終わります",
        "why_dice": "記録にないダイスが必要です",
        "why_not_understood": "その行動がありません",
        "why_error": "エラー：{detail}",
        "watch_on": "監視中：{path} を保存すると読み直します（エラーはここに表示、ゲームはそのまま）。",
        "watch_errors": "読み直せません：{n} 件のエラー（直して保存すると、もう一度読み直します）。ゲームはそのまま続きます。",
        "watch_more": "…ほか {n} 件（katari check {path}）",
        "watch_other_story": "読み直せません：物語の id が {old} から {new} に変わりました（katari play で開き直してください）。",
        "watch_reloaded": "物語を読み直しました。",
        "restart_reread": "物語のファイルを読み直しました。",
        "replay_cmds_done": "{n} 手を再生しました（シード {seed}）。",
        "replay_cmds_stopped": "再生は {k} 手目「{cmd}」で止まりました（{why}）：{done} 手を再生済み。",
        "replay_cmds_ended": "{k} 手目の前にゲームが終わりました。残りの {n} 手は再生しません。",
    },
    "en": {
        "replay_same": "The story changed; all {n} commands replay the same way.",
        "replay_diverged": "Replayed all {n} commands; from turn {turn} the game goes differently (the story changed there): {was} → {now}.",
        "replay_opening": "Replayed all {n} commands; the game goes differently from the start (the story changed there).",
        "replay_stopped": "Command {k} ({cmd!r}) no longer fits the story ({why}); replayed up to turn {kept}, the game goes on from there.",
        "replay_kept_saved": "Command {k} ({cmd!r}) no longer fits the story ({why}); the game goes on from the saved state as it was.",
        "why_ended": "the game ends before it",
        "why_dice": "it needs dice the record does not have",
        "why_not_understood": "no such action there now",
        "why_error": "error: {detail}",
        "watch_on": "Watching {path}: every save re-reads the story (errors are shown here; the game goes on).",
        "watch_errors": "Cannot reload: {n} error(s) (fix them and save again). The game goes on.",
        "watch_more": "... {n} more (katari check {path})",
        "watch_other_story": "Cannot reload: the story id changed from {old} to {new} (open it again with katari play).",
        "watch_reloaded": "Story reloaded.",
        "restart_reread": "Story files re-read.",
        "replay_cmds_done": "Replayed {n} commands (seed {seed}).",
        "replay_cmds_stopped": "The replay stopped at command {k} ({cmd!r}: {why}) after {done} commands.",
        "replay_cmds_ended": "The game ended before command {k}; the other {n} commands are not replayed.",
    },
}


def msg(key: str, lang: str, **kw: Any) -> str:
    table = MSG.get(lang, MSG["en"])
    return table.get(key, MSG["en"][key]).format(**kw)


# -- replay ------------------------------------------------------------------------


@dataclass
class Replayed:
    """A game's commands replayed on a story: the new timeline and how far it matched."""

    tl: Timeline
    total: int
    """Commands in the record."""
    stopped: int | None = None
    """1-based number of the first command that no longer fits (None: every one did)."""
    command: str = ""
    why: str = ""
    """ended, dice, not_understood, error."""
    detail: str = ""
    diverged: int | None = None
    """The first turn (0: the opening) where the game differs from the recorded one, by
    place, time, holdings, variables or stats; None when it never does (or nothing recorded)."""
    was: str = ""
    now: str = ""

    @property
    def fitted(self) -> int:
        return self.total if self.stopped is None else self.stopped - 1

    def why_text(self, lang: str) -> str:
        return msg(f"why_{self.why}", lang, detail=self.detail)

    def note(self, lang: str, *, kept_saved: bool = False) -> str:
        """One line for the player (see MSG)."""
        if self.stopped is not None:
            key = "replay_kept_saved" if kept_saved else "replay_stopped"
            return msg(
                key,
                lang,
                k=self.stopped,
                cmd=self.command[:60],
                why=self.why_text(lang),
                kept=self.fitted,
            )
        if self.diverged == 0:
            return msg("replay_opening", lang, n=self.total)
        if self.diverged is not None:
            return msg(
                "replay_diverged",
                lang,
                n=self.total,
                turn=self.diverged,
                was=self.was,
                now=self.now,
            )
        return msg("replay_same", lang, n=self.total)

    @property
    def same(self) -> bool:
        return self.stopped is None and self.diverged is None


def _view(d: dict[str, Any], common: set[str] | None = None) -> dict[str, Any]:
    """What a player would call "the same game": place, time, holdings, variables, stats.
    Variables only one side has (added to or dropped from the story) are left out."""
    v = {k: d.get(k) for k in ("node", "ending", "clock", "inventory", "stats")}
    vars_ = d.get("vars") or {}
    v["vars"] = {k: x for k, x in vars_.items() if common is None or k in common}
    return v


def _where(d: dict) -> str:
    return str(d.get("ending") or d.get("node") or "?")


def replay(
    story: Any,
    seed: int,
    entries: list[Entry],
    *,
    gm: bool = False,
    manual: bool = False,
    start_dice: list[int] | None = None,
    since: str | None = None,
    saved: list[dict[str, Any]] | None = None,
) -> Replayed:
    """Replays ``entries`` from ``seed`` on ``story``, renaming old action ids by the story's
    migrations for version ``since``; compares with the ``saved`` States (dicts), if given.
    Raises what ``files.start`` raises when the game cannot even begin."""
    from runner.engine import NeedDice, step
    from runner.story import migrations

    migs = migrations.pending(story, since)
    tl, _ = files.start(story, seed, gm=gm, manual=manual, dice=start_dice)
    out = Replayed(tl, len(entries))
    olds = [migrations.state(migs, d) for d in saved] if saved else []

    def compare(i: int) -> None:
        if out.diverged is not None or i >= len(olds):
            return
        new = tl.states[i].to_dict()
        common = set(olds[i].get("vars") or {}) & set(new.get("vars") or {})
        if _view(olds[i], common) != _view(new, common):
            out.diverged, out.was, out.now = i, _where(olds[i]), _where(new)

    compare(0)
    for i, e in enumerate(entries):
        st = tl.state
        cmd = migrations.command(migs, st.node, e.command)
        if st.ending is not None:
            out.stopped, out.command, out.why = i + 1, e.command, "ended"
            break
        try:
            new, events = step(story, st, cmd, dice=e.dice, manual=e.manual, gm=gm)
        except NeedDice:
            out.stopped, out.command, out.why = i + 1, e.command, "dice"
            break
        except Exception as ex:  # noqa: BLE001 - a hook of an edited story may fail any way
            out.stopped, out.command, out.why, out.detail = (
                i + 1,
                e.command,
                "error",
                f"{type(ex).__name__}: {ex}"[:120],
            )
            break
        if new is st:
            err = next((ev for ev in events if ev["type"] == "error"), None)
            code = err.get("code", "") if err is not None else ""
            out.stopped, out.command = i + 1, e.command
            if code == "story_error" and err is not None:
                out.why, out.detail = "error", str(err.get("message", ""))[:120]
            else:
                out.why = "not_understood"
            break
        tl.push(Entry(cmd, e.dice, e.manual), new, events)
        compare(i + 1)
    return out


def migrate(body: dict, story: Any) -> tuple[Timeline, Replayed | None, bool]:
    """A save body (checked) made on another version of ``story``, as a timeline of it.

    Its commands (redo branch included) are replayed on the story. When every one fits, that
    is the game (the replay says where it first goes differently). When one stops fitting (or
    the game cannot even start), the save's own States are used instead if they still load
    on this story, renamed by its migrations; else the replay up to the last command that
    fits. Returns the timeline, the replay (None if it could not start) and whether the
    saved States were kept; ``FileError`` when nothing works (not even the first command)."""
    from runner.engine.state import SaveError
    from runner.story import migrations

    commands = [Entry.from_json(e) for e in body["commands"]]
    redo = [Entry.from_json(e) for e in body.get("redo", [])]
    sd = body.get("start_dice")
    since = body.get("story_version") or None
    rp: Replayed | None
    try:
        rp = replay(
            story,
            int(body["seed"]),
            commands + redo,
            gm=bool(body.get("gm")),
            manual=bool(body.get("manual")),
            start_dice=list(sd) if isinstance(sd, list) else None,
            since=since,
            saved=list(body["states"]),
        )
    except Exception:  # noqa: BLE001 - the edited story cannot even start this game
        rp = None
    if rp is None or rp.stopped is not None:
        migs = migrations.pending(story, since)
        moved = dict(body)
        moved["states"] = [migrations.state(migs, d) for d in body["states"]]
        moved["state"] = migrations.state(migs, body["state"])
        try:
            tl, _ = files.timeline_from(moved, story, checked=True)
            files.probe(story, tl)
            return tl, rp, True
        except (SaveError, ValueError, KeyError, TypeError):
            if rp is None or (rp.fitted == 0 and rp.total > 0):
                # Not one command fits, and the saved States do not either: this save cannot
                # be replayed (the caller moves it aside, whole, as for any unreadable save).
                raise FileError("not_playable", what="replay") from None
    tl = rp.tl
    tl.pos = min(len(commands), rp.fitted)
    tl.realtime = float(body.get("realtime", 0))
    return tl, rp, False


@dataclass
class Migrated:
    """What ``files.resume`` says of a save made on another version of the story (truthy,
    where a plain save says ``changed=True``)."""

    replayed: Replayed | None
    kept_saved: bool

    def note(self, lang: str) -> str:
        return (
            self.replayed.note(lang, kept_saved=self.kept_saved)
            if self.replayed is not None
            else ""
        )

    @property
    def same(self) -> bool:
        """The replay is the saved game exactly: the file may be written over."""
        return self.replayed is not None and self.replayed.same and not self.kept_saved


# -- the watcher -------------------------------------------------------------------


def snapshot(path: str | os.PathLike[str]) -> dict[str, tuple[int, int]]:
    """(modification time, size) of each regular story file (a folder's YAML files, outside
    ``tests/``); links and anything else are left out."""
    from runner.story import story_files

    out: dict[str, tuple[int, int]] = {}
    try:
        names = story_files(path)
    except OSError:
        return out
    for f in names:
        try:
            st = os.stat(f, follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out[str(f)] = (st.st_mtime_ns, st.st_size)
    return out


class Watcher:
    """Polls a story's files every ``interval`` seconds on a thread of its own; when they
    changed and then held still for one more poll (an editor writing in steps), calls
    ``on_change`` (from that thread: post to the console, do not touch the game)."""

    def __init__(
        self, path: str | os.PathLike[str], on_change: Callable[[], None], interval: float = 0.25
    ) -> None:
        self.path = Path(path)
        self.on_change = on_change
        self.interval = interval
        self._stop = threading.Event()
        self._seen = snapshot(self.path)
        self._thread: threading.Thread | None = None

    def start(self) -> Watcher:
        self._thread = threading.Thread(target=self._run, daemon=True, name="katari-watch")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def rebase(self) -> None:
        """Takes the files as they are now as seen (after a reload the game did itself)."""
        self._seen = snapshot(self.path)

    def _run(self) -> None:
        pending: dict | None = None
        while not self._stop.wait(self.interval):
            try:
                now = snapshot(self.path)
                if now == self._seen:
                    pending = None
                    continue
                if now != pending:  # still being written: wait for one quiet poll
                    pending = now
                    continue
                self._seen = now
                pending = None
                self.on_change()
            except Exception:  # noqa: BLE001 - a watcher must never kill the game
                continue


# -- the console's side: its methods for --watch, --replay-commands and restart -----------


class AuthorLoop:
    """A part of the console (``Console``, runner/ui/console/core.py), whose state it uses:
    ``story``, ``tl``, ``io``, ``lang``, ``say``, ``show``, ``play``, ``refresh``, ``autosave``."""

    story: Any
    tl: Any
    io: Any
    lang: str
    gm: bool
    view: Any
    watcher: Any
    _files_seen: dict | None
    _watch_log: tuple[Any, int, list] | None
    _replay_since: str | None
    _choices: Any
    _hidden_cache: Any
    # What the console (the class that mixes this in) provides:
    if TYPE_CHECKING:

        @property
        def state(self) -> State: ...

    say: Callable[[str, str], None]
    refresh: Callable[[], None]
    autosave: Callable[[], None]
    play: Callable[[str], bool]
    prompt_event: Callable[[], Event]
    show: Callable[[list[Event]], None]

    def start_watching(self) -> None:
        from runner.ui.console.terminal import Wake

        self.watcher = Watcher(self.story.path, lambda: self.io.post(Wake("reload"))).start()
        self.say(msg("watch_on", self.lang, path=self.story.path), "class:hint")

    def reread(self, *, adopt: bool = True) -> Any:
        """Loads the story's files again: the new Story (made the session's with ``adopt``),
        or None after saying its errors (one line each; the game goes on with the story it has)."""
        from runner.story import StoryError, load
        from runner.story.text import printable

        try:
            new = load(self.story.path)
        except StoryError as e:
            errs = [d for d in e.diagnostics if d.severity == "error"] or e.diagnostics
            self.say(msg("watch_errors", self.lang, n=len(errs)), "class:error")
            for d in errs[:8]:
                self.say(printable(str(d)), "class:error")
            if len(errs) > 8:
                self.say(
                    msg("watch_more", self.lang, n=len(errs) - 8, path=self.story.path),
                    "class:error",
                )
            return None
        if new.id != self.story.id:
            self.say(
                msg("watch_other_story", self.lang, old=self.story.id, new=new.id), "class:error"
            )
            return None
        if adopt:
            self.adopt_story(new)
        return new

    def reread_if_changed(self) -> None:
        """``restart``: story files changed since they were read are read again, so the new game
        starts on them (their errors, if any, are said and it starts on the story we have)."""
        if self._files_seen is not None and snapshot(self.story.path) != self._files_seen:
            if self.reread() is not None:
                self.say(msg("restart_reread", self.lang), "class:hint")

    def adopt_story(self, new: Any) -> None:
        files.forget_fingerprint(self.story.path)
        self._files_seen = snapshot(new.path)
        self.story = new
        if self.view is not None:
            self.view.story = new
        self._choices = None
        self._hidden_cache = None

    def reload(self) -> None:
        """A story file was saved: re-check it, and if it loads, replay the game on it to the
        same point (or to the first command that no longer fits, said in one line)."""
        if self.tl is None:
            return
        old = self.story
        tl = self.tl
        log = list(tl.commands)
        if (
            self._watch_log is not None
            and self._watch_log[0] is tl
            and self._watch_log[1] == tl.pos
        ):
            log = self._watch_log[2]  # nothing played since a reload stopped short: try it all
        new = self.reread(adopt=False)
        if new is None:
            return
        try:
            rp = replay(
                new,
                tl.seed,
                log,
                gm=tl.gm,
                manual=tl.manual,
                start_dice=tl.start_dice,
                since=old.version or None,
                saved=[s.to_dict() for s in tl.states[: tl.pos + 1]],
            )
        except Exception as e:  # noqa: BLE001 - an edited story that cannot start this game
            self.say(
                msg("watch_errors", self.lang, n=1) + f" ({type(e).__name__}: {e})"[:200],
                "class:error",
            )
            return
        self.adopt_story(new)
        rp.tl.realtime = tl.realtime
        self.tl = rp.tl
        self._watch_log = (rp.tl, rp.tl.pos, log) if rp.stopped is not None else None
        self.refresh()
        self.autosave()
        self.say(
            msg("watch_reloaded", self.lang) + " " + rp.note(self.lang),
            "class:error" if rp.stopped is not None else "class:hint",
        )
        if self.state.ending is None:
            from runner.engine import describe

            self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])

    def replay_commands(self, commands: list[str]) -> None:
        """``--replay-commands``: each command as if typed (shown after the prompt), stopping
        with a note at the first one the game does not take. Commands made on an older story
        version are renamed by the story's migrations."""
        from runner.story import migrations

        assert self.tl is not None
        migs = migrations.pending(self.story, self._replay_since) if self._replay_since else []
        for k, cmd in enumerate(commands, 1):
            cmd = migrations.command(migs, self.state.node, cmd)
            if self.state.ending is not None:
                self.say(
                    msg("replay_cmds_ended", self.lang, k=k, n=len(commands) - k + 1), "class:hint"
                )
                return
            from runner.ui.i18n import t

            self.io.write([[("class:prompt", t("prompt", self.lang)), ("", cmd)]])
            pos = self.tl.pos
            self.play(cmd)
            if self.tl.pos == pos:
                why = msg("why_not_understood", self.lang)
                self.say(
                    msg("replay_cmds_stopped", self.lang, k=k, cmd=cmd[:60], why=why, done=k - 1),
                    "class:error",
                )
                return
        self.say(
            msg("replay_cmds_done", self.lang, n=len(commands), seed=self.tl.seed), "class:hint"
        )
