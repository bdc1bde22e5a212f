"""The 「ダンジョン・2F」 module's rules against hand-worked examples from its manual."""

from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest

from runner.rules.dice import SeededDice, seed_state
from runner.rules.ktane import SYSTEM
from runner.rules.ktane import dungeon as d
from runner.rules.ktane import edgework as ew

SW, SH, F, L, R = "sword", "shield", "forward", "left", "right"
EDGE = {"serial": "AB7CD3", "indicators": [], "batteries": 2}


def module(zones: list[str], fights: list[int] = (), edge: dict | None = None, **kw) -> dict:
    zones = list(zones) + ["red"] * (15 - len(zones))
    return d.fresh(copy.deepcopy(edge or EDGE), zones, list(fights), **kw)


def play(st: dict, buttons: list[str]) -> list[tuple[str, dict]]:
    out = []
    for b in buttons:
        out += d.press(st, b)
    return out


# --- x, moves ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw,x", [(0, 0), (9, 9), (10, 0), (23, 3), (99, 9), (-3, 3), (-15, 5), (-10, 0), (-9, 9)]
)
def test_normalise(raw: int, x: int) -> None:
    assert d.normalise(raw) == x


@pytest.mark.parametrize(
    "x,move",
    [
        (0, L),
        (1, L),
        (2, L),
        (3, F),
        (4, F),
        (5, F),
        (6, F),
        (7, R),
        (8, R),
        (9, R),
        (12, L),
        (-7, R),
        (16, F),
    ],
)
def test_move_for(x: int, move: str) -> None:
    assert d.move_for(x) == move


def test_stage_one_uses_the_serials_first_digit() -> None:
    assert ew.first_digit("AB7CD3") == 7
    assert ew.first_digit("4B7CD3") == 4
    assert ew.first_digit("A57CD3") == 5
    # Stage 1's zone has no rule, whatever colour it shows.
    for zone in ("red", "yellow", "green", "blue"):
        st = module([zone])
        assert d.expected(st) == R
        d.press(st, R)
        assert st["level"] == 1 and st["rolls"] == [7]


def test_red_yellow_green_blue() -> None:
    # red: x = y + z; stage 4, z = 7 -> 11 -> 1 -> left
    assert d.raw_x("red", 4, 1, [0, 0, 7], 0, 0, 0, 0) == 11
    # yellow: x = y - z; stage 3, z = 8 -> -5 -> 5 -> forward
    assert d.normalise(d.raw_x("yellow", 3, 1, [0, 8], 0, 0, 0, 0)) == 5
    # green: x = s + b
    assert d.raw_x("green", 5, 1, [0, 0, 0, 9], 4, 3, 0, 0) == 7
    # blue: x = z + m; z = 5, m = 8 -> 13 -> 3
    assert d.normalise(d.raw_x("blue", 2, 1, [5], 0, 0, 8, 0)) == 3


def test_blue_before_any_fight_has_m_zero() -> None:
    st = module(["red", "blue"])
    play(st, [R])  # stage 1: 7
    assert st["m"] == 0 and d.current_x(st) == 7 and d.expected(st) == R


def test_magenta_references() -> None:
    rolls = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 2]
    # level 1-2: stage y-5
    assert d.raw_x("magenta", 7, 1, rolls, 0, 0, 0, 0) == rolls[1]
    assert d.raw_x("magenta", 6, 2, rolls, 0, 0, 0, 0) == rolls[0]
    # level 3: stage y - z - 1; stage 8, z = rolls[6] = 7 -> stage 0 would be invalid
    assert d.magenta_ref(8, 3, 7) == 0 and not d.magenta_ok(8, 3, 7)
    assert d.magenta_ref(8, 3, 2) == 5 and d.magenta_ok(8, 3, 2)
    # stage 12, z = stage 11's roll = 1 -> stage 12 - 1 - 1 = 10, whose roll is 0
    assert d.raw_x("magenta", 12, 3, rolls, 0, 0, 0, 0) == rolls[9] == 0
    # level 4-5: stage y-10
    assert d.raw_x("magenta", 12, 4, rolls, 0, 0, 0, 0) == rolls[1]
    assert d.raw_x("magenta", 11, 5, rolls, 0, 0, 0, 0) == rolls[0]
    assert not d.magenta_ok(5, 1, 0) and d.magenta_ok(6, 1, 0)
    assert not d.magenta_ok(10, 4, 0) and d.magenta_ok(11, 4, 0)
    assert (
        d.magenta_ok(2, 3, 0)
        and not d.magenta_ok(2, 3, 1)
        and d.magenta_ok(3, 3, 1)
        and not d.magenta_ok(3, 3, 2)
    )
    with pytest.raises(ValueError):
        d.raw_x("magenta", 5, 1, rolls, 0, 0, 0, 0)


