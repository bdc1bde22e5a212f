"""Play-test mistakes a new author makes, and the docs' play-test example."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from runner.authoring.playtest import PlaytestError, load_cases, run_case
from runner.cli import main
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent

STORY = textwrap.dedent("""\
    story: {id: t, title: T, rules: none, start: path}
    items: {coin: {name: 硬貨}}
    nodes:
      path:
        actions:
          - {id: pick, label: 拾う, once: true, effects: [{give: coin}]}
          - {id: go, label: 進む, goto: glade}
      glade:
        actions: [{id: home, label: 帰る, end: home}]
    endings: {home: {kind: good, title: 帰宅}}
    """)


def _run(tmp_path: Path, tests: str) -> tuple[list[str], list[str]]:
    (tmp_path / "story.yaml").write_text(STORY, encoding="utf-8")
    f = tmp_path / "t.yaml"
    f.write_text(tests, encoding="utf-8")
    story = load(tmp_path / "story.yaml")
    fails: list[str] = []
    warns: list[str] = []
    for case in load_cases(f):
        r = run_case(story, case)
        fails += r.failures
        warns += r.warnings
    return fails, warns


def test_a_typo_in_a_negative_expectation_is_reported_not_silently_passed(tmp_path: Path) -> None:
    fails, warns = _run(
        tmp_path,
        textwrap.dedent("""\
        commands: [go]
        expect:
          - lacks: coni
            not_offers: [pik]
            node: glade
          - ending: nonee
        """),
    )
    assert warns == [
        f"{tmp_path / 't.yaml'}:3: lacks: the story has no item 'coni' (did you mean 'coin'?)",
        f"{tmp_path / 't.yaml'}:4: not_offers: the story has no action 'pik' (did you mean 'pick'?)",
        f"{tmp_path / 't.yaml'}:6: ending: the story has no ending 'nonee' (did you mean 'none'?)",
    ]
    assert len(fails) == 1 and "expected ending 'nonee'" in fails[0]


def test_katari_test_prints_the_warnings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "story.yaml").write_text(STORY, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.yaml").write_text(
        "commands: [go]\nexpect: {lacks: coni}\n", encoding="utf-8"
    )
    assert main(["test", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (
        "t.yaml:2: lacks: the story has no item 'coni' (did you mean 'coin'?) (warning)" in out
    ), out


def test_ending_given_as_a_list_is_refused_where_it_is_written(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text(
        "commands: [go, home]\nexpect:\n  - ending: [home]\n", encoding="utf-8"
    )
    with pytest.raises(PlaytestError) as e:
        load_cases(tmp_path / "t.yaml")
    assert e.value.where.endswith("t.yaml:3") and "ending is one name" in e.value.message


def test_the_playtests_doc_example_passes_on_the_window_room(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "playtests.md").read_text(encoding="utf-8")
    example = re.findall(r"```yaml\n(.*?)```", doc, re.S)[0]
    shutil.copy(ROOT / "stories" / "ureg_window_room" / "story.yaml", tmp_path / "story.yaml")
    (tmp_path / "t.yaml").write_text(example, encoding="utf-8")
    story = load(tmp_path / "story.yaml")
    cases = load_cases(tmp_path / "t.yaml")
    assert cases and all(run_case(story, c).outcome == "passed" for c in cases), [
        run_case(story, c).failures for c in cases
    ]


def test_new_with_a_path_creates_that_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "stories/my_tale", "--dir", str(tmp_path)]) == 0
    assert (tmp_path / "stories" / "my_tale" / "story.yaml").is_file()
    assert not (tmp_path / "my_tale").exists()
    assert "id: my_tale" in (tmp_path / "stories" / "my_tale" / "story.yaml").read_text(
        encoding="utf-8"
    )
    assert main(["check", "--no-voice", str(tmp_path / "stories" / "my_tale")]) == 0
