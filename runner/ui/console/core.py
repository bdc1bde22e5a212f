"""The play console: a prompt_toolkit session over the pure engine.

The loop is thin (prompt_toolkit's ``sqlite-cli.py`` shape: Ctrl-C cancels the line, Ctrl-D
leaves): read a line, run it as a meta command or a story command, print the events, autosave.
When stdin is not a terminal the same loop reads plain lines and prints plain text.

Hooks for other front ends: ``Repl(narrator=...)`` gets every turn's events through
``runner.ui.narrator.narrate_events(narrator, events)``; ``Repl(listener=...)`` is told the
phrases valid now and its commands are typed in with :meth:`Repl.feed`.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.debug import hook_failure_line, show_trace
from runner.engine import (
    NeedDice,
    SaveError,
    State,
    available,
    describe,
    match,
    resolve,
    state_event,
    step,
    tail,
)
from runner.engine.evaluate import HookFailure
from runner.engine.match import MAX_COMMAND, is_verb_phrase
from runner.rules.dice import DiceError
from runner.ui import files
from runner.ui.console.terminal import (
    PANEL_KEY,
    PUSH_KEY,
    PlainIO,
    PromptIO,
    Wake,
)
from runner.ui.console.words import (
    _META,
    _NO,
    _PREFIXES,
    _YES,
    ECHO_MAX,
    Quit,
    _clean,
    _fit,
    _split,
    is_quit,
)
from runner.ui.files import AUTOSAVE, RESTART_BACKUP, Entry, Timeline
from runner.ui.i18n import (
    FORCE_WORDS,
    GM_ONLY,
    GM_VERBS,
    GO_BACK_STEMS,
    GO_BACK_WORDS,
    META,
    NARRATOR_ONLY,
    REALTIME_ONLY,
    default_lang,
    t,
)
from runner.ui.reload import AuthorLoop
from runner.ui.render import (
    Line,
    Renderer,
    clip,
    clock_seconds,
    gm_hidden,
    gm_lines,
    is_clock_command,
    outcome_key,
    plain,
    status_lines,
    width,
)

# -- terminals ---------------------------------------------------------------


def play_command(story: Any) -> str:
    """How to come back to ``story``: ``katari play`` for the default story, else with its name."""
    import shlex

    from runner.stories import resolve, shipped_dir

    raw = str(getattr(story, "path", "") or "")
    if not raw:
        return f"katari play {shlex.quote(str(story.id))}"
    path = Path(raw)
    try:
        here = path.resolve()
        if here == resolve(None).resolve():
            return "katari play"
        if here.parent == shipped_dir().resolve():
            return f"katari play {shlex.quote(path.stem if path.suffix in ('.yaml', '.yml') else path.name)}"
    except OSError:
        pass
    return f"katari play {shlex.quote(raw)}"


# -- the console -------------------------------------------------------------


_STATUS_LINE = re.compile(r"^\s*([^\s+\-=]+)\s*([+\-=])\s*(\d+|\d*[dD]\d+)\s*$")
_JA_SPAN = re.compile(r"^\+?(?:(\d+)時間)?(?:(\d+)分)?$")
_JA_TIME = re.compile(r"^(\d{1,3})時(?:(\d{1,2})分?|半)?$")


def clock_words(text: str, *, absolute: bool = False) -> str:
    """A GM's clock words as the engine reads them: ``30分``/``30`` → ``+30``, ``1時間30分`` →
    ``+1h30m``, ``13時半`` → ``13:30``; with ``absolute`` (時刻), a bare ``13`` is 13:00."""
    s = unicodedata.normalize("NFKC", text).replace(" ", "").casefold()
    m = _JA_TIME.match(s)
    if m:
        mm = 30 if s.endswith("半") else int(m.group(2) or 0)
        return f"{int(m.group(1)):02d}:{mm:02d}"
    m = _JA_SPAN.match(s)
    if m and (m.group(1) or m.group(2)):
        h, mm = int(m.group(1) or 0), int(m.group(2) or 0)
        return f"+{h}h{mm}m" if h and mm else f"+{h}h" if h else f"+{mm}"
    if s.removesuffix("min").removesuffix("m").isdigit():
        return f"{int(s.removesuffix('min').removesuffix('m')):02d}:00" if absolute else "+" + s
    return s


class RealTime:
    """A pausable stopwatch of real seconds played, on an injectable monotonic clock."""

    def __init__(self, spec: Any, limit: float, clock: Callable[[], float]) -> None:
        self.spec = spec
        """The rule system's RealTimeClock: how the game is told, where it keeps the count."""
        self.limit = float(limit)
        self.clock = clock
        self.base = 0.0
        self.since = clock()
        self.paused = False
        self.waits: Callable[[State], bool] | None = None
        """Whether a State is still before the story's clock starts (an opening scene)."""
        self.held = False

    @classmethod
    def for_story(cls, story: Any, clock: Callable[[], float]) -> RealTime | None:
        """The story's real-time clock, as its rule system declares it (RuleSystem.realtime)."""
        from runner.rules import system

        spec = system(story.rules).realtime
        lim = spec.limit(story) if spec is not None else None
        if not lim:
            return None
        rt = cls(spec, lim, clock)
        if spec.waits is not None:
            rt.waits = lambda st: spec.waits(story, st)
        return rt

    def total(self) -> float:
        if self.held:
            return self.base
        return self.base + (0.0 if self.paused else max(0.0, self.clock() - self.since))

    def hold(self, state: State) -> None:
        """Stands still at zero while ``state`` is before the clock's start (a character
        selection before the opening), and starts counting the moment it is not."""
        if self.waits is None:
            return
        waiting = self.waits(state)
        if waiting and not self.held and self.total() < 1:
            self.base, self.held = 0.0, True
        elif not waiting and self.held:
            self.held = False
            self.since = self.clock()

    def set(self, total: float) -> None:
        self.base = float(total)
        self.since = self.clock()
        self.held = self.held and self.base < 1  # a clock that has counted is never held again

    def pause(self) -> None:
        if not self.paused:
            self.base = self.total()
            self.paused = True

    def resume(self) -> None:
        if self.paused:
            self.since = self.clock()
            self.paused = False

    def spent(self, state: State) -> float:
        """The real seconds a State has been told about."""
        return float(self.spec.spent(state, self.limit))

    def left(self) -> float:
        return max(0.0, self.limit - self.total())


def _without(ev: dict, paths: tuple[tuple[str, ...], ...]) -> dict:
    """A copy of a state event without the fields at ``paths`` (copied only where cut)."""
    ev = dict(ev)
    for path in paths:
        node = ev
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                break
            node[key] = dict(node[key])
            node = node[key]
        else:
            node.pop(path[-1], None)
    return ev


PANEL_WORDS = ("panel", "パネル", "表示", "畳む", "開く", "fold")
PANEL_OPEN_ROWS = 36
"""A terminal at least this tall starts with the GM panel open."""
_VOICE_META = {
    "help": "/help",
    "status": "/status",
    "undo": "/undo",
    "save": "/save",
    "quit": "/quit",
    "actions": "/actions",
}


