"""The play console driven through a real prompt_toolkit session (pipe input, VT100 output)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import tui, unescape
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from runner.story import load
from runner.ui import files
from runner.ui.console import Repl

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "stories" / "ureg_window_room"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return tmp_path / "home"


@pytest.fixture(scope="module")
def story():
    return load(STORY)


def _play(story, keys: str, **kw) -> tuple[Repl, str]:
    """Runs a whole session through a real PromptSession fed with ``keys``: the screen without
    escape sequences and without any whitespace (wrapping)."""
    kw.setdefault("history", True)
    repl, screen = tui(story, keys, cols=72, color=True, **kw)
    return repl, re.sub(r"\s+", "", unescape(screen))


def test_play_to_the_ending_with_save_load_undo_and_a_bad_command(home: Path, story) -> None:
    keys = (
        "".join(
            f"{k}\r"
            for k in [
                "1",  # by number: 〈○閃き〉〈×平凡〉
                "見渡す",  # by a Japanese alias
                "zzz",  # garbage: an error, nothing changes
                "save s1",  # turn 2, no ladder yet
                "はしご",  # take the ladder (turn 3)
                "undo",  # back to turn 2
                "redo",  # forward to turn 3 without rerolling anything
                "load s1",  # back to the save: turn 2
                "はしご",
                "立て掛ける",
                "登る",
            ]
        )
        + "\x04"
    )  # Ctrl-D leaves
    repl, screen = _play(story, keys, seed=7, new=True)
    st = repl.state
    assert st.ending == "escaped"
    assert "脱出成功" in screen and "エンディング" in screen
    assert "「zzz」はわかりませんでした" in screen
    assert "セーブしました：s1" in screen and "ロードしました：s1" in screen
    assert "1手戻しました（手番2）" in screen and "やり直しました（手番3）" in screen
    # After the load the timeline is the save's: 2 commands, then the 3 played after it.
    assert [e.command for e in repl.tl.commands] == ["1", "見渡す", "はしご", "立て掛ける", "登る"]
    # The autosave holds the same game and verifies.
    body = files.read_doc(files.slot_path(story.id, "autosave"))
    assert body["state"] == st.to_dict()
    assert [c["command"] for c in body["commands"]] == [
        "1",
        "見渡す",
        "はしご",
        "立て掛ける",
        "登る",
    ]
    assert body["seed"] == 7 and len(body["states"]) == 6


def test_bad_command_leaves_the_state_unchanged(home: Path, story) -> None:
    repl, _ = _play(story, "1\r\x04", seed=1, new=True)
    before = repl.state.to_dict()
    for junk in ["zzz", "\x00\x07", "🙂" * 50, "x" * 10_000, "99", "   "]:
        assert repl.handle(junk) is True
        assert repl.state.to_dict() == before


def test_completion_lists_japanese_labels_with_numbers(home: Path, story) -> None:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        repl = Repl(story, use_prompt_toolkit=True, color=False, seed=3, new=True, history=False)
        repl.begin()
        completer = repl.io.session.completer
        got = list(
            completer.get_completions(Document(""), CompleteEvent(completion_requested=True))
        )
        shown = [c.display_text for c in got]
        assert shown == [
            "1. 〈○閃き〉〈×平凡〉の脱出者",
            "2. 〈○小柄〉〈×低身長〉の脱出者",
            "3. 自分で脱出者をつくる（長所と短所をひとつずつ選ぶ）",
        ]
        # Kana typed for a kanji label finds it through its aliases; the label is inserted.
        got = list(completer.get_completions(Document("こがら"), CompleteEvent()))
        assert [c.text for c in got] == ["〈○小柄〉〈×低身長〉の脱出者"]
        assert got[0].start_position == -3
        repl.handle("1")
        repl.handle("look around")
        got = list(completer.get_completions(Document("はし"), CompleteEvent()))
        assert "1. 梯子を持つ" in [c.display_text for c in got]
        got = list(completer.get_completions(Document("2"), CompleteEvent()))
        assert [c.display_text for c in got] == ["2. 木箱を窓の下へ押していく"]
        # Meta commands after a slash.
        got = list(completer.get_completions(Document("/セ"), CompleteEvent()))
        assert "/セーブ" in [c.text for c in got]


def test_tab_completes_in_the_running_prompt(home: Path, story) -> None:
    # "こがら", Tab picks the completion, Enter runs it: the 〈×低身長〉 escaper.
    repl, _ = _play(story, "こがら\t\r\x04", seed=2, new=True, history=False)
    assert repl.state.vars["ability_bad"] == "低身長"


def test_ctrl_c_cancels_the_line_and_quit_leaves(home: Path, story) -> None:
    repl, screen = _play(story, "jump\x03quit\r", seed=2, new=True, history=False)
    assert repl.state.turn == 0  # "jump" was never sent
    assert "入力を取り消しました" in screen
    assert "中断しました" in screen


def test_resume_offer_and_history_across_sessions(home: Path, story) -> None:
    _play(story, "1\rlook around\r\x04", seed=5, new=True)
    hist = files.history_path(story.id).read_text(encoding="utf-8")
    assert "+look around" in hist
    repl, screen = _play(story, "y\r\x04")
    assert repl.state.turn == 2 and repl.state.vars["looked"] is True
    assert "続けますか" in screen and "続きから再開しました" in screen
    repl, screen = _play(story, "n\r\x04")
    assert repl.state.turn == 0
    # --new skips the question entirely.
    repl, screen = _play(story, "\x04", new=True)
    assert "続けますか" not in screen


def test_meta_word_yields_to_a_story_action_but_slash_reaches_it(home: Path, story) -> None:
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        repl = Repl(story, use_prompt_toolkit=True, color=False, seed=3, new=True, history=False)
        repl.begin()
        repl.handle("1")
        # "1" is also an alias of the first action in the opening; here it is a number.
        assert repl.state.node == "room"
        repl.handle("help")
        assert repl.state.turn == 1
        repl.handle("/undo")
        assert repl.state.turn == 0
        repl.handle(":redo")
        assert repl.state.turn == 1
        repl.handle("戻す")
        assert repl.state.turn == 0


def test_transcript_and_english_interface(home: Path, story, tmp_path: Path) -> None:
    md = tmp_path / "replay.md"
    keys = "1\rlook around\rtake ladder\rlean ladder\rclimb\r\x04"
    repl, screen = _play(story, keys, seed=11, new=True, lang="en", transcript=md)
    assert "Ending" in screen and "Thanksforplaying" in screen
    text = md.read_text(encoding="utf-8")
    assert "**▶ look around**" in text and "脱出成功" in text
    data = files.read_replay(md)
    assert [c["command"] for c in data["commands"]] == [
        "1",
        "look around",
        "take ladder",
        "lean ladder",
        "climb",
    ]
    assert data["state"] == repl.state.to_dict()
    json.dumps(data)
