"""Investigator sheets: derived values, the damage bonus table, skills, pregens, creation."""

from __future__ import annotations

import pytest
from hook_context import TENTACLE_PROPS, TENTACLE_STATS, coc7_context, tentacle_story
from hypothesis import given
from hypothesis import strategies as st

from runner.rules.base import RuleError
from runner.rules.coc7 import SYSTEM, make_enemy, make_investigator, pregens, sheet
from runner.rules.dice import ManualDice, NeedDice, SeededDice

CHARS = {"STR": 50, "CON": 60, "SIZ": 65, "DEX": 70, "APP": 50, "INT": 75, "POW": 55, "EDU": 80}


@pytest.mark.parametrize(
    ("total", "db", "build"),
    [
        (2, "-2", -2),
        (64, "-2", -2),
        (65, "-1", -1),
        (84, "-1", -1),
        (85, "0", 0),
        (124, "0", 0),
        (125, "+1D4", 1),
        (164, "+1D4", 1),
        (165, "+1D6", 2),
        (204, "+1D6", 2),
        (205, "+2D6", 3),
        (284, "+2D6", 3),
        (285, "+3D6", 4),
        (364, "+3D6", 4),
        (365, "+4D6", 5),
        (444, "+4D6", 5),
        (445, "+5D6", 6),
    ],
)
def test_damage_bonus_boundaries(total: int, db: str, build: int) -> None:
    assert sheet.damage_bonus(total) == (db, build)


@given(st.integers(2, 600))
def test_damage_bonus_is_monotone(total: int) -> None:
    assert sheet.damage_bonus(total)[1] <= sheet.damage_bonus(total + 1)[1]


def test_derived_values() -> None:
    s = make_investigator("A", CHARS, luck=55)
    assert s["hp"] == s["hp_max"] == (60 + 65) // 10 == 12
    assert s["mp"] == 55 // 5 == 11
    assert s["san"] == 55 and s["san_max"] == 99
    assert s["db"] == "0" and s["build"] == 0  # 50 + 65 = 115
    assert s["mov"] == 8  # DEX 70 ≥ SIZ 65, STR 50 < SIZ
    assert s["luck"] == 55


@pytest.mark.parametrize(
    ("str_", "dex", "siz", "mov"),
    [
        (40, 40, 60, 7),
        (60, 40, 60, 8),
        (40, 60, 60, 8),
        (60, 60, 60, 8),
        (70, 60, 60, 8),
        (70, 70, 60, 9),
        (80, 50, 60, 8),
    ],
)
def test_mov(str_: int, dex: int, siz: int, mov: int) -> None:
    assert sheet.mov(str_, dex, siz) == mov


def test_mov_age() -> None:
    assert sheet.mov(70, 70, 60, age=39) == 9
    assert sheet.mov(70, 70, 60, age=45) == 8
    assert sheet.mov(70, 70, 60, age=55) == 7
    assert sheet.mov(70, 70, 60, age=85) == 4


def test_luck_is_3d6_times_5() -> None:
    s = make_investigator("A", CHARS, source=ManualDice([3, 4, 5]))
    assert s["luck"] == 60
    with pytest.raises(RuleError):
        make_investigator("A", CHARS)


@given(st.integers(0, 2**32))
def test_rolled_characteristics_in_range(seed: int) -> None:
    c = sheet.roll_characteristics(SeededDice(seed))
    for k, v in c.items():
        assert v % 5 == 0
        if k in ("SIZ", "INT", "EDU"):
            assert 40 <= v <= 90
        else:
            assert 15 <= v <= 90


def test_rolled_characteristics_order() -> None:
    # STR CON SIZ DEX APP INT POW EDU: 3D6 for STR, CON, DEX, APP, POW; 2D6+6 otherwise.
    faces = [1, 1, 1, 2, 2, 2, 1, 1, 3, 3, 3, 4, 4, 4, 2, 2, 5, 5, 5, 6, 6]
    c = sheet.roll_characteristics(ManualDice(faces))
    assert c == {
        "STR": 15,
        "CON": 30,
        "SIZ": 40,
        "DEX": 45,
        "APP": 60,
        "INT": 50,
        "POW": 75,
        "EDU": 90,
    }


