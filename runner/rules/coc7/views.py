"""What front ends show: the status-bar view and the investigators' sheets."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import sheet as sh


def _view(story: Any, state: Any, gm: bool) -> dict[str, Any]:
    d = (getattr(state, "rules", None) or {}).get("coc7") or {}
    pcs = []
    shown: list[str] = []
    en = str(getattr(story, "language", "ja")).startswith("en")
    stats = getattr(state, "stats", None) or {}
    for k, s in stats.items():
        if isinstance(s, dict) and s.get("system") == "coc7" and s.get("kind") == "investigator":
            cond = s.get("cond", {})
            pcs.append(
                {
                    "id": k,
                    "name": s["name"],
                    "hp": s["hp"],
                    "hp_max": s["hp_max"],
                    "mp": s["mp"],
                    "mp_max": s["mp_max"],
                    "san": s["san"],
                    "luck": s["luck"],
                    "conditions": [
                        c
                        for c in ("major_wound", "unconscious", "dying", "dead", "stable")
                        if cond.get(c)
                    ]
                    + ([f"insane:{cond['insane']}"] if cond.get("insane") else [])
                    + (["bout"] if cd.bout_running(s) else []),
                }
            )
            words = cd.condition_names(s, en)
            if words:  # in the player's words on the status bar: 瀕死、重傷、狂気の発作…
                many = (
                    sum(
                        1
                        for v in stats.values()
                        if isinstance(v, dict) and v.get("kind") == "investigator"
                    )
                    > 1
                )
                shown += [f"{s['name']}:{w}" for w in words] if many else words
    out: dict[str, Any] = {"investigators": pcs, "active": d.get("pc", "")}
    if shown:
        out["conditions"] = shown
    c = d.get("combat")
    if c:
        rows = []
        for k in c["order"]:
            r = c["c"][k]
            row: dict[str, Any] = {
                "id": k,
                "side": r["side"],
                "dazed": r["dazed"],
                "held_by": r["held_by"],
                "fled": r["fled"],
                "down": r["down"],
            }
            if r["side"] == "enemy":
                row["name"] = r["sheet"]["name"]
                if gm:
                    row["hp"] = r["sheet"]["hp"]
            else:
                row["name"] = state.stats[k]["name"]
            rows.append(row)
        if gm:  # the fight's own copies of the enemies: what a GM's damage reaches
            out["fighters"] = {
                r["sheet"][
                    "name"
                ]: f"{r['sheet']['hp']}/{r['sheet'].get('hp_max', r['sheet']['hp'])}"
                for r in c["c"].values()
                if r["side"] == "enemy"
            }
        out["combat"] = {
            "round": c["round"],
            "order": rows,
            "awaiting": "response" if c["pending"] else ("action" if c["actor"] else ""),
            "actor": c["actor"],
        }
    return {"coc7": out}


def _sheet_lines(s: dict[str, Any], en: bool) -> list[str]:
    ch = s["chars"]
    occ = s.get("occupation", "")
    lines = [
        (f"{s['name']} ({occ})" if occ else s["name"]) if en else f"{s['name']}（{occ}）",
        " ".join(f"{k}{ch[k]}" for k in sh.CHARS),
        f"HP {s['hp']}/{s['hp_max']}  MP {s['mp']}/{s['mp_max']}  SAN {s['san']}  "
        f"{'Luck' if en else '幸運'} {s['luck']}  MOV {s['mov']}  DB {s['db']}  "
        f"{'Build' if en else 'ビルド'} {s['build']}",
    ]
    sk = [
        f"{sh.english(k) if en else k} {v}"
        for k, v in sorted(s["skills"].items(), key=lambda kv: -kv[1])
    ]
    lines.append(", ".join(sk))
    return lines


def sheet_view(s: dict[str, Any], en: bool = False) -> list[str]:
    """An investigator's sheet as a player reads it: who, the characteristics, the points,
    the conditions, the weapons, the skills (RuleSystem.sheet; the console's ``sheet``)."""
    ch = s["chars"]
    head = str(s["name_en"]) if en and s.get("name_en") else str(s["name"])
    occ = s.get("occupation", "")
    lines = [(f"{head} ({occ})" if en else f"{head}（{occ}）") if occ else head]
    if en:
        lines.append("  " + "  ".join(f"{k} {ch[k]}" for k in sh.CHARS))
    else:
        lines.append("  " + "  ".join(f"{sh.CHAR_NAMES[k]}{k} {ch[k]}" for k in sh.CHARS))
    lines.append(
        f"  HP {s['hp']}/{s['hp_max']}  MP {s['mp']}/{s['mp_max']}  "
        f"SAN {s['san']}/{s.get('san_max', 99)}  {'Luck' if en else '幸運'} {s['luck']}  "
        f"{'MOV' if en else '移動'} {s['mov']}  DB {s['db']}  "
        f"{'Build' if en else 'ビルド'} {s['build']}"
    )
    words = cd.condition_names(s, en)
    lines.append(
        ("  Conditions: " if en else "  状態：")
        + ((", " if en else "、").join(words) if words else ("fine" if en else "異常なし"))
    )
    ws = []
    for w in s.get("weapons", []):
        text = f"{sh.english_weapon(w['name']) if en else w['name']} {w.get('damage', '')}".strip()
        if w.get("firearm"):
            text += f" ({w.get('ammo', 0)} rounds)" if en else f"（残弾 {w.get('ammo', 0)}）"
        ws.append(text)
    if ws:
        lines.append(("  Weapons: " if en else "  武器：") + (", " if en else "、").join(ws))
    sk = [
        f"{sh.english(k) if en else k} {v}"
        for k, v in sorted(s["skills"].items(), key=lambda kv: -kv[1])
    ]
    lines.append(("  Skills: " if en else "  技能：") + (", " if en else "、").join(sk))
    return lines


def _sheet(story: Any, state: Any, lang: str = "") -> list[str]:
    """Every investigator's sheet, the active one first (RuleSystem.sheet)."""
    en = (lang or str(getattr(story, "language", "ja"))).startswith("en")
    d = (getattr(state, "rules", None) or {}).get("coc7") or {}
    pcs = [
        (k, v)
        for k, v in (getattr(state, "stats", None) or {}).items()
        if isinstance(v, dict) and v.get("system") == "coc7" and v.get("kind") == "investigator"
    ]
    pcs.sort(key=lambda kv: kv[0] != d.get("pc"))
    out: list[str] = []
    for _, v in pcs:
        out += sheet_view(v, en)
    return out


def _meta_sheet(ctx: Context, args: list[Any]) -> None:
    s = ck.sheet_of(ctx, args[0])
    for line in sheet_view(s, ck.lang(ctx) == "en"):
        ctx.say(line)
