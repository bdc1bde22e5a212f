"""Game-master mode in the console: keeper notes, the GM panel, dice entered by hand deciding
a check, and overrides that go through step() (log, saves, undo, replay, transcript)."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path

import pytest
from conftest import piped, tui, unescape, vt100
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl
from runner.ui.narrator import RecordingNarrator

GM_STORY = """\
story: {id: gm_test, title: 書斎, language: ja, rules: coc7, start: study, options: {pregen: 1}}
clock: {start: "10:00", limit: "12:00"}
variables:
  found: {value: false, visible: false}
  alarm: {value: 0, visible: false}
items:
  key: {name: 鍵}
characters:
  rat: {name: 大ネズミ, kind: enemy, stats: {耐久力: 5, 近接戦闘: 30, 回避: 20, DEX: 50}}
nodes:
  study:
    title: 書斎
    narration: ["埃っぽい書斎だ。机がある。"]
    keeper: ["机の裏に鍵が貼ってある。目星で見つかる。"]
    actions:
      - id: search
        label: 机を調べる
        aliases: [目星, 調べる]
        check: "coc7.check('目星')"
        outcomes:
          success: {say: 机の裏に鍵が貼ってあった。, effects: [{give: key}, {set: {found: true}}]}
          failure: {say: 何も見つからない。}
      - id: leave
        label: 部屋を出る
        when: "has('key')"
        goto: out
  out:
    title: 廊下
    narration: ["廊下に出た。"]
    on_enter: [{end: escaped}]
events:
  - {id: bell, at: 60, effects: [{say: 遠くで鐘が鳴った。}]}
endings:
  escaped: {kind: good, title: 脱出}
