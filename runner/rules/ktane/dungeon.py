"""The 「ダンジョン・2F」 module as plain functions over a JSON-able dict.

The module's whole state is one dict (kept in ``state.rules["ktane"]``); :func:`press`
changes it in place and returns message records ``(key, params)`` that the rule system
turns into narration. Nothing here knows about the engine.

Readings of the manual's open points are in docs/rules-ktane.md; the ones that shape the
code are repeated where they apply.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from runner.rules.ktane import edgework

Face = Callable[[int], int]
Msg = tuple[str, dict[str, Any]]

STAGES = 15
"""Stages to pass; entering stage 16 solves the module."""
BUTTONS = ("forward", "left", "right", "sword", "shield")
MOVES = ("forward", "left", "right")
ZONES = ("red", "yellow", "green", "blue", "magenta")
ZONE_NUMBER = {"red": 1, "yellow": 2, "green": 3, "blue": 4, "magenta": 5}
MIN_LEVEL, MAX_LEVEL = 1, 5
LEVEL_ON_ENTRY = {6: 3, 11: 4}
DEFAULT_STRIKES = 3
DEFAULT_FIGHT_GAP = (1, 3)

SW, SH, F, L, R = "sword", "shield", "forward", "left", "right"

ENEMY_LISTS: dict[int, tuple[int, ...]] = {
    1: (1, 2, 3),
    2: (4, 5, 6),
    3: (7, 8, 18),
    4: (10, 11, 12),
    5: (13, 14, 15, 16, 17),
}

NAMES_JA = {
    1: "デンチコウモリ",
    2: "催眠ヒキガエル",
    3: "巨大クモ",
    4: "スライム",
    5: "精霊",
    6: "シェイプシフター",
    7: "ワイバーン",
    8: "ミノタウロス",
    9: "ユニコーン",
    10: "兎の幻影",
    11: "スケルトン",
    12: "古のドラゴン",
    13: "ネクロマンサー",
    14: "ドア",
    15: "生けるチェスボード",
    16: "爆弾",
    17: "最後のラスボス",
    18: "動く壁",
}
NAMES_EN = {
    1: "Bat-tery",
    2: "Hypno Toad",
    3: "Giant Spider",
    4: "Slime",
    5: "Elemental",
    6: "Shapeshifter",
    7: "Wyvern",
    8: "Minotaur",
    9: "Unicorn",
    10: "Rabbit Illusion",
    11: "Skeleton",
    12: "Ancient Dragon",
    13: "Necromancer",
    14: "Door",
    15: "Living Chessboard",
    16: "Bomb",
    17: "Final Boss",
    18: "Living Wall",
}

_ABBR = {"Sw": SW, "Sh": SH, "F": F, "L": L, "R": R}


def _seq(text: str) -> tuple[str, ...]:
    return tuple(_ABBR[t] for t in text.split())


CODEX: dict[int, tuple[str, ...]] = {
    1: _seq("Sw"),
    2: _seq("Sw Sw"),
    3: _seq("Sw Sw Sh Sw"),
    4: _seq("Sw Sh"),  # done once per zone number (special effect)
    5: _seq("Sw Sh F Sw"),
    6: _seq("Sw"),  # its own form, met only at stage 6
    7: _seq("Sh Sh Sw Sh F Sw"),
    8: _seq("L R Sw L R Sw"),
    9: _seq("Sw"),
    10: _seq("Sh Sh Sh L Sh R Sh Sh F F Sh"),
    11: _seq("Sw F Sw F Sw F Sw F F Sw F Sw Sw"),
    12: _seq("Sw Sh Sh F Sw Sh Sh L R Sw"),
    13: (),  # copies the previous enemy
    14: _seq("Sw Sw L Sw R Sw Sw F F Sw"),
    15: _seq("L L R F R L F F L R R R Sw"),
    16: _seq("Sh Sh Sh Sh Sh Sh Sh Sh Sh"),
    17: _seq("Sw L R Sh Sw L Sw R Sh Sw Sw F L L Sh Sw F Sh Sh Sh Sw L Sw Sw L Sw"),
    18: _seq("L Sh R Sh F Sh Sw Sw F"),
}
SLIME, SHAPESHIFTER, RABBIT, NECROMANCER, DOOR, FINAL_BOSS = 4, 6, 10, 13, 14, 17
LEVEL_AFTER_BOSS = 2


# --- formulas ---------------------------------------------------------------------------


def normalise(x: int) -> int:
    """The manual's roll clean-up: negative → positive, then subtract 10 until below 10."""
    return abs(x) % 10


