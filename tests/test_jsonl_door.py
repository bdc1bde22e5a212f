"""What `katari play --jsonl` does with input that is not what it claims (#20 items 15-17):
bytes that are not UTF-8, over-long lines, dice faces no die can show, rule commands with
numbers and JSON that break things. Through the real subprocess, under several locales.

The protocol: every input line, whatever it holds, is answered by its events, then exactly
one ``state`` and one ``prompt`` or ``ending``; every output line is valid UTF-8 JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _locale_dir(tmp: Path) -> str | None:
    """A compiled en_US.UTF-8 locale (a UTF-8 locale other than C), or None without localedef."""
    if shutil.which("localedef") is None:
        return None
    out = tmp / "en_US.UTF-8"
    r = subprocess.run(["localedef", "-i", "en_US", "-f", "UTF-8", str(out)], capture_output=True)
    return str(tmp) if out.exists() and r.returncode in (0, 1) else None


@pytest.fixture(scope="module")
def locales(tmp_path_factory) -> dict[str, dict[str, str]]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHON"))}
    out = {
        "C.UTF-8": {**base, "LC_ALL": "C.UTF-8"},
        "C": {**base, "LC_ALL": "C"},
        # What a real en_US.UTF-8 terminal gives Python: UTF-8 with strict errors.
        "strict-utf8": {**base, "LANG": "en_US.UTF-8", "PYTHONIOENCODING": "utf-8"},
    }
    loc = _locale_dir(tmp_path_factory.mktemp("locale"))
    if loc is not None:
        out["en_US.UTF-8"] = {
            **base,
            "LOCPATH": loc,
            "LC_ALL": "en_US.UTF-8",
            "LANG": "en_US.UTF-8",
        }
    return out


def jsonl(
    story: str,
    data: bytes,
    env: dict[str, str] | None = None,
    *,
    home: Path,
    seed: int = 1,
    timeout: float = 120,
) -> tuple[list[dict], bytes, str]:
    env = dict(env if env is not None else os.environ)
    env["KATARI_HOME"] = str(home)
    p = subprocess.run(
        [sys.executable, "-m", "runner", "play", story, "--jsonl", "--seed", str(seed)],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
    )
    assert p.returncode == 0, p.stderr.decode("utf-8", "replace")[-2000:]
    assert b"Traceback" not in p.stderr, p.stderr.decode("utf-8", "replace")[-2000:]
    text = p.stdout.decode("utf-8")  # raises if any byte is not UTF-8
    return (
        [json.loads(line) for line in text.splitlines()],
        p.stdout,
        p.stderr.decode("utf-8", "replace"),
    )


def answered(events: list[dict]) -> list[list[dict]]:
    """The output cut into turns; each must end in exactly one state then one prompt/ending."""
    turns: list[list[dict]] = [[]]
    for ev in events:
        turns[-1].append(ev)
        if ev["type"] in ("prompt", "ending"):
            turns.append([])
    assert turns[-1] == [], f"output ends without a prompt: {turns[-1]}"
    turns.pop()
    for t in turns:
        kinds = [e["type"] for e in t]
        assert kinds.count("state") == 1 and kinds[-2] == "state", kinds
        assert kinds.count("prompt") + kinds.count("ending") == 1, kinds
    return turns


# ---------------------------------------------------------------- item 15: bytes

BAD_BYTES = [
    b"insp\xffx",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\x80\x80",
    b"ok\xe3\x81",
]


@pytest.mark.parametrize("name", ["C.UTF-8", "C", "strict-utf8", "en_US.UTF-8"])
def test_invalid_utf8_is_an_error_event_in_every_locale(name, locales, tmp_path) -> None:
    if name not in locales:
        pytest.skip("localedef cannot build en_US.UTF-8 here")
    data = b"".join(b + b"\n" for b in BAD_BYTES) + "inspiration\n".encode()
    events, raw, _ = jsonl("ureg_window_room", data, locales[name], home=tmp_path)
    turns = answered(events)
    assert len(turns) == 1 + len(BAD_BYTES) + 1
    for t in turns[1:-1]:
        assert t[0] == {"type": "error", "code": "bad_encoding", "message": t[0]["message"]}
        assert t[0]["message"].startswith("line is not UTF-8")
        assert t[-2]["node"] == "choose" and t[-2]["turn"] == 0
    # The game goes on as if the bad lines had not been sent.
    assert turns[-1][-2]["node"] == "room" and turns[-1][-2]["turn"] == 1
    assert b"\xed\xa0" not in raw and b"\\udc" not in raw


def test_overlong_line_is_read_in_bounded_pieces_and_refused(tmp_path, locales) -> None:
    from runner.ui.jsonl import MAX_LINE

    data = b"x" * (MAX_LINE * 20) + b"\ninspiration\n" + b"y" * (MAX_LINE + 1) + b"\n1\n"
    events, _, _ = jsonl("ureg_window_room", data, locales["strict-utf8"], home=tmp_path)
    turns = answered(events)
    assert len(turns) == 5
    assert turns[1][0]["code"] == "too_long" and str(MAX_LINE * 20) in turns[1][0]["message"]
    assert turns[3][0]["code"] == "too_long"
    assert turns[2][-2]["node"] == "room" and turns[4][-2]["turn"] == 2
    # A line of exactly MAX_LINE bytes (with its newline after) is still read.
    exact = b"z" * MAX_LINE + b"\n"
    events, _, _ = jsonl("ureg_window_room", exact, locales["strict-utf8"], home=tmp_path)
    assert answered(events)[1][0]["code"] == "unknown_command"


def test_text_that_cannot_be_utf8_is_escaped_in_process() -> None:
    from runner.ui.jsonl import encode

    line = encode({"type": "error", "message": "bad \udcff here"})
    assert json.loads(line.decode("utf-8"))["message"] == "bad \udcff here"


# ---------------------------------------------------------------- item 16: dice faces


def test_unusable_faces_are_refused_and_dropped_and_every_line_is_answered(tmp_path) -> None:
    # Pregen 1 wakes in the dark; grope_switch is a Luck roll (1d100: a tens and a units d10).
    lines = [
        "pregen1",
        "wake",
        ":dice 500",
        "grope_switch",
        "grope_switch",
        ":dice 9,x",
        ":dice -1",
        ":dice 1001",
        ":dice " + "9" * 5000,
        ":dice",
        ":dice 1,10",
    ]
    events, _, _ = jsonl(
        "deep_sea_atelier", "".join(x + "\n" for x in lines).encode(), home=tmp_path
    )
    turns = answered(events)
    assert len(turns) == 1 + len(lines)
    # `:dice 500` is kept (some die might show it) and answered with what is pending.
    assert turns[3][0] == {"type": "dice", "pending": [500]}
    # Used on a percentile roll it cannot be: the command does not run, the faces are dropped...
    bad = turns[4][0]
    assert bad["type"] == "error" and "a d100 cannot show 500" in bad["message"]
    assert bad["code"] == "bad_dice"  # (the table's face, not the story's error: docs/jsonl.md)
    assert turns[4][-2]["turn"] == turns[3][-2]["turn"]
    # ... so the next command rolls as usual.
    assert not [e for e in turns[5] if e["type"] == "error"]
    assert [e for e in turns[5] if e["type"] == "roll"]
    assert turns[5][-2]["turn"] == turns[3][-2]["turn"] + 1
    # Faces no die can show are refused when given, quoting at most a short prefix.
    for t in turns[6:11]:
        assert t[0]["code"] == "bad_dice", t[0]
        assert len(t[0]["message"]) < 120
    assert turns[11][0] == {"type": "dice", "pending": [1, 10]}


def test_too_many_waiting_faces_are_refused(tmp_path) -> None:
    from runner.rules.dice import MAX_DICE

    lines = [":dice " + ",".join(["3"] * MAX_DICE), ":dice 4"]
    events, _, _ = jsonl(
        "deep_sea_atelier", "".join(x + "\n" for x in lines).encode(), home=tmp_path
    )
    turns = answered(events)
    assert turns[1][0]["type"] == "dice" and len(turns[1][0]["pending"]) == MAX_DICE
    assert turns[2][0]["code"] == "bad_dice" and str(MAX_DICE) in turns[2][0]["message"]


def test_a_face_a_roll_effect_cannot_use_ends_the_turn_like_any_error(tmp_path) -> None:
    # A roll: effect raises DiceError outside any check (it used to end the turn with a bare
    # error line: no state, no prompt).
    story = tmp_path / "roll.yaml"
    story.write_text(
        """story: {id: rolltest, title: Roll, start: a}
variables: {n: 0}
nodes:
  a:
    title: A
    narration: [Here.]
    actions:
      - id: throw
        label: throw
        effects:
          - roll: {dice: 1d6, into: n}
""",
        encoding="utf-8",
    )
    lines = [":dice 9", "throw", "throw", ":dice 4", "throw"]
    events, _, _ = jsonl(str(story), "".join(x + "\n" for x in lines).encode(), home=tmp_path)
    turns = answered(events)
    assert len(turns) == 1 + len(lines)
    assert turns[2][0]["code"] == "bad_dice" and "a d6 cannot show 9" in turns[2][0]["message"]
    assert turns[2][-2]["turn"] == 0
    assert [e["sides"] for e in turns[3] if e["type"] == "roll"] == [[6]]
    assert [e["dice"] for e in turns[5] if e["type"] == "roll"] == [[4]]
