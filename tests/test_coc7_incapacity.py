"""#13 items 1 and 17: an investigator who cannot act is offered only what the rules allow;
a push or Luck is offered only right after a failed check the rules let be pushed.

A rule-level invariant, over thousands of random games of every shipped story: whenever the
active coc7 investigator is dead, dying, unconscious or in a bout of madness, the actions on
offer are only the rules' own for that condition (the CON roll of the dying, waiting to come
round, letting the bout pass; nothing for the dead), and the status (the ``state`` event a
front end shows) names the condition. And the case that was found at the table: dying after
a fight that ended in the dark, the investigator could still walk to the circle and cast.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import available, new_game, state_event, step
from runner.rules.coc7.condition import incapacity
from runner.story import load
from runner.ui.jsonl import turns

ROOT = Path(__file__).resolve().parent.parent
STORIES = ROOT / "stories"
DEEP = STORIES / "deep_sea_atelier"

ALLOWED = {
    "dead": set(),
    "dying": {"con_roll"},
    "unconscious": {"come_round"},
    "bout": {"bout_pass"},
}
WORDS = {"dead": "死亡", "dying": "瀕死", "unconscious": "意識不明", "bout": "狂気の発作"}
GAMES = {
    "deep_sea_atelier": 2000,
    "ureg_glass_greenhouse": 200,
    "ureg_window_room": 200,
    "dungeon_2f": 200,
}


def _active(st) -> dict | None:
    d = (st.rules or {}).get("coc7")
    s = st.stats.get(d.get("pc") or "") if d else None
    return s if isinstance(s, dict) and s.get("kind") == "investigator" else None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_incapacitated_are_offered_only_what_the_rules_allow(name: str) -> None:
    story = load(STORIES / name)
    seen: dict[str, int] = {k: 0 for k in ALLOWED}
    pushes = 0
    for seed in range(GAMES[name]):
        rnd = random.Random(seed)
        st, _ = new_game(story, seed)
        while st.ending is None and st.turn < 200:
            offered = [c for c in available(story, st) if c.n]
            s = _active(st)
            why = incapacity(s) if s else ""
            ids = {c.id for c in offered}
            if why:
                seen[why] += 1
                assert ids <= ALLOWED[why], (
                    f"{name} seed {seed} turn {st.turn}: {why} but offered {ids}"
                )
                assert all(c.action.key.startswith("coc7.") for c in offered)
                shown = state_event(story, st).get("coc7", {}).get("conditions", [])
                assert any(WORDS[why] in w for w in shown), (name, seed, why, shown)
            else:
                assert not ids & {"con_roll", "come_round", "bout_pass"}, (name, seed, ids)
            if ids & {"push", "spend_luck"}:  # #13 item 17: only right after a pushable failure
                last = st.rules["coc7"]["last"]
                assert not last["success"] and not last["pushed"] and last["level"] != "fumble"
                assert last["skill"] not in ("幸運", "正気度") and not st.rules["coc7"].get(
                    "combat"
                )
                assert last["turn"] == st.turn - 1 and last["action"].startswith(st.node + ".")
                pushes += 1
            if not offered:
                break
            st, _ = step(story, st, rnd.choice(offered), tail_events=False)
    if name == "deep_sea_atelier":  # the walk meets the conditions it guards
        assert seen["dying"] > 0 and seen["bout"] > 0 and pushes > 0, (seen, pushes)


# ---------------------------------------------------------------- the case from the table

SPELL_KNOWN = [
    "pregen2",
    "take_lighter",
    "wake",
    "use_lighter",
    "switch_on",
    "go_carpet",
    "search",
    "open_case",
    "wear_glasses",
    "flip",
    ":dice 1,10",
    "groove_look",
    "back",
    "go_shelf",
    "way_spines",
    "md_read",
    "back",
    "go_bed",
    "search",
    "case",
    "back",
    "go_entrance",
    "gold_key",
    ":dice 1,10",
    "open_door",
    "fight",
    ":dice 1,10",
    "switch_dex",
    # lights out: arm 1 finds her (5 damage: a major wound, CON holds), arm 2 too
    # (2 damage: 0 HP with a major wound = dying); then the fight is over
    ":dice 1,10,9,9,3,2,1,10,1,10,9,9,1,1",
    "hide_stealth",
]


def test_a_dying_investigator_cannot_walk_to_the_circle_and_cast() -> None:
    story = load(DEEP)
    evs = list(turns(story, SPELL_KNOWN, seed=0))
    st = [e for e in evs if e["type"] == "state"][-1]
    assert (
        st["coc7"]["investigators"][0]["hp"] == 0
        and "dying" in st["coc7"]["investigators"][0]["conditions"]
    )
    assert "瀕死" in st["coc7"]["conditions"]
    assert [a["id"] for a in evs[-1]["actions"]] == ["con_roll"]
    evs = list(turns(story, [*SPELL_KNOWN, "back", "cast_spell", "chant"], seed=0))
    # Each is answered with why and what can be done (the table tour's item 8), and nothing runs.
    unable = [e for e in evs if e["type"] == "narration" and "瀕死で動けない" in e["text"]]
    assert len(unable) == 3 and not [e for e in evs if e["type"] in ("error", "ending")]
    # The CON roll each round until it fails: then the death ending.
    evs = list(
        turns(story, [*SPELL_KNOWN, ":dice 1,10", "con_roll", ":dice 9,9", "con_roll"], seed=0)
    )
    con = [e for e in evs if e["type"] == "roll" and e.get("label") == "CON"]
    assert [r["success"] for r in con[-2:]] == [True, False]
    assert evs[-1] == {"type": "ending", "id": "death", "kind": "death", "title": "深海に散る"}


def test_the_same_through_katari_play_jsonl() -> None:
    lines = "\n".join([*SPELL_KNOWN, "cast_spell", "1"]) + "\n"
    out = subprocess.run(
        [sys.executable, "-m", "runner", "play", str(DEEP), "--jsonl", "--seed", "0"],
        input=lines,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    evs = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
    prompts = [e for e in evs if e["type"] == "prompt"]
    assert [a["label"] for a in prompts[-1]["actions"]] == ["瀕死：体力（CON）ロールで命をつなぐ"]
    assert any(e["type"] == "roll" and e.get("label") == "CON" for e in evs[-6:])


# ---------------------------------------------------------------- companions

PARTY = """\
story: {id: party, title: 二人, language: ja, rules: coc7, start: room}
characters:
  a: {name: 安藤, kind: pc, stats: {STR: 50, CON: 50, SIZ: 50, DEX: 50, APP: 50, INT: 50, POW: 50, EDU: 50, luck: 50, 応急手当: 60}}
  b: {name: 馬場, kind: pc, stats: {STR: 50, CON: 50, SIZ: 50, DEX: 50, APP: 50, INT: 50, POW: 50, EDU: 50, luck: 50, 応急手当: 60}}
