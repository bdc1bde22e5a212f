"""BCDice compatibility: our CoC 7th commands print what BCDice prints for the same dice.

CASES is copied from BCDice's own test data for Cthulhu7th (bcdice/BCDice,
test/data/Cthulhu7th.toml, BSD-3-Clause): input, expected output, and the dice BCDice's
test randomizer hands out ({sides, value}; a d10 value of 0 or 10 reads 0).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner.rules.coc7.bcdice import BONUS_ERROR, bcdice, preprocess
from runner.rules.coc7.checks import level_of
from runner.rules.dice import ManualDice, NeedDice

D10, D100 = 10, 100

CASES: list[tuple[str, str, list[tuple[int, int]]]] = [
    ("CBR(70,30)", "(1d100<=70,30) ＞ 30[ハード成功,レギュラー成功] ＞ 成功", [(D100, 30)]),
    ("CBR(70,30)", "(1d100<=70,30) ＞ 50[レギュラー成功,失敗] ＞ 部分的成功", [(D100, 50)]),
    ("CBR(30,70)", "(1d100<=30,70) ＞ 60[失敗,レギュラー成功] ＞ 部分的成功", [(D100, 60)]),
    ("CBR(70,69)", "(1d100<=70,69) ＞ 14[イクストリーム成功,ハード成功] ＞ 成功", [(D100, 14)]),
    ("CBR(70,30)", "(1d100<=70,30) ＞ 100[ファンブル,ファンブル] ＞ 失敗", [(D100, 100)]),
    ("CBR(70,30)", "(1d100<=70,30) ＞ 1[クリティカル,クリティカル] ＞ 成功", [(D100, 1)]),
    ("CBR(25,20)", "(1d100<=25,20) ＞ 1[クリティカル,クリティカル] ＞ 成功", [(D100, 1)]),
    ("CBR(25,1)", "(1d100<=25,1) ＞ 5[イクストリーム成功,失敗] ＞ 部分的成功", [(D100, 5)]),
    ("CBR(90,40)", "(1d100<=90,40) ＞ 97[失敗,ファンブル] ＞ 失敗", [(D100, 97)]),
    ("CBR(10,90)", "(1d100<=10,90) ＞ 30[失敗,ハード成功] ＞ 部分的成功", [(D100, 30)]),
    ("CBR(10,(40+50))", "(1d100<=10,90) ＞ 30[失敗,ハード成功] ＞ 部分的成功", [(D100, 30)]),
    ("CBR(xxx,xxx) 失敗パターン", "", []),
    (
        "CC(-1)<=93",
        "(1D100<=93) ボーナス・ペナルティダイス[-1] ＞ 92, 72 ＞ 92 ＞ レギュラー成功",
        [(D10, 9), (D10, 7), (D10, 2)],
    ),
    (
        "CC(1)<=53",
        "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 9), (D10, 5), (D10, 2)],
    ),
    (
        "CC(+1)<=53",
        "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 9), (D10, 5), (D10, 2)],
    ),
    (
        "CC(1)<=46",
        "(1D100<=46) ボーナス・ペナルティダイス[1] ＞ 47, 37 ＞ 37 ＞ レギュラー成功",
        [(D10, 4), (D10, 3), (D10, 7)],
    ),
    (
        "CC(-1)<=46",
        "(1D100<=46) ボーナス・ペナルティダイス[-1] ＞ 47, 37 ＞ 47 ＞ 失敗",
        [(D10, 4), (D10, 3), (D10, 7)],
    ),
    (
        "CC(1)<=63",
        "(1D100<=63) ボーナス・ペナルティダイス[1] ＞ 100, 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10), (D10, 10)],
    ),
    (
        "CC(-1)<=63",
        "(1D100<=63) ボーナス・ペナルティダイス[-1] ＞ 100, 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10), (D10, 10)],
    ),
    (
        "CC(1)<=63",
        "(1D100<=63) ボーナス・ペナルティダイス[1] ＞ 1, 1 ＞ 1 ＞ クリティカル",
        [(D10, 10), (D10, 10), (D10, 1)],
    ),
    (
        "CC(-1)<=63",
        "(1D100<=63) ボーナス・ペナルティダイス[-1] ＞ 1, 1 ＞ 1 ＞ クリティカル",
        [(D10, 10), (D10, 10), (D10, 1)],
    ),
    (
        "CC(0)<=53",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 5), (D10, 2)],
    ),
    (
        "CC<=53",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 5), (D10, 2)],
    ),
    (
        "CC<=5",
        "(1D100<=5) ボーナス・ペナルティダイス[0] ＞ 2 ＞ 2 ＞ ハード成功",
        [(D10, 10), (D10, 2)],
    ),
    (
        "CC(2)<=73",
        "(1D100<=73) ボーナス・ペナルティダイス[2] ＞ 24, 14, 54 ＞ 14 ＞ イクストリーム成功",
        [(D10, 2), (D10, 1), (D10, 5), (D10, 4)],
    ),
    (
        "CC(2)<=73",
        "(1D100<=73) ボーナス・ペナルティダイス[2] ＞ 20, 100, 50 ＞ 20 ＞ ハード成功",
        [(D10, 2), (D10, 10), (D10, 5), (D10, 10)],
    ),
    (
        "CC(-2)<=43",
        "(1D100<=43) ボーナス・ペナルティダイス[-2] ＞ 97, 67, 37 ＞ 97 ＞ ファンブル",
        [(D10, 9), (D10, 6), (D10, 3), (D10, 7)],
    ),
    (
        "CC(-2)<=80",
        "(1D100<=80) ボーナス・ペナルティダイス[-2] ＞ 100, 60, 50 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 6), (D10, 5), (D10, 10)],
    ),
    (
        "CC(-1)<=53",
        "(1D100<=53) ボーナス・ペナルティダイス[-1] ＞ 97, 67 ＞ 97 ＞ 失敗",
        [(D10, 9), (D10, 6), (D10, 7)],
    ),
    (
        "CC<=49",
        "(1D100<=49) ボーナス・ペナルティダイス[0] ＞ 95 ＞ 95 ＞ 失敗",
        [(D10, 9), (D10, 5)],
    ),
    (
        "CC<=49",
        "(1D100<=49) ボーナス・ペナルティダイス[0] ＞ 96 ＞ 96 ＞ ファンブル",
        [(D10, 9), (D10, 6)],
    ),
    (
        "CC<=50",
        "(1D100<=50) ボーナス・ペナルティダイス[0] ＞ 99 ＞ 99 ＞ 失敗",
        [(D10, 9), (D10, 9)],
    ),
    (
        "CC<=50",
        "(1D100<=50) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10)],
    ),
    ("CC(-101)<=80", BONUS_ERROR, []),
    ("CC(101)<=80", BONUS_ERROR, []),
    ("CC<=0", "(1D100) ＞ 33", [(D100, 33)]),
    (
        "CC(2)",
        "(1D100) ボーナス・ペナルティダイス[2] ＞ 20, 100, 50 ＞ 20",
        [(D10, 2), (D10, 10), (D10, 5), (D10, 10)],
    ),
    (
        "CC(2)<=0",
        "(1D100) ボーナス・ペナルティダイス[2] ＞ 20, 100, 50 ＞ 20",
        [(D10, 2), (D10, 10), (D10, 5), (D10, 10)],
    ),
    (
        "CC(-2)",
        "(1D100) ボーナス・ペナルティダイス[-2] ＞ 97, 67, 37 ＞ 97",
        [(D10, 9), (D10, 6), (D10, 3), (D10, 7)],
    ),
    (
        "CC(3) ボーナスダイス数緩和",
        "(1D100) ボーナス・ペナルティダイス[3] ＞ 20, 100, 50, 30 ＞ 20",
        [(D10, 2), (D10, 10), (D10, 5), (D10, 3), (D10, 10)],
    ),
    (
        "CC(-3) ペナルティダイス数緩和",
        "(1D100) ボーナス・ペナルティダイス[-3] ＞ 20, 100, 50, 30 ＞ 100",
        [(D10, 2), (D10, 10), (D10, 5), (D10, 3), (D10, 10)],
    ),
    (
        "CC-1<=93 ペナルティダイス指定カッコなし",
        "(1D100<=93) ボーナス・ペナルティダイス[-1] ＞ 92, 72 ＞ 92 ＞ レギュラー成功",
        [(D10, 9), (D10, 7), (D10, 2)],
    ),
    (
        "CC1<=53 ボーナスダイス指定カッコなし",
        "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 9), (D10, 5), (D10, 2)],
    ),
    (
        "CC+1<=53 ボーナスダイス指定カッコなし",
        "(1D100<=53) ボーナス・ペナルティダイス[1] ＞ 92, 52 ＞ 52 ＞ レギュラー成功",
        [(D10, 9), (D10, 5), (D10, 2)],
    ),
    (
        "CC<=100",
        "(1D100<=100) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10)],
    ),
    (
        "CC<=150",
        "(1D100<=150) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10)],
    ),
    (
        "CC<=53r",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 53 ＞ 53 ＞ 成功",
        [(D10, 5), (D10, 3)],
    ),
    (
        "CC<=53r",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 54 ＞ 54 ＞ 失敗",
        [(D10, 5), (D10, 4)],
    ),
    (
        "CC<=53r",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 99 ＞ 99 ＞ 失敗",
        [(D10, 9), (D10, 9)],
    ),
    (
        "CC<=53r",
        "(1D100<=53) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 0), (D10, 0)],
    ),
    (
        "CC<=53h",
        "(1D100<=26) ボーナス・ペナルティダイス[0] ＞ 26 ＞ 26 ＞ 成功",
        [(D10, 2), (D10, 6)],
    ),
    (
        "CC<=53h",
        "(1D100<=26) ボーナス・ペナルティダイス[0] ＞ 27 ＞ 27 ＞ 失敗",
        [(D10, 2), (D10, 7)],
    ),
    (
        "CC<=53h",
        "(1D100<=26) ボーナス・ペナルティダイス[0] ＞ 96 ＞ 96 ＞ ファンブル",
        [(D10, 9), (D10, 6)],
    ),
    (
        "CC<=53e",
        "(1D100<=10) ボーナス・ペナルティダイス[0] ＞ 10 ＞ 10 ＞ 成功",
        [(D10, 1), (D10, 0)],
    ),
    (
        "CC<=53e",
        "(1D100<=10) ボーナス・ペナルティダイス[0] ＞ 11 ＞ 11 ＞ 失敗",
        [(D10, 1), (D10, 1)],
    ),
    (
        "CC<=2e",
        "(1D100<=0) ボーナス・ペナルティダイス[0] ＞ 1 ＞ 1 ＞ クリティカル",
        [(D10, 0), (D10, 1)],
    ),
    (
        "CC<=99c",
        "(1D100<=0) ボーナス・ペナルティダイス[0] ＞ 1 ＞ 1 ＞ クリティカル",
        [(D10, 0), (D10, 1)],
    ),
    ("CC<=99c", "(1D100<=0) ボーナス・ペナルティダイス[0] ＞ 2 ＞ 2 ＞ 失敗", [(D10, 0), (D10, 2)]),
    (
        "CC<=99c",
        "(1D100<=0) ボーナス・ペナルティダイス[0] ＞ 96 ＞ 96 ＞ ファンブル",
        [(D10, 9), (D10, 6)],
    ),
    (
        "CC<=100r",
        "(1D100<=100) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10)],
    ),
    (
        "CC<=300h",
        "(1D100<=150) ボーナス・ペナルティダイス[0] ＞ 100 ＞ 100 ＞ ファンブル",
        [(D10, 10), (D10, 10)],
    ),
]

_LEVEL_FROM_TEXT = {
    "クリティカル": "critical",
    "イクストリーム成功": "extreme",
    "ハード成功": "hard",
    "レギュラー成功": "regular",
    "成功": "success",
    "失敗": "failure",
    "ファンブル": "fumble",
}


class StrictDice:
    """Hands out BCDice's test dice and checks each is asked for with the right sides."""

    def __init__(self, rands: list[tuple[int, int]]) -> None:
        self.rands = list(rands)
        self.used = 0

    def face(self, sides: int) -> int:
        want, value = self.rands[self.used]
        assert sides == want, f"die {self.used}: asked for d{sides}, BCDice rolled d{want}"
        self.used += 1
        return 10 if (sides == 10 and value == 0) else value


