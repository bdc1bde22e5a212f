"""#18 The English edition of deep_sea_atelier: what coc7 shows an English player is English.

The random walks of tests/test_i18n_stories.py read every event; this file pins down the
pieces they leave to the rules: the sheet a player reads (its raw ``stats`` keep the rules'
Japanese keys), the labels of rolls, the names of the monster's attacks, and a whole game
played through the command line in English."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from runner.engine import new_game, step
from runner.rules.coc7 import SYSTEM
from runner.rules.coc7 import sheet as sh
from runner.stories import shipped
from runner.story import load
from runner.story import translate as T
from runner.ui.render import roll_text

JAPANESE = re.compile(
    "[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u3001\u3002\u300c-\u300f\uff01-\uff60]"
)


def _story(lang: str = "en"):
    source = load(next(p for p in shipped() if p.name == "deep_sea_atelier"))
    return T.apply(source, lang) if lang != source.language else source


@pytest.mark.parametrize("pick", ["pregen1", "pregen2", "pregen3", "pregen4", "create"])
def test_the_sheet_an_english_player_reads_is_english(pick: str) -> None:
    story = _story("en")
    state, _ = new_game(story, 3)
    state, events = step(story, state, pick)
    said = " ".join(e.get("text", "") for e in events if e["type"] == "narration")
    lines = SYSTEM.sheet(story, state, "en")
    text = "\n".join(lines) + "\n" + said
    assert not JAPANESE.findall(text), text
    if pick == "pregen1":
        assert lines[0] == "Tsuyoshi Kuroda (Police Officer)"
        assert "Unarmed 1d3" in text and "Fighting (Brawl)" in text
    if pick == "create":
        assert lines[0].startswith("Investigator")


def test_the_japanese_game_keeps_its_sheet() -> None:
    story = _story("ja")
    state, _ = new_game(story, 3)
    state, _ = step(story, state, "pregen4")
    s = state.stats["pc"]
    assert (s["name"], s["occupation"], s["era"]) == (
        "エマ・ウィットフィールド",
        "新聞記者",
        "1920年代",
    )
    assert SYSTEM.sheet(story, state, "ja")[0] == "エマ・ウィットフィールド（新聞記者）"
    # the English game's sheet differs only in its words: the same numbers and skills
    en = _story("en")
    st2, _ = new_game(en, 3)
    st2, _ = step(en, st2, "pregen4")
    s2 = st2.stats["pc"]
    assert (s2["name"], s2["occupation"], s2["era"]) == ("Emma Whitfield", "Journalist", "1920s")
    assert {k: v for k, v in s2.items() if k not in ("name", "occupation", "era")} == {
        k: v for k, v in s.items() if k not in ("name", "occupation", "era")
    }


@pytest.mark.parametrize(
    ("label", "english"),
    [
        ("幸運", "Luck"),
        ("正気度", "Sanity"),
        ("Tentacle1:近接戦闘", "Tentacle1:Fighting"),
        ("Mizuki Miura:水泳（攻撃）", "Mizuki Miura:Swim (attack)"),
        ("Emma Whitfield:水泳（回避）", "Emma Whitfield:Swim (dodge)"),
        ("ほかの言語(ラテン語)", "Language (Latin)"),
        ("ほかの言語(日本語)", "Language (Japanese)"),
        ("射撃(拳銃)", "Firearms (Handgun)"),
        ("科学(薬学)", "Science (Pharmacy)"),
        ("Spot Hidden", "Spot Hidden"),
    ],
)
def test_roll_labels_name_skills_in_english(label: str, english: str) -> None:
    assert sh.english_label(label) == english
    if label.startswith("科学"):
        return  # canonical() keeps an English specialisation as typed (tests/test_coc7_sheet.py)
    # and the English name reads back as the same skill
    assert sh.canonical(
        english.rpartition(":")[2].split(" (dodge)")[0].split(" (attack)")[0]
    ) == sh.canonical(label.rpartition(":")[2].replace("（攻撃）", "").replace("（回避）", ""))


def test_the_tentacles_attacks_are_translated_strings() -> None:
    keys = {e.key: e.text for e in T.entries(_story("ja"))}
    assert keys["characters.tentacle.props.attacks.0.name"] == "叩く"
    assert keys["characters.tentacle.props.attacks.2.name"] == "巻き付く"
    attacks = _story("en").characters["tentacle"].props["attacks"]
    assert [a["name"] for a in attacks] == ["Strike", "Slam", "Constrict"]
    assert attacks[2]["maneuver"] == "hold"  # the rule data beside the name is untouched


def _jsonl(lang: str, ids: list[str], seed: int) -> list[dict]:
    out = io.StringIO()
    from runner.ui import jsonl as J

    J.play(_story(lang), ids, out, seed=seed)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_fight_in_english_reads_in_english() -> None:
    """Open the window after the tremor and fight: the rolls and the lines of the fight."""
    ids = [
        "pregen1",
        "wake",
        "grope_switch",
        "switch_on",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
    ] + ["attack"] * 12
    for seed in range(6):
        evs = _jsonl("en", ids, seed)
        src = _jsonl("ja", ids, seed)
        assert [e["node"] for e in evs if e["type"] == "state"] == [
            e["node"] for e in src if e["type"] == "state"
        ]
        for e in evs:
            if e["type"] == "roll":
                line, level = roll_text(e, "en")
                assert not JAPANESE.findall(line + level + e.get("label", "")), e
            elif e["type"] == "narration" and not e.get("keeper"):
                assert not JAPANESE.findall(e["text"]), e


def test_play_to_an_ending_in_english_from_the_command_line(tmp_path) -> None:
    """The player types English words (aliases), never an id, and reaches an ending."""
    typed = "1\nwake\ngrope\nkitchen\nback\ngive up\nexplain\n"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            "deep_sea_atelier",
            "--lang",
            "en",
            "--new",
            "--seed",
            "1",
            "--jsonl",
        ],
        input=typed,
        capture_output=True,
        text=True,
        env={**os.environ, "KATARI_HOME": str(tmp_path)},
        timeout=120,
    )
    events = [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]
    assert r.returncode == 0, r.stderr[-2000:]
    assert not [e for e in events if e["type"] == "error"], r.stdout[-2000:]
    assert [e["id"] for e in events if e["type"] == "ending"] == ["wizard_return"]
    for e in events:
        if e["type"] == "narration":
            assert not JAPANESE.findall(e["text"]), e
