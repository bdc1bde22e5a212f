"""The deep-sea story at a real table (#13): what a player (no --gm) is told, played headless
through ``katari play --jsonl`` and the engine with seeds. Each test failed before its fix."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.jsonl import turns

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "stories" / "deep_sea_atelier"
LIT = ["pregen1", "take_lighter", "wake", "use_lighter", "switch_on"]


@pytest.fixture(scope="module")
def story():
    return load(STORY)


def play(story, *lines: str, seed: int = 0, gm: bool = False) -> list[dict]:
    evs = list(turns(story, list(lines), seed=seed, gm=gm))
    assert not [e for e in evs if e["type"] == "error"]
    return evs


def states(evs: list[dict]) -> list[dict]:
    return [e for e in evs if e["type"] == "state"]


def said(evs: list[dict]) -> str:
    return "\n".join(e["text"] for e in evs if e["type"] == "narration")


def jsonl(stdin: str, *args: str) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "runner", "play", str(STORY), "--jsonl", *args],
                         input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(x) for x in out.stdout.splitlines() if x.strip()]


# ---------------------------------------------------------------- items 24/25: keeper knowledge

def test_status_bar_shows_only_what_the_investigator_has_found() -> None:
    """No depth, distance, glasses or countdown from the first turn (#13 item 24)."""
    evs = jsonl("pregen1\ntake_lighter\nwake\n")
    first = states(evs)[-1]
    assert not {"to_surface", "from_lair", "glasses_on", "light"} & set(first["vars"])
    assert "time_left" not in first and first["time"] == "10:00"
    gm = states(jsonl("pregen1\n", "--gm"))[-1]
    assert {"to_surface", "glasses_on"} <= set(gm["vars"]) and gm["time_left"] == 600


def test_each_status_field_appears_once_its_thing_is_found(story) -> None:
    evs = play(story, *LIT)
    assert states(evs)[-1]["vars"].get("light") is True           # the switch is known
    evs = play(story, *LIT, "go_carpet", "search", "open_case")
    assert states(evs)[-1]["vars"].get("glasses_on") is False     # glasses in hand
    out = ["pregen3", "wake", "grope_room", "go_window", "open_curtain", "open_window"]
    assert "to_surface" not in states(play(story, *out))[-1]["vars"]
    st = states(play(story, *out, "swim_out"))[-1]
    assert st["vars"]["to_surface"] == 200 and st["vars"]["from_lair"] == 0
    assert all("time_left" not in s for s in states(play(story, *out, "swim_out", "up")))


def test_the_fight_does_not_open_with_the_keepers_ways_to_repel_the_arm(story) -> None:
    evs = play(story, *LIT, "go_carpet", "search", "back", "go_window", "open_curtain",
               "open_window", "fight")
    text = said(evs[-8:])
    for word in ("怯ませ", "明かりを消", "閉め出"):
        assert word not in text, word


def test_item_texts_do_not_give_away_check_results(story) -> None:
    """The powder is 「蝶の鱗粉のような物」 only to a Medicine / Science (Pharmacy) roll; the
    lighter is no weapon until someone thinks of it (#13 item 25)."""
    assert "鱗粉" not in story.items["powder"].description
    assert "武器" not in story.items["lighter"].description
    assert "炎" not in story.items["spray"].description
    evs = play(story, *LIT, "go_kitchen", "search", ":dice 1,10", "cabinet", ":dice 9,9",
               "powder_science")
    assert "鱗粉" not in said(evs)
    nurse = ["pregen3", "take_lighter", "wake", "use_lighter", "switch_on"]   # Medicine 70
    evs = play(story, *nurse, "go_kitchen", "search", ":dice 1,10", "cabinet", ":dice 1,10",
               "powder_science")
    assert "蝶の鱗粉" in said(evs)