@pytest.mark.parametrize(
    ("command", "expected", "rands"), CASES, ids=[f"{i}:{c[0]}" for i, c in enumerate(CASES)]
)
def test_bcdice_cases(command: str, expected: str, rands: list[tuple[int, int]]) -> None:
    dice = StrictDice(rands)
    res = bcdice(command, dice)
    if expected == "":
        assert res is None
        return
    assert res is not None
    assert res.text == expected
    assert dice.used == len(rands), "every BCDice die is used, in the same order"
    js = res.to_json()
    if res.error:
        assert js["total"] is None
        return
    # The kept total and the level are the last parts of BCDice's line.
    parts = expected.split(" ＞ ")
    if command.upper().startswith("CBR"):
        assert js["total"] == int(parts[1].split("[")[0])
        first, second = parts[1].split("[")[1].rstrip("]").split(",")
        assert js["levels"] == [_LEVEL_FROM_TEXT[first], _LEVEL_FROM_TEXT[second]]
        assert (
            js["rank"] == {"成功": "success", "部分的成功": "partial", "失敗": "failure"}[parts[-1]]
        )
    elif parts[-1] in _LEVEL_FROM_TEXT:
        assert js["level"] == _LEVEL_FROM_TEXT[parts[-1]]
        assert js["total"] == int(parts[-2])
    else:
        assert js["level"] is None
        assert js["total"] == int(parts[-1])


