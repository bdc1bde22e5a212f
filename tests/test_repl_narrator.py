"""The console's narrator hook, with the narrator's recording twin."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.console import PlainIO, Repl

narrator_mod = pytest.importorskip("runner.ui.narrator")
ROOT = Path(__file__).resolve().parent.parent


def test_narration_is_spoken_and_can_be_switched_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path))
    story = load(ROOT / "stories" / "ureg_window_room")
    nar = narrator_mod.RecordingNarrator()
    out = io.StringIO()
    lines = "1\nskip\nagain\nnarrate off\nlook around\n/narrate on\nはしご\n"
    repl = Repl(
        story, io=PlainIO(io.StringIO(lines), out, cols=80), seed=1, new=True, gm=True, narrator=nar
    )
    repl.run()
    spoken = nar.texts
    assert spoken[0].startswith("場にアイテムカードが三枚") and spoken[1].startswith(
        "閉鎖空間へ向かう前に"
    )
    assert any("六メートル四方の部屋" in x for x in spoken)
    assert not any("窓は高さ" in x or "GM" in x for x in spoken)  # keeper notes are never spoken
    assert not any("出口はあの窓だけ" in x for x in spoken)  # said while narration was off
    assert any("肩にかついだ" in x for x in spoken)
    kinds = [e[0] for e in nar.log]
    assert "skip" in kinds and "again" in kinds and kinds[-1] == "close"
    assert "読み上げ：オフ" in out.getvalue() and "読み上げ：オン" in out.getvalue()


def test_without_a_narrator_its_commands_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path))
    story = load(ROOT / "stories" / "ureg_window_room")
    out = io.StringIO()
    repl = Repl(
        story, io=PlainIO(io.StringIO("skip\n/narrate on\n"), out, cols=80), seed=1, new=True
    )
    repl.run()
    assert out.getvalue().count("読み上げは動いていません") == 2
