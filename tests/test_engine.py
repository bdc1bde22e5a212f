"""The pure engine: matching, the clock, saves, determinism and the --jsonl contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import SaveError, State, available, new_game, step
from runner.story import load
from runner.ui.jsonl import run

ROOT = Path(__file__).resolve().parent.parent
ROOM = ROOT / "stories" / "ureg_window_room"

CLOCKED = """story: {id: clocked, title: Clocked, language: ja, rules: none, start: hall}
clock: {start: "10:00", limit: "20:00"}
variables: {shakes: 0, knocks: 0, lamp: {value: false, visible: true, label: 明かり}}
items: {key: 小さな鍵}
nodes:
  hall:
    narration: ["広間。"]
    actions:
      - {id: search, label: 本棚を調べる, aliases: [ホンダナ, bookshelf], cost: 1h}
      - {id: nap, label: 昼寝する, cost: "3:30"}
      - {id: lamp, label: 明かりをつける, when: "not lamp", effects: [{set: {lamp: true}}]}
      - {id: key, label: 鍵を拾う, once: true, effects: [{give: key}]}
      - {id: out, label: 外へ出る, when: "has('key')", goto: garden}
  garden:
    narration: [{text: "庭。", when: "visits('garden') == 1"}, {text: "また庭。", when: "visits('garden') > 1"}]
    keeper: ["庭の秘密。"]
    actions:
      - {id: back, label: 戻る, goto: hall}
      - {id: leave, label: 帰る, end: home}
events:
  - {id: shake, at: "11:00", effects: [{add: {shakes: 1}}, {say: 部屋が揺れた。}]}
  - {id: knock, at: 3h, effects: [{add: {knocks: 1}}, {say: ノックの音。}]}
  - {id: lit, when: "lamp", effects: [{say: 明るくなった。}]}
endings:
  home: {kind: good, narration: [帰った。]}
