"""UREG bodies and heights, with the source's figures (rulings UA-10 to UA-15)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from runner.rules.ureg import physics as P
from runner.rules.ureg.abilities import Character, parse_choice

ORDINARY = Character("pc", "閃き", "平凡", "平凡さん")
SHORT = Character("s", "小柄", "低身長", "小柄さん")
NIMBLE = Character("n", "身軽", "非力", "身軽さん")
STRONG = Character("st", "強力", "不器用", "強力さん")
HEAVY = Character("h", "夜目", "鈍重", "鈍重さん")
LADDER = P.Form("ladder", "梯子", "ladder", F(3), unstable=True)
BOX = P.Form("wooden_box", "木箱", "wooden crate", F(1))
STEP = [
    P.Form("stepladder", "脚立", "stepladder", F(2), support=True),
    P.Form("stepladder", "脚立", "stepladder", F(4), unstable=True),
]


def test_reach_figures():
    assert P.reach(ORDINARY) == 2
    assert P.reach(SHORT) == F(3, 2)  # 〈×低身長〉 −50 cm
    assert P.reach(Character("x", "小柄", "平凡")) == 2  # 〈○小柄〉 alone keeps 2 m (UA-11)


def test_window_room_ordinary_with_ladder_exactly_reaches():
    ok, fail = P.solve(F(5), [ORDINARY], {"ladder": [LADDER]}, exact_items=True)
    assert ok is not None and ok.total == 5
    assert ok.explain() == "梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m"


def test_window_room_short_needs_the_box_too():
    ok, fail = P.solve(F(5), [SHORT], {"ladder": [LADDER]}, exact_items=True)
    assert ok is None
    assert fail.total == F(9, 2)
    assert "4.5 m < 5 m" in fail.explain()
    ok, _ = P.solve(F(5), [SHORT], {"ladder": [LADDER], "wooden_box": [BOX]}, exact_items=True)
    assert ok is not None and ok.total == F(11, 2)
    assert ok.explain().startswith(
        "木箱 1 m + 梯子 3 m + 手の届く高さ（×低身長） 1.5 m = 5.5 m ≥ 5 m"
    )


def test_search_finds_the_simplest_way():
    ok, _ = P.solve(F(5), [SHORT], {"ladder": [LADDER], "wooden_box": [BOX]})
    assert ok.items == ("wooden_box", "ladder")
    ok, _ = P.solve(F(5), [ORDINARY], {"ladder": [LADDER], "wooden_box": [BOX]})
    assert ok.items == ("ladder",)  # fewer items first


def test_equality_succeeds_and_a_hair_less_fails():
    assert P.solve(F(3), [ORDINARY], {"b": [BOX]}, exact_items=True, stances=("stand",))[0]
    assert not P.solve(
        F(3) + F(1, 100), [ORDINARY], {"b": [BOX]}, exact_items=True, stances=("stand",)
    )[0]


@pytest.mark.parametrize(
    "pc,plain,run",
    [(ORDINARY, F(1, 2), F(3, 4)), (NIMBLE, F(3, 4), F(9, 8)), (HEAVY, F(1, 4), F(3, 8))],
)
def test_vertical_jumps(pc, plain, run):
    assert P.vertical_jump(pc) == plain
    assert P.vertical_jump(pc, run_up=True) == run  # ×1.5 of the adjusted figure (UA-15)


@pytest.mark.parametrize(
    "pc,plain,run", [(ORDINARY, F(3, 2), F(3)), (NIMBLE, F(3), F(6)), (HEAVY, F(1), F(2))]
)
def test_long_jumps(pc, plain, run):
    assert P.long_jump(pc) == plain
    assert P.long_jump(pc, run_up=True) == run
    assert P.can_cross(pc, run, run_up=True) and not P.can_cross(pc, run + F(1, 100), run_up=True)


def test_jump_touch_is_reach_plus_jump():
    ok, _ = P.solve(F(5, 2), [ORDINARY], {}, stances=("touch",))
    assert ok.total == F(5, 2)  # 2 m + 0.5 m (UA-10)
    ok, fail = P.solve(F(11, 4), [ORDINARY], {}, stances=("touch",))
    assert ok is None and fail.total == F(5, 2)
    ok, _ = P.solve(F(11, 4), [ORDINARY], {}, stances=("run_touch",))
    assert ok.total == F(11, 4)  # run-up 0.75 m
    # No run-up from a box top.
    ok, _ = P.solve(
        F(1) + F(11, 4), [ORDINARY], {"b": [BOX]}, exact_items=True, stances=("run_touch",)
    )
    assert ok is None


def test_shoulder_rides():
    assert P.shoulder_reach(ORDINARY, STRONG) == 3
    assert P.shoulder_reach(ORDINARY, SHORT) == F(5, 2)
    assert P.shoulder_reach(ORDINARY, SHORT, standing=True) == 3
    assert P.shoulder_reach(ORDINARY, NIMBLE, standing=True) == F(7, 2)
    assert P.shoulder_reach(SHORT, SHORT) == 2
    assert P.can_stand_on_shoulders(NIMBLE) and P.can_stand_on_shoulders(SHORT)
    assert not P.can_stand_on_shoulders(ORDINARY)
    # Two ordinary adults: 3 m sitting, no standing ride (UA-12).
    o2 = Character("o2", "器用", "平凡")
    ok, _ = P.solve(F(3), [ORDINARY, o2], {}, stances=("shoulder",))
    assert ok is not None
    ok, fail = P.solve(F(7, 2), [ORDINARY, o2], {}, stances=("standing_shoulder",))
    assert ok is None and fail.blocked
    ok, _ = P.solve(F(7, 2), [ORDINARY, NIMBLE], {}, stances=("standing_shoulder",))
    assert ok.who == ("pc", "n")
    # On a box: 1 + 3.
    ok, _ = P.solve(F(4), [ORDINARY, o2], {"b": [BOX]}, exact_items=True, stances=("shoulder",))
    assert ok is not None
    # Never on a ladder.
    ok, _ = P.solve(F(5), [ORDINARY, o2], {"l": [LADDER]}, exact_items=True, stances=("shoulder",))
    assert ok is None


def test_who_can_lift_whom():
    assert P.can_lift(ORDINARY, STRONG)
    assert not P.can_lift(ORDINARY, HEAVY)  # ordinary people cannot lift 〈×鈍重〉
    assert P.can_lift(STRONG, HEAVY)
    assert not P.can_lift(NIMBLE, ORDINARY) and P.can_lift(
        NIMBLE, SHORT
    )  # 〈×非力〉: only 〈○小柄〉
    assert not P.can_lift(SHORT, ORDINARY)  # 〈×低身長〉: only 〈○小柄〉
    assert P.can_lift(SHORT, Character("t", "小柄", "平凡"))
    assert P.can_pull_up(HEAVY, SHORT) and not P.can_pull_up(ORDINARY, HEAVY)
    assert not P.can_lift(ORDINARY, ORDINARY)  # not oneself


def test_heavy_needs_support_on_a_ladder():
    ok, fail = P.solve(F(5), [HEAVY], {"ladder": [LADDER]}, exact_items=True)
    assert ok is None and fail.blocked and "支え" in fail.note
    ok, _ = P.solve(
        F(5), [HEAVY, ORDINARY], {"ladder": [LADDER]}, exact_items=True, stances=("stand",)
    )
    assert ok is not None  # someone holds it (UA-14)
    # An open stepladder supports itself.
    ok, _ = P.solve(F(4), [HEAVY], {"stepladder": STEP}, exact_items=True)
    assert ok is not None and ok.total == 4


def test_stacks_hold_one_ladder_on_top():
    two_ladders = {"a": [LADDER], "b": [P.Form("b", "梯子2", "ladder2", F(3), unstable=True)]}
    ok, _ = P.solve(F(8), [ORDINARY], two_ladders, exact_items=True)
    assert ok is None


def test_created_pairs_and_full_width_circle():
    assert parse_choice("〇身軽 ×鈍重")[1:] == ("身軽", "鈍重")
    # The two cancel out to the ordinary figures (our reading).
    c = Character("c", "身軽", "鈍重")
    assert P.vertical_jump(c) == F(1, 2) and P.long_jump(c) == F(3, 2)


def test_fmt():
    assert P.fmt(F(9, 8)) == "1.125"
    assert P.fmt(F(2, 5)) == "0.4"
    assert P.fmt(F(5)) == "5"


def test_climbing_up_after_a_shoulder_ride_needs_the_top_to_pull_the_bottom_up():
    # Reaching a switch, any allowed ride will do; climbing up onto a ledge, the one on top
    # must then pull the one below up (〈×低身長〉 pulls up only 〈○小柄〉, nobody ordinary
    # pulls up 〈×鈍重〉).
    ok, _ = P.solve(F("2.5"), [ORDINARY, SHORT], {}, stances=("shoulder",))
    assert ok is not None and ok.who == ("pc", "s")
    ok, fail = P.solve(F("2.5"), [ORDINARY, SHORT], {}, stances=("shoulder",), pull_up=True)
    assert ok is None and fail.blocked and "引っ張り上げられない" in fail.explain()
    ok, _ = P.solve(F("2.5"), [STRONG, HEAVY], {}, stances=("shoulder",), pull_up=True)
    assert ok is not None and ok.who == ("st", "h")
    ok, _ = P.solve(F("2.5"), [HEAVY, ORDINARY], {}, stances=("shoulder",), pull_up=True)
    assert ok is None
