"""The console's ``--dice manual`` and ``--jsonl``'s ``:dice`` read the same numbers the same
way for the same roll (the table tour: a typed ``90`` for a Luck roll was 90 at the console,
and ``:dice 90`` was refused as "a d10 cannot show 90").

The reading (runner.rules.dice.percentile_faces, docs/gm.md and docs/jsonl.md): for the usual
two percentile dice one number is the roll (``00``, ``0`` and ``100`` are 100, ``5`` is 05)
and two digits are the tens and the units (``9 0``); a number no die shows is refused.
Guard: one table of answers, given to both front ends, at the same Luck roll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import played

from runner.rules.dice import DiceError, percentile_faces
from runner.story import load
from runner.ui import jsonl

DEEP = Path(__file__).resolve().parent.parent / "stories" / "deep_sea_atelier"
# 黒田 剛 wakes in the dark; action 1 gropes for the switch: a Luck roll (1d100 <= 50).
START = ["1", "4"]

# The answer typed, and the roll it is (None: refused, nothing rolled with it).
TABLE = [
    ("90", 90),
    ("00", 100),
    ("100", 100),
    ("0", 100),
    ("5", 5),
    ("05", 5),
    ("47", 47),
    ("9 0", 90),
    ("0 5", 5),
    ("9,0", 90),
    ("40 7", 47),
    ("1 10", 10),
    ("abc", None),
    ("101", None),
    ("-5", None),
]


pytestmark = pytest.mark.usefixtures("home")  # (conftest: KATARI_HOME in a fresh folder)


@pytest.fixture(scope="module")
def deep() -> Any:
    return load(DEEP)


def _total(faces: list[int]) -> int:
    return (faces[0] % 10) * 10 + faces[1] % 10 or 100


def _console(story: Any, answer: str) -> int | None:
    """The Luck roll the console makes of ``answer`` typed at its prompt (None: refused)."""
    # (a fumble's 1D3 is answered 2; otherwise the 2 is the next command, and its roll is
    # cancelled by the end of the input)
    repl, out = played(story, [*START, "1", answer, "2"], new=True, manual=True, cols=120)
    luck = [c for c in repl.tl.commands if c.command == "1" and c.dice]
    assert luck, out[-800:]
    after = out[out.rindex(f"▶ {answer}\n") :].splitlines()[1]
    if (
        "出目" in after or "の目" in after
    ):  # refused in one line: the prompt kept waiting, and 2 answered it
        assert _total(luck[-1].dice[:2]) == 2, after
        return None
    return _total(luck[-1].dice[:2])


def _headless(story: Any, answer: str) -> int | None:
    """The Luck roll ``--jsonl`` makes with ``:dice ANSWER`` (None: refused)."""
    evs = list(jsonl.turns(story, [*START, f":dice {answer}", "1"], seed=1, gm=True))
    states = [i for i, e in enumerate(evs) if e["type"] == "state"]
    given, turn = evs[states[-3] + 1 : states[-2]], evs[states[-2] + 1 : states[-1]]
    if any(e["type"] == "error" for e in given + turn):
        return None
    rolls = [e for e in turn if e["type"] == "roll" and e.get("label") == "幸運"]
    return int(rolls[0]["total"])


@pytest.mark.parametrize(("answer", "roll"), TABLE)
def test_both_front_ends_read_an_answer_as_the_same_roll(
    deep: Any, answer: str, roll: int | None
) -> None:
    assert _headless(deep, answer) == roll
    assert _console(deep, answer) == roll


def test_the_reading_as_a_function() -> None:
    assert percentile_faces([90], 2) == ([9, 10], 1)
    assert percentile_faces([0], 2) == ([10, 10], 1)
    assert percentile_faces([9, 0, 3], 2) == ([9, 10], 2)  # the 3 is the next roll's
    assert percentile_faces([90, 3], 2) == ([9, 3], 2)  # the tens die as printed, 93
    assert percentile_faces([90], 2) == ([9, 10], 1)
    assert percentile_faces([1, 10], 2) == ([1, 10], 2)  # a roll event's faces: 10
    assert percentile_faces([10, 10], 2) == ([10, 10], 2)  # 100
    # With a bonus die: tens dice 0-9 or 00-90, then the units die.
    assert percentile_faces([40, 2, 7], 3) == ([4, 2, 7], 3)
    assert percentile_faces([0, 0, 5], 3) == ([10, 10, 5], 3)
    for bad, count in (([101], 2), ([-1], 2), ([45, 1, 2], 3), ([11], 3), ([4, 2, 70], 3)):
        with pytest.raises(DiceError):
            percentile_faces(bad, count)


def test_a_jsonl_percentile_roll_with_a_bonus_die_reads_tens_as_the_console_does(
    deep: Any,
) -> None:
    """Faces given one a die (saves, replays, the old ``:dice 9,0``) keep their meaning."""
    evs = list(jsonl.turns(deep, [*START, ":dice 4,7", "1"], seed=1, gm=True))
    assert [e["total"] for e in evs if e["type"] == "roll" and e.get("label") == "幸運"] == [47]
