"""The narrator the REPL talks to: speak / skip / again / close, never blocking input."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from runner.ui.narrator.profiles import ProfileError, VoiceSet, load_voices
from runner.ui.narrator.readings import detect_lang, is_japanese

if TYPE_CHECKING:  # annotations only: the engine is not loaded for this
    from runner.engine.events import Event

MESSAGES = {
    "ja": "音声読み上げはオフです: {reason}。テキストで続けます。",
    "en": "Narration is off: {reason}. The game goes on in text.",
}


# Japanese for the reasons a player meets most; anything else is shown as the engine said it.
_JA = [
    (
        re.compile(r"^no audio device"),
        "音声出力装置が見つかりません (サウンドデバイスと alsa-utils を確認してください)",
    ),
    (re.compile(r"^aplay is not installed"), "aplay がありません (apt-get install alsa-utils)"),
    (re.compile(r"^pyttsx3 is not installed"), "pyttsx3 がありません (pip install pyttsx3)"),
    (
        re.compile(r"^espeak-ng is not installed"),
        "espeak-ng がありません (apt-get install espeak-ng)",
    ),
    (
        re.compile(r"^Japanese readings"),
        "日本語の読みに pyopenjtalk-plus が必要です (pip install pyopenjtalk-plus)",
    ),
    (
        re.compile(r"^Open JTalk is not installed"),
        "Open JTalk がありません (pip install pyopenjtalk-plus)",
    ),
    (
        re.compile(r"^espeak-ng has no voice (.*) \(see.*$"),
        r"espeak-ng に声 \1 がありません (katari voices で一覧)",
    ),
]


def off_message(reason: str, lang: str = "ja") -> str:
    reason = reason.rstrip("。.")
    if lang == "ja":
        for pat, ja in _JA:
            if pat.search(reason):
                reason = pat.sub(ja, reason) if "\\1" in ja else ja
                break
    return MESSAGES.get(lang, MESSAGES["en"]).format(reason=reason)


RATE_STEP = 1.25
RATE_MIN, RATE_MAX = 0.4, 2.5


class BaseNarrator:
    enabled: bool = False
    message: str | None = None

    def speak(self, text: str, *, speaker: str = "narrator", id: str | None = None) -> int | None:
        """Queues ``text``; a narrator that counts its lines returns the line's number."""
        raise NotImplementedError

    def skip(self, all: bool = False) -> None:  # noqa: A002 - reads well at the call site
        """Stop the line being spoken (``all``: and forget the queued ones)."""

    def again(self) -> None:
        """Say the last line once more."""

    rate_scale: float = 1.0

    def faster(self) -> float:
        """Speak faster from the next line on (×1.25, up to ×2.5); returns the new scale."""
        self.rate_scale = min(RATE_MAX, round(self.rate_scale * RATE_STEP, 3))
        return self.rate_scale

    def slower(self) -> float:
        self.rate_scale = max(RATE_MIN, round(self.rate_scale / RATE_STEP, 3))
        return self.rate_scale

    def set_voice(self, voice: str, speaker: str = "narrator") -> str | None:
        """Give ``speaker`` another voice of its engine; None, or one line saying why not."""
        return None

    def voice_names(self, speaker: str = "narrator") -> tuple[str, list[str]]:
        """(the speaker's voice now, the voices its engine has)."""
        return "", []

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DisabledNarrator(BaseNarrator):
    """A no-op, so the game goes on in text. ``message`` says why, in one line."""

    def __init__(self, message: str | None = None) -> None:
        self.message = message
        self.enabled = False

    def speak(self, text: str, *, speaker: str = "narrator", id: str | None = None) -> None:
        return None


