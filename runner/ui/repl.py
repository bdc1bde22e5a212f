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
import sys
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.engine import NeedDice, SaveError, State, available, describe, match, state_event, step
from runner.rules.dice import DiceError
from runner.ui import files
from runner.ui.files import AUTOSAVE, RESTART_BACKUP, Entry, Timeline
from runner.ui.i18n import META, NARRATOR_ONLY, default_lang, meta_words, t
from runner.ui.render import STYLE, Line, Renderer, plain, status_lines, toolbar, width

_META = meta_words()
_PREFIXES = ("/", ":", "／", "：")


class Quit(Exception):
    """Leaves the loop (``quit``)."""


# -- terminals ---------------------------------------------------------------

def _isatty(f: Any) -> bool:
    try:
        return bool(f.isatty())
    except (AttributeError, ValueError):
        return False


class PlainIO:
    """Lines in, plain text out: for pipes, scripts and terminals without prompt_toolkit."""

    interactive = False

    def __init__(self, inp: Any = None, out: Any = None, cols: int | None = None) -> None:
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self._cols = cols

    @property
    def cols(self) -> int:
        if self._cols:
            return self._cols
        try:
            return max(20, int(os.environ.get("COLUMNS", "80")) - 1)
        except ValueError:
            return 79

    def read(self, message: str, **_: Any) -> str:
        self.out.write(message)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.out.write("\n")
            raise EOFError
        line = line.rstrip("\r\n")
        if not _isatty(self.inp):
            self.out.write(line + "\n")  # echo scripted input so the output reads as a session
        return line

    def ask(self, message: str) -> str:
        return self.read(message)

    def write(self, lines: list[Line]) -> None:
        if lines:
            self.out.write(plain(lines) + "\n")
            self.out.flush()

    def feed(self, text: str) -> bool:
        return False

    def close(self) -> None:
        pass


class PromptIO:
    """A prompt_toolkit ``PromptSession`` with completion, history and a status bar."""

    interactive = True

    def __init__(self, repl: Repl, history_file: Path | None, *, color: bool) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, InMemoryHistory
        from prompt_toolkit.output import ColorDepth
        from prompt_toolkit.styles import Style

        self.repl = repl
        self.style = Style.from_dict(STYLE if color else {"bottom-toolbar": "reverse"})
        self.depth = None if color else ColorDepth.DEPTH_1_BIT
        history: Any = InMemoryHistory()
        if history_file is not None:
            try:
                history_file.parent.mkdir(parents=True, exist_ok=True)
                history = FileHistory(str(history_file))
            except OSError:
                pass
        self.session: Any = PromptSession(
            history=history, completer=ActionCompleter(repl), complete_while_typing=True,
            bottom_toolbar=self._toolbar, style=self.style, color_depth=self.depth,
            reserve_space_for_menu=6)
        self.asker: Any = PromptSession(style=self.style, color_depth=self.depth)

    @property
    def cols(self) -> int:
        try:
            return max(20, self.session.output.get_size().columns - 1)
        except Exception:  # noqa: BLE001 - an output without a size
            return 79

    def _toolbar(self) -> Any:
        from prompt_toolkit.formatted_text import FormattedText

        r = self.repl
        return FormattedText(toolbar(r.state_ev, r.story, r.lang, cols=self.cols + 1, gm=r.gm))

    def read(self, message: str, **_: Any) -> str:
        return self.session.prompt(message)

    def ask(self, message: str) -> str:
        return self.asker.prompt(message)

    def write(self, lines: list[Line]) -> None:
        if not lines:
            return
        from prompt_toolkit import print_formatted_text
        from prompt_toolkit.formatted_text import FormattedText

        frags: list[tuple[str, str]] = []
        for line in lines:
            frags.extend(line)
            frags.append(("", "\n"))
        print_formatted_text(FormattedText(frags), style=self.style, color_depth=self.depth, end="")

    def feed(self, text: str) -> bool:
        """Types ``text`` into the running prompt and presses Enter (from any thread)."""
        app = self.session.app
        loop = getattr(app, "loop", None)
        if not app.is_running or loop is None:
            return False

        def go() -> None:
            buf = self.session.default_buffer
            buf.text = text
            buf.cursor_position = len(text)
            buf.validate_and_handle()

        loop.call_soon_threadsafe(go)
        return True

    def close(self) -> None:
        pass


