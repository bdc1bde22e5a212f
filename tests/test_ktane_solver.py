"""An independent solver for 「ダンジョン・2F」, written from the manual alone.

It shares no code with ``runner.rules.ktane`` (and never imports it): it sees only what the
headless interface shows in ``state`` events (stage, LED, strikes, solved, edgework) and
keeps its own notes, as a player with the manual would. It plays many seeded games
through the real JSONL front end (in-process ``runner.ui.jsonl.turns``, fed one command at
a time) and a few through the real ``python -m runner play --jsonl`` subprocess.

``KTANE_SOLVER_GAMES`` (default 1000) and ``KTANE_SOLVER_SUBPROCESS`` (default 8) set the
number of games.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import states

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "stories" / "dungeon_2f"
GAMES = int(os.environ.get("KTANE_SOLVER_GAMES", "1000"))
SUBPROCESS_GAMES = int(os.environ.get("KTANE_SOLVER_SUBPROCESS", "8"))

# --- the manual, transcribed ------------------------------------------------------------

LISTS = [
    ["bat", "toad", "spider"],
    ["slime", "elemental", "shapeshifter"],
    ["wyvern", "minotaur", "wall"],
    ["rabbit", "skeleton", "dragon"],
    ["necromancer", "door", "chessboard", "bomb", "boss"],
]
NUMBER = {
    "bat": 1,
    "toad": 2,
    "spider": 3,
    "slime": 4,
    "elemental": 5,
    "shapeshifter": 6,
    "wyvern": 7,
    "minotaur": 8,
    "unicorn": 9,
    "rabbit": 10,
    "skeleton": 11,
    "dragon": 12,
    "necromancer": 13,
    "door": 14,
    "chessboard": 15,
    "bomb": 16,
    "boss": 17,
    "wall": 18,
}
BY_NUMBER = {v: k for k, v in NUMBER.items()}
ACTIONS = {
    "bat": "Sw",
    "toad": "Sw Sw",
    "spider": "Sw Sw Sh Sw",
    "slime": "Sw Sh",
    "elemental": "Sw Sh F Sw",
    "shapeshifter": "Sw",
    "wyvern": "Sh Sh Sw Sh F Sw",
    "minotaur": "L R Sw L R Sw",
    "unicorn": "Sw",
    "rabbit": "Sh Sh Sh L Sh R Sh Sh F F Sh",
    "skeleton": "Sw F Sw F Sw F Sw F F Sw F Sw Sw",
    "dragon": "Sw Sh Sh F Sw Sh Sh L R Sw",
    "door": "Sw Sw L Sw R Sw Sw F F Sw",
    "chessboard": "L L R F R L F F L R R R Sw",
    "bomb": "Sh Sh Sh Sh Sh Sh Sh Sh Sh",
    "boss": "Sw L R Sh Sw L Sw R Sh Sw Sw F L L Sh Sw F Sh Sh Sh Sw L Sw Sw L Sw",
    "wall": "L Sh R Sh F Sh Sw Sw F",
}
PRESS = {"Sw": "sword", "Sh": "shield", "F": "forward", "L": "left", "R": "right"}
ZONE_COUNT = {"red": 1, "yellow": 2, "green": 3, "blue": 4, "magenta": 5}


def clean(x: int) -> int:
    x = -x if x < 0 else x
    while x > 9:
        x -= 10
    return x


def direction(x: int) -> str:
    if x in (0, 1, 2):
        return "left"
    if x in (3, 4, 5, 6):
        return "forward"
    return "right"


class Player:
    """Notes kept by a player reading the manual; decides one button at a time."""

    def __init__(self) -> None:
        self.level = 1
        self.stage = 0
        self.rolls: dict[int, int] = {}
        self.s = 0
        self.b = 0
        self.m = 0
        self.fought: list[str] = []
        self.zone = ""
        self.plan: list[str] | None = None  # the fight's remaining actions
        self.after_fight_level: int | None = None
        self.x: int | None = None

    # what to press
    def choose(self, view: dict) -> str:
        if view["stage"] != self.stage:
            self.stage = view["stage"]
            if self.stage == 6:
                self.level = 3
            if self.stage == 11:
                self.level = 4
        if view["led"] == "white":
            if self.plan is None:
                self.start_fight(view)
            assert self.plan
            return PRESS[self.plan[0]]
        assert self.plan is None, "the fight ended before the player expected"
        self.zone = view["led"]
        self.x = self.roll(view)
        return direction(self.x)

    def roll(self, view: dict) -> int:
        y = self.stage
        if y == 1:
            serial = view["edgework"]["serial"]
            return int(next(c for c in serial if c.isdigit()))
        z = self.rolls[y - 1]
        zone = view["led"]
        if zone == "red":
            return clean(y + z)
        if zone == "yellow":
            return clean(y - z)
        if zone == "green":
            return clean(self.s + self.b)
        if zone == "blue":
            return clean(z + self.m)
        assert zone == "magenta", zone
        if self.level in (1, 2):
            return self.rolls[y - 5]
        if self.level == 3:
            return self.rolls[y - z - 1]
        return self.rolls[y - 10]

    def start_fight(self, view: dict) -> None:
        enemy = None
        for lv in range(self.level, 6):
            left = [e for e in LISTS[lv - 1] if e not in self.fought]
            if left:
                enemy = left[0]
                break
        assert enemy is not None, "a fight won at once never lights white"
        previous = list(self.fought)
        self.fought.append(enemy)
        self.m = NUMBER[enemy]
        self.plan, self.after_fight_level = self.actions(enemy, view, previous)

    def actions(self, enemy: str, view: dict, previous: list[str]) -> tuple[list[str], int | None]:
        if enemy == "shapeshifter" and self.stage != 6:
            return self.actions(BY_NUMBER[self.stage], view, previous)
        if enemy == "necromancer":
            return self.actions(previous[-1], view, previous[:-1])
        acts = ACTIONS[enemy].split()
        if enemy == "slime":
            acts = acts * ZONE_COUNT[self.zone]
        if enemy == "rabbit" and any(i["label"] == "BOB" for i in view["edgework"]["indicators"]):
            acts = ["Sw" if a == "Sh" else a for a in acts]
        if enemy == "door" and view["edgework"]["batteries"] == 0:
            acts = ["Sh" if a == "Sw" else a for a in acts]
        return acts, (2 if enemy == "boss" else None)

    # what the press did (the player believes it was right)
    def pressed(self) -> None:
        if self.plan is not None:
            act = self.plan.pop(0)
            if act == "Sw":
                self.s += 1
            if act == "Sh":
                self.b += 1
            if not self.plan:
                self.plan = None
                if self.after_fight_level is not None:
                    self.level = self.after_fight_level
                    self.after_fight_level = None
            return
        x, zone, y = self.x, self.zone, self.stage
        assert x is not None
        self.rolls[y] = x
        if y == 1:
            return
        if zone == "red" or (zone == "blue" and x > 6):
            self.level = min(5, self.level + 1)
        if zone == "yellow" or (zone == "green" and x < 3):
            self.level = max(1, self.level - 1)


WRONG = {
    "forward": "left",
    "left": "right",
    "right": "forward",
    "sword": "shield",
    "shield": "sword",
}


def policy(mistake_at: int | None = None) -> Callable[[dict], str]:
    """A player who plays right, except one deliberately wrong button at turn ``mistake_at``."""
    player = Player()
    turn = {"n": 0, "last": None}

    def decide(view: dict) -> str:
        n = turn["n"]
        turn["n"] += 1
        if turn["last"] is not None:
            player.pressed()
        button = player.choose(view)
        if n == mistake_at:
            turn["last"] = None  # the wrong press changes nothing but the strike count
            return WRONG[button]
        turn["last"] = button
        return button

    decide.player = player  # type: ignore[attr-defined]
    return decide


# --- drivers ----------------------------------------------------------------------------


def play_in_process(story, seed: int, decide: Callable[[dict], str]) -> list[dict]:
    """Feeds the real JSONL turn loop one command at a time, each chosen from the last state."""
    from runner.ui.jsonl import turns

    seen: list[dict] = []
    last: dict = {}

    def lines() -> Iterator[str]:
        while "ending" not in last and len(seen) < 5000:
            yield decide(last["state"])

    for ev in turns(story, lines(), seed=seed):
        seen.append(ev)
        if ev["type"] in ("state", "ending"):
            last[ev["type"]] = ev
        assert ev["type"] != "error", ev
    return seen


def play_subprocess(seed: int, decide: Callable[[dict], str]) -> list[dict]:
    """Plays through ``python -m runner play STORY --jsonl --seed N``, a line at a time."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "runner", "play", str(STORY), "--jsonl", "--seed", str(seed)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdin and proc.stdout
    seen: list[dict] = []
    state: dict = {}
    try:
        while True:
            line = proc.stdout.readline()
            assert line, "the game stopped before an ending"
            ev = json.loads(line)
            seen.append(ev)
            assert ev["type"] != "error", ev
            if ev["type"] == "state":
                state = ev
            elif ev["type"] == "ending":
                break
            elif ev["type"] == "prompt":
                proc.stdin.write(decide(state) + "\n")
                proc.stdin.flush()
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
    return seen


