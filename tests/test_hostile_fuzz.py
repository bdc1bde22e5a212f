"""Random damage to shipped stories never makes `check` or `play --jsonl` traceback, hang,
eat memory or print a line that is not a located problem (check) or strict JSON (play).

The mutations and checks are in tests/story_fuzz.py; this runs it with a bounded number of
examples under an address-space cap and a timeout. A longer run by hand:

    python tests/story_fuzz.py --examples 5000 --seed 1
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEM = 1024 * 1024 * 1024


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM, MEM))


@pytest.mark.timeout(900)
def test_mutated_shipped_stories_are_refused_cleanly_or_play(tmp_path: Path) -> None:
    env = dict(os.environ, KATARI_HOME=str(tmp_path / "home"))
    env.pop("KATARI_STORIES", None)
    r = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "story_fuzz.py"), "--examples", "60"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        preexec_fn=_cap,
        env=env,
    )
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    assert "60 mutated stories" in r.stdout


def test_a_process_that_loads_many_stories_keeps_none_it_dropped(tmp_path: Path) -> None:
    """The loader moves a large story out of the garbage collector's sight (gc.freeze), but
    frozen objects are never collected: a small or refused story must not be frozen, or a
    long fuzz run (or `check` of many paths) grows without end (it did: 0.5 MB a story)."""
    import gc
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ring import ring_story_yaml

    from runner.story import check

    good = tmp_path / "good.yaml"
    good.write_text(ring_story_yaml(20), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(ring_story_yaml(20).replace("goto: k1", "goto: nowhere", 1), encoding="utf-8")
    before = gc.get_freeze_count()
    for _ in range(20):
        assert check(good)[0] is not None and check(bad)[0] is None
    assert gc.get_freeze_count() == before
    big = tmp_path / "big.yaml"
    big.write_text(ring_story_yaml(1000), encoding="utf-8")
    try:
        assert check(big)[0] is not None
        assert gc.get_freeze_count() > before  # a large story is still kept out of sight
    finally:
        gc.unfreeze()
