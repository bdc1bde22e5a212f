"""Console polish from a QA pass: no English in the Japanese interface (rule-system keys and
values, file errors), the quit line names the story, an unwritable save folder is said once,
long piped lines are echoed short, and the narrator never reports an empty clip as spoken."""

from __future__ import annotations

import errno
import io
import json
import re
from pathlib import Path

import pytest
from conftest import piped

from runner.cli import main
from runner.engine import new_game, state_event, step
from runner.story import load
from runner.ui import files
from runner.ui.console import Repl
from runner.ui.console.terminal import _quiet_file_history
from runner.ui.console.words import ECHO_MAX
from runner.ui.render import gm_hidden, gm_lines, plain, status_lines, toolbar

ROOT = Path(__file__).resolve().parent.parent
STORIES = ROOT / "stories"


@pytest.fixture(scope="module")
def deep_sea():
    return load(STORIES / "deep_sea_atelier")


@pytest.fixture(scope="module")
def dungeon():
    return load(STORIES / "dungeon_2f")


@pytest.fixture(scope="module")
def window():
    return load(STORIES / "ureg_window_room")


def _state(story, *commands: str, gm: bool = False) -> tuple[dict, dict]:
    """The (player's, GM's) state events after ``commands``."""
    st, _ = new_game(story, 1, gm=gm)
    for c in commands:
        st, _ = step(story, st, c, gm=gm)
    return state_event(story, st, gm=False), state_event(story, st, gm=True)


def _screens(story, player: dict, gm: dict, lang: str) -> tuple[str, str, str]:
    bar = "".join(x for _, x in toolbar(player, story, lang, cols=200))
    status = plain(status_lines(player, story, lang, cols=200))
    panel = plain(gm_lines(gm, story, lang, cols=200, hidden=gm_hidden(player, gm)))
    return bar, status, panel


def _repl(story, lines: str = "", cols: int = 100, **kw) -> tuple[Repl, io.StringIO]:
    kw.setdefault("seed", 9)
    return piped(story, lines, cols=cols, **kw)


# -- 1. rule-system keys and values in the interface language ----------------


def test_coc7_luck_mov_and_build_are_named_in_japanese(deep_sea) -> None:
    player, gm = _state(deep_sea, "1", gm=True)
    bar, status, panel = _screens(deep_sea, player, gm, "ja")
    assert "幸運 50" in bar and "幸運: 50" in status
    assert "幸運 50 移動 9 ビルド 1" in panel
    for text in (bar, status, panel):
        assert not re.search(r"\b(Luck|luck|mov|build)\b", text), text
    # Spaces inside names survive (no "黒田剛幸運"): interface text is not folded YAML.
    assert "黒田 剛: HP 12/12" in panel
    bar, status, panel = _screens(deep_sea, player, gm, "en")
    assert "Luck 50" in bar and "Luck 50 MOV 9 Build 1" in panel


def test_ktane_led_solved_and_edgework_in_japanese(dungeon) -> None:
    player, gm = _state(dungeon, gm=True)
    edge = player["edgework"]
    bar, status, panel = _screens(dungeon, player, gm, "ja")
    colours = {"red": "赤", "yellow": "黄", "green": "緑", "blue": "青", "magenta": "マゼンタ"}
    assert f"LED {colours[player['led']]}" in bar and f"LED: {colours[player['led']]}" in status
    assert "解除: まだ" in status and "解除 ✗" not in bar
    lit = "、".join(("点灯" if i["lit"] else "消灯") + i["label"] for i in edge["indicators"])
    want = (
        f"外観: シリアル {edge['serial']}・"
        + (f"インジケーター {lit}・" if lit else "")
        + f"電池 {edge['batteries']}本"
    )
    assert want in status
    assert f"外観 {edge['serial']}" in bar and f"電池{edge['batteries']}" in bar
    assert re.search(r"隠し値: レベル \d.*動き [前左右]・正解 [前左右]", panel), panel
    for text in (bar, status, panel):
        assert not re.search(
            r"\b(red|yellow|green|blue|magenta|serial|indicators|batteries|move|"
            r"expected|left|right|forward)\b",
            text,
        ), text
    # English stays English.
    bar, status, panel = _screens(dungeon, player, gm, "en")
    assert f"LED: {player['led']}" in status and f"serial {edge['serial']}" in status
    assert "solved: no" in status and "expected" in panel


