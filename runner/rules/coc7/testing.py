"""A small in-memory Context for tests and tools: the real one is the engine's.

It follows :class:`runner.rules.base.Context`: dice from a DiceSource (ManualDice to
force faces), events collected in ``events``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from runner.rules.dice import DiceSource, ManualDice, NeedDice, Roll, SeededDice, roll


@dataclass
class SimpleState:
    node: str = ""
    vars: dict = field(default_factory=dict)
    inventory: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    clock: int = 0
    turn: int = 0


@dataclass
class SimpleCharacter:
    id: str
    name: str
    kind: str = "npc"
    stats: dict = field(default_factory=dict)
    props: dict = field(default_factory=dict)


@dataclass
class SimpleStory:
    language: str = "ja"
    characters: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


class SimpleContext:
    """Context double: ``dice`` is a DiceSource, a list of faces (ManualDice) or a seed."""

    def __init__(self, dice: DiceSource | list[int] | int | None = None, *,
                 story: Any = None, state: Any = None, gm: bool = False) -> None:
        if dice is None:
            dice = 0
        if isinstance(dice, int):
            dice = SeededDice(dice)
        elif isinstance(dice, list):
            dice = ManualDice(dice)
        self.dice: DiceSource = dice
        self.story = story if story is not None else SimpleStory()
        self.state = state if state is not None else SimpleState()
        self.gm = gm
        self.events: list[dict] = []

    def roll(self, expr: str, *, label: str = "", emit: bool = True, **extra: Any) -> Roll:
        r = roll(expr, self.dice)
        if emit:
            self.emit(r.to_event(label=label, **extra))
        return r

    def faces(self, sides: list[int], *, expr: str) -> list[int]:
        got: list[int] = []
        try:
            for s in sides:
                got.append(self.dice.face(s))
        except NeedDice:
            raise NeedDice(expr, sides[len(got):]) from None
        return got

    def emit(self, event: dict) -> None:
        self.events.append(event)

    def say(self, text: str, *, speaker: str | None = None, keeper: bool = False,
            id: str | None = None) -> None:
        ev: dict = {"type": "narration", "text": text, "speaker": speaker, "id": id}
        if keeper:
            ev["keeper"] = True
        self.emit(ev)

    def call(self, name: str, *args: Any) -> Any:
        from runner.rules.coc7 import SYSTEM

        short = name.split(".", 1)[1] if name.startswith("coc7.") else name
        return SYSTEM.hooks[short].fn(self, *args)

    def run_effects(self, effects: Any) -> None:
        """Effects belong to the engine; the double ignores them."""

    # conveniences for tests
    def rolls(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "roll"]

    def texts(self) -> list[str]:
        return [e["text"] for e in self.events if e["type"] == "narration"]


def pct(total: int, bonus_tens: tuple[int, ...] = ()) -> list[int]:
    """ManualDice faces that make a d100 read ``total``: tens d10 (then more tens), units d10.

    ``bonus_tens`` are the extra tens dice's tens digits (0-9) for bonus/penalty rolls.
    """
    if not 1 <= total <= 100:
        raise ValueError(total)
    t, u = divmod(total % 100, 10)
    return [t or 10, *[(x or 10) for x in bonus_tens], u or 10]


TENTACLE_STATS = {"STR": 100, "CON": 90, "SIZ": 60, "INT": 85, "POW": 250, "DEX": 10, "EDU": 10,
                  "移動": 10, "耐久力": 30, "ビルド": 3, "近接戦闘": 40, "ダメージ": "1d6+1d4",
                  "回避": 10, "遭遇正気度喪失": "1/1d6"}
TENTACLE_PROPS = {"short": "触腕", "daze_at": 10,
                  "attacks": [{"name": "叩く"}, {"name": "叩きつける"},
                              {"name": "巻き付く", "maneuver": "hold"}]}


def tentacle_story(language: str = "ja", *, attacks: list | None = None, **options: Any) -> SimpleStory:
    """A story double with a pc and the scenario's writhing tentacle as characters."""
    props = dict(TENTACLE_PROPS)
    if attacks is not None:
        props["attacks"] = attacks
    return SimpleStory(language=language, options={"coc7": options} if options else {},
                       characters={
                           "pc": SimpleCharacter("pc", "探索者", "pc"),
                           "tentacle": SimpleCharacter("tentacle", "蠢く触腕", "enemy",
                                                       dict(TENTACLE_STATS), props)})