def test_dice_values_and_json() -> None:
    res = bcdice("CC(1)<=46", ManualDice([4, 3, 7]))
    assert res.to_json()["dice"] == [4, 3, 7]
    assert res.to_json()["sides"] == [10, 10, 10]
    assert res.to_json()["bonus"] == 1
    assert res.success is True


def test_not_a_command() -> None:
    for text in ("", "hello", "CCX<=50", "FOO<=50", "CBR(1)", "2x6", "choice[a]", "x0 1d6" * 0):
        assert bcdice(text, ManualDice([])) is None, text


def test_every_bcdice_command_not_only_cocs() -> None:
    # #16: plain sums, D66, choice, C(...) and repeats are read too, in BCDice's words.
    assert bcdice("2d6", ManualDice([3, 4])).text == "(2D6) ＞ 7[3,4] ＞ 7"
    assert bcdice("1d100", ManualDice([37])).text == "(1D100) ＞ 37"
    assert bcdice("D66", ManualDice([3, 2])).text == "(D66) ＞ 32"
    assert bcdice("choice[a,b,c]", ManualDice([2])).text == "(choice[a,b,c]) ＞ b"
    assert bcdice("C(1+2*3)", ManualDice([])).text == "c(1+2*3) ＞ 7"
    res = bcdice("x2 CC<=50 目星", ManualDice([2, 5, 9, 9]))
    assert res.text == (
        "#1\n(1D100<=50) ボーナス・ペナルティダイス[0] ＞ 25 ＞ 25 ＞ ハード成功\n\n"
        "#2\n(1D100<=50) ボーナス・ペナルティダイス[0] ＞ 99 ＞ 99 ＞ 失敗"
    )


