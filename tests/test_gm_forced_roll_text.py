"""A forced result's roll event in ``--jsonl`` (the tourist's item 1): the event's ``text``
showed the dice's verdict (``＞ イクストリーム成功``) beside ``"forced":"failure"``, and in
Japanese rule words under ``--lang en``. The text now names the GM's ruling, never the dice's
differing verdict, in the language played.

Guard: over random GM games of every shipped story in both languages, with random ``!force``
before checks, every roll event with ``forced`` has a text naming the forced level and not
the dice's; under ``--lang en`` no roll text has Japanese rule words."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.engine.gm import outcome_keys
from runner.rules.coc7.checks import LEVEL_EN, LEVEL_JA
from runner.stories import shipped
from runner.story import load
from runner.story.translate import apply, languages

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
_JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _editions() -> list[tuple[str, str]]:
    out = []
    for p in shipped():
        story = load(p)
        name = p.name if p.is_dir() else p.stem
        out.append((name, "ja"))
        if "en" in languages(story) or story.language == "en":
            out.append((name, "en"))
    return out


_PATHS = {(p.name if p.is_dir() else p.stem): p for p in shipped()}


def test_the_tourists_forced_failure_reads_as_the_ruling_in_english(tmp_path: Path) -> None:
    lines = ["1", "wake up", "!set light true", "!force failure", "look over the whole room"]
    lines += [":dice 1,0", "spot hidden"]
    env = {**os.environ, "KATARI_HOME": str(tmp_path / "home")}
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--jsonl", "--gm", "--lang", "en"]
        + ["--new", "--seed", "5"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    rolls = [json.loads(x) for x in p.stdout.splitlines() if '"type":"roll"' in x]
    forced = [r for r in rolls if r.get("forced")]
    assert len(forced) == 1, p.stdout[-2000:]
    r = forced[0]
    assert r["forced"] == "failure" and r["rolled"] == "extreme"
    assert r["text"].endswith("> failure (the GM's ruling)"), r["text"]
    assert "extreme" not in r["text"] and not _JA.search(r["text"]), r["text"]


@pytest.mark.parametrize(("name", "lang"), _editions())
def test_every_forced_roll_text_names_the_ruling_in_the_language_played(
    name: str, lang: str
) -> None:
    story = load(_PATHS[name])
    if lang == "en" and story.language != "en":
        story = apply(story, "en")
    words = LEVEL_EN if lang == "en" else LEVEL_JA
    forceable = list(outcome_keys(story))
    seen = 0
    for seed in range(25):
        rnd = random.Random(seed)
        state, _ = new_game(story, seed=seed, gm=True)
        for _turn in range(50):
            if state.ending is not None:
                break
            if forceable and rnd.random() < 0.4:
                state, _ = step(story, state, "!force " + rnd.choice(forceable), gm=True)
            actions = [c for c in available(story, state) if c.n]
            if not actions:
                break
            state, events = step(story, state, rnd.choice(actions), gm=True)
            for ev in events:
                if ev["type"] != "roll" or "text" not in ev:
                    continue
                text = ev["text"]
                if lang == "en":
                    assert not _JA.search(text.replace(ev.get("label", ""), "")), text
                if not ev.get("forced"):
                    continue
                seen += 1
                forced = ev["forced"]
                assert words.get(forced, forced) in text, (name, seed, text)
                rolled = ev.get("rolled")
                if rolled and rolled != forced:
                    # The dice's verdict is gone: only the ruling ends the line.
                    tail = text.rsplit(">" if lang == "en" else "＞", 1)[1]
                    assert words[rolled] not in tail or words[rolled] in words.get(forced, ""), text
                    assert words.get(forced, forced) in tail, text
    if name == "deep_sea_atelier":
        assert seen > 5, seen
