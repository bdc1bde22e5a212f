"""What a UREG table does that the stories missed (#13 items 16, 22, 23, 25): the real clock
starts with the opening, players make their own escapers, the sample room's three item cards,
and a proposal never confirms an item the player has not found."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ClockedInput, FakeClock

from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
GREENHOUSE = ROOT / "stories" / "ureg_glass_greenhouse"
WINDOW = ROOT / "stories" / "ureg_window_room"


def katari(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def events(out: str) -> list[dict]:
    return [json.loads(x) for x in out.splitlines()]


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


# ---------------------------------------------------------------- item 16: the clock starts with the opening


def test_the_console_clock_stands_still_during_the_character_selection(home: Path) -> None:
    clock = FakeClock()
    # Two minutes reading the selection, then the opening; thirty seconds later a move.
    script = [(120, "1"), (30, "時計"), (0, "status")]
    out = io.StringIO()
    repl = Repl(
        load(GREENHOUSE),
        io=PlainIO(ClockedInput(clock, script), out, cols=100),
        seed=1,
        new=True,
        clock=clock,
    )
    repl.run()
    cmds = [e.command for e in repl.tl.commands]
    assert cmds == ["1", "@time_passed 30", "時計"], cmds
    assert repl.state.rules["ureg"]["time_spent"] == 30
    assert "残り時間: 29:30" in out.getvalue()


def test_time_reported_before_the_opening_does_not_count() -> None:
    r = katari(
        "play",
        "ureg_glass_greenhouse",
        "--jsonl",
        "--seed",
        "1",
        stdin="@time_passed 300\ninspiration\n@time_passed 40\n",
    )
    st = [e["ureg"] for e in events(r.stdout) if e["type"] == "state"]
    assert [s["time_spent"] for s in st] == [0, 0, 0, 40]
    assert st[1]["time_left"] == 1800 and st[3]["time_left"] == 1760


# ---------------------------------------------------------------- item 22: players make their own escapers

GOOD = ["閃き", "身軽", "強力", "器用", "夜目", "小柄", "武術"]
BAD = ["平凡", "非力", "不器用", "鳥目", "鈍重", "低身長", "ひ弱"]


def prompts(evs: list[dict]) -> list[list[str]]:
    return [[a["label"] for a in e["actions"]] for e in evs if e["type"] == "prompt"]


@pytest.mark.parametrize("story", ["ureg_window_room", "ureg_glass_greenhouse"])
def test_the_rules_creation_is_offered_next_to_the_presets(story: str) -> None:
    r = katari("play", story, "--jsonl", "--seed", "1", stdin="create\n武術\nひ弱\n")
    evs = events(r.stdout)
    menus = prompts(evs)
    assert any("〈○閃き〉〈×平凡〉" in x for x in menus[0]) and any(
        "自分で脱出者をつくる" in x for x in menus[0]
    )
    # UA-05: one ○ of the seven, one × of the seven, as the rulebook names them.
    goods = [x[2 : x.index("〉")] for x in menus[1] if x.startswith("〈○")]
    bads = [x[2 : x.index("〉")] for x in menus[2] if x.startswith("〈×")]
    assert goods == GOOD and bads == BAD, (menus[1], menus[2])
    st = [e for e in evs if e["type"] == "state"][-1]
    assert st["stats"]["pc"]["good"] == "武術" and st["stats"]["pc"]["bad"] == "ひ弱"
    assert any(e.get("text") == "あなた：〈○武術〉〈×ひ弱〉" for e in evs)
    assert st["node"] in ("room", "hall")


def test_a_made_escaper_plays_the_sample_room_to_the_end() -> None:
    r = katari(
        "play",
        "ureg_window_room",
        "--jsonl",
        "--seed",
        "1",
        stdin="create\n夜目\n低身長\nlook_around\ntake_ladder\nlean_ladder\nclimb\npush_box\nladder_on_box\nclimb\n",
    )
    evs = events(r.stdout)
    texts = [e["text"] for e in evs if e["type"] == "narration"]
    assert any("梯子 3 m + 手の届く高さ（×低身長） 1.5 m = 4.5 m < 5 m" in t for t in texts), texts
    assert any("= 5.5 m ≥ 5 m" in t for t in texts), texts
    assert evs[-1]["type"] == "ending" and evs[-1]["id"] == "escaped"
    st = [e for e in evs if e["type"] == "state"][-1]
    # (the escaper's abilities are its sheet's: the story's own variables are not shown)
    assert st["stats"]["pc"]["good"] == "夜目" and st["stats"]["pc"]["bad"] == "低身長"


def test_made_escapers_fight_by_their_own_power_in_the_greenhouse() -> None:
    to_gallery = ["go_greenhouse", "take_box", "back_hall", "stairs_box", "go_up"]
    martial = katari(
        "play",
        "ureg_glass_greenhouse",
        "--jsonl",
        "--seed",
        "1",
        stdin="\n".join(["create", "武術", "平凡", *to_gallery, "fight_bare"]) + "\n",
    )
    texts = [e["text"] for e in events(martial.stdout) if e["type"] == "narration"]
    assert any(t.startswith("あなた〈○武術〉〈×平凡〉 3（素手） = 3 → 有利") for t in texts), texts
    frail = katari(
        "play",
        "ureg_glass_greenhouse",
        "--jsonl",
        "--seed",
        "1",
        stdin="\n".join(
            [
                "create",
                "閃き",
                "ひ弱",
                *to_gallery,
                "go_library",
                "take_crowbar",
                "back_gallery",
                "fight_crowbar",
            ]
        )
        + "\n",
    )
    texts = [e["text"] for e in events(frail.stdout) if e["type"] == "narration"]
    assert any(
        t.startswith("あなた〈○閃き〉〈×ひ弱〉 0.5 + バール 1 = 1.5 → 対等") for t in texts
    ), texts


def test_a_party_of_two_makes_both_escapers() -> None:
    r = katari(
        "play",
        "ureg_glass_greenhouse",
        "--jsonl",
        "--seed",
        "1",
        stdin="duo\na_create\n夜目\n低身長\nb_create\n強力\n鳥目\n",
    )
    st = [e for e in events(r.stdout) if e["type"] == "state"][-1]
    assert st["node"] == "hall"
    assert [(c["name"], c["abilities"]) for c in st["ureg"]["characters"]] == [
        ("あなた", ["○夜目", "×低身長"]),
        ("相棒", ["○強力", "×鳥目"]),
    ]


@pytest.mark.parametrize(("good", "bad"), [("武術", "ひ弱"), ("夜目", "鈍重"), ("小柄", "低身長")])
def test_every_made_escaper_can_still_win_the_greenhouse(good: str, bad: str) -> None:
    from test_ureg_story_greenhouse import FULL, bot

    ending, evs = bot(load(GREENHOUSE), ["create", good, bad], FULL, seed=5)
    assert ending == "full_victory", [e.get("text") for e in evs if e["type"] == "narration"][-5:]


# ---------------------------------------------------------------- item 23: the sample's three cards


def test_the_sample_room_lays_three_cards_and_looking_around_turns_up_two() -> None:
    r = katari(
        "play", "ureg_window_room", "--jsonl", "--seed", "1", stdin="1\nlook around\nはしご\n"
    )
    evs = events(r.stdout)
    cards = [e["ureg"]["cards"] for e in evs if e["type"] == "state"]
    assert cards[0] == {"face_up": [], "face_down": 3}
    assert cards[1] == {"face_up": [], "face_down": 3}  # choosing the escaper finds nothing
    assert cards[2] == {"face_up": ["木箱", "梯子"], "face_down": 1}
    assert cards[3] == cards[2]  # nothing else here: one stays face down
    texts = [e["text"] for e in evs if e["type"] == "narration"]
    assert texts[0] == "場にアイテムカードが三枚、裏向きに置かれた。"
    assert "（アイテムカード「木箱」「梯子」を表向きにした）" in texts
    gm = katari(
        "play", "ureg_window_room", "--jsonl", "--seed", "1", "--gm", stdin="1\nlook around\n"
    )
    last = [e for e in events(gm.stdout) if e["type"] == "state"][-1]["ureg"]["cards"]
    assert last["hidden"] == ["?"]  # the scenario never shows the third card's face


def test_check_rejects_a_card_that_is_no_item(tmp_path: Path) -> None:
    text = (
        WINDOW.joinpath("story.yaml")
        .read_text(encoding="utf-8")
        .replace('cards: [box, ladder, "?"]', "cards: [box, ladder, rope]")
    )
    d = tmp_path / "room"
    d.mkdir()
    (d / "story.yaml").write_text(text, encoding="utf-8")
    r = katari("check", str(d))
    assert r.returncode == 1 and "card 'rope' is no item of this story" in r.stdout, r.stdout


# ---------------------------------------------------------------- item 25: a word for what was never found


@pytest.mark.parametrize("story", ["ureg_window_room", "ureg_glass_greenhouse"])
def test_proposing_an_undiscovered_ladder_answers_as_for_an_unknown_word(story: str) -> None:
    def reply(line: str, before: str = "1") -> list[dict]:
        out = katari("play", story, "--jsonl", "--seed", "2", stdin=f"{before}\n{line}\n").stdout
        return [e for e in events(out)][-3:]

    ladder = reply("梯子を立て掛けて登る")
    nonsense = reply("ほげを立て掛けて登る")
    # The same answer, word for word (an error may quote the command as typed).
    assert json.dumps(ladder, ensure_ascii=False).replace(
        "梯子を立て掛けて", "ほげを立て掛けて"
    ) == json.dumps(nonsense, ensure_ascii=False), (ladder, nonsense)
    assert not any(
        "梯子は" in str(e.get("text", "")) or "「梯子」" in str(e.get("text", "")) for e in ladder
    )


def test_a_found_ladder_not_in_hand_is_said_to_be_not_at_hand() -> None:
    out = katari(
        "play",
        "ureg_window_room",
        "--jsonl",
        "--seed",
        "2",
        stdin="1\nlook around\n梯子を立て掛けて登る\n",
    ).stdout
    assert "「梯子」は手元にない。" in [e.get("text") for e in events(out)]
    # In the greenhouse: seen in the lit storeroom, not taken yet.
    seen = [
        "1",
        "go_greenhouse",
        "take_flashlight",
        "dig_pot",
        "back_hall",
        "unlock_door",
        "go_storeroom",
        "梯子を立て掛けて登る",
    ]
    out = katari(
        "play", "ureg_glass_greenhouse", "--jsonl", "--seed", "2", stdin="\n".join(seen) + "\n"
    ).stdout
    assert "「梯子」は手元にない。" in [e.get("text") for e in events(out)]
