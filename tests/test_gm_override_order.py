"""A GM's damage and stat overrides: what they did is said in the order it happened, in the
sheet's words, and a value no sheet can take is answered in one line.

(The table tour, deep_sea_atelier at 80x24 and 120x40, ja and en.)

- ``ダメージ 触腕1 12`` in a fight wrote its ［GM 上書き］ line after the 怯み roll it caused
  (with ``--dice manual``), in words that said HP where the sheets say 耐久力; ``ダメージ 1d3
  SAN`` wrote the line stating the amount before the 1d3 that decided it. The rule now, for
  every damage/stat override: the roll that decides the amount, then the override line, then
  what it caused (docs/gm.md, "Order").
- The roll's label read ``san`` (the sheet's id): it is 正気度 / SAN, like every label.
- ``:幸運=abc`` answered "unknown command": every bad value now gets a line naming what fits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import played

from runner.story import load
from runner.ui import jsonl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
# 黒田 剛 in the lit room; the GM starts the fight at the door (two arms).
LIT = ["1", "スマホ", "目を覚ます", "スマホ", "照明のスイッチを入れる"]
FIGHT = [*LIT, "!set enc_at 'door'", "!goto fight_start"]
FIGHT_WORDS = [*LIT, "変数 enc_at 'door'", "移動 fight_start"]


pytestmark = pytest.mark.usefixtures("home")  # (conftest: KATARI_HOME in a fresh folder)


@pytest.fixture(scope="module")
def deep() -> Any:
    return load(DEEP)


def _story(lang: str) -> Any:
    """The atelier as `katari play --lang LANG` plays it (its English translation)."""
    from runner.commands._common import translated

    return translated(load(DEEP), lang)


def _last_turn(story: Any, lines: list[str]) -> list[dict[str, Any]]:
    """The events of the last line's turn (up to its state event), headless with --gm."""
    evs = list(jsonl.turns(story, lines, seed=1, gm=True))
    states = [i for i, e in enumerate(evs) if e["type"] == "state"]
    return [e for e in evs[states[-2] + 1 : states[-1]] if e["type"] != "prompt"]


def _where(evs: list[dict[str, Any]], test: Any) -> int:
    hits = [i for i, e in enumerate(evs) if test(e)]
    assert hits, evs
    return hits[0]


def _override(e: dict[str, Any]) -> bool:
    return e["type"] == "override" and e.get("code") in ("damage", "stat")


# Each kind of damage/stat override: (setup, command, the amount is rolled, what it causes).
# ``causes`` picks the first event the change itself made (a line or a roll after it).
KINDS = [
    ("enemy in a fight, dazed", FIGHT, "!damage 触腕1 12", False, "怯み"),
    ("enemy in a fight, dice", FIGHT, "!damage 触腕1 3d6+10", True, "怯み"),
    ("PC HP, fixed", LIT, "!damage 3", False, "ダメージ"),
    ("PC HP, dice", LIT, "!damage 1d3", True, "ダメージ"),
    ("PC SAN, dice", LIT, "!damage 1d3 SAN", True, None),
    ("PC Luck, stat dice", LIT, "!stat 幸運-1d10", True, None),
    ("PC HP, stat", LIT, "!stat HP-2", False, "ダメージ"),
    ("PC HP, stat dice", LIT, "!stat HP-1d3", True, "ダメージ"),
    ("PC HP, major wound", LIT, "!damage 7", False, "CON"),
]


@pytest.mark.parametrize(("name", "setup", "command", "rolled", "causes"), KINDS)
def test_the_roll_that_decides_the_amount_then_the_override_then_what_it_caused(
    deep: Any, name: str, setup: list[str], command: str, rolled: bool, causes: str | None
) -> None:
    evs = _last_turn(deep, [*setup, command])
    ov = _where(evs, _override)
    amount = evs[ov]["data"]["amount"]
    rolls = [i for i, e in enumerate(evs) if e["type"] == "roll" and e.get("total") == amount]
    if rolled:
        assert rolls and rolls[0] < ov, (name, evs)  # the 1d3 comes before the line stating 2
    # Nothing the change caused comes before the line saying what the GM did.
    before = [e for e in evs[:ov] if not (rolled and e is evs[rolls[0]])]
    assert before == [], (name, before)
    if causes is not None:
        after = _where(
            evs,
            lambda e: (
                causes in str(e.get("text", "")) + str(e.get("label", "")) and e is not evs[ov]
            ),
        )
        assert after > ov, (name, evs)


def test_the_clock_override_comes_before_the_timed_events_it_sets_off(deep: Any) -> None:
    evs = _last_turn(deep, [*LIT, "!clock +90"])
    ov = _where(evs, lambda e: e["type"] == "override")
    assert ov == 0 and any(e["type"] == "roll" for e in evs[ov:]), evs


