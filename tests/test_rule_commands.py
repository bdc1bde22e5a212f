"""Rule commands (``@name args``) from the input (#20 item 17, #13 item 11): one validator
at the door (runner/rules/meta.py) for every rule system's commands, and the console's
refusal of the ones only front ends send."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.engine import new_game, step
from runner.rules import system
from runner.rules.meta import MAX_DEPTH, MAX_LINE, MetaCommand, json_depth
from runner.stories import shipped
from runner.story import load

ROOT = Path(__file__).resolve().parents[1]


def _strict(text: str) -> dict:
    def no(c: str) -> None:
        raise AssertionError(f"non-JSON number {c} in the output")

    return json.loads(text, parse_constant=no)


def jsonl(story: str, lines: list[str], home: Path) -> list[list[dict]]:
    env = {**os.environ, "KATARI_HOME": str(home)}
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", story, "--jsonl", "--seed", "1"],
        input="".join(x + "\n" for x in lines).encode(),
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 0 and "Traceback" not in err, err[-2000:]
    turns: list[list[dict]] = [[]]
    for line in p.stdout.decode("utf-8").splitlines():
        turns[-1].append(_strict(line))
        if turns[-1][-1]["type"] in ("prompt", "ending"):
            turns.append([])
    assert turns.pop() == []
    assert len(turns) == 1 + len(lines)
    for t in turns:
        assert [e["type"] for e in t].count("state") == 1 and t[-2]["type"] == "state"
    return turns


BAD_SECONDS = [
    "inf",
    "-inf",
    "nan",
    "NaN",
    "1e400",
    "-5",
    "1e3",
    "9" * 5000,
    "0x10",
    "30s",
    "１e9",
    "99999999999",
    "12.3456",
    "Infinity",
]


def test_clock_reports_with_numbers_that_break_things_are_refused(tmp_path) -> None:
    lines = ["inspiration"]
    lines += [f"@time_passed {x}" for x in BAD_SECONDS] + [f"@time_sync {x}" for x in BAD_SECONDS]
    lines += ["@time_passed 30", "@time_passed 12.5", "@time_sync 100", "@time_passed"]
    turns = jsonl("ureg_glass_greenhouse", lines, tmp_path)
    bad = turns[2 : 2 + 2 * len(BAD_SECONDS)]
    for t in bad:
        assert t[0]["type"] == "error" and t[0]["code"] == "bad_arguments", t[0]
        assert len(t[0]["message"]) < 160
        assert t[-2]["ureg"]["time_spent"] == 0 and "ending" not in t[-2]
    spent = [t[-2]["ureg"]["time_spent"] for t in turns[-4:]]
    assert spent == [30, 42.5, 100, 100]


def test_carry_json_is_bounded_before_it_is_read(tmp_path) -> None:
    deep = "@carry " + "[" * 8000 + "]" * 8000  # under the line bound; json.loads would recurse
    wide = '@carry {"pc":{"good":"閃き","bad":"平凡","name":"' + "x" * (MAX_LINE + 10) + '"}}'
    nan = '@carry {"pc":{"good":"閃き","bad":"平凡","n":NaN}}'
    huge = '@carry {"pc":{"good":"閃き","bad":"平凡","n":' + "9" * 4400 + "}}"
    deeper = '@carry {"pc":' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    ok = '@carry {"pc":{"good":"閃き","bad":"平凡"}}'
    turns = jsonl("ureg_glass_greenhouse", [deep, wide, nan, huge, deeper, "@carry", ok], tmp_path)
    for t in turns[1:7]:
        assert t[0]["code"] == "bad_arguments", t[0]
        assert len(t[0]["message"]) < 200
    # The greenhouse is a campaign scenario: well-formed JSON still carries the PC in.
    assert any(e.get("id") == "ureg.carry" for e in turns[7])


def test_tick_takes_whole_seconds_in_bounds(tmp_path) -> None:
    timed = tmp_path / "dungeon_timed.yaml"
    text = (ROOT / "stories" / "dungeon_2f" / "story.yaml").read_text(encoding="utf-8")
    timed.write_text(text.replace("timer: null", "timer: 300"), encoding="utf-8")
    turns = jsonl(
        str(timed),
        [
            "@tick 1e9",
            "@tick " + "9" * 30,
            "@tick -3",
            "@tick nan",
            "@tick 5",
            "@describe",
            "@describe now",
        ],
        tmp_path,
    )
    left = turns[0][-2]["time_left"]
    for t in turns[1:5]:
        assert t[0]["code"] == "bad_arguments" and t[-2]["time_left"] == left
    assert turns[5][-2]["time_left"] == left - 5
    assert not [e for e in turns[6] if e["type"] == "error"]
    assert turns[7][0]["code"] == "bad_arguments"


def test_every_shipped_rule_system_declares_its_commands() -> None:
    for rules in ("coc7", "ureg", "ktane"):
        for name, cmd in system(rules).meta_commands.items():
            assert isinstance(cmd, MetaCommand), f"{rules} @{name} is not declared with MetaCommand"


def test_json_depth_is_linear_and_ignores_strings() -> None:
    assert json_depth('{"a":[1,{"b":"[[[["}]}') == 3
    assert json_depth("[" * 100000) == 100000


_STORIES = {p.name if p.is_dir() else p.stem: load(p) for p in shipped()}
_ARG = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "inf",
            "nan",
            "-1",
            "1e400",
            "9" * 5000,
            "[" * 3000,
            "{" * 50,
            "0",
            "1",
            "30",
            "@pc",
            '{"pc":{"good":"閃き","bad":"平凡"}}',
            "Strength",
            "○身軽 ×低身長",
            "\x00",
            "\udcff",
        ]
    ),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(story=st.sampled_from(sorted(_STORIES)), data=st.data())
def test_any_arguments_to_any_rule_command_give_a_clean_turn(story: str, data) -> None:
    s = _STORIES[story]
    names = sorted(system(s.rules).meta_commands)
    if not names:
        return
    state, _ = new_game(s, data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(1, 4))):
        name = data.draw(st.sampled_from(names))
        args = " ".join(data.draw(st.lists(_ARG, max_size=3)))
        new, events = step(s, state, f"@{name} {args}")
        kinds = [e["type"] for e in events]
        assert kinds.count("state") == 1 and kinds[-1] in ("prompt", "ending"), kinds
        json.dumps(events, allow_nan=False)  # no NaN or Infinity ever reaches an event
        if kinds[0] == "error":
            assert new is state and len(events[0]["message"]) < 300
        state = new
        if state.ending is not None:
            break


# ---------------------------------------------------------------- the console (#13 item 11)


def console(story: str, lines: list[str], home: Path) -> str:
    env = {**os.environ, "KATARI_HOME": str(home)}
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", story, "--new", "--seed", "1"],
        input="".join(x + "\n" for x in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-2000:]
    return p.stdout


@pytest.mark.parametrize(
    "cmd",
    [
        "@time_passed 1780",
        "@time_passed 1770",
        "@time_sync 0",
        '@carry {"pc":{"good":"閃き","bad":"平凡"}}',
        "@choose Strength",
        "@restart",
        "@wind",
        "@ time_passed 1800",
    ],
)
def test_players_cannot_type_the_console_own_commands(cmd: str, tmp_path) -> None:
    out = console("ureg_glass_greenhouse", ["1", cmd, "status"], tmp_path)
    name = cmd[1:].strip().split()[0]
    assert f"「@{name}」は Katari が自分で送るコマンドで、入力はできません。" in out
    assert "入力できるのは @hint です。" in out
    assert "時間切れ" not in out and "エンディング" not in out
    assert "残り時間: 29:" in out or "残り時間: 30:00" in out


def test_players_may_type_the_rule_commands_meant_for_them(tmp_path) -> None:
    out = console("ureg_glass_greenhouse", ["1", "@hint", "@nosuch"], tmp_path)
    assert "鍵がないなら" in out  # the 閃き hint
    assert "知らないコマンドです：@nosuch" in out
    out = console("dungeon_2f", ["@tick 600", "@describe"], tmp_path)
    assert "「@tick」は Katari が自分で送るコマンドで、入力はできません。" in out
    assert "入力できるのは @describe です。" in out and "爆発" not in out
    assert out.count("シリアル") >= 1
    out = console("deep_sea_atelier", ["1", "@sheet"], tmp_path)
    assert "Katari が自分で送る" not in out and "STR" in out
