"""Checks: success levels, difficulty, bonus/penalty dice, pushes, Luck, marks, hidden rolls."""

from __future__ import annotations

import pytest
from hook_context import HookContext, coc7_context, pct, tentacle_story
from hypothesis import given
from hypothesis import strategies as st

from runner.rules.base import RuleError
from runner.rules.coc7 import checks, make_investigator
from runner.rules.dice import ManualDice, NeedDice

CHARS = {"STR": 50, "CON": 60, "SIZ": 65, "DEX": 70, "APP": 50, "INT": 75, "POW": 55, "EDU": 80}


def ctx_with(faces: list[int], skills: dict | None = None, **kw) -> HookContext:
    ctx = coc7_context(ManualDice(faces), story=tentacle_story(**kw))
    ctx.state.stats["pc"] = make_investigator(
        "A", CHARS, skills or {"目星": 60, "信用": 40}, luck=50
    )
    return ctx


def call(ctx: HookContext, name: str, *args):
    return ctx.call(f"coc7.{name}", *args)


@pytest.mark.parametrize(
    ("total", "target", "level"),
    [
        (1, 60, "critical"),
        (1, 0, "critical"),
        (12, 60, "extreme"),
        (13, 60, "hard"),
        (30, 60, "hard"),
        (31, 60, "regular"),
        (60, 60, "regular"),
        (61, 60, "failure"),
        (99, 60, "failure"),
        (100, 60, "fumble"),
        (8, 40, "extreme"),
        (9, 40, "hard"),
        (20, 40, "hard"),
        (21, 40, "regular"),
        (40, 40, "regular"),
        (41, 40, "failure"),
        (95, 40, "failure"),
        (96, 40, "fumble"),
        (96, 49, "fumble"),
        (99, 49, "fumble"),
        (96, 50, "failure"),
        (99, 50, "failure"),
        (100, 50, "fumble"),
        (100, 150, "fumble"),
        (99, 150, "regular"),
        (30, 150, "extreme"),
        (2, 5, "hard"),
        (1, 5, "critical"),
        (5, 5, "regular"),
    ],
)
def test_levels_at_boundaries(total: int, target: int, level: str) -> None:
    assert checks.level_of(total, target) == level


