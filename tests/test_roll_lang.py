"""`katari roll` says what is wrong in the user's language (KATARI_LANG, else Japanese) for
every kind of unreadable dice, not in English for some and Japanese for others (a tourist:
`roll 1d0` answered in English, `roll XYZ` in Japanese)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import katari

from runner.rules.dice import DiceError, parse
from runner.ui.i18n import _TEXT, dice_reason

ROOT = Path(__file__).resolve().parents[1]

_BAD = ["1d0", "1d6+", "1d6+(2", "1d6/0", "2000d6", "(" * 80 + "1d6" + ")" * 80, "5d6kh2000"]


def _roll(lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    return katari("roll", *args, env={**os.environ, "KATARI_LANG": lang}, timeout=60)


def test_every_dice_error_code_has_japanese_words() -> None:
    for code in DiceError.ENGLISH:
        assert f"dice_{code}" in _TEXT["ja"], code


@pytest.mark.parametrize("text", _BAD)
def test_a_parse_error_reads_in_both_languages(text: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(text)
    e = caught.value
    assert dice_reason(e, "en") == str(e)
    ja = dice_reason(e, "ja")
    assert ja != str(e) and "'" not in ja and not any(w in ja for w in ("dice", "cannot"))


@pytest.mark.parametrize("text", ["1d0", "1d6+", "XYZ"])
def test_katari_roll_answers_in_katari_lang(text: str) -> None:
    ja, en = _roll("ja", text), _roll("en", text)
    assert ja.returncode == en.returncode == 2
    assert len(ja.stderr.splitlines()) == len(en.stderr.splitlines()) == 1
    assert not ja.stderr.isascii() and en.stderr.isascii() is ("“" not in en.stderr)


def test_roll_own_lines_in_japanese() -> None:
    assert "足りません" in _roll("ja", "1d6+1d4", "--dice", "3").stderr
    assert "使われなかった目が 1 個" in _roll("ja", "1d6", "--dice", "3,4").stderr
    assert "1 die face(s) left over" in _roll("en", "1d6", "--dice", "3,4").stderr