def move_for(x: int) -> str:
    """0-2 left, 3-6 forward, 7-9 right (``x`` normalised first)."""
    x = normalise(x)
    return L if x <= 2 else F if x <= 6 else R


def clamp_level(level: int) -> int:
    return MIN_LEVEL if level < MIN_LEVEL else MAX_LEVEL if level > MAX_LEVEL else level


def magenta_ref(stage: int, level: int, z: int) -> int:
    """The stage whose roll a magenta stage copies."""
    if level <= 2:
        return stage - 5
    if level == 3:
        return stage - z - 1
    return stage - 10


def magenta_ok(stage: int, level: int, z: int) -> bool:
    """True when the magenta formula points at an earlier, existing stage."""
    return 1 <= magenta_ref(stage, level, z) < stage


def raw_x(
    zone: str, stage: int, level: int, rolls: list[int], s: int, b: int, m: int, first_digit: int
) -> int:
    """The stage's roll before normalising. ``rolls[i]`` is stage i+1's normalised roll."""
    if stage == 1:
        return first_digit
    z = rolls[stage - 2]
    if zone == "red":
        return stage + z
    if zone == "yellow":
        return stage - z
    if zone == "green":
        return s + b
    if zone == "blue":
        return z + m
    if zone == "magenta":
        ref = magenta_ref(stage, level, z)
        if not 1 <= ref < stage:
            raise ValueError(f"magenta at stage {stage}, level {level} points at stage {ref}")
        return rolls[ref - 1]
    raise ValueError(f"unknown zone {zone!r}")


def level_after_stage(zone: str, x: int, level: int, stage: int) -> int:
    """The level once the stage's move is made (stage 1 has no zone rule)."""
    if stage == 1:
        return level
    if zone == "red":
        level += 1
    elif zone == "yellow":
        level -= 1
    elif zone == "green" and x < 3:
        level -= 1
    elif zone == "blue" and x > 6:
        level += 1
    return clamp_level(level)


def choose_enemy(level: int, fought: list[int]) -> int | None:
    """The first enemy not yet fought from this level's list, else the next levels' lists;
    None when every list from this level up to 5 is used up (the fight is won at once)."""
    for lv in range(clamp_level(level), MAX_LEVEL + 1):
        for enemy in ENEMY_LISTS[lv]:
            if enemy not in fought:
                return enemy
    return None


def sequence(
    enemy: int, stage: int, zone: str, edge: dict[str, Any], previous: list[int]
) -> tuple[list[str], int | None]:
    """The buttons that beat ``enemy`` and the level it leaves behind (None: unchanged).

    ``stage`` and ``zone`` are the stage just completed (the shapeshifter and the slime read
    them); ``previous`` is every enemy fought before this one, oldest first.
    """
    if enemy == SHAPESHIFTER:
        if stage == SHAPESHIFTER:
            return list(CODEX[SHAPESHIFTER]), None
        if stage not in CODEX:
            # The manual's answer for a missing enemy is lost; fights come only after
            # stages 1-14, whose numbers all name an enemy, so this cannot happen.
            raise ValueError(f"the shapeshifter has no form at stage {stage}")
        return sequence(stage, stage, zone, edge, previous)
    if enemy == NECROMANCER:
        if not previous:
            # Unreachable: draw_zones never lets the necromancer be the first fight.
            raise ValueError("the necromancer has no previous enemy to copy")
        return sequence(previous[-1], stage, zone, edge, previous[:-1])
    seq = list(CODEX[enemy])
    after: int | None = None
    if enemy == SLIME:
        seq = seq * ZONE_NUMBER[zone]
    elif enemy == RABBIT and edgework.has_indicator(edge, "BOB"):
        seq = [SW if a == SH else a for a in seq]
    elif enemy == DOOR and edge.get("batteries", 0) == 0:
        seq = [SH if a == SW else a for a in seq]
    elif enemy == FINAL_BOSS:
        after = LEVEL_AFTER_BOSS
    return seq, after


# --- the module -------------------------------------------------------------------------


