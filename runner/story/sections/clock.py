"""``clock:``: the time shown at the start, when time runs out, and whether it is shown."""

from __future__ import annotations

from runner.story.checker import Checker
from runner.story.durations import CLOCK_TIME, duration_problem, minutes
from runner.story.model import Clock
from runner.story.sections import Entries


def read_clock(chk: Checker, entries: Entries) -> Clock | None:
    clock = None
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "clock"), "'clock'"):
            continue
        chk.unknown_keys(val, {"start", "limit", "show", "left_visible_when"}, "'clock'")
        start = minutes(val.get("start", 0))
        if start is None:
            chk.err(
                chk.vpos(val, "start"),
                duration_problem("clock start", val.get("start"), 'write a time like "10:00"'),
                "K007",
            )
            start = 0
        limit = None
        if "limit" in val:
            lim = val["limit"]
            if isinstance(lim, str) and CLOCK_TIME.match(lim):
                t = minutes(lim)
                limit = None if t is None else ((t - start) % (24 * 60) or 24 * 60)
            else:
                limit = minutes(lim)
            if limit is None or limit < 0:
                chk.err(
                    chk.vpos(val, "limit"),
                    duration_problem(
                        "clock limit", lim, 'a time after the start ("20:00") or a duration ("10h")'
                    ),
                    "K007",
                )
                limit = None
        left_when = (
            chk.expr(val["left_visible_when"], chk.vpos(val, "left_visible_when"), condition=True)
            if "left_visible_when" in val
            else None
        )
        clock = Clock(start, limit, chk.flag(val, "show", True, "clock"), left_when)
    return clock
