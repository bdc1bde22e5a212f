"""The player sees only what the player knows (#13 items 24/25): ``visible_when`` on status
variables and on the time left, checked by ``katari check``, through ``katari play --jsonl``."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest
from conftest import katari

from runner.engine import available, new_game, step
from runner.engine.engine import Ctx, _holds
from runner.rules.dice import SeededDice
from runner.stories import shipped
from runner.story import load
from runner.ui.i18n import key_label
from runner.ui.render import status_items

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+?)(?: \[K\d{3}\])?$")


def states(out: str) -> list[dict]:
    return [e for e in map(json.loads, out.splitlines()) if e["type"] == "state"]


SEA = """\
story: {id: vw, title: 海の部屋, language: ja, rules: none, start: room}
clock: {start: "10:00", limit: "20:00", left_visible_when: "read_note"}
variables:
  window_open: false
  read_note: false
  depth: {value: 200, label: 海面まで(m), visible_when: "window_open"}
  light: {value: false, visible: true, label: 照明}
nodes:
  room:
    narration: [暗い部屋だ。照明のスイッチが壁にある。]
    actions:
      - {id: open, label: 窓を開ける, effects: [{set: {window_open: true}}], say: 窓の外は深い海だった。}
      - {id: read, label: メモを読む, effects: [{set: {read_note: true}}], say: 「二十時に戻る」とある。}
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
"""


def test_a_status_variable_shows_only_while_its_visible_when_holds(tmp_path: Path) -> None:
    p = tmp_path / "sea.yaml"
    p.write_text(SEA, encoding="utf-8")
    r = katari("play", str(p), "--jsonl", "--seed", "1", stdin="open\n")
    assert r.returncode == 0, r.stderr
    before, after = states(r.stdout)
    assert "depth" not in before["vars"] and before["vars"] == {"light": False}
    assert after["vars"] == {"depth": 200, "light": False}
    # The game master sees every variable from the start.
    g = katari("play", str(p), "--jsonl", "--seed", "1", "--gm", stdin="")
    assert states(g.stdout)[0]["vars"]["depth"] == 200


def test_the_time_left_shows_only_once_the_deadline_is_known(tmp_path: Path) -> None:
    p = tmp_path / "sea.yaml"
    p.write_text(SEA, encoding="utf-8")
    r = katari("play", str(p), "--jsonl", "--seed", "1", stdin="open\nread\n")
    s = states(r.stdout)
    assert [("time_left" in e) for e in s] == [False, False, True]
    assert s[0]["time"] == "10:00" and s[2]["time_left"] == 600
    g = katari("play", str(p), "--jsonl", "--seed", "1", "--gm", stdin="")
    assert states(g.stdout)[0]["time_left"] == 600


def test_check_places_every_bad_visible_when(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(
        """\
story: {id: vw, title: VW, language: ja, rules: none, start: a}
clock: {start: "10:00", limit: "12:00", left_visible_when: "herd"}
variables:
  depth: {value: 200, label: 海面, visible_when: "opened and ("}
  other: {value: 1, label: 他, visible_when: "opend"}
  third: {value: 1, visible: false, label: 三, visible_when: "opened"}
  fourth: {value: 1, label: 四, visible_when: "roll('1d6') > 3"}
  opened: false
