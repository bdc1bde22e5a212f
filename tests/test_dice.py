"""Dice notation, seeded rolls and hand-entered faces; `katari roll`."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner.rules.dice import DiceError, ManualDice, NeedDice, SeededDice, parse, roll, seed_state

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("expr,faces,total", [
    ("1d6+1d4", [3, 2], 5), ("3d3", [1, 2, 3], 6), ("2d10", [10, 4], 14), ("1d100", [37], 37),
    ("2d6-1", [6, 6], 11), ("1d6-1d4", [2, 4], -2), ("d8", [8], 8), ("1D6+2", [1], 3), ("１ｄ６", [4], 4),
])
def test_totals_from_given_faces(expr: str, faces: list[int], total: int) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.dice) == faces


@pytest.mark.parametrize("bad", ["", "d", "1d", "2x6", "1d6+", "0d6", "1d0", "5000d6", "1d6 ** 2", "+-3"])
def test_bad_notation(bad: str) -> None:
    with pytest.raises(DiceError):
        parse(bad)


# BCDice's arithmetic (#13 item 4, and for #16): products, quotients rounded down (Ruby's
# integer division, as BCDice's default), /U up, /R to the nearest, parentheses.
@pytest.mark.parametrize("expr,faces,total,low,high", [
    ("1d6/2", [5], 2, 0, 3), ("1d6/2", [1], 0, 0, 3), ("(1d6+2)*2", [3], 10, 6, 16),
    ("1d6/2U", [5], 3, 1, 3), ("1d6/2R", [5], 3, 1, 3), ("1d6/4R", [1], 0, 0, 2),
    ("-1d6/2", [5], -3, -3, -1), ("(1d6+1d4)/2", [6, 4], 5, 1, 5), ("2*3+1d6", [1], 7, 7, 12),
    ("1d6-1d4/2", [1, 3], 0, -1, 6), ("(1D3+1D4)/2", [1, 1], 1, 1, 3), ("1d6×2", [2], 4, 2, 12),
    ("（1d6＋1）／2", [6], 3, 1, 3), ("3d3*10", [1, 2, 3], 60, 30, 90),
])
def test_products_and_quotients_as_bcdice(expr: str, faces: list[int], total: int, low: int,
                                          high: int) -> None:
    r = roll(expr, ManualDice(faces))
    assert r.total == total and list(r.dice) == faces
    e = parse(expr)
    assert (e.minimum, e.maximum) == (low, high)
    assert e.sides == [6, 4] if expr == "(1d6+1d4)/2" else True


@pytest.mark.parametrize("bad", ["1d6/0", "1d6/(1d3-2)", "(1d6", "1d6)", "1d6*", "1d6//2", "()",
                                 "(" * 30 + "1" + ")" * 30, "1d6/2X"])
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


@given(st.integers(1, 20), st.integers(1, 100), st.integers(0, 2**63))
def test_totals_stay_in_range(n: int, sides: int, seed: int) -> None:
    r = roll(f"{n}d{sides}", SeededDice(seed_state(seed)))
    assert n <= r.total <= n * sides and len(r.dice) == n


def katari(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "runner", *args], capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_katari_roll_shows_every_die() -> None:
    r = katari("roll", "1d6+1d4", "--dice", "3,2", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dice"] == [3, 2] and out["total"] == 5
    r = katari("roll", "3d3", "--dice", "1,2,3")
    assert "[1/d3] [2/d3] [3/d3] = 6" in r.stdout


def test_katari_roll_seed_repeats_and_errors_are_one_line() -> None:
    assert katari("roll", "2d10", "--seed", "5").stdout == katari("roll", "2d10", "--seed", "5").stdout
    r = katari("roll", "2x6")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = katari("roll", "1d6+1d4", "--dice", "3")
    assert r.returncode == 2 and "1 more needed (d4)" in r.stderr


def test_misspelt_commands_and_options_get_one_clear_line() -> None:
    r = katari("lst")
    assert r.returncode == 2 and r.stderr.strip() == "katari: no command 'lst'; did you mean `katari list`?"
    r = katari("play", "--sed", "3")
    assert r.returncode == 2 and r.stderr.startswith("usage: katari play") and "--sed" in r.stderr


def test_a_target_after_plain_dice_says_success_or_failure() -> None:
    r = katari("roll", "2d6>=7", "--dice", "3,5")
    assert r.returncode == 0 and r.stdout.strip() == "2d6: [3/d6] [5/d6] = 8 >= 7 → 成功"
    out = json.loads(katari("roll", "2d6>=7", "--dice", "1,2", "--json").stdout)
    assert out == {"expr": "2d6", "dice": [1, 2], "sides": [6, 6], "total": 3, "target": 7, "op": ">=", "success": False}
