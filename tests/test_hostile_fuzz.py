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
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "story_fuzz.py"), "--examples", "60"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=600, preexec_fn=_cap, env=env)
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    assert "60 mutated stories" in r.stdout
