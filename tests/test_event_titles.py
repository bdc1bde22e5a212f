"""Events have titles (issue #13, the table tour's item 5): the GM panel said 「次 16:30 hunger」
and 「条件待ち: death shake knock burst wizard」. A story gives an event a ``title:`` (player
text), the GM panel and status show it, every shipped story titles the events the panel lists,
and ``katari check`` warns about a timed event without one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import new_game, state_event
from runner.stories import shipped
from runner.story import load
from runner.ui.render import gm_lines, plain

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
SHIPPED = {p.name if p.is_dir() else p.stem: p for p in shipped()}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_event_the_gm_panel_lists_has_a_title(name: str) -> None:
    story = load(SHIPPED[name])
    for ev in story.events:
        if ev.at is not None or not ev.repeat:
            assert ev.title and ev.title != ev.id, f"{name}: event {ev.id!r} has no title"
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(SHIPPED[name])],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "K307" not in r.stdout + r.stderr and "has no title" not in r.stdout + r.stderr


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_gm_panel_names_events_by_their_titles(lang: str) -> None:
    story = load(DEEP)
    st, _ = new_game(story, seed=1, gm=True)
    text = plain(gm_lines(state_event(story, st, gm=True), story, lang, cols=200, folded=False))
    assert "16:30 空腹に気づく" in text
    assert "揺れ（触腕が気づく）" in text and "家主の帰宅" in text and "玄関のノック" in text
    for raw in ("hunger", " shake", "knock", "burst", "wizard", "death"):
        assert raw not in text, (raw, text)


def test_the_console_shows_titles_in_the_summary_and_status(tmp_path: Path) -> None:
    env = {**__import__("os").environ, "KATARI_HOME": str(tmp_path / "home")}
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--gm", "--seed", "1", "--new"],
        input="1\n4\nstatus\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )
    assert "次 16:30 空腹に気づく" in p.stdout and "hunger" not in p.stdout
    assert (
        "条件待ち: 探索者全員の死、揺れ（触腕が気づく）、玄関のノック、玄関が破られる、家主の帰宅"
        in p.stdout
    )


def test_check_warns_about_a_timed_event_without_a_title(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(
        'story: {id: evt, title: T, start: a}\nclock: {start: "10:00"}\n'
        "nodes:\n  a:\n    narration: [A room.]\n    actions:\n      - {id: wait, label: Wait, cost: 30}\n"
        'events:\n  - id: bell\n    at: "10:30"\n    effects: [{say: A bell.}]\n'
        '  - id: gong\n    at: "11:00"\n    title: The gong\n    effects: [{say: A gong.}]\n'
        '  - {id: flag, when: "clock() > 5", effects: [{say: Late.}]}\n',
        encoding="utf-8",
    )
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert (
        out.count("has no title") == 1 and "'bell'" in out and "K307" not in out or "warning" in out
    )
    assert "'gong'" not in out
    story = load(f)
    assert [e.title for e in story.events] == ["", "The gong", ""]


def test_a_title_that_is_not_text_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "s.yaml"
    f.write_text(
        "story: {id: evt, title: T, start: a}\nnodes:\n  a:\n    narration: [A room.]\n"
        "events:\n  - {id: bell, at: 30, title: [1, 2], effects: [{say: A bell.}]}\n",
        encoding="utf-8",
    )
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode != 0 and "'title' must be text" in r.stdout + r.stderr


def test_every_diagnostic_code_means_one_thing() -> None:
    """Two pieces of work both took K306 (an argument outside its domain, a timed event
    without a title): a code names one kind of mistake, so each is written once."""
    import re
    from collections import Counter
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "runner"
    seen: Counter[str] = Counter()
    for f in root.rglob("*.py"):
        for code in set(re.findall(r'"(K\d{3})"', f.read_text(encoding="utf-8"))):
            seen[code] += len(re.findall(rf'"{code}"', f.read_text(encoding="utf-8")))
    assert seen["K306"] == 1 and seen["K307"] == 1
