"""The one test double of the rule-hook Context (:class:`runner.rules.base.Context`).

The real Context is the engine's; this one lets a test call hooks directly. Dice come
from a DiceSource (ManualDice to force faces, SeededDice, or NoDice for a rule system
that must not roll), events are collected in ``events`` and effects in ``effects``
(``goto``/``end`` effects also move the state). Below the double are the stories the
coc7 and UREG tests share: ``coc7_context``/``tentacle_story``/``pct`` and
``ureg_context``/``WINDOW_ROOM``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from runner.rules import coc7, ureg
from runner.rules.base import RuleSystem
from runner.rules.dice import DiceSource, ManualDice, NeedDice, Roll, SeededDice, roll


@dataclass
class HookState:
    node: str = ""
    vars: dict = field(default_factory=dict)
    inventory: dict = field(default_factory=dict)
    visits: dict = field(default_factory=dict)
    done: dict = field(default_factory=dict)
    stats: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    clock: int = 0
    turn: int = 0
    ending: str | None = None


@dataclass
class HookCharacter:
    id: str
    name: str
    kind: str = "npc"
    stats: dict = field(default_factory=dict)
    props: dict = field(default_factory=dict)


@dataclass
class HookStory:
    language: str = "ja"
    characters: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


class NoDice:
    """A DiceSource for a rule system that rolls no dice: any roll fails the test."""

    def __init__(self, why: str) -> None:
        self.why = why

    def face(self, sides: int) -> int:
        raise AssertionError(self.why)


class HookContext:
    """Context double for ``system``'s hooks.

    ``dice`` is a DiceSource, a list of faces (ManualDice) or a seed (SeededDice); None is
    seed 0. ``story`` may be a story object (default: an empty :class:`HookStory`) or a raw
    story dict, as the UREG hooks accept.
    """

    def __init__(
        self,
        system: RuleSystem,
        dice: DiceSource | list[int] | int | None = None,
        *,
        story: Any = None,
        state: Any = None,
        gm: bool = False,
    ) -> None:
        if dice is None:
            dice = 0
        if isinstance(dice, int):
            dice = SeededDice(dice)
        elif isinstance(dice, list):
            dice = ManualDice(dice)
        self.system = system
        self.dice: DiceSource = dice
        self.story = story if story is not None else HookStory()
        self.state = state if state is not None else HookState()
        self.gm = gm
        self.events: list[dict] = []
        self.effects: list[Any] = []

    def roll(self, expr: str, *, label: str = "", emit: bool = True, **extra: Any) -> Roll:
        r = roll(expr, self.dice)
        if emit:
            self.emit(r.to_event(label=label, **extra))
        return r

    def faces(
        self, sides: list[int], *, expr: str, label: str = "", target: int | None = None
    ) -> list[int]:
        got: list[int] = []
        try:
            for s in sides:
                got.append(self.dice.face(s))
        except NeedDice:
            raise NeedDice(expr, sides[len(got) :], label=label, target=target) from None
        return got

    def emit(self, event: dict) -> None:
        self.events.append(event)

    def say(
        self, text: str, *, speaker: str | None = None, keeper: bool = False, id: str | None = None
    ) -> None:
        ev: dict = {"type": "narration", "text": text, "speaker": speaker, "id": id}
        if keeper:
            ev["keeper"] = True
        self.emit(ev)

    def call(self, name: str, *args: Any) -> Any:
        """Calls a hook of this context's system, by full (``coc7.check``) or short name."""
        return self.system.hooks[name.removeprefix(f"{self.system.name}.")].fn(self, *args)

    def run_effects(self, effects: Any) -> None:
        """Records the effects; of the engine's effects only ``goto`` and ``end`` are run.
        Typed effects (``(Goto("goto", "room"),)``) are recorded as the data they stand for
        (``{"goto": "room"}``)."""
        if isinstance(effects, tuple):
            effects = [{e.kind: e[1]} for e in effects]
        for e in effects if isinstance(effects, list) else [effects]:
            self.effects.append(e)
            if "goto" in e:
                self.state.node = e["goto"]
            if "end" in e:
                self.state.ending = e["end"]

    def end(self, ending: str) -> None:
        """Ends the game (``Context.end``), recorded as an ``end`` effect."""
        self.run_effects([{"end": ending}])

    # conveniences for tests
    def h(self, name: str, *args: Any) -> Any:
        return self.call(name, *args)

    def rolls(self) -> list[dict]:
        return [e for e in self.events if e["type"] == "roll"]

    def texts(self) -> list[str]:
        return [e["text"] for e in self.events if e["type"] == "narration"]

    def fresh(self) -> None:
        """Forgets the events and effects so far."""
        self.events.clear()
        self.effects.clear()


