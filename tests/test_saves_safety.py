"""Saves never lose a game (#13 item 5, #20 items 9, 10, 12, #13 item 18's `saves` columns).

Through the real console (PlainIO on a pipe, prompt_toolkit's pipe input) and ``katari play``:
an answer at the resume question keeps the old game under a listed, loadable backup, Ctrl-C
there asks again; a save Katari cannot read or resume is moved aside whole (one line, saying
where), never written over, and play goes on; every damaged save of the table is one line;
transcripts and exports are written only to regular files or new ones."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import piped, tui, unescape

from runner.story import load
from runner.ui import files
from runner.ui.console import Repl
from runner.ui.render import width

ROOT = Path(__file__).resolve().parent.parent
STORIES = ROOT / "stories"
WINDOW = STORIES / "ureg_window_room"
WALK = ROOT / "tests" / "data" / "long_walk"


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture(scope="module")
def window():
    return load(WINDOW)


@pytest.fixture(scope="module")
def deep_sea():
    return load(STORIES / "deep_sea_atelier")


def _repl(story, lines: str = "", cols: int = 100, **kw) -> tuple[Repl, io.StringIO]:
    kw.setdefault("seed", 9)
    return piped(story, lines, cols=cols, **kw)


def _session(story, lines: str, **kw) -> tuple[Repl, str]:
    repl, out = _repl(story, lines, **kw)
    assert repl.run() == 0
    return repl, out.getvalue()


def _play(story, keys: str, **kw) -> tuple[Repl, str]:
    """A whole session through a real PromptSession fed with ``keys``."""
    repl, screen = tui(story, keys, **kw)
    return repl, re.sub(r"\s+", "", unescape(screen))


def _saves(story_id: str) -> Path:
    return files.saves_dir(story_id)


def _aside(story_id: str) -> list[Path]:
    return sorted(_saves(story_id).glob("*.broken-*.json"))


# -- #13.5: no answer at a prompt destroys a save ------------------------------


def test_answering_n_keeps_the_old_game_listed_and_loadable_at_its_turn(home: Path, window) -> None:
    _session(window, "1\nlook around\nはしご\n")
    before = files.read_doc(files.slot_path(window.id, "autosave"))
    repl, out = _repl(window, "n\n")
    repl.begin()
    assert repl.state.turn == 0
    m = re.search(
        r"前のゲームは「(backup-\d{8}-\d{4})」に残しました（load \1 で戻れます）", out.getvalue()
    )
    assert m, out.getvalue()
    name = m.group(1)
    repl.handle("1")  # the new game's first autosave
    repl.handle("saves")
    listing = out.getvalue().split("セーブ一覧：")[-1]
    assert name in listing and "autosave" in listing
    kept = files.read_doc(files.slot_path(window.id, name))
    assert kept["commands"] == before["commands"] and kept["states"] == before["states"]
    repl.handle(f"load {name}")
    assert repl.state.turn == 3 and [e.command for e in repl.tl.commands] == [
        "1",
        "look around",
        "はしご",
    ]
    assert "ロードしました：" + name in out.getvalue()
    repl.finish()


def test_answering_n_in_the_real_prompt_and_ctrl_c_asks_again(home: Path, window) -> None:
    _play(window, "1\rlook around\r\x04", seed=5, new=True)
    # Ctrl-C at the question is not "no": it asks again, and "y" resumes the game.
    repl, screen = _play(window, "\x03y\r\x04")
    assert "y（続ける）かn（新しく始める）で答えてください" in screen  # (then the question again)
    assert repl.state.turn == 2 and "続きから再開しました" in screen
    # "n" keeps it; the new game's saves never touch it.
    repl, screen = _play(window, "n\r2\r\x04")
    assert repl.state.turn == 1
    (backup,) = [p for p in _saves(window.id).glob("backup-*.json")]
    assert f"前のゲームは「{backup.stem}」に残しました" in screen
    assert [c["command"] for c in files.read_doc(backup)["commands"]] == ["1", "look around"]
    # Ctrl-D at the question leaves without touching anything.
    auto = files.slot_path(window.id, "autosave").read_bytes()
    _play(window, "\x04")
    assert files.slot_path(window.id, "autosave").read_bytes() == auto


def test_new_and_restart_keep_every_game_under_a_name_of_its_own(home: Path, window) -> None:
    _session(window, "1\nlook around\n", new=True)
    _, out = _session(window, "2\n", new=True)  # --new: the unfinished game is kept, not replaced
    (backup,) = _saves(window.id).glob("backup-*.json")
    assert backup.stem in out and len(files.read_doc(backup)["commands"]) == 2
    _, out = _session(window, "y\nrestart\n1\nrestart\n2\nlook around\nrestart\n")
    assert "前のゲームは「restart-backup」にセーブしました" in out
    assert "前のゲームは「restart-backup-2」にセーブしました" in out
    assert "前のゲームは「restart-backup-3」にセーブしました" in out
    games = {
        n: [c["command"] for c in files.read_doc(files.slot_path(window.id, n))["commands"]]
        for n in ("restart-backup", "restart-backup-2", "restart-backup-3")
    }
    assert games == {
        "restart-backup": ["2"],
        "restart-backup-2": ["1"],
        "restart-backup-3": ["2", "look around"],
    }


def test_load_keeps_the_game_it_replaces_unless_a_save_already_holds_it(home: Path, window) -> None:
    # A named save, then more moves: loading the named save must not lose those moves (the
    # loaded game takes the autosave slot, where they were).
    _session(window, "1\nsave before\nlook around\nload before\nload before\nsaves\n", new=True)
    kept = files.slot_path(window.id, files.LOAD_BACKUP)
    assert [c["command"] for c in files.read_doc(kept)["commands"]] == ["1", "look around"]
    # Loading again straight away keeps nothing more: the game on screen is the save itself.
    assert not files.slot_path(window.id, files.LOAD_BACKUP + "-2").exists()
    _, out = _session(window, "y\nload load-backup\n")
    assert "「look around」" not in out and "ロードしました：load-backup" in out
    assert [
        c["command"] for c in files.read_doc(files.slot_path(window.id, "autosave"))["commands"]
    ] == ["1", "look around"]


# -- #20.9: a save that cannot be resumed is moved aside, never written over ---


def test_a_save_of_an_edited_story_is_replayed_on_it_and_kept_whole(
    home: Path, tmp_path: Path
) -> None:
    """#15: the node the game stands in is renamed; the save's commands still fit the story, so
    it is replayed on it (not refused), and the old file is kept aside, never written over."""
    copy = tmp_path / "room"
    shutil.copytree(WINDOW, copy)
    original = (copy / "story.yaml").read_text(encoding="utf-8")
    story = load(copy)
    _session(story, "1\nlook around\n", new=True)
    saved = files.slot_path(story.id, "autosave").read_bytes()
    (copy / "story.yaml").write_text(re.sub(r"\broom\b", "big_room", original), encoding="utf-8")
    files._fp_cache.clear()
    repl, out = _session(load(copy), "y\nsaves\n")
    text = out.replace("\n", "")
    assert (
        "2 手をすべて再生しました。1 手目から展開が変わります（物語が変わったため）：room → big_room。"
        in text
    ), text
    assert (
        repl.state.turn == 2 and repl.state.node == "big_room" and repl.state.vars["looked"] is True
    )
    assert not _aside(story.id)
    (kept,) = files.saves_dir(story.id).glob("autosave.kept-*.json")
    assert kept.read_bytes() == saved  # whole, byte for byte


def test_a_save_that_cannot_be_replayed_is_moved_aside_and_loads_again_once_the_story_is_back(
    home: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "room"
    shutil.copytree(WINDOW, copy)
    original = (copy / "story.yaml").read_text(encoding="utf-8")
    story = load(copy)
    _session(story, "inspiration\nlook around\n", new=True)
    saved = files.slot_path(story.id, "autosave").read_bytes()
    # The author renames the node the game stands in and the first action the game took: the
    # save is checksum-valid, but neither its States nor its first command fit the story.
    edited = re.sub(r"\broom\b", "big_room", original).replace("id: inspiration", "id: flash")
    edited = edited.replace("ひらめき, inspiration, 1", "ひらめき, 1")
    (copy / "story.yaml").write_text(edited, encoding="utf-8")
    files._fp_cache.clear()
    edited = load(copy)
    repl, out = _session(edited, "y\n1\nsaves\n")
    (aside,) = _aside(story.id)
    assert aside.read_bytes() == saved  # whole, byte for byte
    text = out.replace("\n", "")
    assert (
        f"セーブ「autosave.json」は読めません（このセーブは読み込めません（物語が変わったか、ファイルが壊れています））。"
        f"消さずに「{aside.stem}」へ移しました。" in text
    )
    assert repl.state.turn == 1  # play went on: a new game, saved in the freed slot
    assert files.read_doc(files.slot_path(story.id, "autosave"))["turn"] == 1
    assert out.split("セーブ一覧：")[-1].count(aside.stem) == 1  # listed
    # The story is put back: the game loads by the name it was given, at its turn.
    (copy / "story.yaml").write_text(original, encoding="utf-8")
    files._fp_cache.clear()
    story = load(copy)
    repl, out = _session(story, f"n\nload {aside.stem}\n")
    assert "ロードしました：" + aside.stem in out
    assert repl.state.turn == 2 and repl.state.vars["looked"] is True


# -- #20.10: damaged saves: one line, kept aside, play goes on --------------------


def _resign(path: Path, mutate) -> None:
    """Edits a save's body and writes it back with a valid checksum (as a bad editor would)."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    mutate(doc["body"])
    doc["sha256"] = files._sha(doc["body"])
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


