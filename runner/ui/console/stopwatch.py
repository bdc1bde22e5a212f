"""The real-time stopwatch: real seconds played, pausable, on an injectable monotonic clock,
as the story's rule system declares its clock (``RuleSystem.realtime``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runner.engine import State


class RealTime:
    """A pausable stopwatch of real seconds played, on an injectable monotonic clock."""

    def __init__(self, spec: Any, limit: float, clock: Callable[[], float]) -> None:
        self.spec = spec
        """The rule system's RealTimeClock: how the game is told, where it keeps the count."""
        self.limit = float(limit)
        self.clock = clock
        self.base = 0.0
        self.since = clock()
        self.paused = False
        self.waits: Callable[[State], bool] | None = None
        """Whether a State is still before the story's clock starts (an opening scene)."""
        self.held = False

    @classmethod
    def for_story(cls, story: Any, clock: Callable[[], float]) -> RealTime | None:
        """The story's real-time clock, as its rule system declares it (RuleSystem.realtime)."""
        from runner.rules import system

        spec = system(story.rules).realtime
        lim = spec.limit(story) if spec is not None else None
        if spec is None or not lim:
            return None
        rt = cls(spec, lim, clock)
        waits = spec.waits
        if waits is not None:
            rt.waits = lambda st: waits(story, st)
        return rt

    def total(self) -> float:
        if self.held:
            return self.base
        return self.base + (0.0 if self.paused else max(0.0, self.clock() - self.since))

    def hold(self, state: State) -> None:
        """Stands still at zero while ``state`` is before the clock's start (a character
        selection before the opening), and starts counting the moment it is not."""
        if self.waits is None:
            return
        waiting = self.waits(state)
        if waiting and not self.held and self.total() < 1:
            self.base, self.held = 0.0, True
        elif not waiting and self.held:
            self.held = False
            self.since = self.clock()

    def set(self, total: float) -> None:
        self.base = float(total)
        self.since = self.clock()
        self.held = self.held and self.base < 1  # a clock that has counted is never held again

    def pause(self) -> None:
        if not self.paused:
            self.base = self.total()
            self.paused = True

    def resume(self) -> None:
        if self.paused:
            self.since = self.clock()
            self.paused = False

    def spent(self, state: State) -> float:
        """The real seconds a State has been told about."""
        return float(self.spec.spent(state, self.limit))

    def left(self) -> float:
        return max(0.0, self.limit - self.total())
