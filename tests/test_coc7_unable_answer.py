"""A command while the investigator cannot act says why and what can be done (issue #13, the
table tour's item 8): typing an action while dying or unconscious answered 「わかりませんでした」.

Guard: a table of what people type (every action of the room as its label, a part of it, a
verb, nonsense) under each condition the rules stop an investigator with, in both languages:
the answer names the condition and the actions the rules allow, and nothing happens."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
LIT = [
    "1",
    "スマホ",
    "目を覚ます",
    "スマホ",
    "照明のスイッチを入れる",
]  # 黒田 剛 (HP 12), the lamp on
HARM = {"dying": ["!damage 6", "!damage 6"], "unconscious": ["!damage 3"] * 4}
WHY = {
    "dying": ("瀕死で動けない", "is dying and cannot act"),
    "unconscious": ("意識を失っていて動けない", "is unconscious and cannot act"),
}


@pytest.fixture(scope="module")
def deep():
    return load(DEEP)


def _down(story, why: str):
    st, _ = new_game(story, seed=1, gm=True)
    room = None
    for line in [*LIT, *HARM[why]]:
        if line.startswith("!"):
            room = room or [c.label for c in available(story, st) if c.n]
        st, evs = step(story, st, line, gm=True)
        assert not [e for e in evs if e["type"] == "error"], (line, evs)
    return st, room


@pytest.mark.parametrize("why", sorted(HARM))
def test_whatever_is_typed_while_unable_the_answer_says_why_and_what_can_be_done(
    deep, why: str
) -> None:
    st, room = _down(deep, why)
    allowed = [c.label for c in available(deep, st) if c.n]
    assert allowed and len(room) > 5
    typed = [
        *room,
        *(lb[:4] for lb in room),
        "調べる",
        "目星",
        "逃げる",
        "ほげほげ",
        "look at the door",
        "attack",
    ]
    for text in typed:
        after, evs = step(deep, st, text, gm=True)
        assert not [e for e in evs if e["type"] == "error"], (text, evs)
        said = [e for e in evs if e["type"] == "narration"]
        assert len(said) == 1, (text, said)
        ja, en = said[0]["texts"]["ja"], said[0]["texts"]["en"]
        assert WHY[why][0] in ja and WHY[why][1] in en, (text, ja, en)
        for label in allowed:
            assert label in ja, (text, ja)
        assert after.turn == st.turn and after.stats == st.stats and after.clock == st.clock


def test_the_console_answers_in_the_players_language(deep, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    for lang, want in (
        ("ja", "は瀕死で動けない。できるのは「瀕死：体力（CON）ロールで命をつなぐ」。"),
        ("en", "is dying and cannot act. What can be done: Dying: roll CON to hold on."),
    ):
        out = io.StringIO()
        lines = [
            *LIT,
            "ダメージ 6" if lang == "ja" else "gm damage 6",
            "ダメージ 6" if lang == "ja" else "gm damage 6",
            "部屋全体を調べる",
        ]
        Repl(
            deep,
            io=PlainIO(io.StringIO("\n".join(lines) + "\n"), out, cols=200),
            new=True,
            seed=1,
            gm=True,
            lang=lang,
        ).run()
        text = out.getvalue()
        assert want in text, text[-600:]
        assert "わかりませんでした" not in text.split("部屋全体を調べる")[-1]
        assert "not understand" not in text.split("部屋全体を調べる")[-1]


def test_jsonl_answers_with_the_reason_not_an_error() -> None:
    lines = [*LIT, "!damage 6", "!damage 6", "部屋を調べる"]
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--jsonl", "--gm", "--seed", "1"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    evs = [json.loads(x) for x in r.stdout.splitlines()]
    last_turn = evs[[i for i, e in enumerate(evs) if e["type"] == "prompt"][-2] + 1 :]
    assert not [e for e in last_turn if e["type"] == "error"]
    assert any("瀕死で動けない" in e.get("text", "") for e in last_turn if e["type"] == "narration")
