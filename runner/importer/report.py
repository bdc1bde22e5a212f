"""What the importer understood, for people (``IMPORT.md``) and programs (``--json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.importer.model import Check, SanRoll, Scenario


def _check(c: Check) -> dict:
    d: dict[str, Any] = {
        "skill": c.skills[0],
        "difficulty": c.difficulty,
        "bonus": c.bonus,
        "pushable": c.default_pushable(),
        "line": c.line,
    }
    if len(c.skills) > 1:
        d["alternatives"] = list(c.skills)
    if c.opposed:
        d["opposed"] = {
            "against": c.opponent,
            "skill": c.opponent_skill or c.skills[0],
            "value": c.opponent_value,
        }
    if c.outcomes:
        d["outcomes"] = {o.key: o.text for o in c.outcomes}
    return d


def _san(s: SanRoll) -> dict:
    return {"success": s.success, "failure": s.failure, "line": s.line}


def to_json(sc: Scenario) -> dict:
    """The report: ``{"title", "edition", "players", "locations": [{"name", "line", "checks":
    [{"skill", "difficulty", "bonus", "pushable", "line"}], "san": [{"success", "failure",
    "line"}]}], "timeline": [{"at", "what", "line"}], "monsters": [{"name", "stats",
    "attacks": [{"name", "skill", "damage"}], "san"}], "npcs": [...], "endings": [{"name",
    "kind", "line"}], "unplaced": [{"line", "text"}]}``, plus a few more keys (below)."""
    return {
        "title": sc.title,
        "edition": sc.edition,
        "players": sc.players,
        "time": sc.time,
        "source": {"path": sc.path, "format": sc.format, "encoding": sc.encoding},
        "recommended": sc.recommended,
        "search_cost": sc.search_cost,
        "locations": [
            {
                "name": p.name,
                "line": p.line,
                "role": p.role,
                "checks": [_check(c) for c in p.checks],
                "san": [_san(s) for s in p.san],
            }
            for p in sc.places
        ],
        "timeline": [
            {
                "at": t.at,
                "what": t.what,
                "line": t.line,
                **({"after": t.after} if t.after else {}),
                "checks": [_check(c) for c in t.checks],
                "san": [_san(s) for s in t.san],
            }
            for t in sc.timeline
        ],
        "monsters": [_creature(c) for c in sc.monsters],
        "npcs": [_creature(c) for c in sc.npcs],
        "endings": [
            {
                "name": e.name,
                "kind": e.kind,
                "line": e.line,
                **({"conditions": [ln.raw for ln in e.conditions]} if e.conditions else {}),
                **({"rewards": [ln.raw for ln in e.rewards]} if e.rewards else {}),
            }
            for e in sc.endings
        ],
        "handouts": [{"name": h.name, "line": h.line} for h in sc.handouts],
        "unplaced": [
            {"line": u.line, "text": u.text, **({"why": u.why} if u.why else {})}
            for u in sc.unplaced
        ],
    }


def _creature(c) -> dict:  # noqa: ANN001
    d: dict[str, Any] = {
        "name": c.name,
        "line": c.line,
        "stats": dict(c.stats),
        "attacks": [
            {
                "name": a.name,
                "skill": a.skill,
                "damage": a.damage,
                **({"skill_name": a.skill_name} if a.skill_name else {}),
            }
            for a in c.attacks
        ],
        "san": c.san,
    }
    if c.armor is not None:
        d["armor"] = c.armor
    if c.db:
        d["db"] = c.db
    if c.skills:
        d["skills"] = dict(c.skills)
    return d


def counts(sc: Scenario) -> dict[str, int]:
    return {
        "places": sum(1 for p in sc.places if p.role == "place"),
        "checks": len(sc.all_checks()),
        "san": len(sc.all_san()),
        "timeline": len(sc.timeline),
        "monsters": len(sc.monsters),
        "npcs": len(sc.npcs),
        "endings": len(sc.endings),
        "unplaced": len(sc.unplaced),
    }


def summary(sc: Scenario, out: Path | str) -> str:
    n = counts(sc)
    return (
        f"{Path(sc.path).name} → {out}: {n['places']} places, {n['checks']} checks, {n['san']} sanity rolls, "
        f"{n['timeline']} timed events, {n['monsters']} monsters, {n['npcs']} NPCs, {n['endings']} endings; "
        f"{n['unplaced']} unplaced (see {Path(out) / 'IMPORT.md'})"
    )


def _skills(c: Check) -> str:
    s = " / ".join(c.skills)
    bits = []
    if c.difficulty != "regular":
        bits.append(c.difficulty)
    if c.bonus > 0:
        bits.append(f"bonus {c.bonus}")
    if c.bonus < 0:
        bits.append(f"penalty {-c.bonus}")
    if c.pushable is not None:
        bits.append("push" if c.pushable else "no push")
    if c.opposed:
        bits.append(f"opposed ({c.opponent or '?'})")
    return s + (f" ({', '.join(bits)})" if bits else "")


def markdown(sc: Scenario, out: Path | str) -> str:
    n = counts(sc)
    L: list[str] = [f"# Import report: {sc.title or Path(sc.path).name}", ""]
    L.append(
        f"Source: `{Path(sc.path).name}` ({sc.format}, {sc.encoding}). "
        f"Edition: {sc.edition or 'not stated'}{' (values converted to 7th edition)' if sc.edition == 6 else ''}. "
        f"Players: {sc.players or '—'}. Time: {sc.time or '—'}. "
        f"Search cost: {str(sc.search_cost) + ' min' if sc.search_cost else '—'}."
    )
    L.append("")
    L.append(
        f"Found {n['places']} places, {n['checks']} checks, {n['san']} sanity rolls, {n['timeline']} timed "
        f"events, {n['monsters']} monsters, {n['npcs']} NPCs, {n['endings']} endings. "
        f"**{n['unplaced']} lines could not be placed** (last section). Every line number is the document's."
    )
    L.append("")
    L.append(
        "Next: `katari check "
        + str(out)
        + "`, then `katari play "
        + str(out)
        + " --gm` (keeper notes are "
        'shown in GM mode). The draft is a start: conditions written in prose ("…した場合") are keeper '
        "notes, not rules."
    )
    L.append("")
    L.append("## Places")
    for p in sc.places:
        L.append("")
        L.append(f"### {p.name} (line {p.line}{', ' + p.role if p.role != 'place' else ''})")
        if not p.checks and not p.san:
            L.append("- (no checks)")
        rows = []
        for c in p.checks:
            outs = ", ".join(o.key for o in c.outcomes)
            rows.append(
                (
                    c.line,
                    0,
                    f"- line {c.line}: check {_skills(c)}"
                    + (f" — outcomes: {outs}" if outs else ""),
                )
            )
        for s in p.san:
            rows.append((s.line, 1, f"- line {s.line}: sanity {s.loss}"))
        L += [r[2] for r in sorted(rows)]
    L.append("")
    L.append("## Timeline")
    L.append("")
    if not sc.timeline:
        L.append("- (none)")
    for t in sc.timeline:
        extra = (
            ""
            if t.minutes is not None or not t.after
            else " — counted from an action: a keeper note, not a clock event"
        )
        L.append(f"- line {t.line}: **{t.at}** {t.what}{extra}")
        for c in t.checks:
            L.append(f"  - line {c.line}: check {_skills(c)}")
        for s in t.san:
            L.append(f"  - line {s.line}: sanity {s.loss}")
    L.append("")
    L.append("## Characters")
    L.append("")
    if not sc.creatures:
        L.append("- (none)")
    for cr in sc.creatures:
        stats = " ".join(f"{k} {v}" for k, v in cr.stats.items())
        att = "; ".join(
            f"{a.name} {a.skill if a.skill is not None else '?'}% {a.damage}" for a in cr.attacks
        )
        L.append(
            f"- line {cr.line}: {cr.kind} **{cr.name}** — {stats or 'no stats'}"
            + (f"; attacks: {att}" if att else "")
            + (f"; SAN {cr.san}" if cr.san else "")
        )
    L.append("")
    L.append("## Endings")
    L.append("")
    if not sc.endings:
        L.append("- (none found: the draft ends with a plain 「おわり」)")
    for e in sc.endings:
        L.append(f"- line {e.line}: {e.kind} — {e.name}")
    L.append("")
    L.append("## Could not place")
    L.append("")
    if not sc.unplaced:
        L.append("- (nothing)")
    for u in sc.unplaced:
        L.append(f"- line {u.line}: {u.text}" + (f" — {u.why}" if u.why else ""))
    L.append("")
    return "\n".join(L)