def fresh(
    edge: dict[str, Any],
    zones: list[str],
    fights: list[int],
    *,
    strike_limit: int = DEFAULT_STRIKES,
    timer: int | None = None,
) -> dict[str, Any]:
    """A module at stage 1 with the given edgework, zones (stages 1-15) and fight schedule."""
    return {
        "module": "dungeon_2f",
        "edgework": edge,
        "zones": list(zones),
        "fights": sorted(fights),
        "stage": 1,
        "level": MIN_LEVEL,
        "rolls": [],
        "s": 0,
        "b": 0,
        "m": 0,
        "fought": [],
        "fight": None,
        "strikes": 0,
        "strike_limit": strike_limit,
        "time_left": timer,
        "solved": False,
        "exploded": False,
    }


def current_x(st: dict[str, Any]) -> int:
    """The current movement stage's normalised roll."""
    stage = st["stage"]
    return normalise(
        raw_x(
            st["zones"][stage - 1],
            stage,
            st["level"],
            st["rolls"],
            st["s"],
            st["b"],
            st["m"],
            edgework.first_digit(st["edgework"]["serial"]),
        )
    )


def expected(st: dict[str, Any]) -> str | None:
    """The one correct button now (None once the module is solved or exploded)."""
    if st["solved"] or st["exploded"]:
        return None
    fight = st["fight"]
    if fight is not None:
        result: str | None = fight["sequence"][fight["done"]]
        return result
    return move_for(current_x(st))


def led(st: dict[str, Any]) -> str:
    """What the LED shows: the zone colour, white in a fight, off when the module is over."""
    if st["solved"] or st["exploded"]:
        return "off"
    if st["fight"] is not None:
        return "white"
    result: str = st["zones"][st["stage"] - 1]
    return result


def _enter(st: dict[str, Any], stage: int, out: list[Msg]) -> None:
    st["stage"] = stage
    if stage > STAGES:
        st["solved"] = True
        out.append(("solved", {}))
        return
    if stage in LEVEL_ON_ENTRY:
        st["level"] = LEVEL_ON_ENTRY[stage]
    out.append(("stage", {"stage": stage, "zone": st["zones"][stage - 1]}))


def _start_fight(st: dict[str, Any], out: list[Msg]) -> None:
    stage = st["stage"]
    enemy = choose_enemy(st["level"], st["fought"])
    if enemy is None:
        out.append(("auto_win", {}))
        _enter(st, stage + 1, out)
        return
    seq, after = sequence(enemy, stage, st["zones"][stage - 1], st["edgework"], st["fought"])
    st["fought"].append(enemy)
    st["m"] = enemy
    st["fight"] = {"enemy": enemy, "sequence": seq, "done": 0, "level_after": after}
    out.append(("fight", {"enemy": enemy, "sequence": list(seq)}))


def strike(st: dict[str, Any], out: list[Msg], button: str = "") -> None:
    """Records a strike; the bomb explodes when strikes reach the limit."""
    st["strikes"] += 1
    if st["strikes"] >= st["strike_limit"]:
        st["exploded"] = True
        out.append(("exploded", {"strikes": st["strikes"]}))
    else:
        out.append(
            ("strike", {"button": button, "strikes": st["strikes"], "limit": st["strike_limit"]})
        )


def press(st: dict[str, Any], button: str) -> list[Msg]:
    """Presses one of the five buttons; changes ``st`` in place, returns what happened."""
    if button not in BUTTONS:
        raise ValueError(f"no button {button!r} on this module (one of {', '.join(BUTTONS)})")
    out: list[Msg] = []
    if st["solved"] or st["exploded"]:
        out.append(("over", {"solved": st["solved"]}))
        return out
    # expected(st), keeping the movement stage's roll for below
    fight = st["fight"]
    x = None
    if fight is not None:
        want = fight["sequence"][fight["done"]]
    else:
        x = current_x(st)
        want = move_for(x)
    if button != want:
        strike(st, out, button)
        return out
    if fight is not None:
        fight["done"] += 1
        if button == SW:
            st["s"] += 1
        elif button == SH:
            st["b"] += 1
        if fight["done"] < len(fight["sequence"]):
            out.append(("hit", {"button": button}))
            return out
        out.append(("beaten", {"button": button, "enemy": fight["enemy"]}))
        _end_fight(st, fight, out)
        return out
    assert x is not None  # set above whenever no fight runs
    stage = st["stage"]
    st["rolls"].append(x)
    st["level"] = level_after_stage(st["zones"][stage - 1], x, st["level"], stage)
    out.append(("move", {"button": button}))
    if stage < STAGES and stage in st["fights"]:
        _start_fight(st, out)
    else:
        _enter(st, stage + 1, out)
    return out


