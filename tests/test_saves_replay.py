"""`katari replay`: a transcript or a save re-runs to the same end; a tampered one does not."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.cli import main
from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "stories" / "ureg_window_room"


@pytest.fixture()
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    md = tmp_path / "リプレイ.md"
    story = load(STORY)
    cmds = "1\nlook around\nはしご\nundo\npush box\nはしご\nladder on box\nclimb\n"
    Repl(
        story,
        io=PlainIO(io.StringIO(cmds), io.StringIO(), cols=80),
        seed=21,
        new=True,
        transcript=md,
    ).run()
    return md, files.slot_path(story.id, "autosave")


def test_transcript_and_save_replay_ok(played, capsys) -> None:
    md, save = played
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# 窓の部屋")
    assert "**▶ push box**" in text and "脱出成功" in text
    assert "**▶ undo**" not in text  # the replay is the game as it stands, not the keystrokes
    assert main(["replay", str(md)]) == 0
    assert "OK" in capsys.readouterr().out
    assert main(["replay", str(save), "--lang", "en", "--show"]) == 0
    out = capsys.readouterr().out
    assert "▶ push box" in out and out.strip().endswith("(脱出成功, turn 6).")


def test_a_tampered_replay_is_a_mismatch(played, capsys) -> None:
    md, _ = played
    text = md.read_text(encoding="utf-8")
    block = re.search(r"```katari-replay\n(.*?)\n```", text, re.S).group(1)
    data = json.loads(block)
    data["commands"] = data["commands"][:-1]  # leave out the climb
    md.write_text(text.replace(block, json.dumps(data, ensure_ascii=False)), encoding="utf-8")
    assert main(["replay", str(md)]) == 1
    out = capsys.readouterr().out
    assert "不一致" in out and "ending: recorded 'escaped', replay gives None" in out


def test_unreadable_files_exit_2(tmp_path: Path, capsys) -> None:
    p = tmp_path / "x.md"
    p.write_text("# just notes\n", encoding="utf-8")
    assert main(["replay", str(p)]) == 2
    assert "katari-replay" in capsys.readouterr().err
    q = tmp_path / "y.json"
    q.write_text("{broken", encoding="utf-8")
    assert main(["replay", str(q)]) == 2


def test_replay_as_a_user_runs_it(played) -> None:
    md, _ = played
    p = subprocess.run(
        [sys.executable, "-m", "runner", "replay", str(md)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0 and p.stdout.startswith("OK")