def _completer_base() -> type:
    from prompt_toolkit.completion import Completer

    return Completer


class ActionCompleter(_completer_base()):  # type: ignore[misc]
    """Completes the actions valid now (label, aliases, number) and, after / or :, meta commands."""

    def __init__(self, repl: Repl) -> None:
        self.repl = repl

    def get_completions(self, document: Any, complete_event: Any) -> Any:
        from prompt_toolkit.completion import Completion

        from runner.engine.match import normalise

        text = document.text_before_cursor
        stripped = text.lstrip()
        if not stripped and not complete_event.completion_requested:
            return
        r = self.repl
        if stripped[:1] in _PREFIXES:
            word = stripped[1:].casefold()
            for name, (ja, en, hja, hen) in META.items():
                if name in NARRATOR_ONLY and r.narrator is None:
                    continue
                words = (name, *(ja if r.lang == "ja" else en))
                for w in words:
                    if w.casefold().startswith(word):
                        yield Completion(stripped[0] + w, start_position=-len(stripped),
                                         display=stripped[0] + w, display_meta=hja if r.lang == "ja" else hen)
                        break
            return
        key = normalise(stripped)
        prefix: list[Any] = []
        inner: list[Any] = []
        for c in r.choices():
            if not c.n:
                continue  # hidden actions are secrets: never offered
            meta = " / ".join(a for a in c.aliases if a != c.label)[:60]
            comp = Completion(c.label, start_position=-len(text), display=f"{c.n}. {c.label}",
                              display_meta=meta)
            if not key:
                prefix.append(comp)
                continue
            if stripped.isdigit():
                if str(c.n).startswith(stripped):
                    prefix.append(comp)
                continue
            names = [c.label, c.id, *c.aliases]
            norms = [normalise(x) for x in names]
            if any(n.startswith(key) for n in norms):
                prefix.append(comp)
            elif any(key in n for n in norms):
                inner.append(comp)
        yield from prefix
        yield from inner
        if key and not stripped.isdigit():
            for w, name in _META.items():
                if name in NARRATOR_ONLY and r.narrator is None:
                    continue
                if len(key) >= 2 and w.startswith(stripped.casefold()) and w != stripped.casefold():
                    yield Completion(w, start_position=-len(text), display=w, display_meta="meta")


# -- the console -------------------------------------------------------------

def _clean(line: str) -> str:
    """Drops control characters (pasted escapes, NULs) and trims; keeps every letter."""
    out = "".join(ch if (ch.isprintable() or ch in "\u3000") else " " for ch in line)
    return out.strip()


def _split(text: str) -> tuple[str, list[str]]:
    parts = unicodedata.normalize("NFKC", text).split()
    if not parts:
        return "", []
    return parts[0], parts[1:]


