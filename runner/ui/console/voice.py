"""Voice: the narrator reading the game aloud (and what the console says of its own), the
listener's phrases and what it heard, push-to-talk and the narration keys."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.engine import match
from runner.ui.console.base import ConsoleBase
from runner.ui.console.terminal import PUSH_KEY, Wake
from runner.ui.i18n import t

_VOICE_META = {
    "help": "/help",
    "status": "/status",
    "undo": "/undo",
    "save": "/save",
    "quit": "/quit",
    "actions": "/actions",
}


class VoicePart(ConsoleBase):
    """The narrator's and the listener's part of the console."""

    def _set_phrases(self) -> None:
        """The grammar: the actions valid now (and the meta words), at every prompt."""
        if self.listener is None or self.tl is None:
            return
        try:
            from runner.ui.listener import phrases_for

            self.listener.set_phrases(phrases_for(self.choices(), self.voice_lang))
        except Exception:  # noqa: BLE001 - the listener is optional
            pass

    def voice_items(self) -> list[tuple[str, str]]:
        if self.talking:
            return [("", t("talking", self.lang, key=PUSH_KEY))]
        return []

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
