"""The speech worker: a separate process that synthesises and plays lines from a queue.

Run as ``python -m runner.ui.narrator.worker`` by Narrator. Commands arrive as JSON lines on
stdin; status goes back as JSON lines on the pipe that was stdout. Everything else this process
(or pyttsx3, espeak, ALSA) prints is sent to /dev/null (or $KATARI_NARRATOR_LOG), so nothing
reaches the player's terminal.

Commands: {"op": "speak", "seq", "text", "speaker", "id", "profile", "lang", "t"},
{"op": "skip", "all"}, {"op": "close"}.
Status: {"op": "ready"}, {"op": "fatal", "message"}, {"op": "started", "seq", "id", "reading"},
{"op": "first", "seq", "at"} (monotonic time of the first sample), {"op": "done", "seq",
"completed"}, {"op": "error", "seq", "message"}.
"""

from __future__ import annotations

import json
import os
import queue
import sys
import threading
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the worker loads its audio modules when it starts
    from runner.ui.narrator.audio import Clip


class _Closing(Exception):
    pass


def _detach_output():
    """Keep a private copy of stdout for status, then point fds 1 and 2 elsewhere."""
    status = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    log = os.environ.get("KATARI_NARRATOR_LOG")
    target = (
        os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        if log
        else os.open(os.devnull, os.O_WRONLY)
    )
    os.dup2(target, 1)
    os.dup2(target, 2)
    return status


class Worker:
    def __init__(self, config: dict, status) -> None:
        from runner.ui.narrator.players import make_player

        self.config = config
        self._status = status
        self.readings = config.get("readings") or {}
        self.player = make_player(config.get("output", "default"), config.get("pace", 1.0))
        self.commands: queue.Queue = queue.Queue()
        self.pending: deque = deque()

    def send(self, **msg) -> None:
        self._status.write(json.dumps(msg, ensure_ascii=False) + "\n")
        self._status.flush()

    def check(self) -> str | None:
        """Every engine and voice the profiles name must work before we say 'ready'."""
        from runner.ui.narrator.engines import EngineError, engine_problem, get_engine
        from runner.ui.narrator.players import check_output
        from runner.ui.narrator.profiles import Profile

        profiles = [Profile(**p) for p in self.config.get("profiles", [])]
        for p in profiles:
            problem = engine_problem(p.engine, needs_kana=self.config.get("needs_kana", False))
            if problem:
                return problem
            try:
                get_engine(p.engine).check_voice(p.voice)
            except EngineError as e:
                return str(e)
        return check_output(self.config.get("output", "default"))

    def read_stdin(self) -> None:
        for line in sys.stdin:
            line = line.strip()
            if line:
                try:
                    self.commands.put(json.loads(line))
                except ValueError:
                    continue
        self.commands.put({"op": "close"})  # parent gone

    def handle(self, cmd: dict, playing: bool) -> bool:
        """Returns True when the current line must stop."""
        op = cmd.get("op")
        if op == "speak":
            self.pending.append(cmd)
        elif op == "skip":
            if cmd.get("all"):
                self.pending.clear()
            return playing
        elif op == "close":
            raise _Closing
        elif op in ("check_voice", "list_voices"):
            self.voice_question(cmd)
        return False

    def voice_question(self, cmd: dict) -> None:
        """``声 VOICE`` in play: is it a voice of that engine; which voices are there."""
        from runner.ui.narrator.engines import EngineError, get_engine

        try:
            engine = get_engine(cmd.get("engine", ""))
            if cmd["op"] == "check_voice":
                engine.check_voice(str(cmd.get("voice", "")))
                self.send(op="voice_checked", seq=cmd.get("seq"), ok=True)
            else:
                ids = [str(v.get("id", "")).rsplit("/", 1)[-1] for v in engine.voices()]
                self.send(op="voices", seq=cmd.get("seq"), voices=ids)
        except (EngineError, Exception) as e:  # noqa: BLE001 - answered, never fatal
            if cmd["op"] == "check_voice":
                self.send(
                    op="voice_checked",
                    seq=cmd.get("seq"),
                    ok=False,
                    message=str(e).splitlines()[0] if str(e) else type(e).__name__,
                )
            else:
                self.send(op="voices", seq=cmd.get("seq"), voices=[])

    def run(self) -> None:
        threading.Thread(target=self.read_stdin, daemon=True).start()
        try:
            while True:
                if not self.pending:
                    self.handle(self.commands.get(), playing=False)
                    continue
                self.speak(self.pending.popleft())
        except _Closing:
            self.player.stop()

    def _poll(self, timeout: float) -> bool:
        try:
            cmd = self.commands.get(timeout=timeout)
        except queue.Empty:
            return False
        return self.handle(cmd, playing=True)

    def speak(self, cmd: dict) -> None:
        from runner.ui.narrator.cache import cached
        from runner.ui.narrator.engines import get_engine
        from runner.ui.narrator.profiles import Profile
        from runner.ui.narrator.readings import reading_for, split_sentences

        seq = cmd["seq"]
        try:
            profile = Profile(**cmd["profile"])
            hit = cached(
                self.config.get("story"), cmd.get("id"), cmd["text"], profile, self.readings
            )
            if hit is not None:
                # Rendered before (`katari voice render`): played at once, as one clip.
                from runner.ui.narrator.audio import read_wav

                self.send(
                    op="started",
                    seq=seq,
                    id=cmd.get("id"),
                    reading=cmd["text"],
                    cached=True,
                    credit=_credit(profile),
                )
                sentences = [cmd["text"]]
                nxt: Clip | None = read_wav(hit)
                engine = None
            else:
                reading = reading_for(cmd["text"], self.readings, profile.engine, cmd.get("lang"))
                engine = get_engine(profile.engine)
                if hasattr(engine, "readings"):
                    engine.readings = self.readings
                sentences = split_sentences(reading)
                self.send(
                    op="started",
                    seq=seq,
                    id=cmd.get("id"),
                    reading=reading,
                    cached=False,
                    credit=_credit(profile),
                )
                nxt = _synth(engine, sentences[0], profile) if sentences else None
            # A skip that arrived while we synthesised the first sentence belongs to this line.
            while not self.commands.empty():
                if self._poll(0):
                    self.send(op="done", seq=seq, completed=False)
                    return
            i, first_sent = 0, False
            while nxt is not None:
                self.player.start(nxt, f"{seq:04d}-{i:02d}")
                if not first_sent and self.player.first_sample_at is not None:
                    self.send(op="first", seq=seq, at=self.player.first_sample_at)
                    first_sent = True
                i += 1
                # Synthesise the next sentence while this one plays.
                nxt = _synth(engine, sentences[i], profile) if i < len(sentences) else None
                while self.player.busy():
                    if self._poll(0.02):
                        self.player.stop()
                        self.send(op="done", seq=seq, completed=False)
                        return
            self.send(op="done", seq=seq, completed=True)
        except _Closing:
            raise
        except Exception as e:  # noqa: BLE001 - one bad line must not end the narration
            self.send(op="error", seq=seq, message=f"{type(e).__name__}: {e}".splitlines()[0])
            self.send(op="done", seq=seq, completed=False)


