"""A GM's damage reaches the enemy in the fight (issue #13, the table tour's item 7):
``ダメージ 触腕 2`` during a fight changed the story's sheet, not the fight's copy, so the
monster fighting took nothing. Now a name means one of the fight's copies (ambiguous ones are
listed), the damage goes through the rule system (a blow of 10 or more dazes a tentacle, DA-09)
and the GM panel shows the fight's copies."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
# 黒田 剛 in the lit room; the GM starts the fight at the door: two arms.
TO_FIGHT = [
    "1",
    "スマホ",
    "目を覚ます",
    "スマホ",
    "照明のスイッチを入れる",
    "変数 enc_at 'door'",
    "移動 fight_start",
]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


def _gm(lines: list[str]) -> tuple[Repl, str]:
    out = io.StringIO()
    repl = Repl(
        load(DEEP),
        io=PlainIO(io.StringIO("\n".join([*TO_FIGHT, *lines]) + "\n"), out, cols=200),
        new=True,
        seed=1,
        gm=True,
    )
    repl.run()
    return repl, out.getvalue()


def _fight(repl: Repl) -> dict:
    return repl.state.rules["coc7"]["combat"]["c"]


def test_the_gms_damage_reaches_the_enemy_in_the_fight() -> None:
    repl, out = _gm(["ダメージ 触腕1 2", "ダメージ 触腕2 1d3", "gm"])
    c = _fight(repl)
    assert c["tentacle1"]["sheet"]["hp"] == 28
    assert c["tentacle2"]["sheet"]["hp"] < 30
    assert (
        repl.state.stats["tentacle"]["耐久力"] == 30
    )  # the story's sheet, the template, is untouched
    assert "［GM 上書き］ 触腕1の耐久力：30 → 28" in out and "触腕1に 2 ダメージ。" in out
    # The panel shows the fight's copies.
    assert f"戦闘中の敵の耐久力 触腕1 28/30・触腕2 {c['tentacle2']['sheet']['hp']}/30" in out


def test_a_name_several_fighters_share_lists_them_and_changes_nothing() -> None:
    repl, out = _gm(["ダメージ 触腕 2"])
    assert "「触腕」に当てはまるキャラクターがいくつもあります：触腕1、触腕2。" in out
    assert all(r["sheet"]["hp"] == 30 for r in _fight(repl).values() if r["side"] == "enemy")


def test_the_gms_damage_follows_the_fights_rules() -> None:
    repl, out = _gm(["ダメージ 触腕1 10"])
    assert "触腕1が怯んだ" in out and _fight(repl)["tentacle1"]["dazed"] > 0
    repl, out = _gm(["ダメージ 触腕2 30"])
    assert "触腕2は潰れた。" in out and _fight(repl)["tentacle2"]["down"] is True
