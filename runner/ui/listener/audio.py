"""Recorded utterances: WAV files in, 16-bit mono PCM out, or one line saying what to do."""

from __future__ import annotations

import shlex
import wave
from pathlib import Path

from runner.ui.listener import messages


class AudioError(Exception):
    """A recording the recogniser cannot take; the message is the one line to show."""


def read_wav(path: str | Path, rate: int = 16000, lang: str | None = None) -> bytes:
    """The PCM frames of a 16-bit mono WAV at ``rate`` Hz (the model's rate)."""
    path = Path(path)
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, got = w.getnchannels(), w.getsampwidth(), w.getframerate()
            frames = w.readframes(w.getnframes())
    except FileNotFoundError as e:
        raise AudioError(messages.text("no_wav", lang, path=path, why=e.strerror)) from e
    except (wave.Error, EOFError, OSError) as e:
        raise AudioError(messages.text("wav_format", lang, path=path, why=e, want=rate,
                                         qpath=shlex.quote(str(path)))) from e
    if channels != 1 or width != 2:
        why = f"{channels} ch, {8 * width} bit"
        raise AudioError(messages.text("wav_format", lang, path=path, why=why, want=rate,
                                         qpath=shlex.quote(str(path))))
    if got != rate:
        raise AudioError(messages.text("wav_rate", lang, path=path, got=got, want=rate,
                                         qpath=shlex.quote(str(path))))
    return frames


def write_wav(path: str | Path, pcm: bytes, rate: int = 16000) -> None:
    """Writes 16-bit mono PCM as a WAV through Katari's one safe writer (runner.ui.files)."""
    import io

    from runner.ui.files import atomic_write

    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm)
    atomic_write(Path(path), buf.getvalue())