# --- levels -----------------------------------------------------------------------------


def test_level_changes_and_clamping() -> None:
    assert d.level_after_stage("red", 0, 1, 2) == 2
    assert d.level_after_stage("red", 0, 5, 2) == 5
    assert d.level_after_stage("yellow", 0, 3, 2) == 2
    assert d.level_after_stage("yellow", 0, 1, 2) == 1
    assert d.level_after_stage("green", 2, 3, 2) == 2
    assert d.level_after_stage("green", 3, 3, 2) == 3
    assert d.level_after_stage("green", 0, 1, 2) == 1
    assert d.level_after_stage("blue", 7, 3, 2) == 4
    assert d.level_after_stage("blue", 6, 3, 2) == 3
    assert d.level_after_stage("blue", 9, 5, 2) == 5
    assert d.level_after_stage("magenta", 9, 3, 7) == 3
    assert d.level_after_stage("red", 0, 1, 1) == 1  # stage 1: no zone rule


def test_entering_stage_6_and_11_sets_the_level() -> None:
    # Yellows keep the level at 1 up to stage 5; stage 6 sets 3; reds push it to 5 by
    # stage 10; stage 11 sets 4.
    zones = [
        "red",
        "yellow",
        "yellow",
        "yellow",
        "yellow",
        "red",
        "red",
        "red",
        "red",
        "red",
        "yellow",
        "red",
        "red",
        "red",
        "red",
    ]
    st = module(zones)
    levels = {}
    while not st["solved"]:
        levels[st["stage"]] = st["level"]
        d.press(st, d.expected(st))
    assert levels[5] == 1 and levels[6] == 3 and levels[7] == 4 and levels[8] == 5
    assert levels[10] == 5 and levels[11] == 4 and levels[12] == 3
    assert st["stage"] == 16 and st["strikes"] == 0


# --- enemies ----------------------------------------------------------------------------


def test_enemy_order() -> None:
    assert d.choose_enemy(1, []) == 1
    assert d.choose_enemy(1, [1]) == 2
    assert d.choose_enemy(1, [1, 2, 3]) == 4
    assert d.choose_enemy(2, [4]) == 5
    assert d.choose_enemy(3, [7, 8]) == 18
    assert d.choose_enemy(4, []) == 10
    assert d.choose_enemy(5, [13, 14]) == 15
    assert d.choose_enemy(4, [10, 11, 12]) == 13
    # never downwards: level 3 with levels 3-5 used up is won at once
    all_up = [7, 8, 18, 10, 11, 12, 13, 14, 15, 16, 17]
    assert d.choose_enemy(3, all_up) is None
    assert d.choose_enemy(5, [13, 14, 15, 16, 17]) is None
    assert 9 not in sum(d.ENEMY_LISTS.values(), ())


@pytest.mark.parametrize(
    "zone,times", [("red", 1), ("yellow", 2), ("green", 3), ("blue", 4), ("magenta", 5)]
)
def test_slime_repeats_once_per_zone_number(zone: str, times: int) -> None:
    seq, after = d.sequence(4, 3, zone, EDGE, [1])
    assert seq == [SW, SH] * times and after is None


def test_shapeshifter() -> None:
    assert d.sequence(6, 9, "red", EDGE, [4, 5]) == ([SW], None)  # unicorn
    assert d.sequence(6, 6, "red", EDGE, [4, 5]) == ([SW], None)  # itself
    assert d.sequence(6, 3, "red", EDGE, [4, 5])[0] == [SW, SW, SH, SW]  # giant spider
    assert d.sequence(6, 4, "blue", EDGE, [4, 5])[0] == [SW, SH] * 4  # slime, this zone
    assert d.sequence(6, 8, "red", EDGE, [4, 5])[0] == [L, R, SW, L, R, SW]  # minotaur
    # at stage 13 it becomes a necromancer, copying the enemy before the shapeshifter
    assert d.sequence(6, 13, "red", EDGE, [4, 5])[0] == [SW, SH, F, SW]
    # at stage 10 a rabbit, with the rabbit's effect
    bob = {"serial": "AB7CD3", "indicators": [{"label": "BOB", "lit": False}], "batteries": 1}
    assert SH not in d.sequence(6, 10, "red", bob, [4, 5])[0]
    # at stage 14 a door, with the door's effect
    dry = {"serial": "AB7CD3", "indicators": [], "batteries": 0}
    assert SW not in d.sequence(6, 14, "red", dry, [4, 5])[0]


