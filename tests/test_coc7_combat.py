"""Combat against the scenario's tentacle: order, fight back and dodge ties, impales,
maneuvers and holds, firearms, dazing, damage, dying, First Aid.

Pregens used: 1 黒田 (DEX 70, Fighting 60, Dodge 55, Handgun 70, HP 12, DB +1D4, build 1,
CON 60), 2 佐伯 (DEX 60, Fighting 25, Dodge 30, Throw 20, HP 10, DB 0, build 0, CON 50),
3 三浦 (First Aid 70, Medicine 60). The tentacle: Fighting 40, Dodge 10, HP 30, build 3.
"""

from __future__ import annotations

import pytest
from hook_context import HookContext, coc7_context, pct, tentacle_story

from runner.rules.base import RuleError
from runner.rules.coc7 import SYSTEM
from runner.rules.dice import ManualDice, SeededDice

STRIKE = [{"name": "叩く"}]


def setup(
    faces: list[int] = (), pregen: int = 1, attacks: list | None = STRIKE, stats: dict | None = None
) -> HookContext:
    story = tentacle_story(attacks=attacks)
    if stats:
        story.characters["tentacle"].stats.update(stats)
    ctx = coc7_context(ManualDice(list(faces)), story=story)
    ctx.call("coc7.choose_pregen", pregen)
    return ctx


def call(ctx: HookContext, name: str, *args):
    return ctx.call(f"coc7.{name}", *args)


def feed(ctx: HookContext, *faces: int) -> None:
    ctx.dice.faces.extend(faces)


def pc(ctx: HookContext) -> dict:
    return ctx.state.stats["pc"]


def arm(ctx: HookContext, cid: str = "tentacle") -> dict:
    return ctx.state.rules["coc7"]["combat"]["c"][cid]


def test_dex_order_and_readied_firearm() -> None:
    ctx = setup()
    assert call(ctx, "start_combat", "tentacle", 2) == ["action"]
    c = ctx.state.rules["coc7"]["combat"]
    assert c["order"] == ["pc", "tentacle1", "tentacle2"]
    assert arm(ctx, "tentacle1")["sheet"]["name"] == "触腕1"
    assert arm(ctx, "pc")["dex"] == 70
    call(ctx, "end_combat")
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle", 1, "firearm")
    assert arm(ctx, "pc")["dex"] == 120


def test_enemy_first_when_faster() -> None:
    ctx = setup(stats={"DEX": 90})
    assert call(ctx, "start_combat", "tentacle") == ["response"]
    assert call(ctx, "awaiting") == "response"
    with pytest.raises(RuleError):
        call(ctx, "attack")  # answer the attack first


def test_attack_hits_when_better_than_the_fight_back() -> None:
    ctx = setup(pct(30) + pct(30) + [2, 3])  # hard against regular; 1d3+1d4 = 5
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["hurt", "hit"]
    assert call(ctx, "hp", "tentacle") == 25
    assert call(ctx, "awaiting") == "response"  # the arm strikes back on its turn


def test_fight_back_tie_goes_to_the_attacker() -> None:
    ctx = setup(pct(50) + pct(35) + [1, 1])  # regular against regular
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["hurt", "hit"]
    assert call(ctx, "hp", "tentacle") == 28


def test_fight_back_winner_deals_damage() -> None:
    ctx = setup(pct(50) + pct(5) + [3, 2])  # regular against the arm's extreme
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["countered", "hurt", "miss"]
    assert pc(ctx)["hp"] == 7 and call(ctx, "hp", "tentacle") == 30


def test_both_fail_nobody_hurt() -> None:
    ctx = setup(pct(90) + pct(90))
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["miss"]
    assert pc(ctx)["hp"] == 12 and call(ctx, "hp", "tentacle") == 30


def test_dodge_tie_goes_to_the_dodger() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(40))  # regular against regular
    assert call(ctx, "dodge") == ["dodged", "miss"]
    assert pc(ctx)["hp"] == 12
    assert call(ctx, "awaiting") == "action" and call(ctx, "combat_round") == 2


