"""Automated play: reports on the sample and on small stories built to show each finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.authoring.simulate import format_report, simulate
from runner.cli import main
from runner.stories import shipped
from runner.story import load

SAMPLE = Path(__file__).resolve().parent.parent / "stories" / "ureg_window_room"


def story(tmp: Path, text: str):
    p = tmp / "story.yaml"
    p.write_text(text, encoding="utf-8")
    return load(p)


def test_sample_report() -> None:
    s = load(SAMPLE)
    rep = simulate(s, 200, seed=7, policy="explorer")
    assert sum(rep.endings.values()) == 200
    assert set(rep.endings) <= {"escaped", "gave_up", "(stuck)", "(turn cap)", "(error)"}
    assert rep.endings.get("escaped", 0) > 0 and rep.endings.get("gave_up", 0) > 0
    assert rep.unreached_nodes == [] and rep.unreached_endings == []
    assert 1 <= rep.turns["min"] <= rep.turns["mean"] <= rep.turns["max"]
    climb = [c for c in rep.checks if c["check"].startswith("room.climb")]
    assert climb and set(climb[0]["outcomes"]) <= {"success", "failure"}
    text = format_report(rep, "ja")
    assert "エンディング" in text and "escaped" in text
    assert "endings" in format_report(rep, "en")


def test_same_seed_same_report_other_seed_other_games() -> None:
    s = load(SAMPLE)
    a = simulate(s, 60, seed=3).to_dict(timing=False)
    b = simulate(s, 60, seed=3).to_dict(timing=False)
    c = simulate(s, 60, seed=4).to_dict(timing=False)
    assert a == b
    assert a != c


@pytest.mark.parametrize("path", shipped(), ids=[p.name for p in shipped()])
def test_every_shipped_story_simulates_without_story_errors(path: Path) -> None:
    rep = simulate(load(path), 20, seed=1, max_turns=300)
    assert rep.errors == []
    assert sum(rep.endings.values()) == 20


def test_stuck_places_and_loops_are_found(tmp_path: Path) -> None:
    s = story(
        tmp_path,
        """\
story: {id: t, title: t, start: a}
variables: {fuel: 1}
nodes:
  a:
    actions:
      - {label: burn, when: "fuel > 0", effects: [{add: {fuel: -1}}], goto: pit}
      - {label: loop, goto: b}
  pit:
    actions:
      - {label: climb, when: "fuel > 0", end: out}
  b:
    actions:
      - {label: back, goto: c}
  c:
    actions:
      - {label: again, goto: b}
      - {label: leap, when: "fuel > 5", end: out}
endings: {out: good}
""",
    )
    # b and c have a way out on paper (so the check, which refuses a loop with none, lets
    # the story in), never open in play: only simulate finds that games go round there.
    rep = simulate(s, 40, seed=0, max_turns=30)
    whys = {(x["node"], x["why"]) for x in rep.stuck}
    assert ("pit", "no_action") in whys
    assert any(why == "turn_cap" and node in ("b", "c") for node, why in whys)
    assert rep.endings["(stuck)"] + rep.endings["(turn cap)"] == 40
    (out,) = rep.unreached_endings
    assert out["id"] == "out" and out["reason"] == "never_offered" and out["detail"] == "pit.climb"


def test_unreached_ending_behind_a_failing_condition(tmp_path: Path) -> None:
    s = story(
        tmp_path,
        """\
story: {id: t, title: t, start: a}
variables: {x: 0}
nodes:
  a:
    actions:
      - label: try
        check: "x > 5"
        outcomes: {success: {end: win}, failure: {say: no}}
      - {label: quit, end: lose}
endings: {win: good, lose: bad}
""",
    )
    rep = simulate(s, 30, seed=0)
    (win,) = rep.unreached_endings
    assert win["reason"] == "condition_never_true" and "a.try" in win["detail"]
    (chk,) = rep.checks
    assert chk["outcomes"] == {"failure": chk["count"]} and chk["success_rate"] == 0.0


def test_rolls_are_counted_and_policies_differ(tmp_path: Path) -> None:
    s = story(
        tmp_path,
        """\
story: {id: t, title: t, start: a}
variables: {r: 0}
nodes:
  a:
    actions:
      - {label: roll, effects: [{roll: {dice: 1d6, into: r, label: luck}}]}
      - {label: left, goto: l}
      - {label: right, goto: r1}
      - {label: quit, end: done}
  l:
    actions: [{label: back, goto: a}]
  r1:
    actions: [{label: back, goto: a}, {label: on, goto: r2}]
  r2:
    actions: [{label: back, goto: a}]