class RecordingNarrator(BaseNarrator):
    """Records what it was asked to do, for tests: ``lines`` (dicts) and ``log`` (every call)."""

    def __init__(self, readings: Mapping[str, str] | None = None) -> None:
        self.enabled = True
        self.readings = dict(readings or {})
        self.lines: list[dict] = []
        self.log: list[tuple] = []
        self.closed = False

    @property
    def texts(self) -> list[str]:
        return [x["text"] for x in self.lines]

    def speak(self, text: str, *, speaker: str = "narrator", id: str | None = None) -> None:
        if not self.enabled or not text:
            return
        self.lines.append({"text": text, "speaker": speaker, "id": id})
        self.log.append(("speak", text, speaker, id))

    def skip(self, all: bool = False) -> None:  # noqa: A002
        self.log.append(("skip", all))

    def again(self) -> None:
        self.log.append(("again",))
        if self.lines:
            self.lines.append(dict(self.lines[-1]))

    def faster(self) -> float:
        self.log.append(("faster",))
        return super().faster()

    def slower(self) -> float:
        self.log.append(("slower",))
        return super().slower()

    def set_voice(self, voice: str, speaker: str = "narrator") -> str | None:
        self.log.append(("voice", speaker, voice))
        return None

    def close(self) -> None:
        self.closed = True
        self.log.append(("close",))


