"""coc7 at a real table (#13): what the rules say at the moments a player trips over.

Each test failed before its fix. Hook-level tests call the rule system's public hooks with
forced dice (tests/hook_context.py); story-level ones play the deep-sea story headless.
"""

from __future__ import annotations

from pathlib import Path

from hook_context import coc7_context, pct, tentacle_story

from runner.rules.coc7 import make_investigator
from runner.rules.dice import ManualDice

CHARS = {"STR": 50, "CON": 60, "SIZ": 65, "DEX": 70, "APP": 50, "INT": 75, "POW": 55, "EDU": 80}


def _ctx(faces: list[int], san: int = 50):
    ctx = coc7_context(ManualDice(faces), story=tentacle_story())
    s = make_investigator("A", CHARS, luck=50, skills={"水泳": 40})
    s["san"] = san
    ctx.state.stats["pc"] = s
    return ctx


# ---------------------------------------------------------------- item 4: sanity wording


def test_int_roll_after_indefinite_insanity_never_says_insanity_was_escaped() -> None:
    # SAN 50 loses 10 at once: a fifth of the day's SAN (indefinite, with a bout), and 5+
    # at once calls for the INT roll, which fails: no temporary insanity, but the
    # indefinite insanity stays. The old text said 「狂気は免れた」 right after 「不定の狂気」.
    ctx = _ctx(pct(80) + [10] + [2, 5] + pct(99))
    keys = ctx.call("coc7.san", "1/1d10")
    assert keys == ["indefinite", "insane", "failure"]
    text = "\n".join(ctx.texts())
    assert "不定の狂気に陥る" in text
    assert "狂気は免れた" not in text
    assert "一時的狂気にはならなかった" in text and "不定の狂気は消えない" in text
    assert ctx.state.stats["pc"]["cond"]["insane"] == "indefinite"


def test_int_roll_failure_alone_spares_temporary_insanity_only() -> None:
    ctx = _ctx(pct(80) + [6] + pct(99), san=60)  # 6 of 60: not a fifth; INT fails
    assert ctx.call("coc7.san", "1/1d10") == ["failure"]
    text = "\n".join(ctx.texts())
    assert "一時的狂気は免れた" in text and "不定" not in text


# ---------------------------------------------------------------- item 4: a failed dodge


def test_a_failed_swim_dodge_is_never_told_as_a_dodge() -> None:
    # One minute of the ascent: 3d3 pressure, a failed Swim up (10 m), then two arms attack;
    # each arm misses (fumbles) and the swimmer's Swim dodge fails too.
    arm = [1] + pct(99) + pct(99)
    ctx = _ctx([1, 1, 1] + pct(99) + arm + arm)
    ctx.call("coc7.ascent_begin", "tentacle", 2, 200, 50)
    keys = ctx.call("coc7.ascent_turn", "up", False)
    text = "\n".join(ctx.texts())
    assert "かわした" not in text, text
    assert text.count("水を切っただけだった") == 2
    assert keys[:2] == ["miss", "miss"] and keys[-1] == "in_reach"


def test_a_successful_swim_dodge_is_told_as_one() -> None:
    arm = [1] + pct(30) + pct(5)  # the arm hits (regular), the swimmer dodges (extreme)
    ctx = _ctx([1, 1, 1] + pct(99) + arm + arm)
    ctx.call("coc7.ascent_begin", "tentacle", 2, 200, 50)
    ctx.call("coc7.ascent_turn", "up", False)
    assert "\n".join(ctx.texts()).count("水を蹴ってかわした") == 2


# ---------------------------------------------------------------- item 4: half damage under water


def test_underwater_blows_are_rolled_halved_as_bcdice_writes_them() -> None:
    # A Swim attack on the first arm: the investigator hits, the arm's dodge fails; the
    # damage (1d3 fist + the damage bonus) is rolled as "(…)/2", rounded down.
    ctx = _ctx([1, 1, 1] + pct(20) + pct(99) + [3])
    ctx.state.stats["pc"]["db"] = "0"
    ctx.call("coc7.ascent_begin", "tentacle", 2, 200, 50)
    ctx.fresh()
    ctx.dice = ManualDice([1, 1, 1] + pct(20) + pct(99) + [3] + ([1] + pct(99) + pct(99)) * 2)
    ctx.call("coc7.ascent_turn", "attack", False)
    dmg = [r for r in ctx.rolls() if "半減" in str(r.get("label"))]
    assert dmg and dmg[0]["expr"] == "(1d3)/2" and dmg[0]["total"] == 1
    assert "触腕1に 1 ダメージ" in "\n".join(ctx.texts())


