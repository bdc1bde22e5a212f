"""An independent solver for ダンジョン・2F, written from the module's manual alone.

It sees only what a player sees in the ``state`` events (stage, LED, strikes, solved,
edgework) and decides every press from the manual's rules, keeping its own count of the
level, each stage's x, s, b, m and the enemies fought. A misreading shared by the module
and its first solver would pass that solver's test and fail this one.

The rules, in our own words:
- x is normalised as |x| then its last digit; 0-2 left, 3-6 forward, 7-9 right.
- Stage 1: the serial number's first digit; no level change.
- red x = y + z, level +1 after; yellow x = y - z, level -1 after; green x = s + b, level -1
  after if x < 3; blue x = z + m, level +1 after if x > 6; magenta x = the x of stage y-5
  (level 1-2), y-z-1 (level 3), y-10 (level 4-5). y = stage, z = the previous stage's x,
  m = the last enemy fought (0 before any), s and b = correct sword hits and shield blocks.
- The level stays within 1..5; entering stage 6 sets 3, entering stage 11 sets 4.
- A fight (white LED) comes after a stage, level change included: the first enemy not yet
  fought in the current level's list, else the next levels' lists; none left: won at once.
- Solved on entering stage 16.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.jsonl import turns

ROOT = Path(__file__).resolve().parent.parent
STORY_PATH = ROOT / "stories" / "dungeon_2f"

SW, SH, F, L, R = "sword", "shield", "forward", "left", "right"
ZONES = {"red": 1, "yellow": 2, "green": 3, "blue": 4, "magenta": 5}

LEVEL_ENEMIES: dict[int, list[int]] = {
    1: [1, 2, 3],
    2: [4, 5, 6],
    3: [7, 8, 18],
    4: [10, 11, 12],
    5: [13, 14, 15, 16, 17],
}

# The codex: each enemy's actions before any special effect.
CODEX: dict[int, list[str]] = {
    1: [SW],
    2: [SW, SW],
    3: [SW, SW, SH, SW],
    4: [SW, SH],                      # slime: done once per zone number
    5: [SW, SH, F, SW],
    6: [SW],                          # shapeshifter in its own form
    7: [SH, SH, SW, SH, F, SW],
    8: [L, R, SW, L, R, SW],
    9: [SW],
    10: [SH, SH, SH, L, SH, R, SH, SH, F, F, SH],
    11: [SW, F, SW, F, SW, F, SW, F, F, SW, F, SW, SW],
    12: [SW, SH, SH, F, SW, SH, SH, L, R, SW],
    14: [SW, SW, L, SW, R, SW, SW, F, F, SW],
    15: [L, L, R, F, R, L, F, F, L, R, R, R, SW],
    16: [SH] * 9,
    17: [SW, L, R, SH, SW, L, SW, R, SH, SW, SW, F, L, L, SH, SW, F, SH, SH, SH, SW, L, SW, SW, L, SW],
    18: [L, SH, R, SH, F, SH, SW, SW, F],
}


class Strike(AssertionError):
    """The module recorded a strike for a press the solver chose."""


def norm(x: int) -> int:
    return abs(x) % 10


def direction(x: int) -> str:
    return L if x <= 2 else F if x <= 6 else R


class Solver:
    """Decides each press from the player's view only."""

    def __init__(self) -> None:
        self.level = 1
        self.xs: dict[int, int] = {}
        self.s = 0
        self.b = 0
        self.m = 0
        self.fought: list[int] = []       # enemies fought, in order (6 and 13 as themselves)
        self.entered = 0                  # the last stage whose entry rules were applied
        self.zone: str | None = None      # LED colour of the stage last completed
        self.seq: list[str] | None = None
        self.done = 0
        self.fight_effects: list[int] = []
        self.strikes = 0
        self.log: list[str] = []
        self.enemies: list[tuple[int, int, list[str]]] = []   # (stage, enemy, sequence)
        self.events: set[str] = set()     # notable cases met (for edge-case tests)

    # -- movement -------------------------------------------------------------------
    def stage_x(self, y: int, led: str, serial: str) -> int:
        if y == 1:
            return int(next(c for c in serial if c.isdigit()))
        z = self.xs[y - 1]
        if led == "red":
            raw = y + z
        elif led == "yellow":
            raw = y - z
        elif led == "green":
            raw = self.s + self.b
        elif led == "blue":
            raw = z + self.m
        elif led == "magenta":
            ref = y - 5 if self.level <= 2 else y - z - 1 if self.level == 3 else y - 10
            if not 1 <= ref < y:
                raise AssertionError(f"magenta at stage {y} points at stage {ref}")
            self.events.add(f"magenta_level{self.level}")
            return self.xs[ref]
        else:
            raise AssertionError(f"unknown LED {led!r}")
        if raw < 0:
            self.events.add("x_negative")
        if raw > 9:
            self.events.add("x_over_9")
        return norm(raw)

    def shift(self, d: int) -> None:
        self.level = min(5, max(1, self.level + d))

    def move(self, y: int, led: str, serial: str) -> str:
        if y != self.entered:
            if y == 6:
                self.level = 3
            elif y == 11:
                self.level = 4
            self.entered = y
        x = self.stage_x(y, led, serial)
        self.xs[y] = x
        self.zone = led
        if y > 1:
            if led == "red":
                self.shift(+1)
            elif led == "yellow":
                self.shift(-1)
            elif led == "green" and x < 3:
                self.shift(-1)
            elif led == "blue" and x > 6:
                self.shift(+1)
        if self.next_enemy() is None:
            self.events.add("no_enemy_left")
        return direction(x)

    # -- fights ---------------------------------------------------------------------
    def next_enemy(self) -> int | None:
        for lv in range(self.level, 6):
            for e in LEVEL_ENEMIES[lv]:
                if e not in self.fought:
                    return e
        return None

    def actions(self, enemy: int, stage: int, before: int, edge: dict) -> list[str]:
        """The sequence for ``enemy`` met at ``stage``; ``before`` indexes the previous fight."""
        if enemy == 6:
            if stage == 6:
                return [SW]
            edge["shapeshifter_as"] = stage
            return self.actions(stage, stage, before, edge)
        if enemy == 13:
            if before < 0:
                raise AssertionError("necromancer with no enemy fought before it")
            prev = self.fought[before]
            edge["necromancer_copies"] = prev
            return self.actions(prev, stage, before - 1, edge)
        if enemy == 4:
            return CODEX[4] * ZONES[self.zone]
        seq = list(CODEX[enemy])
        if enemy == 10 and edge["bob"]:
            seq = [SW if a == SH else a for a in seq]
        if enemy == 14 and edge["batteries"] == 0:
            seq = [SH if a == SW else a for a in seq]
        if enemy == 17:
            edge["boss"] = True
        return seq

    def start_fight(self, stage: int, edgework: dict) -> None:
        enemy = self.next_enemy()
        assert enemy is not None, "the module started a fight the manual says is won at once"
        edge = {"bob": any(i["label"] == "BOB" for i in edgework["indicators"]),
                "batteries": edgework["batteries"]}
        seq = self.actions(enemy, stage, len(self.fought) - 1, edge)
        self.fought.append(enemy)
        self.m = enemy
        self.seq, self.done = seq, 0
        self.boss_after = bool(edge.get("boss"))
        self.enemies.append((stage, enemy, seq))
        if "necromancer_copies" in edge:
            self.events.add(f"necromancer_copies_{edge['necromancer_copies']}")
        if "shapeshifter_as" in edge:
            self.events.add(f"shapeshifter_as_{edge['shapeshifter_as']}")
        if enemy == 6 and stage == 6:
            self.events.add("shapeshifter_own_form")
        if enemy == 10 and edge["bob"]:
            self.events.add("rabbit_bob")
        if enemy == 14 and edge["batteries"] == 0:
            self.events.add("door_no_batteries")
        if enemy == 17:
            self.events.add("final_boss")
        if enemy == 4:
            self.events.add(f"slime_zone_{self.zone}")

    def fight_press(self) -> str:
        assert self.seq is not None
        a = self.seq[self.done]
        self.done += 1
        if a == SW:
            self.s += 1
        elif a == SH:
            self.b += 1
        if self.done == len(self.seq):
            if self.boss_after:
                self.level = 2
            self.seq = None
        return a

    # -- the loop -------------------------------------------------------------------
    def decide(self, st: dict) -> str:
        if st["strikes"] != self.strikes:
            raise Strike(f"strike after {self.log[-1:]} (stage {st['stage']}); presses: {self.log}")
        stage, led = st["stage"], st["led"]
        if led == "white":
            if self.seq is None:
                if stage > self.entered:
                    raise AssertionError(f"fight at stage {stage} before it was played")
                self.start_fight(stage, st["edgework"])
            cmd = self.fight_press()
        else:
            if self.seq is not None:
                raise AssertionError(f"fight left at action {self.done} of {self.seq}")
            if stage > self.entered + 1 and self.entered:
                # A stage skipped by the solver means a won-at-once fight cannot explain it.
                raise AssertionError(f"stage jumped from {self.entered} to {stage}")
            if stage > 1 and self.entered == stage - 1 and stage - 1 not in self.xs:
                raise AssertionError("previous stage unplayed")
            if stage == self.entered and stage in self.xs:
                raise AssertionError(f"stage {stage} shown again after its move")
            if stage > self.entered and self.entered and self.fought_since(stage):
                pass
            cmd = self.move(stage, led, st["edgework"]["serial"])
        self.log.append(f"{stage}:{led}:{cmd}")
        return cmd

    def fought_since(self, stage: int) -> bool:
        return False