@given(st.integers(1, 100), st.integers(0, 100))
def test_level_properties(total: int, target: int) -> None:
    lv = checks.level_of(total, target)
    if total == 1:
        assert lv == "critical"
    elif total == 100 or (total >= 96 and target < 50):
        assert lv == "fumble"
    else:
        assert (checks.RANK[lv] >= 1) == (total <= target)
        assert (lv == "extreme") == (total <= target // 5)


@pytest.mark.parametrize(
    ("total", "keys", "level"),
    [
        (1, ["critical", "extreme", "hard", "regular", "success"], "critical"),
        (12, ["extreme", "hard", "regular", "success"], "extreme"),
        (30, ["hard", "regular", "success"], "hard"),
        (60, ["regular", "success"], "regular"),
        (61, ["failure"], "failure"),
        (100, ["fumble", "failure"], "fumble"),
    ],
)
def test_check_keys(total: int, keys: list[str], level: str) -> None:
    ctx = ctx_with(pct(total))
    assert call(ctx, "check", "目星") == keys
    ev = ctx.rolls()[-1]
    assert ev["level"] == level and ev["total"] == total and ev["target"] == 60
    assert ev["label"] == "目星" and ev["expr"] == "1d100<=60" and len(ev["dice"]) == 2


def test_hard_check_regular_roll_is_a_failure_but_shows_the_level() -> None:
    ctx = ctx_with(pct(31))
    assert call(ctx, "check", "目星", "hard") == ["failure"]
    ev = ctx.rolls()[-1]
    assert ev["level"] == "regular" and ev["success"] is False and ev["difficulty"] == "hard"
    ctx = ctx_with(pct(30))
    assert call(ctx, "check", "目星", "hard") == ["hard", "regular", "success"]
    ctx = ctx_with(pct(13))
    assert call(ctx, "check", "Spot Hidden", "extreme") == ["failure"]
    ctx = ctx_with(pct(12))
    assert call(ctx, "check", "目星", "イクストリーム") == ["extreme", "hard", "regular", "success"]


def test_fumble_range_follows_the_number_needed() -> None:
    # Hard on 60 needs 30 (< 50), so 96 fumbles; a regular roll on 60 only fumbles on 100.
    ctx = ctx_with(pct(96))
    assert call(ctx, "check", "目星", "hard") == ["fumble", "failure"]
    ctx = ctx_with(pct(96))
    assert call(ctx, "check", "目星") == ["failure"]


def test_bonus_die_keeps_lowest_penalty_highest() -> None:
    ctx = ctx_with(pct(87, (2,)))  # tens 8 and 2, units 7: 87 or 27
    assert call(ctx, "check", "目星", "regular", 1) == ["hard", "regular", "success"]
    assert ctx.rolls()[-1]["total"] == 27 and ctx.rolls()[-1]["bonus"] == 1
    ctx = ctx_with(pct(27, (8,)))
    assert call(ctx, "check", "目星", "regular", -1) == ["failure"]
    assert ctx.rolls()[-1]["total"] == 87


def test_bonus_and_penalty_cancel() -> None:
    ctx = ctx_with(pct(45))  # only two dice: one tens, one units
    assert call(ctx, "check", "目星", "regular", 1, "", False, 1) == ["regular", "success"]
    assert len(ctx.rolls()[-1]["dice"]) == 2
    ctx = ctx_with(pct(95, (3,)))  # two bonus, one penalty: one bonus die
    assert call(ctx, "check", "目星", "regular", 2, "", False, 1) == ["regular", "success"]
    assert ctx.rolls()[-1]["total"] == 35
    assert checks.net_dice(5, 0) == 2 and checks.net_dice(0, 4) == -2 and checks.net_dice(2, 2) == 0


def test_zero_units_zero_tens_is_100() -> None:
    assert checks.read_percentile([10], 10, 0) == (100, [100])
    assert checks.read_percentile([10, 1], 10, 1) == (10, [100, 10])
    assert checks.read_percentile([10, 1], 10, -1) == (100, [100, 10])


@given(st.lists(st.integers(1, 10), min_size=1, max_size=3), st.integers(1, 10))
def test_bonus_never_worse_than_penalty(tens: list[int], units: int) -> None:
    n = len(tens) - 1
    best, _ = checks.read_percentile(tens, units, n)
    worst, _ = checks.read_percentile(tens, units, -n)
    assert best <= worst
    plain, _ = checks.read_percentile(tens[:1], units, 0)
    assert best <= plain <= worst


def test_improvement_marks() -> None:
    ctx = ctx_with(pct(20) + pct(20) + pct(20) + pct(20) + pct(90))
    call(ctx, "check", "目星")
    call(ctx, "check", "STR")
    call(ctx, "luck")
    call(ctx, "check", "信用")
    call(ctx, "check", "聞き耳")  # failed
    assert ctx.state.stats["pc"]["marks"] == ["目星"]


def test_improve_phase() -> None:
    ctx = ctx_with([95, 4, 30])  # 1d100 95 > 60 → +1d10 (4); nothing else marked
    ctx.state.stats["pc"]["marks"] = ["目星"]
    assert call(ctx, "improve") == ["improved"]
    assert ctx.state.stats["pc"]["skills"]["目星"] == 64 and ctx.state.stats["pc"]["marks"] == []


def test_hidden_check_is_keeper_only() -> None:
    ctx = ctx_with(pct(50))
    call(ctx, "hidden_check", "目星")
    assert ctx.rolls()[-1]["keeper"] is True
    ctx = ctx_with(pct(50))
    call(ctx, "check", "目星")
    assert "keeper" not in ctx.rolls()[-1]


def test_push() -> None:
    ctx = ctx_with(pct(70) + pct(40))
    assert call(ctx, "check", "目星") == ["failure"]
    assert call(ctx, "push") == ["regular", "success"]
    assert ctx.rolls()[-1]["pushed"] is True
    with pytest.raises(RuleError):
        call(ctx, "push")  # a success cannot be pushed
    ctx = ctx_with(pct(70) + pct(80))
    call(ctx, "check", "目星")
    assert call(ctx, "push") == ["pushed_failure", "failure"]
    with pytest.raises(RuleError):
        call(ctx, "push")  # only once
    ctx = ctx_with(pct(90))
    call(ctx, "luck")
    with pytest.raises(RuleError):
        call(ctx, "push")  # never Luck
    ctx = ctx_with(pct(100))
    call(ctx, "check", "目星")
    with pytest.raises(RuleError):
        call(ctx, "push")  # nor a fumble


def test_luck_and_group_luck() -> None:
    ctx = ctx_with(pct(50))
    assert call(ctx, "luck") == ["regular", "success"]
    assert ctx.rolls()[-1]["target"] == 50
    ctx = ctx_with(pct(30))
    ctx.state.stats["b"] = make_investigator("B", CHARS, luck=25)
    call(ctx, "group_luck")
    assert ctx.rolls()[-1]["target"] == 25


def test_spend_luck() -> None:
    ctx = ctx_with(pct(65))
    assert call(ctx, "check", "目星") == ["failure"]
    assert call(ctx, "spend_luck") == ["regular", "success"]
    assert ctx.state.stats["pc"]["luck"] == 45
    assert "目星" in ctx.state.stats["pc"]["marks"]


def test_opposed() -> None:
    story_ctx = ctx_with(pct(20) + pct(20))  # both hard: a tie, the higher skill (60 > 10) wins
    assert call(story_ctx, "opposed", "目星", "tentacle", "心理学")[0] == "win"
    ctx = ctx_with(pct(50) + pct(2))  # regular against extreme
    assert call(ctx, "opposed", "目星", "tentacle", "心理学")[0] == "lose"
    ctx = ctx_with(pct(90) + pct(90))
    assert call(ctx, "opposed", "目星", "tentacle", "心理学")[0] == "draw"


def test_manual_dice_need_both_d10s() -> None:
    ctx = ctx_with([])
    with pytest.raises(NeedDice) as e:
        call(ctx, "check", "目星", "regular", 1)
    assert e.value.sides == [10, 10, 10]


def test_unknown_difficulty() -> None:
    with pytest.raises(RuleError):
        call(ctx_with(pct(5)), "check", "目星", "very hard")


def test_english_story_labels() -> None:
    ctx = coc7_context(ManualDice(pct(5)), story=tentacle_story("en"))
    ctx.state.stats["pc"] = make_investigator("A", CHARS, {"目星": 60}, luck=50)
    call(ctx, "check", "目星")
    assert ctx.rolls()[-1]["label"] == "Spot Hidden"
