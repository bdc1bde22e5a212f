"""Whatever is typed, the console never shows a traceback, and garbage changes nothing."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.engine import step
from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl
from runner.ui.console.words import _META, _PREFIXES, _clean

ROOT = Path(__file__).resolve().parent.parent
STORY = load(ROOT / "stories" / "ureg_window_room")

CONTROL = st.text(st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=50)
EMOJI = st.text(st.sampled_from("🙂🎲🧙‍♀️👍🏽🇯🇵\u200d\ufe0f"), max_size=40)
LONG = st.integers(1000, 10_000).map(lambda n: "あx🙂"[n % 3] * n)
WORDS = st.sampled_from(
    [
        "xyzzy",
        "plugh",
        "ふぁぼ",
        "ほげほげ",
        "42",
        "0",
        "-1",
        "999999999999",
        "/",
        ":",
        "/nonsense",
        ":;",
        "%s%n",
        "{}",
        "${HOME}",
        "\\x00",
        "''",
        '"',
    ]
)
ANY = st.one_of(
    st.text(max_size=200),
    CONTROL,
    EMOJI,
    LONG,
    WORDS,
    st.lists(st.one_of(WORDS, EMOJI, CONTROL), max_size=5).map(" ".join),
)
GARBAGE = st.one_of(CONTROL, EMOJI, LONG, WORDS.filter(lambda w: not w.startswith(("/", ":"))))


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory) -> Iterator[tuple[Repl, io.StringIO, files.Timeline]]:
    """One console for every example (a session per example would be slow), in its own home."""
    mp = pytest.MonkeyPatch()
    mp.setenv("KATARI_HOME", str(tmp_path_factory.mktemp("fuzz")))
    out = io.StringIO()
    repl = Repl(STORY, io=PlainIO(io.StringIO(), out, cols=60), seed=1, new=True)
    repl.begin()
    repl.handle("1")
    repl.handle("look around")
    yield repl, out, repl.tl
    mp.undo()


def _split_word(text: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFKC", text).split()[0].casefold()


def _reset(repl: Repl, tl: files.Timeline) -> None:
    repl.tl = files.Timeline(
        tl.story,
        tl.seed,
        list(tl.states[: tl.pos + 1]),
        list(tl.log[: tl.pos]),
        tl.pos,
        events=list(tl.events[: tl.pos + 1]),
    )
    repl._choices = None
    repl.refresh()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=ANY)
def test_any_input_no_traceback_and_non_commands_change_nothing(fuzz, text: str) -> None:
    repl, out, tl = fuzz
    _reset(repl, tl)
    before = repl.state
    engine_after, _ = step(STORY, before, _clean(text))
    out.seek(0)
    out.truncate()
    assert repl.handle(text) in (True, False)
    assert "Traceback" not in out.getvalue()
    clean = _clean(text)
    is_meta = bool(clean) and (clean[0] in _PREFIXES or _split_word(clean) in _META)
    if not is_meta and engine_after is before:
        # Not a command the story knows: nothing moved, nothing was recorded.
        assert repl.state is before
        assert repl.state.to_dict() == tl.state.to_dict()
        assert len(repl.tl.log) == tl.pos


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=GARBAGE)
def test_garbage_is_answered_and_the_state_is_unchanged(fuzz, text: str) -> None:
    repl, out, tl = fuzz
    _reset(repl, tl)
    before = repl.state.to_dict()
    saved = files.slot_path(STORY.id, "autosave").read_bytes()
    assert repl.handle(text) is True
    assert repl.state.to_dict() == before
    assert files.slot_path(STORY.id, "autosave").read_bytes() == saved
    for line in out.getvalue().splitlines():
        assert all(ch.isprintable() for ch in line), repr(line)  # no control codes echoed back
