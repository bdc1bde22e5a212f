"""A small Context test double for the UREG hooks (the engine's Context has the same shape)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from runner.rules.ureg import SYSTEM


@dataclass
class FakeState:
    node: str = "room"
    vars: dict = field(default_factory=dict)
    inventory: dict = field(default_factory=dict)
    visits: dict = field(default_factory=dict)
    done: dict = field(default_factory=dict)
    clock: int = 0
    stats: dict = field(default_factory=dict)
    rules: dict = field(default_factory=dict)
    ending: str | None = None


class FakeContext:
    """Records events and effects; ``goto``/``end`` effects move the fake state."""

    def __init__(self, story: dict, *, node: str | None = None, gm: bool = False) -> None:
        self.story = story
        self.state = FakeState(node=node or story["story"].get("start", "room"))
        self.gm = gm
        self.events: list[dict] = []
        self.effects: list[Any] = []

    def roll(self, expr, *, label="", emit=True, **extra):  # pragma: no cover - UREG has no dice
        raise AssertionError("UREG rolls no dice (UA-18)")

    def faces(self, sides, *, expr):  # pragma: no cover
        raise AssertionError("UREG rolls no dice")

    def emit(self, event: dict) -> None:
        self.events.append(event)

    def say(self, text, *, speaker=None, keeper=False, id=None) -> None:
        self.events.append({"type": "narration", "text": text, "speaker": speaker, "id": id})

    def call(self, name: str, *args):
        return SYSTEM.hooks[name.removeprefix("ureg.")].fn(self, *args)

    def run_effects(self, effects) -> None:
        for e in effects if isinstance(effects, list) else [effects]:
            self.effects.append(e)
            if "goto" in e:
                self.state.node = e["goto"]
            if "end" in e:
                self.state.ending = e["end"]

    # helpers for tests
    def h(self, name: str, *args):
        return self.call(name, *args)

    @property
    def texts(self) -> list[str]:
        return [e["text"] for e in self.events if e["type"] == "narration"]

    def fresh(self) -> None:
        self.events.clear()
        self.effects.clear()


def make(story: dict, **kw) -> FakeContext:
    ctx = FakeContext(copy.deepcopy(story), **kw)
    SYSTEM.init(ctx)
    return ctx


WINDOW_ROOM = {
    "story": {"id": "window", "title": "窓の部屋", "language": "ja", "rules": "ureg", "start": "room",
              "options": {"obstacles": {"window": {
                  "node": "room", "name": "窓", "name_en": "window", "aliases": ["まど"],
                  "height": 5, "effects": [{"goto": "outside"}]}}}},
    "items": {"ladder": {"name": "梯子", "aliases": ["はしご"]},
              "wooden_box": {"name": "木箱"}},
    "nodes": {"room": {"title": "部屋"}, "outside": {"title": "外"}},
    "endings": {"failure": {"kind": "bad"}},
}
