"""A new author's mistakes, as `katari check` must report them (path:line:col: message)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from runner.cli import main
from runner.engine import new_game, step
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent

BASE = textwrap.dedent("""\
    story: {id: t, title: T, rules: coc7, start: hall, options: {pregen: 1}}
    variables: {open: false}
    items: {lamp: {name: ランプ}}
    characters: {ghost: {name: 影, kind: npc}}
    nodes:
      hall:
        narration:
          - {text: 「帰れ」, speaker: ghost}
        actions:
          - id: look
            label: 見る
            check: "coc7.check('目星')"
            outcomes:
              success: {effects: [{give: lamp}]}
              fumble: {say: 転んだ。}
              failure: {say: 何もない。}
          - {id: go, label: 進む, when: "has('lamp')", goto: room}
      room:
        actions: [{id: out, label: 出る, end: out}]
    endings: {out: {kind: good, title: 外}}
    """)


def _check(
    tmp_path: Path, text: str | bytes, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    d = tmp_path / "s"
    d.mkdir(exist_ok=True)
    f = d / "story.yaml"
    f.write_bytes(text) if isinstance(text, bytes) else f.write_text(text, encoding="utf-8")
    rc = main(["check", "--no-voice", str(d)])
    out = capsys.readouterr()
    return rc, out.out + out.err


def _where(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in `text`."""
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def test_the_base_story_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _check(tmp_path, BASE, capsys)
    assert rc == 0, out
    assert "warning" not in out


def test_an_empty_file_is_an_error_not_silence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = _check(tmp_path, "", capsys)
    assert rc == 1
    assert re.search(r":1:1: no story here: the file is empty", out), out


def test_unknown_item_inside_an_expression_has_a_place_and_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASE.replace("has('lamp')", "has('lmap')")
    rc, out = _check(tmp_path, text, capsys)
    line, col = _where(text, "has('lmap')")
    assert rc == 1
    assert f"story.yaml:{line}:{col}: has('lmap'): no such item (did you mean 'lamp'?)" in out, out


def test_unknown_node_in_visited_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASE.replace("has('lamp')", "visited('rooom')")
    rc, out = _check(tmp_path, text, capsys)
    assert rc == 1
    assert "visited('rooom'): no such node or ending (did you mean 'room'?)" in out, out


def test_an_outcome_the_check_never_gives_is_a_warning_with_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASE.replace("fumble: {say", "fumbel: {say")
    rc, out = _check(tmp_path, text, capsys)
    line, col = _where(text, "fumbel")
    assert f"story.yaml:{line}:{col}: outcome 'fumbel' can never happen" in out, out
    assert "(did you mean 'fumble'?)" in out
    assert rc == 0  # a warning: the story still plays


def test_a_speaker_no_character_has_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Speakers are characters (#13 item 13): a typo, or a voice profile's name, fails the story.
    text = BASE.replace("speaker: ghost", "speaker: ghots")
    rc, out = _check(tmp_path, text, capsys)
    line, col = _where(text, "ghots")
    assert f"story.yaml:{line}:{col}: speaker 'ghots' is not a character" in out, out
    assert "did you mean 'ghost'" in out and rc == 1
    # A character's name speaks as well as its id.
    rc, out = _check(tmp_path, BASE.replace("speaker: ghost", "speaker: 影"), capsys)
    assert rc == 0, out


def test_on_enter_gotos_that_bounce_for_ever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BASE.replace(
        "  room:\n",
        "  a:\n    on_enter: [{goto: b}]\n  b:\n    on_enter: [{say: x}, {goto: a}]\n  room:\n",
    ).replace("goto: room", "goto: a")
    text = text.replace(
        "        actions: [{id: out", "        actions: [{id: x, label: x, goto: room}, {id: out", 1
    )
    text = text.replace(
        "      - {id: go,", "      - {id: back, label: 戻る, goto: room}\n      - {id: go,"
    )
    rc, out = _check(tmp_path, text, capsys)
    line, col = _where(text, "  a:\n")
    assert rc == 1
    assert f"story.yaml:{line}:{col + 2}: on_enter gotos go round for ever: a → b → a" in out, out


def test_coc7_without_an_investigator_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out = _check(tmp_path, BASE.replace(", options: {pregen: 1}", ""), capsys)
    assert "story.yaml:1:1: rules: coc7 but no investigator" in out, out
    assert rc == 0


def test_the_authoring_worked_example_checks_and_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    example = re.findall(r"```yaml\n(.*?)```", doc, re.S)[0]
    rc, out = _check(tmp_path, example, capsys)
    assert rc == 0 and "warning" not in out, out
    story = load(tmp_path / "s")
    state, _ = new_game(story, seed=1)
    state, events = step(story, state, "search")
    assert not [e for e in events if e["type"] == "error"], events
    assert any(e["type"] == "roll" for e in events)


def test_shipped_stories_have_no_lint_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        [
            "check",
            "--no-voice",
            "-q",
            *sorted(str(p) for p in (ROOT / "stories").iterdir() if p.is_dir()),
        ]
    )
    out = capsys.readouterr().out
    assert rc == 0 and out == "", out
