"""UREG through the real loader and engine (runner.story.load, runner.engine.step)."""

from __future__ import annotations

import pytest

from runner.engine import new_game, step
from runner.story import StoryError, load

STORY = """
story:
  id: ureg_test
  title: テスト
  language: ja
  rules: ureg
  start: choose
  options: {vanish: true, time_limit_minutes: 10, endings: {full_victory: escaped, failure: lost}}
items:
  ladder: {name: 梯子, props: {aliases: [はしご]}}
  box: {name: 木箱}
nodes:
  choose:
    kind: scene
    actions:
      - {id: little, label: 小柄の脱出者, effects: [{do: "ureg.choose('Littleness')"}], goto: room}
      - {id: plain, label: 平凡の脱出者, goto: room}
  room:
    title: 部屋
    narration: [窓は5mの高さ。]
    props:
      obstacles:
        window:
          name: 窓
          aliases: [まど, window]
          height: 5
          effects: [{do: "ureg.escape()"}, {end: escaped}]
    actions:
      - {id: take, label: 梯子と木箱を持つ, once: true, effects: [{give: ladder}, {give: box}]}
      - {id: wait, label: 待つ, effects: [{do: "ureg.time_passed(300)"}]}
      - {id: give_up, label: あきらめる, effects: [{end: lost}]}
endings:
  escaped: {kind: good, title: 脱出}
  lost: {kind: bad, title: 失敗}
"""


@pytest.fixture
def story(tmp_path):
    (tmp_path / "story.yaml").write_text(STORY, encoding="utf-8")
    return load(tmp_path)


def play(story, *commands):
    st, ev = new_game(story)
    for c in commands:
        st, ev = step(story, st, c)
    return st, ev


def texts(ev):
    return [e["text"] for e in ev if e["type"] == "narration"]


def test_ordinary_escapes_with_the_ladder(story):
    st, ev = play(story, "平凡の脱出者", "梯子と木箱を持つ", "梯子を窓に立て掛けて登る")
    assert st.ending == "escaped"
    assert any("梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m" in t for t in texts(ev))
    assert st.stats["pc"]["status"] == "escaped"


def test_short_needs_the_box(story):
    st, ev = play(story, "小柄の脱出者", "梯子と木箱を持つ", "use the ladder on the window")
    assert st.ending is None and any("4.5 m < 5 m" in t for t in texts(ev))
    st, ev = step(story, st, "木箱に梯子を載せて窓へ登る")
    assert st.ending == "escaped"
    state = next(e for e in ev if e["type"] == "state")
    assert state["ureg"]["characters"][0]["abilities"] == ["○小柄", "×低身長"]


def test_unknown_words_fall_back_to_the_engine(story):
    st, ev = play(story, "平凡の脱出者")
    st2, ev = step(story, st, "歌を歌う")
    assert st2 is st and any(e["type"] == "error" or e["type"] == "narration" for e in ev)


def test_time_runs_out(story):
    st, ev = play(story, "平凡の脱出者", "待つ")
    assert st.rules["ureg"]["time_spent"] == 300
    state = next(e for e in ev if e["type"] == "state")
    assert state["ureg"]["time_left"] == 300
    st, ev = step(story, st, "待つ")
    assert st.ending == "lost"
    assert any("制限時間" in t for t in texts(ev))


def test_validate_reports_rule_dependencies(tmp_path):
    bad = STORY.replace(
        "options: {vanish: true,", "options: {life: true, combat: numeric, npc: true,"
    ).replace("items:\n", "characters:\n  ghost: {name: 亡霊, kind: enemy}\nitems:\n", 1)
    (tmp_path / "story.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(StoryError) as e:
        load(tmp_path)
    msgs = "\n".join(map(str, e.value.diagnostics))
    assert "'life' rule needs 'vanish'" in msgs
    assert "power for numeric combat" in msgs
