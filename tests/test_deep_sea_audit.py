"""Second-look audit of the deep-sea atelier against its source: each test checks, in play
through the real headless interface, a fact the first pass missed or got wrong (the fact
table tests/facts/deep_sea_atelier.yaml names each one as ``test_deep_sea_audit.py::name``).

Percentile faces are a tens d10 then a units d10 (10 reads 0): [1, 10] is 10, [9, 9] is 99,
[10, 1] is 01. Pregen 1 (黒田) is a native Japanese speaker, Luck 50, Spot 60, Throw 20,
Dodge 55; pregen 4 (エマ) is English with Language (Japanese) 1.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import said, states

from runner.story import load
from runner.ui.jsonl import turns

ROOT = Path(__file__).resolve().parents[1]
STORY_DIR = ROOT / "stories" / "deep_sea_atelier"

LIT = ["pregen1", "take_lighter", "wake", "use_lighter", "switch_on"]
DARK = ["pregen1", "wake", "grope_room"]
# lit, the glasses on, all three books found by their spines (10:00 -> 11:10, after the shake)
BOOKS = [*LIT, "go_carpet", "search", "open_case", "wear_glasses", "back", "go_shelf", "way_spines"]


@pytest.fixture(scope="module")
def story():
    return load(STORY_DIR)


def play(story, *lines: str, seed: int = 0, gm: bool = True) -> list[dict]:
    evs = list(turns(story, list(lines), seed=seed, gm=gm))
    errors = [e for e in evs if e["type"] == "error"]
    assert not errors, errors
    return evs


def last(evs) -> dict:
    return states(evs)[-1]


def offered(evs) -> list[str]:
    return [a["id"] for a in evs[-1].get("actions", [])]


def rolls(evs, label: str = "") -> list[dict]:
    return [e for e in evs if e["type"] == "roll" and label in str(e.get("label", ""))]


def delta(evs) -> int:
    c = [s["clock"] for s in states(evs)]
    return c[-1] - c[-2]


def gvars(evs) -> dict:
    return last(evs)["gm"]["all_vars"]


# ---------------------------------------------------------------- a second look costs 30 min


def test_failed_check_needs_a_second_look(story) -> None:
    """ "もう一度調べ直すのに30分": a failed groove check comes back only after a re-search."""
    evs = play(story, *LIT, "go_carpet", "search", "flip", ":dice 9,9", "groove_look")
    assert "groove_look" not in offered(evs) and "groove_touch" in offered(evs)
    evs = play(story, *LIT, "go_carpet", "search", "flip", ":dice 9,9", "groove_look", "research")
    assert delta(evs) == 30 and "groove_look" in offered(evs)
    evs = play(
        story,
        *LIT,
        "go_carpet",
        "search",
        "flip",
        ":dice 9,9",
        "groove_look",
        "research",
        ":dice 1,10",
        "groove_look",
    )
    assert gvars(evs)["groove"] is True


def test_failed_cabinet_and_language_need_a_second_look(story) -> None:
    evs = play(story, *LIT, "go_kitchen", "search", ":dice 9,9", "cabinet")
    assert "cabinet" not in offered(evs) and "奥までは見えない" in said(evs)
    evs = play(
        story,
        *LIT,
        "go_kitchen",
        "search",
        ":dice 9,9",
        "cabinet",
        "research",
        ":dice 1,10",
        "cabinet",
    )
    assert last(evs)["inventory"].get("powder")
    emma = ["pregen4", "take_lighter", "wake", "use_lighter", "switch_on", "go_carpet", "search"]
    evs = play(story, *emma, ":dice 9,9", "notebook_ja")
    assert "notebook_ja" not in offered(evs)
    assert "notebook_ja" in offered(play(story, *emma, ":dice 9,9", "notebook_ja", "research"))


# ---------------------------------------------------------------- books


def test_tools_dictionary_tells_only_the_items_held(story) -> None:
    """ "探索者が持っているアイテムの内容がわかりました": the glasses, not the drink or powder."""
    evs = play(story, *BOOKS, "td_read")
    v = gvars(evs)
    assert delta(evs) == 60
    assert v["know_glasses"] is True and v["know_drink"] is False and v["know_powder"] is False
    assert "翻訳眼鏡：" in said(evs) and "深海で泳げる薬：" not in said(evs)


def test_tools_dictionary_luck_table_and_held_item_lookup(story) -> None:
    evs = play(story, *BOOKS, ":dice 1,10,2", "td_luck")  # 1d3 = 2: the drink
    assert delta(evs) == 10 and gvars(evs)["know_drink"] is True
    assert gvars(evs)["know_glasses"] is False
    evs = play(story, *BOOKS, ":dice 1,10", "td_glasses")  # held item, Luck success: 0 min
    assert delta(evs) == 0 and gvars(evs)["know_glasses"] is True
    evs = play(story, *BOOKS, ":dice 9,9", "td_glasses")  # failure: 10 min
    assert delta(evs) == 10 and gvars(evs)["know_glasses"] is True


def test_luck_pick_table_and_duplicates(story) -> None:
    shelf = [*LIT, "go_shelf"]
    assert last(play(story, *shelf, ":dice 1,10,1", "way_luck"))["inventory"].get("magic_dict")
    assert last(play(story, *shelf, ":dice 1,10,2", "way_luck"))["inventory"].get("gun_box")
    assert last(play(story, *shelf, ":dice 1,10,3", "way_luck"))["inventory"].get("tools_dict")
    evs = play(story, *shelf, ":dice 1,10,2", "way_luck", ":dice 1,10,2", "way_luck")
    inv = last(evs)["inventory"]
    assert inv.get("gun_box") and inv.get("magic_dict")  # the keeper hands another book
    evs = play(story, *shelf, ":dice 9,9", "way_luck")
    assert delta(evs) == 10 and "小説" in said(evs)


def test_circle_by_illustration_thirty_minutes_only_when_unknown(story) -> None:
    groove = ["flip", ":dice 1,10", "groove_look"]
    unknown = [
        *LIT,
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        *groove,
        "back",
        "go_shelf",
        "way_spines",
    ]
    evs = play(story, *unknown, "md_circle")
    assert delta(evs) == 30 and gvars(evs)["circle_identified"] is True
    assert "md_circle_known" not in offered(play(story, *unknown))
    evs = play(story, *unknown, "md_read", "md_circle_known")
    assert delta(evs) == 0 and gvars(evs)["circle_identified"] is True


def test_reading_every_book_lasts_until_the_owner_returns(story) -> None:
    # Lit at 10:00, the reading runs past the forced door (16:00) too: it comes first (DA-23).
    # (":dice 1,10": the forced door's Sanity roll succeeds, no bout of madness to wait out)
    evs = play(story, *BOOKS[:-1], ":dice 1,10", "read_everything")
    st = last(evs)
    assert st["node"] == "door_encounter" and st["time"] == "20:00"
    st = last(play(story, *BOOKS[:-1], ":dice 1,10", "read_everything", "fight"))
    assert st["node"] == "wizard" and st["time"] == "20:00"


# ---------------------------------------------------------------- time and events


def test_hunger_after_six_and_a_half_hours(story) -> None:
    """ "6～7時間が経過した時に、探索者たちはお腹が空いたことに気付く"."""
    evs = play(story, *DARK, "go_carpet", "search", *["research"] * 10)
    assert last(evs)["time"] == "16:00" and "腹が鳴った" not in said(evs)
    evs = play(story, *DARK, "go_carpet", "search", *["research"] * 11)
    assert last(evs)["time"] == "16:30" and "腹が鳴った" in said(evs)


def test_events_wait_for_the_lamp(story) -> None:
    """DA-06: the shake falls due in the dark and happens when the lamp is next switched on."""
    evs = play(story, *LIT, "switch_off", "go_carpet", "search", "research", "research", "back")
    assert "shake" not in last(evs)["gm"]["fired"] and last(evs)["clock"] == 120
    evs = play(
        story,
        *LIT,
        "switch_off",
        "go_carpet",
        "search",
        "research",
        "research",
        "back",
        ":dice 1,10",
        "switch_on",
    )
    assert "shake" in last(evs)["gm"]["fired"] and gvars(evs)["tentacle"] is True
    assert gvars(evs)["lit_at"] == 0  # still keyed to the first light-on


def test_forced_door_even_when_already_open(story) -> None:
    """DA-23: the door was opened before the shake (no knock); at +6 h two arms come anyway."""
    evs = play(
        story,
        *LIT,
        "go_bed",
        "search",
        "case",
        "back",
        "go_entrance",
        "gold_key",
        "open_door",
        ":dice 9,9,1",
        "search",
        *["research"] * 9,
    )
    st = last(evs)
    assert st["clock"] == 360 and st["node"] == "door_encounter"
    assert "burst" in st["gm"]["fired"] and "knock" not in st["gm"]["fired"]


# ---------------------------------------------------------------- window views and SAN


def test_same_view_costs_sanity_once(story) -> None:
    evs = play(
        story, *LIT, "go_window", ":dice 9,9,3", "open_curtain", "close_curtain", "open_curtain"
    )
    assert len(rolls(evs, "正気度ロール")) == 1


def test_opening_the_window_shows_the_eye_first(story) -> None:
    """Curtain opened before the shake (0/1D3); the window opened after it: the eye, 1/1D10."""
    evs = play(
        story,
        *LIT,
        "go_window",
        ":dice 9,9,1",
        "open_curtain",
        "back",
        "go_carpet",
        "search",
        "back",
        "go_window",
        ":dice 8,8,7",
        "open_window",
    )
    loss = [e for e in evs if e["type"] == "roll" and e.get("label") == "正気度喪失"]
    assert [x["expr"].lower() for x in loss] == ["1d3", "1d10"]
    assert "目玉" in said(evs) and last(evs)["node"] == "window_encounter"


# ---------------------------------------------------------------- the tentacle


def test_glasses_do_not_help_talking(story) -> None:
    """DA-01: the glasses translate writing, not speech."""
    emma = [
        "pregen4",
        "take_lighter",
        "wake",
        "use_lighter",
        "switch_on",
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        "back",
        "go_window",
        "open_curtain",
        "open_window",
    ]
    evs = play(story, *emma, ":dice 9,9", "talk")
    r = rolls(evs)[-1]
    assert "ほかの言語(日本語)" in r["label"] and r["target"] == 1 and r["difficulty"] == "extreme"


def test_held_investigator_must_dodge_at_extreme(story) -> None:
    """The wrap holds; a held investigator's Hard dodge no longer beats a Regular hit."""
    fight = [
        *LIT,
        "go_carpet",
        "search",
        "back",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
    ]
    free = play(story, *fight, ":dice 1", "wait", ":dice 3,1,2,1", "dodge")
    assert "ダメージ" not in said(free).split("「叩く」")[-1]
    held = play(
        story,
        *fight,
        ":dice 3",
        "wait",
        ":dice 1,1,9,9",
        "dodge",
        ":dice 1",
        "wait",
        ":dice 3,1,2,1,3,3",
        "dodge",
    )
    assert "捕らえられた" in said(held)
    assert rolls(held, "黒田 剛:回避")[-1]["level"] == "hard"
    assert "6 ダメージ" in said(held).split("「叩く」")[-1]


