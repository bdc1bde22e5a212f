"""The loader: every problem at once as path:line:col, never a traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.story import StoryError, check, load

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")


def katari(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_ten_mistakes_give_ten_located_lines_and_exit_1() -> None:
    r = katari("check", str(DATA / "broken" / "ten_mistakes.yaml"))
    assert r.returncode == 1
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert "Traceback" not in r.stdout + r.stderr
    assert len(lines) == 10, r.stdout
    for ln in lines:
        assert LINE.match(ln), ln
    text = r.stdout
    expected = {
        "unknown key 'colour'": 7,
        "goto 'nort': no such node": 15,
        "bad expression": 17,
        "unknown variable 'silver'": 21,
        "unknown item 'lamp'": 25,
        "double underscores": 28,
        "power operator": 32,
        "end 'victory': no such ending": 35,
        "node 'cellar' cannot be reached": 38,
        "node kind 'trap'": 39,
    }
    for fragment, line in expected.items():
        hit = [ln for ln in lines if fragment in ln]
        assert hit, f"missing: {fragment}\n{text}"
        assert int(LINE.match(hit[0])["line"]) == line, hit[0]


def test_did_you_mean_on_a_misspelt_target() -> None:
    _story, diags = check(DATA / "broken" / "ten_mistakes.yaml")
    msg = next(str(d) for d in diags if "nort" in d.message)
    assert "did you mean 'north'" not in msg  # no such node either
    assert "no such node" in msg


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


MINIMAL = """story: {id: t, title: T, language: en, rules: none, start: a}
nodes:
  a:
    narration: [Start.]
    actions:
      - {id: go, label: Go, goto: b}
  b:
    actions:
      - {id: win, label: Win, end: w}
endings:
  w: {kind: good}
