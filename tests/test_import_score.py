"""How well `katari import` reads: recall and precision per kind against the hand-made keys.

The held-out documents (tests/data/import/heldout) were written and keyed before any
importer code and are frozen; the goals are asserted on them. The tuning documents are
held to the same goals so that a change does not quietly lose what they cover."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from runner.importer import parse_document
from runner.importer.score import load_key, score, total

DATA = Path(__file__).resolve().parent / "data" / "import"
GOALS = {
    "checks": (0.95, 0.90),
    "san": (0.95, 0.90),
    "timeline": (0.90, 0.90),
    "monsters": (0.90, 0.90),
    "npcs": (0.90, 0.90),
    "endings": (0.90, 0.90),
}


def keys(part: str) -> list[Path]:
    return sorted((DATA / part).glob("*.key.json"))


def scores(part: str) -> list[dict]:
    out = []
    for k in keys(part):
        key = load_key(k)
        out.append(score(parse_document(k.parent / key["doc"]), key))
    return out


@pytest.mark.parametrize("part", ["heldout", "heldout2"])
def test_the_held_out_sets_are_frozen(part: str) -> None:
    pinned = {}
    for line in (DATA / f"{part}.sha256").read_text(encoding="utf-8").splitlines():
        digest, name = line.split(None, 1)
        pinned[name.strip()] = digest
    present = {f"{part}/{p.name}" for p in (DATA / part).iterdir()}
    assert present == set(pinned), "a held-out document or key was added or removed"
    for name, digest in pinned.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, f"{name} changed"


@pytest.mark.parametrize("part", ["heldout", "tuning"])
def test_recall_and_precision_meet_the_goals(part: str) -> None:
    assert len(keys(part)) >= 3
    tot = total(scores(part))
    for kind, (r, p) in GOALS.items():
        f = tot[kind]
        assert f["tp"] + f["fn"] > 0, f"{part}: the keys hold no {kind}"
        assert f["recall"] >= r, f"{part} {kind}: recall {f['recall']:.2f} < {r}"
        assert f["precision"] >= p, f"{part} {kind}: precision {f['precision']:.2f} < {p}"


def test_held_out_documents_cover_the_required_styles() -> None:
    docs = [load_key(k)["doc"] for k in keys("heldout")] + [
        load_key(k)["doc"] for k in keys("tuning")
    ]
    assert len(docs) >= 5
    assert any(d.endswith(".md") for d in docs) and any(d.endswith(".html") for d in docs)
    assert sum(1 for k in keys("heldout") + keys("tuning") if load_key(k).get("edition") == 6) >= 2
    for k in keys("heldout") + keys("tuning"):
        key = load_key(k)
        raw = (k.parent / key["doc"]).read_bytes().decode(key.get("encoding", "utf-8"))
        assert 3000 <= len(raw) <= 8000, f"{key['doc']}: {len(raw)} characters"


@pytest.mark.parametrize("part", ["heldout", "tuning"])
def test_attributes_of_the_checks_found(part: str) -> None:
    """Bonus/penalty dice, push, opposed, and whether a roll belongs to a timed event."""
    right = wrong = 0
    for s in scores(part):
        for kind in ("checks", "san"):
            for _attr, frac in s[kind]["attributes"].items():
                ok, n = (int(x) for x in frac.split("/"))
                right += ok
                wrong += n - ok
    assert right + wrong > 0 and right / (right + wrong) >= 0.95