"""


@pytest.fixture()
def clocked(tmp_path: Path):
    p = tmp_path / "c.yaml"
    p.write_text(CLOCKED, encoding="utf-8")
    return load(p)


def texts(events: list[dict]) -> list[str]:
    return [e["text"] for e in events if e["type"] == "narration"]


@pytest.mark.parametrize(
    "cmd",
    [
        "1",
        "search",
        "本棚を調べる",
        "ほんだな",
        "ﾎﾝﾀﾞﾅ",
        "ＢＯＯＫＳＨＥＬＦ",
        " Bookshelf ",
        "本棚を調べる。",
    ],
)
def test_an_action_is_matched_by_number_id_label_or_alias(clocked, cmd: str) -> None:
    s0, _ = new_game(clocked)
    s1, ev = step(clocked, s0, cmd)
    assert s1.clock == 60, (cmd, ev)


def test_a_close_miss_suggests_and_changes_nothing(clocked) -> None:
    s0, _ = new_game(clocked)
    # (「本棚をしらべ」 is no miss any more: a part of the label's reading picks the action.)
    s1, ev = step(clocked, s0, "ほんだなおしらべる")
    assert s1 is s0
    err = ev[0]
    assert err["type"] == "error" and "本棚を調べる" in err["suggestions"]
    assert [e["type"] for e in ev] == ["error", "state", "prompt"]
    _, ev = step(clocked, s0, "99")
    assert "choose 1 to 4" in ev[0]["message"]


def test_timed_events_fire_once_in_order(clocked) -> None:
    s, _ = new_game(clocked)
    s, ev = step(clocked, s, "nap")  # 10:00 -> 13:30 passes 11:00 and 13:00
    assert texts(ev) == ["部屋が揺れた。", "ノックの音。"]
    assert s.vars["shakes"] == 1 and s.vars["knocks"] == 1 and s.fired == ["shake", "knock"]
    s, ev = step(clocked, s, "nap")
    assert texts(ev) == [] and s.vars["shakes"] == 1
    st = [e for e in ev if e["type"] == "state"][0]
    assert st["time"] == "17:00" and st["time_left"] == 180


def test_condition_events_and_once_actions(clocked) -> None:
    s, _ = new_game(clocked)
    s, ev = step(clocked, s, "lamp")
    assert texts(ev) == ["明るくなった。"]
    s, _ = step(clocked, s, "key")
    assert "key" not in [a.id for a in available(clocked, s)] and s.inventory == {"key": 1}
    s, ev = step(clocked, s, "out")
    assert texts(ev) == ["庭。"]
    s, ev = step(clocked, s, "back")
    s, ev = step(clocked, s, "out")
    assert texts(ev) == ["また庭。"]


def test_choices_follow_the_state_and_a_caller_may_change_its_list(clocked) -> None:
    # available() keeps one numbered list per combination of closed actions: the numbers
    # must close up when an action closes, come back when it reopens, and the list a caller
    # gets is its own.
    s0, _ = new_game(clocked)
    first = available(clocked, s0)
    assert [(c.n, c.id) for c in first] == [(1, "search"), (2, "nap"), (3, "lamp"), (4, "key")]
    first.clear()
    assert [c.id for c in available(clocked, s0)] == ["search", "nap", "lamp", "key"]
    s1, _ = step(clocked, s0, "key")
    assert [(c.n, c.id) for c in available(clocked, s1)] == [
        (1, "search"),
        (2, "nap"),
        (3, "lamp"),
        (4, "out"),
    ]
    s2, _ = step(clocked, s1, "lamp")
    assert [(c.n, c.id) for c in available(clocked, s2)] == [(1, "search"), (2, "nap"), (3, "out")]
    assert [c.id for c in available(clocked, s0)] == ["search", "nap", "lamp", "key"]
    # A choice passed back to step() runs that very action.
    s3, _ = step(clocked, s2, available(clocked, s2)[2])
    assert s3.node == "garden"


def test_keeper_notes_only_for_a_gm(clocked) -> None:
    s, _ = new_game(clocked)
    s, _ = step(clocked, s, "key")
    _, ev = step(clocked, s, "out")
    assert "庭の秘密。" not in texts(ev)
    _, ev = step(clocked, s, "out", gm=True)
    keeper = [e for e in ev if e.get("keeper")]
    assert keeper and keeper[0]["text"] == "庭の秘密。"


def test_step_is_pure(clocked) -> None:
    s0, _ = new_game(clocked)
    before = json.dumps(s0.to_dict(), sort_keys=True)
    step(clocked, s0, "nap")
    step(clocked, s0, "key")
    assert json.dumps(s0.to_dict(), sort_keys=True) == before


def test_save_round_trip_and_mismatches(clocked) -> None:
    s, _ = new_game(clocked, seed=9)
    s, _ = step(clocked, s, "key")
    d = json.loads(json.dumps(s.to_dict()))
    back = State.from_dict(d, story=clocked)
    assert back == s
    with pytest.raises(SaveError, match="newer"):
        State.from_dict({**d, "version": 99})
    with pytest.raises(SaveError, match="for the story 'other'"):
        State.from_dict({**d, "story": "other"}, story=clocked)
    with pytest.raises(SaveError, match="has the story changed"):
        State.from_dict({**d, "node": "cellar"}, story=clocked)
    with pytest.raises(SaveError, match="damaged"):
        State.from_dict({**d, "clock": "noon"})


def test_the_window_room_reaches_its_ending_through_jsonl() -> None:
    events = run(
        str(ROOM), ["inspiration", "look_around", "take_ladder", "lean_ladder", "climb"], seed=1
    )
    end = events[-1]
    assert end == {"type": "ending", "id": "escaped", "kind": "good", "title": "脱出成功"}


def test_every_turn_closes_with_state_then_one_prompt_or_ending() -> None:
    cmds = [
        "inspiration",
        "nonsense",
        "",
        "look_around",
        "99",
        "take_ladder",
        "lean_ladder",
        "climb",
        "after the end",
    ]
    events = run(str(ROOM), cmds, seed=3)
    turns: list[list[dict]] = [[]]
    for e in events:
        turns[-1].append(e)
        if e["type"] in ("prompt", "ending"):
            turns.append([])
    closing = [t for t in turns if t]
    # one turn for the start and one per command, even after the end (error, state, ending again)
    assert len(closing) == 1 + len(cmds)
    for t in closing:
        if t[-1]["type"] in ("prompt", "ending"):
            assert t[-2]["type"] == "state"
            assert sum(1 for e in t if e["type"] in ("prompt", "ending")) == 1
    bad = [t for t in closing if t[0]["type"] == "error"]
    assert [t[-1]["type"] for t in bad] == ["prompt", "prompt", "prompt", "ending"]


def test_same_seed_same_bytes_through_the_real_command() -> None:
    cmds = "inspiration\nlook around\nはしご\n梯子を立て掛ける\nclimb\n"

    def once() -> str:
        r = subprocess.run(
            [sys.executable, "-m", "runner", "play", str(ROOM), "--jsonl", "--seed", "7"],
            input=cmds,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
        assert r.returncode == 0, r.stderr
        return r.stdout

    a, b = once(), once()
    assert a == b
    last = json.loads(a.strip().splitlines()[-1])
    assert last["type"] == "ending" and last["id"] == "escaped"


def test_the_short_pc_needs_the_box() -> None:
    no_box = run(str(ROOM), ["littleness", "look_around", "take_ladder", "lean_ladder", "climb"])
    assert no_box[-1]["type"] == "prompt"
    with_box = run(
        str(ROOM),
        ["littleness", "look_around", "push_box", "take_ladder", "ladder_on_box", "climb"],
    )
    assert with_box[-1]["type"] == "ending" and with_box[-1]["id"] == "escaped"


def test_gm_overrides_are_commands_a_replay_keeps(clocked) -> None:
    s, _ = new_game(clocked)
    _, ev = step(clocked, s, "!set shakes 5")
    assert ev[0]["type"] == "error" and "--gm" in ev[0]["message"]
    s, ev = step(clocked, s, "!set shakes 5", gm=True)
    assert ev[0] == {
        "type": "override",
        "what": "set",
        "args": ["shakes", "5"],
        "message": "GM: shakes: 0 → 5",
        "code": "set",
        "data": {"var": "shakes", "label": "shakes", "old": 0, "value": 5},
    }
    assert s.vars["shakes"] == 5
    s, ev = step(clocked, s, "!clock +90", gm=True)
    assert s.clock == 90 and "部屋が揺れた。" in texts(ev)  # 11:00 fell due
    _, ev = step(clocked, s, "!clock 10:30", gm=True)
    assert ev[0]["type"] == "error"
    s, ev = step(clocked, s, "!clock 13:00", gm=True)
    assert s.clock == 180 and "ノックの音。" in texts(ev)
    s, ev = step(clocked, s, "!give key", gm=True)
    assert s.inventory == {"key": 1}
    s, ev = step(clocked, s, "!goto garden", gm=True)
    assert s.node == "garden" and "庭。" in texts(ev)


def test_a_forced_outcome_decides_the_next_check(tmp_path: Path) -> None:
    p = tmp_path / "f.yaml"
    p.write_text(
        """story: {id: f, title: F, language: en, rules: none, start: a}