def ending(events: list[dict]) -> str:
    return next(e["id"] for e in events if e["type"] == "ending")


@pytest.fixture(scope="module")
def story():
    from runner.story import load

    return load(str(STORY))


# --- tests ------------------------------------------------------------------------------


def test_solver_defuses_every_seeded_module_without_a_strike(story) -> None:
    whites = 0
    met: dict[str, int] = {}
    for seed in range(GAMES):
        decide = policy()
        events = play_in_process(story, seed, decide)
        view = states(events)[0]["edgework"]
        for enemy in decide.player.fought:
            key = enemy
            if enemy == "rabbit" and any(i["label"] == "BOB" for i in view["indicators"]):
                key = "rabbit+BOB"
            if enemy == "door" and view["batteries"] == 0:
                key = "door+no batteries"
            met[key] = met.get(key, 0) + 1
        st = states(events)
        assert ending(events) == "defused", (seed, st[-1])
        assert st[-1]["strikes"] == 0 and st[-1]["solved"] is True, seed
        assert st[-1]["led"] == "off"
        assert all("hidden" not in s for s in st)  # the player never sees the answers
        assert max(s["stage"] for s in st) == 16
        whites += sum(1 for s in st if s["led"] == "white")
    assert whites > GAMES  # fights did happen
    if GAMES >= 1000:  # the special effects were met, not just the plain enemies
        for key in (
            "slime",
            "shapeshifter",
            "necromancer",
            "rabbit",
            "rabbit+BOB",
            "door",
            "door+no batteries",
            "wall",
            "skeleton",
        ):
            assert met.get(key, 0) > 0, (key, met)


