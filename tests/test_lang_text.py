"""Text that speaks (#15): interpolation, inline conditions, sequences, cycles, once-only and
shuffles, named conditions; through `katari play --jsonl`, `katari check` and `katari test`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUB = ROOT / "tests" / "data" / "hub"
GULLS = ("A gull cries.", "Bells ring.", "Someone haggles.")


def katari(*args: str, stdin: str = "", home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if home is not None:
        env["KATARI_HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        text=True,
        capture_output=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def play(story: Path | str, commands: list[str], seed: int, tmp: Path, *more: str) -> list[dict]:
    r = katari(
        "play",
        str(story),
        "--jsonl",
        "--seed",
        str(seed),
        *more,
        stdin="".join(c + "\n" for c in commands),
        home=tmp,
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def said(events: list[dict]) -> list[str]:
    return [e["text"] for e in events if e["type"] == "narration"]


def turns(events: list[dict]) -> list[list[dict]]:
    """Events cut after each prompt or ending."""
    out: list[list[dict]] = [[]]
    for e in events:
        out[-1].append(e)
        if e["type"] in ("prompt", "ending"):
            out.append([])
    return [t for t in out if t]


def test_hub_story_checks_clean(tmp_path: Path) -> None:
    r = katari("check", str(HUB), "--no-voice")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().endswith("ok (2 nodes, 1 ending, rules none)")


def test_hub_story_plays_interpolation_shuffle_and_named_condition(tmp_path: Path) -> None:
    ev = play(HUB, ["baker", "buy", "back", "fountain", "fountain", "home"], 5, tmp_path)
    t = turns(ev)
    first = said(t[0])
    assert (
        first[0].startswith("You have 3 coins. ") and first[0][len("You have 3 coins. ") :] in GULLS
    )
    assert "The baker waves at you." in first  # the named condition `rich` holds with 3 coins
    assert first[2] == "You jingle your purse."  # once-only inside an inline condition's else
    labels = {a["id"]: a["label"] for a in t[1][-1]["actions"]}
    assert labels["buy"] == "Buy a loaf (3 left)"
    assert said(t[1]) == ["Loaves cost one coin. The baker smiles."]
    assert said(t[2]) == ["You now carry 1 loaf."]
    back = said(t[3])
    assert back[0].startswith("You have 2 coins. ")
    assert "The baker waves at you." not in back  # 2 coins: not rich any more
    assert back[1] == "You count your coins again."  # once-only: the second, then nothing
    assert [a["label"] for a in t[3][-1]["actions"]][1] == "Sit by the fountain"
    assert said(t[4]) == ["The water is cold."]
    assert [a["label"] for a in t[4][-1]["actions"]][1] == "Sit by the fountain again"
    assert said(t[5]) == ["A child throws a coin in."]
    assert said(t[6]) == ["You walk home with 1 loaf and 2 coins."]
    assert t[6][-1]["type"] == "ending"


def test_shuffle_draws_from_the_seed_each_round_a_new_order(tmp_path: Path) -> None:
    # Each visit of the market shows one gull line; three visits are one round: all three.
    cmds = ["baker", "back"] * 5
    seen_firsts = set()
    for seed in range(8):
        ev = play(HUB, cmds, seed, tmp_path)
        shown = [
            s[len("You have 3 coins. ") :] for s in said(ev) if s.startswith("You have 3 coins. ")
        ]
        assert len(shown) == 6
        assert sorted(shown[:3]) == sorted(GULLS), (seed, shown)
        assert sorted(shown[3:6]) == sorted(GULLS), (seed, shown)
        seen_firsts.add(shown[0])
        again = play(HUB, cmds, seed, tmp_path)
        assert again == ev  # the same seed, the same text, byte for byte
    assert len(seen_firsts) > 1  # the seed decides


def test_shuffle_rolls_no_dice_and_asks_none_under_manual_dice(tmp_path: Path) -> None:
    ev = play(HUB, ["baker", "back", "baker", "back"], 1, tmp_path, "--dice", "manual")
    assert not [e for e in ev if e["type"] in ("roll", "need_dice", "dice")]
    assert not [e for e in ev if e["type"] == "error"]
    assert len([s for s in said(ev) if s.startswith("You have 3 coins.")]) == 3


def test_a_save_carries_what_was_shown(tmp_path: Path) -> None:
    """The counts of sequences and shuffles are part of the state: a save, loaded, goes on
    exactly as the game that was never stopped."""
    from runner.engine import new_game, step
    from runner.engine.state import State
    from runner.story import load

    story = load(HUB)
    whole, _ = new_game(story, 9)
    texts = []
    for c in ["baker", "back", "fountain", "baker", "back"]:
        whole, ev = step(story, whole, c)
        texts.append(said(ev))
    half, _ = new_game(story, 9)
    for c in ["baker", "back", "fountain"]:
        half, _ = step(story, half, c)
    saved = json.loads(json.dumps(half.to_dict()))
    assert saved["shown"]  # the counts are in the save
    half = State.from_dict(saved, story=story)
    rest = []
    for c in ["baker", "back"]:
        half, ev = step(story, half, c)
        rest.append(said(ev))
    assert rest == texts[3:]
    assert half.to_dict() == whole.to_dict()


BAD = """story: {id: bad, title: Bad, language: en, rules: none, start: a}
variables: {coins: 3}
conditions: {rich: "coins >= 3"}
nodes:
  a:
    narration:
      - "You have {coin} coins."
      - "Unclosed {coins"
      - {text: "A {rihc: rich|poor} day."}
    actions:
      - {id: go, label: "Go {pc.name}", end: out}
