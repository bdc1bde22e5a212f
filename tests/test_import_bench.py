"""The seed's answer key is derived from stories/deep_sea_atelier by benchmarks/bench_import.py.
Where the story's code and the seed document part ways, the key must say what the document
says (the document itself is not in the repository; these are the places a reading of it
found)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location(
        "bench_import", ROOT / "benchmarks" / "bench_import.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_seed_key_holds_the_rolls_the_document_asks_for() -> None:
    key = _bench().story_key(ROOT / "stories" / "deep_sea_atelier")
    checks = key["checks"]
    # rolled by rules hooks, not coc7.check: the dark-room search, the swim, the throw
    assert ("回避", "regular") in checks and ("隠密", "regular") in checks
    assert ("水泳", "regular") in checks and ("投擲", "regular") in checks
    # a difficulty the story keeps in a variable: the lamp switch is Hard at the door
    assert ("隠密", "hard") in checks and ("DEX", "hard") in checks
    # 「対人技能…全てイクストリーム判定」 names no skill: the story's own choices are not the document's
    assert ("威圧", "extreme") not in checks and ("心理学", "extreme") not in checks
    # the search rolls darkness makes Extreme are written once as a blanket rule, not per roll
    assert ("目星", "extreme") not in checks


def test_the_seed_key_times_are_the_documents() -> None:
    key = _bench().story_key(ROOT / "stories" / "deep_sea_atelier")
    assert sorted(key["timeline"]) == [(60, 60), (180, 180), (360, 360), (360, 420), (600, 600)]
    assert sorted(key["endings"]) == ["bad", "good", "lost", "normal", "normal"]


def test_a_time_inside_the_documents_range_counts_once() -> None:
    b = _bench()
    key = {
        "checks": set(),
        "san": set(),
        "timeline": [(60, 60), (360, 360), (360, 420)],
        "monsters": [],
        "npcs": [],
        "endings": [],
    }
    got = {
        "checks": set(),
        "san": set(),
        "timeline": [60, 360, 360, 600, 600],
        "monsters": [],
        "npcs": [],
        "endings": [],
    }
    s = b.seed_scores(key, got)["timeline"]
    assert (s["tp"], s["fn"], s["fp"]) == (3, 0, 1)
