"""Meta commands: the console's own words (help, look, status, save, load, saves, undo, redo,
restart, transcript, quit, ...), run by name as ``cmd_<name>``."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

from runner.engine import SaveError, describe, resolve, tail
from runner.ui import files
from runner.ui.console.base import ConsoleBase
from runner.ui.console.words import _META, ECHO_MAX, Quit, _fit, _split
from runner.ui.files import RESTART_BACKUP
from runner.ui.i18n import META, NARRATOR_ONLY, t
from runner.ui.render import Line, clip, is_clock_command, plain, status_lines, width


class MetaCommands(ConsoleBase):
    """The console's own commands (i18n.META names them)."""

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
        slot = " ".join(args) if args else "quick"  # (`save before door`: refused, not `before`)
        if not files.valid_slot(slot):
            self._bad_slot("save", slot)
            return
        if files.is_autosave(slot):
            self.say(t("slot_reserved", self.lang, slot=slot), "class:error")
            return
        self._save(slot)

    def _bad_slot(self, cmd: str, name: str) -> None:
        """A save name refused: what a name may be, and the name it could be instead."""
        self.say(t("bad_slot", self.lang, slot=_shown(name)), "class:error")
        like = files.slot_like(name)
        if like is not None:
            self.say(t("bad_slot_try", self.lang, cmd=cmd, slot=like), "class:hint")

    def cmd_load(self, args: list[str]) -> None:
        if args:
            name = " ".join(args)
            try:
                path = files.save_path(self.story.id, name)
            except SaveError:
                self._bad_slot("load", name)
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
                place=files.place_of(self.story, i),
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
            if room >= 8 or room >= width(files.place_of(self.story, i)):
                rows.append(
                    "    "
                    + t(
                        "save_line",
                        self.lang,
                        slot="",
                        when=i.when,
                        time=when,
                        ended=ended,
                        place=_fit(files.place_of(self.story, i), max(room, 1)),
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
                        place=_fit(files.place_of(self.story, i), max(cols - 4 - width(rest), 1)),
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

    def cmd_quit(self, args: list[str]) -> None:
        raise Quit


def _shown(name: str) -> str:
    """A refused save name as the answer quotes it (a long one cut, and marked as cut)."""
    return name if len(name) <= 40 else name[:40] + "…"
