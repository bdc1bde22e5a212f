"""Rendering events: wrapping by terminal columns (Japanese by character with kinsoku, English
by word), speakers, rolls die by die, endings, and the status bar's keys."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from prompt_toolkit.utils import get_cwidth

from runner.ui.render import Renderer, plain, status_items, toolbar, wrap

JA = "気がつくと、あなたは六メートル四方の部屋の真ん中に立っていた。 正面の壁の「窓」から光が差し込んでいる。"


def test_japanese_wraps_by_character_within_the_columns() -> None:
    lines = wrap(JA, 20)
    assert all(get_cwidth(ln) <= 20 for ln in lines)
    # (the loader drops YAML folding's stray spaces; what reaches the screen keeps its spaces)
    assert "".join(lines).replace(" ", "") == JA.replace(" ", "")
    assert not any(ln[0] in "、。」" for ln in lines)  # kinsoku: no line starts with these
    assert not any(ln.endswith("「") for ln in lines)


def test_interface_text_keeps_its_spaces_between_japanese_words() -> None:
    """A GM's usage line, a name, a hint: their spaces are meant (「ダメージ 三浦 1d3」 lost its
    space when every shown line was tidied as if it were folded YAML)."""
    for text in ("ダメージ 三浦 1d3", "強制 成功", "黒田 剛（警察官）", "（声 名前 で変える）"):
        assert wrap(text, 80) == [text]


def test_a_folded_story_line_loses_the_fold_space_at_load(tmp_path) -> None:
    from runner.story import load

    (tmp_path / "s.yaml").write_text(
        "story: {id: s, title: s, language: ja, rules: none, start: a}\nnodes:\n  a:\n    title: A\n"
        "    narration:\n      - >\n        一行目。\n        二行目。\n    actions:\n"
        "      - {id: e, label: 終わる, end: out}\nendings:\n  out: {kind: good, title: 終}\n",
        encoding="utf-8",
    )
    story = load(tmp_path / "s.yaml")
    assert story.nodes["a"].narration[0].text == "一行目。二行目。"


def test_english_wraps_by_word() -> None:
    text = "You climb the ladder and stretch out your hands towards the window frame."
    lines = wrap(text, 24)
    assert all(len(ln) <= 24 for ln in lines)
    assert " ".join(lines) == text
    assert lines[0] == "You climb the ladder and"


@given(st.text(max_size=300), st.integers(8, 120))
def test_wrap_never_overflows_and_keeps_every_letter(text: str, cols: int) -> None:
    lines = wrap(text, cols)
    for ln in lines:
        assert get_cwidth(ln) <= cols or len(ln) == 1
    squeeze = lambda s: "".join(s.split())  # noqa: E731
    assert squeeze("".join(lines)) == squeeze(text)


def test_events_render() -> None:
    r = Renderer(None, lang="ja", gm=False, cols=60)
    out = plain(
        r.events(
            [
                {"type": "narration", "text": "こんにちは。", "speaker": "浜田", "id": "a"},
                {"type": "narration", "text": "秘密", "speaker": "narrator", "keeper": True},
                {
                    "type": "roll",
                    "expr": "1d100",
                    "dice": [4, 2],
                    "sides": [10, 10],
                    "total": 42,
                    "level": "hard",
                    "label": "目星",
                    "target": 50,
                },
                {"type": "roll", "expr": "1d6+1d4", "dice": [3, 2], "sides": [6, 4], "total": 5},
                {"type": "ending", "id": "e", "kind": "bad", "title": "闇の中"},
            ]
        )
    )
    assert "「浜田」こんにちは。" in out
    assert "秘密" not in out
    assert "🎲 目星 1d100：[40] [2] → 42（目標 50） ハード成功" in out
    assert "1d6+1d4：[3/d6] [2/d4] → 5" in out
    miss = plain(
        r.event(
            {
                "type": "roll",
                "expr": "1d100<=25",
                "dice": [10, 10],
                "sides": [10, 10],
                "total": 100,
                "level": "regular",
                "success": False,
                "difficulty": "hard",
            }
        )
    )
    assert "[00] [0] → 100" in miss and "レギュラー成功 ＞ 失敗（ハード成功が必要）" in miss
    assert "エンディング：闇の中（バッド）" in out
    gm = plain(
        Renderer(None, lang="en", gm=True, cols=60).events(
            [{"type": "narration", "text": "secret", "keeper": True}]
        )
    )
    assert gm == "[GM] secret"


def test_status_bar_shows_rule_system_keys_generically() -> None:
    # The status bar knows no rule system by name: it asks the story's (RuleSystem.display)
    # for the gauges, the names of its keys and its own short forms.
    coc7_story = SimpleNamespace(rules="coc7", variables={})
    ktane_story = SimpleNamespace(rules="ktane", variables={})
    coc = {
        "type": "state",
        "node": "n",
        "title": "書斎",
        "turn": 3,
        "clock": 30,
        "time": "10:30",
        "time_left": 90,
        "vars": {"clue": 2},
        "inventory": {},
        "stats": {
            "pc": {
                "name": "探索者",
                "hp": 9,
                "hp_max": 11,
                "mp": 10,
                "san": 55,
                "luck": 60,
                "skills": {"目星": 60},
            }
        },
    }
    items = dict(status_items(coc, coc7_story, "ja"))
    assert items["場所"] == "書斎" and items["時刻"] == "10:30" and items["残り"] == "1時間30分"
    assert (
        items["HP"] == "9/11"
        and items["SAN"] == "55"
        and items["幸運"] == "60"
        and items["MP"] == "10"
    )
    assert items["clue"] == "2" and "skills" not in items
    ktane = {
        "type": "state",
        "node": "m",
        "title": "ダンジョン",
        "turn": 0,
        "clock": 0,
        "vars": {},
        "inventory": {},
        "stage": 2,
        "strikes": 1,
        "led": "red",
        "edgework": {
            "serial": "AB12",
            "indicators": [{"label": "CAR", "lit": True}],
            "batteries": 2,
        },
    }
    items = dict(status_items(ktane, ktane_story, "en"))
    assert items["strikes"] == "1" and items["stage"] == "2"
    assert items["edgework"] == "serial AB12 · indicators lit CAR · batteries 2"
    # Without a rule system the same keys still show, as they are.
    plain_items = dict(status_items(ktane, None, "en"))
    assert plain_items["strikes"] == "1" and "AB12" in plain_items["edgework"]
    bar = "".join(x for _, x in toolbar(ktane, ktane_story, "en", cols=40))
    assert get_cwidth(bar) <= 40 and bar.strip().startswith("Place ダンジョン")


def test_a_speakers_name_is_set_off_as_each_language_does() -> None:
    """Japanese brackets a speaker's name (「三浦」…); an English console writes ``Miura: …``
    (「The girl」 in an English game read as a stray Japanese mark)."""
    from runner.ui.render import markdown_turn, speaker_head

    assert speaker_head("三浦", "ja") == "「三浦」"
    assert speaker_head("The girl", "en") == "The girl: "
    story = SimpleNamespace(characters={"g": SimpleNamespace(name="The girl")}, language="en")
    ev = {"type": "narration", "text": "Where is this?", "speaker": "g", "name": "The girl"}
    en = Renderer(story=story, cols=60, lang="en").events([ev])
    assert plain(en) == "The girl: Where is this?"
    assert "「" not in "".join(markdown_turn([ev], story, lang="en"))