def _end_fight(st: dict[str, Any], fight: dict[str, Any], out: list[Msg]) -> None:
    """The enemy is beaten: its level (if it sets one), then the next stage."""
    if fight["level_after"] is not None:
        st["level"] = fight["level_after"]
    st["fight"] = None
    _enter(st, st["stage"] + 1, out)


def tick(st: dict[str, Any], seconds: int) -> list[Msg]:
    """Runs the countdown down; at zero the bomb explodes. No timer: nothing happens."""
    out: list[Msg] = []
    if st["time_left"] is None or st["solved"] or st["exploded"]:
        return out
    st["time_left"] = max(0, st["time_left"] - max(0, int(seconds)))
    if st["time_left"] == 0:
        st["exploded"] = True
        out.append(("timeout", {}))
    return out


# --- generation -------------------------------------------------------------------------


def fight_schedule(face: Face, gap: tuple[int, int] = DEFAULT_FIGHT_GAP) -> list[int]:
    """The stages after which a fight comes: the first after ``gap`` moves drawn at random
    (1-3 by default, as on the first floor), each next one the same way after the last;
    never after stage 15, which solves the module."""
    lo, hi = gap
    out: list[int] = []
    at = 0
    while True:
        at += lo + face(hi - lo + 1) - 1
        if at >= STAGES:
            return out
        out.append(at)


def _necromancer_first(st: dict[str, Any], stage: int, zone: str) -> bool:
    """True when ``zone`` at ``stage`` would make the necromancer the module's first fight:
    it copies the enemy fought before it, and there would be none. The default fight gap
    (first fight after stage 3 at the latest, level 3 at most) never gets there; a story's
    wider ``fight_gap`` could climb to level 5 before any fight."""
    if st["fought"] or stage >= STAGES or stage not in st["fights"]:
        return False
    x = normalise(
        raw_x(
            zone,
            stage,
            st["level"],
            st["rolls"],
            st["s"],
            st["b"],
            st["m"],
            edgework.first_digit(st["edgework"]["serial"]),
        )
    )
    return choose_enemy(level_after_stage(zone, x, st["level"], stage), []) == NECROMANCER


def draw_zones(face: Face, edge: dict[str, Any], fights: list[int]) -> list[str]:
    """Draws each stage's zone in turn, playing the module through to know its level and
    rolls, so that magenta only appears where its formula names an earlier stage. Stage 1
    never shows magenta (it uses the serial, and its zone has no rule). No zone is drawn
    that would make the necromancer the first fight (yellow always lowers the level, so a
    zone is always left)."""
    zones: list[str] = []
    st = fresh(edge, [], fights)
    while not st["solved"]:
        stage = st["stage"]
        if len(zones) < stage:
            if stage == 1:
                allowed = [z for z in ZONES if z != "magenta"]
            else:
                z = st["rolls"][stage - 2]
                allowed = [
                    zn
                    for zn in ZONES
                    if (zn != "magenta" or magenta_ok(stage, st["level"], z))
                    and not _necromancer_first(st, stage, zn)
                ]
            zones.append(allowed[face(len(allowed)) - 1])
            st["zones"] = zones + ["red"] * (STAGES - len(zones))
        fight = st["fight"]
        if fight is None:
            press(st, expected(st))  # type: ignore[arg-type]  # a module not yet solved has a button
        else:
            # Win the fight at once: what pressing each remaining button would do.
            rest = fight["sequence"][fight["done"] :]
            st["s"] += rest.count(SW)
            st["b"] += rest.count(SH)
            fight["done"] = len(fight["sequence"])
            _end_fight(st, fight, [])
    return zones


def generate(
    face: Face,
    *,
    strike_limit: int = DEFAULT_STRIKES,
    timer: int | None = None,
    gap: tuple[int, int] = DEFAULT_FIGHT_GAP,
) -> dict[str, Any]:
    """A new module: edgework, fight schedule, then zones, in that order of dice."""
    edge = edgework.generate(face)
    fights = fight_schedule(face, gap)
    zones = draw_zones(face, edge, fights)
    return fresh(edge, zones, fights, strike_limit=strike_limit, timer=timer)


def solution(st: dict[str, Any]) -> list[str]:
    """Every correct button from this point to the end (for tests and the keeper)."""
    sim = copy.deepcopy(st)
    out: list[str] = []
    while not (sim["solved"] or sim["exploded"]):
        b = expected(sim)
        assert b is not None
        out.append(b)
        press(sim, b)
    return out
