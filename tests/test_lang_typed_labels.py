"""A label with ``{…}`` text is typed as the player sees it listed: the shown label, not the
written one, is what the matcher reads (typed labels that were refused were among the first
things real players met)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HUB = Path(__file__).resolve().parent / "data" / "hub"


def _events(lines: list[str], tmp_path: Path) -> list[dict]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(tmp_path),
    }
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(HUB), "--jsonl", "--seed", "1"],
        input="".join(x + "\n" for x in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return [json.loads(x) for x in r.stdout.splitlines()]


def test_the_shown_text_of_an_interpolated_label_is_understood(tmp_path: Path) -> None:
    ev = _events(["Go to the baker", "Buy a loaf (3 left)", "Buy a loaf (2 left)"], tmp_path)
    assert not [e for e in ev if e["type"] == "error"], [e for e in ev if e["type"] == "error"]
    said = [e["text"] for e in ev if e["type"] == "narration"]
    assert "You now carry 1 loaf." in said and "You now carry 2 loaves." in said


def test_a_label_variation_is_typed_as_shown(tmp_path: Path) -> None:
    ev = _events(
        ["Sit by the fountain", "Sit by the fountain again", "Sit by the fountain again"], tmp_path
    )
    assert not [e for e in ev if e["type"] == "error"]
    assert (
        sum(
            e["type"] == "narration"
            and e["text"]
            in ("The water is cold.", "A child throws a coin in.", "The fountain murmurs.")
            for e in ev
        )
        == 3
    )
