"""Every question the console asks takes the words the main prompt takes for leaving (#16,
cc2 item 7): ``q``, ``quit``, ``exit``, ``終了``, ``しゅうりょう``, ``やめる``, with a ``/`` and
in full width too, at the resume question, at "this game is open in another session", and at
the manual dice prompt. A table of prompts × words, through the console."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pytest

from runner.story import load as load_story
from runner.ui import files
from runner.ui.console import PlainIO, Repl
from runner.ui.i18n import META

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
_ja, _en, _, _ = META["quit"]
WORDS = sorted({"quit", *_ja, *_en, "/quit", "／終了", "ＱＵＩＴ", "Exit", " q "})
PROMPTS = ("resume", "busy", "dice")


def _run(story, text: str, **kw) -> str:  # noqa: ANN001, ANN003
    out = io.StringIO()
    Repl(story, io=PlainIO(io.StringIO(text), out, cols=200), seed=3, history=False, **kw).run()
    return out.getvalue()


def test_the_words_are_the_main_prompts() -> None:
    from runner.ui.console import is_quit

    for w in WORDS:
        assert is_quit(w), w
    for w in ("n", "r", "y", "47", "いいえ", "quits", "終了する？"):
        assert not is_quit(w), w
    assert {
        unicodedata.normalize("NFKC", w).strip().casefold() for w in ("quit", "exit", "q")
    } <= set(WORDS)


@pytest.mark.parametrize("word", WORDS)
@pytest.mark.parametrize("prompt", PROMPTS)
def test_every_question_takes_the_quit_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prompt: str, word: str
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    story = load_story(DEEP)
    if prompt == "dice":
        screen = _run(story, f"5\n{word}\n1\n", new=True, manual=True)
        assert "出目を入力" in screen and "中断しました" in screen
        assert "▶ 1" not in screen  # left at the dice prompt: nothing after it was read
        return
    _run(story, "1\n3\n", new=True)  # an unfinished game in the autosave
    info = next(i for i in files.list_saves(story.id) if files.is_autosave(i.slot))
    before = info.path.read_bytes()
    lock = files.SlotLock.take(story.id, info.slot) if prompt == "busy" else None
    try:
        screen = _run(story, f"{word}\n1\n")
    finally:
        if lock is not None:
            lock.release()
    asked = "続けますか" if prompt == "resume" else "[q] やめる"
    assert asked in screen
    tail = screen.split(asked, 1)[1]
    assert "読み取り専用" not in tail and "から続けます" not in tail and "▶" not in tail, tail
    assert info.path.read_bytes() == before  # nothing was touched
    assert len([i for i in files.list_saves(story.id) if files.is_autosave(i.slot)]) == 1