def test_with_dice_by_hand_the_console_writes_the_override_before_its_consequences() -> None:
    story = load(DEEP)
    # The 怯み 1D10 is asked for: what the damage did is on screen first, then the roll.
    _, out = played(story, [*FIGHT_WORDS, "ダメージ 触腕1 12", "4"], new=True, gm=True, manual=True)
    tail = out[out.index("▶ ダメージ 触腕1 12") :]
    order = [
        tail.index(s)
        for s in ("［GM 上書き］ 触腕1の耐久力：30 → 18", "触腕1に 12 ダメージ。", "怯み 1d10：[4]")
    ]
    assert order == sorted(order), tail
    assert tail.count("［GM 上書き］") == 1
    # The 1d3 deciding the SAN lost comes before the line that states it.
    _, out = played(story, [*LIT, "ダメージ 1d3 SAN", "2"], new=True, gm=True, manual=True)
    tail = out[out.index("▶ ダメージ 1d3 SAN") :]
    assert tail.index("🎲 黒田 剛 正気度 1d3：[2]") < tail.index(
        "［GM 上書き］ 黒田 剛の正気度：50 → 48"
    ), tail


@pytest.mark.parametrize(
    ("lang", "command", "label", "line"),
    [
        ("ja", "ダメージ 1d3 SAN", "黒田 剛 正気度", "［GM 上書き］ 黒田 剛の正気度："),
        ("ja", "ダメージ 1d3", "黒田 剛 耐久力", "［GM 上書き］ 黒田 剛の耐久力："),
        ("ja", ":幸運-1d3", "黒田 剛 幸運", "［GM 上書き］ 黒田 剛の幸運："),
        ("en", "gm damage 1d3 SAN", "Tsuyoshi Kuroda SAN", "[GM override] Tsuyoshi Kuroda SAN:"),
        ("en", "gm damage 1d3", "Tsuyoshi Kuroda HP", "[GM override] Tsuyoshi Kuroda HP:"),
        ("en", ":Luck-1d3", "Tsuyoshi Kuroda Luck", "[GM override] Tsuyoshi Kuroda Luck:"),
    ],
)
def test_an_overrides_roll_and_line_name_the_stat_in_the_sheets_words(
    lang: str, command: str, label: str, line: str
) -> None:
    story = _story(lang)
    start = LIT if lang == "ja" else ["1", "phone", "wake", "phone", "switch"]
    _, out = played(story, [*start, command], new=True, gm=True, lang=lang)
    tail = out[out.index(f"{'▶' if lang == 'ja' else '>'} {command}") :]
    assert label in tail and line in tail, tail
    body = tail.split("\n", 1)[1]  # what the console wrote: never the sheet's ids san, hp
    assert " san" not in body and " hp" not in body and "のHP" not in body, body


def test_a_fighting_enemys_damage_is_worded_in_the_sheets_words() -> None:
    story = load(DEEP)
    _, out = played(story, [*FIGHT_WORDS, "ダメージ 触腕1 2"], new=True, gm=True)
    assert "［GM 上書き］ 触腕1の耐久力：30 → 28" in out and "のHP" not in out


# A value no sheet can take: one line naming what fits, nothing changed.
BAD_VALUES = [
    ("abc", "「abc」は数ではありません", "“abc” is not a number"),
    ("", "の値がありません", "No value for"),
    ("1.5", "「1.5」は数ではありません", "“1.5” is not a number"),
    ("-3", "は 0 より下にできません", "cannot go below 0"),
    ("99999999999", "「99999999999」は大きすぎます", "“99999999999” is too big"),
    ("100000", "「100000」は大きすぎます", "“100000” is too big"),
]


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize(("value", "ja", "en"), BAD_VALUES)
@pytest.mark.parametrize("stat", ["幸運", "SAN", "HP"])
def test_a_bad_value_for_a_sheet_gets_one_line_naming_what_fits(
    lang: str, value: str, ja: str, en: str, stat: str
) -> None:
    story = _story(lang)
    start = LIT if lang == "ja" else ["1", "phone", "wake", "phone", "switch"]
    if lang == "en" and stat == "幸運":
        stat = "Luck"
    repl, out = played(story, [*start, f":{stat}={value}", "status"], new=True, gm=True, lang=lang)
    tail = out[out.index(f"{'▶' if lang == 'ja' else '>'} :{stat}={value}") :].splitlines()
    assert (ja if lang == "ja" else en) in tail[1], tail[:3]
    assert stat in tail[1] and ("1d3" in tail[1] or "99999" in tail[1]), tail[1]
    assert "知らない" not in "\n".join(tail) and "not understood" not in "\n".join(tail).lower()
    sheet = repl.state.stats["pc"]
    assert (sheet["luck"], sheet["san"], sheet["hp"]) == (50, 50, 12)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("!stat luck=abc", "gm_bad_amount"),
        ("!stat luck=", "gm_no_amount"),
        ("!stat luck=1.5", "gm_bad_amount"),
        ("!stat luck=-3", "gm_amount_negative"),
        ("!stat luck=123456", "gm_amount_too_big"),
        ("!damage 123456", "gm_amount_too_big"),
    ],
)
def test_the_engine_bounds_every_amount_where_it_enters(deep: Any, command: str, code: str) -> None:
    evs = _last_turn(deep, [*LIT, command])
    errors = [e for e in evs if e["type"] == "error"]
    assert [e["code"] for e in errors] == [code], evs
    assert not any(e["type"] == "override" for e in evs)
