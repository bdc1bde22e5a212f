"""The Japanese GM panel names what coc7 keeps in Japanese: an investigator's kind of
insanity (［一時的狂気］, not ［狂気:temporary］) and the fight's hidden values (戦闘 ラウンド 1・
順番 …・待ち 行動, not "combat round 1・order …・awaiting action"); the English panel in English."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from runner.ui.render import gm_lines

EV = {
    "type": "state",
    "clock": 0,
    "turn": 3,
    "stats": {"pc": {"name": "黒田 剛", "hp": 9, "cond": {"insane": "temporary", "dying": False}}},
    "gm": {"pending_events": [], "fired": [], "all_vars": {}},
}
HIDDEN = {
    "coc7": {
        "combat": {"round": 1, "order": ["黒田 剛", "触腕1"], "awaiting": "action", "actor": "pc"}
    }
}
STORY = SimpleNamespace(
    rules="coc7", characters={}, variables={}, events=[], clock=None, language="ja"
)


def _text(lang: str) -> str:
    lines = gm_lines(EV, STORY, lang, cols=200, hidden=HIDDEN)
    return "\n".join("".join(t for _, t in line) for line in lines)


def test_japanese_panel() -> None:
    text = _text("ja")
    assert "［一時的狂気］" in text and "temporary" not in text
    assert "ラウンド 1" in text and "待ち 行動" in text
    for english in ("combat", "round", "order", "awaiting", "action"):
        assert english not in text, english


@pytest.mark.parametrize("word", ["temporary insanity", "round 1", "awaiting an action"])
def test_english_panel(word: str) -> None:
    assert word in _text("en")
