"""`katari hear` on a recording it cannot take says why in one line, with the reason filled
in, and says it before loading a speech model (seconds and hundreds of MB)."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import pytest


def _hear(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", "hear", "--lang", "ko", "--grammar", "불 켜", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _header_only(path: Path, claimed: int = 0xFFFFFF00) -> Path:
    fmt = struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16)
    path.write_bytes(
        b"RIFF"
        + struct.pack("<I", claimed + 36)
        + b"WAVEfmt "
        + fmt
        + b"data"
        + struct.pack("<I", claimed)
    )
    return path


@pytest.mark.parametrize("make", ["empty", "header_only"])
def test_a_cut_short_wav_is_named_as_such_before_any_model_loads(tmp_path: Path, make: str) -> None:
    wav = tmp_path / "x.wav"
    if make == "empty":
        wav.write_bytes(b"")
    else:
        _header_only(wav)
    # A model folder that does not exist: were it loaded first, its error would come instead.
    out = _hear("--model", str(tmp_path / "no-model"), str(wav))
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert "（）" not in lines[0] and "()" not in lines[0]
    assert "途中で切れています" in lines[0] or "cut short" in lines[0]
