"""The game master's screen in a real terminal (issue #13 item 8): at 80×24 and at 120×40,
``katari play deep_sea_atelier --gm --dice manual`` in tmux shows, after every command, the
end of what happened (narration, or the override's answer), every action and the prompt;
the GM panel folds to one line (F2 toggles it) and never pushes the game off the screen.

Needs tmux (``.ci/install dev`` installs it); skipped only where tmux is absent."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.engine import NeedDice, new_game, step
from runner.story import load
from runner.ui.render import Renderer, plain

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (.ci/install dev installs it)"
)

# Story commands, overrides and the console's own words, as a keeper at a table types them.
SCRIPT = [
    "1",
    "スマホ",
    "目を覚ます",
    "1",
    "1",
    "時計 +30",
    "部屋全体を調べる",
    "変数 天井の照明 いいえ",
    "undo",
    "ダメージ 2",
    "絨毯",
    "強制 成功",
    "調べる",
    "部屋の中央に戻る",
    "窓へ",
    "状態",
]


class Screen:
    """A tmux session of one size on its own server; ``text()`` is what is on the screen."""

    def __init__(self, cols: int, rows: int, home: Path) -> None:
        self.sock = f"katari-gm-{os.getpid()}-{cols}x{rows}"
        env = {**os.environ, "KATARI_HOME": str(home), "KATARI_LANG": "ja"}
        env.pop("NO_COLOR", None)
        cmd = f"{sys.executable} -m runner play {DEEP} --gm --dice manual --new --seed 1; sleep 60"
        self._tmux("new-session", "-d", "-s", "k", "-x", str(cols), "-y", str(rows), cmd, env=env)
        self.cols, self.rows = cols, rows

    def _tmux(self, *args: str, env: dict | None = None) -> str:
        return subprocess.run(
            [TMUX, "-L", self.sock, *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=30,
        ).stdout

    def text(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "k")

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "k", *keys)

    def wait(self, ok, timeout: float = 30.0) -> str:
        """Polls the screen until ``ok(screen)`` holds (then a moment more, for it to settle)."""
        end = time.monotonic() + timeout
        screen = self.text()
        while time.monotonic() < end:
            screen = self.text()
            if ok(screen):
                time.sleep(0.3)
                again = self.text()
                if ok(again):
                    return again
            time.sleep(0.2)
        return screen

    def close(self) -> None:
        path = self._tmux("display-message", "-p", "-t", "k", "#{socket_path}").strip()
        subprocess.run([TMUX, "-L", self.sock, "kill-server"], capture_output=True, timeout=30)
        if path:
            Path(path).unlink(missing_ok=True)  # tmux leaves its socket file behind


def _prompt_line(screen: str) -> str:
    """The input line: the last line that starts with ▶ or 🎲."""
    lines = [x for x in screen.splitlines() if x.startswith(("▶", "🎲"))]
    return lines[-1] if lines else ""


def _expected(story, cols: int) -> list[tuple[str, str | None, list[str], list[int]]]:
    """For each command of SCRIPT: (command, the last line it shows, the action lines, the dice
    typed), from the engine itself, with the table rolling 1 for every die the console asks."""
    r = Renderer(story, lang="ja", gm=True, cols=cols)
    state, _ = new_game(story, 1, gm=True, manual=True)
    history = [state]
    out = []
    for cmd in SCRIPT:
        if cmd == "undo":
            history.pop()
            state = history[-1]
            out.append((cmd, "1手戻しました", [], []))
            continue
        if cmd == "状態":
            out.append((cmd, "状態：", [], []))
            continue
        engine_cmd = {
            "時計 +30": "!clock +30",
            "変数 天井の照明 いいえ": "!set 天井の照明 false",
            "ダメージ 2": "!damage 2",
            "強制 成功": "!force success",
        }.get(cmd, cmd)
        faces: list[int] = []
        typed: list[int] = []
        while True:
            try:
                new, events = step(
                    story, state, engine_cmd, dice=faces or None, manual=True, gm=True
                )
                break
            except NeedDice as need:
                pct = need.sides == [10, 10] and need.expr.lower().startswith("1d100")
                faces += [10, 1] if pct else [1]
                typed.append(1)
        assert new is not state, f"{cmd}: {events[0]}"
        shown = [e for e in events if e["type"] in ("narration", "override", "roll")]
        last = plain(r.event(shown[-1])).splitlines()[-1].strip() if shown else None
        actions = [
            f"{a['n']}. {a['label'][:8]}"
            for e in events
            if e["type"] == "prompt"
            for a in e["actions"]
        ]
        out.append((cmd, last, actions, typed))
        state = new
        history.append(state)
    return out


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_the_game_stays_on_the_gm_screen_after_every_command(
    size: tuple[int, int], tmp_path: Path
) -> None:
    cols, rows = size
    story = load(DEEP)
    plan = _expected(story, cols - 1)
    scr = Screen(cols, rows, tmp_path / "home")
    try:
        screen = scr.wait(lambda s: "1. 黒田剛（警察官）" in s and _prompt_line(s).startswith("▶"))
        assert "［GM｜F2］" in screen, screen
        for cmd, last, actions, typed in plan:
            before = screen
            scr.send("-l", cmd)
            scr.send("Enter")
            for _ in typed:
                scr.wait(lambda s: _prompt_line(s).startswith("🎲") and " に " in _prompt_line(s))
                scr.send("-l", "1")
                scr.send("Enter")

            def ready(
                s: str, before: str = before, last: str | None = last, actions: list[str] = actions
            ) -> bool:
                return (
                    s != before
                    and _prompt_line(s).strip() == "▶"
                    and (last is None or last in s)
                    and all(a in s for a in actions)
                )

            screen = scr.wait(ready)
            lines = screen.splitlines()
            assert _prompt_line(screen).strip() == "▶", f"{cmd}: no prompt\n{screen}"
            if last:
                assert last in screen, (
                    f"{cmd}: the end of the turn is off the screen ({last!r})\n{screen}"
                )
            for a in actions:
                assert a in screen, f"{cmd}: action {a!r} is off the screen\n{screen}"
            # The panel stays below the prompt and above the status bar, and stays small.
            panel = [i for i, x in enumerate(lines) if x.startswith("［GM｜F2］")]
            assert panel, f"{cmd}: no GM summary line\n{screen}"
            assert lines[-1].lstrip().startswith("GM │ 場所"), screen
            assert len(lines) - panel[0] <= max(rows // 2, 3), screen

        # F2 folds an open panel to its summary and opens a folded one; the game stays.
        def is_open(s: str) -> bool:
            below = s.split("\n▶")[-1]  # the panel is what follows the prompt
            return "予定: " in below

        before = screen
        scr.send("F2")
        toggled = scr.wait(lambda s: is_open(s) != is_open(before))
        assert is_open(toggled) != is_open(before), toggled
        assert _prompt_line(toggled).strip() == "▶" and "［GM｜F2］" in toggled
        scr.send("F2")
        back = scr.wait(lambda s: is_open(s) == is_open(before))
        assert is_open(back) == is_open(before), back
    finally:
        scr.close()
