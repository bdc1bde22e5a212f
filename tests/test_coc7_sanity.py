"""Sanity: X/Y losses, fumbles, the INT roll at 5+, indefinite and permanent insanity."""

from __future__ import annotations

import pytest
from hook_context import HookContext, coc7_context, pct, tentacle_story

from runner.rules.base import RuleError
from runner.rules.coc7 import make_investigator
from runner.rules.dice import ManualDice, SeededDice

CHARS = {"STR": 50, "CON": 60, "SIZ": 65, "DEX": 70, "APP": 50, "INT": 75, "POW": 55, "EDU": 80}


def ctx_with(faces: list[int], san: int = 55, **opts) -> HookContext:
    ctx = coc7_context(ManualDice(faces), story=tentacle_story(**opts))
    s = make_investigator("A", CHARS, luck=50)
    s["san"] = san
    ctx.state.stats["pc"] = s
    return ctx


def san(ctx: HookContext, loss: str, *args) -> list[str]:
    return ctx.call("coc7.san", loss, *args)


def sheet(ctx: HookContext) -> dict:
    return ctx.state.stats["pc"]


def test_success_loses_x() -> None:
    ctx = ctx_with(pct(30))
    assert san(ctx, "1/1d6") == ["success"]
    assert sheet(ctx)["san"] == 54
    assert len(ctx.rolls()) == 1 and len(ctx.rolls()[0]["dice"]) == 2  # no bonus dice


def test_success_with_zero_loses_nothing() -> None:
    ctx = ctx_with(pct(30))
    assert san(ctx, "0/1d3") == ["success"]
    assert sheet(ctx)["san"] == 55


def test_dice_on_the_success_side() -> None:
    ctx = ctx_with(pct(30) + [2])
    san(ctx, "1d3/1d6")
    assert sheet(ctx)["san"] == 53


def test_failure_loses_y() -> None:
    ctx = ctx_with(pct(80) + [4])
    assert san(ctx, "1/1d6") == ["failure"]
    assert sheet(ctx)["san"] == 51
    assert ctx.call("coc7.last_loss") == 4


@pytest.mark.parametrize(("san_value", "total"), [(40, 96), (40, 100), (60, 100)])
def test_fumble_loses_the_maximum(san_value: int, total: int) -> None:
    # Later dice (the INT roll a loss of 5+ calls for, bouts) come from a seed.
    ctx = ctx_with([], san=san_value)
    ctx.dice = ManualDice(pct(total), then=SeededDice(1))
    assert san(ctx, "1/1d6")[-2:] == ["fumble", "failure"]
    assert sheet(ctx)["san"] == san_value - 6
    assert ctx.rolls()[1].get("san") is None and ctx.rolls()[1]["sides"] == [10, 10]  # INT, no 1d6
    ctx = ctx_with([], san=san_value)
    ctx.dice = ManualDice(pct(total), then=SeededDice(1))
    san(ctx, "2/2d10")
    assert sheet(ctx)["san"] == san_value - 20


def test_96_with_san_50_or_more_is_a_plain_failure() -> None:
    ctx = ctx_with(pct(96) + [1], san=50)
    assert san(ctx, "1/1d6") == ["failure"]
    assert sheet(ctx)["san"] == 49


def test_five_or_more_calls_for_an_int_roll_success_is_temporary_insanity() -> None:
    ctx = ctx_with(pct(80) + [7] + pct(30) + [6, 3])
    assert san(ctx, "1/1d10") == ["temporary", "insane", "failure"]
    s = sheet(ctx)
    assert s["san"] == 48 and s["cond"]["insane"] == "temporary"
    assert s["cond"]["bout"] == {"roll": 6, "length": 3, "unit": "hours", "left": 3, "seq": 1}
    assert any(ev.get("target") == 75 for ev in ctx.rolls())  # the INT roll
    assert ctx.call("coc7.insane") == "temporary"
    assert s["marks"] == []  # no improvement mark from an INT roll


def test_failed_int_roll_means_no_insanity() -> None:
    ctx = ctx_with(pct(80) + [7] + pct(90))
    assert san(ctx, "1/1d10") == ["failure"]
    assert sheet(ctx)["cond"]["insane"] == ""


def test_four_points_need_no_int_roll() -> None:
    ctx = ctx_with(pct(80) + [4])
    assert san(ctx, "1/1d10") == ["failure"]
    assert len(ctx.rolls()) == 2  # the SAN roll and the loss die only


def test_fifth_of_the_days_san_is_indefinite() -> None:
    ctx = ctx_with(pct(80) + [4] + pct(80) + [4] + pct(80) + [3] + [2, 5], san=50)
    assert san(ctx, "1/1d4") == ["failure"]
    assert san(ctx, "1/1d4") == ["failure"]
    assert san(ctx, "1/1d4") == ["indefinite", "insane", "failure"]  # 11 of 50
    assert sheet(ctx)["cond"]["insane"] == "indefinite"
    assert sheet(ctx)["cond"]["bout"]["roll"] == 2


def test_a_new_day_starts_the_count_again() -> None:
    ctx = ctx_with(pct(80) + [4] + pct(80) + [4] + pct(80) + [3], san=50)
    san(ctx, "1/1d4")
    san(ctx, "1/1d4")
    ctx.state.clock += 24 * 60
    assert san(ctx, "1/1d4") == ["failure"]
    assert sheet(ctx)["cond"]["insane"] == ""


def test_zero_is_permanent() -> None:
    ctx = ctx_with(pct(80) + [5], san=3)
    assert san(ctx, "1/1d6") == ["permanent", "insane", "failure"]
    assert sheet(ctx)["san"] == 0 and sheet(ctx)["cond"]["insane"] == "permanent"


def test_optional_cap_per_creature() -> None:
    ctx = ctx_with(pct(95) + [3] + pct(95) + [5], san=90, san_cap=True)
    san(ctx, "1/1d6", "", "tentacle")
    san(ctx, "1/1d6", "", "tentacle")
    assert sheet(ctx)["san"] == 84  # 3 + 3: never more than the worst single loss, 6
    ctx = ctx_with(pct(95) + [3] + pct(95) + [4], san=90)
    san(ctx, "1/1d6", "", "tentacle")
    san(ctx, "1/1d6", "", "tentacle")
    assert sheet(ctx)["san"] == 83  # off by default (ruling DA-15)


def test_san_all() -> None:
    ctx = ctx_with(pct(30) + pct(80) + [2])
    ctx.state.stats["b"] = make_investigator("B", CHARS, luck=50)
    assert ctx.call("coc7.san_all", "0/1d3") == ["success"]
    assert sheet(ctx)["san"] == 55 and ctx.state.stats["b"]["san"] == 53


def test_bad_loss() -> None:
    with pytest.raises(RuleError):
        san(ctx_with([]), "1d6")
    with pytest.raises(RuleError):
        san(ctx_with([]), "1/xd")