def test_dodge_loses_to_a_better_attack() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(15), *pct(40), 3, 2)  # hard against regular
    assert call(ctx, "dodge") == ["hurt", "hit"]
    assert pc(ctx)["hp"] == 7


def test_fight_back_by_the_investigator_tie_goes_to_the_arm() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(40), 3, 2)
    assert call(ctx, "fight_back") == ["hurt", "hit"]


def test_extreme_blunt_is_maximum_damage() -> None:
    ctx = setup(pct(12) + pct(90))  # extreme with bare hands: 1d3 + 1D4 → 7, no dice
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["hurt", "extreme", "hit"]
    assert call(ctx, "hp", "tentacle") == 23


def test_extreme_impaling_weapon_adds_a_roll() -> None:
    ctx = setup(pct(12) + pct(90) + [3, 4])  # knife: 4 + 4 + 1d4(3) = 11 ≥ 10: dazed 1d10(4)
    call(ctx, "give_weapon", "ナイフ")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack", "", "ナイフ") == ["dazed", "hurt", "impale", "hit"]
    assert call(ctx, "hp", "tentacle") == 19
    assert call(ctx, "dazed", "tentacle") and call(ctx, "all_dazed")


def test_dazed_arm_does_not_attack_or_defend() -> None:
    ctx = setup(pct(12) + pct(90) + [3, 2])  # 11 damage, dazed for 2 rounds
    call(ctx, "give_weapon", "ナイフ")
    call(ctx, "start_combat", "tentacle")
    call(ctx, "attack", "", "ナイフ")
    assert call(ctx, "awaiting") == "action"  # the arm skipped its turn
    feed(ctx, *pct(50), 2, 1)  # no fight back: a regular success hits, 1d4+1D4 = 3
    assert call(ctx, "attack", "", "ナイフ") == ["hurt", "hit"]
    assert call(ctx, "hp", "tentacle") == 16 and len(ctx.rolls()) == 6
    # Dazed for rounds 1 and 2; it recovers as round 2 ends.
    assert call(ctx, "combat_round") == 3 and not call(ctx, "dazed", "tentacle")


def test_m360j_holds_five_rounds() -> None:
    ctx = setup()
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    for left in (4, 3, 2, 1, 0):
        feed(ctx, *pct(80))  # a miss with Handgun 70
        assert call(ctx, "shoot") == ["miss"]
        assert call(ctx, "ammo") == left
        feed(ctx, *pct(90), *pct(90))  # the arm misses, the dodge fails too
        assert call(ctx, "dodge") == ["miss"]
    assert call(ctx, "shoot") == ["empty"]


def test_reload_needs_spare_rounds() -> None:
    ctx = setup()
    call(ctx, "give_weapon", "M360J")
    pc(ctx)["weapons"][-1]["ammo"] = 0
    assert call(ctx, "reload") == ["no_ammo"]
    call(ctx, "give_ammo", 3)
    assert call(ctx, "reload") == ["reloaded"]
    assert call(ctx, "ammo") == 2 and pc(ctx)["weapons"][-1]["spare"] == 1


def test_firearm_is_not_opposed_and_impales() -> None:
    ctx = setup(pct(14) + [7, 10])  # extreme (70/5 = 14): 10 + 1d10(7) = 17, dazed 1d10(10)
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "shoot") == ["dazed", "hurt", "impale", "hit"]
    assert call(ctx, "hp", "tentacle") == 13
    assert len(ctx.rolls()) == 3  # our roll, the impale die, the daze die: the arm never rolls


def test_malfunction_jams() -> None:
    ctx = setup(pct(100))
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "shoot") == ["jam", "miss"]
    assert call(ctx, "ammo") == 5