endings:
  out: {kind: good, title: Out}
"""


def test_bad_inline_text_is_a_check_error_at_its_place(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(BAD, encoding="utf-8")
    r = katari("check", str(p), "--json", "--no-voice")
    assert r.returncode == 1
    diags = json.loads(r.stdout)["diagnostics"]
    got = {(d["line"], d["column"], d["severity"]) for d in diags}
    msgs = " / ".join(d["message"] for d in diags)
    lines = BAD.splitlines()
    assert (7, lines[6].index("{coin}") + 2, "error") in got, msgs  # the name inside the braces
    assert "unknown variable 'coin' (did you mean 'coins'?)" in msgs
    assert (8, lines[7].index("{coins") + 1, "error") in got, msgs
    assert (9, lines[8].index("rihc") + 1, "error") in got, msgs
    assert (11, lines[10].index("pc.name") + 1, "error") in got, msgs
    assert len(diags) == 4, msgs


def test_the_katari_story_of_the_coming_from_ink_page_checks_and_plays(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    part = doc[doc.index("## Coming from ink, Yarn or Twine") :]
    block = part[part.index("**Katari**") :]
    block = block[block.index("```yaml\n") + 8 :]
    block = block[: block.index("```")]
    story = tmp_path / "market.yaml"
    story.write_text(block, encoding="utf-8")
    r = katari("check", str(story), "--no-voice")
    assert r.returncode == 0, r.stdout + r.stderr
    ev = play(story, ["baker", "buy", "buy", "buy", "back", "home"], 4, tmp_path)
    text = said(ev)
    assert text[0][len("You have 3 coins. ") :] in GULLS and text[1] == "The baker waves at you."
    bakery = [
        t for t in turns(ev) if t[-1]["type"] == "prompt" and t[-1]["actions"][0]["id"] == "buy"
    ]
    assert [t[-1]["actions"][0]["label"] for t in bakery] == [
        "Buy a loaf (3 left)",
        "Buy a loaf (2 left)",
        "Buy a loaf (1 left)",
    ]
    assert text[-1] == "You walk home with 0 coins."


def test_the_deep_sea_story_names_its_repeated_conditions() -> None:
    files = sorted((ROOT / "stories" / "deep_sea_atelier").glob("*.yaml"))
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    for sub in (
        "coc7.native('ラテン語') or read_la or glasses_on",
        "coc7.native('日本語') or read_ja or glasses_on",
        "coc7.awaiting() == 'action' and not dark_pending",
    ):
        assert text.count(sub) == 1, sub  # written once, under conditions:, used by name
    assert text.count("reads_la") >= 10 and text.count("my_turn") >= 10
