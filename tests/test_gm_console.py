"""The console at a table (issue #13 items 10 and 18): dice by hand named by their check and
target, a natural percentile, pause pressed twice, undo's count, and Ctrl-C on an empty line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import played, tui, unescape

from runner.engine import NeedDice, new_game, step
from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
GREENHOUSE = ROOT / "stories" / "ureg_glass_greenhouse"
START = ["1", "スマホ", "目を覚ます"]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def deep():
    return load(DEEP)


def _console(story, lines: list[str], *, lang: str = "ja", **kw) -> tuple[Repl, str]:
    kw.setdefault("seed", 1)
    return played(story, lines, cols=200, new=True, lang=lang, **kw)


def _tui(story, keys: str, **kw) -> tuple[Repl, str]:
    repl, screen = tui(story, keys, rows=24, cols=80, new=True, **kw)
    return repl, unescape(screen)


# -- item 10 -------------------------------------------------------------------------------


def test_the_dice_prompt_names_the_check_and_its_target_and_takes_a_natural_percentile(
    deep,
) -> None:
    # 手探りで電気のスイッチを探す is a Luck roll (幸運 50): 47 is the roll, read as 4 and 7.
    repl, out = _console(deep, [*START, "2", "47"], manual=True)
    assert "🎲 幸運 50 に 1d100：出目を入力（47、または十の位と一の位 40 7）▶ 47" in out
    assert "🎲 幸運 1d100<=50：[40] [7] → 47（目標 50） レギュラー成功" in out
    assert repl.tl.commands[-1].dice == [4, 7]
    # Tens and units still work, 00 is 100 and 101 is refused.
    _, out = _console(deep, [*START, "2", "101", "00", "2"], manual=True)
    assert (
        "1d100 の目は 1–100（00 は 100）です：101" in out and "→ 100（目標 50） ファンブル" in out
    )
    # The fumble's fall: a roll without a target is named by its label.
    assert "🎲 ダメージ 1d3：d3 の出目を入力 (1個) ▶ 2" in out
    _, out = _console(deep, [*START, "2", "40 7"], manual=True)
    assert "[40] [7] → 47" in out
    _, out_en = _console(deep, [*START, "2", "5"], manual=True, lang="en")
    assert "🎲 幸運 50: 1d100: enter the roll (47, or tens and units: 40 7) > 5" in out_en
    assert "[00] [5] → 5" in out_en


def test_need_dice_carries_the_label_and_target(deep) -> None:
    s, _ = new_game(deep, 1)
    for c in START:
        s, _ = step(deep, s, c)
    with pytest.raises(NeedDice) as need:
        step(deep, s, "2", manual=True)
    assert (need.value.label, need.value.target, need.value.sides) == ("幸運", 50, [10, 10])
    with pytest.raises(NeedDice) as need:
        step(deep, s, "2", dice=[10, 10], manual=True)  # 100: a fumble, and a fall
    assert (need.value.label, need.value.target, need.value.expr) == ("ダメージ", None, "1d3")


# -- item 18 (pause twice, undo's count, Ctrl-C) ---------------------------------------------


def test_pause_twice_says_it_is_already_paused() -> None:
    story = load(GREENHOUSE)
    now = [1000.0]
    out = io.StringIO()
    repl = Repl(
        story,
        io=PlainIO(io.StringIO("1\npause\npause\nポーズ\n"), out, cols=100),
        new=True,
        seed=1,
        clock=lambda: now[0],
        tick=0.01,
    )
    repl.run()
    text = out.getvalue()
    assert text.count("時間を止めました") == 1
    assert text.count("もう止まっています（「再開」か次のコマンドで動きます）。") == 2
    assert "時間が動き出しました" not in text and repl.rt.paused


@pytest.mark.parametrize("args", ["abc", "-1", "0", "1.5", "2 3"])
def test_undo_with_a_bad_count_is_refused_with_its_usage(deep, args: str) -> None:
    repl, out = _console(deep, [*START, f"undo {args}", f"redo {args}"])
    assert repl.tl.pos == 3 and repl.state.node == "dark"  # nothing undone
    assert out.count("使い方：undo [回数]／redo [回数]") == 2
    repl, _ = _console(deep, [*START, "undo ２"])
    assert repl.tl.pos == 1


def test_ctrl_c_on_an_empty_line_says_how_to_leave(deep) -> None:
    _, screen = _tui(deep, "\x03あいう\x03\x04")
    assert (
        screen.count("終わるときは「quit」か Ctrl-D です（ゲームは一手ごとにセーブされています）。")
        == 1
    )
    assert screen.count("（入力を取り消しました）") == 1