nodes:
  room:
    actions:
      - {id: fall, label: 落ちる, effects: [{do: ["coc7.damage(5)", "coc7.damage(5)"]}]}
      - {id: look, label: 見回す, say: 何もない。}
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
"""


def test_a_companion_can_give_first_aid_or_take_over(tmp_path: Path) -> None:
    p = tmp_path / "party.yaml"
    p.write_text(PARTY, encoding="utf-8")
    story = load(p)
    st, _ = new_game(story, 1)
    st, _ = step(story, st, "fall")  # 安藤: a major wound, then 0 HP: dying
    assert incapacity(st.stats["a"]) == "dying"
    ids = [c.id for c in available(story, st) if c.n]
    assert ids == ["first_aid_b_a", "con_roll", "take_over_b"], ids
    shown = state_event(story, st)["coc7"]["conditions"]
    assert any("安藤" in w and "瀕死" in w for w in shown)
    st, evs = step(story, st, "first_aid_b_a", dice=[1, 10])  # 馬場's First Aid: 10, a success
    assert st.stats["a"]["cond"]["stable"] and incapacity(st.stats["a"]) == "unconscious"
    ids = [c.id for c in available(story, st) if c.n]
    assert ids == ["take_over_b"], ids
    st, _ = step(story, st, "take_over_b")
    ids = [c.id for c in available(story, st) if c.n]
    assert ids[:3] == ["fall", "look", "leave"], ids  # 馬場 acts: the story again
