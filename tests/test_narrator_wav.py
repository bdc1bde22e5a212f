"""Real WAV files from pyttsx3 + espeak-ng and from Open JTalk, checked with the wave module."""

from __future__ import annotations

import pytest

from runner.ui.narrator.audio import rms
from runner.ui.narrator.engines import engine_problem, get_engine, render
from runner.ui.narrator.profiles import Profile

needs_pyttsx3 = pytest.mark.skipif(
    engine_problem("pyttsx3", needs_kana=True) is not None,
    reason="pyttsx3/espeak-ng/pyopenjtalk-plus not installed",
)
needs_openjtalk = pytest.mark.skipif(
    engine_problem("openjtalk") is not None, reason="pyopenjtalk-plus not installed"
)
SHORT = "探索者たちは目を覚ました。"
LONG = (
    SHORT
    + "冷たい水が足首を洗い、遠くで何かが軋む音がする。扉の向こうから、湿った息づかいが聞こえた。"
)
SPEECH_RMS = 300  # int16 scale; silence is 0, espeak-ng speech is in the thousands


@needs_pyttsx3
def test_pyttsx3_japanese_wav_is_speech_and_grows_with_text():
    p = Profile(engine="pyttsx3", voice="ja")
    reading, short = render(SHORT, p)
    _, long = render(LONG, p)
    assert reading == "タンサクシャタチワメヲサマシタ。"
    assert short.rate == 22050 and long.rate == 22050
    assert rms(short) > SPEECH_RMS and rms(long) > SPEECH_RMS
    assert 1.0 < short.seconds < 6.0
    assert long.seconds > 2.5 * short.seconds


@needs_pyttsx3
def test_pyttsx3_rate_changes_apply_on_every_call_in_one_process():
    """Regression: espeak's queued settings were cancelled by runAndWait, freezing the rate."""
    durations = [render(SHORT, Profile(rate=r))[1].seconds for r in (0.6, 1.0, 1.7, 0.6)]
    assert durations[0] > durations[1] * 1.4 > durations[2] * 1.4
    assert abs(durations[3] - durations[0]) < 0.1


@needs_pyttsx3
def test_raw_kanji_would_be_spelt_out_as_chinese_letters():
    """espeak-ng says "Chinese letter" for each kanji; our kana reading is far shorter."""
    ours = render(SHORT, Profile())[1].seconds
    raw = get_engine("pyttsx3").synth(SHORT, Profile()).seconds
    assert raw > 1.8 * ours


@needs_pyttsx3
def test_pyttsx3_english_voice():
    reading, clip = render(
        "The investigators woke up in a dark room.", Profile(voice="en-us"), lang="en"
    )
    assert reading == "The investigators woke up in a dark room."
    assert clip.rate == 22050 and rms(clip) > SPEECH_RMS and clip.seconds > 1.0


@needs_openjtalk
def test_openjtalk_wav_is_48k_speech_and_grows_with_text():
    p = Profile(engine="openjtalk", voice="mei")
    reading, short = render(SHORT, p)
    _, long = render(LONG, p)
    assert reading == SHORT  # Open JTalk reads the kanji itself
    assert short.rate == 48000
    assert rms(short) > SPEECH_RMS and rms(long) > SPEECH_RMS
    assert long.seconds > 2.5 * short.seconds
    quiet = render(SHORT, Profile(engine="openjtalk", voice="mei", volume=0.25))[1]
    assert rms(quiet) < rms(short) * 0.4
