"""The session: resuming or starting a game in an autosave slot this session locks, the autosave
after every command, the player's saves, the transcript, and the goodbye."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.debug import hook_failure_line, show_trace
from runner.engine import NeedDice, SaveError, describe
from runner.engine.evaluate import HookFailure
from runner.ui import files
from runner.ui.console.base import ConsoleBase
from runner.ui.console.terminal import PUSH_KEY
from runner.ui.console.words import Quit, _clean, is_quit
from runner.ui.files import AUTOSAVE, Timeline
from runner.ui.i18n import t


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


class SessionPart(ConsoleBase):
    """Saves, autosave and transcript of one play session."""

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
                    place=files.place_of(self.story, info),
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
        self.say(t("resumed", self.lang, place=files.place_of(self.story, info)), "class:hint")
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

    def _adopt(self, tl: Timeline, changed: Any) -> None:
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
        early: list = []  # the opening's events written while asking for dice (as in play)
        while True:
            try:
                tl, events = files.start(
                    self.story, seed, gm=self.gm, manual=self.manual, dice=faces or None
                )
                break
            except NeedDice as nd:
                made = list(getattr(nd, "events", []))
                if not self.first_command and made[: len(early)] == early and made[len(early) :]:
                    self.show(made[len(early) :], public=False)
                    early = made
                more = self.ask_dice(nd)
                if more is None:
                    raise Quit from None
                faces += more
            except HookFailure as e:  # the rule system's init failed: its one line
                if self.tl is None:
                    raise  # no game yet: katari says it and stops (runner/cli.py)
                show_trace(e)
                self.say(hook_failure_line(e, self.lang), "class:error")
                return  # the game in play goes on, its autosave untouched
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
            self.show(events, early=early)
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