def test_every_led_colour_and_the_dark_led_have_japanese_names(dungeon) -> None:
    player, _ = _state(dungeon)
    for colour, name in [
        ("red", "赤"),
        ("yellow", "黄"),
        ("green", "緑"),
        ("blue", "青"),
        ("magenta", "マゼンタ"),
        ("white", "白"),
        ("off", "消灯"),
    ]:
        bar = "".join(x for _, x in toolbar({**player, "led": colour}, dungeon, "ja", cols=200))
        assert f"LED {name} " in bar


def test_gm_panel_lists_each_ureg_stat_once(window) -> None:
    player, gm = _state(window, "1", gm=True)
    _, _, panel = _screens(window, player, gm, "ja")
    row = next(line for line in panel.splitlines() if "ライフ" in line)
    # not "ライフ 1 life 1": each once, the escaper's abilities included
    assert row.strip() == "あなた: ライフ 1 長所 閃き 短所 平凡"


# -- 2. the quit line names the story unless it is the default ----------------


def test_quit_line_names_the_story_unless_it_is_the_default(
    home: Path, window, deep_sea, tmp_path
) -> None:
    repl, out = _repl(window, "1\nquit\n", new=True)
    repl.run()
    assert "次回「katari play ureg_window_room」で続きから遊べます。" in out.getvalue()
    repl, out = _repl(deep_sea, "quit\n", new=True)
    repl.run()
    assert "次回「katari play」で続きから遊べます。" in out.getvalue()
    repl, out = _repl(window, "1\nquit\n", new=True, lang="en")
    repl.run()
    assert "`katari play ureg_window_room` resumes" in out.getvalue()
    # A story outside the shipped folder is named by its path.
    import shutil

    copy = tmp_path / "my story"
    shutil.copytree(STORIES / "ureg_window_room", copy)
    repl, out = _repl(load(copy), "1\nquit\n", new=True, cols=400)
    repl.run()
    assert f"次回「katari play '{copy}'」で続きから遊べます。" in out.getvalue()


# -- 3. a save folder that cannot be written ---------------------------------


def test_unwritable_home_is_said_once_in_japanese_and_quit_says_nothing_was_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window
) -> None:
    blocker = tmp_path / "home-is-a-file"
    blocker.write_text("x")
    monkeypatch.setenv("KATARI_HOME", str(blocker))
    repl, out = _repl(window, "1\nみわたす\nはしご\nquit\n", new=True)
    repl.run()
    text = out.getvalue()
    assert text.count("セーブを書けません") == 1
    assert f"セーブを書けません（{blocker}：" in text.replace("\n", "")
    assert "Not a directory" not in text and "Errno" not in text
    assert "続きから遊べます" not in text
    assert "セーブを書けなかったので、このゲームの続きは残っていません" in text.replace("\n", "")
    # The warning comes after the turn's narration, and play went on.
    assert text.index("あなた：") < text.index("セーブを書けません")
    assert repl.state.turn == 3


def test_os_errors_are_named_in_the_interface_language() -> None:
    e = PermissionError(errno.EACCES, "Permission denied", "/x/saves")
    assert files.os_reason(e, "ja") == "書き込み（読み込み）の権限がありません"
    assert files.os_reason(e, "en") == "permission denied"
    assert "EIO" in files.os_reason(OSError(errno.EIO, "I/O error"), "ja")


def test_line_history_in_a_broken_folder_never_crashes(tmp_path: Path) -> None:
    where = tmp_path / "history.txt"
    where.mkdir()  # a folder where the history file should be: reading and writing both fail
    h = _quiet_file_history(str(where))
    assert list(h.load_history_strings()) == []
    h.append_string("look")
    assert h.get_strings() == ["look"]


# -- 4. file errors in the interface language --------------------------------