"""


def test_a_valid_story_loads(tmp_path: Path) -> None:
    s = load(write(tmp_path, MINIMAL))
    assert s.start == "a" and set(s.nodes) == {"a", "b"} and s.endings["w"].kind == "good"
    assert s.nodes["a"].narration[0].id == "a.1"


@pytest.mark.parametrize(
    "text,fragment,line",
    [
        ("story: [1, 2\n", "YAML syntax", 2),
        ("story: {id: t, title: T, start: a}\nstory: {id: u}\n", "duplicate key 'story'", 2),
        (MINIMAL.replace("end: w}", "end: ww}"), "end 'ww': no such ending", 9),
        (MINIMAL.replace("      - {id: win, label: Win, end: w}\n", ""), "dead end", 7),
        (MINIMAL.replace("start: a}", "start: z}"), "start node 'z' does not exist", 1),
        (MINIMAL + "events:\n  - {id: e, effects: [{goto: a}]}\n", "needs 'at' or 'when'", 13),
        (
            MINIMAL.replace(
                "{id: go, label: Go, goto: b}", "{id: go, label: Go, cost: soon, goto: b}"
            ),
            "cost 'soon'",
            6,
        ),
        (MINIMAL.replace("rules: none", "rules: dnd"), "unknown rule system 'dnd'", 1),
        (
            MINIMAL.replace(
                "{id: go, label: Go, goto: b}",
                "{id: go, label: Go, goto: b, when: \"roll('1d6') > 3\"}",
            ),
            "changes the game and cannot be used in a condition",
            6,
        ),
        (
            MINIMAL.replace(
                "{id: go, label: Go, goto: b}", "{id: go, label: Go, goto: b, when: \"open('x')\"}"
            ),
            "'open' is not allowed",
            6,
        ),
        (
            MINIMAL.replace(
                "{id: go, label: Go, goto: b}",
                "{id: go, label: Go, goto: b, when: \"coc7.check('x')\"}",
            ),
            "belongs to the coc7 rules",
            6,
        ),
        (
            MINIMAL.replace("{id: go, label: Go, goto: b}", "{id: go, label: Go, gotoo: b}"),
            "did you mean 'goto'",
            6,
        ),
    ],
)
def test_each_mistake_is_located(tmp_path: Path, text: str, fragment: str, line: int) -> None:
    with pytest.raises(StoryError) as err:
        load(write(tmp_path, text))
    msgs = [str(d) for d in err.value.diagnostics]
    hit = [m for m in msgs if fragment in m]
    assert hit, msgs
    assert int(LINE.match(hit[0])["line"]) == line, hit[0]


def test_not_a_story_files_are_one_line_each(tmp_path: Path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"\xff\xfe\x00garbage")
    r = katari("check", str(tmp_path / "bin.yaml"), str(tmp_path / "missing.yaml"))
    assert r.returncode == 1
    out = r.stdout.strip().splitlines()
    assert any("not UTF-8" in ln for ln in out) and any("no such file" in ln for ln in out)
    assert "Traceback" not in r.stdout + r.stderr


def test_a_folder_story_merges_files_and_reports_cross_file_duplicates(tmp_path: Path) -> None:
    d = tmp_path / "st"
    d.mkdir()
    (d / "story.yaml").write_text(MINIMAL, encoding="utf-8")
    (d / "more.yaml").write_text(
        "nodes:\n  c:\n    actions: [{id: x, label: X, goto: a}]\n"
        "  b:\n    actions: [{id: y, label: Y, goto: a}]\n",
        encoding="utf-8",
    )
    with pytest.raises(StoryError) as err:
        load(d)
    msgs = [str(x) for x in err.value.diagnostics]
    assert any("story.yaml:7:3: node 'b' is defined twice" in m for m in msgs), msgs
    _story, diags = check(d)  # an unreachable node is a warning now (#15), listed by check
    assert any("node 'c' cannot be reached" in str(x) and x.severity == "warning" for x in diags), (
        diags
    )


def test_yaml_1_2_keeps_times_and_no_as_text(tmp_path: Path) -> None:
    text = MINIMAL + "variables: {answer: no, at: 10:00}\n"
    s = load(write(tmp_path, text))
    assert s.variables["answer"].value == "no" and s.variables["at"].value == "10:00"


def test_every_shipped_story_checks() -> None:
    stories = sorted(p for p in (ROOT / "stories").iterdir() if p.is_dir())
    assert stories
    r = katari("check", *map(str, stories))
    assert r.returncode == 0, r.stdout + r.stderr


def test_schema_command_prints_json_schema() -> None:
    import json

    r = katari("schema")
    assert r.returncode == 0
    schema = json.loads(r.stdout)
    assert schema["type"] == "object" and "nodes" in schema["properties"]


def _diags(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(StoryError) as err:
        load(write(tmp_path, text))
    return [str(d) for d in err.value.diagnostics]


def test_an_empty_file_is_an_error(tmp_path: Path) -> None:
    p = write(tmp_path, "")
    r = katari("check", str(p))
    assert r.returncode == 1 and f"{p}:1:1: no story here: the file is empty" in r.stdout


def test_columns_point_inside_expressions(tmp_path: Path) -> None:
    unquoted = MINIMAL.replace(
        "{id: go, label: Go, goto: b}", "{id: go, label: Go, goto: b, when: hp > 1 and}"
    )
    msgs = _diags(tmp_path, unquoted.replace("story:", "variables: {hp: 1}\nstory:"))
    # `when: hp > 1 and` starts at column 44 of line 7; the expression ends 10 characters on
    assert any(m.endswith("ends too early [K010]") and ":7:54:" in m for m in msgs), msgs
    quoted = MINIMAL.replace(
        "{id: go, label: Go, goto: b}", '{id: go, label: Go, goto: b, when: "1 < hpp"}'
    )
    msgs = _diags(tmp_path, quoted.replace("story:", "variables: {hp: 1}\nstory:"))
    assert any(
        "unknown variable 'hpp' (did you mean 'hp'?)" in m and ":7:49:" in m for m in msgs
    ), msgs


def test_a_misspelt_hook_gets_a_suggestion(tmp_path: Path) -> None:
    text = MINIMAL.replace("rules: none", "rules: coc7").replace(
        "{id: go, label: Go, goto: b}",
        "{id: go, label: Go, goto: b, check: \"coc7.chek('STR')\", outcomes: {success: []}}",
    )
    msgs = _diags(tmp_path, text)
    assert any("unknown function 'coc7.chek' (did you mean 'coc7.check'?)" in m for m in msgs), msgs


def test_numbers_beyond_the_engine_bound_are_refused(tmp_path: Path) -> None:
    text = MINIMAL.replace(
        "story:", "variables: {big: 100000000000000000000000, ok: 5}\nstory:"
    ).replace(
        "{id: go, label: Go, goto: b}",
        "{id: go, label: Go, goto: b, effects: [{add: {ok: 99999999999999999999999}}]}",
    )
    msgs = _diags(tmp_path, text)
    assert sum("out of range" in m for m in msgs) == 2, msgs


def test_clock_times_must_exist_and_may_cross_midnight(tmp_path: Path) -> None:
    base = MINIMAL + 'clock: {start: "22:00", limit: "02:00"}\n'
    msgs = _diags(tmp_path, base + 'events:\n  - {id: e, at: "25:99", effects: [{goto: a}]}\n')
    assert any("event time '25:99'" in m for m in msgs), msgs
    s = load(write(tmp_path, base + 'events:\n  - {id: e, at: "01:00", effects: [{goto: a}]}\n'))
    assert s.clock.limit == 240 and s.events[0].at == 180


def test_non_utf8_is_placed_at_its_line(tmp_path: Path) -> None:
    p = tmp_path / "latin.yaml"
    p.write_bytes(MINIMAL.replace("Start.", "Caf\xe9.").encode("latin-1"))
    r = katari("check", str(p))
    assert r.returncode == 1 and f"{p}:4:20: not UTF-8" in r.stdout, r.stdout
