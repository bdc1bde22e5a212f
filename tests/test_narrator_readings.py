"""What text reaches each engine: kana for espeak-ng, the author's readings, sentence splits."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from runner.ui.narrator.engines import engine_problem
from runner.ui.narrator.readings import (
    detect_lang,
    has_ideographs,
    reading_for,
    split_readings,
    split_sentences,
    to_katakana,
)

needs_openjtalk = pytest.mark.skipif(engine_problem("openjtalk") is not None,
                                     reason="pyopenjtalk-plus not installed")
KANA_ONLY = re.compile(r"^[\u30a0-\u30ff。、！？「」…・ー\s]+$")


@needs_openjtalk
def test_japanese_becomes_pronunciation_kana_for_pyttsx3():
    r = reading_for("探索者たちは目を覚ました", None, "pyttsx3", "ja")
    assert not has_ideographs(r)
    assert KANA_ONLY.match(r), r
    # the particle は is read "wa", を "o" (written ヲ, which espeak-ng reads as o)
    assert r == "タンサクシャタチワメヲサマシタ"
    assert reading_for("学校へ行く", None, "pyttsx3", "ja").startswith("ガッコーエ")


@needs_openjtalk
def test_author_readings_win_longest_first_and_stay_literal():
    readings = {"触腕": "しょくわん", "蠢く触腕": "うごめくしょくわん", "葉": "は"}
    r = reading_for("蠢く触腕が葉を揺らす。", readings, "pyttsx3", "ja")
    # the author's は is a noun here, so it must stay "ha", not become the particle "wa"
    assert r == "ウゴメクショクワンガハヲユラス。"
    oj = reading_for("蠢く触腕が葉を揺らす。", readings, "openjtalk", "ja")
    assert oj == "ウゴメクショクワンがハを揺らす。"


def test_split_readings_without_map_and_english_passthrough():
    assert split_readings("abc", None) == [("abc", False)]
    assert reading_for("The door opens.", {"door": "gate"}, "pyttsx3", "en") == "The gate opens."
    assert detect_lang("The door opens.") == "en"
    assert detect_lang("扉が開く") == "ja"
    assert to_katakana("うごめく") == "ウゴメク"
    with pytest.raises(ValueError):
        reading_for("x", None, "festival")


@needs_openjtalk
def test_latin_letters_and_digits_are_spelt_in_kana():
    r = reading_for("B1Fに着いた。HPが3減った", None, "pyttsx3", "ja")
    assert not re.search(r"[A-Za-zＡ-Ｚａ-ｚ0-9０-９]", r), r
    assert "エイチピー" in r and "ビー" in r


def test_sentences_split_at_japanese_and_english_ends():
    got = split_sentences("「来るな！」と彼は叫んだ。扉が開く……そして、静寂。\nThe end. Really?")
    assert got == ["「来るな！」と彼は叫んだ。", "扉が開く……", "そして、静寂。", "The end.", "Really?"]
    long = "あ" * 100 + "、" + "い" * 100
    assert all(len(s) <= 120 for s in split_sentences(long))
    assert split_sentences("……。") == []


@needs_openjtalk
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_espeak_reads_our_kana_as_japanese_but_raw_kanji_as_chinese_letters():
    """What a test can show honestly: espeak-ng's own phoneme transcript. Raw kanji switch to
    English "Chinese letter" ((en)tS'aIni:z l'et@); our reading stays in Japanese phonemes."""
    def phonemes(text):
        return subprocess.run(["espeak-ng", "-v", "ja", "-q", "-x", text], capture_output=True,
                              text=True, check=True).stdout
    raw = phonemes("探索者たちは目を覚ました")
    assert "(en)" in raw and "tS'aIni:z" in raw
    ours = phonemes(reading_for("探索者たちは目を覚ました", None, "pyttsx3", "ja"))
    assert "(en)" not in ours and "tS'aIni:z" not in ours
    assert "t_s\\" in ours  # ...tachi... : Japanese affricate
