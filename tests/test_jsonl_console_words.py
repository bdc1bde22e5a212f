"""The console's own words (docs/repl.md: help, look, sheet, undo, ...) over --jsonl: each
either works (``sheet``, as the rule command ``@sheet``) or gets one clear line saying it is
the console's and what a headless front end does instead. (``sheet`` and ``:sheet`` answered
"did not understand" in the deep-sea story.)

A table: every word of every console command in both languages, plain and with the console's
``/`` and ``:`` marks, in a story whose rules keep sheets and in one whose rules do not."""

from __future__ import annotations

import json

import pytest
from conftest import katari

from runner.stories import shipped
from runner.story import load
from runner.ui import jsonl as J
from runner.ui.i18n import META


def story(name: str):
    return load(next(p for p in shipped() if p.name == name))


def answers(s, lines: list[str]) -> list[list[dict]]:
    """The events of each line's turn (after the opening)."""
    turns: list[list[dict]] = [[]]
    for ev in J.turns(s, lines, seed=1):
        turns[-1].append(ev)
        if ev["type"] in ("prompt", "ending"):
            turns.append([])
    return turns[1:-1]


def words(name: str) -> list[str]:
    ja, en, _, _ = META[name]
    return sorted({name, *ja, *en})


def test_every_console_word_is_decided_for_jsonl() -> None:
    """A new console word must say what it does over --jsonl (works, or what to do here)."""
    assert set(META) == set(J.CONSOLE_ONLY) | {"sheet"}


@pytest.mark.parametrize("name", sorted(META))
def test_each_console_word_works_or_says_it_is_the_consoles(name: str) -> None:
    for story_id, first in (("deep_sea_atelier", "1"), ("ureg_window_room", "1")):
        s = story(story_id)
        for word in words(name):
            for typed in (word, f"/{word}", f":{word}"):
                turn = answers(s, [first, typed])[1]
                state = [e for e in turn if e["type"] == "state"]
                assert len(state) == 1 and turn[-1]["type"] in ("prompt", "ending")
                errors = [e for e in turn if e["type"] == "error"]
                where = (story_id, typed)
                if name == "sheet" and story_id == "deep_sea_atelier":
                    assert not errors, (where, errors)
                    text = "\n".join(e["text"] for e in turn if e["type"] == "narration")
                    assert "黒田 剛" in text and "技能" in text and "HP 12/12" in text, where
                    continue
                assert len(errors) == 1, (where, turn)
                err = errors[0]
                assert err["code"] == ("no_sheet" if name == "sheet" else "console_only"), where
                assert "\n" not in err["message"] and len(err["message"]) < 160, where
                assert "understand" not in err["message"], where
                if name != "sheet":
                    assert "console" in err["message"] and err["data"] == {"command": name}
                # nothing happened: the same turn, node and variables as before the line
                before = [e for e in answers(s, [first])[0] if e["type"] == "state"][0]
                assert state[0] == before, where


def test_sheet_before_a_character_is_chosen_says_so() -> None:
    turn = answers(story("deep_sea_atelier"), ["sheet"])[0]
    err = next(e for e in turn if e["type"] == "error")
    assert err["code"] == "no_sheet" and "choose a character first" in err["message"]


def test_a_story_action_of_that_name_wins(tmp_path) -> None:
    (tmp_path / "s.yaml").write_text(
        "story: {id: s, title: s, language: en, rules: none, start: a}\nnodes:\n  a:\n"
        "    title: A\n    narration: [A room.]\n    actions:\n"
        "      - {id: look, label: look, goto: b}\n"
        "  b:\n    title: B\n    narration: [Another.]\n    actions:\n"
        "      - {id: e, label: leave, end: out}\nendings:\n  out: {kind: good, title: End}\n",
        encoding="utf-8",
    )
    s = load(tmp_path / "s.yaml")
    plain, marked = answers(s, ["look", "/look"])
    assert [e["node"] for e in plain if e["type"] == "state"] == ["b"]
    assert [e.get("code") for e in marked if e["type"] == "error"] == ["console_only"]


def test_sheet_over_the_command_line(home) -> None:
    out = katari("play", "deep_sea_atelier", "--jsonl", "--seed", "1", stdin="1\nsheet\n:sheet\n")
    assert out.returncode == 0, out.stderr
    evs = [json.loads(x) for x in out.stdout.splitlines()]
    assert not [e for e in evs if e["type"] == "error"]
    assert sum("技能" in e.get("text", "") for e in evs) == 2
