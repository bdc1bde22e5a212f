"""--dice manual: what a command made before a roll is on screen before the table is asked
for that roll (a Luck check's fumble before its damage prompt), and shown once: a game with
hand-entered dice writes exactly what the same game with the same faces writes unasked."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from conftest import tui, unescape

from runner.engine import NeedDice, available
from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
STORIES = sorted(p.name for p in (ROOT / "stories").iterdir() if (p / "story.yaml").exists())
VERDICT = "幸運 1d100<=50：[00] [0] → 100（目標 50） ファンブル"
DAMAGE_PROMPT = "ダメージ 1d3：d3 の出目を入力"


@pytest.fixture()
def deep_sea(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return load(ROOT / "stories" / "deep_sea_atelier")


def test_fumble_verdict_is_shown_before_the_damage_prompt_and_once(deep_sea) -> None:
    keys = "1\r3\r目を覚ます\rスイッチ\r0\r2\r\x04"
    repl, raw = tui(deep_sea, keys, rows=60, cols=120, gm=True, manual=True, new=True)
    text = unescape(raw)
    assert text.count(VERDICT) == 1, text
    assert text.index(VERDICT) < text.index(DAMAGE_PROMPT)
    fumble = "脛を打ちつけ"  # the fumble's narration, too, comes before its damage is asked for
    assert text.count(fumble) == 1 and text.index(fumble) < text.index(DAMAGE_PROMPT)
    assert repl.state.stats  # (the damage ran: the turn was taken once, after the dice)
    assert [e.dice for e in repl.tl.log][-1] == [10, 10, 2]


def test_a_gm_clock_shows_the_shake_before_its_luck_prompt(deep_sea) -> None:
    keys = "1\r3\r目を覚ます\r変数 天井の照明 はい\r時計 +90\r50\r\x04"
    _, raw = tui(deep_sea, keys, rows=60, cols=120, gm=True, manual=True, new=True)
    text = unescape(raw)
    luck = text.index("幸運", text.index("時計 +90"))
    shake = text.index("揺れ", text.index("時計 +90"))
    assert shake < luck, text[text.index("時計 +90") :]
    tail = text[text.index("時計 +90") :]
    # The shake is written once although the command ran twice (asked, then with the faces).
    line = next(s for s in tail.splitlines() if "揺れ" in s).strip()
    assert text.count(line) == 1


class _Table:
    """The hand that rolls: random faces for each die a console asks for, counted."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.asked = 0
        self.early = 0

    def __call__(self, need: NeedDice) -> list[int]:
        self.asked += 1
        self.early += bool(need.events)
        return [self.rng.randint(1, s) for s in need.sides]


def _console(story, out: io.StringIO, seed: int, *, manual: bool) -> Repl:
    return Repl(
        story, io=PlainIO(io.StringIO(), out, cols=90), seed=seed, new=True, gm=True, manual=manual
    )


@pytest.mark.parametrize("name", STORIES)
def test_manual_dice_show_every_line_once(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import runner.ui.console.core as core
    import runner.ui.files as files

    story = load(ROOT / "stories" / name)
    real_step, real_start = core.step, files.start
    asked = early = 0
    for game in range(6):
        rng = random.Random(f"{name}/{game}")
        table = _Table(random.Random(game))
        out1 = io.StringIO()
        monkeypatch.setenv("KATARI_HOME", str(tmp_path / f"{game}-hand"))
        hand = _console(story, out1, game, manual=True)
        hand.ask_dice = table  # type: ignore[method-assign]
        hand.begin()
        picks: list[str] = []
        for _ in range(40):
            if hand.state.ending is not None:
                break
            choices = available(story, hand.state)
            if not choices:
                break
            picks.append(str(rng.randrange(len(choices)) + 1))
            hand.handle(picks[-1])
        asked += table.asked
        early += table.early
        # The same game unasked: each command with the faces the table gave it.
        turns = iter([list(e.dice or []) for e in hand.tl.log])
        start = list(hand.tl.start_dice or [])
        out2 = io.StringIO()
        with monkeypatch.context() as m:
            m.setenv("KATARI_HOME", str(tmp_path / f"{game}-plain"))
            m.setattr(
                core,
                "step",
                lambda st, state, text, *, turns=turns, dice=None, manual=False, gm=False: (
                    real_step(st, state, text, dice=next(turns), manual=False, gm=gm)
                ),
            )
            m.setattr(
                files,
                "start",
                lambda st, seed, *, start=start, gm=False, manual=False, dice=None: real_start(
                    st, seed, gm=gm, dice=start or None
                ),
            )
            plain = _console(story, out2, game, manual=False)
            plain.begin()
            for p in picks:
                plain.handle(p)
        said = [s for s in out1.getvalue().splitlines() if "--dice manual" not in s]
        assert said == out2.getvalue().splitlines(), f"{name} game {game}"
    # The games rolled dice by hand (UREG plays without dice: docs/rules-ureg.md, UA-18).
    assert bool(asked) != (story.rules == "ureg")
    if name == "deep_sea_atelier":
        assert early  # and some of those rolls came after events the command had made
