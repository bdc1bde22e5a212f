"""``katari manual dungeon_2f`` prints a manual that keeps every fact of the module."""

from __future__ import annotations

import pytest

from runner.cli import main
from runner.rules.ktane import dungeon as d

JA = {"sword": "剣", "shield": "盾", "forward": "前", "left": "左", "right": "右"}
EN = {"sword": "Sw", "shield": "Sh", "forward": "F", "left": "L", "right": "R"}


def manual(capsys, *args: str) -> str:
    assert main(["manual", *args]) == 0
    return capsys.readouterr().out


def test_japanese_manual_keeps_the_facts(capsys) -> None:
    text = manual(capsys, "dungeon_2f")
    for number, name in d.NAMES_JA.items():
        assert f"| {name} | {number} |" in text, name
    for number, seq in d.CODEX.items():
        if seq and number not in (4, 6, 16):  # written as rules or "×9" in prose
            assert " ".join(JA[b] for b in seq) in text, d.NAMES_JA[number]
    assert "盾 盾 盾 盾 盾 盾 盾 盾 盾" in text
    for fact in (
        "x ＝ y ＋ z",
        "x ＝ y − z",
        "x ＝ s ＋ b",
        "x ＝ z ＋ m",
        "（y − 5）",
        "（y − z − 1）",
        "（y − 10）",
        "ステージ6に入った時点でレベルは3",
        "ステージ11に入った時点でレベルは4",
        "ステージ16",
        "赤＝1、黄＝2、緑＝3、青＝4、マゼンタ＝5",
        "BOB",
        "電池が一本もなければ",
        "レベルが **2**",
        "m = 0",
        "灰色が1F、緑色が2F",
        "0・1・2",
        "3・4・5・6",
        "7・8・9",
        "自動的に勝ち",
        "1〜3回",
    ):
        assert fact in text, fact


def test_english_manual_and_unknown_module(capsys) -> None:
    text = manual(capsys, "dungeon_2f", "--lang", "en")
    for number, seq in d.CODEX.items():
        if seq and number not in (4, 6, 16):
            assert " ".join(EN[b] for b in seq) in text, d.NAMES_EN[number]
    assert main(["manual", "no_such_module"]) == 2
    assert manual(capsys).split() == ["dungeon_2f"]


def test_manuals_say_where_a_copied_necromancer_looks(capsys) -> None:
    # After stage 13 a necromancer copying the shapeshifter copies a necromancer again; the
    # source is silent, so the expert must read our answer in the printed manual.
    ja = manual(capsys, "dungeon_2f")
    assert "もう一つ前の戦闘にさかのぼる" in ja and "シェイプシフターの**さらに前**" in ja
    en = manual(capsys, "dungeon_2f", "--lang", "en")
    assert "steps one fight further back" in en and "**before the shapeshifter**" in en


@pytest.mark.parametrize("alias", ["dungeon", "ダンジョン"])
def test_aliases(capsys, alias: str) -> None:
    assert manual(capsys, alias).startswith("# モジュール：ダンジョン・2F")


def test_the_english_module_speaks_the_english_manual_s_words(capsys) -> None:
    """#18: the module played in English (katari play dungeon_2f --lang en) and the English
    manual agree word for word: the buttons, the LED's colours, the enemies, the fight."""
    from runner.rules.ktane import texts
    from runner.stories import resolve
    from runner.story import load
    from runner.story import translate as T

    text = manual(capsys, "dungeon_2f", "--lang", "en")
    said = texts("en")
    for number in d.NAMES_EN:
        assert f"| {said[f'enemy.{number}']} | {number} |" in text, number
    for zone in ("red", "yellow", "green", "blue", "magenta", "white"):
        assert said[f"zone.{zone}"] in text
    assert "**forward, left, right** (moves) and **sword, shield** (combat)" in text
    for key, phrase in {
        "fight": "you have met an enemy",
        "beaten": "the LED goes out",
        "auto_win": "won at once",
        "stage": "The LED",
    }.items():
        assert phrase in said[key] and phrase in text, key
    story = T.apply(load(resolve("dungeon_2f")), "en")
    labels = [a.label for a in story.nodes["module"].actions]
    assert labels == ["forward", "left", "right", "sword", "shield"]
    assert story.title in text.splitlines()[0]  # "# Module: Dungeon, 2nd Floor (ダンジョン・2F)"
