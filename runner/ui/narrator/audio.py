"""Mono 16-bit audio clips and WAV files, on the standard library alone (numpy when present)."""

from __future__ import annotations

import math
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass(frozen=True)
class Clip:
    """Mono signed 16-bit little-endian samples at ``rate`` Hz."""

    pcm: bytes
    rate: int

    @property
    def frames(self) -> int:
        return len(self.pcm) // 2

    @property
    def seconds(self) -> float:
        return self.frames / self.rate if self.rate else 0.0


def silence(seconds: float, rate: int) -> Clip:
    return Clip(b"\x00\x00" * int(seconds * rate), rate)


def from_float(samples, rate: int, gain: float = 1.0) -> Clip:
    """Open JTalk returns float64 samples already in the int16 range; clip them, don't wrap."""
    try:
        import numpy as np

        a = np.clip(np.asarray(samples, dtype=np.float64) * gain, -32768, 32767).astype("<i2")
        return Clip(a.tobytes(), rate)
    except ImportError:  # pragma: no cover - numpy comes with pyopenjtalk-plus
        out = array("h", (max(-32768, min(32767, int(s * gain))) for s in samples))
        return Clip(out.tobytes(), rate)


def scale(clip: Clip, gain: float) -> Clip:
    if gain == 1.0:
        return clip
    a = array("h", clip.pcm)
    return Clip(
        array("h", (max(-32768, min(32767, int(s * gain))) for s in a)).tobytes(), clip.rate
    )


def resample(clip: Clip, rate: int) -> Clip:
    """Linear interpolation: enough for speech joined from two engines into one file."""
    if clip.rate == rate or not clip.pcm:
        return Clip(clip.pcm, rate)
    src = array("h", clip.pcm)
    n = int(len(src) * rate / clip.rate)
    try:
        import numpy as np

        x = np.linspace(0, len(src) - 1, n)
        out = np.interp(x, np.arange(len(src)), np.frombuffer(clip.pcm, dtype="<i2"))
        return Clip(out.round().astype("<i2").tobytes(), rate)
    except ImportError:  # pragma: no cover
        step = (len(src) - 1) / max(n - 1, 1)
        res = array("h")
        for i in range(n):
            p = i * step
            j = int(p)
            k = min(j + 1, len(src) - 1)
            res.append(int(round(src[j] + (src[k] - src[j]) * (p - j))))
        return Clip(res.tobytes(), rate)


def join(clips: list[Clip], gap: float = 0.3) -> Clip:
    """One clip at the first clip's rate, with ``gap`` seconds of silence between parts."""
    clips = [c for c in clips if c.pcm]
    if not clips:
        return Clip(b"", 22050)
    rate = clips[0].rate
    parts: list[bytes] = []
    for i, c in enumerate(clips):
        if i:
            parts.append(silence(gap, rate).pcm)
        parts.append(resample(c, rate).pcm)
    return Clip(b"".join(parts), rate)


def write_wav(path: str | Path, clip: Clip) -> None:
    """Writes ``clip`` as a WAV through Katari's one safe writer (runner.ui.files): a regular
    file or a new one, replaced atomically; a device, FIFO or symlink is refused (OSError)."""
    import io

    from runner.ui.files import atomic_write

    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(clip.rate)
        w.writeframes(clip.pcm)
    atomic_write(Path(path), buf.getvalue())


def read_wav(path: str | Path | IO[bytes]) -> Clip:
    """Read a WAV as mono 16-bit (the first channel if there are several)."""
    with wave.open(str(path) if isinstance(path, (str, Path)) else path, "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"{path}: expected 16-bit samples, got {8 * w.getsampwidth()}-bit")
        ch = w.getnchannels()
        data = w.readframes(w.getnframes())
        rate = w.getframerate()
    if ch > 1:
        data = array("h", data)[::ch].tobytes()
    return Clip(data, rate)


def read_wav_bytes(data: bytes) -> Clip:
    """A WAV held in memory (an HTTP answer), as mono 16-bit."""
    import io

    return read_wav(io.BytesIO(data))


def rms(clip: Clip) -> float:
    """Root mean square on the int16 scale (0 for silence, ~2000+ for ordinary speech)."""
    a = array("h", clip.pcm)
    if not a:
        return 0.0
    return math.sqrt(sum(s * s for s in a) / len(a))
