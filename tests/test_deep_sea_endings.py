"""Seeded automatic playthroughs of the deep-sea atelier reach each of the five endings.

Each bot sees only the ``prompt`` events of the real headless interface and picks the first
offered action in its plan's order of preference (an action may be used a limited number of
times, so a failed check is retried but the bot never loops). The genocide bot also feeds
the table's dice (``:dice``) so that a lone investigator can win ten fights in a row.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from runner.engine import new_game, step
from runner.story import load

STORY = Path(__file__).resolve().parents[1] / "stories" / "deep_sea_atelier"


@pytest.fixture(scope="module")
def story():
    return load(STORY)


ONCE = ("go_", "back", "way_", "search", "pregen", "take_", "wake", "switch_on", "use_")


def play(
    story, seed: int, prefs: list[str], *, limit: int = 400, uses: int = 6, dice_for=None
) -> tuple[dict, list[dict]]:
    """Greedy bot: at each prompt, the first preferred action offered (moves and searches
    once per place, other actions at most ``uses`` times per place). Returns the ending
    event and every event seen."""
    state, events = new_game(story, seed)
    seen = list(events)
    used: Counter = Counter()
    for _ in range(limit):
        last = seen[-1]
        if last["type"] == "ending":
            return last, seen
        offered = [a["id"] for a in last["actions"]]
        choice = None
        for p in prefs:
            cap = 1 if p.startswith(ONCE) else uses
            if p in offered and used[(state.node, p)] < cap:
                choice = p
                break
        assert choice is not None, f"bot stuck at {state.node}: offered {offered}"
        used[(state.node, choice)] += 1
        dice = dice_for(choice) if dice_for else None
        state, events = step(story, state, choice, dice=dice)
        seen += events
    raise AssertionError(f"no ending after {limit} commands (at {state.node})")


def texts(events: list[dict]) -> str:
    return "\n".join(e["text"] for e in events if e["type"] == "narration")


def test_good_end_by_the_transfer_spell(story) -> None:
    prefs = [
        "pregen2",
        "take_lighter",
        "wake",
        "use_lighter",
        "switch_on",
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        "flip",
        "groove_look",
        "groove_touch",
        "cast_spell",
        "chant",
        "go_shelf",
        "way_spines",
        "md_luck",
        "md_skim",
        "back",
    ]
    # A failed groove check is tried again only after a 30-minute re-search (the source's
    # time for a second look), so the table's dice find the groove at the first look.
    end, evs = play(
        story, 7, prefs, uses=30, dice_for=lambda c: [1, 10] if c == "groove_look" else None
    )
    assert (end["id"], end["kind"]) == ("spell_home", "good")
    assert "イトゥス・エト・レディトゥス" in texts(evs)


def test_normal_end_by_swimming_up(story) -> None:
    prefs = [
        "pregen3",
        "wake",
        "grope_room",
        "go_kitchen",
        "search",
        "fridge",
        "take_drink",
        "drink",
        "go_window",
        "open_curtain",
        "open_window",
        "swim_out",
        "up",
        "back",
    ]
    for seed in range(40):
        end, evs = play(story, seed, prefs, uses=40)
        if end["id"] == "swim_surface":
            break
    assert (end["id"], end["kind"]) == ("swim_surface", "normal")
    assert "薬が水圧と冷たさを退ける" in texts(evs)  # the drink: MP instead of 3d3


def test_normal_end_when_the_wizard_comes_home(story) -> None:
    # The source's ordinary, safe way home: not a bad end (#13 item 19).
    prefs = ["pregen1", "wake", "grope_room", "wait_owner", "explain"]
    end, evs = play(story, 1, prefs)
    assert (end["id"], end["kind"]) == ("wizard_return", "normal")
    states = [e for e in evs if e["type"] == "state"]
    assert states[-1]["time"] == "20:00"


def test_death_end_fighting_the_arm(story) -> None:
    prefs = [
        "pregen2",
        "wake",
        "grope_switch",
        "switch_on",
        "go_carpet",
        "search",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
        "attack",
        "fight_back",
        "back",
    ]
    end, evs = play(story, 3, prefs, uses=200)
    assert (end["id"], end["kind"]) == ("death", "death")


def test_bad_end_genocide_with_the_tables_dice(story) -> None:
    # The source's 番外エンド「バッドエンド じぇのさいど」: the one bad end (#13 item 19).
    # Every attack the investigator makes rolls 01 and every arm's roll is 100.
    def dice_for(choice: str):
        if choice == "attack":
            return [10, 1, 10, 10]  # own 01 (critical), the arm's fight back 100
        if choice == "dodge":
            return [10, 10, 10, 1]  # the arm's attack 100, own dodge 01
        return None

    prefs = ["pregen1", "wake", "grope_room", "wait_owner", "hostile", "insist", "attack", "dodge"]
    end, evs = play(story, 5, prefs, uses=10_000, limit=1000, dice_for=dice_for)
    assert (end["id"], end["kind"]) == ("genocide", "bad")
    waves = [e for e in evs if e["type"] == "narration" and "なだれ込んでくる" in e["text"]]
    starts = [
        e["text"] for e in evs if e["type"] == "narration" and e["text"].startswith("戦闘開始")
    ]
    arms = sum(t.count("触腕") for t in starts)
    assert arms == 10 and all(2 <= t.count("触腕") <= 3 for t in starts)
    assert len(waves) == len(starts)
