"""Checks that catch what play would (#15): hooks' argument domains, keyword arguments,
named conditions, places with no way out, endings without a kind, language codes; and
warnings that let a story in progress play. Through `katari check --json`, `play --jsonl`,
`graph`, `test` and `simulate`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_lang_text import katari, play

ROOT = Path(__file__).resolve().parent.parent


def diagnostics(tmp: Path, text: str) -> tuple[int, list[dict]]:
    p = tmp / "story.yaml"
    p.write_text(text, encoding="utf-8")
    r = katari("check", str(p), "--json", "--no-voice")
    return r.returncode, json.loads(r.stdout)["diagnostics"]


def at(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """(line, column), 1-based, of the nth occurrence of ``needle``."""
    starts = [m.start() for m in re.finditer(re.escape(needle), text)]
    i = starts[nth]
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


MISTAKES = """story: {id: m, title: M, language: en, rules: coc7, start: a, options: {pregen: 1}}
characters:
  sexton: {name: Sexton, kind: enemy, stats: {STR: 50, CON: 50, SIZ: 50, DEX: 50, HP: 10}}
nodes:
  a:
    actions:
      - {id: look, label: Look, check: "coc7.check('Spot Hiden')", outcomes: {success: {say: ok}}}
      - {id: hard, label: Hard, check: "coc7.check('目星', 'hardd')", outcomes: {success: {say: ok}}}
      - {id: san, label: San, effects: [{do: "coc7.san('1/1d')"}]}
      - {id: fight, label: Fight, effects: [{do: "coc7.start_combat('sextn')"}]}
      - {id: fine, label: Fine, check: "coc7.check('spot hidden', difficulty='hard', bonus=1)", outcomes: {success: {say: ok}}}
      - {id: out, label: Out, end: out}
endings:
  out: {kind: good, title: Out}
"""


def test_literal_arguments_outside_their_domain_are_errors_at_their_place(tmp_path: Path) -> None:
    rc, diags = diagnostics(tmp_path, MISTAKES)
    assert rc == 1
    got = {(d["line"], d["column"]): d for d in diags}
    cases = [
        ("'Spot Hiden'", "did you mean 'Spot Hidden'?"),
        ("'hardd'", "did you mean 'hard'?"),
        ("'1/1d'", "SAN loss '1/1d'"),
        ("'sextn'", "did you mean 'sexton'?"),
    ]
    for needle, words in cases:
        d = got.get(at(MISTAKES, needle))
        assert d is not None, (needle, diags)
        assert d["code"] == "K306" and d["severity"] == "error" and words in d["message"], d
    assert len(diags) == 4, diags  # the keyword-argument call with good values passes


def test_an_enemy_damage_that_is_not_dice_is_an_error(tmp_path: Path) -> None:
    text = MISTAKES.replace("HP: 10}", "HP: 10, damage: 1d}")
    rc, diags = diagnostics(tmp_path, text)
    assert rc == 1
    d = next(d for d in diags if d["code"] == "K040")
    assert (d["line"], d["column"]) == at(text, "damage: 1d") and "bad dice '1d'" in d["message"]


KWARGS = """story: {id: k, title: K, language: en, rules: coc7, start: a, options: {pregen: 1}}
nodes:
  a:
    actions:
      - {id: look, label: Look, check: "coc7.check('目星', bonsu=1)", outcomes: {success: {say: ok}}}
      - {id: two, label: Two, check: "coc7.check('目星', bonus=1, 'hard')", outcomes: {success: {say: ok}}}
      - {id: twice, label: Twice, check: "coc7.check('目星', skill='目星')", outcomes: {success: {say: ok}}}
      - {id: out, label: Out, end: out}
endings:
  out: {kind: good, title: Out}