# --- coc7 ---------------------------------------------------------------------------------


def coc7_context(dice: DiceSource | list[int] | int | None = None, **kw: Any) -> HookContext:
    """A context for the coc7 hooks (``story``, ``state``, ``gm`` as for HookContext)."""
    return HookContext(coc7.SYSTEM, dice, **kw)


def pct(total: int, bonus_tens: tuple[int, ...] = ()) -> list[int]:
    """ManualDice faces that make a d100 read ``total``: tens d10 (then more tens), units d10.

    ``bonus_tens`` are the extra tens dice's tens digits (0-9) for bonus/penalty rolls.
    """
    if not 1 <= total <= 100:
        raise ValueError(total)
    t, u = divmod(total % 100, 10)
    return [t or 10, *[(x or 10) for x in bonus_tens], u or 10]


TENTACLE_STATS = {
    "STR": 100,
    "CON": 90,
    "SIZ": 60,
    "INT": 85,
    "POW": 250,
    "DEX": 10,
    "EDU": 10,
    "移動": 10,
    "耐久力": 30,
    "ビルド": 3,
    "近接戦闘": 40,
    "ダメージ": "1d6+1d4",
    "回避": 10,
    "遭遇正気度喪失": "1/1d6",
}
TENTACLE_PROPS = {
    "short": "触腕",
    "daze_at": 10,
    "attacks": [{"name": "叩く"}, {"name": "叩きつける"}, {"name": "巻き付く", "maneuver": "hold"}],
}


def tentacle_story(
    language: str = "ja", *, attacks: list | None = None, **options: Any
) -> HookStory:
    """A story double with a pc and the scenario's writhing tentacle as characters."""
    props = dict(TENTACLE_PROPS)
    if attacks is not None:
        props["attacks"] = attacks
    return HookStory(
        language=language,
        options={"coc7": options} if options else {},
        characters={
            "pc": HookCharacter("pc", "探索者", "pc"),
            "tentacle": HookCharacter("tentacle", "蠢く触腕", "enemy", dict(TENTACLE_STATS), props),
        },
    )


# --- UREG ---------------------------------------------------------------------------------


def ureg_context(story: dict, *, node: str | None = None, gm: bool = False) -> HookContext:
    """A started UREG game on a copy of the raw ``story`` dict, at ``node`` or its start."""
    state = HookState(node=node or story["story"].get("start", "room"))
    ctx = HookContext(
        ureg.SYSTEM,
        NoDice("UREG rolls no dice (UA-18)"),
        story=copy.deepcopy(story),
        state=state,
        gm=gm,
    )
    ureg.SYSTEM.init(ctx)
    return ctx


WINDOW_ROOM = {
    "story": {
        "id": "window",
        "title": "窓の部屋",
        "language": "ja",
        "rules": "ureg",
        "start": "room",
        "options": {
            "obstacles": {
                "window": {
                    "node": "room",
                    "name": "窓",
                    "name_en": "window",
                    "aliases": ["まど"],
                    "height": 5,
                    "effects": [{"goto": "outside"}],
                }
            }
        },
    },
    "items": {"ladder": {"name": "梯子", "aliases": ["はしご"]}, "wooden_box": {"name": "木箱"}},
    "nodes": {"room": {"title": "部屋"}, "outside": {"title": "外"}},
    "endings": {"failure": {"kind": "bad"}},
}