def test_lower_case_and_full_width() -> None:
    assert bcdice("cc<=50", ManualDice([5, 2])).level == "failure"
    assert bcdice("ＣＣ＜＝５０", ManualDice([2, 5])).level == "hard"


def test_secret_prefix() -> None:
    res = bcdice("SCC<=50", ManualDice([2, 5]))
    assert res.secret and res.level == "hard"
    assert res.to_json()["secret"] is True


def test_plain_d100_reads_like_bcdice() -> None:
    res = bcdice("1d100<=50", ManualDice([37]))
    assert res.text == "(1D100<=50) ＞ 37 ＞ 成功"
    assert res.level == "success" and res.dice == [37] and res.sides == [100]
    assert bcdice("1D100<=50", ManualDice([51])).text == "(1D100<=50) ＞ 51 ＞ 失敗"


def test_san_command() -> None:
    res = bcdice("SAN<=55 1/1d6", ManualDice([3, 7]))  # 37: success, lose 1
    assert res.text == "(1D100<=55) 正気度ロール ＞ 37 ＞ 成功 ＞ 正気度喪失 1 ＞ 正気度 55 → 54"
    assert res.to_json()["san"] == {"before": 55, "loss": 1, "after": 54, "expr": "1/1d6"}
    res = bcdice("SAN<=55 1/1d6", ManualDice([9, 9, 4]))  # 99: failure, roll 1d6
    assert res.text.endswith("正気度喪失 1D6[4] = 4 ＞ 正気度 55 → 51")
    assert res.dice == [9, 9, 4] and res.sides == [10, 10, 6]
    res = bcdice("SAN<=40 2/2d10", ManualDice([9, 7]))  # 97 with SAN under 50: fumble, max 20
    assert res.level == "fumble"
    assert res.san["loss"] == 20 and res.dice == [9, 7]
    res = bcdice("SAN<=30 0/1d3", ManualDice([1, 0]))  # 10: extreme, but a SAN roll just succeeds
    assert res.level == "success" and res.san["loss"] == 0
    res = bcdice("SAN<=4 1/1d10", ManualDice([5, 5, 9]))
    assert res.san["after"] == 0 and "永久的狂気" in res.text
    res = bcdice("SAN<=60 1/1d10", ManualDice([9, 0, 7]))
    assert "5以上の喪失" in res.text
    assert bcdice("SAN<=60 1/x", ManualDice([])) is None


def test_manual_dice_asks_for_all_missing_dice() -> None:
    with pytest.raises(NeedDice) as e:
        bcdice("CC(2)<=50", ManualDice([3]))
    assert e.value.sides == [10, 10, 10]


def test_preprocess() -> None:
    assert preprocess("CC(-1)<=93") == "CC-1<=93"
    assert preprocess("CC(+1)<=53") == "CC+1<=53"
    assert preprocess("CBR(10,(40+50))") == "CBR(10,90)"
    assert preprocess("CC(2*3-5)<=50") == "CC1<=50"


@given(st.integers(1, 100), st.integers(1, 200))
def test_plain_cc_level_matches_level_of(total: int, target: int) -> None:
    t, u = divmod(total % 100, 10)
    res = bcdice(f"CC<={target}", ManualDice([t or 10, u or 10]))
    assert res.total == total
    assert res.level == level_of(total, target)