nodes:
  a:
    actions:
      - {id: try, label: Try, check: "roll('1d6') > 6", outcomes: {success: {say: Yes.}, failure: {say: No.}}}
      - {id: out, label: Out, end: e}
endings: {e: {kind: good}}
""",
        encoding="utf-8",
    )
    story = load(p)
    s, _ = new_game(story)
    _, ev = step(story, s, "try")
    assert texts(ev) == ["No."]
    s, _ = step(story, s, "!force success", gm=True)
    s, ev = step(story, s, "try", gm=True)
    assert texts(ev) == ["Yes."] and any(e["type"] == "override" for e in ev)
    _, ev = step(story, s, "try", gm=True)
    assert texts(ev) == ["No."]  # forced once only


def test_folded_japanese_lines_join_without_a_space() -> None:
    events = run(str(ROOM), ["inspiration"])
    opening = [e["text"] for e in events if e["type"] == "narration" and e["id"] == "room.opening"]
    assert opening and "。 " not in opening[0] and "立っていた。正面" in opening[0]


def test_a_goto_loop_is_an_error_that_names_the_loop(tmp_path: Path) -> None:
    p = tmp_path / "loop.yaml"
    p.write_text(
        """story: {id: x, title: X, rules: none, start: s}
variables: {go: false}
nodes:
  s: {actions: [{id: go, label: go, effects: [{set: {go: true}}], goto: a}, {id: e, label: e, end: e}]}
  a: {on_enter: [{if: go, then: [{goto: b}]}], actions: [{id: x, label: x, goto: s}]}
  b: {on_enter: [{if: go, then: [{goto: a}]}], actions: [{id: y, label: y, goto: s}]}
endings: {e: {kind: good}}
""",
        encoding="utf-8",
    )
    story = load(p)
    s0, _ = new_game(story)
    s1, ev = step(story, s0, "go")
    assert s1 is s0 and ev[0]["type"] == "error"
    assert ev[0]["message"].endswith("a goto loop through a → b → a") or ev[0]["message"].endswith(
        "b → a → b"
    )


@pytest.mark.parametrize(
    "cmd,ok", [("３", True), ("¹", True), ("٣", False), ("1" * 40, False), ("0", False)]
)
def test_numbers_fold_like_text_and_never_crash(clocked, cmd: str, ok: bool) -> None:
    s0, _ = new_game(clocked)
    s1, ev = step(clocked, s0, cmd)  # never raises
    assert (s1 is not s0) == ok, ev[0]
