"""A GM's variable override means what the GM meant (issue #13, the table tour's item 3):
``変数 天井の照明 はい`` lights the room as the switch does, not just the one variable, so the
place is no longer 暗闇 and the events that count from the lamp (the shake at +1 h) come.

Guard: a table of variable overrides, each beside the story action it stands for; after each,
the state the story's rules read (place, search difficulty, lamp time, what is known) is the
same as after the action."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runner.engine import new_game, step
from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
START = ["1", "スマホ", "目を覚ます", "スマホ"]  # 黒田 剛, a phone, awake, the switch seen
WATCHED = ("light", "sdiff", "lit_at", "switch_known")


@pytest.fixture(scope="module")
def deep():
    return load(DEEP)


def _play(story, lines: list[str]):
    state, _ = new_game(story, seed=3, gm=True)
    for line in lines:
        state, evs = step(story, state, line, gm=True)
        assert not [e for e in evs if e["type"] == "error"], (line, evs)
    return state


# (commands before, the action a player takes, the GM's override that means the same)
TABLE = [
    (START, "照明のスイッチを入れる", "!set light true"),  # in the starting darkness
    (
        START + ["暗闇のまま手探りで部屋を調べる"],
        "照明のスイッチを入れる",
        "!set 天井の照明 true",
    ),  # dark room
    (START + ["照明のスイッチを入れる"], "照明を消す", "!set light false"),
    (START + ["照明のスイッチを入れる", "照明を消す"], "照明のスイッチを入れる", "!set light true"),
    (
        START + ["!clock +45"],
        "照明のスイッチを入れる",
        "!set light true",
    ),  # lit later: counts from then
]


@pytest.mark.parametrize("before, action, override", TABLE)
def test_a_variable_override_leaves_the_state_the_action_leaves(
    deep, before, action, override
) -> None:
    by_action = _play(deep, [*before, action])
    by_gm = _play(deep, [*before, override])
    assert by_gm.node == by_action.node
    assert {k: by_gm.vars.get(k) for k in WATCHED} == {k: by_action.vars.get(k) for k in WATCHED}


def test_lighting_the_room_by_override_brings_the_shake_an_hour_later(
    deep, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    for lines in (
        ["1", "4", "変数 天井の照明 はい", "時計 +90"],
        ["1", "4", "変数 light true", "時計 1時間30分"],
    ):
        out = io.StringIO()
        repl = Repl(
            deep,
            io=PlainIO(io.StringIO("\n".join(lines) + "\n"), out, cols=200),
            new=True,
            seed=1,
            gm=True,
        )
        repl.run()
        text = out.getvalue()
        after = text.split("変数")[1]
        lit = after.split("時計")[0]
        assert (
            "手探りで電気のスイッチを探す" not in lit
            and "雑然として少し埃っぽいワンルームだった" in lit
        )
        assert "ごうん、と部屋全体が大きく揺れた。" in after.split("時計", 1)[1]
        assert repl.state.node == "room" and repl.state.vars["tentacle"] is True