def play(story, seed: int, max_presses: int = 600) -> Solver:
    """Plays one seeded module in-process; raises Strike on the first strike."""
    solver = Solver()
    box: dict = {}

    def commands() -> Iterator[str]:
        for _ in range(max_presses):
            st = box["state"]
            if st["solved"] or "ending" in box:
                return
            yield solver.decide(st)
        raise AssertionError(f"seed {seed}: not solved after {max_presses} presses")

    for ev in turns(story, commands(), seed=seed):
        if ev["type"] == "state":
            box["state"] = ev
        elif ev["type"] == "ending":
            box["ending"] = ev
        elif ev["type"] == "error":
            raise AssertionError(f"seed {seed}: {ev}")
    st = box["state"]
    if st["strikes"]:
        raise Strike(f"seed {seed}: strike at the end; presses: {solver.log}")
    assert st["solved"], f"seed {seed}: not solved: {st}"
    assert st["stage"] >= 15
    return solver


@pytest.fixture(scope="module")
def story():
    return load(STORY_PATH)


SEED_BLOCKS = [range(i, i + 100) for i in range(0, 1000, 100)]


@pytest.mark.parametrize("seeds", SEED_BLOCKS, ids=lambda r: f"{r.start}-{r.stop - 1}")
def test_thousand_modules_solved_without_a_strike(story, seeds: range) -> None:
    failures = []
    for seed in seeds:
        try:
            play(story, seed)
        except AssertionError as e:
            failures.append(f"seed {seed}: {e}")
    assert not failures, "\n".join(failures[:5])
