"""A rule system from another distribution plugs in through the ``katari.rules`` entry points
(#14 item 2).

``tests/data/twodice`` is a separate distribution (its own pyproject.toml declaring
``twodice = "katari_twodice:SYSTEM"``), the worked example of docs/rules-api.md: two hooks,
2d6 against a target. It is installed with pip into a folder of its own, and `katari` run
with that folder on PYTHONPATH finds it, lists it, checks a story that uses it, plays that
story headless, offers its template, and shows its view with its own labels. A declared
system that cannot be loaded is one clear line, never a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "tests" / "data" / "twodice"
STORY = DIST / "story"


def _env(extra: Path, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(extra), KATARI_HOME=str(home), KATARI_LANG="en")
    return env


def katari(
    env: dict[str, str], *args: str, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=cwd or ROOT,
        timeout=300,
    )


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose PYTHONPATH holds the installed twodice distribution."""
    tmp = tmp_path_factory.mktemp("plugin")
    src = tmp / "src"
    shutil.copytree(DIST, src, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = tmp / "site"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            str(target),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert list(target.glob("katari_twodice-*.dist-info"))
    return _env(target, tmp / "home")


def test_katari_rules_lists_the_installed_system(plugin) -> None:
    r = katari(plugin, "rules", "--lang", "en")
    assert r.returncode == 0, r.stderr
    rows = dict(
        line.split(None, 1) for line in r.stdout.splitlines() if line and not line.startswith(" ")
    )
    assert rows["twodice"] == "2d6 against a target"
    assert {"coc7", "ureg", "ktane", "none"} <= set(rows)  # Katari's own, found the same way
    r = katari(plugin, "rules", "twodice")
    assert r.returncode == 0, r.stderr
    # Each hook: its signature with defaults, then its docstring's whole first paragraph
    # (not its first line, cut mid-sentence).
    assert "  twodice.test(target, label='')\n      Rolls 2d6: `success` when" in r.stdout
    text = " ".join(r.stdout.split())
    assert "else `failure` (and a point of grit is lost). twodice.grit()" in text
    assert "  twodice.grit()\n      The grit left: three at the start" in r.stdout


def test_katari_check_passes_and_uses_the_systems_declarations(plugin, tmp_path: Path) -> None:
    r = katari(plugin, "check", str(STORY))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok" in r.stdout
    # The hook declares its outcome keys: a misspelt one is a warning at its place.
    bad = tmp_path / "bad"
    shutil.copytree(STORY, bad)
    text = (bad / "story.yaml").read_text(encoding="utf-8")
    (bad / "story.yaml").write_text(
        text.replace("success: {say", "sucess: {say").replace(
            "twodice.grit() < 3", "twodice.grt() < 3"
        ),
        encoding="utf-8",
    )
    r = katari(plugin, "check", str(bad))
    assert r.returncode == 1
    assert "unknown function 'twodice.grt' (did you mean 'twodice.grit'?)" in r.stdout
    # (The unknown function stops the load; fix it and the outcome warning shows.)
    (bad / "story.yaml").write_text(text.replace("success: {say", "sucess: {say"), encoding="utf-8")
    r = katari(plugin, "check", str(bad))
    assert (
        "story.yaml:19:11: outcome 'sucess' can never happen: this check gives failure, success"
        in r.stdout
    )
    assert r.returncode == 0 and "(warning)" in r.stdout
    # Without the distribution the same story names a rule system that is not installed.
    r = katari({**plugin, "PYTHONPATH": ""}, "check", str(STORY))
    assert r.returncode == 1 and "unknown rule system 'twodice'" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr


def test_an_ending_only_the_rules_reach_is_declared_in_options(plugin, tmp_path: Path) -> None:
    """``options: {endings: ...}`` tells check and graph which endings the rules fire."""
    r = katari(plugin, "check", str(STORY))
    assert r.returncode == 0 and "warning" not in r.stdout, r.stdout
    r = katari(plugin, "graph", str(STORY), "-f", "mermaid")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    tired = next(ln.split("(")[0].strip() for ln in lines if "Too tired" in ln)
    assert any(ln.strip().startswith("r0>") and "twodice" in ln for ln in lines)
    assert f'  r0 -.->|"exhausted"| {tired}' in lines  # drawn as reached by the rules
    # Without the declaration the ending looks unreachable, and the warning says the fix.
    bare = tmp_path / "bare"
    shutil.copytree(STORY, bare)
    text = (bare / "story.yaml").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if "options:" not in ln]
    (bare / "story.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = katari(plugin, "check", str(bare))
    assert (
        "ending 'tired' cannot be reached from the start 'wall'; if the rules end the game"
        " there, declare it under story: options: {endings: {tired: tired}} (warning)"
    ) in r.stdout


def _play(env: dict[str, str], seed: int, commands: list[str]) -> list[dict]:
    r = katari(
        env,
        "play",
        str(STORY),
        "--jsonl",
        "--seed",
        str(seed),
        "--new",
        stdin="".join(c + "\n" for c in commands),
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_a_story_on_the_system_plays_headless_to_an_ending(plugin) -> None:
    # Three failed climbs (the faces given as a table's real dice): out of grit, too tired.
    events = _play(plugin, 1, [":dice 1,2", "climb", ":dice 2,2", "climb", ":dice 3,1", "climb"])
    rolls = [e for e in events if e["type"] == "roll"]
    states = [e for e in events if e["type"] == "state"]
    assert states[0]["twodice"] == {"grit": 3}  # its init, through its view
    assert [(r["expr"], r["dice"], r["total"], r["target"]) for r in rolls] == [
        ("2d6", [1, 2], 3, 8),
        ("2d6", [2, 2], 4, 8),
        ("2d6", [3, 1], 4, 8),
    ]
    assert [s["twodice"]["grit"] for s in states if s["twodice"]["grit"] < 3] == [2, 2, 1, 1, 0]
    prompts = [[a["id"] for a in e["actions"]] for e in events if e["type"] == "prompt"]
    assert prompts == [["climb"]] * 2 + [["climb", "rest"]] * 4  # (each :dice line is a turn too)
    assert events[-1] == {"type": "ending", "id": "tired", "kind": "bad", "title": "Too tired"}
    # The hook itself ended the game (ctx.end): the ending's narration, not the outcome's.
    said = [e["text"] for e in events if e["type"] == "narration"]
    assert said[-2:] == ["You slide back down.", "You sit down at the foot of the wall."]
    assert said.count("You slide back down.") == 2
    # A failure, then a 6 and a 5: over the wall with grit to spare.
    events = _play(plugin, 1, [":dice 1,1", "climb", ":dice 6,5", "climb"])
    assert events[-2]["twodice"] == {"grit": 2} and events[-2]["ending"] == "over"
    assert events[-1] == {"type": "ending", "id": "over", "kind": "good", "title": "Over the wall"}
    # By the seed alone, the same game each time.
    assert _play(plugin, 5, ["climb"] * 3) == _play(plugin, 5, ["climb"] * 3)


def test_its_labels_and_its_template(plugin, tmp_path: Path) -> None:
    code = (
        "from types import SimpleNamespace as N\n"
        "from runner.ui.render import status_items\n"
        "ev = {'type': 'state', 'node': 'wall', 'title': 'Wall', 'twodice': {'grit': 2}}\n"
        "for lang in ('ja', 'en'):\n"
        "    print(dict(status_items(ev, N(rules='twodice', variables={}), lang)))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=plugin, timeout=120
    )
    assert r.returncode == 0, r.stderr
    ja, en = r.stdout.splitlines()
    assert "'気力': '2'" in ja and "'grit': '2'" in en
    r = katari(plugin, "new", "climb", "--rules", "twodice", "--dir", str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "rules: twodice" in (tmp_path / "climb" / "story.yaml").read_text(encoding="utf-8")
    r = katari(plugin, "check", str(tmp_path / "climb"))
    assert r.returncode == 0, r.stdout + r.stderr
    r = katari(plugin, "test", str(tmp_path / "climb"))
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_declared_system_that_cannot_load_is_one_line(tmp_path: Path) -> None:
    """A fourth rule system half made (declared, its module missing) is reported, not a crash:
    the registry is the only list, so nothing else can disagree with it."""
    site = tmp_path / "site"
    info = site / "katari_broken-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: katari-broken\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[katari.rules]\nbroken = katari_broken_missing:SYSTEM\n"
    )
    story = tmp_path / "s"
    story.mkdir()
    (story / "story.yaml").write_text(
        "story: {id: s, title: S, rules: broken, start: a}\n"
        "nodes: {a: {narration: [x], actions: [{id: go, label: Go, end: e}]}}\n"
        "endings: {e: {kind: good, title: E}}\n",
        encoding="utf-8",
    )
    env = _env(site, tmp_path / "home")
    r = katari(env, "check", str(story))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    assert (
        "rule system 'broken' (katari_broken_missing:SYSTEM) cannot be loaded: ModuleNotFoundError"
        in r.stdout
    )
    r = katari(env, "rules", "--lang", "en")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "broken   (cannot be loaded: " in r.stdout and "coc7" in r.stdout
    r = katari(env, "schema")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "broken" in json.loads(r.stdout)["properties"]["story"]["properties"]["rules"]["enum"]


def test_simulate_reports_in_the_storys_language_and_names_checks_the_rules_ended(
    plugin,
) -> None:
    """An English story gets an English report without --lang (as play and test do), and a
    check during which the hook ended the game (ctx.end) is counted as →ENDING, explained."""
    env = {k: v for k, v in plugin.items() if k != "KATARI_LANG"}
    r = katari(env, "simulate", str(STORY), "--runs", "200", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "wall_climb: 200 games" in out and "check outcomes (1):" in out, out
    tally = next(ln for ln in out.splitlines() if ln.startswith("  wall.climb:"))
    assert "→tired " in tally and "?" not in tally, tally
    assert "(→ID: the rules ended the game during the check (at ending ID; no outcome ran))" in out
    r = katari(env, "simulate", str(STORY), "--runs", "20", "--jobs", "1", "--lang", "ja")
    assert "判定の結果" in r.stdout