def test_solver_through_the_real_subprocess() -> None:
    for seed in range(SUBPROCESS_GAMES):
        events = play_subprocess(10_000 + seed, policy())
        assert ending(events) == "defused", seed
        assert states(events)[-1]["strikes"] == 0


def test_one_wrong_button_is_one_strike_and_the_module_goes_on(story) -> None:
    rng = random.Random(20240)
    for seed in range(200):
        mistake = rng.randrange(0, 18)  # every game has at least 19 presses
        events = play_in_process(story, 50_000 + seed, policy(mistake))
        st = states(events)
        assert ending(events) == "defused", seed
        assert st[-1]["strikes"] == 1, seed
        # the state right after the wrong press shows the same stage and LED, one strike more
        before, after = st[mistake], st[mistake + 1]
        assert after["strikes"] == before["strikes"] + 1
        assert (after["stage"], after["led"]) == (before["stage"], before["led"])


def test_three_wrong_buttons_explode_the_bomb(story) -> None:
    events = play_in_process(story, 7, lambda view: WRONG[Player().choose(view)])
    assert ending(events) == "exploded"
    assert states(events)[-1]["strikes"] == 3 and states(events)[-1]["led"] == "off"
    assert any(e.get("kind") == "bad" for e in events if e["type"] == "ending")