class Narrator(BaseNarrator):
    """Speaks through a worker process (runner.ui.narrator.worker) fed by a pipe.

    Use ``make_narrator`` rather than building one by hand: it turns every failure into a
    DisabledNarrator and one line of message."""

    def __init__(
        self,
        voices: VoiceSet,
        *,
        mapping: Mapping[str, str] | None = None,
        lang: str = "ja",
        readings: Mapping[str, str] | None = None,
        output: str = "default",
        pace: float = 1.0,
        story: str | None = None,
    ) -> None:
        self.voices = voices
        self.story = story
        self.mapping = dict(mapping or {})
        self.lang = lang
        self.readings = dict(readings or {})
        self.output = output
        self.pace = pace
        self.enabled = False
        self.message = None
        self.history: list[dict] = []  # every status message from the worker
        self._status: queue.Queue = queue.Queue()
        self._proc: subprocess.Popen | None = None
        self._seq = 0
        self._open: set[int] = set()
        self._last: tuple | None = None
        self._lock = threading.Lock()
        self.rate_scale = 1.0
        self.voice_override: dict[str, str] = {}
        """speaker -> voice chosen in play (``声 VOICE``)."""

    # -- life cycle -------------------------------------------------------------------------
    def start(self, timeout: float = 30.0) -> str | None:
        """Start the worker and wait until it has checked engines, voices and the device.
        Returns None when speaking, else the reason (and the narrator stays disabled)."""
        voices = self.voices
        needs_kana = any(
            p.engine == "pyttsx3"
            for langs in voices.profiles.values()
            for lang, p in langs.items()
            if lang == "ja"
        )
        config = {
            "profiles": [p.as_dict() for p in voices.used(self.mapping)],
            "readings": self.readings,
            "output": self.output,
            "pace": self.pace,
            "needs_kana": needs_kana,
            "story": self.story,
        }
        root = str(Path(__file__).resolve().parents[3])
        env = dict(os.environ)
        env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        try:
            self._proc = subprocess.Popen(
                # Same interpreter flags as ours (-S, -I, -X ...), so the worker sees the same
                # packages we do.
                [
                    sys.executable,
                    *subprocess._args_from_interpreter_flags(),  # type: ignore[attr-defined]  # private, not in typeshed; the one way to copy our flags
                    "-m",
                    "runner.ui.narrator.worker",
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                text=True,
                encoding="utf-8",
                bufsize=1,
                start_new_session=True,
            )
        except OSError as e:
            return f"cannot start the speech worker ({e})"
        threading.Thread(target=self._read, daemon=True).start()
        self._send(config)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self._status.get(timeout=0.1)
            except queue.Empty:
                if self._proc.poll() is not None:
                    return "the speech worker stopped while starting"
                continue
            if msg.get("op") == "ready":
                self.enabled = True
                return None
            if msg.get("op") == "fatal":
                self._kill()
                return msg.get("message") or "the speech worker failed"
        self._kill()
        return "the speech worker did not start in time"

    def close(self) -> None:
        self.enabled = False
        if self._proc and self._proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                self._send({"op": "close"})
                if self._proc.stdin is not None:
                    self._proc.stdin.close()
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._kill()

    def _kill(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait(5)

    def _read(self) -> None:
        assert self._proc and self._proc.stdout
        for line in self._proc.stdout:
            with contextlib.suppress(ValueError):
                self._status.put(json.loads(line))
        self._status.put({"op": "exit"})

    def _send(self, msg: dict) -> None:
        assert self._proc and self._proc.stdin
        self._proc.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
        self._proc.stdin.flush()

    # -- the interface ----------------------------------------------------------------------
    def speak(self, text: str, *, speaker: str = "narrator", id: str | None = None) -> int | None:
        """Queue ``text``; returns its sequence number (None when disabled). Never blocks."""
        self.poll()
        if not self.enabled or not text or not text.strip():
            return None
        lang = detect_lang(text, self.lang) if not is_japanese(text) else "ja"
        try:
            profile = self.profile_for(speaker, lang)
        except ProfileError as e:
            self._disable(str(e))
            return None
        with self._lock:
            self._seq += 1
            seq = self._seq
            self._open.add(seq)
        self._last = (text, speaker, id)
        try:
            self._send(
                {
                    "op": "speak",
                    "seq": seq,
                    "text": text,
                    "speaker": speaker,
                    "id": id,
                    "profile": profile.as_dict(),
                    "lang": lang,
                    "t": time.monotonic(),
                }
            )
        except (OSError, ValueError):
            self._disable("the speech worker has stopped")
            return None
        return seq

    def profile_for(self, speaker: str, lang: str):
        """The speaker's profile, with the voice and speed the player chose in play."""
        from dataclasses import replace

        profile = self.voices.resolve(speaker, lang, self.mapping)
        voice = self.voice_override.get(speaker)
        if voice and lang == "ja":
            profile = replace(profile, voice=voice)
        if self.rate_scale != 1.0:
            profile = replace(profile, rate=max(0.25, min(4.0, profile.rate * self.rate_scale)))
        return profile

    def _ask(self, msg: dict, reply: str, timeout: float = 15.0) -> dict | None:
        with self._lock:
            self._seq += 1
            seq = self._seq
        try:
            self._send({**msg, "seq": seq})
        except (OSError, ValueError):
            return None
        return self.wait(seq, timeout=timeout, op=reply)

    def set_voice(self, voice: str, speaker: str = "narrator") -> str | None:
        if not self.enabled:
            return self.message or "narration is off"
        profile = self.voices.resolve(speaker, self.lang, self.mapping)
        got = self._ask(
            {"op": "check_voice", "engine": profile.engine, "voice": voice}, "voice_checked"
        )
        if got is None:
            return "the speech worker did not answer"
        if not got.get("ok"):
            return str(got.get("message") or "no such voice")
        self.voice_override[speaker] = voice
        return None

    def voice_names(self, speaker: str = "narrator") -> tuple[str, list[str]]:
        profile = self.profile_for(speaker, self.lang)
        got = (
            self._ask({"op": "list_voices", "engine": profile.engine}, "voices")
            if self.enabled
            else None
        )
        return profile.voice, list((got or {}).get("voices") or [])

    def skip(self, all: bool = False) -> None:  # noqa: A002
        if self.enabled:
            with contextlib.suppress(OSError, ValueError):
                self._send({"op": "skip", "all": all})

    def again(self) -> None:
        if self._last:
            text, speaker, id_ = self._last
            self.speak(text, speaker=speaker, id=id_)

    def poll(self) -> list[dict]:
        """Status messages that arrived since the last call (also kept in ``history``)."""
        out = []
        while True:
            try:
                msg = self._status.get_nowait()
            except queue.Empty:
                break
            out.append(msg)
            self.history.append(msg)
            if msg.get("op") == "done":
                self._open.discard(msg.get("seq"))
            elif msg.get("op") == "exit" and self.enabled:
                self._disable("the speech worker has stopped")
        return out

    def wait(self, seq: int | None = None, timeout: float = 60.0, op: str = "done") -> dict | None:
        """Block until the worker reports ``op`` for ``seq`` (default: the last line); for tests
        and benchmarks, never for the game loop."""
        seq = self._seq if seq is None else seq
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for msg in [*self.history, *self.poll()]:
                if msg.get("op") == op and msg.get("seq") == seq:
                    return msg
            time.sleep(0.01)
        return None

    @property
    def credits(self) -> list[str]:
        """The credits of every voice that has spoken so far (VOICEVOX:…, Mei's CC BY), in order."""
        out: list[str] = []
        for m in [*self.history, *self.poll()]:
            c = m.get("credit") if m.get("op") == "started" else None
            if c and c not in out:
                out.append(c)
        return out

    @property
    def busy(self) -> bool:
        self.poll()
        return bool(self._open)

    def _disable(self, reason: str) -> None:
        self.enabled = False
        self.message = off_message(reason, self.lang)


def voices_for(voices: str | Path | VoiceSet | None = None, engine: str | None = None) -> VoiceSet:
    """The voice profiles to use: ``voices`` (a set, a file or a shipped name); with only an
    ``engine``, that engine's shipped profiles (voices/kokoro.yaml, …: a voice per speaker),
    else every default profile moved onto it."""
    from runner.ui.narrator.profiles import shipped

    if isinstance(voices, VoiceSet):
        vs = voices
    elif voices is None and engine and engine in shipped():
        return load_voices(engine)
    else:
        vs = load_voices(voices)
    return vs.with_engine(engine) if engine else vs


def make_narrator(
    *,
    voices: str | Path | VoiceSet | None = None,
    mapping: Mapping[str, str] | None = None,
    lang: str = "ja",
    readings: Mapping[str, str] | None = None,
    engine: str | None = None,
    output: str | None = None,
    pace: float = 1.0,
    enabled: bool = True,
    timeout: float = 30.0,
    story: str | None = None,
) -> tuple[BaseNarrator, str | None]:
    """A working narrator and None, or a DisabledNarrator and the one line saying why.

    ``voices``: a VoiceSet, a voices file, or a shipped name (default ``default``);
    ``mapping``: the story's speaker → profile map; ``readings``: the story's word → kana map;
    ``engine``: force every profile onto one engine; ``output``: ``default``, ``alsa:DEVICE``
    or ``dir:FOLDER`` (default: $KATARI_AUDIO_OUT or ``default``); ``story``: the story's id,
    whose lines rendered by ``katari voice render`` are played from the cache."""
    if not enabled:
        return DisabledNarrator(None), None
    try:
        vs = voices_for(voices, engine)
        vs.check_mapping(mapping)
    except ProfileError as e:
        msg = off_message(str(e), lang)
        return DisabledNarrator(msg), msg
    n = Narrator(
        vs,
        mapping=mapping,
        lang=lang,
        readings=readings,
        output=output or os.environ.get("KATARI_AUDIO_OUT") or "default",
        pace=pace,
        story=story,
    )
    problem = n.start(timeout=timeout)
    if problem:
        msg = off_message(problem, lang)
        return DisabledNarrator(msg), msg
    return n, None


def narrate_events(
    narrator: BaseNarrator,
    events: Iterable[Event],
    *,
    lang: str | None = None,
    story=None,
    command: str = "",
) -> int:
    """Speak what the screen shows of one turn, in order: narration (each speaker in their
    voice), roll results in words (「目星、四十に対して二十三、成功」), what went wrong with the
    command, and the ending; never keeper (GM-only) notes, keeper rolls or overrides.
    The list of actions is spoken only when asked (``actions``/``選択肢``). Returns how many."""
    from runner.ui.narrator.words import ending_words, roll_words

    lang = lang or getattr(narrator, "lang", None) or "ja"
    n = 0
    for ev in events:
        if not isinstance(ev, dict) or ev.get("keeper") or ev.get("gm"):
            continue
        if ev["type"] == "narration":
            text = ev.get("text")
            if not text:
                continue
            narrator.speak(str(text), speaker=ev.get("speaker") or "narrator", id=ev.get("id"))
        elif ev["type"] == "roll":
            narrator.speak(
                roll_words(ev, lang, system=getattr(story, "rules", None)), speaker="system"
            )
        elif ev["type"] == "ending":
            narrator.speak(ending_words(ev, lang), speaker="system")
        elif ev["type"] == "error":
            from runner.ui.render import Renderer

            lines = Renderer(story, lang=lang, cols=1000).error_lines(ev, command)
            if not lines:
                continue
            narrator.speak(
                "。".join(x.strip() for x in lines if x.strip())
                if lang == "ja"
                else " ".join(x.strip() for x in lines if x.strip()),
                speaker="system",
            )
        else:
            continue
        n += 1
    return n
