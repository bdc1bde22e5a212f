"""`katari speak` and `katari voices`, run as a player would: `python -m runner ...`."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import katari

from runner.ui.narrator.audio import read_wav, rms
from runner.ui.narrator.engines import engine_problem

ROOT = Path(__file__).resolve().parents[1]
IDEOGRAPH = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
needs_all = pytest.mark.skipif(
    engine_problem("pyttsx3", needs_kana=True) is not None
    or engine_problem("openjtalk") is not None,
    reason="speech engines not installed",
)


@needs_all
def test_speak_shows_a_kana_reading_and_writes_speech(tmp_path):
    out = tmp_path / "wake.wav"
    r = katari("speak", "探索者たちは目を覚ました", "--show-reading", "--out", str(out))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines == [
        "タンサクシャタチワメヲサマシタ"
    ]  # nothing else: no "Audio saved to", no notice
    assert not IDEOGRAPH.search(r.stdout)
    clip = read_wav(out)
    assert clip.rate == 22050 and rms(clip) > 300 and 1.0 < clip.seconds < 6.0


@needs_all
def test_speak_with_openjtalk(tmp_path):
    out = tmp_path / "oj.wav"
    r = katari(
        "speak",
        "探索者たちは目を覚ました",
        "--engine",
        "openjtalk",
        "--show-reading",
        "--out",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["探索者たちは目を覚ました"]
    clip = read_wav(out)
    assert clip.rate == 48000 and rms(clip) > 300


STORY = """\
story: {id: t, title: テスト, language: ja, rules: none, start: hall}
readings: {蠢く触腕: うごめくしょくわん}
voices: {narrator: default, tentacle: monster}
characters: {tentacle: {name: 触腕, kind: enemy}}
nodes:
  hall:
    title: 広間
    narration:
      - 蠢く触腕が扉の向こうで待っている。
      - {id: hall.voice, text: 来るな, speaker: tentacle}
    keeper: [秘密の通路がある]
    actions:
      - {id: wait, label: 待つ, goto: hall}
endings: {}
"""


@needs_all
def test_speak_a_story_node_uses_its_readings_and_not_keeper_notes(tmp_path):
    story = tmp_path / "story.yaml"
    story.write_text(textwrap.dedent(STORY), encoding="utf-8")
    out = tmp_path / "node.wav"
    r = katari(
        "speak", "--story", str(story), "--node", "hall", "--show-reading", "--out", str(out)
    )
    if r.returncode and "readings" in r.stderr:
        pytest.skip("the story loader does not take readings/voices yet")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["ウゴメクショクワンガトビラノムコーデマッテイル。", "クルナ"]
    assert "ヒミツ" not in r.stdout
    clip = read_wav(out)
    assert clip.seconds > 3.0 and rms(clip) > 300


def test_speak_rejects_a_bad_voices_file_in_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("profiles: {default: {ja: {engine: pyttsx3, speed: 3}}}\n", encoding="utf-8")
    r = katari("speak", "こんにちは", "--voices", str(bad), "--out", str(tmp_path / "x.wav"))
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1
    assert "unknown key" in r.stderr and "speed" in r.stderr
    assert not (tmp_path / "x.wav").exists()


@needs_all
def test_voices_lists_engines_credit_and_profiles():
    r = katari("voices")
    assert r.returncode == 0, r.stderr
    assert re.search(r"^\s+ja\s+Japanese", r.stdout, re.M)
    assert re.search(r"^\s+en-us\s", r.stdout, re.M)
    assert (
        "mei" in r.stdout
        and "CC BY 3.0" in r.stdout
        and "Nagoya Institute of Technology" in r.stdout
    )
    assert "default:" in r.stdout and "openjtalk:" in r.stdout and "monster" in r.stdout


def test_a_long_first_line_renders(tmp_path) -> None:
    """The deep-sea opening (hundreds of characters) is the first utterance of the process:
    pyttsx3's espeak driver once returned an empty file for it."""
    import wave
    from pathlib import Path

    out = tmp_path / "dark.wav"
    root = Path(__file__).resolve().parent.parent
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "speak",
            "--story",
            "deep_sea_atelier",
            "--node",
            "dark",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    with wave.open(str(out)) as w:
        assert w.getnframes() / w.getframerate() > 30
