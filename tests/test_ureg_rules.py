"""UREG hooks through a Context test double: characters, items, proposals, life, flowers,
combat, continue, time and victory."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest
from hook_context import WINDOW_ROOM, ureg_context

from runner.rules.base import RuleError
from runner.rules.ureg import SYSTEM, view
from runner.rules.ureg import combat as K
from runner.rules.ureg.abilities import Character
from runner.rules.ureg.items import CATALOGUE, ITEMS

SEED_ITEM_NAMES = (
    "空き瓶 油 板 椅子 安全鍵 インスタントカメラ 絵の具 カードキー 懐中電灯 鍵 角材 ガムテープ 脚立 木箱 "
    "銀食器 果物 携帯電話 拳銃 磁石 ジャッキ シャベル 定規 ダイナマイト 時限装置 タブレット ダンボール箱 "
    "チェーンソー 机 つるはし 手鏡 鉄パイプ 天使の像 電卓 電池 刀剣 ドライバー トンカチ ナイフ 鍋 ぬいぐるみ "
    "バール バケツ 梯子 針金 万能接着材 ビー玉 ビニールシート 不気味な像 筆 ブラックライト ペン 棒 箒 "
    "防弾チョッキ ボール マニュアル ライター ラジコン ロウソク ロープ 花（黄） 花（白） 花（紫） 花（ピンク） "
    "花（青） 花（赤） 懐中時計 キーアイテムA キーアイテムB キーアイテムC"
).split()


def story(**options) -> dict:
    s = copy.deepcopy(WINDOW_ROOM)
    s["story"]["options"].update(options)
    return s


# ---- characters ----


@pytest.mark.parametrize(
    "spec,good,bad",
    [
        ("Inspiration", "閃き", "平凡"),
        ("nimbleness", "身軽", "非力"),
        ("Strength", "強力", "不器用"),
        ("Dexterity", "器用", "鳥目"),
        ("Night Vision", "夜目", "鈍重"),
        ("Littleness", "小柄", "低身長"),
        ("〇武術 ×ひ弱", "武術", "ひ弱"),
        ("×低身長/○身軽", "身軽", "低身長"),
    ],
)
def test_choose(spec, good, bad):
    c = ureg_context(WINDOW_ROOM)
    c.h("choose", spec)
    st = c.state.stats["pc"]
    assert (st["good"], st["bad"]) == (good, bad)
    assert (
        c.h("has", f"○{good}")
        and c.h("has", bad)
        and not c.h("has", "強力" if good != "強力" else "器用")
    )


@pytest.mark.parametrize("spec", ["○閃き ○身軽", "×平凡 ×鈍重", "閃き", "○空中浮遊 ×平凡"])
def test_choose_rejects(spec):
    with pytest.raises(RuleError):
        ureg_context(WINDOW_ROOM).h("choose", spec)


def test_solo_default_and_story_characters():
    c = ureg_context(WINDOW_ROOM)
    assert c.state.stats["pc"]["good"] == "閃き"  # recommended solo PC until chosen
    s = story()
    s["characters"] = {
        "ai": {"name": "アイ", "kind": "pc", "stats": {"archetype": "Littleness"}},
        "bo": {"name": "ボウ", "kind": "pc", "stats": {"abilities": "〇強力 ×不器用"}},
    }
    c = ureg_context(s)
    assert c.state.rules["ureg"]["pcs"] == ["ai", "bo"]
    assert c.h("can_lift", "bo", "ai") and not c.h("can_lift", "ai", "bo")


def test_campaign_locks_the_first_choice():
    c = ureg_context(story(campaign=True))
    c.h("choose", "Strength")
    with pytest.raises(RuleError):
        c.h("choose", "Littleness")


# ---- items ----


def test_catalogue_has_every_seed_item():
    assert len(ITEMS) == len(SEED_ITEM_NAMES) == 70
    assert [i.name for i in ITEMS] == SEED_ITEM_NAMES
    assert CATALOGUE["stepladder"].props["platform"][1]["height"] == "4"
    assert CATALOGUE["wooden_box"].props["platform"][0]["height"] == "1"
    assert CATALOGUE["ladder"].props["platform"][0]["unstable"]
    assert "500ml" in CATALOGUE["empty_bottle"].description
    assert "2000kg" in CATALOGUE["jack"].description and "30cm" in CATALOGUE["jack"].description
    assert sum(1 for i in ITEMS if i.props.get("flower")) == 6


# ---- proposals ----


def test_proposal_ordinary_ladder_window():
    c = ureg_context(WINDOW_ROOM)
    c.state.inventory = {"ladder": 1}
    assert SYSTEM.on_unmatched(c, "梯子を窓に立て掛けて登る")
    assert "梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m" in c.texts()[-1]
    assert c.effects == [{"goto": "outside"}]
    assert c.h("solved", "window")


def test_proposal_short_needs_box_and_no_answer_given():
    c = ureg_context(WINDOW_ROOM)
    c.h("choose", "Littleness")
    c.state.inventory = {"ladder": 1, "wooden_box": 1}
    c.fresh()
    assert SYSTEM.on_unmatched(c, "use the ladder on the window")
    assert "4.5 m < 5 m" in c.texts()[-1] and "木箱" not in c.texts()[-1]
    assert c.effects == [] and not c.h("solved", "window")
    assert SYSTEM.on_unmatched(c, "木箱の上に梯子を立てて窓まで登る")
    assert "1 m + 梯子 3 m + 手の届く高さ（×低身長） 1.5 m = 5.5 m ≥ 5 m" in c.texts()[-1]
    assert c.effects == [{"goto": "outside"}]


def test_proposal_unknown_and_missing():
    c = ureg_context(WINDOW_ROOM)
    assert not SYSTEM.on_unmatched(c, "歌を歌う")  # nothing recognised: the engine answers
    # A ladder never found is a word the player could not know (#13 item 25): the window is
    # tried bare-handed; once found (looked around) and not held, it is "not at hand".
    assert SYSTEM.on_unmatched(c, "梯子で窓に登る")
    assert "手元にない" not in c.texts()[-1] and "梯子" not in c.texts()[-1]
    c.h("find", "ladder")
    assert SYSTEM.on_unmatched(c, "梯子で窓に登る")
    assert "「梯子」は手元にない" in c.texts()[-1]
    c.state.inventory = {"ladder": 1}
    assert SYSTEM.on_unmatched(c, "窓に向かって跳ぶ")
    assert "2.5 m < 5 m" in c.texts()[-1] or "5 m" in c.texts()[-1]
    assert not c.h("solved", "window")


def test_shoulder_ride_proposal_and_touch_rule():
    s = story()
    s["story"]["options"]["obstacles"] = {
        "switch": {
            "node": "room",
            "name": "スイッチ",
            "height": 3,
            "touch": True,
            "effects": [{"goto": "outside"}],
        },
        "vent": {
            "node": "room",
            "name": "通気口",
            "height": "3.5",
            "effects": [{"goto": "outside"}],
        },
    }
    s["characters"] = {
        "a": {"kind": "pc", "name": "アイ", "stats": {"archetype": "Inspiration"}},
        "b": {"kind": "pc", "name": "ボウ", "stats": {"archetype": "Nimbleness"}},
    }
    c = ureg_context(s)
    assert c.h("can_reach", 3.5, "", "", "standing_shoulder")
    assert SYSTEM.on_unmatched(c, "肩車して通気口に手を伸ばす")
    assert c.h("solved", "vent") and "立ち肩車" in c.texts()[-1]
    c.state.node = "room"  # the double followed the goto
    assert SYSTEM.on_unmatched(c, "助走をつけてジャンプしてスイッチに触る")
    # 身軽 2 + 1.125 = 3.125 ≥ 3 with a run-up; a touch is enough for a switch.
    assert c.h("solved", "switch")


def test_break_sturdy_and_strength():
    s = story()
    s["story"]["options"]["obstacles"] = {
        "door": {
            "node": "room",
            "name": "木の扉",
            "aliases": ["扉", "door"],
            "breakable": True,
            "lock": {"key": "key"},
            "effects": [{"goto": "outside"}],
        },
        "wall": {
            "node": "room",
            "name": "鉄の壁",
            "aliases": ["壁"],
            "sturdy": True,
            "effects": [{"goto": "outside"}],
        },
    }
    c = ureg_context(s)
    assert SYSTEM.on_unmatched(c, "扉を壊す")
    assert not c.h("solved", "door") and "素手" in c.texts()[-1]
    c.h("choose", "Strength")
    assert SYSTEM.on_unmatched(c, "壁を壊す")
    assert not c.h("solved", "wall") and "頑丈" in c.texts()[-1]  # UA-06
    assert SYSTEM.on_unmatched(c, "力任せに扉を壊す")
    assert c.h("solved", "door")
    c.state.node = "room"
    c.state.inventory = {"pickaxe": 1}
    assert SYSTEM.on_unmatched(c, "つるはしで壁を壊す")
    assert c.h("solved", "wall")


def test_lock_picking():
    s = story()
    s["story"]["options"]["obstacles"] = {
        "door": {
            "node": "room",
            "name": "扉",
            "lock": {"key": "key"},
            "effects": [{"goto": "outside"}],
        },
        "safe": {"node": "room", "name": "金庫", "lock": {"key": "safety_key", "safety": True}},
    }
    c = ureg_context(s)
    c.state.inventory = {"wire": 1}
    assert SYSTEM.on_unmatched(c, "針金で扉の鍵を開ける")
    assert not c.h("solved", "door") and "器用" in c.texts()[-1]
    c.h("choose", "Dexterity")
    assert SYSTEM.on_unmatched(c, "針金で金庫の鍵を開ける")
    assert not c.h("solved", "safe")  # 安全鍵 locks cannot be picked (UA-20)
    assert SYSTEM.on_unmatched(c, "針金で扉の鍵を開ける")
    assert c.h("solved", "door")
    c.state.node = "room"
    c.h("choose", "Strength")  # 〈×不器用〉 can still use a key
    c.state.inventory = {"safety_key": 1}
    assert SYSTEM.on_unmatched(c, "安全鍵で金庫を開ける")
    assert c.h("solved", "safe")


def test_story_ways_and_modification():
    s = story()
    s["story"]["options"]["obstacles"] = {
        "ledge": {
            "node": "room",
            "name": "出っ張り",
            "ways": [
                {
                    "items": ["ladder"],
                    "mods": {"ladder": "bent"},
                    "say": "曲げた梯子を引っ掛けた。",
                    "effects": [{"set": {"hooked": True}}],
                }
            ],
        }
    }
    c = ureg_context(s)
    c.state.inventory = {"ladder": 1, "crowbar": 1}
    assert SYSTEM.on_unmatched(c, "梯子を出っ張りに引っ掛ける")
    assert not c.h("solved", "ledge")
    assert SYSTEM.on_unmatched(c, "バールで梯子を「く」の字に曲げる")
    assert c.h("modified", "ladder") == "bent"
    assert SYSTEM.on_unmatched(c, "梯子を出っ張りに引っ掛ける")
    assert c.h("solved", "ledge") and c.effects[-1] == {"set": {"hooked": True}}


def test_nimble_cannot_bend_without_tool_but_strong_can():
    c = ureg_context(WINDOW_ROOM)
    c.h("choose", "Nimbleness")
    c.state.inventory = {"iron_pipe": 1}
    SYSTEM.on_unmatched(c, "鉄パイプを曲げる")
    assert c.h("modified", "iron_pipe") == ""
    c.h("choose", "Strength")
    SYSTEM.on_unmatched(c, "鉄パイプを曲げる")
    assert c.h("modified", "iron_pipe") == "bent"


def test_hint_once():
    c = ureg_context(WINDOW_ROOM)
    assert c.h("hint_available")
    assert SYSTEM.on_unmatched(c, "ヒント")
    assert not c.h("hint_available")
    assert not c.h("hint")
    c2 = ureg_context(WINDOW_ROOM)
    c2.h("choose", "Strength")
    assert not c2.h("hint_available")


# ---- light ----


def test_night_blind_in_the_dim():
    s = story()
    s["nodes"]["room"]["props"] = {"light": "dim"}
    c = ureg_context(s)
    c.h("choose", "Dexterity")
    assert not c.h("can_see") and c.h("movement") == "crawl"
    c.state.inventory = {"flashlight": 1}
    assert c.h("can_see")
    c.state.inventory = {}
    c.h("choose", "Night Vision")
    assert c.h("can_see")
    s["nodes"]["room"]["props"] = {"light": "dark"}
    c = ureg_context(s)
    assert not c.h("can_see")
    c.h("choose", "Night Vision")
    assert c.h("can_see")


# ---- life, flowers, vanish ----

LIFE = dict(vanish=True, life=True, flowers=True, npc=True)


def test_flowers_take_damage_and_colours_repel():
    c = ureg_context(story(**LIFE))
    c.state.inventory = {"flower_red": 2}
    SYSTEM.after_command(c, "")
    assert c.h("flower_colour") == "red"
    c.state.inventory["flower_blue"] = 1
    SYSTEM.after_command(c, "")
    assert "flower_blue" not in c.state.inventory and c.state.inventory["flower_red"] == 2  # UA-08
    c.h("damage")
    assert c.h("life") == 1 and c.h("flowers") == 1
    c.h("damage")
    assert c.h("life") == 1 and c.h("flowers") == 0 and c.h("flower_colour") == ""
    c.state.inventory["flower_blue"] = 1  # now another colour can be held
    SYSTEM.after_command(c, "")
    assert c.h("flower_colour") == "blue"


def test_damage_to_zero_vanishes_and_ends():
    c = ureg_context(story(**LIFE))
    c.h("damage")
    assert c.h("vanished") and c.effects == [{"end": "failure"}]


def test_life_needs_the_option():
    with pytest.raises(RuleError):
        ureg_context(WINDOW_ROOM).h("damage")


# ---- combat ----


def test_power_table():
    assert K.pc_power(Character("a", "強力", "平凡"), False) == F(3, 2)
    assert K.pc_power(Character("a", "武術", "ひ弱"), False) == F(5, 2)
    assert K.pc_power(Character("a", "身軽", "非力"), False) == F(1, 2)
    assert K.pc_power(Character("a", "身軽", "非力"), True) == 1  # only bare-handed (UA-04)
    assert K.item_power(CATALOGUE["crowbar"].props) == 1
    assert K.item_power(CATALOGUE["hammer"].props) == 1
    assert K.item_power(CATALOGUE["pickaxe"].props) == F(3, 2)
    assert K.item_power(CATALOGUE["sword"].props) == 2 == K.item_power(CATALOGUE["handgun"].props)
    assert K.item_power(CATALOGUE["chainsaw"].props) == F(5, 2)
    assert K.item_power(CATALOGUE["dynamite"].props) == 5
    assert K.item_power(CATALOGUE["knife"].props) == F(1, 2)  # improvised
    assert K.item_power(CATALOGUE["iron_pipe"].props) == F(1, 2)
    assert K.item_power(CATALOGUE["plush"].props) == 0


@pytest.mark.parametrize(
    "pc,enemy,result",
    [
        (F(3), F(2), "advantage"),
        (F(5, 2), F(2), "even"),
        (F(2), F(2), "even"),
        (F(3, 2), F(2), "even"),
        (F(1), F(2), "disadvantage"),
        (F(1, 2), F(2), "disadvantage"),
    ],
)
def test_difference_boundaries(pc, enemy, result):
    assert K.compare(pc, enemy) == result  # exactly 1 decides, under 1 is even (UA-03)


def test_plan_range():
    with pytest.raises(RuleError):
        K.plan_modifier(6)
    assert K.plan_modifier(-5) == -5


def _combat_story():
    s = story(**LIFE, combat="numeric")
    s["characters"] = {
        "pc": {"kind": "pc", "name": "PC", "stats": {"archetype": "Strength"}},
        "ghost": {"kind": "enemy", "name": "亡霊", "stats": {"power": 3}},
    }
    return s


def test_fight_advantage_even_disadvantage():
    c = ureg_context(_combat_story())
    c.state.inventory = {"crowbar": 1}
    # 1.5 + 1 + plan 1 = 3.5 vs 3: even → PC damaged (vanishes: life 1), enemy neutralised.
    keys = c.h("fight", "ghost", "pc", "crowbar", 1)
    assert keys[0] == "even" and c.h("neutralised", "ghost")
    assert c.h("vanished", "pc")
    c = ureg_context(_combat_story())
    c.state.inventory = {"crowbar": 1}
    keys = c.h("fight", "ghost", "pc", "crowbar", 2)  # 4.5 − 3 = 1.5 ≥ 1
    assert keys == ["advantage", "win", "success"] and c.h("life", "pc") == 1
    # The players see their side; the enemy's power is the keeper's (#13 item 25).
    assert "= 4.5 → " in c.texts()[-2] and " 対 " not in c.texts()[-2]
    assert "4.5 対 敵の戦力 3" in c.texts()[-1]
    c = ureg_context(_combat_story())
    c.state.inventory = {"flower_white": 1}
    keys = c.h("fight", "ghost", "pc", "", 0)  # 1.5 vs 3: disadvantage; the flower takes it
    assert keys[0] == "disadvantage" and not c.h("neutralised", "ghost")
    assert c.h("life", "pc") == 1 and c.h("flowers") == 0


def test_fight_needs_enemy_power_and_held_weapon():
    s = _combat_story()
    del s["characters"]["ghost"]["stats"]["power"]
    c = ureg_context(s)
    with pytest.raises(RuleError):
        c.h("fight", "ghost")
    c = ureg_context(_combat_story())
    with pytest.raises(RuleError):
        c.h("fight", "ghost", "pc", "sword")


def test_about_combat_result():
    c = ureg_context(_combat_story())
    assert c.h("combat_result", "advantage", "pc", "ghost")[0] == "advantage"
    assert c.h("neutralised", "ghost") and c.h("life", "pc") == 1


# ---- continue, time, victory ----


def test_continue_resets_but_keeps_watch_time_and_hint():
    s = story(**LIFE, time_limit_minutes=30, **{"continue": True})
    s["variables"] = {"looked": False}
    c = ureg_context(s)
    c.state.vars = {"looked": True}
    c.state.done = {"room.take": 1}
    c.state.inventory = {"pocket_watch": 1, "ladder": 1, "flower_red": 1}
    assert c.h("hint")
    c.state.rules["ureg"]["solved"] = ["window"]
    c.h("time_passed", 600)
    c.state.node = "outside"
    c.h("wind_watch")
    assert c.state.inventory == {"pocket_watch": 1}
    assert c.state.vars == {"looked": False} and c.state.done == {}
    assert c.state.rules["ureg"]["solved"] == [] and c.state.rules["ureg"]["hint_used"]
    assert c.h("time_left") == 1200 and c.state.node == "room"


def test_everyone_vanishing_with_the_watch_continues():
    c = ureg_context(story(**LIFE, **{"continue": True}))
    c.state.inventory = {"pocket_watch": 1}
    c.h("damage")
    assert c.effects == [{"goto": "room"}]
    assert c.h("life") == 1 and not c.h("vanished")


def test_time_limit_ends_the_game_and_undo_does_not_give_time_back():
    c = ureg_context(story(time_limit_minutes=1))
    c.h("time_passed", 30)
    assert c.h("time_left") == 30
    c.h("time_sync", 20)  # an older total (after an undo) never lowers the time spent
    assert c.h("time_left") == 30
    c.h("time_sync", 45)
    assert c.h("time_left") == 15 and c.state.ending is None
    c.h("time_passed", 15)
    assert c.state.ending == "failure" and c.h("time_left") == 0
    assert view(c.story, c.state, False)["ureg"]["time_left"] == 0
    assert ureg_context(WINDOW_ROOM).h("time_left") == -1


def test_victory_outcomes():
    s = story(npc=True)
    s["characters"] = {
        "a": {"kind": "pc", "name": "A"},
        "b": {"kind": "pc", "name": "B"},
        "cat": {"kind": "ally", "name": "猫"},
        "man": {"kind": "npc", "name": "男"},
    }
    c = ureg_context(s)
    assert c.h("failure")
    c.h("escape", "a")
    assert c.h("partial_victory")
    c.h("escape", "b")
    assert c.h("partial_victory")  # the ally is still inside (UA-21)
    c.h("escape", "cat")
    assert c.h("full_victory")  # the neutral NPC does not count
    assert c.h("finish") == "full_victory" and c.effects[-1] == {"end": "full_victory"}


def test_view():
    c = ureg_context(story(**LIFE, time_limit_minutes=5))
    c.state.inventory = {"flower_pink": 2}
    v = view(c.story, c.state, False)["ureg"]
    assert v["characters"][0]["abilities"] == ["○閃き", "×平凡"]
    assert v["flowers"] == {"pink": 2} and v["time_left"] == 300


def test_validate_checks_an_obstacle_fight():
    from runner.rules.ureg.validate import validate

    raw = {
        "story": {"options": {"npc": True, "vanish": True, "life": True, "combat": "numeric"}},
        "characters": {"ghost": {"kind": "enemy", "stats": {"power": 2}}, "girl": {"kind": "ally"}},
        "items": {"sheet": {"name": "布"}},
        "nodes": {
            "room": {
                "props": {
                    "obstacles": {
                        "ghost": {
                            "fight": {
                                "enemies": ["ghost", "girl"],
                                "odds": 1,
                                "plans": [{"items": ["sheet"], "modifier": 6}, {"modifier": 1}],
                            }
                        }
                    }
                }
            }
        },
    }
    msgs = "\n".join(m for _p, m in validate(raw))
    assert "'girl' is not an enemy character" in msgs
    assert "unknown fight field 'odds'" in msgs
    assert "whole number from -5 to +5" in msgs
    assert "a plan needs items or words" in msgs
    raw["story"]["options"] = {"npc": True}
    assert "needs the 'combat' rule" in "\n".join(m for _p, m in validate(raw))
