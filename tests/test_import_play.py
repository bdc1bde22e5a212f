"""A draft plays as the document says: a check rolls its skill at its difficulty with its
dice and says its outcome, a sanity roll costs what is written, a failed pushable check
offers the push, the timeline fires at its times, a monster can be fought, an ending ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.importer import import_document
from runner.story import load
from runner.ui.jsonl import turns

DOC = """『鐘楼の影』
プレイ人数：1人
■導入
夕方、探索者は丘の上の鐘楼にたどり着く。
■探索箇所
探索1回につき30分経過する。
【鐘楼の一階】
埃の積もった石の床。
・床を調べる→〈目星〉ハード
→成功：古い鍵が落ちている。
→失敗：何も見つからない。
・壁の落書きを見た者は SANc 1/1d4
・扉：〈鍵開け〉（ペナルティ・ダイス1個）。プッシュ可。
プッシュ失敗 → 鍵が折れる。
・番人を睨む：POW対抗（番人のPOW 60）
■タイムライン
18:00 探索開始。
19:00 鐘が鳴る。全員〈聞き耳〉。成功すると、鐘の中に人影が見える。
■エネミー
【鐘の番人】
STR 60 CON 70 SIZ 60 DEX 40 INT 30 POW 60
HP 13
攻撃：殴打 40%、ダメージ 1d6
正気度喪失：0/1d4
■クライマックス
鐘の番人が階段を下りてくる。
■エンディング
【TRUE END：夜明けの鐘】
番人を鎮めた場合。朝の鐘が町に響く。
【ロスト】
番人に敗れた場合。
"""


def events(story_dir: Path, commands: list[str], seed: int = 1) -> list[dict]:
    story = load(story_dir)
    out = []
    for batch in turns(story, commands, seed=seed, gm=True):
        out += batch if isinstance(batch, list) else [batch]
    return out


@pytest.fixture
def draft(tmp_path: Path) -> Path:
    doc = tmp_path / "bell.txt"
    doc.write_text(DOC, encoding="utf-8")
    out = tmp_path / "bell"
    import_document(doc, out)
    return out


def test_a_check_rolls_its_skill_at_its_difficulty_and_says_its_outcome(draft: Path) -> None:
    ev = events(draft, ["探索を始める", "鐘楼の一階", ":dice 10,1", "床を調べる"])  # 01: critical
    roll = next(e for e in ev if e["type"] == "roll")
    assert roll["label"] == "目星" and roll["difficulty"] == "hard" and roll["level"] == "critical"
    assert any(e["type"] == "narration" and e["text"] == "古い鍵が落ちている。" for e in ev)
    state = [e for e in ev if e["type"] == "state"][-1]
    assert state["time"] == "18:30"  # the search cost


def test_a_failed_pushable_check_offers_the_push(draft: Path) -> None:
    # with the penalty die: two tens dice (the higher counts), then the units
    ev = events(
        draft, ["探索を始める", "鐘楼の一階", ":dice 10,10,10", "扉"]
    )  # 100: a fumble is never pushed
    assert [e for e in ev if e["type"] == "prompt"][-1]["actions"][0][
        "label"
    ] != "プッシュする（鍵開け）"
    ev = events(draft, ["探索を始める", "鐘楼の一階", ":dice 5,5,10", "扉"])  # 50: a failure
    roll = next(e for e in ev if e["type"] == "roll")
    assert roll["label"] == "鍵開け" and roll["bonus"] == -1
    labels = [a["label"] for a in [e for e in ev if e["type"] == "prompt"][-1]["actions"]]
    assert labels == ["プッシュする（鍵開け）", "あきらめる"]
    ev = events(
        draft, ["探索を始める", "鐘楼の一階", ":dice 5,5,10", "扉", ":dice 5,5,10", "プッシュする"]
    )
    assert any(e["type"] == "narration" and e["text"] == "鍵が折れる。" for e in ev)


def test_a_sanity_roll_costs_what_is_written(draft: Path) -> None:
    ev = events(draft, ["探索を始める", "鐘楼の一階", ":dice 10,10,4", "壁の落書きを見た者"])
    before = [e for e in ev if e["type"] == "state"][-2]["stats"]["pc"]["san"]
    after = [e for e in ev if e["type"] == "state"][-1]["stats"]["pc"]["san"]
    assert before - after == 4  # a fumble loses the maximum of 1d4


def test_an_opposed_roll_is_against_the_written_value(draft: Path) -> None:
    ev = events(draft, ["探索を始める", "鐘楼の一階", "番人を睨む"])
    rolls = [e for e in ev if e["type"] == "roll"]
    assert any(r.get("target") == 60 and r.get("who") != "pc" for r in rolls), rolls


def test_the_timeline_fires_at_its_time_with_its_check(draft: Path) -> None:
    cmds = ["探索を始める", "鐘楼の一階", "床を調べる", "床を調べる"]  # 30 + 30 minutes: 19:00
    ev = events(draft, cmds)
    assert any(e["type"] == "narration" and e["text"].startswith("鐘が鳴る。") for e in ev)
    assert any(e["type"] == "roll" and e["label"] == "聞き耳" for e in ev)


def test_a_monster_can_be_fought_and_an_ending_reached(draft: Path) -> None:
    ev = events(draft, ["探索を始める", "クライマックスへ", "鐘の番人と戦う"])
    state = [e for e in ev if e["type"] == "state"][-1]
    assert state["node"] == "fight_m1"
    assert "combat" in state["coc7"]
    ev = events(draft, ["探索を始める", "クライマックスへ", "結末：TRUE END：夜明けの鐘"])
    end = [e for e in ev if e["type"] == "ending"][-1]
    assert end["kind"] == "good" and end["title"] == "TRUE END：夜明けの鐘"
