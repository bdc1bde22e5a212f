"""Recall and precision of an import against a hand-made answer key, per kind.

A key (``tests/data/import/*/*.key.json``) lists what a careful reader finds in the
document, each with its line number. An item the importer found counts when the same
line holds the same thing: a check with the same skills (as a set, 7th-edition names)
and difficulty; a sanity roll with both losses; a timeline entry at the same time; an
ending of the same kind. A monster or NPC counts when its name matches and every
characteristic the key gives has the key's value. Attribute figures (bonus dice, push,
opposed, belonging to a timed event) are over the checks found.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

from runner.importer.model import Scenario
from runner.importer.skills import canonical

KINDS = ("checks", "san", "timeline", "monsters", "npcs", "endings")


def load_key(path: str | Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def dice(s: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", str(s))).lower()


def time_value(at: str) -> tuple[int | None, int] | str:
    """(day, minutes) of "1日目 17:00", "20:00", "1日目 夕方"; relative times stay text."""
    from runner.importer.timeline import parse_time

    s = unicodedata.normalize("NFKC", at).strip()
    if "+" in s:
        return s
    t = parse_time(s)
    if t is None:
        return s
    return t[0], t[1]


def same_time(a: str, b: str) -> bool:
    x, y = time_value(a), time_value(b)
    if isinstance(x, str) or isinstance(y, str):
        return x == y
    if x[0] is not None and y[0] is not None:
        return (x[0] - 1) * 1440 + x[1] == (y[0] - 1) * 1440 + y[1]
    return x[1] % 1440 == y[1] % 1440


def _name(s: str) -> str:
    s = unicodedata.normalize("NFKC", s)
    return re.sub(r"[\s「」『』()（）]", "", s)


def same_name(a: str, b: str) -> bool:
    x, y = _name(a), _name(b)
    return bool(x) and bool(y) and (x == y or x in y or y in x)


def found(sc: Scenario) -> dict[str, list]:
    checks = []
    for p in sc.places:
        for c in p.checks:
            checks.append(
                {
                    "line": c.line,
                    "skills": c.skills,
                    "difficulty": c.difficulty,
                    "bonus": c.bonus,
                    "pushable": c.pushable,
                    "opposed": c.opposed,
                    "in": "place",
                }
            )
    for t in sc.timeline:
        for c in t.checks:
            checks.append(
                {
                    "line": c.line,
                    "skills": c.skills,
                    "difficulty": c.difficulty,
                    "bonus": c.bonus,
                    "pushable": c.pushable,
                    "opposed": c.opposed,
                    "in": "timeline",
                }
            )
    san = [
        {"line": s.line, "success": s.success, "failure": s.failure, "in": "place"}
        for p in sc.places
        for s in p.san
    ]
    san += [
        {"line": s.line, "success": s.success, "failure": s.failure, "in": "timeline"}
        for t in sc.timeline
        for s in t.san
    ]
    return {
        "checks": checks,
        "san": san,
        "timeline": [{"line": t.line, "at": t.at} for t in sc.timeline],
        "monsters": [{"name": c.name, "stats": c.stats} for c in sc.monsters],
        "npcs": [{"name": c.name, "stats": c.stats} for c in sc.npcs],
        "endings": [{"line": e.line, "kind": e.kind} for e in sc.endings],
    }


def _check_id(c: dict) -> tuple:
    return (
        c["line"],
        tuple(sorted(canonical(s) for s in c["skills"])),
        c.get("difficulty", "regular"),
    )


def _match_lists(key: list, got: list, same) -> tuple[list[tuple[dict, dict]], list, list]:  # noqa: ANN001
    pairs, left = [], list(got)
    missed = []
    for k in key:
        hit = next((g for g in left if same(k, g)), None)
        if hit is None:
            missed.append(k)
        else:
            pairs.append((k, hit))
            left.remove(hit)
    return pairs, missed, left


def _creature_same(k: dict, g: dict) -> bool:
    if not same_name(k["name"], g["name"]):
        return False
    return all(g["stats"].get(s) == v for s, v in (k.get("stats") or {}).items())


def score(sc: Scenario, key: dict) -> dict:
    got = found(sc)
    tests = {
        "checks": lambda k, g: _check_id(k) == _check_id(g),
        "san": lambda k, g: (
            k["line"] == g["line"]
            and dice(k["success"]) == dice(g["success"])
            and dice(k["failure"]) == dice(g["failure"])
        ),
        "timeline": lambda k, g: k["line"] == g["line"] and same_time(k["at"], g["at"]),
        "monsters": _creature_same,
        "npcs": _creature_same,
        "endings": lambda k, g: k["line"] == g["line"] and k["kind"] == g["kind"],
    }
    out: dict = {}
    for kind in KINDS:
        pairs, missed, extra = _match_lists(key.get(kind, []), got[kind], tests[kind])
        out[kind] = _figures(len(pairs), len(missed), len(extra), missed, extra)
        if kind in ("checks", "san"):
            att: Counter[str] = Counter()
            for k, g in pairs:
                for a in ("bonus", "pushable", "opposed", "in"):
                    if a in k:
                        att[a + "_n"] += 1
                        att[a + "_ok"] += (g.get(a) == k[a]) if a != "in" else (g["in"] == k["in"])
                if "in" not in k:
                    att["in_n"] += 1
                    att["in_ok"] += g["in"] == "place"
            out[kind]["attributes"] = {
                a: f"{att[a + '_ok']}/{att[a + '_n']}"
                for a in ("bonus", "pushable", "opposed", "in")
                if att[a + "_n"]
            }
    return out


def _figures(tp: int, fn: int, fp: int, missed: list, extra: list) -> dict:
    return {
        "tp": tp,
        "fn": fn,
        "fp": fp,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "missed": missed,
        "extra": extra,
    }


def total(scores: list[dict]) -> dict:
    out = {}
    for kind in KINDS:
        tp = sum(s[kind]["tp"] for s in scores)
        fn = sum(s[kind]["fn"] for s in scores)
        fp = sum(s[kind]["fp"] for s in scores)
        out[kind] = _figures(tp, fn, fp, [], [])
    return out


def table(scores: dict) -> str:
    rows = ["| kind | found / in key | recall | precision |", "| --- | ---: | ---: | ---: |"]
    for kind in KINDS:
        f = scores[kind]
        rows.append(
            f"| {kind} | {f['tp']} / {f['tp'] + f['fn']} (+{f['fp']} extra) | "
            f"{f['recall'] * 100:.0f}% | {f['precision'] * 100:.0f}% |"
        )
    return "\n".join(rows)