def test_a_shot_at_an_object_spends_a_round_and_may_jam() -> None:
    ctx = setup(pct(40) + pct(100))  # 40 on Handgun 70: a hit; then 100 jams
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "shoot_at", "照明") == ["regular", "success"]
    assert call(ctx, "ammo") == 4 and call(ctx, "hp", "tentacle") == 30  # no damage to anyone
    assert call(ctx, "awaiting") == "action"  # the story passes the turn, not the shot
    assert call(ctx, "shoot_at", "照明") == ["jam", "failure"]
    assert call(ctx, "ammo") == 4 and call(ctx, "shoot_at", "照明") == ["jammed", "failure"]
    ctx = setup()
    call(ctx, "give_weapon", "M360J")
    for _ in range(5):
        feed(ctx, *pct(90))
        assert call(ctx, "shoot_at") == ["failure"]
    assert call(ctx, "shoot_at") == ["empty", "failure"]  # outside a fight too


def test_range_bands_and_point_blank() -> None:
    ctx = setup(pct(40))  # 40 on Handgun 70 is a regular success; long range needs Hard (35)
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "shoot", "", "long") == ["miss"]
    assert ctx.rolls()[-1]["difficulty"] == "hard"
    ctx = setup([8, 2, 5, 6])  # point blank: a bonus die, 85 or 25 → 25; 1d10 = 6
    call(ctx, "give_weapon", "M360J")
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "shoot", "", "point_blank") == ["hurt", "hit"]
    assert call(ctx, "hp", "tentacle") == 24


def test_wrap_holds_and_a_held_dodge_needs_an_extreme() -> None:
    ctx = setup(pregen=2, attacks=[{"name": "叩く"}, {"name": "巻き付く", "maneuver": "hold"}])
    call(ctx, "start_combat", "tentacle")
    feed(ctx, 2)  # the keeper's 1d2 picks the wrap as the arm's turn comes
    call(ctx, "pass_turn")
    # Regular against a failed dodge: held, no damage.
    feed(ctx, *pct(30), *pct(80))
    assert call(ctx, "dodge") == ["held", "hit"]
    assert call(ctx, "held") and pc(ctx)["hp"] == 10
    # Build 0 against 3: escaping is impossible (and costs no turn).
    assert call(ctx, "maneuver") == ["impossible"]
    assert call(ctx, "awaiting") == "action"
    call(ctx, "pass_turn")
    # Held: it strikes; a Hard dodge would beat its regular success, but only Extreme counts.
    feed(ctx, *pct(30), *pct(10), 3, 2, *pct(20))
    assert call(ctx, "dodge") == ["major_wound", "hurt", "hit"]
    assert pc(ctx)["hp"] == 5
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(5))  # an Extreme dodge (30/5 = 6) still works
    assert call(ctx, "dodge") == ["dodged", "miss"]


def test_a_bigger_investigator_may_try_to_escape_with_penalty_dice() -> None:
    ctx = setup(attacks=[{"name": "巻き付く", "maneuver": "hold"}])
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(80))
    assert call(ctx, "dodge") == ["held", "hit"]
    # 黒田 is build 1: two penalty dice. Tens 1, 5, 7 and units 0: keeps 70, a failure.
    feed(ctx, 1, 5, 7, 10, *pct(90))
    assert call(ctx, "maneuver") == ["miss"]
    assert ctx.rolls()[-2]["bonus"] == -2 and call(ctx, "held")


def test_dazing_frees_the_held() -> None:
    ctx = setup(pregen=2, attacks=[{"name": "巻き付く", "maneuver": "hold"}])
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(80))
    call(ctx, "dodge")
    feed(ctx, *pct(10), 3)  # Throw 20: a burning thing, dazed 3 rounds, no damage, no dodge
    assert call(ctx, "throw", "tentacle", "fire") == ["dazed", "hard", "regular", "success"]
    assert not call(ctx, "held") and call(ctx, "hp", "tentacle") == 30
    assert call(ctx, "all_dazed")
    assert call(ctx, "end_combat", "repelled") == ["repelled"]
    assert call(ctx, "last_combat") == "repelled" and not call(ctx, "in_combat")