def test_anything_that_burns_can_be_thrown(story) -> None:
    """ "本を燃やしても…食料を燃やしても": with only packaged food and a lighter, it burns."""
    base = [
        *LIT,
        "go_kitchen",
        "search",
        "fridge",
        "take_packaged",
        "back",
        "go_window",
        "open_curtain",
        "open_window",
        "fight",
    ]
    evs = play(story, *base)
    assert "throw_fire" in offered(evs)
    evs = play(story, *base, ":dice 1,10,5", "throw_fire")
    assert not last(evs)["inventory"].get("packaged_food")
    assert "close" in offered(evs)  # dazed: it can be shut out


# ---------------------------------------------------------------- what the player sees


def test_inventory_keeps_the_keepers_secrets(story) -> None:
    """Item names and descriptions show in the inventory: no effect before it is learned."""
    items = story.items
    assert "翻訳" not in items["glasses"].name
    assert "魔法" not in items["powder"].description
    assert "好物" not in items["seafood"].description and "触腕" not in items["seafood"].description
    assert "家主" not in items["robe"].name
    assert "玄関" not in items["gold_key"].description
    assert "箱" not in items["gun_box"].description
    assert story.variables["glasses_on"].label != "翻訳眼鏡"


def test_no_latin_letters_in_player_text(story) -> None:
    """Japanese text only, apart from game terms (DEX, SIZ, MP, dice, M360J). A ``{…}`` part
    is worked out when shown (the pregens' ``{coc7.pregen_label(1)}``, checked as shown in
    tests/test_pregen_labels.py): its code is not text."""
    allowed = {"DEX", "SIZ", "MP", "D", "M", "J"}
    for nid, node in story.nodes.items():
        texts = [n.text for n in node.narration] + [a.label for a in node.actions]
        for t in texts:
            t = re.sub(r"\{[^{}]*\}", "", t)
            for w in re.findall(r"[A-Za-z]+", t):
                assert w in allowed, (nid, w, t[:40])


