"""The play console: a prompt_toolkit session over the pure engine.

The loop is thin (prompt_toolkit's ``sqlite-cli.py`` shape: Ctrl-C cancels the line, Ctrl-D
leaves): read a line, run it as a meta command or a story command, print the events, autosave.
When stdin is not a terminal the same loop reads plain lines and prints plain text.

:class:`Console` puts the parts together (each a module of this package: the session, meta
commands, real time, voice, the GM panel, the online table, manual dice, and the author loop
of runner/ui/reload.py) and runs the loop: what a typed line is, and playing it.

Hooks for other front ends: ``Voice(narrator=...)`` gets every turn's events through
``runner.ui.narrator.narrate_events(narrator, events)``; ``Voice(listener=...)`` is told the
phrases valid now and its commands are typed in with :meth:`Console.feed`.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from typing import Any, cast

from runner.debug import hook_failure_line, show_trace
from runner.engine import NeedDice, State, match, resolve, state_event, step
from runner.engine.evaluate import HookFailure
from runner.engine.match import MAX_COMMAND, is_verb_phrase
from runner.rules.dice import DiceError
from runner.ui.console.base import Events
from runner.ui.console.dice import ManualDicePart
from runner.ui.console.gm import GmPart
from runner.ui.console.meta import MetaCommands
from runner.ui.console.realtime import RealTimePart
from runner.ui.console.session import SessionPart
from runner.ui.console.settings import split
from runner.ui.console.table import TablePart
from runner.ui.console.terminal import Wake
from runner.ui.console.voice import VoicePart
from runner.ui.console.words import _META, _NO, _PREFIXES, _YES, ECHO_MAX, Quit, _clean, _split
from runner.ui.files import Entry
from runner.ui.i18n import GO_BACK_STEMS, GO_BACK_WORDS, t
from runner.ui.reload import AuthorLoop
from runner.ui.render import clip


class Console(
    SessionPart,
    MetaCommands,
    RealTimePart,
    VoicePart,
    GmPart,
    TablePart,
    ManualDicePart,
    AuthorLoop,
):
    """One play session over a story: ``Console(story, Settings(...), Terminal(...),
    Voice(...), io=...)``; ``run()`` plays it."""

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

    def on_wake(self, w: Wake) -> None:
        """Runs on the loop's thread, between lines."""
        if w.kind == "time":
            self._time_posted = False
            self.sync_time()
        elif w.kind == "heard":
            self.on_heard(w.data)
        elif w.kind == "reload":
            self.reload()

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
        new, events, faces, early = ran
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
        self.show(events, command=text, early=early)
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

    def step_asking(
        self, text: str, *, kinds: tuple[str, ...] | None = None
    ) -> tuple[State, Events, list[int], Events] | None:
        """Runs ``text`` through step(); with ``--dice manual`` every roll it makes (whatever
        made it: an action, a GM's override, a timed event) asks the table. Before it asks,
        what the command made so far is written (a check's verdict before the damage it
        causes; only the events of ``kinds`` when given): the same faces make the same events
        again, so the result is (state, events, faces, the events already written), for
        ``show(..., early=)`` to write only the rest. None if the roll was cancelled (said so;
        nothing ran)."""
        faces: list[int] = []
        early: Events = []
        shown = (self.state_ev, self.player_ev)
        try:
            return self._step_asking(text, kinds, faces, early)
        finally:  # the bar showed the game as of the events written: now the game's own again
            if self.state_ev is not shown[0] or self.player_ev is not shown[1]:
                self.state_ev, self.player_ev = shown
                self._hidden_cache = None

    def _bar_as_of(self, need: NeedDice) -> None:
        """While the table rolls, the status bar (and a GM's panel) shows the game as of the
        events already written (the time a GM's ``!clock +70`` moved to), not as it was
        before the command."""
        st = getattr(need, "state", None)
        if st is None:
            return
        self.state_ev = cast(dict, state_event(self.story, st, gm=self.gm))
        self.player_ev = (
            cast(dict, state_event(self.story, st, gm=False)) if self.gm else self.state_ev
        )
        self._hidden_cache = None

    def _step_asking(
        self, text: str, kinds: tuple[str, ...] | None, faces: list[int], early: Events
    ) -> tuple[State, Events, list[int], Events] | None:
        while True:
            try:
                new, events = step(
                    self.story, self.state, text, dice=faces or None, manual=self.manual, gm=self.gm
                )
                return new, events, faces, early
            except NeedDice as nd:
                made = list(getattr(nd, "events", []))
                if made[: len(early)] == early and len(made) > len(early):
                    part = made[len(early) :]
                    if kinds is not None:
                        part = [e for e in part if e.get("type") in kinds]
                    if part:
                        self.show(part, command=text, public=False)
                    early = made
                self._bar_as_of(nd)
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


class Repl(Console):
    """The console from flat keywords, each a field of :class:`Settings`, :class:`Terminal`
    or :class:`Voice` (``Repl(story, io=..., gm=True, seed=3)``): the form scripts and the
    tests build it in."""

    def __init__(self, story: Any, *, io: Any = None, **options: Any) -> None:
        super().__init__(story, *split(options), io=io)