def test_crushing_the_last_arm_wins() -> None:
    ctx = setup(pct(30) + pct(90) + [3, 4], stats={"耐久力": 5})
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "attack") == ["victory", "crushed", "hurt", "hit"]
    assert not call(ctx, "in_combat") and call(ctx, "last_combat") == "victory"


def test_outnumbered_gives_later_attackers_a_bonus_die() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle", 2)
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(40))
    assert call(ctx, "dodge") == ["dodged", "miss"]
    feed(ctx, 9, 9, 9, *pct(40))  # the second arm rolls a bonus die: three d10s
    call(ctx, "dodge")
    ev = [e for e in ctx.rolls() if e["label"].startswith("触腕2")][-1]
    assert ev["bonus"] == 1 and len(ev["dice"]) == 3


def test_underwater_swim_and_halved_damage() -> None:
    ctx = setup(pct(15) + pct(90) + [3, 4])  # Swim 40: hard; 7 damage halved to 3
    call(ctx, "start_combat", "tentacle", 1, "underwater")
    assert call(ctx, "attack") == ["hurt", "hit"]
    assert ctx.rolls()[0]["label"].endswith("水泳")
    assert call(ctx, "hp", "tentacle") == 27


def test_defeat_when_the_investigator_dies() -> None:
    ctx = setup(pregen=2)
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(8), *pct(90))  # an extreme strike: 10 damage ≥ HP 10 → dead
    assert call(ctx, "dodge") == ["defeat", "dead", "extreme", "hit"]
    assert not call(ctx, "alive") and not call(ctx, "in_combat")


def test_a_helpless_investigator_is_attacked_until_the_end() -> None:
    ctx = setup()
    ctx.dice = ManualDice([], then=SeededDice(3))
    pc(ctx)["hp"] = 1
    pc(ctx)["cond"]["unconscious"] = True
    pc(ctx)["cond"]["major_wound"] = True
    assert call(ctx, "start_combat", "tentacle") == ["defeat"]
    assert pc(ctx)["cond"]["dead"]


def test_spare_option_stops_when_nobody_can_act() -> None:
    ctx = setup()
    pc(ctx)["cond"]["unconscious"] = True
    assert call(ctx, "start_combat", "tentacle", 1, "spare") == ["defeat"]
    assert not pc(ctx)["cond"]["dead"]


def test_flee() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle")
    assert call(ctx, "flee") == ["escaped", "fled"]
    assert call(ctx, "last_combat") == "escaped"


def test_held_cannot_flee() -> None:
    ctx = setup(attacks=[{"name": "巻き付く", "maneuver": "hold"}])
    call(ctx, "start_combat", "tentacle")
    call(ctx, "pass_turn")
    feed(ctx, *pct(30), *pct(80))
    call(ctx, "dodge")
    assert call(ctx, "flee") == ["held"]


def test_grope_in_the_dark() -> None:
    ctx = setup(pct(30) + pct(30))  # regular against Stealth 40 regular: a tie, not found
    assert call(ctx, "grope", "tentacle") == ["hidden"]
    ctx = setup(pct(30) + pct(60) + [3, 2])
    assert call(ctx, "grope", "tentacle", "回避") == ["found", "hurt"]
    assert pc(ctx)["hp"] == 7


# ---------------------------------------------------------------- damage and healing


def test_major_wound_calls_for_a_con_roll() -> None:
    ctx = setup([*pct(90)])
    assert call(ctx, "damage", 5) == ["hurt"]
    assert call(ctx, "damage", 6) == ["unconscious", "major_wound", "hurt"]  # 6 ≥ 12/2
    assert pc(ctx)["hp"] == 1 and not call(ctx, "conscious")


def test_zero_hp_without_a_major_wound_is_unconscious() -> None:
    ctx = setup()
    pc(ctx)["hp"] = 3
    assert call(ctx, "damage", 3) == ["unconscious", "hurt"]
    assert not call(ctx, "dying")


