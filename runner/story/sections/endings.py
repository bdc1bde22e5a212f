"""``endings:``: how the story may end (declared before the nodes are read, so a ``goto`` or
an ``end`` may name one)."""

from __future__ import annotations

from runner.story.checker import Checker
from runner.story.keys import ENDING_KINDS
from runner.story.model import Ending
from runner.story.sections import Entries
from runner.story.sections.nodes import Sources


def declare_endings(chk: Checker, entries: Entries) -> Sources:
    ending_srcs: Sources = []
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "endings"), "'endings'"):
            continue
        for eid, spec in val.items():
            if eid in chk.endings or eid in chk.nodes:
                chk.err(
                    chk.kpos(val, eid),
                    f"ending {eid!r} is defined twice or shares a node's id",
                    "K004",
                )
                continue
            chk.endings.add(str(eid))
            ending_srcs.append((name, str(eid), spec, val))
    return ending_srcs


def read_endings(chk: Checker, ending_srcs: Sources) -> dict[str, Ending]:
    endings: dict[str, Ending] = {}
    for name, eid, spec, parent in ending_srcs:
        chk.file = name
        if isinstance(spec, str):
            spec = {"kind": spec}
        if not chk.want_map(spec, chk.vpos(parent, eid), f"ending {eid!r}"):
            continue
        chk.unknown_keys(spec, {"kind", "title", "narration"}, f"ending {eid!r}")
        if "kind" not in spec:
            chk.err(
                chk.kpos(parent, eid),
                f"ending {eid!r} needs a kind: one of {', '.join(ENDING_KINDS)} "
                "(how the game ended, for the player and for simulate)",
                "K005",
            )
        kind = str(spec.get("kind", "normal"))
        if kind not in ENDING_KINDS:
            chk.err(
                chk.vpos(spec, "kind"),
                f"ending kind {kind!r}: one of {', '.join(ENDING_KINDS)}",
                "K005",
            )
        endings[eid] = Ending(
            eid,
            kind,
            str(spec.get("title", "")),
            chk.narration(spec.get("narration"), chk.vpos(spec, "narration"), f"end.{eid}"),
        )
    return endings
