"""What a GM reads back from the overrides, in both languages and in ``--jsonl`` (the table
tour's wording items): a variable named by its label with spaces (``gm set To the surface 5``),
the English ``message`` of every override and refusal without Python spellings (True, None,
'quotes') or ids where the label belongs, a value the variable already has refused as no
override, and the fighters an ambiguous name could mean called by a word that fits monsters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import katari, played

from runner.commands._common import translated
from runner.engine import new_game, step
from runner.story import load
from runner.ui.i18n import _TEXT
from runner.ui.render import code_text

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
START = {"ja": ["1", "スマホ", "目を覚ます"], "en": ["1", "phone", "3"]}
TO_FIGHT = ["!set light yes", "!set enc_at 'door'", "!goto fight_start"]


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))


@pytest.fixture(scope="module")
def stories():
    base = load(DEEP)
    return {"ja": base, "en": translated(load(DEEP), "en")}


def _console(story, lang: str, lines: list[str]) -> str:
    _, out = played(story, [*START[lang], *lines], cols=200, new=True, lang=lang, seed=1, gm=True)
    return out


def _jsonl(lang: str, lines: list[str], home: Path) -> list[dict]:
    r = katari(
        "play", "deep_sea_atelier", "--gm", "--jsonl", "--seed", "1", "--lang", lang,
        stdin="\n".join(lines) + "\n", home=home,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return [json.loads(x) for x in r.stdout.splitlines()]


def _answers(evs: list[dict]) -> list[dict]:
    return [e for e in evs if e["type"] in ("error", "override")]


# -- item 1: a variable by its label, spaces and all -----------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["To the surface 5", "to the SURFACE 5", "To the surface (m) 5", "to_surface 5", "surface 5"],
)
def test_an_english_label_with_spaces_names_its_variable(stories, typed: str) -> None:
    out = _console(stories["en"], "en", [f"gm set {typed}"])
    assert "[GM override] To the surface (m): 200 → 5" in out, out[-600:]


def test_the_tester_line_is_answered_about_the_variable_it_names(stories) -> None:
    out = _console(stories["en"], "en", ["gm set To the surface yes"])
    assert "To the surface (m) holds a number: “yes” does not fit." in out
    assert "could be several" not in out


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_variable_is_named_by_what_the_candidates_show(stories, lang: str) -> None:
    """What a GM is offered (the label in the game's language, else the id) names that one
    variable, typed back with spaces and a value after it."""
    story = stories[lang]
    s, _ = new_game(story, 1)
    for var, v in story.variables.items():
        shown = v.label or var
        value = v.value
        typed = "'x'" if isinstance(value, str) else ("yes" if value is False else "no")
        typed = str(value + 1) if type(value) in (int, float) else typed
        _, evs = step(story, s, f"!set {shown} {typed}", gm=True)
        ev = evs[0]
        assert ev["type"] == "override" and ev["data"]["var"] == var, (shown, ev)


def test_the_candidates_offered_can_be_typed_back(stories) -> None:
    story = stories["en"]
    s, _ = new_game(story, 1)
    _, evs = step(story, s, "!set To 5", gm=True)
    assert evs[0]["code"] == "gm_ambiguous"
    for name in evs[0]["data"]["candidates"]:
        _, got = step(story, s, f"!set {name} 7", gm=True)
        assert got[0]["type"] in ("override", "error") and got[0]["code"] != "gm_ambiguous", name
        assert got[0]["code"] != "gm_not_found", name


# -- item 2: the English of every reply --------------------------------------------------------

PY = re.compile(r"\bTrue\b|\bFalse\b|\bNone\b|'[^']*'|\{|\}")


def test_the_jsonl_messages_read_as_english_with_labels(home: Path) -> None:
    evs = _answers(
        _jsonl(
            "en",
            [
                *START["en"],
                "!set To the surface yes",
                "!set light 5",
                "!set light yes",
                "!set light yes",
                "!set light no",
                "!clock 10:00",
                "!clock 09:00",
                "!take pen",
                "!take 警察の銃",
                "!give lighter",
                "!goto bed",
                "!damage 2",
                "!stat HP=5",
                "!force loud noise",
                "!set light 'x",
            ],
            home,
        )
    )
    msgs: dict[str, str] = {}
    for e in evs:
        msgs.setdefault(e["code"], e["message"])
    for e in evs:  # (a value the GM typed is quoted as typed: 'x)
        assert not PY.search(e["message"].replace("'x", "x").replace('"\'"', "")), e
        assert "to_surface" not in e["message"] and "enc_at" not in e["message"], e
    assert msgs["gm_clock_now"] == "it is 10:00 now (the same time on the next day is 34:00)"
    assert "passed" in msgs["gm_clock_back"] and "already past" not in msgs["gm_clock_now"]
    bad = [e["message"] for e in evs if e.get("code") == "gm_bad_type"]
    assert bad == [
        "To the surface (m) holds a number: “yes” does not fit",
        "Ceiling light holds a switch (yes or no): “5” does not fit",
    ]
    sets = [e["message"] for e in evs if e["code"] == "set"]
    assert sets == ["GM: Ceiling light: no → yes", "GM: Ceiling light: yes → no"]
    assert msgs["gm_same"] == "Ceiling light already holds yes: nothing changed"
    assert msgs["gm_not_found"] == "no item “pen”; known: smartphone"  # what is carried


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_gm_text_words_its_data_without_python_or_doubled_heads(lang: str) -> None:
    """A table over every ``err_gm_*`` and ``ov_*`` text with the data the engine gives it."""
    data = {
        "verb": "set", "kind": "variable", "query": "x", "known": ["a", "b"], "more": 0,
        "candidates": ["a", "b"], "label": "Ceiling light", "text": "5", "holds": "switch",
        "now": "10:00", "next": "34:00", "value": True, "allowed": ["success"], "name": "N",
        "item": "i", "who": "w", "stat": "hp", "detail": "d", "old": False, "minutes": 5,
        "from": "10:00", "to": "10:05", "op": "-", "amount": 1, "new": 3, "title": "T",
        "var": "light", "count": 1, "typed": "Luck", "max": 99999,
    }  # fmt: skip
    keys = [k for k in _TEXT[lang] if k.startswith(("err_gm_", "ov_"))]
    assert {"err_gm_same", "err_gm_same_stat", "err_gm_clock_now"} <= set(keys)
    for key in keys:
        typ, code = ("error", key[4:]) if key.startswith("err_") else ("override", key[3:])
        if code == "gm_known":
            continue
        d = {**data, "value": "loud_noise"} if code.startswith(("gm_force", "force")) else data
        d = {**d, "old": 5} if code in ("stat", "damage") else d
        text = code_text({"type": typ, "code": code, "data": dict(d)}, lang)
        assert text, key
        # ('text' is how a GM types a text value: the one quote that is Katari's syntax)
        assert not PY.search(text.replace("'文字'", "").replace("'text'", "")), (key, text)
        assert " a extreme" not in text and " a {" not in text, text  # (no "a" before a vowel)
        assert "候補：候補" not in text and "：候補：" not in text and ": Known:" not in text, text
        if lang == "ja":
            assert '"' not in text and "'" not in text.replace("'文字'", ""), (key, text)


# -- item 4: the value it already has -------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "line", "answer"),
    [
        ("ja", "変数 天井の照明 いいえ", "天井の照明はすでに「いいえ」です（何も変えていません）。"),
        ("en", "gm set light no", "Ceiling light already holds no: nothing changed."),
        ("en", "gm set To the surface 200", "To the surface (m) already holds 200: nothing changed."),
        ("ja", ":HP=12", "黒田 剛のHPはすでに 12 です（何も変えていません）。"),
        ("en", ":HP=12", "Tsuyoshi Kuroda's HP is already 12: nothing changed."),
    ],
)  # fmt: skip
def test_setting_the_value_it_has_is_said_and_not_recorded(
    stories, lang: str, line: str, answer: str
) -> None:
    from conftest import piped

    lines = [*START[lang], line]
    repl, out = piped(stories[lang], "\n".join(lines) + "\n", cols=200, new=True, lang=lang, seed=1, gm=True)  # fmt: skip
    assert repl.run() == 0
    text = out.getvalue()
    assert answer in text, text[-800:]
    assert text.count("override]") + text.count("上書き］") == 0
    assert [e.command for e in repl.tl.commands] == START[lang]  # nothing recorded


def test_the_same_value_in_jsonl_changes_nothing(home: Path) -> None:
    evs = _jsonl(
        "ja", [*START["ja"], "!set light false", "!set to_surface 200", "!stat HP=12"], home
    )
    assert [e["code"] for e in _answers(evs)] == ["gm_same", "gm_same", "gm_same_stat"]
    turns = [e["turn"] for e in evs if e["type"] == "state"]
    assert turns[-1] == turns[-4]  # no turn was played


# -- item 5: which one, among monsters -------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "line", "answer"),
    [
        ("ja", "ダメージ 触腕 2", "「触腕」に当てはまるキャラクターがいくつもあります：触腕1、触腕2。"),
        ("en", "gm damage tentacle 2", "could be several characters: "),
    ],
)  # fmt: skip
def test_an_ambiguous_fighter_is_not_called_a_person(
    stories, lang: str, line: str, answer: str
) -> None:
    fight = [c.replace("!", "gm ", 1) for c in TO_FIGHT]
    out = _console(stories[lang], lang, [*fight, line])
    assert answer in out, out[-600:]
    assert "人物" not in out.split(line)[-1] and "person" not in out.split(line)[-1]


@pytest.mark.parametrize("code", ["force", "forced", "force_kept"])
def test_a_forced_outcome_reads_right_for_every_level(code: str) -> None:
    from runner.engine.gm import STANDARD_OUTCOMES

    for level in STANDARD_OUTCOMES:
        text = code_text({"type": "override", "code": code, "data": {"value": level}}, "en")
        assert text and not re.search(r"\ba [aeiou]", text), text