"""


def test_keyword_arguments_are_checked(tmp_path: Path) -> None:
    rc, diags = diagnostics(tmp_path, KWARGS)
    assert rc == 1
    msgs = {(d["line"], d["column"]): d["message"] for d in diags}
    assert (
        "has no argument 'bonsu' (did you mean 'bonus'?)"
        in msgs[at(KWARGS, "coc7.check('目星', bonsu")]
    )
    assert "positional argument cannot follow a keyword" in msgs[at(KWARGS, "'hard'")]
    assert "'skill' is given twice" in msgs[at(KWARGS, "coc7.check('目星', skill")]
    assert len(diags) == 3, diags


def test_keyword_arguments_play(tmp_path: Path) -> None:
    text = KWARGS.replace("bonsu=1", "bonus=1")
    text = (
        "\n".join(ln for ln in text.splitlines() if "id: two" not in ln and "id: twice" not in ln)
        + "\n"
    )
    ev = play(_write(tmp_path, text), ["look"], 3, tmp_path)
    rolls = [e for e in ev if e["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["bonus"] == 1 and len(rolls[0]["dice"]) == 3, rolls


def test_shipped_stories_use_no_placeholder_arguments() -> None:
    for f in (ROOT / "stories").rglob("*.yaml"):
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"\.\w+\([^)]*, ''\s*,", text), f  # ('x', '', 'y'): name the argument


def _write(tmp: Path, text: str) -> Path:
    p = tmp / "story.yaml"
    p.write_text(text, encoding="utf-8")
    return p


CONDS = """story: {id: c, title: C, language: en, rules: none, start: a}
variables: {coins: 3, rich: false}
conditions:
  rich: "coins > 2"
  loop_a: "loop_b and coins > 0"
  loop_b: "loop_a"
  fine: "coins > 0"
nodes:
  a:
    actions:
      - {id: out, label: Out, when: "fine and not loop_a", end: out}
      - {id: bad, label: Bad, effects: [{set: {fine: true}}]}
endings:
  out: {kind: good, title: Out}
"""


def test_named_conditions_are_checked(tmp_path: Path) -> None:
    rc, diags = diagnostics(tmp_path, CONDS)
    assert rc == 1
    by = {(d["line"], d["column"]): d for d in diags}
    assert by[at(CONDS, "rich:", 1)]["code"] == "K004"
    assert "uses itself: loop_a → loop_b → loop_a" in by[at(CONDS, "loop_a:")]["message"]
    assert "unknown variable 'fine'" in by[at(CONDS, "fine: true")]["message"]


TRAP = """story: {id: t, title: T, language: english, rules: none, start: a}
nodes:
  a:
    actions:
      - {id: in, label: Go in, goto: b}
      - {id: out, label: Leave, end: out}
  b:
    actions:
      - {id: on, label: On, goto: c}
  c:
    actions:
      - {id: back, label: Back, goto: b}
endings:
  out: {kind: good, title: Out}
  odd: {title: Odd}
"""


def test_no_way_out_ending_without_kind_and_language_name_are_errors(tmp_path: Path) -> None:
    text = TRAP.replace(
        "      - {id: out, label: Leave, end: out}",
        "      - {id: out, label: Leave, end: out}\n      - {id: odd, label: Odd, end: odd}",
    )
    rc, diags = diagnostics(tmp_path, text)
    assert rc == 1
    by = {(d["line"], d["column"]): d for d in diags}
    trap = by[at(text, "b:\n")]
    assert trap["code"] == "K036" and "from b, c" in trap["message"] and trap["severity"] == "error"
    assert "needs a kind" in by[at(text, "odd: {title")]["message"]
    lang = by[at(text, "english")]
    assert lang["code"] == "K005" and "did you mean 'en'?" in lang["message"]
    assert len(diags) == 3, diags


WIP = """story: {id: wip, title: W, language: en, rules: none, start: a}
nodes:
  a:
    narration: [Start.]
    actions:
      - {id: out, label: Leave, end: out}
  later:
    narration: [Not linked yet.]
    actions:
      - {id: x, label: X, end: out}
endings:
  out: {kind: good, title: Out}
  unused: {kind: bad, title: Unused}
"""


def test_unreachable_is_a_warning_and_every_command_runs(tmp_path: Path) -> None:
    rc, diags = diagnostics(tmp_path, WIP)
    assert rc == 0
    assert {(d["code"], d["severity"], d["line"]) for d in diags} == {
        ("K034", "warning", at(WIP, "later:")[0]),
        ("K035", "warning", at(WIP, "unused:")[0]),
    }
    story = tmp_path / "story.yaml"
    ev = play(story, ["out"], 1, tmp_path)
    assert ev[-1]["type"] == "ending" and ev[-1]["id"] == "out"
    r = katari("graph", str(story), "-o", str(tmp_path / "map.html"), home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "later" in (tmp_path / "map.html").read_text(encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.yaml").write_text(
        "- name: leaves\n  commands: [out]\n  expect: {ending: out}\n", encoding="utf-8"
    )
    r = katari("test", str(tmp_path), home=tmp_path)
    assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout + r.stderr
    r = katari("simulate", str(tmp_path), "--runs", "5", "--jobs", "1", home=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
