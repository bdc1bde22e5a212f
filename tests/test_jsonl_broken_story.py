"""``katari play BROKEN --jsonl`` answers in JSON lines (docs/jsonl.md): a bot reading stdout
got nothing but plain text on stderr. Each error of the story is one ``error`` event
(``bad_story``, with its place and K code), a missing story one ``no_story``; the exit
status is 1 and no turn is played."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import katari

GOOD = """story: {id: b, title: T, language: en, start: a}
nodes:
  a:
    narration: [Room.]
    actions: [{id: leave, label: Leave, end: fin}]
endings:
  fin: {kind: good, title: Fin}
"""


def _events(out: str) -> list[dict]:
    lines = out.splitlines()
    assert lines, "no JSON line on stdout"
    return [json.loads(x) for x in lines]


def test_each_error_is_an_error_event(tmp_path: Path, home: Path) -> None:
    p = tmp_path / "b.yaml"
    p.write_text(
        GOOD.replace("[Room.]", "[Room.]\n    colour: red").replace("end: fin", "end: finn"),
        encoding="utf-8",
    )
    r = katari("play", str(p), "--jsonl", stdin="leave\n", home=home)
    assert r.returncode == 1
    evs = _events(r.stdout)
    assert all(e["type"] == "error" and e["code"] == "bad_story" for e in evs), evs
    got = {(e["data"]["line"], e["data"]["column"], e["data"]["diagnostic"]) for e in evs}
    assert (5, 5, "K002") in got and any(d == "K032" for _, _, d in got), got
    colour = next(e for e in evs if e["data"]["diagnostic"] == "K002")
    assert colour["message"] == f"{p}:5:5: unknown key 'colour' in node 'a' [K002]"
    assert colour["data"]["path"] == str(p)
    assert "has errors" in r.stderr  # a person still reads why, in words


def test_a_yaml_error_is_an_error_event(tmp_path: Path, home: Path) -> None:
    p = tmp_path / "b.yaml"
    p.write_text(GOOD.replace("    narration", "\tnarration"), encoding="utf-8")
    r = katari("play", str(p), "--jsonl", stdin="", home=home)
    assert r.returncode == 1
    (ev,) = _events(r.stdout)
    assert ev["code"] == "bad_story" and ev["data"]["diagnostic"] == "K101"
    assert (ev["data"]["line"], ev["data"]["column"]) == (4, 1)


def test_a_missing_story_is_an_error_event(tmp_path: Path, home: Path) -> None:
    r = katari("play", str(tmp_path / "nothing_here"), "--jsonl", stdin="", home=home)
    assert r.returncode == 1
    (ev,) = _events(r.stdout)
    assert ev["type"] == "error" and ev["code"] == "no_story", ev
    assert "nothing_here" in ev["message"]


def test_a_good_story_still_plays(tmp_path: Path, home: Path) -> None:
    p = tmp_path / "b.yaml"
    p.write_text(GOOD, encoding="utf-8")
    r = katari("play", str(p), "--jsonl", stdin="leave\n", home=home)
    assert r.returncode == 0, r.stderr
    assert _events(r.stdout)[-1]["type"] == "ending"
