"""Where the worker's audio goes: the sound card through aplay, or WAV files paced in real time.

Each ``start()`` returns at once; the worker polls ``busy()`` and calls ``stop()`` to skip.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from pathlib import Path

from runner.ui.narrator.audio import Clip, silence, write_wav


class PlayerError(RuntimeError):
    pass


def probe_alsa(device: str = "default") -> str | None:
    """None when aplay can open ``device``, else why not (one line)."""
    if shutil.which("aplay") is None:
        return "aplay is not installed (apt-get install alsa-utils)"
    fd, path = tempfile.mkstemp(prefix="katari-probe-", suffix=".wav")
    os.close(fd)
    try:
        write_wav(path, silence(0.01, 22050))
        r = subprocess.run(
            ["aplay", "-q", "-D", device, path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=10,
        )
    except subprocess.TimeoutExpired:
        return f"the audio device {device!r} does not answer"
    finally:
        with contextlib.suppress(OSError):
            os.remove(path)
    if r.returncode:
        last = (r.stderr.decode(errors="replace").strip().splitlines() or ["error"])[-1]
        return f"no audio device ({last.removeprefix('aplay: ')})"
    return None


class AplayPlayer:
    """One aplay per sentence, its output kept off the terminal; skip = terminate it."""

    def __init__(self, device: str = "default") -> None:
        self.device = device
        self._proc: subprocess.Popen | None = None
        self._path: str | None = None
        self.first_sample_at: float | None = None

    def start(self, clip: Clip, tag: str = "") -> None:
        self._cleanup()
        fd, self._path = tempfile.mkstemp(prefix="katari-say-", suffix=".wav")
        os.close(fd)
        write_wav(self._path, clip)
        self._proc = subprocess.Popen(
            ["aplay", "-q", "-D", self.device, self._path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # aplay writes its first period as soon as it has opened the device.
        self.first_sample_at = time.monotonic()

    def busy(self) -> bool:
        if self._proc is None:
            return False
        if self._proc.poll() is None:
            return True
        self._cleanup()
        return False

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=2)
        self._cleanup()

    def _cleanup(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        self._proc = None
        if self._path:
            with contextlib.suppress(OSError):
                os.remove(self._path)
            self._path = None


class FileSink:
    """Writes what would be played into ``folder/<tag>.wav``, paced at ``pace`` × real time.

    Real pacing makes skip and the latency benchmark behave as with a sound card, on machines
    (CI) that have none; a skipped sentence leaves a WAV cut short."""

    CHUNK = 0.02  # seconds per write, like an audio period

    def __init__(self, folder: str | Path, pace: float = 1.0) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.pace = pace
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.first_sample_at: float | None = None
        self._first = threading.Event()

    def start(self, clip: Clip, tag: str = "clip") -> None:
        self.stop()
        self._stop = threading.Event()
        self._first = threading.Event()
        self.first_sample_at = None
        self._thread = threading.Thread(target=self._run, args=(clip, tag), daemon=True)
        self._thread.start()
        self._first.wait(5)

    def _run(self, clip: Clip, tag: str) -> None:
        step = max(1, int(clip.rate * self.CHUNK)) * 2
        t0 = time.monotonic()
        from runner.ui.files import open_for_write  # (a regular file or a new one, never a device)

        try:
            f = open_for_write(self.folder / f"{tag}.wav")
        except OSError:  # (a device, a FIFO or a symlink where the WAV would go: nothing written)
            self._first.set()
            return
        with f, wave.open(f, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(clip.rate)
            for i in range(0, max(len(clip.pcm), 1), step):
                if self._stop.is_set():
                    break
                w.writeframes(clip.pcm[i : i + step])
                if self.first_sample_at is None:
                    self.first_sample_at = time.monotonic()
                    self._first.set()
                due = t0 + (i + step) / 2 / clip.rate / self.pace
                self._stop.wait(max(0.0, due - time.monotonic()))
        self._first.set()

    def busy(self) -> bool:
        return bool(self._thread and self._thread.is_alive())

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(5)
        self._thread = None


def make_player(output: str, pace: float = 1.0):
    """``default`` / ``alsa:DEVICE`` → aplay; ``dir:PATH`` → FileSink."""
    if output.startswith("dir:"):
        return FileSink(output[4:], pace)
    device = output[5:] if output.startswith("alsa:") else "default"
    return AplayPlayer(device)


def check_output(output: str) -> str | None:
    if output.startswith("dir:"):
        return None
    return probe_alsa(output[5:] if output.startswith("alsa:") else "default")
