"""The pure engine: State, step, and the actions valid now."""

from runner.engine.engine import (
    Choice,
    available,
    clock_text,
    describe,
    match,
    new_game,
    resolve,
    state_event,
    step,
    tail,
)
from runner.engine.state import SaveError, State
from runner.rules.dice import NeedDice

__all__ = [
    "Choice",
    "NeedDice",
    "SaveError",
    "State",
    "available",
    "clock_text",
    "describe",
    "match",
    "new_game",
    "resolve",
    "state_event",
    "step",
    "tail",
]