def test_corrupt_autosave_is_reported_in_one_language(home: Path, window) -> None:
    auto = files.slot_path(window.id, "autosave")
    auto.parent.mkdir(parents=True)
    auto.write_bytes(b"{not json")
    repl, out = _repl(window, "quit\n")
    repl.run()
    text = out.getvalue().replace("\n", "")
    assert (
        "セーブ「autosave.json」は読めません（ファイルが壊れているか、セーブではありません）"
        in text
    )
    assert "not JSON" not in text
    repl, out = _repl(window, "saves\nquit\n", lang="en")
    repl.run()
    assert "not JSON: the file is damaged or not a save" in out.getvalue().replace("\n", " ")
    # Each kind of damage has its own Japanese line, and str() stays the English one.
    (aside,) = auto.parent.glob("autosave.broken-*.json")  # moved aside whole, never written over
    with pytest.raises(files.FileError) as e:
        files.read_doc(aside)
    assert e.value.code == "not_json" and str(e.value).startswith("not JSON")
    assert not re.search(r"[A-Za-z]{4}", files.reason(e.value, "ja"))


def test_replay_of_a_missing_file_speaks_the_interface_language(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "nothere.json"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "再生できません：nothere.json を読めません：見つかりません"
    assert main(["replay", "nothere.json", "--lang", "en"]) == 2
    assert capsys.readouterr().err.strip() == "Cannot replay: cannot read nothere.json: not found"
    (tmp_path / "notes.md").write_text("# just notes\n", encoding="utf-8")
    assert main(["replay", "notes.md"]) == 2
    assert "notes.md に ```katari-replay の再現データがありません" in capsys.readouterr().err


# -- 5. piped echo -----------------------------------------------------------


def test_a_runaway_piped_line_is_echoed_short(home: Path, window) -> None:
    long = "あ" * 5000
    repl, out = _repl(window, f"{long}\nquit\n", new=True)
    repl.run()
    echo = next(line for line in out.getvalue().splitlines() if line.startswith("▶ あ"))
    assert echo == "▶ " + "あ" * ECHO_MAX + "…"
    assert "あ" * (ECHO_MAX + 1) not in out.getvalue()
    repl, out = _repl(window, "1\nquit\n", new=True)
    repl.run()
    assert "▶ 1\n" in out.getvalue()  # ordinary lines are echoed whole


# -- 6. the narrator worker and empty clips ----------------------------------


class _FlakyEngine:
    """Gives an empty clip for the first ``empty`` calls, then a short tone."""

    name = "pyttsx3"

    def __init__(self, empty: int) -> None:
        self.empty = empty
        self.calls: list[str] = []

    def synth(self, text, profile):
        from runner.ui.narrator.audio import Clip

        self.calls.append(text)
        if len(self.calls) <= self.empty or not re.search(r"\w", text):
            return Clip(b"", 22050)
        return Clip(b"\x10\x00" * 2205, 22050)


def _speak_with(engine, tmp_path: Path, monkeypatch, text: str) -> tuple[list[dict], list[Path]]:
    from runner.ui.narrator import engines
    from runner.ui.narrator.profiles import Profile
    from runner.ui.narrator.worker import Worker

    monkeypatch.setitem(engines._ENGINES, "pyttsx3", engine)
    status = io.StringIO()
    sink = tmp_path / "sink"
    sink.mkdir()
    w = Worker({"output": f"dir:{sink}", "pace": 50.0}, status)
    profile = Profile(engine="pyttsx3", voice="en-us").as_dict()
    w.speak(
        {
            "op": "speak",
            "seq": 1,
            "text": text,
            "speaker": "narrator",
            "profile": profile,
            "lang": "en",
        }
    )
    return [json.loads(x) for x in status.getvalue().splitlines()], sorted(sink.glob("*.wav"))


def test_worker_retries_a_sentence_that_came_back_without_audio(
    tmp_path: Path, monkeypatch
) -> None:
    from runner.ui.narrator.audio import read_wav

    eng = _FlakyEngine(empty=1)
    msgs, wavs = _speak_with(eng, tmp_path, monkeypatch, "The door opens.")
    assert eng.calls == ["The door opens.", "The door opens."]
    assert msgs[-1] == {"op": "done", "seq": 1, "completed": True}
    assert wavs and all(read_wav(p).frames > 0 for p in wavs)


def test_worker_reports_an_error_not_completed_when_the_retry_is_empty_too(
    tmp_path: Path, monkeypatch
) -> None:
    eng = _FlakyEngine(empty=99)
    msgs, wavs = _speak_with(eng, tmp_path, monkeypatch, "The door opens.")
    assert len(eng.calls) == 2  # one retry, no more
    assert any(m["op"] == "error" and "no audio" in m["message"] for m in msgs)
    assert msgs[-1] == {"op": "done", "seq": 1, "completed": False}
    assert not wavs
