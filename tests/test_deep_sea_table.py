"""The deep-sea story at a real table (#13): what a player (no --gm) is told, played headless
through ``katari play --jsonl`` and the engine with seeds. Each test failed before its fix."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import play, said, states

from runner.story import load

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "stories" / "deep_sea_atelier"
LIT = ["pregen1", "take_lighter", "wake", "use_lighter", "switch_on"]


@pytest.fixture(scope="module")
def story():
    return load(STORY)


def jsonl(stdin: str, *args: str) -> list[dict]:
    out = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(STORY), "--jsonl", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
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
    assert states(evs)[-1]["vars"].get("light") is True  # the switch is known
    evs = play(story, *LIT, "go_carpet", "search", "open_case")
    assert states(evs)[-1]["vars"].get("glasses_on") is False  # glasses in hand
    out = ["pregen3", "wake", "grope_room", "go_window", "open_curtain", "open_window"]
    assert "to_surface" not in states(play(story, *out))[-1]["vars"]
    st = states(play(story, *out, "swim_out"))[-1]
    assert st["vars"]["to_surface"] == 200 and st["vars"]["from_lair"] == 0
    assert all("time_left" not in s for s in states(play(story, *out, "swim_out", "up")))


def test_the_fight_does_not_open_with_the_keepers_ways_to_repel_the_arm(story) -> None:
    evs = play(
        story,
        *LIT,
        "go_carpet",
        "search",
        "back",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
    )
    text = said(evs[-8:])
    for word in ("怯ませ", "明かりを消", "閉め出"):
        assert word not in text, word


def test_item_texts_do_not_give_away_check_results(story) -> None:
    """The powder is 「蝶の鱗粉のような物」 only to a Medicine / Science (Pharmacy) roll; the
    lighter is no weapon until someone thinks of it (#13 item 25)."""
    assert "鱗粉" not in story.items["powder"].description
    assert "武器" not in story.items["lighter"].description
    assert "炎" not in story.items["spray"].description
    evs = play(
        story, *LIT, "go_kitchen", "search", ":dice 1,10", "cabinet", ":dice 9,9", "powder_science"
    )
    assert "鱗粉" not in said(evs)
    nurse = ["pregen3", "take_lighter", "wake", "use_lighter", "switch_on"]  # Medicine 70
    evs = play(
        story,
        *nurse,
        "go_kitchen",
        "search",
        ":dice 1,10",
        "cabinet",
        ":dice 1,10",
        "powder_science",
    )
    assert "蝶の鱗粉" in said(evs)


# ---------------------------------------------------------------- item 15: narration that refers back


def test_the_body_outside_is_not_the_arm_that_was_never_met(story) -> None:
    out = ["pregen3", "wake", "grope_room", "go_window", "open_curtain", "open_window", "swim_out"]
    text = said(play(story, *out))
    assert "あの" not in text.split("途方もなく大きな影")[1][:120] and "自分たち" not in text
    evs = play(
        story,
        *LIT,
        "go_carpet",
        "search",
        "back",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
        "flee",
    )
    assert "さっきまで自分を苦しめていたあの触腕" in said(evs)


def test_the_owner_in_the_robe_found_only_when_it_was_found(story) -> None:
    dark = ["pregen1", "wake", "grope_room"]
    assert "バスタブの脇" not in said(play(story, *dark, "wait_owner"))
    assert "バスタブの脇で見つけた" in said(
        play(story, *dark, "go_bath", "tub", "back", "wait_owner")
    )


def _visited_before(prev, *nodes: str) -> bool:
    return any(prev.visits.get(n, 0) for n in nodes)


ENCOUNTERS = ("window_encounter", "door_encounter", "fight")

# A phrase that refers to something earlier (or describes the world a certain way) → the
# condition that must hold whenever a player is shown it: (prev state, new state) -> bool.
REFERS_BACK = [
    (
        "自分たち|私たち|探索者たち",
        "more than one investigator",
        lambda prev, new: (
            sum(
                1
                for s in new.stats.values()
                if isinstance(s, dict) and s.get("kind") == "investigator"
            )
            > 1
        ),
    ),
    (
        "苦しめていたあの触腕|苦しめたあの触腕",
        "an arm fought before",
        lambda prev, new: _visited_before(prev, "fight"),
    ),
    (
        "あの銀色の触腕|あの触腕",
        "an arm met before",
        lambda prev, new: _visited_before(prev, *ENCOUNTERS),
    ),
    (
        "触腕によって無惨な姿",
        "a fight with the arms",
        lambda prev, new: new.visits.get("fight", 0) > 0,
    ),
    (
        "バスタブの脇で見つけた",
        "the robe found by the bathtub",
        lambda prev, new: bool(new.vars.get("bath_searched")),
    ),
    (
        "扉を閉めた|扉を閉め、",
        "a door that can still shut",
        lambda prev, new: not new.vars.get("door_broken"),
    ),
    (
        "弾け飛|吹き飛|枠から外れ",
        "a door actually broken",
        lambda prev, new: bool(new.vars.get("door_broken")),
    ),
    (
        "付箋のページ|辞典に書き添えられていた",
        "the transfer method read in the dictionary",
        lambda prev, new: bool(new.vars.get("knows_spell")),
    ),
    (
        "眼鏡をかけると|眼鏡越し",
        "the glasses in hand",
        lambda prev, new: bool(new.inventory.get("glasses")),
    ),
    (
        "さっき見落とした",
        "a first look before",
        lambda prev, new: bool(new.vars.get("carpet_searched")),
    ),
]
GAMES = 2000


def test_narration_that_refers_back_only_follows_what_happened(story) -> None:
    """Thousands of random games: every line that refers to an earlier discovery is shown only
    when it happened (#13 item 15: the arm 「さっきまで自分たちを苦しめていた」 with no arm met,
    「バスタブの脇で見つけたもの」 with the bathtub never searched, a door blown in and then
    「扉を閉めた」)."""
    import random
    import re

    from runner.engine import available, new_game, step

    table = [(re.compile(p), why, cond) for p, why, cond in REFERS_BACK]
    seen: dict[str, int] = {why: 0 for _, why, _ in table}
    for seed in range(GAMES):
        rnd = random.Random(seed)
        st, evs = new_game(story, seed)
        prev = st
        while True:
            for e in evs:
                if e["type"] != "narration" or e.get("keeper"):
                    continue
                for rx, why, cond in table:
                    if rx.search(e["text"]):
                        seen[why] += 1
                        assert cond(prev, st), f"seed {seed}: {e['text'][:60]!r} without {why}"
            if st.ending is not None or st.turn >= 150:
                break
            choices = [c for c in available(story, st) if c.n]
            if not choices:
                break
            prev = st
            st, evs = step(story, st, rnd.choice(choices), tail_events=False)
    # The walk reaches the lines it guards (else it would prove nothing).
    for why in (
        "an arm fought before",
        "a door that can still shut",
        "the glasses in hand",
        "a first look before",
    ):
        assert seen[why] > 0, (why, seen)
