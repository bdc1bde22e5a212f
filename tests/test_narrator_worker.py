"""The narrator's worker process: speak, skip, again, close; keeper notes; failing set-ups."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from runner.ui.narrator import (
    DisabledNarrator,
    Narrator,
    RecordingNarrator,
    make_narrator,
    narrate_events,
)
from runner.ui.narrator.audio import read_wav, rms
from runner.ui.narrator.engines import engine_problem
from runner.ui.narrator.profiles import BUILTIN, ProfileError, load_voices, parse_voices

ROOT = Path(__file__).resolve().parents[1]
needs_pyttsx3 = pytest.mark.skipif(
    engine_problem("pyttsx3", needs_kana=True) is not None,
    reason="pyttsx3/espeak-ng/pyopenjtalk-plus not installed",
)
LONG = "The door opens slowly, and something large moves in the dark water beyond it. " * 2


@pytest.fixture(scope="module")
def sink(tmp_path_factory):
    return tmp_path_factory.mktemp("sink")


@pytest.fixture(scope="module")
def narrator(sink):
    # Played into WAV files paced at 2x real time: a sound card is not needed, skip still bites.
    n, msg = make_narrator(output=f"dir:{sink}", pace=2.0)
    if msg and engine_problem("pyttsx3", needs_kana=True):
        pytest.skip(msg)
    assert msg is None and isinstance(n, Narrator) and n.enabled
    yield n
    n.close()


@needs_pyttsx3
def test_speak_plays_through_the_worker_without_blocking(narrator, sink):
    import time

    t = time.monotonic()
    seq = narrator.speak("探索者たちは目を覚ました。暗い部屋だ。", speaker="narrator", id="wake")
    assert time.monotonic() - t < 0.2  # queued, not spoken inline
    done = narrator.wait(seq, timeout=30)
    assert done == {"op": "done", "seq": seq, "completed": True}
    started = next(m for m in narrator.history if m["op"] == "started" and m["seq"] == seq)
    assert started["reading"] == "タンサクシャタチワメヲサマシタ。クライヘヤダ。"
    assert started["id"] == "wake"
    parts = sorted(sink.glob(f"{seq:04d}-*.wav"))
    assert len(parts) == 2  # one file per sentence
    assert all(rms(read_wav(p)) > 300 for p in parts)


@needs_pyttsx3
def test_skip_cuts_the_current_line_and_again_repeats_it(narrator, sink):
    import time

    seq = narrator.speak(LONG, speaker="npc")
    assert narrator.wait(seq, op="first", timeout=30)
    time.sleep(0.3)
    narrator.skip()
    assert narrator.wait(seq, timeout=10)["completed"] is False
    cut = read_wav(sink / f"{seq:04d}-00.wav")
    assert cut.seconds < 2.0  # the first sentence alone lasts ~5 s
    narrator.again()
    seq2 = narrator._seq
    assert seq2 == seq + 1
    assert narrator.wait(seq2, op="first", timeout=30)
    narrator.skip(all=True)
    assert narrator.wait(seq2, timeout=10)["completed"] is False
    again = next(m for m in narrator.history if m["op"] == "started" and m["seq"] == seq2)
    assert again["reading"] == LONG


@needs_pyttsx3
def test_skip_all_drops_queued_lines(narrator):
    first = narrator.speak(LONG)
    queued = [narrator.speak(f"Line {i}.") for i in range(3)]
    assert narrator.wait(first, op="first", timeout=30)
    narrator.skip(all=True)
    assert narrator.wait(first, timeout=10)["completed"] is False
    last = narrator.speak("After.")
    assert narrator.wait(last, timeout=30)["completed"] is True
    started = {m["seq"] for m in narrator.history if m["op"] == "started"}
    assert not started & set(queued)


def test_narrate_events_speaks_what_the_screen_shows_never_keeper_notes():
    rec = RecordingNarrator()
    events = [
        {"type": "narration", "text": "扉が開く。", "speaker": "narrator", "id": "a"},
        {"type": "narration", "text": "秘密: 扉の裏に罠。", "keeper": True, "id": "k"},
        {"type": "roll", "expr": "1d100", "total": 42},
        {"type": "roll", "label": "隠し目標", "expr": "1d100", "total": 7, "keeper": True},
        {"type": "narration", "text": "来るな", "speaker": "tentacle", "id": "b"},
        {"type": "prompt", "actions": [{"id": "x", "label": "逃げる"}]},
    ]
    # narration, and the roll in words (the system's voice); the list of actions only when asked
    assert narrate_events(rec, events, lang="ja") == 3
    assert rec.lines == [
        {"text": "扉が開く。", "speaker": "narrator", "id": "a"},
        {"text": "1d100、四十二", "speaker": "system", "id": None},
        {"text": "来るな", "speaker": "tentacle", "id": "b"},
    ]
    rec.skip()
    rec.again()
    assert rec.texts[-1] == "来るな" and ("skip", False) in rec.log


def test_missing_engine_gives_one_line_and_a_disabled_narrator(tmp_path):
    """A Python without site-packages has neither pyttsx3 nor pyopenjtalk: a real missing engine."""
    code = textwrap.dedent(f"""
        import sys; sys.path.insert(0, {str(ROOT)!r})
        from runner.ui.narrator import make_narrator, DisabledNarrator
        from runner.ui.narrator.profiles import parse_voices, BUILTIN
        n, msg = make_narrator(voices=parse_voices(BUILTIN), output="dir:{tmp_path}", lang="en")
        assert isinstance(n, DisabledNarrator) and not n.enabled
        n.speak("nothing happens"); n.skip(); n.again(); n.close()
        print(msg)
    """)
    r = subprocess.run(
        [sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "Narration is off: pyttsx3 is not installed (pip install pyttsx3). The game goes on in text."
    ]


@needs_pyttsx3
def test_unknown_voice_and_missing_device_each_give_one_line(tmp_path):
    bad = tmp_path / "v.yaml"
    bad.write_text(
        "profiles: {default: {ja: {engine: pyttsx3, voice: nosuchvoice}}}\n", encoding="utf-8"
    )
    n, msg = make_narrator(voices=bad, output=f"dir:{tmp_path}")
    assert isinstance(n, DisabledNarrator) and msg and "\n" not in msg
    assert "nosuchvoice" in msg and "katari voices" in msg
    n, msg = make_narrator(output="alsa:no_such_katari_device", lang="en")
    assert isinstance(n, DisabledNarrator) and msg and "\n" not in msg
    assert "no audio device" in msg or "aplay is not installed" in msg
    n, msg = make_narrator(mapping={"tentacle": "kraken"}, output=f"dir:{tmp_path}")
    assert isinstance(n, DisabledNarrator) and "kraken" in msg


@needs_pyttsx3
def test_worker_output_never_reaches_the_terminal(tmp_path):
    code = textwrap.dedent(f"""
        import sys; sys.path.insert(0, {str(ROOT)!r})
        from runner.ui.narrator import make_narrator
        n, msg = make_narrator(output="dir:{tmp_path}", pace=8.0)
        assert msg is None, msg
        n.wait(n.speak("テストです。"), timeout=30)
        n.close()
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "" and r.stderr == ""  # no "Audio saved to", no ONNX notice, no ALSA


