"""A line of cells (items two or more spaces apart, each short: a coc7 sheet's characteristics)
wraps between cells, never inside one (a tourist saw 「精神」 end one line and 「力POW 50」 start
the next at 80 columns); prose still wraps as before."""

from __future__ import annotations

import random

import pytest

from runner.ui.render import width, wrap

_WORDS = [
    "筋力STR",
    "体力CON",
    "精神力POW",
    "幸運",
    "HP",
    "MP",
    "SAN",
    "移動",
    "DB",
    "ビルド",
    "教育EDU",
]


@pytest.mark.parametrize("seed", range(30))
def test_cells_stay_whole(seed: int) -> None:
    rng = random.Random(seed)
    cells = [f"{rng.choice(_WORDS)} {rng.randint(0, 99)}" for _ in range(rng.randint(2, 14))]
    line = "  " + "  ".join(cells)
    cols = rng.randint(20, 100)
    lines = wrap(line, cols)
    assert all(width(x) <= cols for x in lines)
    shown = [c for x in lines for c in x.strip().split("  ")]
    assert shown == cells


def test_the_sheet_line_at_80_columns() -> None:
    line = "  筋力STR 80  体力CON 60  体格SIZ 60  敏捷性DEX 70  外見APP 50  知性INT 50  精神力POW 50  教育EDU 40"
    assert wrap(line, 79) == [
        "  筋力STR 80  体力CON 60  体格SIZ 60  敏捷性DEX 70  外見APP 50  知性INT 50",
        "  精神力POW 50  教育EDU 40",
    ]


def test_prose_with_double_spaces_wraps_between_words() -> None:
    text = (
        "The door is shut.  It has been shut for a long time, and nobody has come through it since."
    )
    lines = wrap(text, 30)
    assert all(len(x) <= 30 for x in lines)
    assert " ".join(lines).split() == text.split()
