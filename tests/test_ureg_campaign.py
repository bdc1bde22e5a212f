"""UREG campaign (キャンペーン): the window room's escaped PC goes on into the glass greenhouse.

Through the rule command (@carry in step()), the real console in pipe mode, and
``python -m runner play STORY --campaign-from PREVIOUS`` as a user runs it.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.cli import main
from runner.commands.play import campaign_command
from runner.engine import new_game, step
from runner.rules import ureg
from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
WINDOW = ROOT / "stories" / "ureg_window_room"
GREENHOUSE = ROOT / "stories" / "ureg_glass_greenhouse"
ESCAPE = ["inspiration", "look around", "take ladder", "lean ladder", "climb"]


@pytest.fixture(scope="module")
def window():
    return load(WINDOW)


@pytest.fixture(scope="module")
def greenhouse():
    return load(GREENHOUSE)


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KATARI_LANG", raising=False)
    return tmp_path / "home"


def _errors(events: list[dict]) -> list[str]:
    return [e["message"] for e in events if e["type"] == "error"]


def _escaped_window(window, *extra: str, gm: bool = False):
    st, _ = new_game(window, 1, gm=gm)
    for c in [*extra, *ESCAPE]:
        st, ev = step(window, st, c, gm=gm)
        assert not _errors(ev), (c, ev)
    assert st.ending == "escaped"
    return st


# -- the rule command ------------------------------------------------------------


def test_carry_sets_the_pc_with_no_items_and_a_fresh_hint(window, greenhouse) -> None:
    prev = _escaped_window(window, "!give box", gm=True)  # ends holding an item
    assert prev.inventory.get("box") and prev.rules["ureg"]["hint_used"] is False
    cmd = ureg.carry_command(ureg.campaign_carry(prev))
    assert (
        cmd
        == '@carry {"pc":{"name":"あなた","archetype":"Inspiration","good":"閃き","bad":"平凡"}}'
    )
    start, _ = new_game(greenhouse, 5)
    assert start.node == "choose"
    st, ev = step(greenhouse, start, cmd)
    assert not _errors(ev)
    assert st.node == "hall"  # the selection skipped for the carried PC
    assert st.inventory == {}  # items stay in the last scenario
    assert st.stats["pc"] == {
        "name": "あなた",
        "archetype": "Inspiration",
        "good": "閃き",
        "bad": "平凡",
        "life": 1,
        "status": "in",
    }
    assert st.rules["ureg"]["pcs"] == ["pc"] and st.rules["ureg"]["hint_used"] is False
    assert any(e.get("id") == "ureg.carry" and "〈○閃き〉〈×平凡〉" in e["text"] for e in ev)
    view = next(e for e in ev if e["type"] == "state")["ureg"]
    assert [c["abilities"] for c in view["characters"]] == [["○閃き", "×平凡"]]
    # The hint is there again (UA-19), once.
    h, ev = step(greenhouse, st, "@hint")
    assert not _errors(ev) and h.rules["ureg"]["hint_used"] is True
    # The choice is locked: neither the rule command nor the hook may change it.
    for c in ("@choose Strength", "@choose Littleness @pc"):
        same, ev = step(greenhouse, st, c)
        assert same is st and "cannot be changed" in _errors(ev)[0]


def test_carry_is_refused_after_the_start_and_outside_a_campaign(
    window, greenhouse, tmp_path: Path
) -> None:
    cmd = ureg.carry_command({"pc": {"name": "あなた", "good": "身軽", "bad": "非力"}})
    start, _ = new_game(greenhouse, 5)
    carried, _ = step(greenhouse, start, cmd)
    again, ev = step(greenhouse, carried, cmd)
    assert again is carried and _errors(ev) == [
        "@carry: 引き継ぎはシナリオの始めにだけできます（もう始まっています）"
    ]
    moved, _ = step(greenhouse, start, "inspiration")
    same, ev = step(greenhouse, moved, cmd)
    assert same is moved and len(_errors(ev)) == 1 and "始め" in _errors(ev)[0]
    for bad in ("@carry {nope", '@carry {"pc":{"good":"空を飛ぶ","bad":"平凡"}}', "@carry []"):
        same, ev = step(greenhouse, start, bad)
        assert same is start and _errors(ev)[0].startswith("@carry")
    # The same room without campaign: true refuses it in one line.
    plain = tmp_path / "plain_room.yaml"
    plain.write_text(
        (WINDOW / "story.yaml").read_text(encoding="utf-8").replace("    campaign: true\n", ""),
        encoding="utf-8",
    )
    ps = load(plain)
    st, _ = new_game(ps, 1)
    same, ev = step(ps, st, cmd)
    assert same is st and len(_errors(ev)) == 1 and "campaign: true" in _errors(ev)[0]


def test_a_carried_name_with_spaces_and_a_party_of_two(greenhouse, window) -> None:
    carry = {
        "pc": {"name": "A B", "good": "身軽", "bad": "非力"},
        "pc2": {"name": "相棒", "good": "小柄", "bad": "低身長"},
    }
    st, _ = new_game(greenhouse, 2)
    st, ev = step(greenhouse, st, ureg.carry_command(carry))
    assert not _errors(ev)
    assert st.stats["pc"]["name"] == "A B" and st.rules["ureg"]["pcs"] == ["pc", "pc2"]
    # The window room takes a carried PC straight to the room, its ability labels set.
    w, _ = new_game(window, 1)
    w, ev = step(window, w, ureg.carry_command({"pc": carry["pc"]}))
    assert w.node == "room" and w.vars["ability_good"] == "身軽" and w.vars["ability_bad"] == "非力"


def test_normal_play_is_unchanged_by_campaign_true(greenhouse) -> None:
    # A party of two still picks both PCs in one (campaign) scenario; the first stays locked.
    st, _ = new_game(greenhouse, 1)
    for c in ("duo", "a_strength", "b_littleness"):
        st, ev = step(greenhouse, st, c)
        assert not _errors(ev)
    assert st.node == "hall" and st.rules["ureg"]["pcs"] == ["pc", "pc2"]
    same, ev = step(greenhouse, st, "@choose Inspiration")
    assert same is st and _errors(ev)


# -- the console -----------------------------------------------------------------


def _console(story, lines: list[str], **kw) -> tuple[Repl, str]:
    out = io.StringIO()
    repl = Repl(
        story,
        io=PlainIO(io.StringIO("".join(f"{x}\n" for x in lines)), out, cols=100),
        clock=lambda: 0.0,
        **kw,
    )
    assert repl.run() == 0
    return repl, out.getvalue()


def test_console_campaign_from_the_window_room(
    home: Path, window, greenhouse, tmp_path: Path
) -> None:
    _, text = _console(window, ESCAPE, seed=1, new=True)
    assert "脱出成功" in text
    cmd, problem = campaign_command(greenhouse, "ureg_window_room")
    assert problem == "" and cmd.startswith("@carry ")
    md = tmp_path / "greenhouse.md"
    repl, text = _console(
        greenhouse,
        ["/inventory", "/undo", "閃き", "@choose Strength", "電話台"],
        seed=4,
        transcript=md,
        first_command=cmd,
    )
    assert "閉鎖空間へ向かう前に" not in text  # no selection shown: the PC was carried
    assert "前のシナリオから脱出者を引き継ぎます" in text and "あなた：〈○閃き〉〈×平凡〉" in text
    assert "何も持っていません" in text
    assert "これ以上戻せません" in text  # undo never takes the carry back
    assert "鍵がないなら" in text  # the special hint, fresh in this scenario
    assert "「@choose」は Katari が自分で送るコマンドで、入力はできません。" in text  # #13 item 11
    st = repl.state
    assert st.stats["pc"]["good"] == "閃き" and st.rules["ureg"]["hint_used"] is True
    assert [e.command for e in repl.tl.commands][0] == cmd
    # The autosave keeps the carry: rebuilt from its log it is the same game.
    body = files.read_doc(files.slot_path(greenhouse.id, "autosave"))
    assert body["commands"][0]["command"] == cmd and body["state"] == st.to_dict()
    tl = files.rebuild(
        greenhouse, body["seed"], [files.Entry.from_json(e) for e in body["commands"]]
    )
    assert tl.state.to_dict() == st.to_dict()
    # So does the transcript: `katari replay` runs it to the same state.
    assert "@carry" in md.read_text(encoding="utf-8")
    assert main(["replay", str(md)]) == 0
    # Resuming the scenario later (no --campaign-from) takes the same carried game up again.
    again, _ = _console(greenhouse, ["y", "/status"], seed=9)
    assert again.state.to_dict() == st.to_dict()


# -- the command line ------------------------------------------------------------


def _katari(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "KATARI_HOME": str(home)}
    env.pop("KATARI_LANG", None)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )


def test_cli_campaign_plays_replays_and_jsonl(tmp_path: Path) -> None:
    home = tmp_path / "home"
    p = _katari(
        home, "play", "ureg_window_room", "--new", "--seed", "1", stdin="\n".join(ESCAPE) + "\n"
    )
    assert p.returncode == 0 and "脱出成功" in p.stdout
    md = tmp_path / "g.md"
    p = _katari(
        home,
        "play",
        "ureg_glass_greenhouse",
        "--campaign-from",
        "ureg_window_room",
        "--seed",
        "3",
        "--transcript",
        str(md),
        stdin="閃き\n/inventory\n",
    )
    assert p.returncode == 0, p.stderr
    assert "前のシナリオから脱出者を引き継ぎます" in p.stdout and "鍵がないなら" in p.stdout
    assert "閉鎖空間へ向かう前に" not in p.stdout and "何も持っていません" in p.stdout
    r = _katari(home, "replay", str(md))
    assert r.returncode == 0 and "OK" in r.stdout
    # The previous game may also be named by its save file or a transcript of it.
    save = home / "stories" / "ureg_window_room" / "saves" / "autosave.json"
    j = _katari(
        home,
        "play",
        "ureg_glass_greenhouse",
        "--campaign-from",
        str(save),
        "--jsonl",
        stdin="閃き\n",
    )
    assert j.returncode == 0, j.stderr
    lines = [json.loads(x) for x in j.stdout.splitlines()]
    states = [e for e in lines if e["type"] == "state"]
    assert [s["node"] for s in states] == ["choose", "hall", "hall"]  # start, carry, hint
    assert states[1]["inventory"] == {} and states[1]["ureg"]["hint_used"] is False
    assert states[1]["ureg"]["characters"][0]["abilities"] == ["○閃き", "×平凡"]
    assert states[2]["ureg"]["hint_used"] is True


def test_cli_campaign_refusals_are_one_line(tmp_path: Path) -> None:
    home = tmp_path / "home"

    def refused(*args: str, lang: str = "ja") -> str:
        extra = ["--lang", "en"] if lang == "en" else []
        p = _katari(home, "play", *args, *extra)
        assert p.returncode == 1 and p.stdout == "", (args, p.stdout, p.stderr)
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr
        return p.stderr

    gh = ("ureg_glass_greenhouse", "--campaign-from")
    assert "セーブがありません" in refused(*gh, "ureg_window_room")
    assert "no save" in refused(*gh, "ureg_window_room", lang="en")
    assert "not a story, a save or a transcript" in refused(*gh, "no_such_story", lang="en")
    assert "coc7" in refused(*gh, "deep_sea_atelier")  # different rule system
    assert "not a campaign scenario" in refused(
        "dungeon_2f", "--campaign-from", "ureg_window_room", lang="en"
    )
    plain = tmp_path / "plain_room.yaml"
    plain.write_text(
        (WINDOW / "story.yaml").read_text(encoding="utf-8").replace("    campaign: true\n", ""),
        encoding="utf-8",
    )
    assert "campaign: true" in refused(str(plain), "--campaign-from", "ureg_window_room")
    # Not finished yet.
    _katari(home, "play", "ureg_window_room", "--new", stdin="inspiration\n")
    assert "まだ終わっていません" in refused(*gh, "ureg_window_room")
    assert "has not ended" in refused(*gh, "ureg_window_room", lang="en")
    # Ended with nobody escaped (gave up).
    md = tmp_path / "gave_up.md"
    _katari(
        home,
        "play",
        "ureg_window_room",
        "--new",
        "--transcript",
        str(md),
        stdin="inspiration\ngive up\n",
    )
    assert "誰も脱出していません" in refused(*gh, "ureg_window_room")
    assert "nobody escaped" in refused(*gh, str(md), lang="en")  # by its transcript too
    junk = tmp_path / "junk.json"
    junk.write_text("{}", encoding="utf-8")
    assert "cannot read" in refused(*gh, str(junk), lang="en")


def test_a_finished_game_set_aside_by_a_new_one_still_carries_over(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _katari(
        home, "play", "ureg_window_room", "--new", "--seed", "1", stdin="\n".join(ESCAPE) + "\n"
    )
    # A new game of the window room takes the autosave slot; the finished one goes to a backup.
    _katari(home, "play", "ureg_window_room", "--new", stdin="inspiration\n")
    p = _katari(
        home,
        "play",
        "ureg_glass_greenhouse",
        "--campaign-from",
        "ureg_window_room",
        "--seed",
        "3",
        stdin="/inventory\n",
    )
    assert p.returncode == 0, p.stderr
    assert "前のシナリオから脱出者を引き継ぎます" in p.stdout


def test_restart_keeps_the_carried_pc(home: Path, window, greenhouse) -> None:
    _console(window, ESCAPE, seed=1, new=True)
    cmd, _ = campaign_command(greenhouse, "ureg_window_room")
    _console(greenhouse, ["電話台"], seed=4, first_command=cmd)
    # Resumed later without --campaign-from, a restart still starts with the carried PC.
    repl, text = _console(greenhouse, ["y", "/restart", "/inventory"], seed=6)
    assert text.count("前のシナリオから脱出者を引き継ぎます") == 1  # the restart's carry
    assert repl.state.node == "hall" and [e.command for e in repl.tl.commands] == [cmd]
    assert repl.state.stats["pc"]["good"] == "閃き" and repl.state.inventory == {}
