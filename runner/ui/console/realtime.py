"""Real time: the story's real-time clock told to the engine (reported through step(), so it is
in the log, saves and replays), paused and resumed, and shown live in the status bar."""

from __future__ import annotations

from runner.ui.console.base import ConsoleBase
from runner.ui.console.terminal import Wake
from runner.ui.files import Entry
from runner.ui.i18n import t
from runner.ui.render import clock_seconds


def _without(ev: dict, paths: tuple[tuple[str, ...], ...]) -> dict:
    """A copy of a state event without the fields at ``paths`` (copied only where cut)."""
    ev = dict(ev)
    for path in paths:
        node = ev
        for key in path[:-1]:
            if not isinstance(node.get(key), dict):
                break
            node[key] = dict(node[key])
            node = node[key]
        else:
            node.pop(path[-1], None)
    return ev


class RealTimePart(ConsoleBase):
    """The real-time clock's part of the console (RuleSystem.realtime)."""

    def toolbar_event(self) -> dict | None:
        """The state event for the status bar (what a player sees); a real-time countdown is
        shown live instead."""
        ev = self.player_ev if self.state_ev is not None else None
        if ev is None or self.rt is None:
            return ev
        return _without(ev, self.rt.spec.live)

    def realtime_items(self) -> list[tuple[str, str]]:
        if self.rt is None or self.tl is None:
            return []
        value = clock_seconds(
            self.rt.left()
            if self.state.ending is None
            else max(0.0, self.rt.limit - self.rt.spent(self.state))
        )
        if self.rt.paused:
            value += " " + t("paused", self.lang)
        return [(t("real_left", self.lang), value)]

    def _ticker(self) -> None:
        """Background: asks the loop to report real time (every ``report_every`` seconds and
        the moment it runs out), and lets the microphone listen again after a spoken line."""
        while not self._stop.wait(self.tick):
            try:
                if self._muted_for_speech and not getattr(self.narrator, "busy", False):
                    self._muted_for_speech = False
                    self.listener.unmute()
                rt = self.rt
                if rt is None or self.tl is None or self.state.ending is not None or rt.paused:
                    continue
                if self._time_posted:
                    continue
                total = rt.total()
                if total >= rt.limit or total - self._reported >= self.report_every:
                    self._time_posted = True
                    self.io.post(Wake("time"))
            except Exception:  # noqa: BLE001 - a timer must never kill the game
                continue

    def sync_time(self) -> bool:
        """Tells the engine the real seconds it has not heard of yet, through step(), so they
        are in the log, saves and replays. Returns True if that ended the game."""
        rt = self.rt
        if rt is None or self.tl is None or self.state.ending is not None:
            return False
        total = rt.total()
        spent = rt.spent(self.state)
        delta = int(total) - int(spent)
        if total >= rt.limit:
            delta = max(delta, int(rt.limit - spent + 0.999))  # never stop one second short
        if delta < 1:
            return False
        # Behind our own total (an undo or a load brought back an older State): the rule
        # system is told the whole count, not the step.
        cmd = rt.spec.report(delta, int(spent) + delta, spent + 0.5 < self._reported)
        kinds = ("narration", "roll", "ending", "override")
        ran = self.step_asking(cmd, kinds=kinds)
        if ran is None or ran[0] is self.state:
            return False
        new, events, faces, early = ran
        self._reported = max(self._reported, float(int(spent) + delta))
        self.tl.push(Entry(cmd, faces or None, self.manual) if faces else Entry(cmd), new, events)
        self._choices = None
        self.refresh()
        self.autosave()
        if self.transcript_path is not None:
            self.write_transcript()
        ended = self.state.ending is not None
        shown = [e for e in events if e.get("type") in kinds]
        before = [e for e in early if e.get("type") in kinds]  # (written while asking for dice)
        if ended:
            self.show(shown, early=before)
            self.say(t("ended_already", self.lang), "class:hint")
        elif shown:
            self.show(shown + [self.prompt_event()], early=before)
        return ended

    def cmd_pause(self, args: list[str]) -> None:
        if self.rt is None:
            self.say(t("no_realtime", self.lang), "class:error")
            return
        if self.rt.paused:
            self.say(t("pause_already", self.lang), "class:hint")
            return
        self.sync_time()
        self.rt.pause()
        self.say(t("pause_on", self.lang), "class:hint")

    def cmd_resume(self, args: list[str]) -> None:
        if self.rt is None:
            self.say(t("no_realtime", self.lang), "class:error")
            return
        self.rt.resume()
        self.say(t("pause_off", self.lang), "class:hint")
