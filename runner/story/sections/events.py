"""``events:``: what happens at a time on the clock (``at``) or when a condition holds (``when``)."""

from __future__ import annotations

from runner.story.checker import Checker, walk_effects
from runner.story.durations import CLOCK_TIME, duration_problem, minutes
from runner.story.model import Clock, TimedEvent
from runner.story.sections import Entries


def read_events(chk: Checker, entries: Entries, clock: Clock | None) -> tuple[TimedEvent, ...]:
    events: list[TimedEvent] = []
    seen_events: set[str] = set()
    for name, val, data in entries:
        chk.file = name
        chk.cur_node = ""
        if not isinstance(val, list):
            chk.err(chk.vpos(data, "events"), "'events' must be a list", "K001")
            continue
        for i, ev in enumerate(val):
            epos = chk.ipos(val, i)
            if not chk.want_map(ev, epos, "an event"):
                continue
            chk.unknown_keys(
                ev, {"id", "at", "after", "when", "effects", "repeat", "title"}, "an event"
            )
            evid = str(ev.get("id", f"event{i + 1}"))
            if evid in seen_events:
                chk.err(chk.vpos(ev, "id") or epos, f"event id {evid!r} is used twice", "K004")
            seen_events.add(evid)
            at = None
            if "at" in ev:
                raw = ev["at"]
                if isinstance(raw, str) and CLOCK_TIME.match(raw):
                    if clock is None:
                        chk.err(
                            chk.vpos(ev, "at"),
                            "a clock time needs a 'clock' section with a start",
                            "K007",
                        )
                    else:
                        t = minutes(raw)
                        # A time before the start is on the next day (a story that crosses midnight).
                        at = None if t is None else (t - clock.start) % (24 * 60)
                else:
                    at = minutes(raw)
                if at is None or at < 0:
                    chk.err(
                        chk.vpos(ev, "at"),
                        duration_problem(
                            "event time", raw, 'minutes after the start, "1h", or "11:00"'
                        ),
                        "K007",
                    )
                    at = None
            when = (
                chk.expr(ev["when"], chk.vpos(ev, "when"), condition=True) if "when" in ev else None
            )
            if at is None and when is None and "at" not in ev:
                chk.err(epos, f"event {evid!r} needs 'at' or 'when'", "K003")
            effs = chk.effects(ev.get("effects"), chk.vpos(ev, "effects"), f"event.{evid}")
            for e in walk_effects(effs):
                if e[0] in ("goto", "end"):
                    chk.global_edges.add(e[1])
            title = ev.get("title", "")
            if not isinstance(title, str):
                chk.err(
                    chk.vpos(ev, "title") or epos, f"event {evid!r}: 'title' must be text", "K001"
                )
                title = ""
            events.append(
                TimedEvent(
                    evid, at, when, effs, chk.flag(ev, "repeat", False, f"event {evid!r}"), title
                )
            )
    events.sort(key=lambda e: (e.at is None, e.at or 0))
    return tuple(events)
