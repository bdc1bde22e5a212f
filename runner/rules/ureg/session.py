"""The game's course: the start, a command no action matched (a proposal), the checks after
every command, the status-bar view and the real-time rule commands."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import core as C
from runner.rules.ureg.abilities import shown


def _init(ctx: Context) -> None:
    C.init(ctx)


def _on_unmatched(ctx: Context, text: str) -> bool | str:
    return B.propose(ctx, text)


def _after_command(ctx: Context, text: str) -> None:
    C.enforce_flowers(ctx)
    C.note_found(ctx)


def view(story: Any, state: Any, gm: bool) -> dict[str, Any]:
    """Status-bar data: characters, life, flowers, time left, hint, floor (and, for a GM,
    the NPCs, the obstacles solved and the items changed)."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    lang = "en" if A.get(story, "language") == "en" else "ja"
    chars = []
    for cid in r.get("pcs", []):
        st = stats.get(cid, {})
        chars.append(
            {
                "id": cid,
                "name": st.get("name", cid),
                "abilities": [
                    f"○{shown(st['good'], lang)}" if st.get("good") else "",
                    f"×{shown(st['bad'], lang)}" if st.get("bad") else "",
                ],
                "archetype": st.get("archetype", ""),
                "life": st.get("life", 1),
                "status": st.get("status", C.IN),
            }
        )
    npcs = [
        {"id": c, "name": s.get("name", c), "kind": s.get("kind"), "status": s.get("status")}
        for c, s in stats.items()
        if isinstance(s, dict) and s.get("kind")
    ]
    lim = C.time_limit(story)
    fl: dict[str, int] = {}
    for item, n in (A.get(state, "inventory") or {}).items():
        colour = A.item_props(story, item).get("flower")
        if colour and n:
            fl[colour] = fl.get(colour, 0) + n
    out = {
        "characters": chars,
        "flowers": fl,
        "time_limit": lim,
        "time_spent": r.get("time_spent", 0),
        "time_left": None if lim is None else max(0, lim - int(r.get("time_spent", 0))),
        "hint_used": r.get("hint_used", False),
        "floor": r.get("floor"),
        "continues": r.get("continues", 0),
    }
    deck = C.cards(story)
    if deck:
        # アイテムの配置: the scenario's cards lie face down until their items are found.
        found = set(r.get("found", [])) | {
            i for i, n in (A.get(state, "inventory") or {}).items() if n
        }
        up = [c for c in deck if c in found]
        down = [c for c in deck if c not in found]
        out["cards"] = {
            "face_up": [A.item_name(story, c, lang) for c in up],
            "face_down": len(down),
        }
        if gm:
            out["cards"]["hidden"] = [
                A.item_name(story, c, lang) if c != C.UNKNOWN_CARD else "?" for c in down
            ]
    if gm:
        # Every NPC the story holds, met or not (a player learns of them in the story's text).
        out["npcs"] = npcs
        out["solved"] = list(r.get("solved", []))
        out["mods"] = dict(r.get("mods", {}))
    if lang == "en" and stats:
        # The sheets keep the rules' own (Japanese) ability names; an English game shows the
        # English ones (this replaces the state event's copy of the sheets), only the sheets
        # the engine shows (a player sees the PCs', a game master every one).
        chars_of = A.characters(story)
        return {
            "ureg": out,
            "stats": {
                cid: {
                    k: shown(v, lang) if k in ("good", "bad") and isinstance(v, str) else v
                    for k, v in s.items()
                }
                if isinstance(s, dict)
                else s
                for cid, s in stats.items()
                if gm or cid not in chars_of or A.get(chars_of[cid], "kind") == "pc"
            },
        }
    return {"ureg": out}


def _meta_time(ctx: Context, args: list[Any]) -> None:
    C.time_passed(ctx, args[0])


def _meta_sync(ctx: Context, args: list[Any]) -> None:
    C.time_sync(ctx, args[0])


def _meta_choose(ctx: Context, args: list[Any]) -> None:
    words = args[0]
    C.choose(
        ctx,
        " ".join(a for a in words if not a.startswith("@")),
        next((a[1:] for a in words if a.startswith("@")), ""),
    )
