"""`katari simulate` for CI and for big sweeps (#15): the seed and commands of every stuck game
(and `katari play --replay-commands` to play it again), `--fail-under` coverage thresholds,
line coverage, and `--jobs N` (the report is the same for any N)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A story where the dice decide: a 6 on the jump drops you in a pit with no way out.
PIT = textwrap.dedent("""\
    story: {id: pit, title: Pit, start: a, language: en}
    variables: {r: 0, rope: false}
    nodes:
      a:
        narration:
          - A ledge over the dark.
          - {text: "You hear the rope creak.", when: "rope"}
        actions:
          - id: jump
            label: jump
            effects:
              - {roll: {dice: 1d6, into: r}}
              - {if: "r == 6", then: [{goto: pit}], else: [{goto: b}]}
          - {id: wait, label: wait}
      b:
        narration: Safe on the far side.
        actions:
          - {id: go, label: go on, end: out}
          - {id: back, label: back, goto: a}
      pit:
        narration: A pit with smooth walls.
        actions:
          - {id: climb, label: climb, when: "rope", goto: a}
    endings: {out: good}
    """)


def katari(
    *args: str, home: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KATARI_")}
    if home is not None:
        env["KATARI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )


def flat(text: str) -> str:
    """Console output with its line wrapping undone."""
    return " ".join(text.split())


@pytest.fixture
def pit(tmp_path: Path) -> Path:
    p = tmp_path / "pit.yaml"
    p.write_text(PIT, encoding="utf-8")
    return p


def test_stuck_games_come_with_seed_and_commands_and_replay(pit: Path, tmp_path: Path) -> None:
    fails = tmp_path / "fails"
    r = katari("simulate", str(pit), "-n", "60", "--lang", "en", "--failures", str(fails), "--json")
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert rep["endings"]["(stuck)"] == rep["failed_games"] > 0
    assert len(rep["failed_seeds"]) == rep["failed_games"] and rep["failed_seeds"] == sorted(
        rep["failed_seeds"]
    )
    assert [x["seed"] for x in rep["failures"]] == rep["failed_seeds"][: len(rep["failures"])]
    f = rep["failures"][0]
    assert f["why"] == "no_action" and f["node"] == "pit" and f["commands"][-1] == "jump"
    assert [x["seed"] for x in rep["failures"]] == sorted(x["seed"] for x in rep["failures"])
    text = katari("simulate", str(pit), "-n", "60", "--lang", "en").stdout
    assert (
        f"seed {f['seed']}: no valid action at pit ({f['turns']} turns): "
        + ", ".join(f["commands"])
        in text
    )
    assert "--replay-commands" in text
    # The file simulate wrote plays the same game again: the same seed, the same dice, the pit.
    path = fails / f"seed-{f['seed']}.txt"
    assert path.read_text(encoding="utf-8").splitlines()[-len(f["commands"]) :] == f["commands"]
    home = tmp_path / "home"
    r = katari("play", str(pit), "--replay-commands", str(path), "--lang", "en", home=home)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert (
        "A pit with smooth walls." in r.stdout
        and f"Replayed {len(f['commands'])} commands" in flat(r.stdout)
    )
    save = json.loads(
        (home / "stories" / "pit" / "saves" / "autosave.json").read_text(encoding="utf-8")
    )
    assert save["body"]["state"]["node"] == "pit" and save["body"]["seed"] == f["seed"]
    # The same commands with another seed (no 6) do not fall: it is the seed that matters.
    other = next(s for s in range(100) if s not in {x["seed"] for x in rep["failures"]} and s < 60)
    r = katari(
        "play",
        str(pit),
        "--replay-commands",
        str(path),
        "--seed",
        str(other),
        "--lang",
        "en",
        "--new",
        home=tmp_path / "home2",
    )
    assert "A pit with smooth walls." not in r.stdout


def test_replay_commands_stops_at_a_command_that_does_not_fit(pit: Path, tmp_path: Path) -> None:
    cmds = tmp_path / "c.txt"
    cmds.write_text("# seed: 0\nwait\nfly\nwait\n", encoding="utf-8")
    r = katari(
        "play", str(pit), "--replay-commands", str(cmds), "--lang", "en", home=tmp_path / "h"
    )
    assert (
        "The replay stopped at command 2 ('fly': no such action there now) after 1 commands"
        in flat(r.stdout)
    )
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe")
    r = katari("play", str(pit), "--replay-commands", str(bad), home=tmp_path / "h")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not UTF-8" in r.stderr


def test_fail_under_and_line_coverage(pit: Path) -> None:
    r = katari("simulate", str(pit), "-n", "40", "--json")
    rep = json.loads(r.stdout)
    # 'pit.climb' needs the rope nobody has; its line and the creak are never shown.
    assert rep["coverage"]["actions"] < 100 and rep["coverage"]["nodes"] == 100
    assert "a.2" in rep["unshown_lines"] and rep["lines_total"] == 4
    assert rep["coverage"]["lines"] == 75.0
    r = katari("simulate", str(pit), "-n", "40", "--fail-under", "nodes=100,lines=80")
    assert r.returncode == 1
    tail = [x for x in r.stderr.splitlines() if "fail-under" in x]
    assert tail == ["katari simulate: coverage below --fail-under: lines 75.0% < 80%"], r.stderr
    assert "a.2" in r.stdout  # the text report lists the line never shown
    assert (
        katari("simulate", str(pit), "-n", "40", "--fail-under", "85").returncode == 1
    )  # actions 80%
    assert (
        katari("simulate", str(pit), "-n", "40", "--fail-under", "nodes=100,lines=75").returncode
        == 0
    )
    r = katari("simulate", str(pit), "--fail-under", "rooms=5")
    assert r.returncode == 2 and r.stderr.count("\n") == 1


def _strip_timing(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k not in ("elapsed_s", "games_per_s")}


def test_the_report_is_the_same_for_any_number_of_jobs() -> None:
    args = [
        "simulate",
        "ureg_window_room",
        "-n",
        "700",
        "--policy",
        "explorer",
        "--chunk",
        "100",
        "--max-turns",
        "40",
    ]
    one = katari(*args, "--jobs", "1")
    two = katari(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout  # byte for byte
    assert " 1 job(s))" in one.stderr and " 2 job(s))" in two.stderr
    j1 = json.loads(katari(*args, "--jobs", "1", "--json").stdout)
    j3 = json.loads(katari(*args, "--jobs", "3", "--json").stdout)
    assert _strip_timing(j1) == _strip_timing(j3)
    assert j1["chunk"] == 100 and sum(j1["endings"].values()) == 700


def test_ray_cluster_gives_the_same_report(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'katari[cluster]')")
    args = [
        "simulate",
        "ureg_window_room",
        "-n",
        "300",
        "--chunk",
        "100",
        "--max-turns",
        "40",
        "--json",
    ]
    local = json.loads(katari(*args, "--jobs", "1").stdout)
    r = katari(*args, "--cluster", "ray")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _strip_timing(json.loads(r.stdout)) == _strip_timing(local)


def test_sweep_tabulates_endings_per_option_value(tmp_path: Path) -> None:
    story = tmp_path / "coin.yaml"
    story.write_text(
        textwrap.dedent("""\
        story: {id: coin, title: Coin, start: a, language: en, options: {bias: 1}}
        variables: {r: 0}
        nodes:
          a:
            actions:
              - id: toss
                label: toss
                effects:
                  - {roll: {dice: 1d6, into: r}}
                  - {if: "r <= 3", then: [{end: heads}], else: [{end: tails}]}
        endings: {heads: good, tails: bad}
        """),
        encoding="utf-8",
    )
    # `bias` is an option no rule reads: every row plays the same games, so the same endings.
    r = katari("sweep", str(story), "--set", "bias=1,2", "-n", "100", "--lang", "en")
    assert r.returncode == 0, r.stderr
    rows = [x.split() for x in r.stdout.splitlines() if x[:1] in ("1", "2")]
    assert len(rows) == 2 and rows[0][1:] == rows[1][1:]
    # A real one: the bomb explodes after `strikes` mistakes; more strikes, longer games.
    r = katari("sweep", "dungeon_2f", "--set", "strikes=1,3", "-n", "150", "--json")
    res = json.loads(r.stdout)
    assert res["options"] == ["strikes"] and [row["set"] for row in res["rows"]] == [
        {"strikes": 1},
        {"strikes": 3},
    ]
    assert all(sum(row["endings"].values()) == 150 for row in res["rows"])
    assert res["rows"][0]["turns"]["mean"] < res["rows"][1]["turns"]["mean"]
    two = json.loads(
        katari(
            "sweep", "dungeon_2f", "--set", "strikes=1,3", "-n", "150", "--json", "--jobs", "2"
        ).stdout
    )
    assert two == res
    # A value the rules refuse, and a --set without values: one line each, exit 2.
    r = katari("sweep", "dungeon_2f", "--set", "strikes=0")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "strikes" in r.stderr, r.stderr
    r = katari("sweep", "dungeon_2f", "--set", "strikes")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