# ---------------------------------------------------------------- third pass (source re-read)


def test_waiting_with_the_lamp_on_meets_each_event_in_time(story) -> None:
    """Giving up and waiting for the owner does not skip the lit room's events: the shake at
    +1 h, the knock at +3 h and the forced door at +6 h each come at their time (DA-03, DA-23);
    with the lamp off, nothing comes and the owner is home at 20:00 (DA-06)."""
    evs = play(story, *LIT, "wait_owner")
    assert last(evs)["time"] == "11:00" and last(evs)["gm"]["fired"] == ["shake"]
    evs = play(story, *LIT, "wait_owner", "wait_owner")
    assert last(evs)["time"] == "13:00" and "ガン、ガン" in said(evs)
    evs = play(story, *LIT, "wait_owner", "wait_owner", "wait_owner")
    st = last(evs)
    assert st["time"] == "16:00" and st["node"] == "door_encounter"
    assert "burst" in st["gm"]["fired"] and "wizard" not in st["gm"]["fired"]
    evs = play(story, *LIT, "wait_owner", "switch_off", "wait_owner")
    st = last(evs)
    assert st["time"] == "20:00" and st["node"] == "wizard" and "burst" not in st["gm"]["fired"]


def test_forced_door_comes_before_the_owner_after_a_long_action(story) -> None:
    """A six-hour book search begun at 14:30 (lit at 10:00) runs past 16:00 and 20:00: the
    forced door still happens (DA-23), then the owner comes home (a fight stops, DA-28); a
    swimmer who slips out keeps swimming."""
    late = [
        *LIT,
        "go_carpet",
        "search",
        "open_case",
        "wear_glasses",
        *["research"] * 7,
        "back",
        "go_shelf",
        ":dice 1,10",
        "way_all",
    ]  # the door's Sanity roll succeeds
    st = last(play(story, *late))
    assert st["time"] == "20:30" and st["node"] == "door_encounter"
    assert "burst" in st["gm"]["fired"] and "wizard" not in st["gm"]["fired"]
    evs = play(story, *late, "fight")
    assert last(evs)["node"] == "wizard" and "戦いのさなか" in said(evs)
    assert last(play(story, *late, ":dice 9,9", "talk"))["node"] == "wizard"
    st = last(play(story, *late, "slip_out"))
    assert st["node"] == "swim" and "wizard" not in st["gm"]["fired"]


