"""What every part of the console shares: the story, the game on screen (its timeline and
the state events the status bar and the GM panel show), the terminal, and the few helpers
every part uses (say, show, the actions valid now).

The parts (meta commands, real time, voice, the GM panel, the session, the online table,
manual dice, the author loop) each subclass :class:`ConsoleBase`; ``core.Console`` puts
them together. A part that calls into another names the call in the ``TYPE_CHECKING``
block below, so each part type-checks on its own."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from runner.engine import NeedDice, State, available, state_event
from runner.engine.events import PromptEvent
from runner.ui import files
from runner.ui.console.settings import Settings, Terminal, Voice
from runner.ui.console.stopwatch import RealTime
from runner.ui.console.terminal import PlainIO, PromptIO, Wake
from runner.ui.files import Timeline
from runner.ui.i18n import GM_ONLY, META, NARRATOR_ONLY, REALTIME_ONLY, t
from runner.ui.render import Line, Renderer

Events = list[Any]
"""A turn's events as the console hands them on: step()'s (``runner.engine.events.Event``,
plain dicts at run time) and the console's own (a prompt). The renderer, the players' view
and the narrator read them as dicts."""


class ConsoleBase:
    """One play session over a story: its settings, its game, its terminal."""

    if TYPE_CHECKING:
        # What the parts call of each other (each is defined in the module named).
        # core.py: the loop
        def play(self, text: str) -> bool: ...
        def step_asking(
            self, text: str, *, kinds: tuple[str, ...] | None = None
        ) -> tuple[State, Events, list[int], Events] | None: ...
        def on_wake(self, w: Wake) -> None: ...

        # session.py
        @property
        def autosave_slot(self) -> str | None: ...
        def autosave(self) -> None: ...
        def write_transcript(self) -> None: ...
        def _save(self, slot: str) -> bool: ...
        def _mark(self) -> tuple[tuple[str, ...], int]: ...
        def _adopt(self, tl: Timeline, changed: Any) -> None: ...
        def _new_game(self) -> None: ...

        # meta.py
        def cmd_status(self, args: list[str]) -> None: ...
        def _view_failed(self) -> None: ...

        # realtime.py
        def toolbar_event(self) -> dict | None: ...
        def realtime_items(self) -> list[tuple[str, str]]: ...

        # voice.py
        def speak_system(self, text: str) -> None: ...
        def voice_items(self) -> list[tuple[str, str]]: ...
        def key_skip(self) -> None: ...
        def key_talk(self) -> None: ...
        def _set_phrases(self) -> None: ...

        # gm.py
        def gm_panel(
            self,
            cols: int | None = None,
            *,
            folded: bool = False,
            max_lines: int | None = None,
            key: str = "",
        ) -> list[Line]: ...
        def panel_is_open(self, rows: int | None = None) -> bool: ...
        def toggle_panel(self) -> None: ...
        def cmd_gm(self, args: list[str], word: str = "gm") -> None: ...

        # table.py
        def investigators(self) -> Any: ...
        def _import_hint(self, events: Events) -> None: ...

        # dice.py
        def ask_dice(self, need: NeedDice) -> list[int] | None: ...

        # runner/ui/reload.py (the author loop)
        def reread_if_changed(self) -> None: ...
        def replay_commands(self, commands: list[str]) -> None: ...

    def __init__(
        self,
        story: Any,
        settings: Settings | None = None,
        terminal: Terminal | None = None,
        voice: Voice | None = None,
        *,
        io: Any = None,
    ) -> None:
        settings = settings or Settings()
        terminal = terminal or Terminal()
        voice = voice or Voice()
        self.story = story
        self.settings = settings
        self.watch = settings.watch
        """``--watch``: every save of the story's files reloads it and replays the game."""
        self.watcher: Any = None
        self._replay_cmds = (
            list(settings.replay_commands) if settings.replay_commands is not None else None
        )
        """``--replay-commands``: played after the new game starts, as if typed."""
        self._replay_since = settings.replay_since
        """The story version the replayed commands were made on (its migrations rename them)."""
        self._files_seen: dict | None = None
        """The story files' (mtime, size) as loaded: ``restart`` re-reads them if they changed."""
        self._watch_log: tuple[Any, int, list] | None = None
        """After a reload stopped short: (timeline, pos, the whole log it stopped in), so the
        next reload, if nothing was played meanwhile, tries the whole log again."""
        self.player_view_path = settings.player_view
        self.view: Any = None
        """The players' view (``--player-view FILE``, followed by ``katari watch FILE``)."""
        self.first_command = settings.first_command
        """Sent after every new game, as if typed (a campaign's ``@carry``): it is in the log,
        so saves, undo, transcripts and replays keep it."""
        self.lang = settings.lang
        self.gm = settings.gm
        self.manual = settings.manual
        self.seed_arg = settings.seed
        # A campaign's scenario starts afresh: an unfinished game of it is not offered.
        self.new = (
            settings.new
            or settings.first_command is not None
            or settings.replay_commands is not None
        )
        self.narrator = voice.narrator
        self.narrate_on = voice.narrator is not None
        self.listener = voice.listener
        self.tl: Timeline | None = None
        self.state_ev: dict | None = None
        self.transcript_path: Path | None = (
            Path(settings.transcript) if settings.transcript else None
        )
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
        self._last_events: Events = []
        self._narrate_events: Callable[..., Any] | None = None
        self.clock = terminal.clock or time.monotonic
        self.rt = RealTime.for_story(story, self.clock)
        self.tick = terminal.tick
        self.report_every = terminal.report_every
        self._reported = 0.0
        self._time_posted = False
        self._stop = threading.Event()
        self._confirm: Any = None
        self._voice_files = list(voice.voice_inputs or [])
        self.voice_lang = getattr(voice.listener, "lang", None) or story.language or settings.lang
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
        self.io = io if io is not None else self._open_io(terminal)
        if hasattr(self.io, "on_wake"):
            self.io.on_wake = self.on_wake
        if isinstance(self.io, PlainIO):
            self.io.live = self.rt is not None or self.listener is not None or self.watch
        if self.narrator is not None:
            try:
                from runner.ui.narrator import narrate_events

                self._narrate_events = narrate_events
            except ImportError:
                self._narrate_events = None

    def _open_io(self, terminal: Terminal) -> Any:
        """The terminal to play on: a screen reader's, prompt_toolkit's, or plain lines."""
        use_prompt_toolkit, color = terminal.use_prompt_toolkit, terminal.color
        if use_prompt_toolkit is None:
            use_prompt_toolkit = sys.stdin.isatty() and sys.stdout.isatty()
        if color is None:
            color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        if terminal.screen_reader:
            from runner.ui.screen_reader import ScreenReaderIO

            return ScreenReaderIO(plain_prompt=terminal.screen_reader != "piped")
        if use_prompt_toolkit:
            return PromptIO(
                self,
                files.history_path(self.story.id) if terminal.history else None,
                color=color,
                refresh=0.5 if (self.rt is not None or self.listener is not None) else None,
                echo_delay=terminal.echo_delay,
            )
        return PlainIO()

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

    def prompt_event(self) -> PromptEvent:
        return {
            "type": "prompt",
            "actions": [{"id": c.id, "label": c.label, "n": c.n} for c in self.choices() if c.n],
        }

    def warn_later(self) -> None:
        """Says a warning held back until the turn's own output is on screen."""
        if self._warn_later:
            msg, self._warn_later = self._warn_later, None
            self.say(msg, "class:error")

    def show(
        self, events: Events, command: str = "", *, public: bool = True, early: Events | None = None
    ) -> None:
        """Writes a turn's ``events`` (and hands them to the players' view and the narrator).
        ``early``: those already written while the table was asked for dice (step_asking);
        when the turn holds them all, in their order, only the rest is written and spoken now
        (a GM's override puts its own line first, before the events it set off)."""
        whole = events
        if early:
            events = not_yet_written(events, early)
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
                command if command and not command.startswith("!") else None, whole, self.state
            )
            self._view_failed()
        self.warn_later()
        self._last_events = whole
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
        # (A StateEvent, a plain dict at run time: the renderer reads it as one.)
        self.state_ev = cast(dict, state_event(self.story, self.state, gm=self.gm))
        # What a player sees: the status bar and `status` show this, even to a GM (whose
        # hidden values are in the GM panel, never mixed into the bar).
        self.player_ev = (
            cast(dict, state_event(self.story, self.state, gm=False)) if self.gm else self.state_ev
        )
        self._hidden_cache = None
        self._set_phrases()

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


def not_yet_written(events: Events, early: Events) -> Events:
    """``events`` without ``early`` (events written while dice were asked for): the same
    faces make the same events again, so ``early`` is found in ``events`` in its order; if it
    is not (nothing to go by), every event is written."""
    rest: Events = []
    i = 0
    for e in events:
        if i < len(early) and e == early[i]:
            i += 1
        else:
            rest.append(e)
    return rest if i == len(early) else list(events)