def test_underwater_fight_option_halves_through_the_dice_expression() -> None:
    ctx = coc7_context(ManualDice([]), story=tentacle_story())
    ctx.call("coc7.choose_pregen", 1)  # 黒田: Fighting 60, DB +1D4
    ctx.call("coc7.start_combat", "tentacle", 1, "underwater")
    ctx.dice = ManualDice(pct(30) + pct(99) + [3, 4] + [1] * 9)  # a hit; the counter fails
    ctx.fresh()
    ctx.call("coc7.attack")
    dmg = [r for r in ctx.rolls() if r.get("label") == "ダメージ"]
    assert dmg and dmg[0]["expr"] == "(1d3+1D4)/2" and dmg[0]["total"] == 3


# ---------------------------------------------------------------- item 17: push and Luck offered


def _deep(lines: list[str], seed: int = 0) -> list[dict]:
    from runner.story import load
    from runner.ui.jsonl import turns

    story = load(Path(__file__).resolve().parent.parent / "stories" / "deep_sea_atelier")
    return list(turns(story, lines, seed=seed))


def _prompt(evs: list[dict]) -> dict[str, str]:
    return {a["id"]: a["label"] for a in [e for e in evs if e["type"] == "prompt"][-1]["actions"]}


LIT = ["pregen1", "take_lighter", "wake", "use_lighter", "switch_on", "survey"]


def test_a_failed_check_offers_the_push_with_its_price_and_luck_with_its_cost() -> None:
    evs = _deep([*LIT, ":dice 9,9", "spot_room"])  # Spot 60: 99 fails
    offered = _prompt(evs)
    assert "30分を無駄にする" in offered["push"] and "二度とは試せない" in offered["push"]
    assert offered["spend_luck"] == "幸運を39点使って〈目星〉を成功にする（幸運 50→11）"
    # The push runs the action's own outcomes; a success tells what Spot Hidden finds.
    evs = _deep([*LIT, ":dice 9,9", "spot_room", ":dice 1,10", "push"])
    r = [e for e in evs if e["type"] == "roll"][-1]
    assert r["pushed"] is True and r["success"] is True
    assert any("漏れてこない" in e.get("text", "") for e in evs[-6:])
    assert "push" not in _prompt(evs) and "spend_luck" not in _prompt(evs)
    # A failed push costs the foreshadowed 30 minutes.
    evs = _deep([*LIT, ":dice 9,9", "spot_room", ":dice 9,9", "push"])
    st = [e for e in evs if e["type"] == "state"]
    assert st[-1]["clock"] - st[-2]["clock"] == 30
    assert any("30分を無駄にした" in e.get("text", "") for e in evs[-5:])
    # Luck spent: the success outcome, Luck 50 → 11.
    evs = _deep([*LIT, ":dice 9,9", "spot_room", "spend_luck"])
    assert any("漏れてこない" in e.get("text", "") for e in evs)
    assert [e for e in evs if e["type"] == "state"][-1]["coc7"]["investigators"][0]["luck"] == 11


def test_no_push_where_the_rules_forbid_it() -> None:
    # A Luck roll, a fumble, another command in between, a success: nothing to push.
    evs = _deep(["pregen1", "wake", ":dice 9,9", "grope_switch"])
    assert not {"push", "spend_luck"} & set(_prompt(evs))
    assert not {"push", "spend_luck"} & set(_prompt(_deep([*LIT, ":dice 10,10", "spot_room"])))
    assert not {"push", "spend_luck"} & set(
        _prompt(_deep([*LIT, ":dice 9,9", "spot_room", "resurvey"]))
    )
    assert not {"push", "spend_luck"} & set(_prompt(_deep([*LIT, ":dice 1,10", "spot_room"])))
    # A failure that already moved the story on (talking fails: the fight begins) stays.
    win = [
        "pregen1",
        "take_lighter",
        "wake",
        "use_lighter",
        "switch_on",
        "go_carpet",
        "search",
        "back",
        "go_window",
        ":dice 1,10",
        "open_curtain",
        ":dice 1,10",
        "open_window",
    ]
    evs = _deep([*win, ":dice 9,9", "talk"])
    assert not {"push", "spend_luck"} & set(_prompt(evs))
    # In a fight: no push of the DEX roll for the switch (7e: combat rolls are never pushed).
    evs = _deep([*win, "fight", ":dice 9,9", "switch_dex"])
    assert not {"push", "spend_luck"} & set(_prompt(evs))


def test_not_enough_luck_means_no_luck_offer() -> None:
    # 99 on Spot 60 costs 39; after spending 39 once, 11 Luck is left for the next (39 again).
    evs = _deep([*LIT, ":dice 9,9", "spot_room", "spend_luck", ":dice 9,9", "listen_room"])
    offered = _prompt(evs)
    assert "push" in offered and "spend_luck" not in offered
