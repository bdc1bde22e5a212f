"""Saves survive edits (#15): a save made on an older version of a story is replayed on the new
one (seed and commands), renamed by `migrations:`, and the console says where it first goes
differently or which command no longer fits, instead of refusing the save."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

V1 = textwrap.dedent("""\
    story: {id: harbour, title: Harbour, rules: none, start: quay, language: en, version: 1}
    variables: {gold: 0}
    nodes:
      quay:
        title: The quay
        narration: Gulls over the quay.
        actions:
          - {id: down, label: Go down the steps, effects: [{add: {gold: 1}}], goto: cellar}
          - {id: leave, label: Leave, end: gone}
      cellar:
        title: The cellar
        narration: Barrels in the dark.
        actions:
          - {id: open, label: Open a barrel, effects: [{add: {gold: 2}}]}
          - {id: up, label: Climb up, goto: quay}
    endings: {gone: {kind: normal, title: Gone}}
    """)


def _env(home: Path) -> dict:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(home),
        "COLUMNS": "200",
    }


def _play(story: Path, home: Path, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", "play", str(story), "--lang", "en", *extra],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(home),
        timeout=120,
    )


def flat(text: str) -> str:
    """Console output with its line wrapping undone."""
    return " ".join(text.split())


def _saves(home: Path) -> Path:
    return home / "stories" / "harbour" / "saves"


def _first_game(tmp_path: Path) -> tuple[Path, Path]:
    d = tmp_path / "harbour"
    d.mkdir()
    (d / "story.yaml").write_text(V1, encoding="utf-8")
    home = tmp_path / "home"
    r = _play(d, home, "down\nopen\n", "--seed", "3")
    assert r.returncode == 0, r.stderr
    body = json.loads((_saves(home) / "autosave.json").read_text(encoding="utf-8"))["body"]
    assert body["story_version"] == "1" and body["state"]["node"] == "cellar"
    return d, home


def test_a_renamed_node_with_a_migration_resumes_the_same_game(tmp_path: Path) -> None:
    d, home = _first_game(tmp_path)
    v2 = (
        V1.replace("version: 1", "version: 2").replace("cellar", "basement")
        + "migrations:\n  - {version: 2, nodes: {cellar: basement}, variables: {}}\n"
    )
    v2 = v2.replace("gold", "coins")
    v2 += "  - {version: 2, variables: {gold: coins}}\n"
    (d / "story.yaml").write_text(v2, encoding="utf-8")
    r = _play(d, home, "y\nstatus\n")
    out = flat(r.stdout)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "the story has changed" in out
    assert "all 2 commands replay the same way" in out, out
    assert "Barrels in the dark." in out  # resumed in the renamed node, not a new game
    assert not list(_saves(home).glob("*.broken-*")) and not list(_saves(home).glob("*.kept-*"))
    body = json.loads((_saves(home) / "autosave.json").read_text(encoding="utf-8"))["body"]
    assert body["state"]["node"] == "basement" and body["state"]["vars"]["coins"] == 3


def test_without_the_migration_the_save_is_replayed_not_refused(tmp_path: Path) -> None:
    """The issue's case: a renamed node made the save unreadable. The commands still fit."""
    d, home = _first_game(tmp_path)
    (d / "story.yaml").write_text(V1.replace("cellar", "vault"), encoding="utf-8")
    r = _play(d, home, "y\n")
    out = flat(r.stdout)
    assert "all 2 commands replay the same way" not in out
    # The saved game stood in 'cellar'; the replay stands in 'vault': from turn 1 it differs.
    assert "from turn 1 the game goes differently" in out and "cellar → vault" in out, out
    assert "Barrels in the dark." in r.stdout
    assert not list(_saves(home).glob("*.broken-*"))
    # The old file is not written over: the first autosave keeps it aside.
    r = _play(d, home, "y\nup\n")
    assert list(_saves(home).glob("autosave.kept-*.json")) or list(
        _saves(home).glob("backup*.json")
    )


