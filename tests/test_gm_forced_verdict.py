"""A GM's forced outcome and what the screens say (issue #13, the table tour's items 1 and 2):
the roll of a check whose outcome the GM forced shows the ruling, never the dice's own verdict,
on the GM's screen, the players' view and in words; and every outcome the GM may force is
named in the GM's language.

Guard: over random GM games of every shipped story, with forced outcomes sprinkled in, every
roll line a screen shows agrees with the outcome the story then ran."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.engine.gm import FAILURE_LEVELS, SUCCESS_LEVELS, outcome_keys
from runner.stories import shipped
from runner.story import load
from runner.ui.narrator.words import roll_words
from runner.ui.render import Renderer, level_text, outcome_key, outcome_name, plain

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
STORIES = {p.name if p.is_dir() else p.stem: load(p) for p in shipped()}
_SAY = re.compile(r"\.([a-z_]+)\.say\.\d+$")


def _agrees(shown_key: str, ran: str) -> bool:
    if shown_key == ran:
        return True
    if ran == "success":
        return shown_key in SUCCESS_LEVELS
    if ran == "failure":
        return shown_key in FAILURE_LEVELS
    return False


def _shown(roll: dict, story, lang: str, gm: bool) -> str:
    return plain(Renderer(story, lang=lang, gm=gm, cols=400).event(roll))


def _verdict_keys(roll: dict, story, lang: str) -> list[str]:
    """The outcomes a roll line's verdict names (the ruling's, else the level's)."""
    text = _shown(roll, story, lang, gm=False)
    keys = [
        k
        for k in outcome_keys(story)
        if text.endswith(
            (
                level_text(k, lang),
                outcome_name(k, lang, story.rules) + "）",
                outcome_name(k, lang, story.rules) + ")",
            )
        )
    ]
    if roll.get("success") is False and not roll.get("forced"):
        keys = [k for k in keys if k in FAILURE_LEVELS] or ["failure"]
    return keys


@pytest.mark.parametrize("name", sorted(STORIES))
def test_every_shown_roll_verdict_agrees_with_the_outcome_that_ran(name: str) -> None:
    story = STORIES[name]
    forceable = list(outcome_keys(story))
    checked = forced_seen = 0
    for seed in range(30):
        rnd = random.Random(seed)
        state, _ = new_game(story, seed=seed, gm=True)
        for _turn in range(60):
            if state.ending is not None:
                break
            if rnd.random() < 0.3:
                state, _ = step(story, state, "!force " + rnd.choice(forceable), gm=True)
            actions = [c for c in available(story, state) if c.n]
            if not actions:
                break
            state, events = step(story, state, rnd.choice(actions), gm=True)
            last_roll = None
            for ev in events:
                if ev["type"] == "roll" and ev.get("level"):
                    last_roll = ev
                elif ev["type"] == "narration" and last_roll is not None and ev.get("id"):
                    m = _SAY.search(ev["id"])
                    if not m or m.group(1) not in forceable:
                        continue
                    ran = m.group(1)
                    if ran not in (*SUCCESS_LEVELS, *FAILURE_LEVELS) and not last_roll.get(
                        "forced"
                    ):
                        continue  # a rule's own key (found, dazed) weighs several rolls: no one verdict
                    keys = _verdict_keys(last_roll, story, "ja")
                    assert any(_agrees(k, ran) for k in keys), (
                        f"{name} seed {seed}: {_shown(last_roll, story, 'ja', True)!r} then {ran!r} ran ({ev['text'][:30]})"
                    )
                    if last_roll.get("forced"):
                        forced_seen += 1
                        for lang in ("ja", "en"):
                            ruling = outcome_name(last_roll["forced"], lang, story.rules)
                            for gm in (True, False):
                                assert ruling in _shown(last_roll, story, lang, gm)
                            assert ruling in roll_words(last_roll, lang, system=story.rules)
                    checked += 1
                    last_roll = None
    if name == "deep_sea_atelier":  # (the bomb and UREG's stories roll no graded checks)
        assert checked > 50 and forced_seen > 5, (checked, forced_seen)


def test_a_forced_failure_on_an_extreme_roll_reads_as_the_ruling_on_both_screens(
    tmp_path: Path,
) -> None:
    view = tmp_path / "view.jsonl"
    lines = ["1", "4", "スイッチ", "1", "1", "部屋全体を調べる", "強制 失敗", "目星", "05"]
    env = {**__import__("os").environ, "KATARI_HOME": str(tmp_path / "home")}
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(DEEP),
            "--gm",
            "--dice",
            "manual",
            "--seed",
            "1",
            "--new",
            "--player-view",
            str(view),
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    assert p.returncode == 0, p.stderr
    assert "目星、60に対して5、GMの裁定で失敗" in p.stdout  # (a pipe gets the roll in words)
    assert "特に目を引くものはない。" in p.stdout
    w = subprocess.run(
        [sys.executable, "-m", "runner", "watch", str(view), "--once"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert (
        "🎲 目星 1d100<=60：[00] [5] → 5（目標 60）（GMの裁定で失敗）" in w.stdout
        and "特に目を引くものはない。" in w.stdout
    )
    assert (
        "イクストリーム成功" not in w.stdout
        and "イクストリーム成功" not in p.stdout.split("強制 失敗")[1]
    )


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "ja",
            [
                "イクストリーム成功",
                "ファンブル",
                "怯ませた",
                "見つかった",
                "浮上した",
                "死亡",
                "気絶",
            ],
        ),
        ("en", ["extreme success", "fumble", "dazed", "found", "surfaced", "dead", "unconscious"]),
    ],
)
def test_the_outcomes_a_gm_may_force_are_named_in_the_gms_language(
    lang: str, words: list[str], tmp_path: Path
) -> None:
    cmd = "強制 ほげ" if lang == "ja" else "gm force hoge"
    env = {**__import__("os").environ, "KATARI_HOME": str(tmp_path / "home")}
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(DEEP),
            "--gm",
            "--seed",
            "1",
            "--new",
            "--lang",
            lang,
        ],
        input=f"1\n4\n{cmd}\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    line = next(x for x in p.stdout.splitlines() if "強制できるのは" in x or "Outcomes:" in x)
    listed = line.split("：" if lang == "ja" else "Outcomes: ")[-1]
    for w in words:
        assert w in listed, (w, line)
    for raw in (
        ("impossible", "dazed", "hidden", "held", "spent", "surfaced", "unconscious")
        if lang == "ja"
        else ("_",)
    ):
        assert raw not in listed, (raw, line)
    # Every name in the list is one the GM can type back.
    story = load(DEEP)
    for k in outcome_keys(story):
        name = outcome_name(k, lang, story.rules)
        assert outcome_key(name, lang, story.rules) == k
