"""The coc7 package stays pure: standard library only, no print/open/clock/global random,
and everything it keeps in the state survives a JSON round trip."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

from hook_context import coc7_context, tentacle_story

from runner.rules.dice import SeededDice

PKG = Path(__file__).resolve().parent.parent / "runner" / "rules" / "coc7"
BANNED_CALLS = {"print", "open", "input", "eval", "exec"}
BANNED_MODULES = {"random", "time", "datetime", "os", "subprocess", "pathlib", "io"}


def test_package_is_pure() -> None:
    files = sorted(PKG.glob("*.py"))
    assert files
    for f in files:
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in BANNED_CALLS, f"{f.name}: {node.func.id}()"
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                for n in names:
                    top = n.split(".")[0]
                    assert top not in BANNED_MODULES, f"{f.name}: import {n}"
                    assert top in sys.stdlib_module_names or top in ("runner", "__future__"), \
                        f"{f.name}: import {n}"


def test_state_round_trips_through_json() -> None:
    ctx = coc7_context(SeededDice(11), story=tentacle_story())
    ctx.call("coc7.choose_pregen", 1)
    ctx.call("coc7.give_weapon", "M360J")
    ctx.call("coc7.san", "1/1d6")
    ctx.call("coc7.start_combat", "tentacle", 2)
    for _ in range(3):
        if ctx.call("coc7.awaiting") == "response":
            ctx.call("coc7.dodge")
        elif ctx.call("coc7.awaiting") == "action":
            ctx.call("coc7.shoot")
    for part in (ctx.state.stats, ctx.state.rules):
        assert json.loads(json.dumps(part, ensure_ascii=False)) == part
    for ev in ctx.events:
        json.dumps(ev, ensure_ascii=False)
