"""Everything the coc7 package keeps in the state survives a JSON round trip (its purity:
tests/test_purity.py, with the engine's and every rule system's)."""

from __future__ import annotations

import json

from hook_context import coc7_context, tentacle_story

from runner.rules.dice import SeededDice


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