def _huge_number(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'"seed":\d+', '"seed":' + "7" * 5000, text), encoding="utf-8")


DAMAGE = {
    "100,000-deep JSON": lambda p: p.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8"),
    "a 5,000-digit number": _huge_number,
    "clock: Infinity": lambda p: _resign(
        p, lambda b: [s.update(clock=float("inf")) for s in b["states"]]
    ),
    "turn: x": lambda p: _resign(p, lambda b: b.update(turn="x")),
    "rules.ureg: x": lambda p: _resign(
        p, lambda b: [s["rules"].update(ureg="x") for s in b["states"]]
    ),
    "states: {}": lambda p: _resign(p, lambda b: b.update(states={})),
    "a command that is a number": lambda p: _resign(p, lambda b: b.update(commands=[1, 2])),
    "a 10^19 clock": lambda p: _resign(p, lambda b: [s.update(clock=10**19) for s in b["states"]]),
    "invalid UTF-8": lambda p: p.write_bytes(b'{"format":"katari-save","body":"\xff\xfe"}'),
    "a FIFO": lambda p: (p.unlink(), os.mkfifo(p)),
}


WHY = {  # the reason, in the player's language
    "100,000-deep JSON": "（入れ子が深すぎます（48 段まで）。ファイルが壊れています）",
    "a 5,000-digit number": "（桁の多すぎる数があります（40 桁まで）。ファイルが壊れています）",
    "clock: Infinity": "（数として使えない値（Infinity）があります。ファイルが壊れています）",
    "turn: x": "（turn の値が正しくありません）",
    "rules.ureg: x": "（states[0].rules.ureg の値が正しくありません）",
    "a 10^19 clock": "（states[0].clock の値が正しくありません）",
    "a FIFO": "（読み込めません：通常のファイルではありません",
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_a_damaged_autosave_is_one_line_kept_aside_and_play_goes_on(
    home: Path, window, damage: str
) -> None:
    _session(window, "1\nlook around\n", new=True)
    auto = files.slot_path(window.id, "autosave")
    DAMAGE[damage](auto)
    fifo = stat.S_ISFIFO(auto.stat().st_mode)
    before = None if fifo else auto.read_bytes()
    repl, out = _session(window, "1\nsaves\n")
    (aside,) = _aside(window.id)
    assert stat.S_ISFIFO(aside.stat().st_mode) if fifo else aside.read_bytes() == before
    said = [ln for ln in out.splitlines() if "autosave.json" in ln]
    assert len(said) == 1 and aside.stem in out.replace("\n", ""), out
    assert "Traceback" not in out and "Error" not in out
    assert WHY.get(damage, "セーブ「autosave.json」は読めません（") in out.replace("\n", ""), out
    assert repl.state.turn == 1 and files.read_doc(auto)["turn"] == 1  # a new game, saved
    assert out.split("セーブ一覧：")[-1].count(aside.stem) == 1


def test_a_damaged_deep_sea_save_with_odd_rule_data_is_refused_by_the_engine_probe(
    home: Path, deep_sea
) -> None:
    _session(deep_sea, "1\n", new=True)
    auto = files.slot_path(deep_sea.id, "autosave")
    # Schema-valid (a table), but not what the coc7 rules keep there.
    _resign(
        auto,
        lambda b: [
            s["rules"].update(coc7={"investigators": "x", "combat": 5}) for s in b["states"]
        ],
    )
    before = auto.read_bytes()
    repl, out = _session(deep_sea, "y\n")
    (aside,) = _aside(deep_sea.id)
    assert aside.read_bytes() == before and aside.stem in out.replace("\n", "")
    assert repl.state.turn == 0


def test_damaged_saves_at_start_up_as_a_user_runs_it(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(home),
    }
    run = [sys.executable, "-m", "runner", "play", "ureg_window_room"]
    p = subprocess.run(
        run + ["--new"], input="1\n", capture_output=True, text=True, cwd=ROOT, env=env, timeout=60
    )
    assert p.returncode == 0
    saves = home / "stories" / "ureg_window_room" / "saves"
    (saves / "autosave.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (saves / "quick.json").write_text(
        '{"format":"katari-save","version":1,"body":' + "9" * 5000 + "}", encoding="utf-8"
    )
    p = subprocess.run(
        run,
        input="1\nsaves\nload quick\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert "autosave.broken-" in p.stdout and "quick.json" in p.stdout
    assert "脱出者" in p.stdout  # the new game's opening


# -- --campaign-from and --voices: files from outside, checked as saves are -------------


def _katari(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(home),
    }
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


@pytest.mark.parametrize(
    "state",
    [
        {"rules": {"ureg": {"pcs": [[1]]}}, "ending": "escaped"},  # a list where a name goes
        {"rules": {"ureg": "x"}, "ending": "escaped"},  # not a table
        {"stats": {"pc": 5}, "ending": "escaped"},  # a sheet that is a number
        {"clock": 1e300, "ending": "escaped"},  # a clock beyond 10^18
        {"fired": "x", "ending": "escaped"},
    ],
    ids=["pcs-list", "ureg-text", "sheet-number", "clock-1e300", "fired-text"],
)
def test_campaign_from_a_file_with_odd_types_is_one_line(tmp_path: Path, state: dict) -> None:
    home = tmp_path / "home"
    from runner.engine import new_game

    st, _ = new_game(load(WINDOW), 1)
    d = st.to_dict()
    for k, v in state.items():
        d[k] = {**d[k], **v} if isinstance(v, dict) and isinstance(d.get(k), dict) else v
    block = {
        "format": "katari-replay",
        "version": 1,
        "story": "ureg_window_room",
        "seed": 1,
        "commands": [],
        "state": d,
    }
    md = tmp_path / "prev.md"
    md.write_text("# prev\n\n```katari-replay\n" + json.dumps(block) + "\n```\n", encoding="utf-8")
    for extra in (["--jsonl"], []):
        p = _katari(home, "play", "ureg_glass_greenhouse", "--campaign-from", str(md), *extra)
        assert p.returncode == 1 and p.stdout == "", p.stdout
        assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr
        assert "prev.md を読めません" in p.stderr


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe profiles",
        ("profiles:" + " {a:" * 3000 + " 1" + "}" * 3000).encode(),
        (
            "description:\n  - &a0 [x, x, x, x, x, x, x, x, x, x]\n"
            + "".join(f"  - &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 7))
            + "profiles: {default: {ja: {engine: pyttsx3}}}\n"
        ).encode(),
    ],
    ids=["not-utf8", "deep", "alias-bomb"],
)
def test_voices_files_that_are_not_voices_are_one_line(tmp_path: Path, content: bytes) -> None:
    from runner.ui.narrator import ProfileError, load_voices

    f = tmp_path / "v.yaml"
    f.write_bytes(content)
    with pytest.raises(ProfileError) as e:
        load_voices(f)
    assert "\n" not in str(e.value) and str(f) in str(e.value)
    # As a player meets it: the game goes on in text, with one line saying why.
    p = _katari(
        tmp_path / "home",
        "play",
        "ureg_window_room",
        "--new",
        "--narrate",
        "--voices",
        str(f),
        stdin="1\n",
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and str(f) in p.stderr, p.stderr
    assert "脱出者" in p.stdout


# -- #20.12: writing over what is not a file ---------------------------------------


def _ident(p: Path) -> tuple:
    s = os.lstat(p)
    return (s.st_mode, s.st_ino, s.st_dev, s.st_rdev, s.st_size)


def test_transcripts_go_only_to_regular_or_new_files(home: Path, window, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    target = tmp_path / "notes.txt"
    target.write_text("my notes\n", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    # A device node of our own (the same device as /dev/null): a bug here must never be able
    # to replace the system's /dev/null, so the real one is only compared, never named.
    dev = tmp_path / "null"
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("cannot make a device node here (not root)")
    system_null = _ident(Path("/dev/null"))
    targets = {"fifo": fifo, "link": link, "null": dev}
    before = {k: _ident(p) for k, p in targets.items()}
    fine = (
        tmp_path / "game.md"
    )  # a new file (in a folder that exists: a missing one is refused, #13)
    lines = (
        "".join(f"transcript {p}\n" for p in targets.values())
        + f"1\ntranscript {fine}\nlook around\n"
    )
    repl, out = _session(window, lines, new=True)
    text = out.replace("\n", "")
    for p in targets.values():  # one message each, naming the file and why
        assert f"記録を書けません：{p}：通常のファイルではありません" in text, out
    assert text.count("記録を書けません") == 3
    assert {
        k: _ident(p) for k, p in targets.items()
    } == before  # a FIFO, a link, a device, untouched
    assert _ident(Path("/dev/null")) == system_null
    assert target.read_text(encoding="utf-8") == "my notes\n"
    assert "**▶ look around**" in fine.read_text(encoding="utf-8")
    # --transcript at the start: the same refusal, and the game goes on without it.
    repl, out = _session(window, "1\n", new=True, transcript=link)
    assert "記録を書けません" in out and repl.state.turn == 1 and repl.transcript_path is None
    assert _ident(link) == before["link"] and target.read_text(encoding="utf-8") == "my notes\n"


def test_exports_and_wavs_refuse_what_is_not_a_regular_file(tmp_path: Path) -> None:
    from runner.ui.narrator.audio import Clip, write_wav

    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    for args in (
        ["schema", "-o", str(fifo)],
        ["graph", "ureg_window_room", "--format", "dot", "-o", str(fifo)],
    ):
        p = _katari(tmp_path / "home", *args)
        assert (
            p.returncode == 1 and "not a regular file" in p.stderr and "Traceback" not in p.stderr
        )
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    with pytest.raises(files.NotRegularFile):
        write_wav(fifo, Clip(b"\0\0" * 10, 8000))
    ok = tmp_path / "ok.wav"
    write_wav(ok, Clip(b"\0\0" * 10, 8000))
    assert ok.read_bytes()[:4] == b"RIFF"


# -- #13.18 (part): the save list fits the terminal ----------------------------------


@pytest.mark.parametrize("cols", [80, 40])
def test_the_save_list_fits_80_and_40_columns(home: Path, tmp_path: Path, cols: int) -> None:
    copy = tmp_path / "walk"
    shutil.copytree(WALK, copy)
    y = (copy / "story.yaml").read_text(encoding="utf-8")
    (copy / "story.yaml").write_text(
        y.replace("title: 階段", "title: " + "とても長い名前のついた階段の踊り場" * 3),
        encoding="utf-8",
    )
    story = load(copy)
    long_name = "x" * 40
    repl, out = _session(
        story,
        f"walk\nsave {long_name}\nsave 長い長い長い長い長い名前のセーブ\nsaves\n",
        cols=cols,
        new=True,
    )
    listing = []
    for ln in out.split("セーブ一覧：")[-1].splitlines()[1:]:
        if ln.startswith(("▶", "中断")):
            break  # (the list ends at the next prompt, or the goodbye)
        listing.append(ln)
    assert listing, out
    for ln in listing:
        assert width(ln) <= cols, (cols, ln)
        # Every row is in the list's columns (no wrapped tail at column 0), but a name as wide
        # as the terminal, which is shown whole on a row of its own.
        assert ln.startswith("  ") or ln == long_name, (cols, ln)
    assert any(ln.strip() == long_name or ln.strip().startswith(long_name + " ") for ln in listing)
    assert any("長い長い長い長い長い名前のセーブ" in ln for ln in listing)