def test_the_deep_through_the_door_is_its_own_scene(story) -> None:
    """The window's view and the open door's view before the shake are two scenes, each with
    its own SAN 0/1D3 (DA-15: roll at every scene as written); the same view again is free."""
    evs = play(
        story,
        *LIT,
        "go_window",
        ":dice 9,9,1",
        "open_curtain",
        "back",
        "go_bed",
        "search",
        "case",
        "back",
        "go_entrance",
        "gold_key",
        ":dice 9,9,2",
        "open_door",
    )
    assert last(evs)["clock"] == 30 and "shake" not in last(evs)["gm"]["fired"]
    assert len(rolls(evs, "正気度ロール")) == 2
    evs = play(
        story,
        *LIT,
        "go_bed",
        "search",
        "case",
        "back",
        "go_entrance",
        "gold_key",
        ":dice 9,9,2",
        "open_door",
        "close_door",
        "open_door",
    )
    assert len(rolls(evs, "正気度ロール")) == 1


def test_only_an_investigator_who_knows_today_sees_a_modern_life(story) -> None:
    """Who lives here: one person; "現代を知る人物ならば" the life is a modern one too."""
    evs = play(story, *LIT, "survey", ":dice 1,10", "who_lives")
    assert "一人だけ" in said(evs) and "現代" in said(evs) and gvars(evs)["owner_info"] is True
    emma = ["pregen4", "take_lighter", "wake", "use_lighter", "switch_on"]
    evs = play(story, *emma, "survey", ":dice 1,1", "who_lives")
    assert "一人だけ" in said(evs) and "現代" not in said(evs)


def test_failed_spine_reading_comes_back_after_a_second_look(story) -> None:
    """As at the other places, a failed Language roll on the spines is tried again only after
    re-searching the shelf (30 min)."""
    shelf = [*LIT, "go_shelf", ":dice 9,9", "spines_la"]
    assert "spines_la" not in offered(play(story, *shelf))
    evs = play(story, *shelf, "research")
    assert delta(evs) == 30 and "spines_la" in offered(evs)
    evs = play(story, *shelf, "research", ":dice 10,1", "spines_la")
    assert gvars(evs)["read_la"] is True and "spines_la" not in offered(evs)


def test_a_handheld_light_still_finds_the_switch_after_groping(story) -> None:
    """ "明かり（スマートフォンやライターなど）をつければ…スイッチに気がつく": also once the
    investigator has started to grope round the dark room."""
    for item, act in (("take_phone", "use_phone"), ("take_lighter", "use_lighter")):
        evs = play(story, "pregen1", item, "wake", "grope_room")
        assert act in offered(evs)
        evs = play(story, "pregen1", item, "wake", "grope_room", act)
        assert "switch_on" in offered(evs) and last(evs)["clock"] == 0
