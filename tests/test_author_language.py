"""simulate, sweep and graph speak the story's language unless told (#14: a newcomer's English
story got a Japanese report without --lang), as play and test do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUB = ROOT / "tests" / "data" / "hub"  # language: en


def katari(*args: str, lang: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "KATARI_LANG"}
    if lang:
        env["KATARI_LANG"] = lang
    r = subprocess.run(
        [sys.executable, "-m", "runner", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=ROOT,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_simulate_of_an_english_story_is_in_english() -> None:
    out = katari("simulate", str(HUB), "--runs", "10", "--jobs", "1")
    assert out.startswith("hub: 10 games") and "endings" in out, out
    assert "エンディング" not in out
    # --lang and KATARI_LANG still choose, as for play.
    assert "エンディング" in katari("simulate", str(HUB), "--runs", "10", "-j", "1", "--lang", "ja")
    assert "エンディング" in katari("simulate", str(HUB), "--runs", "10", "-j", "1", lang="ja")


def test_sweep_of_an_english_story_is_in_english() -> None:
    out = katari("sweep", str(HUB), "--set", "coins=1,3", "--runs", "10", "--jobs", "1")
    assert "turns" in out and "手数" not in out, out
    out = katari("sweep", str(HUB), "--set", "coins=1,3", "--runs", "10", "-j", "1", "--lang", "ja")
    assert "手数" in out
