"""What players read in the console and `katari list` (the table tour's wording items): a
refused save name quoted as each language quotes and followed by a name that works, `katari
list` naming languages in words, and the UREG escaper's line in plain English."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import katari, played

from runner.commands._common import translated
from runner.story import load
from runner.ui import files

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
START = {"ja": ["1", "スマホ", "目を覚ます"], "en": ["1", "phone", "3"]}


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def stories():
    return {"ja": load(DEEP), "en": translated(load(DEEP), "en")}


# -- item 3: a refused save name ------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "refused", "instead"),
    [
        ("ja", "「before door」", "かわりに「{cmd} before_door」が使えます。"),
        ("en", "“before door”", "Try “{cmd} before_door” instead."),
    ],
)
def test_a_refused_save_name_is_quoted_and_a_usable_one_offered(
    stories, lang: str, refused: str, instead: str
) -> None:
    lines = [*START[lang], "save before door", "load before door", "save before_door"]
    lines += ["load before door"]
    repl, out = played(stories[lang], lines, cols=200, new=True, lang=lang, seed=1)
    assert out.count(refused) == 3 and "'before door'" not in out
    assert instead.format(cmd="save") in out and out.count(instead.format(cmd="load")) == 2
    assert files.slot_path(repl.story.id, "before_door").exists()  # the name offered works


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("before door", "before_door"),
        ("../../etc", "etc"),
        ("a/b c", "a_b_c"),
        (".hidden", "hidden"),
        ("-x", "x"),
        ("長" * 300, "長" * 40),
        ("扉の前 で", "扉の前_で"),
        ("autosave", None),
        ("---", None),
        ("...", None),
        ("", None),
    ],
)
def test_the_name_offered_is_always_one_a_save_takes(name: str, like: str | None) -> None:
    got = files.slot_like(name)
    assert got == like
    if got is not None:
        assert files.valid_slot(got) and not files.is_autosave(got)


# -- item 7: katari list ----------------------------------------------------------------------


def test_katari_list_names_the_languages_in_words() -> None:
    en = katari("list", "--lang", "en").stdout
    ja = katari("list", "--lang", "ja").stdout
    assert "ja+en: written in Japanese, translated into English" in en, en
    assert "written in ja" not in en and "into en" not in en
    assert "ja+en：日本語で書かれ、英語に翻訳されています" in ja, ja


# -- item 8: the UREG escaper in English ------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "lang", "line"),
    [
        ("1", "en", "You: strength Inspiration, weakness Ordinary."),
        ("littleness", "en", "You: strength Small, weakness Short."),
        ("1", "ja", "あなた：〈○閃き〉〈×平凡〉"),
    ],
)
def test_the_escaper_line_reads_in_the_players_language(choice: str, lang: str, line: str) -> None:
    import json

    r = katari(
        "play", "ureg_window_room", "--jsonl", "--seed", "1", "--lang", lang, stdin=choice + "\n"
    )
    said = [json.loads(x) for x in r.stdout.splitlines()]
    chosen = [e["text"] for e in said if e.get("id") == "ureg.choose"]
    assert chosen == [line]
    if lang == "en":
        assert not any(c in chosen[0] for c in "〈〉○×")
