"""硝子の温室 (stories/ureg_glass_greenhouse): endings through --jsonl, a seeded bot for
every character, and the UREG hooks it relies on (floors, continue, flowers, combat)."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from runner.engine import new_game, step
from runner.story import load
from runner.ui.jsonl import turns

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "stories" / "ureg_glass_greenhouse"
SOLO = ["inspiration", "nimbleness", "strength", "dexterity", "night_vision", "littleness"]

# Key actions for a full victory that every character can do (the universal ways).
FULL = [
    "look_clock",
    "dig_pot",
    "take_flashlight",
    "take_box",
    "pick_red",
    "unlock_door",
    "talk_ally",
    "stairs_box",
    "go_up",
    "take_crowbar",
    "take_stepladder",
    "take_curtain",
    "fight_plan",
    "skylight_step",
]
PARTIAL = [a for a in FULL if a != "talk_ally"]
FAILURE = ["take_box", "stairs_box", "go_up", "fight_bare"]


@pytest.fixture(scope="module")
def story():
    return load(STORY)


def bot(
    story,
    first: list[str],
    plan: list[str],
    seed: int,
    *,
    tick: int = 0,
    max_turns: int = 400,
    gm: bool = False,
) -> tuple[str | None, list[dict]]:
    """Plays through ``turns``: the next plan action when the prompt offers it, otherwise a
    seeded random move between rooms. With ``tick``, reports that many real seconds after
    every command (as a front end does). Returns the ending id and every event."""
    rng = random.Random(seed)
    todo = deque(first)
    lines: deque[str] = deque()
    pending = list(plan)
    events: list[dict] = []

    def feed():
        while lines:
            yield lines.popleft()

    n = 0
    for ev in turns(story, feed(), seed=seed, gm=gm):
        events.append(ev)
        if ev["type"] == "ending":
            return ev["id"], events
        if ev["type"] != "prompt" or lines:
            continue  # a queued time report answers this prompt
        n += 1
        if n > max_turns:
            break
        ids = [a["id"] for a in ev["actions"]]
        if todo:
            cmd = todo.popleft()
        elif pending and pending[0] in ids:
            cmd = pending.pop(0)
        else:
            moves = [i for i in ids if i.startswith(("go_", "back_", "leave_"))]
            cmd = rng.choice(moves)
        lines.append(cmd)
        if tick:
            lines.append(f"@time_passed {tick}")
    return None, events


def texts(events):
    return [e["text"] for e in events if e["type"] == "narration"]


@pytest.mark.parametrize("who", SOLO)
@pytest.mark.parametrize("seed", [1, 7])
def test_bot_reaches_full_victory_with_every_character(story, who, seed):
    ending, ev = bot(story, [who], FULL, seed)
    assert ending == "full_victory", texts(ev)[-5:]
    last = [e for e in ev if e["type"] == "state"][-1]["ureg"]
    assert last["characters"][0]["status"] == "escaped"
    assert (
        "npcs" not in last
    )  # the story's NPCs are the keeper's list, not the player's (#13 item 25)
    _, gev = bot(story, [who], FULL, seed, gm=True)
    gm = [e for e in gev if e["type"] == "state"][-1]["ureg"]
    assert {"id": "tsugumi", "name": "ツグミ", "kind": "ally", "status": "escaped"} in gm["npcs"]


@pytest.mark.parametrize("seed", [2, 3])
def test_bot_reaches_partial_victory_leaving_the_ally(story, seed):
    ending, ev = bot(story, ["inspiration"], PARTIAL, seed)
    assert ending == "partial_victory"


@pytest.mark.parametrize("seed", [4, 5])
def test_bot_reaches_failure_fighting_bare_handed(story, seed):
    ending, ev = bot(story, ["inspiration"], FAILURE, seed)
    assert ending == "failure" and "あなたは消滅した。" in texts(ev)


def test_bot_that_dawdles_runs_out_of_real_time(story):
    ending, ev = bot(story, ["inspiration"], [], 9, tick=60)
    assert ending == "time_up"
    spent = [e for e in ev if e["type"] == "state"][-1]["ureg"]["time_spent"]
    assert spent == 30 * 60


def test_bot_with_a_party_of_two(story):
    ending, ev = bot(story, ["duo", "a_night_vision", "b_littleness"], FULL, 11)
    assert ending == "full_victory"
    chars = [e for e in ev if e["type"] == "state"][-1]["ureg"]["characters"]
    assert [c["name"] for c in chars] == ["あなた", "相棒"] and all(
        c["status"] == "escaped" for c in chars
    )


def _jsonl(lines):
    return list(turns(load(STORY), iter(lines), seed=3))


def test_jsonl_in_process_each_ending():
    full = [
        "inspiration",
        "look_clock",
        "go_greenhouse",
        "dig_pot",
        "take_flashlight",
        "take_box",
        "pick_red",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "talk_ally",
        "leave_storeroom",
        "stairs_box",
        "go_up",
        "go_library",
        "take_crowbar",
        "take_stepladder",
        "back_gallery",
        "take_curtain",
        "fight_plan",
        "go_dome",
        "skylight_step",
    ]
    for lines, want, kind in (
        (full, "full_victory", "good"),
        ([x for x in full if x != "talk_ally"], "partial_victory", "partial"),
        (["inspiration", "give_up"], "failure", "failure"),
        (["inspiration", "@time_passed 1800"], "time_up", "failure"),
    ):
        ev = _jsonl(lines)
        assert ev[-1] == {"type": "ending", "id": want, "kind": kind, "title": ev[-1]["title"]}
        assert ev[-2]["type"] == "state"
        # Every turn closes with one state and one prompt or ending.
        closers = [e["type"] for e in ev if e["type"] in ("prompt", "ending")]
        assert closers.count("ending") == 1 and len(closers) == len(lines) + 1


def test_jsonl_subprocess_full_victory():
    cmds = [
        "inspiration",
        "go_greenhouse",
        "dig_pot",
        "take_flashlight",
        "take_box",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "talk_ally",
        "leave_storeroom",
        "stairs_box",
        "go_up",
        "go_library",
        "take_stepladder",
        "take_crowbar",
        "back_gallery",
        "take_curtain",
        "fight_plan",
        "go_dome",
        "skylight_ladder",
    ]
    out = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(STORY), "--jsonl", "--seed", "1"],
        input="\n".join(cmds) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        encoding="utf-8",
    )
    assert out.returncode == 0, out.stderr
    ev = [json.loads(x) for x in out.stdout.splitlines()]
    assert ev[-1]["type"] == "ending" and ev[-1]["id"] == "full_victory"
    assert ev[-2]["type"] == "state" and ev[-2]["ureg"]["time_limit"] == 1800
    assert any("脚立 4 m + 手の届く高さ 2 m = 6 m ≥ 4.5 m" in e.get("text", "") for e in ev)


# ---- the hooks the scenario relies on ----


def play(story, *commands):
    st, ev = new_game(story, 1)
    seen = []
    for c in commands:
        st, ev = step(story, st, c)
        seen += texts(ev)
    return st, seen


def test_floors_leave_first_floor_items_and_give_them_back(story):
    st, seen = play(
        story,
        "inspiration",
        "go_greenhouse",
        "take_box",
        "take_flashlight",
        "pick_red",
        "back_hall",
        "stairs_box",
        "go_up",
    )
    assert st.rules["ureg"]["floor"] == "2F"
    assert set(st.inventory) == {"rose_red"}  # flowers carry everywhere, floor items do not
    assert st.rules["ureg"]["left"]["1F"] == {"box": 1, "flashlight": 1}
    st, ev = step(story, st, "go_down")
    assert st.inventory == {"rose_red": 1, "box": 1, "flashlight": 1}
    assert any("拾い直した" in t for t in texts(ev))


def test_continue_keeps_the_character_and_the_watch_and_skips_selection(story):
    st, seen = play(
        story,
        "strength",
        "look_clock",
        "go_greenhouse",
        "take_box",
        "back_hall",
        "stairs_box",
        "go_up",
        "fight_bare",
    )
    assert st.node == "hall" and st.inventory == {"pocket_watch": 1}
    assert st.stats["pc"]["good"] == "強力" and st.stats["pc"]["status"] == "in"
    assert st.stats["warden"]["status"] == "in" and st.rules["ureg"]["continues"] == 1
    assert st.rules["ureg"].get("floor") == "1F" and not st.rules["ureg"].get("left")


def test_one_flower_colour_at_a_time_and_a_flower_takes_the_blow(story):
    st, seen = play(story, "inspiration", "go_greenhouse", "pick_red", "pick_white")
    assert st.inventory == {"rose_red": 1}
    st, seen = play(story, "inspiration", "go_greenhouse", "pick_white", "pick_red", "pick_red")
    assert st.inventory == {"rose_white": 1}


def test_the_warden_fights_by_numbers_and_keeps_its_power_to_the_keeper(story):
    assert story.characters["warden"].stats["power"] == 2
    st, seen = play(
        story,
        "strength",
        "go_greenhouse",
        "take_box",
        "back_hall",
        "stairs_box",
        "go_up",
        "go_library",
        "take_crowbar",
        "back_gallery",
        "fight_crowbar",
    )
    # #13 item 25: the player meets 硝子の番人 in the text, never its power (a keeper stat).
    assert any("硝子の番人はドームの扉の前から動かない" in t for t in seen)
    assert not any("戦力2" in t or "戦力 2" in t or "対 2" in t for t in seen), seen
    # 〈○強力〉 1.5 + バール 1 = 2.5 against 2: under 1 apart is even (UA-03), damage taken.
    assert any("2.5 → 対等" in t for t in seen)
    assert st.ending == "failure"


def test_every_solo_character_has_a_way_through_each_obstacle(story):
    """The ability ways, one per character, on top of the universal ones."""
    cases = {
        # The ability actions appear once the player has looked at the obstacle (the door's
        # lock, the reach to the landing): the menu never hands out the way through first.
        "strength": (["try_door", "break_door"], "〈○強力〉の力で物置の扉を壊した"),
        "dexterity": (["open_drawer", "try_door", "pick_door"], "針金で物置の扉の鍵を開けた"),
        "nimbleness": (["stairs_reach", "stairs_rail"], "手すりを蹴って"),
        "inspiration": (["hint"], "温室の植木鉢"),
    }
    for who, (cmds, want) in cases.items():
        st, seen = play(story, who, *cmds)
        assert any(want in t for t in seen), (who, seen[-3:])
    st, seen = play(story, "littleness", "go_greenhouse", "take_box", "back_hall", "stairs_box")
    assert "木箱 1 m + 手の届く高さ（×低身長） 1.5 m = 2.5 m ≥ 2.5 m。届いた！" in seen
    assert st.vars["stairs_open"] is True


def test_hooks_chosen_party_and_named_pc(story):
    st, _ = play(story)
    from runner.engine.engine import Ctx
    from runner.rules.dice import SeededDice

    ctx = Ctx(story, st.copy(), False, SeededDice(0))
    assert ctx.call("ureg.chosen") is False and ctx.call("ureg.party") == 1
    ctx.call("ureg.choose", "Strength", "pc2", "相棒")
    assert ctx.call("ureg.chosen") is True and ctx.call("ureg.party") == 2
    assert ctx.state.stats["pc2"]["name"] == "相棒"


def test_after_a_continue_the_clock_no_longer_holds_a_second_watch(story):
    # The watch stays in hand through a continue (コンティニュー); it is not back in the clock.
    st, seen = play(story, "inspiration", "look_clock", "wind_watch")
    assert st.inventory == {"pocket_watch": 1}
    from runner.engine import available

    assert "look_clock" not in [c.id for c in available(story, st)]
    st, _ = step(story, st, "look_clock")
    assert st.inventory == {"pocket_watch": 1}


def test_tsugumi_holds_the_ladder_only_when_she_is_with_you(story):
    # 〈×鈍重〉 climbs a ladder only while someone holds it (UA-14); the ally cooperates with a
    # proposal, but only once she has been found and follows the party.
    base = [
        "night_vision",
        "go_greenhouse",
        "dig_pot",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "take_ladder",
        "leave_storeroom",
    ]
    st, seen = play(story, *base, "梯子をツグミに支えてもらって階段に登る")
    assert st.vars["stairs_open"] is False and "stairs" not in st.rules["ureg"]["solved"]
    assert any("ツグミはここにいない" in t for t in seen)
    with_her = base[:6] + ["talk_ally"] + base[6:]
    st, seen = play(story, *with_her, "梯子をツグミに支えてもらって階段に登る")
    assert st.vars["stairs_open"] is True
    assert any("ツグミが梯子の脚を両手で押さえてくれた" in t for t in seen)


def test_a_rose_that_falls_from_the_hand_can_be_picked_again(story):
    # UA-08: a flower of another colour cannot be held and falls; it is not destroyed.
    from runner.engine import available

    st, seen = play(story, "inspiration", "go_greenhouse", "pick_white", "pick_red", "pick_red")
    assert st.inventory == {"rose_white": 1}
    assert "pick_red" in [c.id for c in available(story, st)]
    st, seen = play(story, "inspiration", "go_greenhouse", "pick_red", "pick_white")
    assert st.inventory == {"rose_red": 1}
    assert "pick_white" in [c.id for c in available(story, st)]
    # Held ones count: two red roses grow there, one white.
    st, seen = play(story, "inspiration", "go_greenhouse", "pick_red", "pick_red", "pick_white")
    assert st.inventory == {"rose_red": 2}
    assert "pick_red" not in [c.id for c in available(story, st)]


def test_the_duct_takes_the_party_only_if_everyone_is_small(story):
    # 〈○小柄〉 passes spaces ordinary people cannot; the party moves as one, so an ordinary
    # partner cannot come through the duct with a small one.
    up = ["go_greenhouse", "take_box", "back_hall", "stairs_box", "go_up", "go_library"]
    st, seen = play(story, "duo", "a_inspiration", "b_littleness", *up, "crawl_duct")
    assert st.node == "library" and any("あなたは〈○小柄〉ではなく" in t for t in seen)
    st, seen = play(
        story, "duo", "a_inspiration", "b_littleness", *up, "相棒が通気ダクトに潜り込む"
    )
    assert st.node == "library"
    st, seen = play(story, "duo", "a_littleness", "b_littleness", *up, "crawl_duct")
    assert st.node == "catwalk"


@pytest.mark.parametrize(
    "a,b,ok",
    [
        ("a_inspiration", "b_inspiration", True),
        ("a_strength", "b_night_vision", True),  # 〈○強力〉 lifts 〈×鈍重〉, who pulls them up
        ("a_littleness", "b_littleness", True),  # anyone pulls up a 〈○小柄〉
        (
            "a_inspiration",
            "b_littleness",
            False,
        ),  # 〈×低身長〉 on top cannot pull an ordinary PC up
        ("a_night_vision", "b_inspiration", False),  # nobody ordinary pulls up 〈×鈍重〉
    ],
)
def test_a_shoulder_ride_up_the_stairs_needs_the_top_to_pull_the_bottom_up(story, a, b, ok):
    st, seen = play(story, "duo", a, b, "stairs_shoulder")
    assert st.vars["stairs_open"] is ok, seen[-2:]
    if not ok:  # the refusal gives one true reason (the highest ride tried)
        assert any("引っ張り上げられない" in t or "立ち肩車は上に" in t for t in seen)


def test_tsugumi_follows_up_the_stairs_only_if_she_can_climb_or_be_pulled_up(story):
    # 〈×非力〉 (like 〈×低身長〉) pulls up only a 〈○小柄〉: after the 〈○身軽〉 handrail leap,
    # the ordinary girl needs a box or a ladder to climb, or she waits below.
    from runner.engine import available

    meet = [
        "nimbleness",
        "go_greenhouse",
        "dig_pot",
        "take_flashlight",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "talk_ally",
        "leave_storeroom",
        "stairs_reach",
        "stairs_rail",
    ]
    st, seen = play(story, *meet)
    ids = [c.id for c in available(story, st)]
    assert "go_up" not in ids and "climb_alone" in ids
    st, seen = play(story, *meet, "climb_alone")
    assert st.node == "gallery" and st.vars["ally_with"] is False
    # Back in the hall she is still there, and comes along once a box is at hand.
    st, seen = play(
        story,
        *meet,
        "climb_alone",
        "go_down",
        "go_greenhouse",
        "take_box",
        "back_hall",
        "call_ally",
        "go_up",
    )
    assert st.node == "gallery" and st.vars["ally_with"] is True
    # An ordinary PC can pull her up without any box.
    st, seen = play(
        story,
        "inspiration",
        "go_greenhouse",
        "dig_pot",
        "take_flashlight",
        "take_box",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "talk_ally",
        "leave_storeroom",
        "stairs_box",
        "go_up",
    )
    assert st.node == "gallery" and st.vars["ally_with"] is True


UP = ["go_greenhouse", "take_box", "back_hall", "stairs_box", "go_up"]


def test_a_fight_may_use_any_swingable_item_as_an_improvised_weapon(story):
    # UA-04: an item not in the table that can be swung or thrown counts +0.5. The stepladder:
    # 1 + 0.5 = 1.5 against 2, under 1 apart: even (the PC takes damage, the warden falls).
    st, seen = play(
        story,
        "inspiration",
        "go_greenhouse",
        "pick_red",
        "take_box",
        "back_hall",
        "stairs_box",
        "go_up",
        "go_library",
        "take_stepladder",
        "back_gallery",
        "脚立で番人に殴りかかる",
    )
    assert any("脚立 0.5 = 1.5 → 対等" in t for t in seen), seen[-4:]
    assert st.vars["warden_gone"] is True and st.stats["warden"]["status"] == "neutralised"
    assert "rose_red" not in st.inventory  # the rose took the blow


def test_a_fight_lets_the_players_say_who_fights_and_who_holds_what(story):
    # 〈×非力〉's −0.5 goes once they hold any item (UA-04): the crowbar in the 〈×非力〉
    # partner's hands makes 1 + 1 + 1 = 3 against 2 (advantage, no damage) where the first
    # PC holding it makes 2 + 0.5 = 2.5 (even, both hurt).
    pre = [
        "duo",
        "a_inspiration",
        "b_nimbleness",
        *UP,
        "go_library",
        "take_crowbar",
        "back_gallery",
    ]
    st, seen = play(story, *pre, "相棒がバールで、あなたは素手で番人と戦う")
    assert any("= 3 → 有利" in t for t in seen), seen[-4:]
    assert all(st.stats[p]["status"] == "in" for p in ("pc", "pc2")) and st.vars["warden_gone"]
    # Only the PCs named fight; the one who stays out takes no damage (UA-01).
    st, seen = play(story, *pre, "相棒がバールで番人と戦う")
    assert any("相棒〈○身軽〉〈×非力〉 1 + バール 1 = 2 → 対等" in t for t in seen), seen[-4:]
    assert st.stats["pc"]["status"] == "in" and st.stats["pc2"]["status"] == "vanished"


def test_a_losing_fight_in_free_text_retreats_and_the_warden_stays(story):
    st, seen = play(
        story,
        "inspiration",
        "look_clock",
        "go_greenhouse",
        "pick_red",
        "take_box",
        "back_hall",
        "stairs_box",
        "go_up",
        "素手で番人と戦う",
    )
    assert any("1（素手） = 1 → 不利" in t for t in seen)
    assert any("回廊の入口まで転がって退いた" in t for t in seen)
    assert (
        st.node == "gallery"
        and not st.vars["warden_gone"]
        and "warden" not in st.rules["ureg"]["solved"]
    )


def test_the_special_hint_answers_the_obstacle_the_player_asks_about(story):
    # 〈○閃き〉: the player may choose what the one special hint is about.
    st, seen = play(story, "inspiration", "崩れた階段のヒントがほしい")
    assert "何か足場になる物を、階段の下に置けないだろうか。" in seen
    assert st.rules["ureg"]["hint_used"] is True
    st, seen = play(story, "inspiration", "ヒント")
    assert "鍵がないなら、温室の植木鉢を探ってみよう。" in seen


# ---- the English edition (#18) ----------------------------------------------------------


def _proposals_by_node() -> list[tuple[str, str]]:
    """Every ``ureg.propose('…')`` the story's own actions make, with the node it is made in."""
    out, node, in_nodes = [], None, False
    for line in (STORY / "story.yaml").read_text(encoding="utf-8").splitlines():
        if line.startswith("nodes:"):
            in_nodes = True
        elif in_nodes and len(line) > 2 and line[:2] == "  " and line[2] not in " #-":
            node = line.strip().rstrip(":")
        for text in re.findall(r"ureg\.propose\('([^']*)'\)", line):
            out.append((node, text))
    return out


