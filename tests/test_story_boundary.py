"""The engine and the loader meet at a small public door: no YAML on the play path.

`import runner.engine` imports neither PyYAML nor the loader, and a game played through the
engine's API (a story loaded by the fast pass, rule data compiled to effects at play time)
never imports PyYAML: the engine compiles a rule system's effect data through
:func:`runner.story.effects.compile_effects`, not through the loader's internals.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.story import load
from runner.story.effects import EffectError, compile_effects

ROOT = Path(__file__).resolve().parent.parent
ROOM = ROOT / "stories" / "ureg_window_room"


def _fresh(code: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_engine_imports_no_yaml_and_no_loader() -> None:
    got = _fresh(
        "import json, sys\nimport runner.engine\n"
        "print(json.dumps({'yaml': 'yaml' in sys.modules, 'loader': 'runner.story.loader' in sys.modules}))"
    )
    assert got == {"yaml": False, "loader": False}


def test_a_game_played_through_the_engine_api_never_imports_yaml() -> None:
    # A rule system hands the engine effects as data (an obstacle's ``effects:``): the engine
    # compiles them at play time (ctx.run_effects), the path that reached into the loader before.
    code = f"""
import json, sys
from runner.engine import new_game, step
from runner.engine.engine import Ctx
from runner.rules.dice import SeededDice
from runner.story import load
story = load({str(ROOM)!r})
state, events = new_game(story, seed=1)
Ctx(story, state.fork(), False, SeededDice(0)).run_effects([{{"set": {{"ability_good": "ability_bad"}}}}])
for cmd in ["inspiration", "look_around", "take_ladder", "lean_ladder", "climb"]:
    state, events = step(story, state, cmd)
print(json.dumps({{"yaml": "yaml" in sys.modules, "end": [e for e in events if e["type"] == "ending"],
                  "raw": len(story.cache.get("_raw_effects", {{}}))}}))
"""
    got = _fresh(code)
    assert got["end"] and got["end"][0]["id"] == "escaped"
    assert got["raw"] >= 1, "the game compiled no rule data: this test no longer covers that path"
    assert got["yaml"] is False


def test_compile_effects_reads_effect_data_as_the_loader_does() -> None:
    story = load(ROOM)
    assert compile_effects(story, [{"set": {"looked": True}}, {"goto": "room"}]) == (
        ("set", (("looked", ("lit", True)),)),
        ("goto", "room"),
    )
    with pytest.raises(EffectError, match="unknown variable 'nope'"):
        compile_effects(story, [{"set": {"nope": 1}}])
    with pytest.raises(EffectError, match="unknown effect 'jump'"):
        compile_effects(story, {"jump": 1})