def test_necromancer_copies_the_previous_enemy() -> None:
    assert d.sequence(13, 12, "red", EDGE, [1, 4, 7, 12])[0] == list(d.CODEX[12])
    assert d.sequence(13, 12, "red", EDGE, [7])[0] == [SH, SH, SW, SH, F, SW]
    # a copied slime uses the zone where the necromancer is fought
    assert d.sequence(13, 12, "green", EDGE, [1, 4])[0] == [SW, SH] * 3
    # a copied shapeshifter uses the stage where the necromancer is fought
    assert d.sequence(13, 9, "red", EDGE, [4, 5, 6])[0] == [SW]  # unicorn
    assert d.sequence(13, 11, "red", EDGE, [4, 5, 6])[0] == list(d.CODEX[11])
    assert d.sequence(13, 6, "red", EDGE, [4, 5, 6])[0] == [SW]
    # a copied final boss still leaves level 2
    assert d.sequence(13, 12, "red", EDGE, [17]) == (list(d.CODEX[17]), 2)
    # after stage 13 the copied shapeshifter is a necromancer again, which steps one fight
    # further back: past the shapeshifter to the elemental, or to the boss with its level
    assert d.sequence(13, 13, "red", EDGE, [4, 5, 6])[0] == [SW, SH, F, SW]
    assert d.sequence(13, 13, "red", EDGE, [17, 6]) == (list(d.CODEX[17]), 2)
    # and a copied rabbit keeps the BOB rule
    bob = {"serial": "AB7CD3", "indicators": [{"label": "BOB", "lit": True}], "batteries": 1}
    assert d.sequence(13, 12, "red", bob, [10])[0] == [SW, SW, SW, L, SW, R, SW, SW, F, F, SW]


def test_rabbit_and_bob() -> None:
    plain = d.sequence(10, 8, "red", EDGE, [])[0]
    assert plain == [SH, SH, SH, L, SH, R, SH, SH, F, F, SH]
    for lit in (True, False):
        bob = {
            "serial": "AB7CD3",
            "indicators": [{"label": "FRK", "lit": True}, {"label": "BOB", "lit": lit}],
            "batteries": 1,
        }
        assert d.sequence(10, 8, "red", bob, [])[0] == [SW, SW, SW, L, SW, R, SW, SW, F, F, SW]
    other = {"serial": "AB7CD3", "indicators": [{"label": "FRK", "lit": True}], "batteries": 1}
    assert d.sequence(10, 8, "red", other, [])[0] == plain


def test_door_and_batteries() -> None:
    assert d.sequence(14, 8, "red", EDGE, [])[0] == [SW, SW, L, SW, R, SW, SW, F, F, SW]
    dry = {"serial": "AB7CD3", "indicators": [], "batteries": 0}
    assert d.sequence(14, 8, "red", dry, [])[0] == [SH, SH, L, SH, R, SH, SH, F, F, SH]


def test_codex_lengths() -> None:
    lengths = {
        1: 1,
        2: 2,
        3: 4,
        5: 4,
        7: 6,
        8: 6,
        9: 1,
        10: 11,
        11: 13,
        12: 10,
        14: 10,
        15: 13,
        16: 9,
        17: 26,
        18: 9,
    }
    assert {k: len(v) for k, v in d.CODEX.items() if k in lengths} == lengths


# --- whole-module flows -----------------------------------------------------------------


def test_hand_worked_opening() -> None:
    # serial AB7CD3: stage 1 x = 7 -> right. Stage 2 red: 2 + 7 = 9 -> right, level 2.
    # Fight after stage 2 at level 2: slime in the red zone: Sw Sh. Then s = 1, b = 1, m = 4.
    # Stage 3 green: x = s + b = 2 -> left, level 1. Stage 4 blue: z + m = 2 + 4 = 6 -> forward.
    st = module(["yellow", "red", "green", "blue"], fights=[2])
    assert d.led(st) == "yellow" and d.expected(st) == R
    play(st, [R, R])
    assert st["level"] == 2 and d.led(st) == "white" and st["stage"] == 2
    assert st["fight"]["enemy"] == 4 and st["fight"]["sequence"] == [SW, SH]
    play(st, [SW, SH])
    assert (st["s"], st["b"], st["m"]) == (1, 1, 4) and st["stage"] == 3 and d.led(st) == "green"
    assert d.expected(st) == L
    play(st, [L])
    assert st["level"] == 1 and d.expected(st) == F and st["strikes"] == 0


