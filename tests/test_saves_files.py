"""Save files: checksummed JSON written atomically; damaged or foreign files are reported in
one line and never touched; the other saves still load."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from conftest import piped

from runner.engine import SaveError
from runner.story import load
from runner.ui import files
from runner.ui.console import Repl

ROOT = Path(__file__).resolve().parent.parent
STORY = ROOT / "stories" / "ureg_window_room"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def story():
    return load(STORY)


def _repl(story, lines: str = "", **kw) -> tuple[Repl, io.StringIO]:
    kw.setdefault("seed", 9)
    return piped(story, lines, **kw)


def _game(story, *commands: str) -> files.Timeline:
    return files.rebuild(story, 9, [files.Entry(c) for c in commands])


def test_save_document_round_trip(home: Path, story) -> None:
    tl = _game(story, "1", "look around", "はしご")
    tl.undo()
    path = files.slot_path(story.id, "one")
    doc = files.write_save(path, story, tl)
    assert doc["format"] == "katari-save" and doc["version"] == 1 and len(doc["sha256"]) == 64
    body = doc["body"]
    for key in (
        "story",
        "fingerprint",
        "seed",
        "commands",
        "redo",
        "state",
        "states",
        "saved_at",
        "place",
        "time",
        "turn",
    ):
        assert key in body
    assert body["place"] == "六メートル四方の部屋" and body["turn"] == 2
    assert [c["command"] for c in body["redo"]] == ["はしご"]
    back, changed = files.load_save(path, story)
    assert not changed
    assert back.pos == 2 and back.state.to_dict() == tl.state.to_dict()
    assert back.redo() == 1 and back.state.to_dict() == tl.states[3].to_dict()
    assert not list(path.parent.glob(".*.tmp"))  # no temp file left behind


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # cut short (a crash without atomic writes)
        lambda b: b.replace(b'"turn":2', b'"turn":3'),  # edited by hand: checksum fails
        lambda b: b"\x00\xff garbage",  # not even text
        lambda b: b'{"hello": "world"}',  # someone else's JSON
        lambda b: b"",  # empty
    ],
)
def test_damaged_save_is_reported_in_one_line_and_left_untouched(home: Path, story, damage) -> None:
    tl = _game(story, "1", "look around")
    files.write_save(files.slot_path(story.id, "good"), story, tl)
    bad = files.slot_path(story.id, "bad")
    files.write_save(bad, story, tl)
    bad.write_bytes(damage(bad.read_bytes()))
    before = bad.read_bytes()
    infos = {i.slot: i for i in files.list_saves(story.id)}
    assert infos["bad"].error and "\n" not in infos["bad"].error
    assert infos["good"].error is None
    repl, out = _repl(story, "saves\nload bad\nload good\n", new=True)
    repl.run()
    text = out.getvalue()
    bad_lines = [ln for ln in text.splitlines() if "bad.json" in ln]
    assert len(bad_lines) == 2  # once in the list, once for the load; one line each
    assert "ロードしました：good" in text
    assert repl.state.turn == 2
    assert bad.read_bytes() == before


def test_a_save_of_another_story_is_refused(home: Path, story, tmp_path: Path) -> None:
    tl = _game(story, "1")
    path = files.slot_path(story.id, "x")
    doc = files.write_save(path, story, tl)
    doc["body"]["story"] = "other_story"
    import hashlib

    doc["sha256"] = hashlib.sha256(files._canonical(doc["body"])).hexdigest()
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(SaveError, match="other_story"):
        files.load_save(path, story)
    assert files.save_info(path, story.id).error


def test_damaged_autosave_is_moved_aside_whole_and_the_session_saves_in_its_place(
    home: Path, story
) -> None:
    auto = files.slot_path(story.id, "autosave")
    auto.parent.mkdir(parents=True)
    auto.write_bytes(b"{not json")
    repl, out = _repl(story, "1\nsaves\n")
    repl.run()
    aside = list(auto.parent.glob("autosave.broken-*.json"))
    assert len(aside) == 1 and aside[0].read_bytes() == b"{not json"  # kept, byte for byte
    text = out.getvalue()
    assert text.count(aside[0].stem) == 2  # where it went (one message), and in the list
    assert (
        f"セーブ「autosave.json」は読めません（ファイルが壊れているか、セーブではありません）。"
        f"消さずに「{aside[0].stem}」へ移しました。" in text.replace("\n", "")
    )
    assert files.read_doc(auto)["turn"] == 1
    # The next session offers the good autosave and leaves the damaged one alone.
    repl, out = _repl(story, "y\n")
    repl.run()
    assert repl.state.turn == 1 and "続きから再開しました" in out.getvalue()
    assert aside[0].read_bytes() == b"{not json"


def test_slot_names_cannot_escape_the_folder(home: Path, story) -> None:
    for bad in ["../x", "a/b", "", ".hidden", "x" * 41, "a b"]:
        assert not files.valid_slot(bad)
        with pytest.raises(SaveError):
            files.slot_path(story.id, bad)
    assert files.valid_slot("セーブ1")
    cmds = "save ../../etc\nsave " + "長" * 300 + "\nsave before door\nsave セーブ1\n"
    repl, out = _repl(story, cmds, new=True)
    repl.run()
    said = out.getvalue().replace("\n", "")  # (long lines wrap)
    # Each refusal says what a save name may be (the characters and the length), once each;
    # a name with spaces is refused whole (it used to save as its first word).
    assert said.count("セーブ名は文字・数字・_・- の40字まで") == 3
    assert "「before door」" in said and not files.slot_path(story.id, "before").exists()
    assert "「../../etc」" in said and "「" + "長" * 40 + "…」" in said
    assert files.slot_path(story.id, "セーブ1").exists()


def test_story_change_is_noticed(home: Path, story, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "story.yaml").write_text(
        (STORY / "story.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    s1 = load(copy)
    tl = files.rebuild(s1, 9, [files.Entry("1")])
    path = files.slot_path(s1.id, "c")
    files.write_save(path, s1, tl)
    (copy / "story.yaml").write_text(
        (copy / "story.yaml").read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8"
    )
    files._fp_cache.clear()
    _, changed = files.load_save(path, load(copy))
    assert changed


def test_atomic_write_keeps_the_old_file_when_the_write_fails(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "f.json"
    files.atomic_write(p, b"old")

    class Boom(Exception):
        pass

    def fail(*a, **k):
        raise Boom

    monkeypatch.setattr(files.os, "replace", fail)  # a full disk or a dying process at the rename
    with pytest.raises(Boom):
        files.atomic_write(p, b"new")
    monkeypatch.undo()
    assert p.read_bytes() == b"old"
    assert not list(tmp_path.glob(".*.tmp"))


def test_stale_temp_files_of_dead_processes_are_cleaned(tmp_path: Path) -> None:
    import subprocess
    import sys

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    stale = tmp_path / f".autosave.json.{dead}.tmp"
    stale.write_bytes(b"half")
    live = tmp_path / f".autosave.json.{os.getppid()}.tmp"
    live.write_bytes(b"busy")
    files.clean_tmp(tmp_path)
    assert not stale.exists() and live.exists()


def test_the_journal_holds_each_command_and_a_stale_one_is_never_applied_twice(home: Path) -> None:
    """A kill between a fold's rename and the journal's removal leaves a journal whose lines
    are already in the save: it names the save it extends, so it is ignored, not replayed."""
    walk = load(ROOT / "tests" / "data" / "long_walk")
    repl, _ = _repl(walk, "", new=True)
    repl.begin()
    auto = files.slot_path(walk.id, "autosave")
    journal = files.journal_path(auto)
    for _ in range(5):
        repl.handle("walk")
    repl.handle("undo")
    repl.handle("walk")
    repl.handle("walk")
    assert (
        journal.exists() and len(journal.read_bytes().splitlines()) == 1 + 7
    )  # header + a line a save
    assert [c["command"] for c in files.read_doc(auto)["commands"]] == ["walk"] * 6
    stale = journal.read_bytes()
    repl.finish()  # a clean exit folds the journal into the save
    assert not journal.exists()
    body = files.read_doc(auto)
    assert len(body["commands"]) == 6 and body["state"]["vars"]["steps"] == 6 and body["redo"] == []
    journal.write_bytes(stale)  # as if killed before the removal
    assert files.read_doc(auto) == body
    # A journal line cut short (the command in flight) is dropped; the rest holds.
    journal.unlink()
    repl, _ = _repl(walk, "y\n")
    repl.begin()
    repl.handle("walk")  # (the first save of a session writes the whole game)
    repl.handle("walk")
    repl.handle("walk")
    data = journal.read_bytes()
    journal.write_bytes(data[:-40])
    assert len(files.read_doc(auto)["commands"]) == 8
    repl.finish()
    assert len(files.read_doc(auto)["commands"]) == 9


def test_a_full_disk_keeps_the_last_good_save_and_the_game_goes_on(home: Path, monkeypatch) -> None:
    """ENOSPC in the middle of a journal line, then on every write: the save on disk keeps
    every command before the failure (a torn line is dropped), the player is told once, and
    once there is room again the whole game is written."""
    import errno

    walk = load(ROOT / "tests" / "data" / "long_walk")
    auto = files.slot_path(walk.id, "autosave")
    repl, out = _repl(walk, "", new=True)
    repl.begin()
    for _ in range(4):
        repl.handle("walk")
    real_write = os.write

    def full(fd, data):
        real_write(fd, bytes(data[: len(data) // 3]))  # a third of the line, then no room
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "write", full)
    monkeypatch.setattr(
        files,
        "_write_tmp",
        lambda *a, **k: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device")),
    )
    for _ in range(3):
        repl.handle("walk")
    assert (
        out.getvalue().count("セーブを書けません") == 1
        and "ディスクに空きがありません" in out.getvalue()
    )
    assert len(files.read_doc(auto)["commands"]) == 4 and repl.state.vars["steps"] == 7
    monkeypatch.undo()
    repl.handle("walk")
    assert len(files.read_doc(auto)["commands"]) == 8
    repl.finish()
    assert len(files.read_doc(auto)["commands"]) == 8 and not files.journal_path(auto).exists()
