"""Rolls in the console: hand-entered dice (--dice manual), die-by-die display, undo without
rerolling, GM-only keeper notes, speakers, colours on and off."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import tui, unescape

from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl

DICE_STORY = """\
story: {id: dice_test, title: ダイスの部屋, language: ja, rules: none, start: hall}
variables:
  total: {value: 0, visible: true, label: 合計}
characters:
  guide: {name: 案内人, kind: npc}
nodes:
  hall:
    title: 広間
    narration:
      - ダイスが二つ置いてある。
      - {text: 振ってごらん。, speaker: guide}
    keeper: [合計が8以上なら扉が開く。]
    actions:
      - id: roll
        label: ダイスを振る
        aliases: [振る, ふる]
        effects:
          - roll: {dice: 2d6, into: total, label: 運試し}
        check: "total >= 8"
        outcomes:
          success: {say: 扉が開いた。, end: open}
          failure: {say: 何も起きない。}
      - id: practice
        label: 練習で振る
        aliases: [練習]
        effects:
          - roll: {dice: 1d100, into: total, label: 練習}
endings:
  open: {kind: good, title: 開いた扉}
"""


@pytest.fixture()
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    d = tmp_path / "dice"
    d.mkdir()
    (d / "story.yaml").write_text(DICE_STORY, encoding="utf-8")
    return load(d)


def _run(story, keys: str, *, color: bool = False, **kw) -> tuple[Repl, str, str]:
    repl, raw = tui(
        story, keys, rows=30, cols=70, term="xterm-256color", color=color, new=True, **kw
    )
    return repl, raw, unescape(raw)


def test_manual_dice_are_asked_for_checked_and_saved(story) -> None:
    # 2d6: "3" gives one die, "9" is refused (a d6 has no 9), "5" gives the second.
    repl, _, text = _run(story, "ダイスを振る\r3\r9\r5\r\x04", manual=True)
    assert "2d6：d6×2 の出目を入力 (2個)" in text
    assert "6面ダイスに 9 の目はありません" in text
    assert "運試し 2d6：[3] [5] → 8" in text
    assert repl.state.ending == "open"
    body = files.read_doc(files.slot_path(story.id, "autosave"))
    assert body["commands"] == [{"command": "ダイスを振る", "dice": [3, 5], "manual": True}]
    # The save replays to the same end with the same faces.
    tl = files.rebuild(
        story, body["seed"], [files.Entry.from_json(c) for c in body["commands"]], manual=True
    )
    assert tl.state.to_dict() == body["state"]


def test_cancelling_the_dice_runs_nothing(story) -> None:
    repl, _, text = _run(story, "ダイスを振る\r\x03\x04", manual=True)
    assert "ロールを取り消しました" in text
    assert repl.state.turn == 0 and repl.tl.log == []


def test_undo_restores_the_roll_and_redo_does_not_reroll(story) -> None:
    out = io.StringIO()
    repl = Repl(story, io=PlainIO(io.StringIO(), out, cols=70), seed=3, new=True)
    repl.begin()
    rolls = []
    for _ in range(4):
        repl.handle("練習")
        rolls.append(repl.state.vars["total"])
    assert len(set(rolls)) > 1
    turn = repl.state.turn
    after = repl.state.to_dict()
    repl.handle("undo 2")
    assert repl.state.turn == turn - 2
    repl.handle("redo")
    repl.handle("redo")
    assert repl.state.to_dict() == after  # the very same rolls, not new ones
    # Playing again after an undo continues from the restored dice generator: same roll.
    repl.handle("undo")
    repl.handle("練習")
    assert repl.state.to_dict() == after


def test_keeper_notes_only_in_gm_mode_and_speakers_marked(story) -> None:
    _, _, player = _run(story, "\x04", seed=1)
    assert "合計が8以上" not in player and "［GM］" not in player
    assert "「案内人」振ってごらん。" in player
    _, _, gm = _run(story, "\x04", seed=1, gm=True)
    assert "［GM］ 合計が8以上なら扉が開く。" in gm


def test_colours_only_when_asked(story) -> None:
    _, raw, _ = _run(story, "\x04", seed=1, color=True)
    assert "\x1b[0;32;1m" in raw or "\x1b[0;1;32m" in raw  # green action numbers
    _, raw, _ = _run(story, "\x04", seed=1, color=False)
    assert not re.search(r"\x1b\[[0-9;]*3[0-7](;|m)", raw)


def test_no_color_env_and_pipes_give_plain_text(story, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = io.StringIO()
    repl = Repl(story, io=PlainIO(io.StringIO("ダイスを振る\n"), out, cols=70), seed=3, new=True)
    repl.run()
    assert "\x1b" not in out.getvalue()
    assert "▶ ダイスを振る" in out.getvalue() and "🎲 運試し 2d6：" in out.getvalue()
