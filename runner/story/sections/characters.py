"""``characters:``: who is in the story (and may speak a line), with their stats."""

from __future__ import annotations

from runner.story.checker import Checker, speakers_of
from runner.story.keys import CHARACTER_KINDS
from runner.story.model import Character
from runner.story.sections import Entries


def read_characters(chk: Checker, entries: Entries) -> dict[str, Character]:
    characters: dict[str, Character] = {}
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "characters"), "'characters'"):
            continue
        for cid, spec in val.items():
            if not chk.want_map(spec, chk.vpos(val, cid), f"character {cid!r}"):
                continue
            chk.unknown_keys(
                spec,
                {"name", "kind", "stats", "props", "known_when", "unknown_name"},
                f"character {cid!r}",
            )
            kind = str(spec.get("kind", "npc"))
            if kind not in CHARACTER_KINDS:
                chk.err(
                    chk.vpos(spec, "kind"),
                    f"character kind {kind!r}: one of pc, npc, ally, neutral, enemy, monster",
                    "K005",
                )
            known = (
                chk.expr(spec["known_when"], chk.vpos(spec, "known_when"), condition=True)
                if "known_when" in spec
                else None
            )
            characters[str(cid)] = Character(
                str(cid),
                str(spec.get("name", cid)),
                kind,
                chk.plain(spec.get("stats") or {}, chk.vpos(spec, "stats")),
                chk.plain(spec.get("props") or {}, chk.vpos(spec, "props")),
                known,
                str(spec.get("unknown_name", "")),
            )
    chk.speakers = speakers_of(characters)
    return characters