def test_zero_hp_with_a_major_wound_is_dying_then_con_rolls() -> None:
    ctx = setup(pct(40) + pct(90))
    pc(ctx)["hp"] = 4
    assert call(ctx, "damage", 6) == ["dying", "unconscious", "major_wound", "hurt"]
    assert call(ctx, "tick") == ["alive"]
    assert call(ctx, "tick") == ["dead"]
    assert not call(ctx, "alive")


def test_damage_of_max_hp_kills() -> None:
    ctx = setup()
    assert call(ctx, "damage", 12) == ["dead"]


def test_damage_dice_from_the_story() -> None:
    ctx = setup([1, 2, 3, *pct(20)])  # 3d3 = 6, half of 12: a major wound, CON 60 holds
    assert call(ctx, "damage", "3d3") == ["major_wound", "hurt"]
    assert pc(ctx)["hp"] == 6 and call(ctx, "conscious")


def test_first_aid_and_medicine() -> None:
    ctx = setup(pct(30) + pct(30) + [2] + pct(30))
    ctx.call("coc7.choose_pregen", 1, "b")  # 黒田 as "b"
    call(ctx, "choose_pregen", 3, "pc")  # 三浦 treats
    call(ctx, "set_active", "pc")
    b = ctx.state.stats["b"]
    b["hp"], b["cond"]["major_wound"] = 2, True
    b["hp"] = 0
    b["cond"].update(dying=True, unconscious=True)
    assert call(ctx, "first_aid", "b") == ["stabilised", "hard", "regular", "success"]
    assert not b["cond"]["dying"] and b["cond"]["stable"] and b["hp"] == 1
    assert call(ctx, "medicine", "b") == ["healed", "hard", "regular", "success"]
    assert b["hp"] == 3 and not b["cond"]["unconscious"]
    assert call(ctx, "first_aid", "b") == ["no_effect", "hard", "regular", "success"]


def test_first_aid_once_per_injury() -> None:
    ctx = setup(pct(10) + pct(10) + pct(10))
    call(ctx, "damage", 3)
    assert call(ctx, "first_aid")[0] == "healed" and pc(ctx)["hp"] == 10
    assert call(ctx, "first_aid")[0] == "no_effect"
    call(ctx, "damage", 1)
    assert call(ctx, "first_aid")[0] == "healed"


def test_view_hides_enemy_hp_from_players() -> None:
    ctx = setup()
    call(ctx, "start_combat", "tentacle")
    v = SYSTEM.view(ctx.story, ctx.state, False)["coc7"]
    assert v["combat"]["awaiting"] == "action"
    assert "hp" not in v["combat"]["order"][1]
    assert SYSTEM.view(ctx.story, ctx.state, True)["coc7"]["combat"]["order"][1]["hp"] == 30
    assert v["investigators"][0]["hp"] == 12


def test_errors() -> None:
    ctx = setup()
    with pytest.raises(RuleError):
        call(ctx, "attack")
    with pytest.raises(RuleError):
        call(ctx, "start_combat", "nobody")
    call(ctx, "start_combat", "tentacle")
    with pytest.raises(RuleError):
        call(ctx, "start_combat", "tentacle")
    with pytest.raises(RuleError):
        call(ctx, "dodge")
    with pytest.raises(RuleError):
        call(ctx, "shoot")  # no gun


def test_seeded_fights_always_finish() -> None:
    for seed in range(40):
        ctx = coc7_context(SeededDice(seed), story=tentacle_story())
        ctx.call("coc7.choose_pregen", 1 + seed % 4)
        call(ctx, "give_weapon", "M360J")
        call(ctx, "start_combat", "tentacle", 2)
        for _ in range(200):
            a = call(ctx, "awaiting")
            if a == "action":
                if call(ctx, "ammo") and not call(ctx, "jammed"):
                    call(ctx, "shoot")
                else:
                    call(ctx, "attack")
            elif a == "response":
                call(ctx, "dodge" if seed % 2 else "fight_back")
            else:
                break
        assert not call(ctx, "in_combat")
        assert call(ctx, "last_combat") in ("victory", "defeat")
        s = pc(ctx)
        assert 0 <= s["hp"] <= s["hp_max"]
