"""A bug inside a rule system's hook is traced to the hook, not blamed on the story (#14: a
newcomer's KeyError read "story error: under.roll(): 'x'", an AttributeError "internal error
(AttributeError): the command did not run", naming neither hook nor line).

The player sees one line naming the hook and the exception, and the game goes on;
``KATARI_DEBUG=1`` adds the traceback on standard error. The rule system is installed the
way an installed distribution is found (a ``*.dist-info/entry_points.txt`` on the path)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SYSTEM = '''\
from runner.rules.base import RuleSystem

SYSTEM = RuleSystem("buggy", "a rule system with bugs in it")


@SYSTEM.hook()
def lookup(ctx):
    """Reads a key that is not there."""
    return {}["x"]


@SYSTEM.hook()
def attr(ctx):
    """Uses a Context member that does not exist."""
    return ctx.nothing


@SYSTEM.hook()
def count(ctx, n):
    """Fine: adds n to the counter."""
    ctx.state.vars["n"] = ctx.state.vars.get("n", 0) + n
'''

STORY = """\
story: {id: bugs, title: Bugs, language: en, rules: buggy, start: room}
variables: {n: 0}
nodes:
  room:
    narration: [A room.]
    actions:
      - {id: a, label: Look up, effects: [{do: "buggy.lookup()"}]}
      - {id: b, label: Reach, effects: [{do: "buggy.attr()"}]}
      - {id: c, label: Count, effects: [{do: "buggy.count(1)"}], say: Counted.}
      - {id: out, label: Leave, end: gone}
endings:
  gone: {kind: good, title: Gone}
"""


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    site = tmp_path_factory.mktemp("site")
    (site / "katari_buggy").mkdir()
    (site / "katari_buggy" / "__init__.py").write_text(SYSTEM, encoding="utf-8")
    info = site / "katari_buggy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: katari-buggy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[katari.rules]\nbuggy = katari_buggy:SYSTEM\n")
    (site / "story.yaml").write_text(STORY, encoding="utf-8")
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KATARI_DEBUG")}
    e.update(PYTHONPATH=str(site), KATARI_HOME=str(site / "home"), KATARI_LANG="en")
    return e


def play(env: dict[str, str], commands: str, **extra: str) -> tuple[list[dict], str]:
    story = str(Path(env["PYTHONPATH"]) / "story.yaml")
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", story, "--jsonl", "--new"],
        input=commands,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**env, **extra},
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(ln) for ln in r.stdout.splitlines()], r.stderr


def test_a_failing_hook_is_named_with_its_exception_and_costs_only_the_command(env) -> None:
    events, err = play(env, "c\na\nb\nc\nout\n")
    errors = [e["message"] for e in events if e["type"] == "error"]
    assert errors == [
        "rule hook buggy.lookup() failed (KeyError: 'x'): a bug in the rule system, not the"
        " story; the command did not run (KATARI_DEBUG=1 prints the traceback)",
        "rule hook buggy.attr() failed (AttributeError: 'Ctx' object has no attribute"
        " 'nothing'): a bug in the rule system, not the story; the command did not run"
        " (KATARI_DEBUG=1 prints the traceback)",
    ]
    assert "story error" not in json.dumps(events)
    assert "Traceback" not in err  # players see one line
    # The game went on: both counts ran, the failed commands changed nothing.
    states = [e for e in events if e["type"] == "state"]
    assert events[-1]["type"] == "ending" and events[-1]["id"] == "gone"
    assert [e["text"] for e in events if e["type"] == "narration"].count("Counted.") == 2
    assert len(states) == 6


def test_katari_debug_prints_the_traceback_to_the_hooks_line(env) -> None:
    events, err = play(env, "b\n", KATARI_DEBUG="1")
    msg = next(e["message"] for e in events if e["type"] == "error")
    assert msg.startswith("rule hook buggy.attr() failed (AttributeError:")
    assert "KATARI_DEBUG" not in msg  # already asked for
    assert "Traceback (most recent call last)" in err
    assert "katari_buggy/__init__.py" in err and "return ctx.nothing" in err


def test_the_console_says_one_line_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same bug at the console: one line, the game goes on (no traceback, no exit)."""
    import io
    import re
    import types

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    import runner.rules as registry
    from runner.story import load
    from runner.ui.console import Repl

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KATARI_DEBUG", raising=False)
    module = types.ModuleType("katari_buggy_inline")
    exec(SYSTEM, module.__dict__)  # noqa: S102 - the test's own rule system, above
    found = dict(registry._found())
    found["buggy"] = types.SimpleNamespace(name="buggy", value="katari_buggy:SYSTEM", dist=None)
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setitem(registry._loaded, "buggy", module.SYSTEM)
    (tmp_path / "story.yaml").write_text(STORY, encoding="utf-8")
    story = load(tmp_path / "story.yaml")
    buf = io.StringIO()
    out = Vt100_Output(buf, lambda: Size(rows=40, columns=200), term="xterm", enable_cpr=False)
    with create_pipe_input() as inp:
        inp.send_text("".join(f"{k}\r" for k in ["b", "c", "quit"]))
        with create_app_session(input=inp, output=out):
            assert Repl(story, use_prompt_toolkit=True, color=False, lang="en").run() == 0
    screen = re.sub(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\r", "", buf.getvalue())
    flat = " ".join(screen.split())
    assert "rule hook buggy.attr() failed (AttributeError: 'Ctx' object has no attribute" in flat
    assert "Traceback" not in screen
    assert flat.index("buggy.attr() failed") < flat.index("Counted.")  # and the game went on