nodes:
  a:
    actions:
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
""",
        encoding="utf-8",
    )
    r = katari("check", str(p))
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr
    found = {
        (int(m["line"]), m["msg"].split(":")[0])
        for m in map(LINE.match, r.stdout.splitlines())
        if m
    }
    assert (2, "unknown variable 'herd'") in found, r.stdout
    assert any(line == 4 and msg.startswith("bad expression") for line, msg in found), r.stdout
    assert (5, "unknown variable 'opend' (did you mean 'opened'?)") in found, r.stdout
    assert any(line == 6 and "visible_when" in msg for line, msg in found) or any(
        ln.startswith(f"{p}:6:") and "visible_when" in ln for ln in r.stdout.splitlines()
    ), r.stdout
    assert any(
        ln.startswith(f"{p}:7:") and "cannot be used in a condition" in ln
        for ln in r.stdout.splitlines()
    ), r.stdout
    cols = {int(m["line"]): int(m["col"]) for m in map(LINE.match, r.stdout.splitlines()) if m}
    text = p.read_text(encoding="utf-8").splitlines()
    assert cols[5] == text[4].index("opend") + 1  # the misspelt name itself, inside the quotes


# ---------------------------------------------------------------- the guard: a player-view property
#
# Over random games of every shipped story, without --gm: no event, status field or item text
# carries a variable, label, stat or note the player has not been shown.

SHIPPED = {p.name: p for p in shipped()}
GM_ONLY = {"": {"gm", "hidden", "all_vars", "pending_events"}, "ureg": {"solved", "mods", "npcs"}}
"""State fields only a game master's view may carry: at the top, and in a rule system's view
(UREG's obstacles solved, item changes, and the NPCs the story holds, met or not)."""
STAT_WORDS = {"power": ("戦力",)}
"""How rule books name a stat in prose (UREG's numeric combat: 戦力)."""
_WORD = re.compile(r"[\u4e00-\u9fff\u3005]+|[\u30a0-\u30ff]+|[A-Za-z]{2,}")


def _words(label: str) -> list[str]:
    """The things a status label names: its runs of kanji, katakana or Latin letters
    (「ツグミ同行」 → ツグミ, 同行; 「海面まで(m)」 → 海面; 「天井の照明」 → 天井, 照明)."""
    return _WORD.findall(label)


def _stat_phrases(story) -> dict[str, set[str]]:
    """For each character who is not a PC: how its stats would read in text (「戦力2」, 「回避 10」)."""
    out: dict[str, set[str]] = {}
    for cid, c in story.characters.items():
        if c.kind == "pc" or not c.stats:
            continue
        out[cid] = set()
        for k, v in (c.stats or {}).items():
            if isinstance(v, bool) or not isinstance(v, (int, float, str)):
                continue
            for lab in {k, key_label(k, story.language, story.rules), *STAT_WORDS.get(k, ())}:
                if len(lab) < 2:
                    continue
                out[cid].update({f"{lab}{v}", f"{lab} {v}", f"{lab}　{v}", f"{lab}：{v}"})
    return out


def _names_of(c) -> set[str]:
    return {n for n in (c.name, c.unknown_name, str((c.props or {}).get("short", ""))) if n}


def _keeper_texts(story) -> set[str]:
    out = set()
    for n in story.nodes.values():
        out.update(line.text for line in n.keeper if len(line.text) > 8)
    return out


class Viewer:
    """Follows one game as the player sees it and reports every leak."""

    def __init__(self, story) -> None:
        self.story = story
        self.shown: list[str] = [story.title]
        self.stats = {
            tuple(_names_of(story.characters[cid])): ps for cid, ps in _stat_phrases(story).items()
        }
        self.keeper = _keeper_texts(story)
        self.ids = (
            {*story.variables, *story.items, *story.characters, *story.nodes, *story.endings}
            if story.language == "ja"
            else set()
        )
        self.problems: list[str] = []
        self.nodes: set[str] = set()

    def bad(self, what: str) -> None:
        if what not in self.problems:
            self.problems.append(what)

    def text(self, s: str, where: str) -> None:
        for names, phrases in self.stats.items():  # 「硝子の番人 戦力2」: a character and its stat
            if any(n in s for n in names):
                for p in phrases:
                    if p in s:
                        self.bad(f"{where} gives a keeper stat {p!r}: {s[:60]}")
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", s):
            if word in self.ids:
                self.bad(f"{where} shows the raw id {word!r}: {s[:60]}")
        self.shown.append(s)

    def events(self, evs: list[dict], state) -> None:
        for ev in evs:
            kind = ev.get("type")
            if ev.get("keeper"):
                self.bad(f"a keeper-only {kind} event reached the player: {ev}")
            if kind == "narration":
                text = str(ev.get("text", ""))
                if text in self.keeper:
                    self.bad(f"a keeper note was told as narration: {text[:60]}")
                spk = ev.get("speaker")
                if spk != "narrator":
                    c = self.story.characters.get(spk)
                    if c is None:
                        self.bad(f"speaker {spk!r} is not a character (a voice key?)")
                    elif (
                        c.known_when is not None
                        and ev.get("name") == c.name
                        and c.name not in "".join(self.shown)
                    ):
                        self.bad(f"{spk!r} is named {c.name!r} before the player learns the name")
                    self.text(str(ev.get("name", "")), "a speaker's name")
                self.text(text, "narration")
            elif kind == "prompt":
                for a in ev.get("actions", []):
                    self.text(str(a.get("label", "")), "an action label")
            elif kind in ("ending",):
                self.shown.append(str(ev.get("title", "")))
            elif kind == "state":
                self.state(ev, state)

    def state(self, ev: dict, state) -> None:
        story = self.story
        self.shown.append(str(ev.get("title", "")))
        for item in ev.get("inventory", {}):
            it = story.items.get(item)
            if it is not None:
                self.text(it.name, "an item name")
                self.text(it.description, "an item's text")
        for key, v in ev.items():
            if key in GM_ONLY[""]:
                self.bad(f"the player's state carries the GM field {key!r}")
            if isinstance(v, dict) and key not in ("vars", "inventory", "stats"):
                for k2 in v:
                    if k2 in GM_ONLY[""] | GM_ONLY.get(key, set()):
                        self.bad(f"the player's {key} view carries the GM field {k2!r}")
        for cid in ev.get("stats", {}):
            c = story.characters.get(cid)
            if c is not None and c.kind != "pc":
                self.bad(f"the player's state carries the stats of {cid!r} ({c.kind})")
        ctx = Ctx(story, state, False, SeededDice(0))
        seen = "".join(self.shown)
        for name in ev.get("vars", {}):
            var = story.variables[name]
            if not var.visible or not _holds(ctx, var.visible_when):
                self.bad(f"variable {name!r} is shown while it should be hidden")
            if not var.label:
                self.bad(f"variable {name!r} is shown by its raw id (no label)")
                continue
            words = _words(var.label)
            if words and not any(w in seen for w in words):
                self.bad(
                    f"status {var.label!r} appears before the player has met {'/'.join(words)!r}"
                )
        for label, value in status_items(ev, story, story.language, short=True):
            self.text(f"{label} {value}", "the status bar")


def random_games(story, games: int, turns: int, seed: int = 0, budget: float = 15.0) -> Viewer:
    """Plays ``games`` random games (a numbered action each turn) and looks at every turn."""
    rng = random.Random(seed)
    deadline = time.monotonic() + budget
    worst = Viewer(story)
    for g in range(games):
        v = Viewer(story)
        state, evs = new_game(story, seed=seed * 1000 + g)
        v.events(evs, state)
        v.nodes.add(state.node)
        for _ in range(turns):
            if state.ending is not None:
                break
            choices = [c for c in available(story, state) if c.n]
            if not choices:
                break
            # Mostly steer away from giving up or dying early, so games get deep into the story.
            for _try in range(4):
                new, evs = step(story, state, rng.choice(choices))
                end = story.endings.get(new.ending) if new.ending else None
                if end is None or end.kind in ("good", "normal", "partial") or rng.random() < 0.1:
                    break
            state = new
            v.events(evs, state)
            v.nodes.add(state.node)
        for p in v.problems:
            worst.bad(f"game {g}: {p}")
        worst.nodes |= v.nodes
        if len(worst.problems) > 20 or time.monotonic() > deadline:
            break
    return worst


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_player_sees_only_what_the_player_knows(name: str) -> None:
    story = load(SHIPPED[name])
    viewer = random_games(story, games=300, turns=200)
    assert not viewer.problems, "\n".join(viewer.problems[:20])
    assert (
        len(viewer.nodes) >= min(len(story.nodes), 8) * 3 // 4
    )  # the walk went far enough to mean something


# ---------------------------------------------------------------- speakers are characters (item 13)

GIRL = [
    "inspiration",
    "go_greenhouse",
    "dig_pot",
    "take_flashlight",
    "back_hall",
    "unlock_door",
    "go_storeroom",
    "talk_ally",
    "leave_storeroom",
    "stairs_box",
]


def test_an_npc_is_named_only_once_the_player_knows_her_name() -> None:
    r = katari(
        "play",
        "ureg_glass_greenhouse",
        "--jsonl",
        "--seed",
        "1",
        stdin="\n".join(
            GIRL[:8]
            + [
                "leave_storeroom",
                "go_greenhouse",
                "take_box",
                "back_hall",
                "stairs_box",
                "climb_alone",
                "go_down",
                "call_ally",
            ]
        )
        + "\n",
    )
    evs = [json.loads(x) for x in r.stdout.splitlines()]
    said = [
        (e["speaker"], e.get("name"), e["text"])
        for e in evs
        if e["type"] == "narration" and e["speaker"] != "narrator"
    ]
    assert said[0][:2] == ("tsugumi", "少女") and "ここ、どこなの" in said[0][2]
    assert [s[:2] for s in said[1:]] == [("tsugumi", "ツグミ")] * 2, said
    # The console shows the name the event carries.
    from runner.ui.render import Renderer, plain

    story = load(SHIPPED["ureg_glass_greenhouse"])
    first = next(e for e in evs if e.get("speaker") == "tsugumi")
    assert plain(Renderer(story, lang="ja").event(first)).startswith("「少女」『")
    # The voice profiles map the character to a voice.
    from runner.ui.narrator.profiles import load_voices

    vs = load_voices("default")
    assert vs.resolve("tsugumi", "ja", story.voices) == vs.profiles["npc"]["ja"]


def test_every_shipped_speaker_is_a_character_or_the_narrator() -> None:
    for name, path in SHIPPED.items():
        story = load(path)
        lines = [ln for n in story.nodes.values() for ln in (*n.narration, *n.keeper)]
        lines += [ln for e in story.endings.values() for ln in e.narration]
        for ln in lines:
            assert ln.speaker in (None, "narrator", *story.characters), (name, ln)
        for key in story.voices:
            assert key == "narrator" or key in story.characters, (name, key)
    deep = load(SHIPPED["deep_sea_atelier"])
    assert (
        "monster" not in deep.voices and "wizard" not in deep.voices and "system" not in deep.voices
    )


def test_a_voice_key_or_a_speaker_that_is_no_character_fails_the_check(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(
        """\
story: {id: sp, title: 声, language: ja, rules: none, start: a}
voices: {narrator: default, monster: monster}
characters: {arm: {name: 触腕, kind: enemy}}
nodes:
  a:
    narration:
      - {text: 「来るな」, speaker: wizard}
      - {text: ぬるり, speaker: 触腕}
    actions:
      - {id: leave, label: 出る, end: out}
endings: {out: {kind: good}}
""",
        encoding="utf-8",
    )
    r = katari("check", str(p))
    assert r.returncode == 1
    out = r.stdout.splitlines()
    assert any(
        ln.startswith(f"{p}:2:") and "voices: 'monster' is not a character" in ln for ln in out
    ), out
    assert any(
        ln.startswith(f"{p}:7:") and "speaker 'wizard' is not a character" in ln for ln in out
    ), out
    assert not any(":8:" in ln for ln in out), out  # a character's name is a speaker too


# ---------------------------------------------------------------- the guardian's power (item 25)

GALLERY = [
    "strength",
    "go_greenhouse",
    "take_box",
    "back_hall",
    "stairs_box",
    "go_up",
    "go_library",
    "take_crowbar",
    "back_gallery",
    "fight_crowbar",
]


def test_the_guardian_power_is_the_keepers_not_the_players() -> None:
    stdin = "\n".join(GALLERY) + "\n"
    player = katari("play", "ureg_glass_greenhouse", "--jsonl", "--seed", "1", stdin=stdin).stdout
    texts = [e["text"] for e in map(json.loads, player.splitlines()) if e["type"] == "narration"]
    assert any("硝子の番人" in t for t in texts)
    assert not [t for t in texts if "戦力" in t or " 対 " in t], texts
    assert any(
        t.startswith("あなた〈○強力〉〈×不器用〉 1.5 + バール 1 = 2.5 → 対等") for t in texts
    ), texts
    gm = katari(
        "play", "ureg_glass_greenhouse", "--jsonl", "--seed", "1", "--gm", stdin=stdin
    ).stdout
    notes = [e["text"] for e in map(json.loads, gm.splitlines()) if e.get("keeper")]
    assert any("2.5 対 敵の戦力 2" in t for t in notes), notes


def test_the_guard_catches_each_kind_of_leak() -> None:
    """The property has teeth: a story that leaks each way is reported each way."""
    story = load(SHIPPED["ureg_glass_greenhouse"])
    v = Viewer(story)
    state, _ = new_game(story, seed=1)
    v.events(
        [
            {"type": "narration", "text": "【敵NPC　硝子の番人　戦力2】", "speaker": "narrator"},
            {"type": "narration", "text": "秘密", "speaker": "narrator", "keeper": True},
            {"type": "narration", "text": "ついてきて", "speaker": "tsugumi", "name": "ツグミ"},
            {
                "type": "state",
                "title": "",
                "vars": {"ally_with": False},
                "inventory": {},
                "stats": {"warden": {"power": 2}},
                "gm": {},
                "ureg": {"npcs": []},
            },
            {"type": "prompt", "actions": [{"label": "ally_with を見る"}]},
        ],
        state,
    )
    found = "\n".join(v.problems)
    for want in (
        "keeper stat '戦力2'",
        "keeper-only",
        "named 'ツグミ' before",
        "'ally_with' is shown while",
        "stats of 'warden'",
        "GM field 'gm'",
        "GM field 'npcs'",
        "raw id 'ally_with'",
    ):
        assert want in found, (want, found)


def test_a_rule_line_by_no_character_is_the_narrators() -> None:
    # coc7's sheet lines were said by "system", a voice key: the engine gives them to the narrator.
    r = katari("play", "deep_sea_atelier", "--jsonl", "--seed", "1", stdin="1\n@sheet\n")
    lines = [e for e in map(json.loads, r.stdout.splitlines()) if e["type"] == "narration"]
    assert any("STR" in e["text"] for e in lines)
    story = load(SHIPPED["deep_sea_atelier"])
    assert {e["speaker"] for e in lines} <= {"narrator", *story.characters}, {
        e["speaker"] for e in lines
    }