def test_wrong_presses_strike_and_do_not_reset_the_fight() -> None:
    st = module(["red", "red", "green"], fights=[2])
    play(st, [R, R])  # stage 1: 7; stage 2: 9 (level 2) -> slime, red: Sw Sh
    msgs = play(st, [SW, SW])  # the second one is wrong
    assert st["strikes"] == 1 and st["fight"]["done"] == 1 and msgs[-1][0] == "strike"
    assert (st["s"], st["b"]) == (1, 0)  # the wrong sword is not counted
    play(st, [SH])
    assert st["fight"] is None and (st["s"], st["b"]) == (1, 1) and st["strikes"] == 1
    assert d.current_x(st) == 2  # green: s + b counts only the correct presses


def test_sword_or_shield_outside_a_fight_is_a_strike() -> None:
    st = module(["red"])
    play(st, [SW])
    assert st["strikes"] == 1 and st["stage"] == 1
    play(st, [SH])
    assert st["strikes"] == 2 and not st["exploded"]
    play(st, [L])
    assert st["exploded"] and d.led(st) == "off"
    assert play(st, [R]) == [("over", {"solved": False})] and st["strikes"] == 3


def test_strike_limit_is_an_option() -> None:
    st = module(["red"], strike_limit=1)
    play(st, [F])
    assert st["exploded"]


def test_final_boss_sets_level_2() -> None:
    # Levels 1-4 used up and level 5 up to the bomb: the next fight is the final boss.
    st = module(["red"] * 15, fights=[9])
    st["fought"] = [1, 2, 3, 4, 5, 6, 7, 8, 18, 10, 11, 12, 13, 14, 15, 16]
    while st["stage"] < 9 or st["fight"] is None:
        d.press(st, d.expected(st))
    assert st["fight"]["enemy"] == 17 and st["level"] == 5
    play(st, list(d.CODEX[17]))
    assert st["level"] == 2 and st["stage"] == 10 and st["m"] == 17


def test_all_of_level_5_beaten_wins_at_once() -> None:
    st = module(["red"] * 15, fights=[8])
    st["fought"] = [1, 2, 3, 7, 8, 18, 10, 11, 12, 13, 14, 15, 16, 17]
    st["m"] = 17
    while st["stage"] < 8:
        d.press(st, d.expected(st))
    level = st["level"]
    msgs = d.press(st, d.expected(st))
    keys = [k for k, _ in msgs]
    assert keys == ["move", "auto_win", "stage"]
    assert st["stage"] == 9 and st["fight"] is None and st["level"] == min(5, level + 1)
    assert st["m"] == 17 and (st["s"], st["b"]) == (0, 0)


def test_solved_on_entering_stage_16_and_no_fight_after_15() -> None:
    st = module(["red"] * 15, fights=[15])
    moves = d.solution(st)
    assert len(moves) == 15
    msgs = play(st, moves)
    assert st["solved"] and st["stage"] == 16 and d.led(st) == "off"
    assert msgs[-1] == ("solved", {})


def test_generated_modules_are_solvable_and_well_formed() -> None:
    for seed in range(300):
        dice = SeededDice(seed_state(seed))
        st = d.generate(dice.face)
        edge = st["edgework"]
        assert ew.is_serial(edge["serial"])
        labels = [i["label"] for i in edge["indicators"]]
        assert len(labels) == len(set(labels)) <= 3 and set(labels) <= set(ew.INDICATORS)
        assert 0 <= edge["batteries"] <= 4
        assert st["zones"][0] != "magenta" and len(st["zones"]) == 15
        assert all(1 <= f <= 14 for f in st["fights"])
        gaps = [b - a for a, b in zip([0, *st["fights"]], st["fights"], strict=False)]
        assert all(1 <= g <= 3 for g in gaps)
        moves = d.solution(st)  # raises if a magenta stage pointed nowhere
        play(st, moves)
        assert st["solved"] and st["strikes"] == 0


def test_timer_ticks_to_an_explosion() -> None:
    st = module(["red"], timer=10)
    assert d.tick(st, 4) == [] and st["time_left"] == 6
    assert d.tick(st, 7) == [("timeout", {})] and st["exploded"]
    st = module(["red"])
    assert d.tick(st, 1000) == [] and not st["exploded"]


# --- the hooks through a context double -------------------------------------------------


class Ctx:
    """A minimal engine context: seeded faces, collected narration."""

    def __init__(self, seed: int = 1, gm: bool = False, **options) -> None:
        self.story = SimpleNamespace(options=options, language="ja")
        self.state = SimpleNamespace(rules={})
        self.gm = gm
        self.dice = SeededDice(seed_state(seed))
        self.events: list[dict] = []

    def faces(self, sides: list[int], *, expr: str) -> list[int]:
        return [self.dice.face(s) for s in sides]

    def say(self, text, *, speaker=None, keeper=False, id=None) -> None:
        self.events.append({"type": "narration", "text": text, "keeper": keeper, "id": id})