def _credit(profile) -> str | None:
    """The credit the voice that says a line asks for (Mei: CC BY; VOICEVOX: its character)."""
    from runner.ui.narrator.engines import _ENGINES, KOKORO_CREDIT, MEI_CREDIT

    if profile.engine == "openjtalk" and profile.voice == "mei":
        return MEI_CREDIT
    if profile.engine == "kokoro":
        return KOKORO_CREDIT
    if profile.engine == "voicevox":
        from runner.ui.narrator.voicevox import VoicevoxEngine, credit

        name = profile.voice.partition(":")[0]
        eng = _ENGINES.get("voicevox")
        if name.isdigit() and isinstance(eng, VoicevoxEngine):
            name = eng.character(int(name))
        return credit(name)
    return None


def _synth(engine, text: str, profile):
    """``engine.synth``, once more when a sentence with words comes back without audio: espeak
    now and then ends its loop before writing anything, and an empty clip would play as
    silence and be reported "completed". A second empty clip is an error for this line."""
    import re

    from runner.ui.narrator.engines import EngineError

    clip = engine.synth(text, profile)
    if clip.pcm or not re.search(r"\w", text):
        return clip
    clip = engine.synth(text, profile)
    if not clip.pcm:
        raise EngineError(
            f"{getattr(engine, 'name', 'the engine')} produced no audio for this sentence"
        )
    return clip


def main() -> int:
    status = _detach_output()
    config = json.loads(sys.stdin.readline() or "{}")
    try:
        w = Worker(config, status)
        problem = w.check()
    except Exception as e:  # noqa: BLE001
        problem = f"{type(e).__name__}: {e}".splitlines()[0]
    if problem:
        status.write(json.dumps({"op": "fatal", "message": problem}, ensure_ascii=False) + "\n")
        status.flush()
        return 1
    w.send(op="ready")
    engines = {p.get("engine") for p in config.get("profiles", [])}
    try:
        # The story's reading dictionary, and kokoro's model (seconds), before the first line.
        from runner.ui.narrator.readings import use_dictionary

        use_dictionary(config.get("readings") or {})
        if "kokoro" in engines:
            from runner.ui.narrator.engines import get_engine

            get_engine("kokoro").load()
    except Exception:  # noqa: BLE001, S110 - the first real line will report it
        pass
    if config.get("needs_kana"):
        # Load the reading dictionaries now, not on the player's first line (~0.3 s).
        from runner.ui.narrator.readings import g2p_kana

        try:
            g2p_kana("あ")
        except Exception:  # noqa: BLE001, S110 - the first real line will report it
            pass
    w.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