endings: {done: normal}
""",
    )
    rnd = simulate(s, 50, seed=2, policy="random")
    greedy = simulate(s, 50, seed=2, policy="greedy")
    assert rnd.rolls and rnd.rolls[0]["label"] == "luck"
    assert greedy.unreached_nodes == []
    assert simulate(s, 50, seed=2, policy="explorer").untaken_actions == []


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(SAMPLE), "--runs", "30", "--seed", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["runs"] == 30 and sum(data["endings"].values()) == 30
    assert data["games_per_s"] > 0
    assert main(["simulate", str(SAMPLE), "--runs", "0"]) == 2


def test_ring_benchmark_story_has_the_ink_shape(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    from ring import ring_story_yaml

    s = story(tmp_path, ring_story_yaml(50))
    assert len(s.nodes) == 50
    k7 = s.nodes["k7"]
    assert [a.id for a in k7.actions] == ["go", "search", "pay", "rest"]
    from runner.authoring.graph import action_targets

    assert [sorted(action_targets(a)) for a in k7.actions] == [
        ["k8"],
        ["k2"],
        ["k46"],
        ["end", "k0"],
    ]
    rep = simulate(s, 30, seed=0)
    assert rep.endings == {"end": 30} and rep.rolls[0]["label"] == "1d6"


def _simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _simulate_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["simulate", *args]) == 0
    return capsys.readouterr().out


def test_an_ending_the_rules_reach_is_explained_by_the_rules_not_a_when(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """dungeon_2f's `defused`: every button ends there `if: ktane.solved()` (the module's
    state, which the ktane rules keep); no action has a `when`. The reason names those ways
    and the rules' condition, and never a 'when' the story does not have."""
    rep = _simulate_json(capsys, "dungeon_2f", "-n", "30")
    (u,) = [x for x in rep["unreached_endings"] if x["id"] == "defused"]
    assert u["reason"] == "needs_rules_input", u
    ways = {(w["kind"], w["src"], w["action"], w["cond"]) for w in u["how"]}
    assert ways == {
        ("action", "module", a, "ktane.solved()")
        for a in ("forward", "left", "right", "sword", "shield")
    }
    for lang, when in (("en", "'when'"), ("ja", "when が")):
        text = _simulate_text(capsys, "dungeon_2f", "-n", "30", "--lang", lang)
        (line,) = [ln for ln in text.splitlines() if ln.strip().startswith("defused:")]
        assert when not in line, line
        assert "ktane.solved()" in line and "module.forward" in line, line


def test_an_ending_only_the_rules_fire_says_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """ureg_glass_greenhouse's `time_up` is declared under options: endings (the rules end the
    game there, from anywhere): its way is the rules, its reason the rules' own."""
    rep = _simulate_json(capsys, "ureg_glass_greenhouse", "-n", "5")
    (u,) = [x for x in rep["unreached_endings"] if x["id"] == "time_up"]
    assert u["reason"] == "rules_never_ended" and [w["kind"] for w in u["how"]] == ["rules"]
    text = _simulate_text(capsys, "ureg_glass_greenhouse", "-n", "5", "--lang", "en")
    (line,) = [ln for ln in text.splitlines() if ln.strip().startswith("time_up:")]
    assert "the rules never ended the game here" in line and "the rules (ureg)" in line, line


def test_an_action_without_when_never_offered_is_not_said_to_have_one(tmp_path: Path) -> None:
    """A hidden action (typed only, never offered) has no `when`: the reason does not say it
    has; one with a `when` that never holds is said to."""
    text = """\
story: {id: t, title: t, start: a}
nodes:
  a:
    actions:
      - {label: secret, hidden: true, end: win}
      - {label: quit, end: lose}
endings: {win: good, lose: bad}
"""
    rep = simulate(story(tmp_path, text), 20, seed=0)
    (win,) = rep.unreached_endings
    assert win["reason"] == "never_offered_other" and win["detail"] == "a.secret", win
    line = format_report(rep, "en").split("win: ")[1].splitlines()[0]
    assert "'when'" not in line and "action a.secret" in line, line
    rep = simulate(story(tmp_path, text.replace("hidden: true", 'when: "false"')), 20, seed=0)
    (win,) = rep.unreached_endings
    assert win["reason"] == "never_offered", win
    line = format_report(rep, "en").split("win: ")[1].splitlines()[0]
    assert "'when' was never true" in line and "action a.secret if false" in line, line