def test_the_storys_own_proposals_read_the_same_in_every_language(story):
    """The actions' proposals are the story's code, not text a translator sees: they name
    things by id and say what they do with the rules' words for it, so a translation (whose
    obstacles and items answer to its own words) reads each one as the source does."""
    import importlib

    from runner.engine.engine import Ctx
    from runner.rules.dice import SeededDice
    from runner.story import translate as T

    parse = importlib.import_module("runner.rules.ureg.breakthrough.proposal").parse
    en = T.apply(story, "en")
    found = _proposals_by_node()
    assert len(found) >= 19
    for node, text in found:
        read = []
        for s in (story, en):
            st, _ = play(s, "duo", "a_inspiration", "b_strength")
            st.node = node
            st.inventory = {i: 1 for i in s.items}
            p = parse(Ctx(s, st, False, SeededDice(0)), text)
            read.append((p.items, p.missing, p.obstacles, p.pcs, sorted(p.intents)))
        assert read[0] == read[1], (node, text, read)
        assert read[0][0] or read[0][2], (node, text, "names no item and no obstacle")


@pytest.mark.parametrize("seed", [1, 2])
def test_the_english_edition_reaches_each_ending_in_english_names(story, seed):
    from runner.story import translate as T

    en = T.apply(story, "en")
    ending, ev = bot(en, ["inspiration"], FULL, seed)
    assert ending == "full_victory"
    chars = [e for e in ev if e["type"] == "state"][-1]["ureg"]["characters"]
    assert [c["name"] for c in chars] == ["You"]  # the partner joins only when chosen
    assert "You take Tsugumi by the hand and pull her up into the light." in texts(ev)
    ending, ev = bot(en, ["duo", "a_night_vision", "b_littleness"], FULL, seed)
    assert ending == "full_victory"
    chars = [e for e in ev if e["type"] == "state"][-1]["ureg"]["characters"]
    assert [c["name"] for c in chars] == ["You", "Partner"]
    ending, ev = bot(en, ["inspiration"], FAILURE, seed)
    assert ending == "failure"


def test_an_english_player_proposes_in_english_and_names_the_partner(story):
    from runner.story import translate as T

    en = T.apply(story, "en")
    st, seen = play(
        en,
        "duo",
        "a_littleness",
        "b_strength",
        "go_greenhouse",
        "take_box",
        "back_hall",
        "stairs_box",
        "go_up",
        "go_library",
        "take_crowbar",
        "back_gallery",
        "Partner attacks the warden with the crowbar",
    )
    assert any("Partner 1.5 + crowbar 1 = 2.5 → even" in t for t in seen), seen[-4:]
    assert st.vars["warden_gone"] is True