def test_standard_array_and_point_buy() -> None:
    c = sheet.assign_array(["DEX", "INT", "STR", "CON", "SIZ", "APP", "POW", "EDU"])
    assert c["DEX"] == 80 and c["INT"] == 70 and c["EDU"] == 40
    assert sum(c.values()) == 460
    assert sheet.check_point_buy(c) == c
    with pytest.raises(RuleError):
        sheet.assign_array(["DEX"] * 8)
    with pytest.raises(RuleError):
        sheet.check_point_buy({**c, "DEX": 85})
    with pytest.raises(RuleError):
        sheet.check_point_buy({**c, "DEX": 95, "INT": 55})


def test_quick_skills() -> None:
    sk = sheet.quick_skills(CHARS, ["目星", "Listen", "図書館"], ["回避", "目星"])
    assert sk["目星"] == 70 + 20
    assert sk["聞き耳"] == 60 and sk["図書館"] == 60
    assert sk["回避"] == 70 // 2 + 20


def test_skill_names_and_bases() -> None:
    assert sheet.canonical("Spot Hidden") == "目星"
    assert sheet.canonical("spot hidden") == "目星"
    assert sheet.canonical("芸術・製作（料理）") == "芸術/製作(料理)"
    assert sheet.canonical("Science (Pharmacy)") == "科学(Pharmacy)"
    assert sheet.canonical("ラテン語") == "ほかの言語(ラテン語)"
    assert sheet.canonical("Language (Other) (Japanese)") != ""
    assert sheet.canonical("ほかの言語（日本語）") == "ほかの言語(日本語)"
    assert sheet.canonical("近接戦闘") == "近接戦闘(格闘)"
    assert sheet.canonical("アイデア") == "INT" and sheet.canonical("知識") == "EDU"
    assert sheet.canonical("幸運") == "幸運" and sheet.canonical("Luck") == "幸運"
    s = make_investigator("A", CHARS, {"目星": 60}, luck=50)
    assert sheet.skill_value(s, "目星") == ("目星", 60)
    assert sheet.skill_value(s, "聞き耳") == ("聞き耳", 20)
    assert sheet.skill_value(s, "回避") == ("回避", 35)
    assert sheet.skill_value(s, "芸術/製作(工芸)")[1] == 5
    assert sheet.skill_value(s, "科学(薬学)")[1] == 1
    assert sheet.skill_value(s, "射撃(拳銃)")[1] == 20
    assert sheet.skill_value(s, "応急手当")[1] == 30
    assert sheet.skill_value(s, "DEX") == ("DEX", 70)
    assert sheet.skill_value(s, "アイデア") == ("INT", 75)
    assert sheet.skill_value(s, "幸運") == ("幸運", 50)


def test_native_language_is_rolled_as_own_language() -> None:
    jp = make_investigator("A", CHARS, luck=50, native="日本語")
    en = make_investigator("B", CHARS, luck=50, native="英語")
    assert sheet.skill_value(jp, "ほかの言語(日本語)") == ("母国語(日本語)", 80)
    assert sheet.skill_value(jp, "日本語")[1] == 80
    assert sheet.skill_value(en, "日本語") == ("ほかの言語(日本語)", 1)
    assert sheet.skill_value(en, "英語")[1] == 80


def test_pregens() -> None:
    ps = pregens()
    assert len(ps) == 4
    for p in ps:
        assert sorted(p["chars"].values(), reverse=True) == list(sheet.STANDARD_ARRAY)
        assert p["hp"] == (p["chars"]["CON"] + p["chars"]["SIZ"]) // 10
        assert p["mp"] == p["chars"]["POW"] // 5
        assert p["san"] == p["chars"]["POW"]
        assert p["luck"] % 5 == 0
        assert all(v <= 90 for v in p["skills"].values())
    assert any(p["native"] != "日本語" for p in ps)
    assert any(p["skills"].get("射撃(拳銃)", 0) >= 50 for p in ps)
    assert pregens()[0] is not ps[0]


def test_choose_pregen_hook_stores_the_sheet() -> None:
    ctx = coc7_context(1, story=tentacle_story())
    SYSTEM.init(ctx)
    assert ctx.call("coc7.choose_pregen", 2) == ["chosen"]
    assert ctx.state.stats["pc"]["name"] == pregens()[1]["name"]
    assert ctx.state.rules["coc7"]["pc"] == "pc"
    with pytest.raises(RuleError):
        ctx.call("coc7.choose_pregen", 5)


