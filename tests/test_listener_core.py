"""The listener's decisions without a recogniser: phrases, matching, the scripted twin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner import engine
from runner.story import load
from runner.ui.listener import (
    META,
    YES_NO,
    Heard,
    Phrase,
    PhraseBook,
    ScriptedListener,
    did_you_mean,
    normalise,
    phrases_for,
    split_words,
    story_phrases,
    unknown_words,
)
from runner.ui.listener.core import posteriors

KO_STORY = Path(__file__).parent / "data" / "ko_story.yaml"


def test_normalise_ignores_spaces_width_case_and_kana_kind():
    assert normalise("梯子 を 持つ") == normalise("梯子を持つ")
    assert normalise("ハシゴ") == normalise("はしご")
    assert normalise("ＯＰＥＮ Door!") == "opendoor"
    assert normalise("문 열어") == "문열어"


def test_exact_phrase_acts_at_once():
    book = PhraseBook([Phrase("문 열어", "open_door"), Phrase("사다리 잡아", "take")])
    h = book.decide([("문 열어", 1.0)], 0.01)
    assert (h.command, h.phrase, h.needs_confirm) == ("open_door", "문 열어", False)
    assert h.confidence == pytest.approx(1.0)
    assert h.seconds == 0.01


def test_japanese_answer_with_spaces_matches_unspaced_alias():
    # Japanese models put spaces between words; authors do not.
    book = PhraseBook([Phrase("梯子を持つ", "take_ladder"), Phrase("窓を見る", "look")])
    h = book.decide([("梯子 を 持つ", 0.9)])
    assert h.command == "take_ladder"


def test_word_salad_of_two_phrases_asks_first():
    # A grammar is a bigram model: vosk may join words of two phrases. Never act on that.
    book = PhraseBook([Phrase("문 열어", "open_door"), Phrase("사다리 잡아", "take")])
    h = book.decide([("사다리 열어", 1.0)])
    assert h.needs_confirm or h.command is None


def test_low_confidence_asks_and_very_low_is_not_understood():
    book = PhraseBook([Phrase("open the door", "door"), Phrase("climb", "climb")])
    mid = book.decide([("open the door", 0.5)])
    assert mid.command == "door" and mid.needs_confirm
    low = book.decide([("open the door", 0.2)])
    assert low.command is None and not low.needs_confirm
    assert book.decide([("", 1.0)]).command is None
    assert book.decide([]).command is None


def test_nbest_posteriors_weigh_alternatives():
    book = PhraseBook([Phrase("open door", "door"), Phrase("climb", "climb")])
    w = posteriors([90.0, 89.0, 80.0])
    assert sum(w) == pytest.approx(1.0) and w[0] > w[1] > w[2]
    # Two close readings of the same command add up.
    h = book.decide(list(zip(["open door", "open door the", "climb"], w, strict=True)))
    assert h.command == "door"
    # A best reading that is no phrase at all is not acted on without asking.
    h2 = book.decide(list(zip(["climb door", "climb"], posteriors([90.0, 89.9]), strict=True)))
    assert h2.needs_confirm or h2.command is None


def test_quit_always_asks_first():
    book = PhraseBook([Phrase("종료", "quit"), Phrase("문 열어", "door")])
    h = book.decide([("종료", 1.0)])
    assert h.command == "quit" and h.needs_confirm
    assert not book.decide([("문 열어", 1.0)]).needs_confirm


def test_unk_is_noise_not_words():
    book = PhraseBook([Phrase("open door", "door")])
    h = book.decide([("[unk]", 1.0)])
    assert h.command is None
    assert h.text == "[unk]"


def test_heard_to_json_is_plain():
    h = Heard("문 열어", "open_door", 0.91234, 0.04321, phrase="문 열어")
    d = json.loads(json.dumps(h.to_json(), ensure_ascii=False))
    assert d["text"] == "문 열어" and d["command"] == "open_door"
    assert d["confidence"] == 0.912 and d["seconds"] == 0.0432


def test_split_words_reduces_to_model_words():
    vocab = {
        "사다리",
        "를",
        "사",
        "다리를",
        "북쪽",
        "으로",
        "가",
        "梯子",
        "を",
        "持つ",
        "open",
        "door",
    }
    has = vocab.__contains__
    assert split_words("사다리를 잡는다", has) == (["사다리", "를"], ["잡는다"])
    assert split_words("북쪽으로 가", has) == (["북쪽", "으로", "가"], [])
    assert split_words("梯子を持つ", has) == (["梯子", "を", "持つ"], [])
    # Latin words are never split into letters.
    assert split_words("Open the Door!", has) == (["open", "door"], ["the"])
    assert unknown_words(["梯子を持つ", Phrase("はしごを持つ", "x"), "open zorbly"], vocab) == [
        "はしご",
        "zorbly",
    ]


def test_phrases_for_story_actions_and_meta():
    story = load(KO_STORY)
    ps = story_phrases(story)
    cmds = {p.text: p.command for p in ps}
    assert cmds["사다리 잡아"] == "take_ladder" and cmds["사다리를 잡는다"] == "take_ladder"
    assert cmds["도움말"] == "help"
    # Only what is valid now: no ladder yet, so no way down; the door needs the key.
    assert "go_down" not in cmds.values() and "open_door" not in cmds.values()
    cellar = {p.command for p in story_phrases(story, "cellar", meta={})}
    assert cellar == {"open_box", "climb", "wait"}
    with pytest.raises(KeyError):
        story_phrases(story, "nowhere")


def _play(listener: ScriptedListener, story, lang: str = "ko") -> tuple[object, list[str]]:
    """A REPL's voice loop in miniature: phrases, hear, confirm, step."""
    state, _ = engine.new_game(story)
    ran = []
    while state.ending is None:
        listener.set_phrases(phrases_for(engine.available(story, state), lang))
        heard = listener.next_heard()
        if heard is None:
            break
        if heard.command is None or heard.command in META[lang].values():
            continue
        if heard.needs_confirm:
            listener.set_phrases(list(YES_NO[lang].items()))
            answer = listener.next_heard()
            if answer is None or answer.command != "yes":
                continue
        state, _ = engine.step(story, state, heard.command)
        ran.append(heard.command)
    return state, ran


def test_scripted_listener_plays_the_story_to_its_ending():
    story = load(KO_STORY)
    script = [
        "사다리 잡아",
        "아래로 내려가",
        "상자를 연다",
        "상자 열어",
        "열쇠 주워",
        "올라가",
        ("문 열어", 0.5),
        "네",
    ]
    listener = ScriptedListener(script, lang="ko")
    state, ran = _play(listener, story)
    # "상자를 연다" twice: the second time the box is open, so that phrase is gone.
    assert ran == ["take_ladder", "go_down", "open_box", "take_key", "climb", "open_door"]
    assert state.ending == "escaped"
    assert listener.history[-1] == [Phrase(t, c) for t, c in YES_NO["ko"].items()]


def test_scripted_listener_does_not_act_on_phrases_not_valid_now():
    story = load(KO_STORY)
    listener = ScriptedListener(["열쇠 주워", "문 열어"], lang="ko")
    state, ran = _play(listener, story)
    assert ran == [] and state.node == "hall"


def test_did_you_mean_names_the_phrase():
    h = Heard("문 열", "open_door", 0.5, 0.0, phrase="문 열어", needs_confirm=True)
    assert "문 열어" in did_you_mean(h, "ja")
    assert "문 열어" in did_you_mean(h, "en") and "yes" in did_you_mean(h, "en")
