"""#13 item 12: the investigator's sheet at the console: ``sheet``, ``シート``, ``能力`` and the
help show it (characteristics, skills, HP/MP/SAN/Luck, conditions), without a speaker
prefix; the sheet is declared by the rule system (RuleSystem.sheet)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import tui, unescape

from runner.rules import system
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"


def _console(story, lines: list[str]) -> str:
    _, screen = tui(story, "".join(f"{k}\r" for k in [*lines, "quit"]), history=True)
    return unescape(screen)


@pytest.mark.parametrize("word", ["sheet", "シート", "能力", "/sheet"])
def test_sheet_words_show_the_investigators_sheet(home: Path, word: str) -> None:
    screen = _console(load(DEEP), ["1", word])
    flat = re.sub(r"\s+", "", screen)
    for part in (
        "黒田剛（警察官）",
        "筋力STR80",
        "HP12/12",
        "MP10/10",
        "SAN50/99",
        "幸運50",
        "状態：異常なし",
        "技能：射撃(拳銃)70",
        "目星60",
    ):
        assert part in flat, (word, part)
    assert "system" not in screen


def test_help_lists_the_sheet(home: Path) -> None:
    flat = re.sub(r"\s+", "", _console(load(DEEP), ["1", "help"]))
    assert "シート/sheet—探索者のシート（能力値・技能・HP/MP/SAN/幸運・状態）" in flat


def test_sheet_shows_the_conditions() -> None:
    story = load(DEEP)
    from runner.engine import new_game, step

    st, _ = new_game(story, 0)
    st, _ = step(story, st, "pregen1")
    s = st.stats["pc"]
    s["hp"] = 0
    s["cond"].update(major_wound=True, dying=True, unconscious=True, insane="indefinite")
    s["cond"]["bout"] = {"roll": 2, "length": 3, "unit": "hours", "left": 3, "seq": 1}
    lines = system("coc7").sheet(story, st, "ja")
    assert "  状態：瀕死、重傷、狂気の発作・残り3時間、不定の狂気" in lines
    assert "Conditions: dying, major wound, bout of madness, 3 h, indefinite insanity" in "\n".join(
        system("coc7").sheet(story, st, "en")
    )


def test_a_story_without_sheets_says_so(home: Path) -> None:
    flat = re.sub(r"\s+", "", _console(load(ROOT / "stories" / "dungeon_2f"), ["sheet"]))
    assert "この物語のルールには、キャラクターシートがありません。" in flat


def test_at_sheet_in_jsonl_has_no_system_speaker() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--jsonl"],
        input="pregen1\n@sheet\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    evs = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    lines = [e for e in evs if e["type"] == "narration" and "HP 12/12" in e["text"]]
    assert lines and all(e["speaker"] != "system" for e in lines)