def test_a_command_that_no_longer_fits_is_named(tmp_path: Path) -> None:
    d, home = _first_game(tmp_path)
    # 'open' is gone and the node renamed: the saved States cannot load, the replay stops at 2.
    edited = V1.replace("cellar", "vault").replace(
        "- {id: open, label: Open a barrel, effects: [{add: {gold: 2}}]}\n", ""
    )
    (d / "story.yaml").write_text(edited, encoding="utf-8")
    r = _play(d, home, "y\nstatus\n")
    out = flat(r.stdout)
    assert "Command 2 ('open') no longer fits the story (no such action there now)" in out, out
    assert "replayed up to turn 1" in out
    assert "Barrels in the dark." in r.stdout and "Traceback" not in r.stderr


def test_an_action_renamed_by_a_migration(tmp_path: Path) -> None:
    d, home = _first_game(tmp_path)
    edited = V1.replace("version: 1", "version: 2").replace(
        "{id: open, label: Open a barrel", "{id: pry, label: Pry a barrel open"
    )
    edited += "migrations:\n  - {version: 2, actions: {cellar.open: pry}}\n"
    (d / "story.yaml").write_text(edited, encoding="utf-8")
    r = _play(d, home, "y\n")
    assert "all 2 commands replay the same way" in flat(r.stdout), r.stdout
    body = json.loads((_saves(home) / "autosave.json").read_text(encoding="utf-8"))["body"]
    assert [c["command"] if isinstance(c, dict) else c for c in body["commands"]] == ["down", "pry"]


def test_check_reports_bad_versions_and_migrations_with_positions(tmp_path: Path) -> None:
    text = (
        V1.replace("version: 1", "version: one")
        + "migrations:\n  - {version: 2, nodes: {celar: basement}, actions: {cellar.open: pry}}\n"
        + "  - {versoin: 3}\n"
    )
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", "--json", "--no-voice", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert r.returncode == 1
    diags = json.loads(r.stdout)["diagnostics"]
    got = {(d["code"], d["line"]) for d in diags}
    lines = text.splitlines()
    ver = next(i for i, x in enumerate(lines, 1) if "version: one" in x)
    mig = next(i for i, x in enumerate(lines, 1) if "celar" in x)
    assert ("K050", ver) in got, diags
    assert sum(1 for d in diags if d["code"] == "K052" and d["line"] == mig) == 2, diags
    assert any(d["code"] == "K002" and "versoin" in d["message"] for d in diags)
    msgs = " ".join(d["message"] for d in diags)
    assert "no node or ending 'basement'" in msgs and "no action 'pry' in node 'cellar'" in msgs


def test_a_command_log_of_an_older_version_is_renamed_too(tmp_path: Path) -> None:
    d = tmp_path / "harbour"
    d.mkdir()
    edited = V1.replace("version: 1", "version: 2").replace(
        "{id: open, label: Open a barrel", "{id: pry, label: Pry the lid"
    )
    (d / "story.yaml").write_text(
        edited + "migrations:\n  - {version: 2, actions: {open: pry}}\n", encoding="utf-8"
    )
    log = tmp_path / "log.txt"
    log.write_text("# seed: 3\n# story version: 1\ndown\nopen\n", encoding="utf-8")
    r = _play(d, tmp_path / "home", "", "--replay-commands", str(log))
    assert "Replayed 2 commands (seed 3)." in flat(r.stdout), r.stdout
    body = json.loads((_saves(tmp_path / "home") / "autosave.json").read_text(encoding="utf-8"))[
        "body"
    ]
    assert body["state"]["vars"]["gold"] == 3
    # Without the version line the file is taken as written for this version: 'open' is gone.
    log.write_text("# seed: 3\ndown\nopen\n", encoding="utf-8")
    r = _play(d, tmp_path / "home2", "", "--replay-commands", str(log))
    assert "The replay stopped at command 2 ('open'" in flat(r.stdout)
