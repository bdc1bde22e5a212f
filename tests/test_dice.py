"""Dice notation, seeded rolls and hand-entered faces; `katari roll`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from conftest import katari
from hypothesis import given
from hypothesis import strategies as st

from runner.rules.dice import DiceError, ManualDice, NeedDice, SeededDice, parse, roll, seed_state

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "expr,faces,total",
    [
        ("1d6+1d4", [3, 2], 5),
        ("3d3", [1, 2, 3], 6),
        ("2d10", [10, 4], 14),
        ("1d100", [37], 37),
        ("2d6-1", [6, 6], 11),
        ("1d6-1d4", [2, 4], -2),
        ("d8", [8], 8),
        ("1D6+2", [1], 3),
        ("１ｄ６", [4], 4),
    ],
)
def test_totals_from_given_faces(expr: str, faces: list[int], total: int) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.dice) == faces


@pytest.mark.parametrize(
    "bad", ["", "d", "1d", "2x6", "1d6+", "0d6", "1d0", "5000d6", "1d6 ** 2", "+-3"]
)
def test_bad_notation(bad: str) -> None:
    with pytest.raises(DiceError):
        parse(bad)


# BCDice's arithmetic (#13 item 4, and for #16): products, quotients rounded down (Ruby's
# integer division, as BCDice's default), /U up, /R to the nearest, parentheses.
@pytest.mark.parametrize(
    "expr,faces,total,low,high",
    [
        ("1d6/2", [5], 2, 0, 3),
        ("1d6/2", [1], 0, 0, 3),
        ("(1d6+2)*2", [3], 10, 6, 16),
        ("1d6/2U", [5], 3, 1, 3),
        ("1d6/2R", [5], 3, 1, 3),
        ("1d6/4R", [1], 0, 0, 2),
        ("-1d6/2", [5], -3, -3, -1),
        ("(1d6+1d4)/2", [6, 4], 5, 1, 5),
        ("2*3+1d6", [1], 7, 7, 12),
        ("1d6-1d4/2", [1, 3], 0, -1, 6),
        ("(1D3+1D4)/2", [1, 1], 1, 1, 3),
        ("1d6×2", [2], 4, 2, 12),
        ("（1d6＋1）／2", [6], 3, 1, 3),
        ("3d3*10", [1, 2, 3], 60, 30, 90),
    ],
)
def test_products_and_quotients_as_bcdice(
    expr: str, faces: list[int], total: int, low: int, high: int
) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.dice) == faces
    e = parse(expr)
    assert (e.minimum, e.maximum) == (low, high)
    assert e.sides == [6, 4] if expr == "(1d6+1d4)/2" else True


@pytest.mark.parametrize(
    "bad",
    [
        "1d6/0",
        "1d6/(1d3-2)",
        "(1d6",
        "1d6)",
        "1d6*",
        "1d6//2",
        "()",
        "(" * 30 + "1" + ")" * 30,
        "1d6/2X",
    ],
)
def test_bad_arithmetic_is_one_clear_error(bad: str) -> None:
    with pytest.raises(DiceError) as e:
        parse(bad)
    assert bad[:10] in str(e.value) or "dice" in str(e.value)


def test_katari_roll_halves_as_bcdice() -> None:
    r = katari("roll", "(1d6+1d4)/2", "--dice", "5,4", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dice"] == [5, 4] and out["total"] == 4


def test_missing_faces_say_which_dice_are_needed() -> None:
    with pytest.raises(NeedDice) as e:
        roll("1d6+1d4", ManualDice([3]))
    assert e.value.sides == [4] and e.value.expr == "1d6+1d4"


def test_a_face_out_of_range_is_refused() -> None:
    with pytest.raises(DiceError):
        roll("1d6", ManualDice([7]))


def test_seeded_dice_repeat_and_are_fair() -> None:
    a, b = SeededDice(seed_state(42)), SeededDice(seed_state(42))
    assert [a.face(6) for _ in range(50)] == [b.face(6) for _ in range(50)]
    d = SeededDice(seed_state(7))
    counts = Counter(d.face(6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(9000 < c < 11000 for c in counts.values()), counts


@given(st.integers(1, 20), st.integers(1, 100).filter(lambda s: s != 66), st.integers(0, 2**63))
def test_totals_stay_in_range(n: int, sides: int, seed: int) -> None:
    r = roll(f"{n}d{sides}", SeededDice(seed_state(seed)))
    assert n <= r.total <= n * sides and len(r.dice) == n


# BCDice's D66 (#16): two d6, the first the tens, the second the units; 1D66 in a sum too.
@pytest.mark.parametrize(
    "expr,faces,total",
    [
        ("D66", [3, 2], 32),
        ("1d66", [6, 1], 61),
        ("2D66", [1, 1, 3, 6], 47),
        ("d66+1", [2, 5], 26),
    ],
)
def test_d66_is_two_d6_read_as_tens_and_units(expr: str, faces: list[int], total: int) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.sides) == [6] * len(faces)
    with pytest.raises(NeedDice) as e:
        roll(expr, ManualDice(faces[:1]))
    assert e.value.sides == [6] * (len(faces) - 1)


@given(st.integers(1, 5), st.integers(0, 2**63))
def test_d66_stays_between_11_and_66(n: int, seed: int) -> None:
    r = roll(f"{n}D66", SeededDice(seed_state(seed)))
    pairs = [r.dice[i] * 10 + r.dice[i + 1] for i in range(0, len(r.dice), 2)]
    assert len(pairs) == n and all(11 <= v <= 66 and v % 10 in range(1, 7) for v in pairs)
    assert r.total == sum(pairs) and parse(f"{n}D66").minimum == 11 * n


# Keep and drop (#16): 5D6KH3 sums the three highest; KL, DH, DL, MAX, MIN as BCDice.
@pytest.mark.parametrize(
    "expr,faces,total,low,high",
    [
        ("5D6KH3", [2, 4, 3, 3, 5], 12, 3, 18),
        ("5d6kl2", [2, 4, 3, 3, 5], 5, 2, 12),
        ("4D6DL1", [1, 2, 3, 4], 9, 3, 18),
        ("4d6dh1", [1, 2, 3, 4], 6, 3, 18),
        ("2D20MAX", [7, 15], 15, 1, 20),
        ("2d20min", [7, 15], 7, 1, 20),
        ("3d6kh5", [1, 2, 3], 6, 3, 18),
        ("2D6KH1+1", [2, 5], 6, 2, 7),
        ("(2D6KH1)*2", [6, 1], 12, 2, 12),
    ],
)
def test_keep_and_drop(expr: str, faces: list[int], total: int, low: int, high: int) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.dice) == faces
    assert (parse(expr).minimum, parse(expr).maximum) == (low, high)


@pytest.mark.parametrize(
    "expr,faces,total", [("1d6/2F", [5], 2), ("1d6/2C", [5], 3), ("-1d6/2C", [5], -2)]
)
def test_floor_and_ceiling_letters(expr: str, faces: list[int], total: int) -> None:
    assert roll(expr, ManualDice(faces)).total == total


def test_katari_roll_shows_every_die() -> None:
    r = katari("roll", "1d6+1d4", "--dice", "3,2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dice"] == [3, 2] and out["total"] == 5
    r = katari("roll", "3d3", "--dice", "1,2,3")
    assert r.stdout.strip() == "(3D3) ＞ 6[1,2,3] ＞ 6"  # BCDice's wording (#16)


def test_katari_roll_seed_repeats_and_errors_are_one_line() -> None:
    assert (
        katari("roll", "2d10", "--seed", "5").stdout == katari("roll", "2d10", "--seed", "5").stdout
    )
    r = katari("roll", "2x6")
    assert (
        r.returncode == 2
        and len(r.stderr.strip().splitlines()) == 1
        and "Traceback" not in r.stderr
    )
    r = katari("roll", "1d6+1d4", "--dice", "3")
    assert r.returncode == 2 and "あと 1 個（d4）" in r.stderr  # (KATARI_LANG unset: Japanese)


def test_misspelt_commands_and_options_get_one_clear_line() -> None:
    r = katari("lst")
    assert (
        r.returncode == 2
        and r.stderr.strip() == "katari: no command 'lst'; did you mean `katari list`?"
    )
    r = katari("play", "--sed", "3")
    assert r.returncode == 2 and r.stderr.startswith("usage: katari play") and "--sed" in r.stderr


def test_a_target_after_plain_dice_says_success_or_failure() -> None:
    r = katari("roll", "2d6>=7", "--dice", "3,5")
    assert r.returncode == 0 and r.stdout.strip() == "(2D6>=7) ＞ 8[3,5] ＞ 8 ＞ 成功"
    out = json.loads(katari("roll", "2d6>=7", "--dice", "1,2", "--json").stdout)
    assert (
        out["command"],
        out["dice"],
        out["sides"],
        out["total"],
        out["level"],
        out["success"],
    ) == ("2d6>=7", [1, 2], [6, 6], 3, "failure", False)
    assert out["text"] == "(2D6>=7) ＞ 3[1,2] ＞ 3 ＞ 失敗"
