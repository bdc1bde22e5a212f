"""The ``--jsonl`` wire format stays what it was, byte for byte, and the declared event types
(runner/engine/events.py) describe it.

tests/data/wire holds a small story that makes every kind of event the engine writes, two
input scripts (a player's, a GM's) and the transcripts ``katari play --jsonl --seed 3`` wrote
for them before events had declared types (#14 item 4). Events are plain dicts at run time;
if a change to the engine or the front end alters one byte of the output, this fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from runner.engine.events import Event

ROOT = Path(__file__).resolve().parent.parent
WIRE = ROOT / "tests" / "data" / "wire"


def _play(script: str, *flags: str, home: Path) -> bytes:
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(WIRE), "--jsonl", "--seed", "3", *flags],
        input=(WIRE / f"{script}.in").read_bytes(),
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "KATARI_HOME": str(home)},
        timeout=120,
    )
    assert r.returncode == 0, r.stderr.decode(errors="replace")[-2000:]
    return r.stdout


@pytest.mark.parametrize("script,flags", [("player", ()), ("gm", ("--gm",))])
def test_the_transcript_is_byte_identical(script: str, flags: tuple[str, ...], tmp_path: Path):
    want = (WIRE / f"{script}.jsonl").read_bytes()
    got = _play(script, *flags, home=tmp_path)
    if got != want:
        for i, (a, b) in enumerate(zip(want.splitlines(), got.splitlines(), strict=False)):
            assert a == b, f"line {i + 1} differs"
    assert got == want


KINDS = {get_args(get_type_hints(t)["type"])[0]: t for t in get_args(Event)}


def test_every_recorded_event_has_the_keys_its_type_declares() -> None:
    """Each line of the transcripts: its type is a member of ``Event``, it has every
    required key and no key the type does not declare (nested types too)."""
    seen = set()
    for name in ("player", "gm"):
        for line in (WIRE / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            ev = json.loads(line)
            td = KINDS[ev["type"]]
            seen.add(ev["type"])
            assert td.__required_keys__ <= ev.keys(), (ev, td.__required_keys__ - ev.keys())
            assert ev.keys() <= td.__required_keys__ | td.__optional_keys__, ev
            if ev["type"] == "state" and "gm" in ev:
                gm_keys = set(ev["gm"])
                assert gm_keys == {"pending_events", "fired", "all_vars"}
                for p in ev["gm"]["pending_events"]:
                    assert {"id", "at", "time"} <= p.keys() <= {"id", "at", "time", "title"}
    assert seen == set(KINDS)  # the story makes every kind
