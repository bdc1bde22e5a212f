"""A GM types a switch's value as a word: ``!set light yes`` (and はい/いいえ/on/off/オン/オフ),
the same in --jsonl, in the console's ``!set`` and in its 変数 word."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import new_game, step
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent
WORDS = [("yes", True), ("YES", True), ("はい", True), ("on", True), ("オン", True),
         ("no", False), ("いいえ", False), ("off", False), ("オフ", False)]  # fmt: skip


@pytest.mark.parametrize(("word", "value"), WORDS)
def test_a_switch_word_sets_true_or_false(word: str, value: bool) -> None:
    story = load(ROOT / "stories" / "deep_sea_atelier")
    state, _ = new_game(story, 1)
    state.vars["light"] = not value
    new, events = step(story, state, f"!set light {word}", gm=True, tail_events=False)
    assert new.vars["light"] is value, events


def test_jsonl_gm_set_yes(tmp_path: Path) -> None:
    env = {**os.environ, "KATARI_HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-m", "runner", "play", "deep_sea_atelier", "--jsonl", "--gm"],
        input="!set light yes\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    ).stdout
    sets = [e for e in map(json.loads, out.splitlines()) if e.get("what") == "set"]
    assert sets and sets[0]["data"]["value"] is True, out[-500:]


@pytest.mark.parametrize(
    ("command", "holds"),
    [("!set light 1", "switch"), ("!set light 'on'", "switch"), ("!set to_surface yes", "number")],
)
def test_a_value_of_another_kind_is_refused(command: str, holds: str) -> None:
    """A switch stays a switch and a number a number (a GM's はい into 海面まで(m) made it
    はい, and the story's distance to the surface a switch)."""
    story = load(ROOT / "stories" / "deep_sea_atelier")
    state, _ = new_game(story, 1)
    new, events = step(story, state, command, gm=True, tail_events=False)
    assert new is state
    assert events[0]["code"] == "gm_bad_type" and events[0]["data"]["holds"] == holds


def test_a_room_lit_by_the_gm_before_waking_is_lit_on_waking() -> None:
    """変数 天井の照明 はい while the investigator still chooses belongings: waking finds the
    lit room, not the dark with the light switched on."""
    story = load(ROOT / "stories" / "deep_sea_atelier")
    state, _ = new_game(story, 1)
    state, _ = step(story, state, "1", tail_events=False)
    state, _ = step(story, state, "!set light はい", gm=True, tail_events=False)
    state, _ = step(story, state, "wake", tail_events=False)
    assert state.node == "room"
    dark, _ = step(story, new_game(story, 1)[0], "1", tail_events=False)
    assert step(story, dark, "wake", tail_events=False)[0].node == "dark"
