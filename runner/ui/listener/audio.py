"""Recorded utterances: WAV files in, 16-bit mono PCM out, or one line saying what to do."""

from __future__ import annotations

import shlex
import wave
from pathlib import Path

from runner.ui.listener import messages


class AudioError(Exception):
    """A recording the recogniser cannot take; the message is the one line to show."""


MAX_SECONDS = 60
"""Longest recording taken as one utterance: a command takes a few seconds."""
_PIECE = 1 << 16
"""Frames read at once: memory never holds more than this beyond the audio kept."""


def read_wav(
    path: str | Path, rate: int = 16000, lang: str | None = None, max_seconds: float = MAX_SECONDS
) -> bytes:
    """The PCM frames of a 16-bit mono WAV at ``rate`` Hz (the model's rate).

    What the header claims is not trusted: the frames are read in pieces of bounded size, at
    most ``max_seconds`` of them (a header may claim 4 GB, a sparse file may hold 2 GB of
    nothing); a longer recording is refused in one line. Only a regular file is opened (a
    FIFO or a device is refused without blocking or reading)."""
    import os
    import stat

    path = Path(path)
    qpath = shlex.quote(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise AudioError(messages.text("no_wav", lang, path=path, why=e.strerror)) from e
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise AudioError(messages.text("no_wav", lang, path=path, why="not a regular file"))
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
        fd = -1
        with f, wave.open(f, "rb") as w:
            channels, width, got = w.getnchannels(), w.getsampwidth(), w.getframerate()
            if channels != 1 or width != 2:
                why = f"{channels} ch, {8 * width} bit"
                raise AudioError(
                    messages.text("wav_format", lang, path=path, why=why, want=rate, qpath=qpath)
                )
            if got != rate:
                raise AudioError(
                    messages.text("wav_rate", lang, path=path, got=got, want=rate, qpath=qpath)
                )
            limit = int(max_seconds * rate)
            parts: list[bytes] = []
            have = 0
            while True:
                piece = w.readframes(min(_PIECE, limit + 1 - have))
                if not piece:
                    break
                parts.append(piece)
                have += len(piece) // 2
                if have > limit:
                    raise AudioError(
                        messages.text(
                            "wav_long", lang, path=path, max=int(max_seconds), qpath=qpath
                        )
                    )
            if not have:
                raise AudioError(
                    messages.text("wav_truncated", lang, path=path, want=rate, qpath=qpath)
                )
            return b"".join(parts)
    except EOFError as e:  # (the wave module's word for a header cut short, or an empty file)
        raise AudioError(
            messages.text("wav_truncated", lang, path=path, want=rate, qpath=qpath)
        ) from e
    except (wave.Error, OSError) as e:
        why = str(e) or type(e).__name__
        raise AudioError(
            messages.text("wav_format", lang, path=path, why=why, want=rate, qpath=qpath)
        ) from e
    finally:
        if fd >= 0:
            os.close(fd)


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