"""


@pytest.fixture()
def story(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    d = tmp_path / "gm"
    d.mkdir()
    (d / "story.yaml").write_text(GM_STORY, encoding="utf-8")
    return load(d)


def _tui(story, keys: str, cols: int = 90, **kw) -> tuple[Repl, str]:
    """A whole session in a real prompt_toolkit app fed with ``keys``; the screen as text."""
    repl, screen = tui(story, keys, cols=cols, new=True, **kw)
    return repl, unescape(screen)


def _plain(story, lines: str, **kw) -> tuple[Repl, str]:
    repl, out = piped(story, lines, new=True, **kw)
    repl.run()
    return repl, out.getvalue()


def test_entered_faces_decide_the_spot_hidden_check(story) -> None:
    # 0 and 5 on the percentile dice read 05: under 目星 60, a success; the key is found.
    repl, screen = _tui(story, "目星\r0 5\r\x04", seed=1, gm=True, manual=True)
    assert "🎲 目星 60 に 1d100：出目を入力（47、または十の位と一の位 40 7）" in screen
    assert "目星 1d100<=60：[00] [5] → 5" in screen
    assert "机の裏に鍵が貼ってあった。" in screen
    assert repl.state.inventory == {"key": 1} and repl.state.vars["found"] is True
    # 9 and 9 read 99: a failure, whatever the seed would have rolled.
    for seed in (1, 2, 3):
        repl, screen = _tui(story, "目星\r90 9\r\x04", seed=seed, gm=True, manual=True)
        assert "目星 1d100<=60：[90] [9] → 99" in screen
        assert "何も見つからない。" in screen and repl.state.inventory == {}
    body = files.read_doc(files.slot_path(story.id, "autosave"))
    assert body["commands"] == [{"command": "目星", "dice": [9, 9], "manual": True}]


def _shown(story, **kw) -> str:
    """The screen of a prompt that stays up a moment, in a terminal that answers the cursor
    position request (so prompt_toolkit knows its height and draws the bottom toolbar)."""
    buf, out = vt100(40, 90, cpr=True)
    with create_pipe_input() as inp:
        inp.send_text("\x1b[1;1R")

        def end_when_drawn() -> None:
            # Ctrl-D once the bottom toolbar has been drawn (its 手番 field), however slow the
            # machine: a fixed wait lost the screen under load.
            deadline = time.monotonic() + 60
            while "手番" not in unescape(buf.getvalue()) and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)  # (the rest of the same redraw)
            inp.send_text("\x04")

        timer = threading.Thread(target=end_when_drawn, daemon=True)
        timer.start()
        with create_app_session(input=inp, output=out):
            Repl(story, use_prompt_toolkit=True, color=False, history=False, new=True, **kw).run()
        timer.join()
    return unescape(buf.getvalue())


def test_keeper_notes_and_the_gm_panel_only_in_gm_mode(story) -> None:
    player = _shown(story, seed=1)
    assert "机の裏に鍵が貼ってある" not in player and "［GM］" not in player
    assert "大ネズミ" not in player and "bell" not in player
    assert "場所 書斎 │ 時刻 10:00" in player  # the ordinary status bar is there
    gm = _shown(story, seed=1, gm=True)
    assert "［GM］ 机の裏に鍵が貼ってある。目星で見つかる。" in gm
    # The side panel (above the status bar; open on a 40-row terminal): the clock, the timed
    # events to come with their times and names, the variables that changed (none yet: the
    # hidden ones are not listed one by one), and the enemy's stats.
    assert "［GM｜F2］10:00・残り 2時間00分・手番 0・次 11:00 bell（あと1時間00分）" in gm
    assert "予定: 11:00 bell（あと1時間00分）" in gm
    assert "変化: （なし）" in gm and "found" not in gm
    assert "大ネズミ(敵): 耐久力 5 近接戦闘 30 回避 20 DEX 50" in gm


def test_overrides_in_japanese_and_english_go_through_step(story, tmp_path: Path) -> None:
    md = tmp_path / "gm.md"
    nar = RecordingNarrator()
    lines = (
        "\n".join(
            [
                "gm set alarm 3",
                "変数 found はい",
                "gm clock +30",
                "時計 35分",  # 10:00 → 10:30 → 11:05
                "gm damage 大ネズミ 2 耐久力",
                "強制 失敗",
                "目星",
                "gm give 鍵",
                "移動 廊下",
            ]
        )
        + "\n"
    )
    repl, out = _plain(story, lines, seed=1, gm=True, transcript=md, narrator=nar)
    st = repl.state
    assert [e.command for e in repl.tl.commands] == [
        "!set alarm 3",
        "!set found はい",  # (the engine reads はい as true: runner/engine/gm.py SWITCH_WORDS)
        "!clock +30",
        "!clock +35",
        "!damage 大ネズミ 2 耐久力",
        "!force failure",
        "目星",
        "!give 鍵",
        "!goto 廊下",
    ]
    assert st.vars == {"found": True, "alarm": 3} and st.clock == 65
    assert st.stats["rat"]["耐久力"] == 3 and st.ending == "escaped"
    assert "遠くで鐘が鳴った。" in out  # the timed event fired when the GM moved the clock
    assert "［GM 上書き］ 判定の結果を「失敗」にしました。" in out and "何も見つからない。" in out
    # The panel's summary follows every turn on a plain terminal.
    assert "［GM］10:30・残り 1時間30分・手番 0・次 11:00 bell（あと30分）・変化 2" in out
    assert "［GM］11:05・残り 55分・手番 1・変化 2" in out
    # The narrator never hears keeper notes, overrides or the panel.
    spoken = " ".join(nar.texts)
    assert "埃っぽい書斎" in spoken and "遠くで鐘が鳴った" in spoken
    assert "机の裏に鍵が貼ってある" not in spoken and "GM" not in spoken and "予定" not in spoken
    # The transcript marks them as overrides and replays to the same state.
    text = md.read_text(encoding="utf-8")
    assert "**▶ ［GM 上書き］ !set alarm 3**" in text
    assert "> **［GM 上書き］** alarm：0 → 3" in text
    assert "> ［GM］ *机の裏に鍵が貼ってある。目星で見つかる。*" in text
    data = files.read_replay(md)
    tl = files.rebuild(
        story, data["seed"], [files.Entry.from_json(c) for c in data["commands"]], gm=True
    )
    assert tl.state.to_dict() == st.to_dict()


def test_an_override_is_undone_like_a_move_and_refused_without_gm(story) -> None:
    out = io.StringIO()
    repl = Repl(story, io=PlainIO(io.StringIO(), out, cols=100), seed=1, new=True, gm=True)
    repl.begin()
    repl.handle("gm set alarm 7")
    assert repl.state.vars["alarm"] == 7
    repl.handle("undo")
    assert repl.state.vars["alarm"] == 0
    repl.handle("redo")
    assert repl.state.vars["alarm"] == 7
    repl.handle("gm set nosuch 1")
    assert "「nosuch」という変数は見つかりません。候補：found、alarm" in out.getvalue()
    _, plain_out = _plain(story, "gm set alarm 3\n!set alarm 3\n", seed=1)
    assert "GM モードでだけ使えます" in plain_out
    assert plain_out.count("GM モードでだけ使えます") == 2 and "overrides (!set" not in plain_out
