"""The player sees only what the player knows (#13 items 24/25): ``visible_when`` on status
variables and on the time left, checked by ``katari check``, through ``katari play --jsonl``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")


def katari(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "runner", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def states(out: str) -> list[dict]:
    return [e for e in map(json.loads, out.splitlines()) if e["type"] == "state"]


SEA = """\
story: {id: vw, title: 海の部屋, language: ja, rules: none, start: room}
clock: {start: "10:00", limit: "20:00", left_visible_when: "read_note"}
variables:
  window_open: false
  read_note: false
  depth: {value: 200, label: 海面まで(m), visible_when: "window_open"}
  light: {value: false, visible: true, label: 照明}
nodes:
  room:
    narration: [暗い部屋だ。照明のスイッチが壁にある。]
    actions:
      - {id: open, label: 窓を開ける, effects: [{set: {window_open: true}}], say: 窓の外は深い海だった。}
      - {id: read, label: メモを読む, effects: [{set: {read_note: true}}], say: 「二十時に戻る」とある。}
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
"""


def test_a_status_variable_shows_only_while_its_visible_when_holds(tmp_path: Path) -> None:
    p = tmp_path / "sea.yaml"
    p.write_text(SEA, encoding="utf-8")
    r = katari("play", str(p), "--jsonl", "--seed", "1", stdin="open\n")
    assert r.returncode == 0, r.stderr
    before, after = states(r.stdout)
    assert "depth" not in before["vars"] and before["vars"] == {"light": False}
    assert after["vars"] == {"depth": 200, "light": False}
    # The game master sees every variable from the start.
    g = katari("play", str(p), "--jsonl", "--seed", "1", "--gm", stdin="")
    assert states(g.stdout)[0]["vars"]["depth"] == 200


def test_the_time_left_shows_only_once_the_deadline_is_known(tmp_path: Path) -> None:
    p = tmp_path / "sea.yaml"
    p.write_text(SEA, encoding="utf-8")
    r = katari("play", str(p), "--jsonl", "--seed", "1", stdin="open\nread\n")
    s = states(r.stdout)
    assert [("time_left" in e) for e in s] == [False, False, True]
    assert s[0]["time"] == "10:00" and s[2]["time_left"] == 600
    g = katari("play", str(p), "--jsonl", "--seed", "1", "--gm", stdin="")
    assert states(g.stdout)[0]["time_left"] == 600


def test_check_places_every_bad_visible_when(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("""\
story: {id: vw, title: VW, language: ja, rules: none, start: a}
clock: {start: "10:00", limit: "12:00", left_visible_when: "herd"}
variables:
  depth: {value: 200, label: 海面, visible_when: "opened and ("}
  other: {value: 1, label: 他, visible_when: "opend"}
  third: {value: 1, visible: false, label: 三, visible_when: "opened"}
  fourth: {value: 1, label: 四, visible_when: "roll('1d6') > 3"}
  opened: false
nodes:
  a:
    actions:
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
""", encoding="utf-8")
    r = katari("check", str(p))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    found = {(int(m["line"]), m["msg"].split(":")[0]) for m in map(LINE.match, r.stdout.splitlines()) if m}
    assert (2, "unknown variable 'herd'") in found, r.stdout
    assert any(line == 4 and msg.startswith("bad expression") for line, msg in found), r.stdout
    assert (5, "unknown variable 'opend' (did you mean 'opened'?)") in found, r.stdout
    assert any(line == 6 and "visible_when" in msg for line, msg in found) or \
        any(ln.startswith(f"{p}:6:") and "visible_when" in ln for ln in r.stdout.splitlines()), r.stdout
    assert any(ln.startswith(f"{p}:7:") and "cannot be used in a condition" in ln
               for ln in r.stdout.splitlines()), r.stdout
    cols = {int(m["line"]): int(m["col"]) for m in map(LINE.match, r.stdout.splitlines()) if m}
    text = p.read_text(encoding="utf-8").splitlines()
    assert cols[5] == text[4].index("opend") + 1  # the misspelt name itself, inside the quotes