class Repl(AuthorLoop):
    """One play session over a story: timeline, saves, transcript, output."""

    def __init__(
        self,
        story: Any,
        *,
        io: Any = None,
        lang: str = "ja",
        gm: bool = False,
        manual: bool = False,
        seed: int | None = None,
        new: bool = False,
        transcript: str | Path | None = None,
        narrator: Any = None,
        listener: Any = None,
        color: bool | None = None,
        use_prompt_toolkit: bool | None = None,
        history: bool = True,
        clock: Callable[[], float] | None = None,
        tick: float = 0.2,
        report_every: float = 30.0,
        voice_inputs: list[str] | None = None,
        echo_delay: float = 0.3,
        first_command: str | None = None,
        player_view: str | Path | None = None,
        watch: bool = False,
        replay_commands: list[str] | None = None,
        replay_since: str | None = None,
        screen_reader: bool | str = False,
    ) -> None:
        self.story = story
        self.watch = watch
        """``--watch``: every save of the story's files reloads it and replays the game."""
        self.watcher: Any = None
        self._replay_cmds = list(replay_commands) if replay_commands is not None else None
        """``--replay-commands``: played after the new game starts, as if typed."""
        self._replay_since = replay_since
        """The story version the replayed commands were made on (its migrations rename them)."""
        self._files_seen: dict | None = None
        """The story files' (mtime, size) as loaded: ``restart`` re-reads them if they changed."""
        self._watch_log: tuple[Any, int, list] | None = None
        """After a reload stopped short: (timeline, pos, the whole log it stopped in), so the
        next reload, if nothing was played meanwhile, tries the whole log again."""
        self.player_view_path = player_view
        self.view: Any = None
        """The players' view (``--player-view FILE``, followed by ``katari watch FILE``)."""
        self.first_command = first_command
        """Sent after every new game, as if typed (a campaign's ``@carry``): it is in the log,
        so saves, undo, transcripts and replays keep it."""
        self.lang = lang
        self.gm = gm
        self.manual = manual
        self.seed_arg = seed
        # A campaign's scenario starts afresh: an unfinished game of it is not offered.
        self.new = new or first_command is not None or replay_commands is not None
        self.narrator = narrator
        self.narrate_on = narrator is not None
        self.listener = listener
        self.tl: Timeline | None = None
        self.state_ev: dict | None = None
        self.transcript_path: Path | None = Path(transcript) if transcript else None
        self.started = ""
        self.saver: files.AutoSaver | None = None
        """Where this session autosaves; None when read-only (or before a slot is claimed)."""
        self.lock: files.SlotLock | None = None
        """The OS lock on the autosave slot, held for the whole session."""
        self.read_only = False
        """Opened read-only (the game is open in another session): nothing is written."""
        self.kept_mark: tuple[tuple[str, ...], int] | None = None
        """The game as its last ``save`` or ``load`` left it (see :meth:`_mark`)."""
        self.save_broken = False
        """The last autosave failed (warned once; quitting says nothing was saved)."""
        self._warn_later: str | None = None
        self._choices: tuple[State, list] | None = None
        self._last_events: list[dict] = []
        self._narrate_events: Callable[..., Any] | None = None
        self.clock = clock or time.monotonic
        self.rt = RealTime.for_story(story, self.clock)
        self.tick = tick
        self.report_every = report_every
        self._reported = 0.0
        self._time_posted = False
        self._stop = threading.Event()
        self._confirm: Any = None
        self._voice_files = list(voice_inputs or [])
        self.voice_lang = getattr(listener, "lang", None) or story.language or lang
        self.talking = False
        self._muted_for_speech = False
        self._hidden_cache: tuple[Any, dict] | None = None
        self.misses = 0
        """Commands not understood in a row (the second points at Tab and help)."""
        from runner.ccfolia.table import Secrets

        self.table_secrets = Secrets()
        """Secret table rolls (``roll SCC<=50``) not yet revealed."""
        self.player_ev: dict | None = None
        self.panel_open: bool | None = None
        """The GM panel: open, folded, or None (decided by the terminal's height)."""
        if io is None:
            tty = sys.stdin.isatty() and sys.stdout.isatty()
            if use_prompt_toolkit is None:
                use_prompt_toolkit = tty
            if color is None:
                color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            if screen_reader:
                from runner.ui.screen_reader import ScreenReaderIO

                io = ScreenReaderIO(plain_prompt=screen_reader != "piped")
            elif use_prompt_toolkit:
                io = PromptIO(
                    self,
                    files.history_path(story.id) if history else None,
                    color=color,
                    refresh=0.5 if (self.rt is not None or listener is not None) else None,
                    echo_delay=echo_delay,
                )
            else:
                io = PlainIO()
        self.io = io
        if hasattr(io, "on_wake"):
            io.on_wake = self.on_wake
        if isinstance(io, PlainIO):
            io.live = self.rt is not None or listener is not None or watch
        if narrator is not None:
            try:
                from runner.ui.narrator import narrate_events

                self._narrate_events = narrate_events
            except ImportError:
                self._narrate_events = None

    # -- small helpers ------------------------------------------------------
    @property
    def state(self) -> State:
        assert self.tl is not None
        return self.tl.state

    def when(self, clock: str, turn: int) -> str:
        """The in-game time of a save: its clock, or the turn where the story has no clock."""
        return clock or f"{t('turn', self.lang)} {turn}"

    def why(self, info: files.SaveInfo) -> str:
        """Why a listed save cannot be loaded, in the interface language."""
        return files.reason(info.exc, self.lang) if info.exc is not None else str(info.error)

    def renderer(self) -> Renderer:
        return Renderer(self.story, lang=self.lang, gm=self.gm, cols=self.io.cols)

    def say(self, text: str, style: str = "") -> None:
        self.io.write(self.renderer().text(text, style))

    def choices(self) -> list:
        """The actions valid now (cached per state: completion asks on every key)."""
        if self.tl is None:
            return []
        st = self.state
        if self._choices is None or self._choices[0] is not st:
            self._choices = (st, available(self.story, st))
        return self._choices[1]

    def prompt_event(self) -> dict:
        return {
            "type": "prompt",
            "actions": [{"id": c.id, "label": c.label, "n": c.n} for c in self.choices() if c.n],
        }

    def warn_later(self) -> None:
        """Says a warning held back until the turn's own output is on screen."""
        if self._warn_later:
            msg, self._warn_later = self._warn_later, None
            self.say(msg, "class:error")

    def show(self, events: list[dict], command: str = "", *, public: bool = True) -> None:
        present = getattr(self.io, "present", None)  # (the screen-reader console's own lines)
        self.io.write(
            present(self, events, command)
            if present is not None
            else self.renderer().events(events, command=command)
        )
        self._import_hint(events)
        if self.view is not None and public and self.tl is not None:
            # The players see what they may of the turn; a GM's override only by its effects.
            self.view.turn(
                command if command and not command.startswith("!") else None, events, self.state
            )
            self._view_failed()
        self.warn_later()
        self._last_events = events
        if self.narrator is not None and self.narrate_on and self._narrate_events is not None:
            try:
                n = self._narrate_events(
                    self.narrator, events, lang=self.lang, story=self.story, command=command
                )
            except Exception as e:  # noqa: BLE001 - speech must never stop the game
                self.say(t("narrate_none", self.lang, why=e), "class:error")
                self.narrate_on = False
                n = 0
            if n and self.listener is not None and getattr(self.narrator, "enabled", False):
                # The game must not hear itself: the microphone is dropped until the line ends.
                self._muted_for_speech = True
                self.listener.mute()

    def refresh(self) -> None:
        if self.rt is not None:
            self.rt.hold(self.state)
        self.state_ev = state_event(self.story, self.state, gm=self.gm)
        # What a player sees: the status bar and `status` show this, even to a GM (whose
        # hidden values are in the GM panel, never mixed into the bar).
        self.player_ev = state_event(self.story, self.state, gm=False) if self.gm else self.state_ev
        self._hidden_cache = None
        self._set_phrases()

    def _set_phrases(self) -> None:
        """The grammar: the actions valid now (and the meta words), at every prompt."""
        if self.listener is None or self.tl is None:
            return
        try:
            from runner.ui.listener import phrases_for

            self.listener.set_phrases(phrases_for(self.choices(), self.voice_lang))
        except Exception:  # noqa: BLE001 - the listener is optional
            pass

    def offers(self, name: str) -> bool:
        """Whether a meta command belongs in help and completion now."""
        if name in NARRATOR_ONLY:
            return self.narrator is not None
        if name in GM_ONLY:
            return self.gm
        if name in REALTIME_ONLY:
            return self.rt is not None
        if name == "import":
            return self.investigators() is not None
        if name == "sheet":
            return self._rules().sheet is not None  # the rule system keeps a character sheet
        return True

    def _rules(self) -> Any:
        from runner.rules import system

        return system(self.story.rules)

    def meta_help(self, name: str) -> str:
        """A meta command's line in ``help``, in the console's language; ``roll`` offers a
        skill roll (``roll 目星``) only where this story's rule system keeps sheets with skills
        (the rule registry says; the console names no system)."""
        _, _, hja, hen = META[name]
        if name != "roll":
            return hja if self.lang == "ja" else hen
        rs = self._rules()
        skill = ""
        if rs.sheet is not None and rs.skills is not None:
            names = [n for n, _ in rs.skills() if n.isascii() == (self.lang != "ja")]
            if names:
                skill = t("help_roll_skill", self.lang, skill=names[0])
        return t("help_roll", self.lang, skill=skill)

    # -- what the status bar and the GM panel show -------------------------
    def toolbar_event(self) -> dict | None:
        """The state event for the status bar (what a player sees); a real-time countdown is
        shown live instead."""
        ev = self.player_ev if self.state_ev is not None else None
        if ev is None or self.rt is None:
            return ev
        return _without(ev, self.rt.spec.live)

    def realtime_items(self) -> list[tuple[str, str]]:
        if self.rt is None or self.tl is None:
            return []
        value = clock_seconds(
            self.rt.left()
            if self.state.ending is None
            else max(0.0, self.rt.limit - self.rt.spent(self.state))
        )
        if self.rt.paused:
            value += " " + t("paused", self.lang)
        return [(t("real_left", self.lang), value)]

    def voice_items(self) -> list[tuple[str, str]]:
        if self.talking:
            return [("", t("talking", self.lang, key=PUSH_KEY))]
        return []

    def gm_panel(
        self,
        cols: int | None = None,
        *,
        folded: bool = False,
        max_lines: int | None = None,
        key: str = "",
    ) -> list[Line]:
        """The GM panel (see render.gm_lines): whole, or folded to its summary line, or cut to
        ``max_lines``."""
        if self.state_ev is None:
            return []
        if self._hidden_cache is None or self._hidden_cache[0] is not self.state:
            self._hidden_cache = (self.state, gm_hidden(self.player_ev, self.state_ev))
        return gm_lines(
            self.state_ev,
            self.story,
            self.lang,
            cols=cols or self.io.cols,
            hidden=self._hidden_cache[1],
            folded=folded,
            max_lines=max_lines,
            key=key,
        )

    def toggle_panel(self) -> None:
        """F2 (or ``gm panel``): folds the GM panel to its summary line, or opens it."""
        self.panel_open = not self.panel_is_open(getattr(self.io, "rows", None))

    def panel_is_open(self, rows: int | None = None) -> bool:
        """Whether the panel is open: as the GM left it; at first, open only on a terminal of
        at least PANEL_OPEN_ROWS rows (on a small one the game needs the room); folded on a
        plain terminal, where it follows every turn (``rows`` None)."""
        if self.panel_open is None:
            return rows is not None and rows >= PANEL_OPEN_ROWS
        return self.panel_open

    # -- start and finish ---------------------------------------------------
    def begin(self) -> None:
        """Resumes the autosave (after asking) or starts a new game, and shows where we are."""
        import datetime as dt

        self.started = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        from runner.ui.reload import snapshot

        self._files_seen = snapshot(self.story.path) if getattr(self.story, "path", "") else None
        self.io.write([[("class:title", self.story.title or self.story.id)]])
        self.say(t("help_hint", self.lang), "class:hint")
        if self.player_view_path:
            from runner.ui.watch import PlayerView

            self.view = PlayerView(self.player_view_path, self.story, self.lang)
            if self.view.failed is None:
                self.say(t("player_view_on", self.lang, path=self.view.path), "class:hint")
            self._view_failed()
        if self.manual:
            self.say(t("dice_manual", self.lang), "class:hint")
        if self.listener is not None and not self._voice_files:
            mode = getattr(self.listener, "mode", "push")
            self.say(
                t(
                    "voice_on_cont" if mode == "continuous" else "voice_on_push",
                    self.lang,
                    key=PUSH_KEY,
                ),
                "class:hint",
            )
        if self.narrator is not None and self.io.interactive:
            self.say(t("skip_key", self.lang), "class:hint")
        resumed = False
        self._tidy_autosaves()
        if not self.new:
            resumed = self._offer_resume()
        if not resumed:
            if self.saver is None and not self.read_only:
                self._claim_slot(keep=True)
            self._new_game()
            if self._replay_cmds is not None:
                self.replay_commands(self._replay_cmds)
        # No autosave yet: a game with no commands has nothing to lose, and an fsync here
        # would only delay the first prompt. The first command saves.
        if self.transcript_path is not None:
            self.write_transcript()

    @property
    def autosave_slot(self) -> str | None:
        return self.saver.slot if self.saver is not None else None

    def _tidy_autosaves(self) -> None:
        """Moves every autosave Katari cannot read out of the way (one line each, saying where),
        so that no session ever writes over it. Another session's slot is left to it."""
        for i in files.list_saves(self.story.id):
            if not i.error or not files.is_autosave(i.slot):
                continue
            lock = files.SlotLock.take(self.story.id, i.slot)
            if lock is None:
                continue
            try:
                self._set_aside(i.path, self.why(i))
            finally:
                lock.release()

    def _set_aside(self, path: Path, why: str) -> bool:
        """Moves a save that cannot be played aside and says where, in one line."""
        try:
            new = files.move_aside(path, "broken")
        except (OSError, SaveError):
            self.say(t("bad_save", self.lang, name=path.name, why=why), "class:error")
            return False
        self.say(
            t("bad_save_moved", self.lang, name=path.name, why=why, new=new.stem), "class:error"
        )
        return True

    def _claim_slot(self, *, keep: bool) -> None:
        """Takes the first autosave slot this session can lock and start a new game in. With
        ``keep``, a game found in ``autosave`` is first moved to a backup slot (and said);
        otherwise (another session has it) only an empty slot will do. A slot that holds a
        file Katari cannot read is never used."""
        busy: str | None = None
        problem: str | None = None
        for k in range(1, 1000):
            slot = AUTOSAVE if k == 1 else f"{AUTOSAVE}-{k}"
            lock = files.SlotLock.take(self.story.id, slot)
            if lock is None:
                busy = busy or slot
                continue
            path = files.slot_path(self.story.id, slot)
            adopted = None
            if path.exists() or files.journal_path(path).exists():
                info = files.save_info(path, self.story.id)
                if not keep or k > 1 or info.error:  # (another slot's game waits to be resumed)
                    lock.release()
                    continue
                if info.commands:
                    try:
                        kept = files.keep_game(self.story.id, slot, files.backup_name())
                    except (OSError, SaveError) as e:
                        problem = problem or files.reason(e, self.lang)
                        lock.release()
                        continue
                    self.say(t("kept_game", self.lang, slot=kept), "class:hint")
                else:
                    adopted = info.sha  # a game not begun: nothing to keep
            self.lock, self.saver = lock, files.AutoSaver(path, adopted=adopted)
            if problem:
                self.say(t("keep_failed", self.lang, why=problem, slot=slot), "class:error")
            elif busy:
                self.say(t("other_slot", self.lang, busy=busy, slot=slot), "class:hint")
            return

    def _ask(self, question: str, again: str) -> str:
        """A question at a prompt: Ctrl-C asks again (it never answers for the player); Ctrl-D
        leaves without touching anything."""
        while True:
            try:
                return _clean(self.io.ask(question)).casefold()
            except KeyboardInterrupt:
                self.say(again, "class:hint")
            except EOFError:
                raise Quit from None

    def _offer_resume(self) -> bool:
        """Offers the newest unfinished autosave. "n" keeps it under a backup name (said, and
        loadable); a save that cannot be resumed is moved aside (said); a game open in another
        session is offered read-only or left alone."""
        infos = [
            i
            for i in files.list_saves(self.story.id)
            if files.is_autosave(i.slot) and not i.error and not i.ended and i.commands > 0
        ]
        if not infos:
            return False
        info = infos[0]
        lock = files.SlotLock.take(self.story.id, info.slot)
        if lock is None:
            return self._busy(info)
        try:
            answer = self._ask(
                t(
                    "resume_q",
                    self.lang,
                    when=info.when[5:],
                    place=info.place,
                    time=self.when(info.time, info.turn),
                ),
                t("resume_again", self.lang),
            )
        except Quit:
            lock.release()
            raise
        if is_quit(answer):  # leaves without touching anything, as at the main prompt
            lock.release()
            raise Quit
        if answer in ("n", "no", "いいえ", "ｎ", "いや"):
            self.say(t("new_game", self.lang), "class:hint")
            try:
                kept = files.keep_game(self.story.id, info.slot, files.backup_name())
            except (OSError, SaveError) as e:
                lock.release()
                self._claim_slot(keep=False)
                if self.saver is not None:
                    self.say(
                        t(
                            "keep_failed",
                            self.lang,
                            why=files.reason(e, self.lang),
                            slot=self.saver.slot,
                        ),
                        "class:error",
                    )
                return False
            self.say(t("kept_game", self.lang, slot=kept), "class:hint")
            self.lock, self.saver = lock, files.AutoSaver(info.path)
            return False
        try:
            tl, changed, sha = files.resume(info.path, self.story)
        except SaveError as e:
            self._set_aside(info.path, files.reason(e, self.lang))
            self.lock, self.saver = lock, files.AutoSaver(info.path)
            return False
        self.lock, self.saver = lock, files.AutoSaver(info.path, adopted=sha)
        self._adopt(tl, changed)
        self.say(t("resumed", self.lang, place=info.place), "class:hint")
        self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])
        return True

    def _busy(self, info: files.SaveInfo) -> bool:
        """The game is open in another session (its slot is locked): start another game in a
        free slot, open this one read-only (nothing is written), or leave."""
        self.say(t("busy", self.lang, slot=info.slot), "class:error")
        while True:
            answer = self._ask(t("busy_q", self.lang), t("busy_again", self.lang))
            if answer in ("n", "new", "新", "新しく", "あたらしく"):
                self._claim_slot(keep=False)
                return False
            if answer in ("r", "read", "read-only", "読み取り", "よみとり", "読む"):
                break
            if is_quit(answer):
                raise Quit
            self.say(t("busy_again", self.lang), "class:hint")
        try:
            tl, changed, _ = files.resume(info.path, self.story)
        except SaveError as e:  # (not ours to move: the other session has it)
            self.say(
                t("bad_save", self.lang, name=info.path.name, why=files.reason(e, self.lang)),
                "class:error",
            )
            self._claim_slot(keep=False)
            return False
        self.read_only = True
        self._adopt(tl, changed)
        self.say(t("read_only_on", self.lang), "class:hint")
        self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])
        return True

    def _mark(self) -> tuple[tuple[str, ...], int]:
        """What identifies the game on screen: its commands (redo branch included) and where
        it stands. A load keeps the current game under a backup name unless this equals the
        mark of its last ``save`` or ``load``, i.e. it is already kept in a slot."""
        assert self.tl is not None
        return tuple(e.command for e in self.tl.log), self.tl.pos

    def _adopt(self, tl: Timeline, changed: bool) -> None:
        tl.gm = self.gm
        if self.rt is not None:
            # A load is an undo too: it never gives back real time already played.
            total = max(tl.realtime, self.rt.total() if self.tl is not None else 0.0)
            self.rt.set(total)
            self._reported = total
        self.tl = tl
        self._choices = None
        if changed:
            self.say(t("story_changed", self.lang), "class:error")
            note = changed.note(self.lang) if hasattr(changed, "note") else ""  # (a replayed save)
            if note:
                self.say(note, "class:hint")
        self.refresh()

    def _new_game(self) -> None:
        import secrets

        seed = self.seed_arg if self.seed_arg is not None else secrets.randbits(31)
        faces: list[int] = []
        while True:
            try:
                tl, events = files.start(
                    self.story, seed, gm=self.gm, manual=self.manual, dice=faces or None
                )
                break
            except NeedDice as nd:
                more = self.ask_dice(nd)
                if more is None:
                    raise Quit from None
                faces += more
        self.tl = tl
        if self.rt is not None:
            self.rt.set(0.0)  # a new game (or a restart) starts the real time afresh
            self._reported = 0.0
        self._choices = None
        self.refresh()
        if self.first_command:
            # The carry enters the start node again: its turn shows the opening, so the
            # opening's own (a character selection the carry skips) is not shown.
            self.play(self.first_command)
            if self.tl.pos == 0:
                raise Quit  # refused (the error is on screen): no game without the carry
        else:
            self.show(events)
        if self.gm and not self.io.interactive:
            self.io.write(self.gm_panel(folded=not self.panel_is_open()))

    def finish(self) -> None:
        self._stop.set()
        if self.watcher is not None:
            self.watcher.stop()
        if self.view is not None:
            self.view.close()
        if self.tl is not None:
            self.autosave()
            if self.saver is not None and not self.save_broken:
                try:
                    self.saver.close(self.story, self.tl)  # one plain save file after a clean exit
                except (OSError, SaveError):
                    pass  # (the journal still holds every command)
            if self.transcript_path is not None:
                self.write_transcript()
            self.warn_later()
            if self.read_only:
                self.say(t("bye_read_only", self.lang), "class:hint")
            elif self.state.ending is not None:
                self.say(t("bye_ended", self.lang), "class:hint")
            elif self.save_broken:
                self.say(t("bye_unsaved", self.lang), "class:error")
            else:
                self.say(t("bye", self.lang, cmd=play_command(self.story)), "class:hint")
        if self.narrator is not None:
            try:
                self.narrator.close()
            except Exception:  # noqa: BLE001
                pass
        if self.listener is not None:
            try:
                self.listener.close()
            except Exception:  # noqa: BLE001
                pass
        if self.saver is not None:
            self.saver.close()
        if self.lock is not None:
            self.lock.release()
        self.io.close()

    # -- the loop -----------------------------------------------------------
    def run(self) -> int:
        try:
            self.begin()
            if self.rt is not None:
                self.rt.set(self.rt.base)  # time spent on the resume question does not count
            if self.listener is not None and not self._voice_files:
                threading.Thread(target=self._listen, daemon=True, name="katari-voice").start()
            if self.rt is not None or self.listener is not None or self.narrator is not None:
                threading.Thread(target=self._ticker, daemon=True, name="katari-ticker").start()
            if self.watch:
                self.start_watching()
            while True:
                try:
                    if self._voice_files and not self.io.has_posted():
                        self.hear_file(self._voice_files.pop(0))
                        continue
                    self.warn_later()
                    line = self.io.read(t("prompt", self.lang))
                except KeyboardInterrupt:
                    # On an empty line Ctrl-C is someone looking for the way out: say it.
                    typed = getattr(self.io, "typed", lambda: "")()
                    self.say(
                        t("cancelled" if typed.strip() else "how_to_leave", self.lang), "class:hint"
                    )
                    continue
                except EOFError:
                    break
                if not self.handle(line):
                    break
        except Quit:
            pass
        self.finish()
        return 0

    # -- real time -----------------------------------------------------------
    def _ticker(self) -> None:
        """Background: asks the loop to report real time (every ``report_every`` seconds and
        the moment it runs out), and lets the microphone listen again after a spoken line."""
        while not self._stop.wait(self.tick):
            try:
                if self._muted_for_speech and not getattr(self.narrator, "busy", False):
                    self._muted_for_speech = False
                    self.listener.unmute()
                rt = self.rt
                if rt is None or self.tl is None or self.state.ending is not None or rt.paused:
                    continue
                if self._time_posted:
                    continue
                total = rt.total()
                if total >= rt.limit or total - self._reported >= self.report_every:
                    self._time_posted = True
                    self.io.post(Wake("time"))
            except Exception:  # noqa: BLE001 - a timer must never kill the game
                continue

    def on_wake(self, w: Wake) -> None:
        """Runs on the loop's thread, between lines."""
        if w.kind == "time":
            self._time_posted = False
            self.sync_time()
        elif w.kind == "heard":
            self.on_heard(w.data)
        elif w.kind == "reload":
            self.reload()

    def sync_time(self) -> bool:
        """Tells the engine the real seconds it has not heard of yet, through step(), so they
        are in the log, saves and replays. Returns True if that ended the game."""
        rt = self.rt
        if rt is None or self.tl is None or self.state.ending is not None:
            return False
        total = rt.total()
        spent = rt.spent(self.state)
        delta = int(total) - int(spent)
        if total >= rt.limit:
            delta = max(delta, int(rt.limit - spent + 0.999))  # never stop one second short
        if delta < 1:
            return False
        # Behind our own total (an undo or a load brought back an older State): the rule
        # system is told the whole count, not the step.
        cmd = rt.spec.report(delta, int(spent) + delta, spent + 0.5 < self._reported)
        ran = self.step_asking(cmd)
        if ran is None or ran[0] is self.state:
            return False
        new, events, faces = ran
        self._reported = max(self._reported, float(int(spent) + delta))
        self.tl.push(Entry(cmd, faces or None, self.manual) if faces else Entry(cmd), new, events)
        self._choices = None
        self.refresh()
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        ended = self.state.ending is not None
        shown = [e for e in events if e.get("type") in ("narration", "roll", "ending", "override")]
        if ended:
            self.show(shown)
            self.say(t("ended_already", self.lang), "class:hint")
        elif shown:
            self.show(shown + [self.prompt_event()])
        return ended

    def cmd_pause(self, args: list[str]) -> None:
        if self.rt is None:
            self.say(t("no_realtime", self.lang), "class:error")
            return
        if self.rt.paused:
            self.say(t("pause_already", self.lang), "class:hint")
            return
        self.sync_time()
        self.rt.pause()
        self.say(t("pause_on", self.lang), "class:hint")

    def cmd_resume(self, args: list[str]) -> None:
        if self.rt is None:
            self.say(t("no_realtime", self.lang), "class:error")
            return
        self.rt.resume()
        self.say(t("pause_off", self.lang), "class:hint")

    def handle(self, line: str) -> bool:
        """Runs one line typed at the prompt. Returns False when the player leaves."""
        if line.lstrip().startswith("{") and self.investigators() is not None:
            return self.handle_json(line)
        if "\n" in line or "\r" in line:
            return self.handle_block(line)
        text = _clean(line)
        if not text:
            return True
        if len(text) > MAX_COMMAND:
            self.say(t("too_long", self.lang, n=MAX_COMMAND), "class:error")
            return True
        if self._confirm is not None:
            # "Did you mean …?" is answered by keyboard too; anything else just goes on.
            pending, self._confirm = self._confirm, None
            self._set_phrases()
            word = unicodedata.normalize("NFKC", text).casefold()
            if word in _YES:
                text = self._voice_text(pending)
            elif word in _NO:
                self.say(t("voice_cancel", self.lang), "class:hint")
                return True
        if text.isdigit() and not text.isdecimal():
            # "¹", "①": digits int() cannot read (the engine's matcher would raise on them).
            text = unicodedata.normalize("NFKC", text)
            if not text.isdecimal():
                self.say(t("unknown_command", self.lang, text=text[:40]), "class:error")
                return True
        if text.startswith("@") and not self.may_type_rule_command(text):
            return True
        try:
            if text[0] in _PREFIXES and self.status_line(text[1:]):
                return True
            if text[0] in _PREFIXES:
                return self.meta(text[1:].strip(), explicit=True)
            if (
                self.state.ending is None
                and match(self.story, self.state, text, self.choices(), fuzzy=False) is not None
            ):
                return self.play(text)  # a story action of that name wins over a meta word
            if " ".join(unicodedata.normalize("NFKC", text).casefold().split()) in GO_BACK_WORDS:
                return self.go_back()
            word, _ = _split(text)
            if word.casefold() in _META and not self._verb_names_action(text):
                return self.meta(text, explicit=False)
            return self.play(text)
        except Quit:
            return False

    def go_back(self) -> bool:
        """「戻る」/``back``: the story's way back from here (an action whose label says 戻る,
        back or return), the question when there are several, and else how to undo: never an
        undo itself (#13), since the stories' labels use 戻る for walking back."""
        from runner.engine.match import normalise

        if self.state.ending is not None:
            self.say(t("ended_already", self.lang), "class:error")
            return True
        ja = [normalise(s) for s in GO_BACK_STEMS if not s.isascii()]
        en = re.compile(r"\b(?:" + "|".join(s for s in GO_BACK_STEMS if s.isascii()) + r")\b")

        def says_back(text: str) -> bool:
            return any(s in normalise(text) for s in ja) or en.search(text.casefold()) is not None

        hits = [
            c
            for c in self.choices()
            if c.n and any(says_back(str(x)) for x in (c.label, *c.aliases))
        ]
        if len(hits) == 1:
            self.say(t("paste_line", self.lang, text=clip(hits[0].label, ECHO_MAX)), "class:hint")
            return self.play(hits[0].id)
        if hits:
            self.show(
                [
                    {
                        "type": "error",
                        "code": "ambiguous",
                        "candidates": [{"n": c.n, "id": c.id, "label": c.label} for c in hits],
                    }
                ]
            )
            return True
        self.say(t("back_none", self.lang), "class:hint")
        return True

    def may_type_rule_command(self, text: str) -> bool:
        """A player may type only the rule commands meant for players (``@sheet``, ``@hint``,
        ``@describe``); the real-time reports and the campaign's carry are the console's own
        to send (#13 item 11). Says so, in the player's language, when refused."""
        from runner.rules import system
        from runner.rules.meta import player_commands, player_may_type

        name = text[1:].strip().partition(" ")[0]
        if player_may_type(self.story.rules, name):
            return True
        shown = "@" + (name if len(name) <= 40 else name[:40] + "…")
        known = name in system(self.story.rules).meta_commands
        self.say(
            t("rule_refused" if known else "unknown_meta", self.lang, cmd=shown, word=shown),
            "class:error",
        )
        allowed = player_commands(self.story.rules)
        if allowed:
            self.say(
                t("rule_allowed", self.lang, list=" ".join("@" + n for n in allowed)), "class:hint"
            )
        return False

    def _verb_names_action(self, text: str) -> bool:
        """``look at 時計``: a verb phrase about something here is a story command, although
        ``look`` alone is the console's."""
        if not is_verb_phrase(text) or self.state.ending is not None:
            return False
        found = resolve(self.story, self.state, text, self.choices())
        return found.choice is not None or bool(found.candidates)

    def handle_json(self, first: str) -> bool:
        """JSON pasted at the prompt (a CCFOLIA piece, a キャラクター保管所 sheet): the rest of
        it is read, then it is imported as the investigator (#16)."""
        from runner.ui import investigators

        read = investigators.adapter(self.investigators())
        got = first + "\n"
        while not read.complete(got) and len(got) <= read.MAX_BYTES:
            try:
                line = self.io.ask("{ ")
            except EOFError:
                break
            if not line.strip():
                break
            got += line + "\n"
        try:
            doc = read.parse(got, "paste")
        except read.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return True
        self.import_document(doc, "paste")
        return True

    def handle_block(self, block: str) -> bool:
        """A pasted block of lines: each line a command of its own, in order, each echoed.
        The block stops where the story ends."""
        lines = [
            ln for ln in block.replace("\r\n", "\n").replace("\r", "\n").split("\n") if _clean(ln)
        ]
        if len(lines) == 1:
            return self.handle(lines[0])
        ended = self.tl is not None and self.state.ending is not None
        for ln in lines:
            if not ended and self.tl is not None and self.state.ending is not None:
                return True
            self.say(t("paste_line", self.lang, text=clip(_clean(ln), ECHO_MAX)), "class:hint")
            if not self.handle(ln):
                return False
        return True

    def play(self, text: str) -> bool:
        assert self.tl is not None
        if self.state.ending is not None:
            self.say(t("ended_already", self.lang), "class:error")
            return True
        if self.rt is not None:
            if self.rt.paused:
                self.rt.resume()
                self.say(t("pause_off", self.lang), "class:hint")
            if self.sync_time():
                return True  # the time ran out before this command
        ran = self.step_asking(text)
        if ran is None:
            return True
        new, events, faces = ran
        changed = new is not self.state
        if changed:
            self.tl.push(Entry(text, faces or None, self.manual), new, events)
            self.refresh()
            self.autosave()
            if self.transcript_path is not None:
                self.write_transcript()
        else:
            # Nothing happened: the error (and suggestions) is enough; the list is still on screen.
            events = [e for e in events if e.get("type") != "prompt"]
        self.show(events, command=text)
        if changed:
            self.misses = 0
        elif any(e.get("code") == "unknown_command" for e in events):
            self.misses += 1
            if self.misses == 2:  # twice not understood: where the words are
                self.say(t("miss_hint", self.lang), "class:hint")
        if changed and self.gm and not self.io.interactive:
            # No side panel on a plain terminal: after every turn (folded: its summary line).
            self.io.write(self.gm_panel(folded=not self.panel_is_open()))
        if (
            self.state.ending is not None
            and new is self.state
            and self.tl.pos
            and self.tl.states[self.tl.pos - 1].ending is None
        ):
            self.say(t("ended_already", self.lang), "class:hint")  # what can be done now
        return True

    def step_asking(self, text: str) -> tuple[State, list[dict], list[int]] | None:
        """Runs ``text`` through step(); with ``--dice manual`` every roll it makes (whatever
        made it: an action, a GM's override, a timed event) asks the table. None if the roll
        was cancelled (said so; nothing ran)."""
        faces: list[int] = []
        while True:
            try:
                new, events = step(
                    self.story, self.state, text, dice=faces or None, manual=self.manual, gm=self.gm
                )
                return new, events, faces
            except NeedDice as nd:
                more = self.ask_dice(nd)
                if more is None:
                    self.say(t("dice_cancel", self.lang), "class:hint")
                    return None
                faces += more
            except DiceError:
                self.say(t("dice_error", self.lang), "class:error")
                return None
            except HookFailure as e:  # a rule system's bug costs the command, not the game
                show_trace(e)
                self.say(hook_failure_line(e, self.lang), "class:error")
                return None

    def ask_dice(self, need: NeedDice) -> list[int] | None:
        """Asks the table for the faces of ``need``; None if the player cancels."""
        sides = list(need.sides)
        groups: list[str] = []
        for s in sides:
            if groups and groups[-1].split("×")[0] == f"d{s}":
                head, _, k = groups[-1].partition("×")
                groups[-1] = f"{head}×{int(k or 1) + 1}"
            else:
                groups.append(f"d{s}")
        percentile = (
            len(sides) >= 2
            and set(sides) == {10}
            and unicodedata.normalize("NFKC", need.expr).lower().startswith(("1d100", "d100"))
        )
        # One number reads as the whole roll when the table rolls the usual two d10s (47).
        natural = percentile and len(sides) == 2
        hint = t("dice_percentile", self.lang) if percentile and not natural else ""
        label = str(getattr(need, "label", "") or "")
        target = getattr(need, "target", None)
        what = (
            t("dice_for_target", self.lang, label=label, target=target)
            if label and target is not None
            else t("dice_for", self.lang, label=label)
            if label
            else ""
        )
        # An example that fits the dice asked for: 47 for a d100, 40 7 for its two dice, 3 4 for 2d6.
        example = (
            "47"
            if natural
            else "40 7"
            if percentile and len(sides) == 2
            else " ".join(str(max(1, min(sd, (sd + 1) // 2 + i))) for i, sd in enumerate(sides[:4]))
        )
        ask = getattr(self.io, "ask_status", self.io.ask)
        while True:
            try:
                raw = ask(
                    t(
                        "dice_prompt_d100" if natural else "dice_prompt",
                        self.lang,
                        what=what,
                        expr=need.expr,
                        dice=" ".join(groups) + hint,
                        n=len(sides),
                    )
                )
            except (KeyboardInterrupt, EOFError):
                return None
            if is_quit(raw):
                raise Quit
            raw = unicodedata.normalize("NFKC", raw).replace(",", " ").strip()
            if not raw:
                continue
            word = raw.lstrip("/:").strip().casefold()
            if _META.get(word) in ("help", "status"):
                # Looking at the rules of this prompt or at the status does not answer it.
                if _META[word] == "help":
                    self.say(t("dice_help", self.lang, example=example), "class:hint")
                else:
                    self.cmd_status([])
                continue
            try:
                faces = [int(x) for x in raw.split()][: len(sides)]
            except ValueError:
                self.say(
                    t("dice_bad", self.lang, text=clip(raw, 40), example=example), "class:error"
                )
                continue
            if natural and len(raw.split()) == 1:
                v = faces[0] if faces else -1
                if not 0 <= v <= 100:
                    self.say(t("dice_range_d100", self.lang, face=v), "class:error")
                    continue
                v = v or 100  # 00 is 100
                return [v // 10 % 10 or 10, v % 10 or 10]
            if percentile:
                # Tens dice read 00-90 (or 0-9), the units die 0-9: as d10 faces, 0 is 10.
                faces = [
                    (f // 10 or 10) if i < len(sides) - 1 and f % 10 == 0 and 0 <= f <= 90 else f
                    for i, f in enumerate(faces)
                ]
            bad = next(
                (
                    (f, s)
                    for f, s in zip(faces, sides, strict=False)
                    if not (1 <= f <= s or (f == 0 and s in (10, 100)))
                ),
                None,
            )
            if bad is not None:
                self.say(t("dice_range", self.lang, face=bad[0], sides=bad[1]), "class:error")
                continue
            return faces

    # -- saves --------------------------------------------------------------
    def autosave(self) -> None:
        """Saves the game in this session's slot (one journal line a command); a failure is
        said once, after the turn's narration, and the game goes on."""
        if self.tl is None or self.saver is None:
            return
        if self.rt is not None:
            self.tl.realtime = self.rt.total()
        try:
            self.saver.save(self.story, self.tl)
        except (OSError, SaveError) as e:
            if not self.save_broken:
                where = (files.culprit(e) if isinstance(e, OSError) else None) or self.saver.path
                # Said after the turn's narration (the save runs first, in case of a crash).
                self._warn_later = t(
                    "save_broken", self.lang, path=where, why=files.reason(e, self.lang)
                )
                self.save_broken = True
            return
        self.save_broken = False
        if self.saver.aside is not None:  # a file that was not this session's: kept, and said
            self._warn_later = t("kept_game", self.lang, slot=self.saver.aside.stem)
            self.saver.aside = None

    def _save(self, slot: str) -> bool:
        """``save NAME``: the whole game into a slot of the player's. A file there that this
        story cannot load is moved aside first (and said); a slot another session holds is
        refused."""
        assert self.tl is not None
        if self.read_only:
            self.say(t("read_only_save", self.lang), "class:error")
            return False
        if self.rt is not None:
            self.tl.realtime = self.rt.total()
        lock = files.SlotLock.take(self.story.id, slot)
        if lock is None:
            self.say(t("slot_busy", self.lang, slot=slot), "class:error")
            return False
        path = files.slot_path(self.story.id, slot)
        try:
            if path.exists():
                try:
                    files.load_save(path, self.story)
                except SaveError as e:
                    if not self._set_aside(path, files.reason(e, self.lang)):
                        return False
            files.write_save(path, self.story, self.tl)
        except (OSError, SaveError) as e:
            where = (files.culprit(e) if isinstance(e, OSError) else None) or path
            self.say(
                t("save_fail", self.lang, path=where, why=files.reason(e, self.lang)), "class:error"
            )
            return False
        finally:
            lock.release()
        self.kept_mark = self._mark()
        self.say(t("saved", self.lang, slot=slot), "class:hint")
        return True

    def write_transcript(self) -> None:
        assert self.tl is not None and self.transcript_path is not None
        folder = self.transcript_path.parent
        if not folder.exists() and folder != files.transcripts_dir():
            # A folder the player named that is not there: never made quietly (a typo would
            # hide the record somewhere new). Katari's own transcripts folder is made.
            self.say(t("transcript_no_dir", self.lang, dir=folder), "class:error")
            self.transcript_path = None
            return
        try:
            files.write_transcript(
                self.transcript_path,
                self.story,
                self.tl,
                lang=self.lang,
                started=self.started,
                credits=list(getattr(self.narrator, "credits", None) or ()),
            )
        except OSError as e:  # (a device, a FIFO or a symlink is refused: NotRegularFile)
            where = files.culprit(e) or self.transcript_path
            self.say(
                t(
                    "transcript_err",
                    self.lang,
                    why=f"{where}：{files.reason(e, self.lang)}"
                    if self.lang == "ja"
                    else f"{where}: {files.reason(e, self.lang)}",
                ),
                "class:error",
            )
            self.transcript_path = None

    # -- meta commands ------------------------------------------------------
    def meta(self, text: str, *, explicit: bool) -> bool:
        word, args = _split(text)
        name = _META.get(word.casefold())
        if name == "again" and (word.casefold() == "g" or self.narrator is None):
            return self.repeat_last()
        if name is None or (name in NARRATOR_ONLY and self.narrator is None and name != "narrate"):
            if name in NARRATOR_ONLY:
                self.say(t("no_narrator", self.lang), "class:error")
            else:
                self.say(t("unknown_meta", self.lang, word=word[:40] or "/"), "class:error")
            return True
        if name == "gm":
            self.cmd_gm(args, word=word)
            return True
        getattr(self, f"cmd_{name}")(args)
        return True

    def repeat_last(self) -> bool:
        """``g``: the action played last, again (by its id, echoed by its label), not the text
        typed for it: ``1`` may name another action by now (#13). Says so when that action
        cannot be done now. Words no action answered (a free proposal) are typed again."""
        cmds = self.tl.commands if self.tl else []
        at = next(
            (i for i in range(len(cmds) - 1, -1, -1) if not cmds[i].command.startswith("@")), None
        )
        if at is None:
            self.say(t("nothing_again", self.lang), "class:error")
            return True
        assert self.tl is not None
        last = cmds[at].command
        before = self.tl.states[at]
        chose = (
            None
            if last.startswith("!") or before.ending is not None
            else resolve(self.story, before, last).choice
        )
        if chose is None:
            self.say(t("paste_line", self.lang, text=clip(last, ECHO_MAX)), "class:hint")
            return self.play(last)
        now = next((c for c in self.choices() if c.id == chose.id), None)
        if now is None or self.state.ending is not None:
            self.say(
                t("again_gone", self.lang, label=clip(str(chose.label), ECHO_MAX)), "class:error"
            )
            return True
        self.say(t("paste_line", self.lang, text=clip(str(now.label), ECHO_MAX)), "class:hint")
        return self.play(now.id)

    def cmd_help(self, args: list[str]) -> None:
        r = self.renderer()
        lines: list[Line] = [[("class:title", t("meta_head", self.lang))]]
        for name, (ja, en, _, _) in META.items():
            if not self.offers(name):
                continue
            # (English help shows the English words only; the Japanese ones still work)
            words = " / ".join((*ja[:1], *en[:1])) if self.lang == "ja" else en[0]
            lines += r.text(f"  {words} — {self.meta_help(name)}", "class:meta")
        lines.append([("class:title", t("actions", self.lang))])
        lines += r.actions(self.prompt_event()["actions"])
        self.io.write(lines)

    def cmd_look(self, args: list[str]) -> None:
        if self.state.ending is not None:
            self.say(t("game_over", self.lang), "class:hint")
            return
        self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])

    def cmd_inventory(self, args: list[str]) -> None:
        inv = self.state.inventory
        lines = [t("inventory_head", self.lang)]
        if not inv:
            lines.append("  " + t("inventory_none", self.lang))
        for item, n in inv.items():
            it = self.story.items.get(item)
            name = it.name if it is not None else item
            desc = f" — {it.description}" if it is not None and it.description else ""
            lines.append(f"  {name}" + (f" ×{n}" if n != 1 else "") + desc)
        for line in lines:
            self.say(line)

    def cmd_status(self, args: list[str]) -> None:
        lines = status_lines(
            self.toolbar_event(),
            self.story,
            self.lang,
            cols=self.io.cols,
            extra=self.realtime_items(),
        )
        self.io.write(lines)
        self.speak_system("。".join(plain(lines[1:]).split("\n")).replace("  ", ""))
        if self.gm:
            self.io.write(self.gm_panel())

    def cmd_sheet(self, args: list[str]) -> None:
        """The character sheet, as the story's rule system shows it (RuleSystem.sheet)."""
        from runner.rules import system

        show = system(self.story.rules).sheet
        lines = show(self.story, self.state, self.lang) if show is not None else []
        if not lines:
            self.say(t("no_sheet", self.lang), "class:hint")
        for line in lines:
            self.say(line)

    def cmd_history(self, args: list[str]) -> None:
        assert self.tl is not None
        cmds = self.tl.commands
        self.say(t("history_head", self.lang), "class:title")
        if not cmds:
            self.say("  " + t("history_none", self.lang))
        for i, e in enumerate(cmds, 1):
            dice = f"  🎲 {' '.join(map(str, e.dice))}" if e.dice else ""
            self.say(f"  {i:>3}. {e.command}{dice}")

    def cmd_save(self, args: list[str]) -> None:
        slot = args[0] if args else "quick"
        if not files.valid_slot(slot):
            self.say(t("bad_slot", self.lang, slot=slot[:40]), "class:error")
            return
        if files.is_autosave(slot):
            self.say(t("slot_reserved", self.lang, slot=slot), "class:error")
            return
        self._save(slot)

    def cmd_load(self, args: list[str]) -> None:
        if args:
            name = args[0]
            try:
                path = files.save_path(self.story.id, name)
            except SaveError:
                self.say(t("bad_slot", self.lang, slot=name[:40]), "class:error")
                return
            if not path.exists():
                self.say(t("no_save", self.lang, slot=name), "class:error")
                return
            slot = path.stem
        else:
            good = [
                i
                for i in files.list_saves(self.story.id)
                if not i.error and i.slot != self.autosave_slot
            ]
            if not good:
                self.say(t("no_save", self.lang, slot="quick"), "class:error")
                return
            slot, path = good[0].slot, good[0].path
        try:
            tl, changed = files.load_save(path, self.story)
        except SaveError as e:  # (a file in a slot of its own: nothing will write over it)
            self.say(
                t("bad_save", self.lang, name=path.name, why=files.reason(e, self.lang)),
                "class:error",
            )
            return
        kept = None
        if (
            self.tl is not None
            and self.tl.log
            and not self.read_only
            and self._mark() != self.kept_mark
        ):
            # The loaded game takes the autosave slot: the one on screen goes to a slot of
            # its own first, as with restart, unless a save already holds it as it stands.
            try:
                kept = files.save_new(self.story.id, files.LOAD_BACKUP, self.story, self.tl)
            except (OSError, SaveError) as e:
                self.say(
                    t("load_keep_failed", self.lang, why=files.reason(e, self.lang)), "class:error"
                )
                return
        self._adopt(tl, changed)
        self.kept_mark = self._mark()
        if kept:
            self.say(t("load_kept", self.lang, slot=kept), "class:hint")
        if self.view is not None:
            self.view.note("loaded")
        from runner.ui.files import _place, _time

        self.say(
            t(
                "loaded",
                self.lang,
                slot=slot,
                place=_place(self.story, self.state),
                time=self.when(_time(self.story, self.state), self.state.turn),
            ),
            "class:hint",
        )
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        if self.state.ending is None:
            self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])

    def cmd_saves(self, args: list[str]) -> None:
        """The saves, newest first, in columns that fit the terminal: a long name, place or
        time moves to a line of its own (cut with … only where even that is too wide)."""
        infos = files.list_saves(self.story.id)
        self.say(t("saves_head", self.lang), "class:title")
        if not infos:
            self.say("  " + t("saves_none", self.lang))
        cols = max(20, self.io.cols)
        # The name column as wide as the longest name (a broken file's too), so the dates line
        # up, as long as a date and some of the place still fit after it; a longer name goes
        # on a row of its own.
        names = [width(i.slot) for i in infos if not i.error] + [
            width(i.path.name) for i in infos if i.error
        ]
        name_w = max(13, min(max(names, default=13), cols - 2 - 1 - 16 - 2 - 12))
        for i in infos:
            if i.error:
                from runner.ui.render import wrap

                label = i.path.name
                if width(label) <= name_w:
                    head = f"  {label}" + " " * (name_w + 2 - width(label))  # (the dates' column)
                    rows = wrap(
                        self.why(i), cols, first=head, indent=" " * width(head), keep_spaces=True
                    )
                else:
                    rows = [f"  {label}"] + wrap(
                        self.why(i), cols, first="    ", indent="    ", keep_spaces=True
                    )
                self.io.write([[("class:error", _fit(row, cols))] for row in rows])
                continue
            when = self.when(i.time, i.turn)
            ended = t("ended_mark", self.lang) if i.ended else ""
            slot = i.slot + " " * max(
                1, name_w + 1 - width(i.slot)
            )  # columns, not characters: 梯子 is 4 wide
            line = t(
                "save_line",
                self.lang,
                slot=slot,
                when=i.when,
                place=i.place,
                time=when,
                ended=ended,
            )
            if width(line) <= cols and width(i.slot) <= name_w:
                self.say(line)
                continue
            # Too wide: the name on a row of its own, then the rest; the place (never the name
            # or the time) is cut with … where even that is too wide.
            rows = [f"  {i.slot}" if width(i.slot) + 2 <= cols else i.slot]
            rest = t(
                "save_line", self.lang, slot="", when=i.when, place="", time=when, ended=ended
            ).strip()
            room = cols - 4 - width(rest)
            if room >= 8 or room >= width(i.place):
                rows.append(
                    "    "
                    + t(
                        "save_line",
                        self.lang,
                        slot="",
                        when=i.when,
                        time=when,
                        ended=ended,
                        place=_fit(i.place, max(room, 1)),
                    ).strip()
                )
            else:
                rest = t(
                    "save_line", self.lang, slot="", when="", place="", time=when, ended=ended
                ).strip()
                rows += [
                    f"    {i.when}",
                    "    "
                    + t(
                        "save_line",
                        self.lang,
                        slot="",
                        when="",
                        time=when,
                        ended=ended,
                        place=_fit(i.place, max(cols - 4 - width(rest), 1)),
                    ).strip(),
                ]
            for row in rows:
                self.io.write([[("", _fit(row, cols))]])

    def _view_failed(self) -> None:
        """Says once, in the GM's language, that the players' view cannot be written."""
        v = self.view
        if v is not None and v.failed is not None:
            self.view = None
            self.say(
                t("player_view_err", self.lang, path=v.path, why=files.reason(v.failed, self.lang)),
                "class:error",
            )

    def _moved(self, key: str, n: int) -> None:
        if self.view is not None:
            self.view.note("redone" if key == "redone" else "undone", n=n)
        self._choices = None
        self.refresh()
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        self.say(t(key, self.lang, n=n, turn=self.state.turn), "class:hint")
        if self.state.ending is None:
            self.show([self.prompt_event()])
        elif self.view is not None:
            self.view.turn(None, tail(self.story, self.state)[-1:], self.state)  # redone to the end

    def _count(self, args: list[str]) -> int | None:
        """How many moves ``undo``/``redo`` take: 1 by default; None (after saying how it is
        used) for anything but a whole number from 1."""
        if not args:
            return 1
        word = unicodedata.normalize("NFKC", args[0])
        if len(args) == 1 and word.isascii() and word.isdigit() and 1 <= int(word) <= 1_000_000:
            return int(word)
        self.say(t("count_usage", self.lang, word=clip(" ".join(args), 20)), "class:error")
        return None

    def cmd_undo(self, args: list[str]) -> None:
        """Takes back moves; the real-time reports between them are stepped over (and the
        time is not given back: the next report catches the State up)."""
        assert self.tl is not None
        want, pos, moves, k = self._count(args), self.tl.pos, 0, 0
        if want is None:
            return
        # A campaign's carried PCs cannot be taken back (the first choice never changes).
        floor = max(
            (i + 1 for i, e in enumerate(self.tl.log[:pos]) if e.command.startswith("@carry ")),
            default=0,
        )
        while moves < want and pos > floor:
            pos -= 1
            k += 1
            if not is_clock_command(self.tl.log[pos].command):
                moves += 1
        if not moves:
            self.say(t("nothing_undo", self.lang), "class:error")
            return
        self.tl.undo(k)
        self._moved("undone" if moves == 1 else "undone_n", moves)

    def cmd_redo(self, args: list[str]) -> None:
        assert self.tl is not None
        want, pos, moves, k = self._count(args), self.tl.pos, 0, 0
        if want is None:
            return
        log = self.tl.log
        while pos < len(log) and (moves < want or is_clock_command(log[pos].command)):
            if not is_clock_command(log[pos].command):
                moves += 1
            pos += 1
            k += 1
        if not moves:
            self.say(t("nothing_redo", self.lang), "class:error")
            return
        self.tl.redo(k)
        self._moved("redone", moves)

    def cmd_restart(self, args: list[str]) -> None:
        kept = None
        if self.tl is not None and self.tl.log:
            if not self.read_only:
                # The game so far goes to a slot of its own, never over another save.
                try:
                    kept = files.save_new(self.story.id, RESTART_BACKUP, self.story, self.tl)
                except (OSError, SaveError) as e:
                    self.say(
                        t("restart_keep_failed", self.lang, why=files.reason(e, self.lang)),
                        "class:error",
                    )
                    return
            if self.first_command is None and self.tl.log[0].command.startswith("@carry "):
                self.first_command = self.tl.log[0].command  # a resumed campaign game keeps its PCs
        if kept:
            self.say(t("restarted", self.lang, slot=kept), "class:hint")
        else:
            self.say(t("new_game", self.lang), "class:hint")
        if self.view is not None:
            self.view.note("restarted")
        self.reread_if_changed()  # (runner/ui/reload.py) the new game starts on the story on disk
        self._new_game()
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()

    def cmd_transcript(self, args: list[str]) -> None:
        if args and args[0].casefold() in ("off", "オフ", "stop"):
            if self.transcript_path is not None:
                self.say(t("transcript_off", self.lang, path=self.transcript_path), "class:hint")
            self.transcript_path = None
            return
        self.transcript_path = (
            Path(os.path.expanduser(args[0]))
            if args
            else files.default_transcript_path(self.story.id)
        )
        self.write_transcript()
        if self.transcript_path is not None:
            self.say(t("transcript_on", self.lang, path=self.transcript_path), "class:hint")

    def cmd_roll(self, args: list[str]) -> None:
        """The table's own roll (#16): any BCDice command, chat-palette style against the
        active investigator (``roll 目星``, ``roll CC<={SAN}``); a secret one (``SCC<=50``)
        is kept off the shared screen and the players' view until ``reveal``/``公開``."""
        import secrets

        from runner.ccfolia import table
        from runner.rules.dice import SeededDice, seed_state

        expr = " ".join(args)
        if not expr:
            self.say(t("roll_usage", self.lang), "class:hint")
            return
        # A roll at the table, outside the story: it must not touch the game's dice.
        source = SeededDice(seed_state(secrets.randbits(63)))
        try:
            res, (why, label) = table.table_roll(
                expr, source, table.active_sheet(self.state, self.story.rules) if self.tl else None
            )
        except (DiceError, NeedDice, ValueError):
            res, why, label = None, "not_dice", ""
        if res is None:
            self.say(
                t("roll_err", self.lang, expr=clip(expr, 40))
                if why in ("not_dice", "dice_error")
                else table.text(why, self.lang, label=label, expr=clip(expr, 40)),
                "class:error",
            )
            return
        if not res.secret:
            self._say_exact(res.line())
            self._table_to_view(expr, res.line())
            return
        self.table_secrets.keep(table.shown_with_command(res))
        if self.gm:  # the GM's own screen: the result; the players see only that a roll was made
            self._say_exact(table.text("secret_gm", self.lang, line=table.shown_with_command(res)))
        else:
            self.say(table.text("secret", self.lang, command=clip(expr, 40)), "class:roll")
        self._table_to_view(expr, table.text("secret_view", self.lang))

    def cmd_reveal(self, args: list[str]) -> None:
        """``reveal``/``公開``: the secret rolls made so far, on the screen and the players' view."""
        from runner.ccfolia import table

        lines = self.table_secrets.reveal()
        if not lines:
            self.say(table.text("nothing_hidden", self.lang), "class:hint")
            return
        self.say(table.text("revealed", self.lang), "class:hint")
        for line in lines:
            self._say_exact(line)
        self._table_to_view("reveal", "\n".join(lines))

    def _say_exact(self, text: str, style: str = "class:roll") -> None:
        """A dice line as BCDice wrote it: its spaces kept (``＞ ハード成功``), wrapped."""
        from runner.ui.render import wrap

        self.io.write([[(style, line)] for line in wrap(text, self.io.cols, keep_spaces=True)])

    def _table_to_view(self, command: str, text: str) -> None:
        """A table roll on the players' view (``--player-view``), as a line of its own."""
        if self.view is not None and self.tl is not None:
            self.view.turn(
                command,
                [{"type": "narration", "text": text, "speaker": "system", "id": "table.roll"}],
                self.state,
            )
            self._view_failed()

    def cmd_import(self, args: list[str]) -> None:
        """``import [FILE]``/``取り込む``: an investigator from CCFOLIA or キャラクター保管所 at
        the character choice; without FILE, the JSON is pasted."""
        from runner.ui import investigators

        inv = self.investigators()
        if inv is None:  # this story's rule system has none: say so before reading anything
            self.say(investigators.refusal(self.story, "import", self.lang), "class:error")
            return
        read = investigators.adapter(inv)
        if args:
            try:
                doc, where = read.read_file(os.path.expanduser(" ".join(args)))
            except read.SheetError as e:
                self.say(e.message(self.lang), "class:error")
                return
            self.import_document(doc, where)
            return
        self.say(self._import_text("paste"), "class:hint")
        got = ""
        for _ in range(2000):
            try:
                line = self.io.ask("{ ")
            except EOFError:
                break
            if not line.strip() and got:
                break
            got += line + "\n"
            if read.complete(got) or len(got) > read.MAX_BYTES:
                break
        try:
            doc = read.parse(got, "paste")
        except read.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return
        self.import_document(doc, "paste")

    def import_document(self, doc: Any, where: str) -> None:
        """Reads an investigator (CCFOLIA or キャラクター保管所 JSON) and plays it in, its notes said."""
        from runner.ui import investigators

        inv = self.investigators()
        if inv is None:
            self.say(investigators.refusal(self.story, "import", self.lang), "class:error")
            return
        ad = investigators.adapter(inv)
        try:
            imp = ad.investigator(doc, where)
        except ad.SheetError as e:
            self.say(e.message(self.lang), "class:error")
            return
        self._say_exact(
            ad.say("imported", self.lang, name=imp.sheet["name"], source=imp.source), "class:hint"
        )
        for n in imp.notes:
            self._say_exact("  " + n.message(self.lang), "class:hint")
        self.play(inv.command(imp.sheet))

    def investigators(self) -> Any:
        """What this story's rule system declares about investigators brought from the online
        table (``RuleSystem.investigators``), or None when it has none."""
        from runner.ui import investigators

        return investigators.of(self.story.rules)

    def _import_hint(self, events: list[dict]) -> None:
        """At a character choice (of a rule system with investigators), below its actions: how to bring an
        investigator from CCFOLIA or キャラクター保管所 instead (#16)."""
        inv = self.investigators()
        if inv is None or self.tl is None or not any(e.get("type") == "prompt" for e in events):
            return
        from runner.ui.render import wrap

        st = self.state
        if (
            st.turn
            or inv.creation(self.story, st.node) is None
            or any(
                isinstance(v, dict) and v.get("kind") == "investigator" for v in st.stats.values()
            )
        ):
            return
        self.io.write(
            [
                [("class:hint", line)]
                for line in wrap(self._import_text("hint"), self.io.cols, keep_spaces=True)
            ]
        )

    def _import_text(self, key: str) -> str:
        ja = {
            "hint": "  import：CCFOLIA・キャラクター保管所の探索者を取り込む（JSON を貼り付けても）",
            "paste": "CCFOLIA の駒かキャラクター保管所の JSON を貼り付けてください（終わりは空行）",
        }
        en = {
            "hint": "  import: bring an investigator from CCFOLIA or キャラクター保管所 (or paste its JSON)",
            "paste": "Paste the JSON of a CCFOLIA piece or a キャラクター保管所 sheet (an empty line ends it)",
        }
        return (ja if self.lang == "ja" else en)[key]

    def cmd_narrate(self, args: list[str]) -> None:
        if self.narrator is None:
            self.say(t("no_narrator", self.lang), "class:error")
            return
        on = not args or args[0].casefold() in ("on", "オン", "1")
        self.narrate_on = on
        if not on:
            try:
                self.narrator.skip()
            except Exception:  # noqa: BLE001
                pass
        self.say(t("narrate_on" if on else "narrate_off", self.lang), "class:hint")

    def cmd_skip(self, args: list[str]) -> None:
        try:
            self.narrator.skip()
        except Exception:  # noqa: BLE001
            pass

    def cmd_again(self, args: list[str]) -> None:
        try:
            self.narrator.again()
        except Exception:  # noqa: BLE001
            pass

    # -- by ear: the actions, the status and the narrator's voice, asked for --------------
    def speak_system(self, text: str) -> None:
        """Says an answer of the console's own (the actions, the status, a question) aloud."""
        if self.narrator is not None and self.narrate_on and text:
            try:
                self.narrator.speak(text, speaker="system")
            except Exception:  # noqa: BLE001 - speech must never stop the game
                pass

    def cmd_actions(self, args: list[str]) -> None:
        """``actions`` / ``選択肢``: the numbered actions (spoken too, with narration on)."""
        from runner.ui.narrator.words import actions_words

        acts = self.prompt_event()["actions"]
        lister = getattr(self.io, "actions_lines", None)
        self.io.write(
            lister(acts, self.lang)
            if lister is not None
            else [[("class:title", t("actions", self.lang))], *self.renderer().actions(acts)]
        )
        self.speak_system(actions_words(acts, self.lang))

    def cmd_faster(self, args: list[str]) -> None:
        self._speed(self.narrator.faster())

    def cmd_slower(self, args: list[str]) -> None:
        self._speed(self.narrator.slower())

    def _speed(self, scale: float) -> None:
        from runner.ui.narrator.words import console_text

        text = console_text("speed", self.lang, scale=f"{scale:g}")
        self.say(text, "class:hint")
        self.speak_system(text)

    def cmd_voice(self, args: list[str]) -> None:
        """``声 VOICE``: the narrator's voice, one of its engine's; ``声``: which there are."""
        from runner.ui.narrator.words import console_text

        if not args:
            now, names = self.narrator.voice_names()
            self.say(console_text("voice_now", self.lang, voice=now or "?"), "class:hint")
            if names:
                self.say(
                    console_text("voice_list", self.lang, list=" ".join(names[:60])), "class:hint"
                )
            return
        why = self.narrator.set_voice(args[0][:80])
        text = (
            console_text("voice_set", self.lang, voice=args[0][:80])
            if why is None
            else console_text("voice_bad", self.lang, why=why)
        )
        self.say(text, "class:hint" if why is None else "class:error")
        self.speak_system(text)

    def cmd_quit(self, args: list[str]) -> None:
        raise Quit

    # -- the game master ------------------------------------------------------
    def cmd_gm(self, args: list[str], word: str = "gm") -> None:
        """``gm``: the panel; ``gm set VAR VALUE`` (or ``変数 VAR VALUE``) ...: an override,
        sent through step() as ``!set ...`` so it is logged, saved, undone and replayed."""
        if not self.gm:
            self.say(t("gm_only", self.lang), "class:error")
            return
        verb = GM_VERBS.get(word) if word.casefold() not in ("gm", "ｇｍ") else None
        if verb is None:
            if not args:
                self.io.write(self.gm_panel())
                return
            if args[0].casefold() in PANEL_WORDS:
                self.toggle_panel()
                self.say(
                    t(
                        "gm_panel_open" if self.panel_open else "gm_panel_folded",
                        self.lang,
                        key=PANEL_KEY if self.io.interactive else "gm panel",
                    ),
                    "class:hint",
                )
                return
            word = args[0]
            verb = GM_VERBS.get(args[0].casefold()) or GM_VERBS.get(args[0])
            args = args[1:]
        # Without words (or with a word that is no override) the engine answers with the usage.
        self.play(self._override(verb, args, word) if verb else "!?")

    def status_line(self, text: str) -> bool:
        """CCFOLIA's status syntax after ``:`` (``:HP-3``, ``:SAN-2``, ``:幸運=50``): a GM's
        ``!stat`` on the player character. False when ``text`` is not one (``:undo``)."""
        m = _STATUS_LINE.match(unicodedata.normalize("NFKC", text))
        if m is None or m.group(1).casefold() in _META:
            return False
        if not self.gm:
            self.say(t("gm_only", self.lang), "class:error")
            return True
        self.play(f"!stat {m.group(1)}{m.group(2)}{m.group(3)}")
        return True

    def _override(self, verb: str, args: list[str], word: str = "") -> str:
        """The engine's ``!verb args`` for an override typed in the GM's words. Names stay as
        typed: the engine finds what they name (ids, names, readings, unique parts)."""
        if not args:
            return f"!{verb}"
        if verb == "set":
            value = " ".join(args[1:])
            words = {
                "はい": "true",
                "オン": "true",
                "yes": "true",
                "on": "true",
                "いいえ": "false",
                "オフ": "false",
                "no": "false",
                "off": "false",
            }
            value = words.get(value.casefold(), value)
            return f"!set {args[0]} {value}".rstrip()
        if verb == "clock":
            return "!clock " + clock_words(" ".join(args), absolute=word in ("時刻",))
        if verb == "force":
            word = " ".join(args)
            return "!force " + (
                FORCE_WORDS.get(word) or outcome_key(word, self.lang, self.story.rules)
            )
        return f"!{verb} " + " ".join(args)

    # -- narration keys --------------------------------------------------------
    def key_skip(self) -> None:
        """Ctrl-S: stop the line being read aloud (the game goes on)."""
        if self.narrator is not None:
            try:
                self.narrator.skip()
            except Exception:  # noqa: BLE001
                pass

    def key_talk(self) -> None:
        """F5 / Ctrl-Space: start a push-to-talk utterance, or end it."""
        lst = self.listener
        if lst is None or getattr(lst, "mode", "push") != "push":
            return
        try:
            if self.talking:
                self.talking = False
                lst.release()
            else:
                self.talking = True
                lst.press()
        except Exception:  # noqa: BLE001 - a broken microphone ends voice input, not the game
            self.talking = False

    # -- voice --------------------------------------------------------------
    def feed(self, text: str) -> bool:
        """Enters ``text`` as if typed (shown in the input line first). Thread-safe."""
        return self.io.feed(text)

    def _listen(self) -> None:
        """Background: what the microphone heard goes to the loop's thread."""
        lst = self.listener
        while lst is not None and not self._stop.is_set():
            try:
                heard = lst.next_heard(timeout=0.2)
            except Exception:  # noqa: BLE001 - a broken microphone ends voice input, not the game
                return
            if heard is None:
                continue
            if not heard.text.strip() and heard.command is None:
                continue  # push-to-talk released on silence
            self.io.post(Wake("heard", heard))

    def hear_file(self, path: str) -> None:
        """A recorded utterance (``--voice-input``): recognised as ``katari hear`` would."""
        from runner.ui.listener.audio import AudioError, read_wav

        try:
            pcm = read_wav(path, getattr(self.listener, "rate", 16000), self.lang)
            heard = self.listener.recognise(pcm)
        except AudioError as e:
            self.say(str(e), "class:error")
            return
        self.on_heard(heard, source=Path(path).name)

    def on_heard(self, heard: Any, source: str | None = None) -> None:
        """Decides what to do with an utterance: run it (shown in the input line first), ask
        "did you mean …?", or say it was not understood."""
        from runner.ui.listener import YES_NO, did_you_mean

        text = heard.text.strip() or "…"
        if source:
            self.say(t("voice_file", self.lang, file=source, text=text), "class:hint")
        else:
            self.say(t("voice_heard", self.lang, text=text), "class:hint")
        lang = self.voice_lang
        if self._confirm is not None:
            pending = self._confirm
            answer = heard.command if heard.command in ("yes", "no") else None
            if answer == "yes":
                self._confirm = None
                self._set_phrases()
                self.io.post(self._voice_text(pending))
            elif answer == "no":
                self._confirm = None
                self._set_phrases()
                self.say(t("voice_cancel", self.lang), "class:hint")
            else:
                self.say(did_you_mean(pending, lang), "class:meta")
                self.speak_system(did_you_mean(pending, lang))
            return
        if heard.command is None:
            self.say(t("voice_unclear", self.lang), "class:error")
            self.speak_system(t("voice_unclear", self.lang))
            return
        if heard.needs_confirm:
            self._confirm = heard
            self.say(did_you_mean(heard, lang), "class:meta")
            self.speak_system(did_you_mean(heard, lang))
            try:
                self.listener.set_phrases(list(YES_NO.get(lang, YES_NO["en"]).items()))
            except Exception:  # noqa: BLE001
                pass
            return
        self.io.post(self._voice_text(heard))

    def _voice_text(self, heard: Any) -> str:
        """What a heard command is typed as: the phrase said (or the action's label)."""
        cmd = heard.command
        if cmd == "repeat":
            return "/again" if self.narrator is not None else "/look"
        if cmd in _VOICE_META:
            return _VOICE_META[cmd]
        choices = self.choices()
        for c in choices:
            if c.id == cmd:
                said = getattr(heard, "phrase", None)
                if said:
                    m = match(self.story, self.state, said, choices)
                    if m is not None and m.id == c.id:
                        return said
                return c.label
        return str(cmd)


# -- entry point ---------------------------------------------------------------


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


def make_narrator(story: Any, args: argparse.Namespace, lang: str) -> Any:
    """The narrator for ``--narrate``, or None (after one line saying why)."""
    try:
        from runner.ui.narrator import make_narrator as mk
    except ImportError as e:
        _err(t("narrate_none", lang, why=e))
        return None
    try:
        nar, problem = mk(
            voices=getattr(args, "voices", None),
            mapping=story.voices or None,
            lang=story.language or lang,
            readings=story.readings or None,
            engine=getattr(args, "engine", None),
            output=getattr(args, "audio_out", None) or None,
            story=story.id,
        )
    except Exception as e:  # noqa: BLE001 - speech must never stop the game
        nar, problem = None, str(e)
    if problem or nar is None or not getattr(nar, "enabled", True):
        _err(
            problem or t("narrate_none", lang, why="?")
        )  # already one line, in the story's language
        return None
    return nar


def make_listener(
    args: argparse.Namespace, lang: str, *, story_lang: str | None = None, microphone: bool = True
) -> Any:
    """The listener for ``--voice`` / ``--voice-input``, or None (after one line saying why).
    It listens in the story's language (its model and meta words); messages are in ``lang``."""
    try:
        from runner.ui.listener import make_listener as mk

        listener, problem = mk(
            lang=story_lang or lang,
            model=getattr(args, "model", None),
            mode=getattr(args, "voice", None) or "push",
            microphone=microphone,
            msg_lang=lang,
        )
    except Exception as e:  # noqa: BLE001
        listener, problem = None, str(e)
    if listener is None:
        _err(t("voice_none", lang, why=problem))
    return listener


def main(story: Any, args: argparse.Namespace, *, first_command: str | None = None) -> int:
    """``katari play`` without ``--jsonl``; ``first_command`` follows every new game
    (``--campaign-from``'s ``@carry``)."""
    lang = getattr(args, "lang", None) or default_lang()
    dice = getattr(args, "dice", None)
    if dice not in (None, "manual", "auto"):
        _err(f"katari play: --dice takes 'manual', not {dice!r}")
        return 2
    if getattr(args, "voicevox_url", None):
        os.environ["KATARI_VOICEVOX_URL"] = args.voicevox_url
    screen_reader: bool | str | None = getattr(args, "screen_reader", None)
    if screen_reader is None:
        # A screen reader, or output that is not a terminal: each line once, nothing redrawn.
        screen_reader = (
            True
            if os.environ.get("TERM") == "dumb"
            else "piped"
            if not sys.stdout.isatty()
            else False
        )
    narrator = make_narrator(story, args, lang) if getattr(args, "narrate", False) else None
    voice_inputs = list(getattr(args, "voice_input", None) or [])
    listener = None
    if getattr(args, "voice", None) or voice_inputs:
        # Recorded utterances need no microphone; with none, the game goes on by keyboard.
        listener = make_listener(args, lang, story_lang=story.language, microphone=not voice_inputs)
        if listener is None:
            voice_inputs = []
    repl = Repl(
        story,
        lang=lang,
        gm=bool(getattr(args, "gm", False)),
        manual=dice == "manual",
        seed=getattr(args, "seed", None),
        new=bool(getattr(args, "new", False)),
        transcript=getattr(args, "transcript", None),
        narrator=narrator,
        listener=listener,
        voice_inputs=voice_inputs,
        first_command=first_command,
        player_view=getattr(args, "player_view", None),
        watch=bool(getattr(args, "watch", False)),
        replay_commands=getattr(args, "replay_commands_list", None),
        replay_since=getattr(args, "replay_commands_version", None),
        screen_reader=screen_reader,
    )
    code = repl.run()
    return 1 if first_command and (repl.tl is None or not repl.tl.log) else code