def test_profiles_resolve_by_mapping_speaker_and_language():
    vs = load_voices("default")
    assert vs.resolve("narrator", "ja").voice == "ja"
    assert vs.resolve("tentacle", "ja", {"tentacle": "monster"}).voice == "ja+m3"
    assert vs.resolve("stranger", "en") == vs.profiles["default"]["en"]
    oj = vs.with_engine("openjtalk")
    assert oj.resolve("narrator", "ja").engine == "openjtalk"
    assert oj.resolve("narrator", "ja").voice == "mei"
    assert load_voices("openjtalk").resolve("monster", "ja").engine == "openjtalk"
    builtin = parse_voices(BUILTIN)
    assert builtin.profiles["default"] == vs.profiles["default"]  # the fallback matches the file
    for bad, word in [
        ({"profiles": {"x": {"ja": {}}}}, "default"),
        ({"profiles": {"default": {"fr": {}}}}, "language"),
        ({"profiles": {"default": {"ja": {"engine": "sapi"}}}}, "engine"),
        ({"profiles": {"default": {"ja": {"rate": 9}}}}, "rate"),
    ]:
        with pytest.raises(ProfileError, match=word):
            parse_voices(bad)


def test_disabled_narrator_is_a_no_op():
    n = DisabledNarrator("why")
    assert n.speak("x") is None and n.message == "why" and not n.enabled
    n, msg = make_narrator(enabled=False)
    assert isinstance(n, DisabledNarrator) and msg is None
