"""The players' screen of a GM's session (issue #13 item 8): ``katari play STORY --gm
--player-view FILE`` writes what a player may see and ``katari watch FILE`` shows it, so the
keeper's notes stay with the keeper.

Guard: over random GM games of every story (with overrides, slips, undo), every turn the
players' view carries is exactly what the same command shows a player without --gm, and no
keeper note, override, GM panel or hidden value ever reaches the file."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import state_event, step
from runner.stories import shipped
from runner.story import load
from runner.ui.console import PlainIO, Repl
from runner.ui.watch import follow, player_events

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
STORIES = {p.name if p.is_dir() else p.stem: load(p) for p in shipped()}


def _keeper_texts(story) -> list[str]:
    out = []
    for n in story.nodes.values():
        out += [x.text for x in n.keeper] + [x.text for x in n.narration if x.keeper]
    return [x for x in out if len(x) >= 8]


def test_the_players_screen_shows_the_game_and_never_the_keepers_notes(tmp_path: Path) -> None:
    home, view = tmp_path / "home", tmp_path / "view.jsonl"
    lines = [
        "1",
        "スマホ",
        "目を覚ます",
        "1",
        "1",
        "変数 天井の照明 いいえ",
        "時計 +30",
        "ダメージ 2",
        "zzz",
        "強制 成功",
        "部屋全体を調べる",
        "undo",
        "gm",
        "status",
    ]
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(DEEP),
            "--gm",
            "--seed",
            "1",
            "--new",
            "--player-view",
            str(view),
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**__import__("os").environ, "KATARI_HOME": str(home)},
    )
    assert p.returncode == 0, p.stderr
    assert "プレイヤー用の画面を" in p.stdout and "katari watch" in p.stdout
    w = subprocess.run(
        [sys.executable, "-m", "runner", "watch", str(view), "--once"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert w.returncode == 0, w.stderr
    out = w.stdout
    assert out.startswith("━━ 深海のアトリエ（プレイヤーの画面）━━")
    assert (
        "かちり。天井の照明が灯り" in out and "  10. 脱出を諦め、この部屋で暮らすことにする" in out
    )
    assert "▶ 部屋全体を調べる" in out and "（ゲームマスターが 1 手戻しました）" in out
    assert (
        "黒田 剛に 2 ダメージ（耐久力 12 → 10）。" in out and "HP 10/12" in out
    )  # an override's effect
    assert out.rstrip().endswith("━━ ゲームマスターがセッションを終えました ━━")
    # The keeper's side stays with the keeper.
    for secret in (
        "［GM",
        "GM 上書き",
        "真相",
        "DA-0",
        "蠢く触腕",
        "耐久力 30",
        "予定",
        "hunger",
        "zzz",
        "!set",
        "!clock",
        "時計を30分",
        "変化",
        "条件待ち",
    ):
        assert secret not in out, secret
    for note in _keeper_texts(load(DEEP)):
        assert note[:20] not in out
    # The GM's own screen has them all.
    assert "［GM］" in p.stdout and "［GM 上書き］" in p.stdout


def test_watch_follows_a_file_as_it_grows_and_waits_for_it(tmp_path: Path) -> None:
    view = tmp_path / "v.jsonl"
    out = io.StringIO()
    assert follow(view, out, once=True) == 1 and "まだありません" in out.getvalue()
    view.write_text(
        json.dumps({"type": "hello", "id": "x", "title": "T", "lang": "en"})
        + "\n"
        + json.dumps({"type": "turn", "command": "look"})
        + "\n"
        + json.dumps({"type": "narration", "text": "A room.", "speaker": "narrator"})
        + "\n"
        + json.dumps({"type": "narration", "text": "SECRET", "keeper": True})
        + "\n"
        + '{"type": "narration", "te',
        encoding="utf-8",
    )  # a line still being written
    out = io.StringIO()
    follow(view, out, once=True)
    assert out.getvalue() == "━━ T (the players' screen) ━━\n> look\nA room.\n"


def _gm_game(story, seed: int, view: Path) -> tuple[Repl, list[tuple]]:
    """A random GM game with a players' view; returns the Repl and, for every command the
    console ran through step(), (state before, command, GM events)."""
    rnd = random.Random(seed)
    repl = Repl(
        story,
        io=PlainIO(io.StringIO(), io.StringIO(), cols=100),
        new=True,
        gm=True,
        seed=seed,
        clock=lambda: 0.0,
        player_view=view,
    )
    ran: list[tuple] = []
    real_step_asking = repl.step_asking

    def recording(text: str):
        before = repl.state
        got = real_step_asking(text)
        if got is not None:
            ran.append((before, text, got[1]))
        return got

    repl.step_asking = recording  # type: ignore[method-assign]
    repl.autosave = lambda: None  # type: ignore[method-assign]
    repl.begin()
    gm_lines = [
        "時計 +30",
        "変数 ほげ 1",
        "ダメージ 1",
        "強制 成功",
        "強制 失敗",
        "gm",
        "status",
        "undo",
        "zzz",
        "look",
        "redo",
        "与える 鍵",
    ]
    for _ in range(50):
        choices = [c for c in repl.choices() if c.n]
        line = (
            rnd.choice(gm_lines)
            if rnd.random() < 0.25 or not choices
            else str(rnd.choice(choices).n)
        )
        if not repl.handle(line):
            break
    repl.finish()
    return repl, ran


@pytest.mark.parametrize("name", sorted(STORIES))
def test_the_players_view_of_a_gm_game_is_what_a_player_would_see(
    name: str, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    story = STORIES[name]
    secrets = _keeper_texts(story)
    for seed in range(8):
        view = tmp_path / f"view-{seed}.jsonl"
        repl, ran = _gm_game(story, seed, view)
        raw = view.read_text(encoding="utf-8")
        evs = [json.loads(x) for x in raw.splitlines()]
        assert evs[0]["type"] == "hello" and evs[-1] == {"type": "bye"}
        for ev in evs:
            assert ev["type"] in (
                "hello",
                "turn",
                "note",
                "state",
                "bye",
                "narration",
                "roll",
                "ending",
                "prompt",
            ), ev
            assert not ev.get("keeper"), ev
            if ev["type"] == "state":
                assert "gm" not in ev
        for note in secrets:
            assert note not in raw, f"{name}: a keeper note reached the players: {note[:40]}"
        # Every story command's turn: exactly what a player without --gm sees of it.
        for before, text, events in ran:
            if text.startswith("!"):
                continue
            _, plain_events = step(story, before, text, gm=False)
            want = [
                e for e in plain_events if e["type"] in ("narration", "roll", "ending", "prompt")
            ]
            assert player_events(events) == want, f"{name} seed {seed}: {text}"
        # The last state the players saw is the game's, as a player sees it.
        states = [e for e in evs if e["type"] == "state"]
        assert states[-1] == state_event(story, repl.state, gm=False)