def test_story_option_picks_a_pregen_at_start() -> None:
    ctx = coc7_context(1, story=tentacle_story(pregen=3))
    SYSTEM.init(ctx)
    assert ctx.state.stats["pc"]["name"] == pregens()[2]["name"]


def test_story_pc_with_stats_gets_a_sheet() -> None:
    story = tentacle_story()
    story.characters["pc"].stats = {**CHARS, "目星": 70, "luck": 45}
    ctx = coc7_context(1, story=story)
    SYSTEM.init(ctx)
    s = ctx.state.stats["pc"]
    assert s["skills"]["目星"] == 70 and s["luck"] == 45 and s["hp"] == 12


def test_quick_create_hook() -> None:
    ctx = coc7_context(7, story=tentacle_story())
    assert ctx.call("coc7.quick_create", "ナナシ", "array") == ["created"]
    s = ctx.state.stats["pc"]
    assert s["chars"]["STR"] == 80 and s["chars"]["EDU"] == 40
    assert s["skills"]["目星"] == 70
    assert 15 <= s["luck"] <= 90


def test_quick_create_rolls_as_the_characteristics_then_luck() -> None:
    # The dice taken in one go are those of roll_characteristics, then a 3D6 Luck roll.
    ctx = coc7_context(11, story=tentacle_story())
    ctx.call("coc7.quick_create", "", "roll")
    src = SeededDice(11)
    chars = sheet.roll_characteristics(src)
    luck = sum(src.face(6) for _ in range(3)) * 5
    s = ctx.state.stats["pc"]
    assert s["chars"] == chars and s["luck"] == luck and ctx.dice.state == src.state


@pytest.mark.parametrize(
    ("given", "expr", "left"),
    [
        (0, "3d6", 3),
        (4, "3d6", 2),
        (6, "2d6+6", 2),
        (7, "2d6+6", 1),
        (20, "2d6+6", 1),
        (21, "3d6", 3),
        (23, "3d6", 1),
    ],
)
def test_quick_create_asks_for_the_roll_that_lacks_dice(given: int, expr: str, left: int) -> None:
    ctx = coc7_context(ManualDice([3] * given), story=tentacle_story())
    with pytest.raises(NeedDice) as e:
        ctx.call("coc7.quick_create", "", "roll")
    assert (e.value.expr, e.value.sides) == (expr, [6] * left)


def test_copier_copies_like_plain_copy() -> None:
    nested = {"a": [1, [2, {"b": {}}]], "c": {"d": {"e": 1}}, "f": [], "g": {}, "h": [{"x": 1}]}
    for t in [*sheet._pregen_built(), make_enemy("x", TENTACLE_STATS, TENTACLE_PROPS), nested]:
        got = sheet.copier(t)()
        assert got == sheet.plain_copy(t) and list(got) == list(t)

        def boxes(v: object) -> list[int]:
            if type(v) is dict:
                return [id(v), *(i for x in v.values() for i in boxes(x))]
            if type(v) is list:
                return [id(v), *(i for x in v for i in boxes(x))]
            return []

        assert not set(boxes(got)) & set(boxes(t))  # nothing shared with the pattern


def test_tentacle_as_story_character() -> None:
    e = make_enemy("蠢く触腕", TENTACLE_STATS, TENTACLE_PROPS)
    # Listed values win over the formulas (ruling DA-10).
    assert e["hp"] == 30 and e["build"] == 3 and e["dodge"] == 10 and e["fighting"] == 40
    assert e["damage"] == "1d6+1d4" and e["san_loss"] == "1/1d6" and e["mov"] == 10
    assert e["chars"]["POW"] == 250 and e["daze_at"] == 10
    assert [a["name"] for a in e["attacks"]] == ["叩く", "叩きつける", "巻き付く"]
    assert all(a["damage"] == "1d6+1d4" for a in e["attacks"])
    assert SYSTEM.validate({"characters": {"t": {"kind": "enemy", "stats": TENTACLE_STATS}}}) == []
    bad = SYSTEM.validate({"characters": {"t": {"kind": "enemy", "stats": {"耐久力": "lots"}}}})
    assert bad and bad[0][0] == "characters.t.stats"


def test_weapons() -> None:
    g = sheet.weapon("M360J")
    assert g["capacity"] == 5 and g["ammo"] == 5 and g["damage"] == "1d10" and g["impale"]
    g["ammo"] = 0
    assert sheet.weapon("revolver")["ammo"] == 5
    with pytest.raises(RuleError):
        sheet.weapon("bazooka")
