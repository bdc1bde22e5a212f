"""Spoken test audio: espeak-ng says a phrase, we get 16-bit mono PCM at the model's rate.

For tests, benchmarks and trying a grammar without a microphone
(``katari hear`` takes the WAV this writes)."""

from __future__ import annotations

import array
import io
import shutil
import subprocess
import wave


class SynthError(Exception):
    pass


def resample(pcm: bytes, src: int, dst: int) -> bytes:
    """Linear-interpolation resampling of 16-bit mono PCM (good enough for speech tests;
    sox is used instead when it is installed)."""
    if src == dst:
        return pcm
    a = array.array("h")
    a.frombytes(pcm)
    n = len(a)
    if n == 0:
        return b""
    m = int(n * dst / src)
    out = array.array("h", bytes(2 * m))
    step = src / dst
    for i in range(m):
        x = i * step
        j = int(x)
        f = x - j
        nxt = a[j + 1] if j + 1 < n else a[j]
        out[i] = int(a[j] + (nxt - a[j]) * f)
    return out.tobytes()


def espeak_pcm(
    text: str, voice: str = "ko", speed: int = 160, rate: int = 16000, pad: float = 0.3
) -> bytes:
    """``text`` spoken by espeak-ng's ``voice``, as PCM at ``rate`` with ``pad`` seconds of
    silence after it (an endpoint needs some)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise SynthError("espeak-ng is not installed (apt-get install espeak-ng)")
    wav = subprocess.run(
        [exe, "-v", voice, "-s", str(speed), "--stdout", text], capture_output=True, check=True
    ).stdout
    sox = shutil.which("sox")
    if sox:
        pcm = subprocess.run(
            [
                sox,
                "-t",
                "wav",
                "-",
                "-t",
                "raw",
                "-r",
                str(rate),
                "-c",
                "1",
                "-b",
                "16",
                "-e",
                "signed-integer",
                "-",
            ],
            input=wav,
            capture_output=True,
            check=True,
        ).stdout
    else:
        with wave.open(io.BytesIO(wav)) as w:
            pcm = resample(w.readframes(w.getnframes()), w.getframerate(), rate)
    return pcm + bytes(2 * int(rate * pad))