class Repl:
    """One play session over a story: timeline, saves, transcript, output."""

    def __init__(self, story: Any, *, io: Any = None, lang: str = "ja", gm: bool = False,
                 manual: bool = False, seed: int | None = None, new: bool = False,
                 transcript: str | Path | None = None, narrator: Any = None, listener: Any = None,
                 color: bool | None = None, use_prompt_toolkit: bool | None = None,
                 history: bool = True) -> None:
        self.story = story
        self.lang = lang
        self.gm = gm
        self.manual = manual
        self.seed_arg = seed
        self.new = new
        self.narrator = narrator
        self.narrate_on = narrator is not None
        self.listener = listener
        self.tl: Timeline | None = None
        self.state_ev: dict | None = None
        self.transcript_path: Path | None = Path(transcript) if transcript else None
        self.started = ""
        self.autosave_slot = AUTOSAVE
        self._choices: tuple[State, list] | None = None
        self._last_events: list[dict] = []
        self._narrate_events: Callable[..., Any] | None = None
        if io is None:
            tty = sys.stdin.isatty() and sys.stdout.isatty()
            if use_prompt_toolkit is None:
                use_prompt_toolkit = tty
            if color is None:
                color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
            if use_prompt_toolkit:
                io = PromptIO(self, files.history_path(story.id) if history else None, color=color)
            else:
                io = PlainIO()
        self.io = io
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
        return {"type": "prompt", "actions": [{"id": c.id, "label": c.label, "n": c.n}
                                              for c in self.choices() if c.n]}

    def show(self, events: list[dict], command: str = "") -> None:
        self.io.write(self.renderer().events(events, command=command))
        self._last_events = events
        if self.narrator is not None and self.narrate_on and self._narrate_events is not None:
            try:
                self._narrate_events(self.narrator, events)
            except Exception as e:  # noqa: BLE001 - speech must never stop the game
                self.say(t("narrate_none", self.lang, why=e), "class:error")
                self.narrate_on = False

    def refresh(self) -> None:
        self.state_ev = state_event(self.story, self.state, gm=self.gm)
        if self.listener is not None:
            try:
                from runner.ui.listener import phrases_for

                self.listener.set_phrases(phrases_for(self.choices(), self.lang))
            except Exception:  # noqa: BLE001 - the listener is optional
                pass

    # -- start and finish ---------------------------------------------------
    def begin(self) -> None:
        """Resumes the autosave (after asking) or starts a new game, and shows where we are."""
        import datetime as dt

        self.started = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
        self.io.write([[("class:title", self.story.title or self.story.id)]])
        self.say(t("help_hint", self.lang), "class:hint")
        if self.manual:
            self.say(t("dice_manual", self.lang), "class:hint")
        resumed = False
        if not self.new:
            resumed = self._offer_resume()
        else:
            self._pick_autosave_slot()
        if not resumed:
            self._new_game()
        # No autosave yet: a game with no commands has nothing to lose, and an fsync here
        # would only delay the first prompt. The first command saves.
        if self.transcript_path is not None:
            self.write_transcript()

    def _pick_autosave_slot(self) -> list[files.SaveInfo]:
        """Chooses where this session autosaves: never over a damaged file (it stays as it was)."""
        infos = [i for i in files.list_saves(self.story.id)
                 if i.slot == AUTOSAVE or i.slot.startswith(AUTOSAVE + "-")]
        bad = {i.slot for i in infos if i.error}
        for i in infos:
            if i.error:
                self.say(t("bad_save", self.lang, name=i.path.name, why=i.error), "class:error")
        slot, k = AUTOSAVE, 1
        while slot in bad:
            k += 1
            slot = f"{AUTOSAVE}-{k}"
        self.autosave_slot = slot
        return infos

    def _offer_resume(self) -> bool:
        infos = self._pick_autosave_slot()
        good = [i for i in infos if not i.error and not i.ended and i.commands > 0]
        if not good:
            return False
        info = good[0]
        try:
            answer = self.io.ask(t("resume_q", self.lang, when=info.when[5:], place=info.place,
                                     time=self.when(info.time, info.turn)))
        except KeyboardInterrupt:
            answer = "n"
        except EOFError:
            raise Quit from None
        if _clean(answer).casefold() in ("n", "no", "いいえ", "ｎ", "いや"):
            self.say(t("new_game", self.lang), "class:hint")
            return False
        try:
            tl, changed = files.load_save(info.path, self.story)
        except SaveError as e:
            self.say(t("bad_save", self.lang, name=info.path.name, why=e), "class:error")
            return False
        self._adopt(tl, changed)
        self.say(t("resumed", self.lang, place=info.place), "class:hint")
        self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])
        return True

    def _adopt(self, tl: Timeline, changed: bool) -> None:
        tl.gm = self.gm
        self.tl = tl
        self._choices = None
        if changed:
            self.say(t("story_changed", self.lang), "class:error")
        self.refresh()

    def _new_game(self) -> None:
        import secrets

        seed = self.seed_arg if self.seed_arg is not None else secrets.randbits(31)
        faces: list[int] = []
        while True:
            try:
                tl, events = files.start(self.story, seed, gm=self.gm, manual=self.manual,
                                         dice=faces or None)
                break
            except NeedDice as nd:
                more = self.ask_dice(nd)
                if more is None:
                    raise Quit from None
                faces += more
        self.tl = tl
        self._choices = None
        self.refresh()
        self.show(events)

    def finish(self) -> None:
        if self.tl is not None:
            self.autosave()
            if self.transcript_path is not None:
                self.write_transcript()
            ended = self.state.ending is not None
            self.say(t("bye_ended" if ended else "bye", self.lang), "class:hint")
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
        self.io.close()

    # -- the loop -----------------------------------------------------------
    def run(self) -> int:
        try:
            self.begin()
            if self.listener is not None:
                threading.Thread(target=self._listen, daemon=True).start()
            while True:
                try:
                    line = self.io.read(t("prompt", self.lang))
                except KeyboardInterrupt:
                    self.say(t("cancelled", self.lang), "class:hint")
                    continue
                except EOFError:
                    break
                if not self.handle(line):
                    break
        except Quit:
            pass
        self.finish()
        return 0

    def handle(self, line: str) -> bool:
        """Runs one line typed at the prompt. Returns False when the player leaves."""
        text = _clean(line)
        if not text:
            return True
        try:
            if text[0] in _PREFIXES:
                return self.meta(text[1:].strip(), explicit=True)
            if self.state.ending is None and match(self.story, self.state, text, self.choices()) is not None:
                return self.play(text)  # a story action of that name wins over a meta word
            word, _ = _split(text)
            if word.casefold() in _META:
                return self.meta(text, explicit=False)
            return self.play(text)
        except Quit:
            return False

    def play(self, text: str) -> bool:
        assert self.tl is not None
        if self.state.ending is not None:
            self.say(t("ended_already", self.lang), "class:error")
            return True
        faces: list[int] = []
        while True:
            try:
                new, events = step(self.story, self.state, text, dice=faces or None,
                                   manual=self.manual, gm=self.gm)
                break
            except NeedDice as nd:
                more = self.ask_dice(nd)
                if more is None:
                    self.say(t("dice_cancel", self.lang), "class:hint")
                    return True
                faces += more
            except DiceError as e:
                self.say(t("error", self.lang, message=e), "class:error")
                return True
        if new is not self.state:
            self.tl.push(Entry(text, faces or None, self.manual), new, events)
            self.refresh()
            self.autosave()
            if self.transcript_path is not None:
                self.write_transcript()
        else:
            # Nothing happened: the error (and suggestions) is enough; the list is still on screen.
            events = [e for e in events if e.get("type") != "prompt"]
        self.show(events, command=text)
        if self.state.ending is not None and new is self.state and self.tl.pos and \
                self.tl.states[self.tl.pos - 1].ending is None:
            self.say(t("ended_already", self.lang), "class:hint")  # what can be done now
        return True

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
        percentile = len(sides) >= 2 and set(sides) == {10} and \
            unicodedata.normalize("NFKC", need.expr).lower().startswith(("1d100", "d100"))
        hint = t("dice_percentile", self.lang) if percentile else ""
        while True:
            try:
                raw = self.io.ask(t("dice_prompt", self.lang, expr=need.expr, dice=" ".join(groups) + hint,
                                    n=len(sides)))
            except (KeyboardInterrupt, EOFError):
                return None
            raw = unicodedata.normalize("NFKC", raw).replace(",", " ").strip()
            if not raw:
                continue
            try:
                faces = [int(x) for x in raw.split()][: len(sides)]
            except ValueError:
                self.say(t("dice_bad", self.lang, text=raw[:40]), "class:error")
                continue
            if percentile:
                # Tens dice read 00-90 (or 0-9), the units die 0-9: as d10 faces, 0 is 10.
                faces = [(f // 10 or 10) if i < len(sides) - 1 and f % 10 == 0 and 0 <= f <= 90 else f
                         for i, f in enumerate(faces)]
            bad = next(((f, s) for f, s in zip(faces, sides, strict=False)
                        if not (1 <= f <= s or (f == 0 and s in (10, 100)))), None)
            if bad is not None:
                self.say(t("dice_range", self.lang, face=bad[0], sides=bad[1]), "class:error")
                continue
            return faces

    # -- saves --------------------------------------------------------------
    def autosave(self) -> None:
        self._save(self.autosave_slot, quiet=True)

    def _save(self, slot: str, *, quiet: bool = False) -> bool:
        assert self.tl is not None
        try:
            files.write_save(files.slot_path(self.story.id, slot), self.story, self.tl)
        except (OSError, SaveError) as e:
            self.say(t("save_io", self.lang, why=getattr(e, "strerror", None) or e), "class:error")
            return False
        if not quiet:
            self.say(t("saved", self.lang, slot=slot), "class:hint")
        return True

    def write_transcript(self) -> None:
        assert self.tl is not None and self.transcript_path is not None
        try:
            files.write_transcript(self.transcript_path, self.story, self.tl, lang=self.lang, started=self.started)
        except OSError as e:
            self.say(t("transcript_err", self.lang, why=e.strerror or e), "class:error")
            self.transcript_path = None

    # -- meta commands ------------------------------------------------------
    def meta(self, text: str, *, explicit: bool) -> bool:
        word, args = _split(text)
        name = _META.get(word.casefold())
        if name is None or (name in NARRATOR_ONLY and self.narrator is None and name != "narrate"):
            if name in NARRATOR_ONLY:
                self.say(t("no_narrator", self.lang), "class:error")
            else:
                self.say(t("unknown_meta", self.lang, word=word[:40] or "/"), "class:error")
            return True
        getattr(self, f"cmd_{name}")(args)
        return True

    def cmd_help(self, args: list[str]) -> None:
        r = self.renderer()
        lines: list[Line] = [[("class:title", t("meta_head", self.lang))]]
        for name, (ja, en, hja, hen) in META.items():
            if name in NARRATOR_ONLY and self.narrator is None:
                continue
            words = " / ".join((*ja[:1], *en[:1])) if self.lang == "ja" else " / ".join((*en[:1], *ja[:1]))
            lines += r.text(f"  {words} — {hja if self.lang == 'ja' else hen}", "class:meta")
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
        self.io.write(status_lines(self.state_ev, self.story, self.lang, cols=self.io.cols))

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
        if not files.valid_slot(slot) or slot == AUTOSAVE:
            self.say(t("bad_slot", self.lang, slot=slot[:40]), "class:error")
            return
        self._save(slot)

    def cmd_load(self, args: list[str]) -> None:
        if args:
            slot = args[0]
            if not files.valid_slot(slot):
                self.say(t("bad_slot", self.lang, slot=slot[:40]), "class:error")
                return
            path = files.slot_path(self.story.id, slot)
            if not path.exists():
                self.say(t("no_save", self.lang, slot=slot), "class:error")
                return
        else:
            good = [i for i in files.list_saves(self.story.id) if not i.error and i.slot != self.autosave_slot]
            if not good:
                self.say(t("no_save", self.lang, slot="quick"), "class:error")
                return
            slot, path = good[0].slot, good[0].path
        try:
            tl, changed = files.load_save(path, self.story)
        except SaveError as e:
            self.say(t("bad_save", self.lang, name=path.name, why=e), "class:error")
            return
        self._adopt(tl, changed)
        from runner.ui.files import _place, _time

        self.say(t("loaded", self.lang, slot=slot, place=_place(self.story, self.state),
                   time=self.when(_time(self.story, self.state), self.state.turn)), "class:hint")
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        if self.state.ending is None:
            self.show(describe(self.story, self.state, gm=self.gm) + [self.prompt_event()])

    def cmd_saves(self, args: list[str]) -> None:
        infos = files.list_saves(self.story.id)
        self.say(t("saves_head", self.lang), "class:title")
        if not infos:
            self.say("  " + t("saves_none", self.lang))
        for i in infos:
            slot = i.slot + " " * max(1, 14 - width(i.slot))  # columns, not characters: 梯子 is 4 wide
            if i.error:
                self.say(f"  {slot}" + t("bad_save", self.lang, name=i.path.name, why=i.error), "class:error")
            else:
                self.say(t("save_line", self.lang, slot=slot, when=i.when, place=i.place,
                           time=self.when(i.time, i.turn),
                           ended=t("ended_mark", self.lang) if i.ended else ""))

    def _moved(self, key: str, n: int) -> None:
        self._choices = None
        self.refresh()
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        self.say(t(key, self.lang, n=n, turn=self.state.turn), "class:hint")
        if self.state.ending is None:
            self.show([self.prompt_event()])

    def _count(self, args: list[str]) -> int:
        try:
            return max(1, int(args[0])) if args else 1
        except ValueError:
            return 1

    def cmd_undo(self, args: list[str]) -> None:
        assert self.tl is not None
        k = self.tl.undo(self._count(args))
        if not k:
            self.say(t("nothing_undo", self.lang), "class:error")
            return
        self._moved("undone" if k == 1 else "undone_n", k)

    def cmd_redo(self, args: list[str]) -> None:
        assert self.tl is not None
        k = self.tl.redo(self._count(args))
        if not k:
            self.say(t("nothing_redo", self.lang), "class:error")
            return
        self._moved("redone", k)

    def cmd_restart(self, args: list[str]) -> None:
        if self.tl is not None and self.tl.log:
            self._save(RESTART_BACKUP, quiet=True)
        self.say(t("restarted", self.lang, slot=RESTART_BACKUP), "class:hint")
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
        self.transcript_path = Path(os.path.expanduser(args[0])) if args else \
            files.default_transcript_path(self.story.id)
        self.write_transcript()
        if self.transcript_path is not None:
            self.say(t("transcript_on", self.lang, path=self.transcript_path), "class:hint")

    def cmd_roll(self, args: list[str]) -> None:
        import secrets

        from runner.rules.dice import SeededDice, roll, seed_state

        expr = " ".join(args)
        if not expr:
            self.say(t("roll_usage", self.lang), "class:hint")
            return
        # A roll at the table, outside the story: it must not touch the game's dice.
        source = SeededDice(seed_state(secrets.randbits(63)))
        try:
            try:
                from runner.rules.coc7.bcdice import bcdice
            except ImportError:
                bcdice = None
            res = bcdice(expr, source) if bcdice else None
            if res is not None:
                self.say(str(res.text), "class:roll")
                return
            r = roll(expr, source)
        except (DiceError, NeedDice, ValueError) as e:
            self.say(t("roll_err", self.lang, why=e), "class:error")
            return
        self.show([r.to_event()])

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

    def cmd_quit(self, args: list[str]) -> None:
        raise Quit

    # -- voice --------------------------------------------------------------
    def feed(self, text: str) -> bool:
        """Enters ``text`` as if typed (the listener's way in). Thread-safe."""
        return self.io.feed(text)

    def _listen(self) -> None:
        lst = self.listener
        while lst is not None:
            try:
                heard = lst.next_heard(timeout=0.2)
            except Exception:  # noqa: BLE001 - a broken microphone ends voice input, not the game
                return
            if heard is None:
                continue
            cmd = getattr(heard, "command", None)
            if cmd and not getattr(heard, "needs_confirm", False):
                self.feed(cmd)


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
        nar, problem = mk(voices=getattr(args, "voices", None), mapping=story.voices or None,
                          lang=story.language or lang, readings=story.readings or None,
                          engine=getattr(args, "engine", None))
    except Exception as e:  # noqa: BLE001 - speech must never stop the game
        nar, problem = None, str(e)
    if problem or nar is None or not getattr(nar, "enabled", True):
        _err(problem or t("narrate_none", lang, why="?"))  # already one line, in the story's language
        return None
    return nar


def make_listener(args: argparse.Namespace, lang: str) -> Any:
    """The listener for ``--voice``, or None (after one line saying why)."""
    try:
        from runner.ui.listener import make_listener as mk

        listener, problem = mk(lang=lang, model=getattr(args, "model", None), mode=args.voice or "push")
    except Exception as e:  # noqa: BLE001
        listener, problem = None, str(e)
    if listener is None:
        _err(t("voice_none", lang, why=problem))
    return listener


def main(story: Any, args: argparse.Namespace) -> int:
    """``katari play`` without ``--jsonl``."""
    lang = getattr(args, "lang", None) or default_lang()
    dice = getattr(args, "dice", None)
    if dice not in (None, "manual", "auto"):
        _err(f"katari play: --dice takes 'manual', not {dice!r}")
        return 2
    narrator = make_narrator(story, args, lang) if getattr(args, "narrate", False) else None
    listener = make_listener(args, lang) if getattr(args, "voice", None) else None
    repl = Repl(story, lang=lang, gm=bool(getattr(args, "gm", False)), manual=dice == "manual",
                seed=getattr(args, "seed", None), new=bool(getattr(args, "new", False)),
                transcript=getattr(args, "transcript", None), narrator=narrator, listener=listener)
    return repl.run()