def test_hooks_view_and_narration() -> None:
    ctx = Ctx(seed=5, strikes=2)
    SYSTEM.init(ctx)
    v = SYSTEM.view(ctx.story, ctx.state, False)
    assert set(v) == {"stage", "led", "strikes", "solved", "edgework"}
    assert v["stage"] == 1 and v["strikes"] == 0 and v["solved"] is False
    assert set(v["edgework"]) == {"serial", "indicators", "batteries"}
    gv = SYSTEM.view(ctx.story, ctx.state, True)
    assert set(gv["hidden"]) >= {"level", "x", "move", "s", "b", "m", "enemy", "sequence"}
    right = gv["hidden"]["expected"]
    wrong = next(b for b in ("sword", "left", "right") if b != right)
    hooks = SYSTEM.hooks
    assert hooks["press"].fn(ctx, wrong) is False
    assert ctx.events[-1]["text"] == "ミス。これで1回目。"
    assert hooks["strikes"].fn(ctx) == 1 and not hooks["exploded"].fn(ctx)
    assert hooks["press"].fn(ctx, right) is True
    assert hooks["stage"].fn(ctx) in (1, 2)
    assert hooks["press"].fn(ctx, "剣") in (True, False)
    assert hooks["strikes"].pure and hooks["solved"].pure and hooks["exploded"].pure
    assert not hooks["press"].pure


def test_hooks_play_a_game_to_defused() -> None:
    ctx = Ctx(seed=11)
    SYSTEM.init(ctx)
    while not SYSTEM.hooks["solved"].fn(ctx):
        SYSTEM.hooks["press"].fn(ctx, SYSTEM.view(ctx.story, ctx.state, True)["hidden"]["expected"])
    assert SYSTEM.hooks["strikes"].fn(ctx) == 0
    assert ctx.events[-1]["text"] == "ステージ16へ。モジュール解除！"
    assert SYSTEM.view(ctx.story, ctx.state, False)["led"] == "off"
    assert all(
        e["keeper"] is False for e in ctx.events if e["id"] in ("ktane.strike", "ktane.stage")
    )


def test_keeper_lines_only_for_the_gm() -> None:
    for gm in (False, True):
        ctx = Ctx(seed=3, gm=gm)
        SYSTEM.init(ctx)
        SYSTEM.hooks["describe"].fn(ctx)
        assert any(e["keeper"] for e in ctx.events) is gm


def test_press_rejects_unknown_buttons() -> None:
    from runner.rules.base import RuleError

    ctx = Ctx()
    SYSTEM.init(ctx)
    with pytest.raises(RuleError, match="jump"):
        SYSTEM.hooks["press"].fn(ctx, "jump")


def test_validate_options() -> None:
    ok = {"story": {"options": {"strikes": 3, "timer": None, "fight_gap": [1, 3]}}}
    assert SYSTEM.validate(ok) == []
    bad = {"story": {"options": {"strikes": 0, "timer": -1, "fight_gap": [3, 1]}}}
    assert [p for p, _ in SYSTEM.validate(bad)] == [
        "story.options.strikes",
        "story.options.timer",
        "story.options.fight_gap",
    ]


def test_countdown_through_the_hooks() -> None:
    ctx = Ctx(seed=2, timer=5)
    SYSTEM.init(ctx)
    assert SYSTEM.view(ctx.story, ctx.state, False)["time_left"] == 5
    SYSTEM.meta_commands["tick"](ctx, ["3"])
    assert SYSTEM.view(ctx.story, ctx.state, False)["time_left"] == 2
    assert not SYSTEM.hooks["exploded"].fn(ctx)
    SYSTEM.hooks["tick"].fn(ctx, 2)
    assert (
        SYSTEM.hooks["exploded"].fn(ctx) and ctx.events[-1]["text"] == "時間切れ。爆弾が爆発した。"
    )
    assert "time_left" not in SYSTEM.view(Ctx().story, _inited(Ctx()).state, False)


def _inited(ctx: Ctx) -> Ctx:
    SYSTEM.init(ctx)
    return ctx


def test_english_narration() -> None:
    ctx = Ctx(seed=4)
    ctx.story.language = "en"
    SYSTEM.init(ctx)
    SYSTEM.hooks["press"].fn(ctx, "shield")
    assert ctx.events[-1]["text"] == "Strike. That makes 1."
