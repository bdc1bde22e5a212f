"""`katari speak` with long text and odd output paths (#20 item 20): sentence by sentence
through the real espeak-ng (pyttsx3), streamed to the WAV, one line for what cannot be done."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import wave
from array import array
from pathlib import Path

import pytest

from runner.commands.speak import MAX_TEXT, chunks
from runner.ui.narrator.engines import engine_problem

ROOT = Path(__file__).resolve().parents[1]
needs_espeak = pytest.mark.skipif(
    engine_problem("pyttsx3", needs_kana=True) is not None,
    reason="pyttsx3/espeak-ng (or the kana reader) not installed",
)

EN = "The lamp flickered and the sea pressed against the glass, cold and patient. "
JA = "深海のアトリエで、彼は古い時計を見つめた。窓の外には暗い海が広がっている！"


def speak(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "KATARI_HOME": str(Path(os.environ.get("TMPDIR", "/tmp")) / "katari-speak-test"),
    }
    return subprocess.run(
        [sys.executable, "-m", "runner", "speak", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def _loud(path: Path, start: float, end: float) -> float:
    """The loudest sample between two fractions of the recording."""
    with wave.open(str(path)) as w:
        n = w.getnframes()
        w.setpos(int(n * start))
        a = array("h", w.readframes(int(n * (end - start))))
    return max((abs(x) for x in a), default=0)


def _seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


@needs_espeak
def test_text_longer_than_espeak_takes_is_spoken_to_the_end(tmp_path: Path) -> None:
    # One utterance of more than ~46,000 characters made espeak-ng segfault (exit 139, no
    # message); 26 KB took 86 s. Sentence by sentence it is linear and complete.
    text = (EN * (48000 // len(EN) + 1))[:48000]
    out = tmp_path / "long.wav"
    r = speak(text, "--lang", "en", "--out", str(out))
    assert r.returncode == 0, r.stderr[-1000:]
    assert "Traceback" not in r.stderr and "wrote" in r.stderr
    # About 15 characters a second at espeak's normal speed: the whole text is there...
    assert 48000 / 40 < _seconds(out) < 48000 / 5
    # ... to its last sentence.
    assert _loud(out, 0.0, 0.05) > 1000 and _loud(out, 0.95, 1.0) > 1000


@needs_espeak
def test_long_japanese_is_read_a_chunk_at_a_time(tmp_path: Path) -> None:
    # Open JTalk's reader refused the whole text ("Input text is too long after normalization").
    text = (JA * (6000 // len(JA) + 1))[:6000]
    out = tmp_path / "ja.wav"
    r = speak(text, "--show-reading", "--out", str(out))
    assert r.returncode == 0, r.stderr[-1000:]
    reading = r.stdout.splitlines()
    assert (
        len(reading) == 1
        and reading[0].startswith("シンカイノアトリエデ")
        and len(reading[0]) > 6000
    )
    assert _seconds(out) > 300 and _loud(out, 0.95, 1.0) > 1000


def test_more_than_the_bound_is_refused_in_one_line(tmp_path: Path) -> None:
    r = speak("a" * (MAX_TEXT + 1), "--out", str(tmp_path / "x.wav"), timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert f"at most {MAX_TEXT}" in r.stderr and not (tmp_path / "x.wav").exists()


@needs_espeak
def test_out_that_cannot_be_written_is_one_line_and_touches_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("keep", encoding="utf-8")
    for out, why in (
        ("/dev/full", "not a regular file"),
        (str(blocker / "x.wav"), "a file is where a folder"),
        (str(tmp_path), "not a regular file"),
    ):
        r = speak("hello there", "--lang", "en", "--out", out, timeout=120)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert r.stderr.startswith("katari speak: cannot write") and why in r.stderr, r.stderr
        assert r.stderr.count("\n") == 1
    assert (
        stat.S_ISCHR(os.stat("/dev/full").st_mode) and blocker.read_text(encoding="utf-8") == "keep"
    )
    # A missing folder is made; an existing WAV is replaced whole, no temp file left behind.
    out = tmp_path / "new" / "deeper" / "a.wav"
    assert speak("hello there", "--lang", "en", "--out", str(out), timeout=120).returncode == 0
    first = out.stat().st_size
    assert (
        speak(
            "hello there, and more words", "--lang", "en", "--out", str(out), timeout=120
        ).returncode
        == 0
    )
    assert out.stat().st_size > first and os.listdir(out.parent) == ["a.wav"]


def test_chunks_cut_at_sentence_ends_and_lose_nothing() -> None:
    text = (JA * 200) + "x" * 2500 + "、" + (EN * 50)
    parts = chunks(text)
    assert "".join(parts) == text and all(len(p) <= 1000 for p in parts)
    assert all(p.endswith("！") for p in parts[:8]) and parts[8] == "x" * 1000
    assert chunks("short") == ["short"] and chunks("") == []
