"""Play-tests: the sample's pass, failures point at path:line, dice are used exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.authoring.playtest import PlaytestError, load_cases, playtest_files, run_case, run_tests
from runner.cli import main
from runner.stories import shipped
from runner.story import load

SAMPLE = (
    Path(__file__).resolve().parent / "data" / "sample_room"
)  # a fixed copy: the shipped room may change
DICE_STORY = """\
story: {id: d, title: d, start: a}
variables: {a: 0, b: 0}
nodes:
  a:
    actions:
      - {id: one, label: one, effects: [{roll: {dice: 1d6, into: a}}]}
      - {id: two, label: two, effects: [{roll: {dice: 2d6, into: b}}]}
      - {id: none, label: none}
      - {id: stop, label: stop, end: fin}
endings: {fin: normal}
"""


@pytest.mark.parametrize(
    "path",
    [p for p in shipped() if playtest_files(p)],
    ids=[p.name for p in shipped() if playtest_files(p)],
)
def test_shipped_playtests_pass(path: Path) -> None:
    story = load(path)
    results = run_tests(story, playtest_files(path))
    assert results
    bad = [(r.case.nodeid, r.failures) for r in results if r.outcome != "passed"]
    assert bad == []


def test_cli_reports_like_pytest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "escape.yaml::あきらめると脱出失敗 PASSED" in out
    assert "4 passed" in out


def test_failures_name_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(
        """\
- name: wrong place
  commands: [inspiration, look around]
  expect:
    - after: 1
      node: room
    - after: 1
      node: choose
    - var: {reach: 100}
- name: good
  commands: [inspiration]
  expect: {node: room}
- name: unknown command
  commands:
    - inspiration
    - dance wildly
""",
        encoding="utf-8",
    )
    assert main(["test", str(SAMPLE), str(f)]) == 1
    out = capsys.readouterr().out
    assert "bad.yaml::wrong place FAILED" in out and "bad.yaml::good PASSED" in out
    assert (
        f"{f}:6: expected to be at node 'choose', but at 'room' (after command 1)"
        in out.replace(str(f.resolve()), str(f))
    )
    assert "bad.yaml:8: expected reach = 100, got 200" in out
    assert "bad.yaml:15: command 2 'dance wildly' failed at node 'room'" in out
    assert "2 failed" in out and "1 passed" in out


def test_malformed_file_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text("- name: x\n  commands: [a]\n  expect:\n    - nod: room\n", encoding="utf-8")
    with pytest.raises(
        PlaytestError, match=r"t.yaml:4: unknown expectation 'nod' \(did you mean 'node'\?\)"
    ):
        load_cases(f)
    f.write_text("name: x\ncommands: [a]\nexpect: [{after: 2, node: x}]\n", encoding="utf-8")
    with pytest.raises(PlaytestError, match="after must be 0 to 1"):
        load_cases(f)
    (r,) = run_tests(load(SAMPLE), [f])
    assert r.outcome == "error"


def test_dice_are_used_exactly_and_carry_on(tmp_path: Path) -> None:
    story_file = tmp_path / "story.yaml"
    story_file.write_text(DICE_STORY, encoding="utf-8")
    story = load(story_file)
    f = tmp_path / "t.yaml"
    f.write_text(
        """\
- name: queue
  dice: [4, 2, 5, 6]
  commands: [none, one, two, {command: one, dice: [3]}, one]
  expect:
    - {after: 2, var: {a: 4, b: 0}}
    - {after: 3, var: {b: 7}}
    - {after: 4, var: {a: 3}}
    - {var: {a: 6}}
- name: leftover
  dice: [1, 2]
  commands: [one]
""",
        encoding="utf-8",
    )
    queue, leftover = load_cases(f)
    assert run_case(story, queue).failures == []
    res = run_case(story, leftover)
    assert res.outcome == "failed" and "1 dice face(s) were never rolled: [2]" in res.failures[0]
    assert res.failures[0].startswith(f"{f}:10:")


def test_every_expectation_kind(tmp_path: Path) -> None:
    f = tmp_path / "t.yaml"
    f.write_text(
        """\
name: all kinds
commands: [inspiration, look around, take ladder]
expect:
  - {after: 0, node: choose, turn: 0, clock: 0, ending: none}
  - {after: 2, not_offers: [lean_ladder], offers: ["梯子を持つ"], no_text: 肩にかついだ}
  - {has: ladder, lacks: box, visited: [choose, room], text: [肩にかついだ, 振り返ると], turn: 3}
  - {has: {ladder: 1}, vars: {looked: true, hint_used: false}}
""",
        encoding="utf-8",
    )
    (case,) = load_cases(f)
    assert run_case(load(SAMPLE), case).failures == []
    g = tmp_path / "u.yaml"
    g.write_text(
        """\
name: all wrong
commands: [inspiration]
expect:
  - {has: ladder, lacks: nothing, visited: nowhere, text: never said, clock: 5, ending: escaped,
     offers: [climb], fired: bell, var: {nope: 1}}
""",
        encoding="utf-8",
    )
    (case,) = load_cases(g)
    fails = run_case(load(SAMPLE), case).failures
    assert len(fails) == 8 and all(x.startswith(f"{g}:4:") for x in fails)
