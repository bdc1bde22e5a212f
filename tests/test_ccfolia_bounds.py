"""The sheet's bounds are applied where it enters (#16, cc2): every bound the rule command
``@investigator`` applies is applied when the document is read, so a sheet that is accepted
(取り込みました) is never refused when the game starts, and an over-limit one is one line in the
user's language, exit 2, before any game starts. Also: what a sheet carries (names, memos,
skills) reaches no output with control characters in it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.ccfolia.investigator import investigator
from runner.ccfolia.messages import SheetError
from runner.engine import new_game, step
from runner.rules.coc7 import portable
from runner.story import load as load_story

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
CHARS = ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")


def katari(
    *args: str, stdin: str = "", home: Path, lang: str = "ja"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KATARI_HOME": str(home), "KATARI_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )


def piece(name: str = "多技能 太郎", palette: str = "CC<=60 【目星】", **data: object) -> dict:
    return {
        "kind": "character",
        "data": {
            "name": name,
            "params": [{"label": c, "value": "50"} for c in CHARS],
            "status": [
                {"label": "HP", "value": 10, "max": 10},
                {"label": "MP", "value": 10, "max": 10},
                {"label": "SAN", "value": 50, "max": 99},
                {"label": "幸運", "value": 50, "max": 99},
            ],
            "commands": palette,
            **data,
        },
    }


MANY_SKILLS = piece(palette="\n".join(f"CC<={i % 90 + 5} 【技能{i}】" for i in range(150)))
MANY_LINES = piece(palette="\n".join(["CC<=60 【目星】"] + ["1d6 【ダメージ】"] * 3000))
LONG_SKILL = piece(palette="CC<=60 " + "長" * 80)
WIDE = piece(
    palette="\n".join(f"CC<=50 【{'技' * 55}{i:03d}】" for i in range(110))
)  # > 4,096 characters


@pytest.mark.parametrize(
    ("doc", "says_ja", "says_en"),
    [
        (
            MANY_SKILLS,
            "技能が多すぎます（150 個、120 個まで）",
            "too many skills (150; at most 120)",
        ),
        (
            MANY_LINES,
            "チャットパレットの行が多すぎます（3001 行、2000 行まで）",
            "too many chat palette lines (3001; at most 2000)",
        ),
        (LONG_SKILL, "このシートでは遊べません", "this sheet cannot be played"),
        (WIDE, "このシートでは遊べません", "this sheet cannot be played"),
    ],
    ids=["150-skills", "3000-lines", "long-skill-name", "over-4096"],
)
def test_an_over_limit_sheet_is_refused_where_it_is_read(
    tmp_path: Path, doc: dict, says_ja: str, says_en: str
) -> None:
    f = tmp_path / "piece.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SheetError):
        investigator(doc, "piece.json")
    for args in (
        ("play", "deep_sea_atelier", "--investigator", str(f), "--jsonl"),
        ("play", "deep_sea_atelier", "--investigator", str(f)),
    ):
        r = katari(*args, stdin="1\n", home=tmp_path)
        assert r.returncode == 2, r.stderr
        assert (
            "取り込みました" not in r.stderr and r.stdout == ""
        )  # no game started, nothing played
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and says_ja in lines[0] and "piece.json" in lines[0], r.stderr
    for lang, says in (("ja", says_ja), ("en", says_en)):
        r = katari("roll", "--investigator", str(f), "目星", home=tmp_path, lang=lang)
        assert r.returncode == 2 and r.stdout == ""
        assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1 and says in r.stderr, (
            r.stderr
        )


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=70)
_LABEL = st.one_of(
    _TEXT,
    st.sampled_from(["目星", "聞き耳", "こぶし(パンチ)", "言語(英語)", "SAN", "STR", "近接戦闘"]),
)


@st.composite
def documents(draw: st.DrawFn) -> dict:
    """CCFOLIA pieces and キャラクター保管所 sheets near and over every bound."""
    n = draw(st.sampled_from([0, 3, 119, 120, 121]))
    labels = draw(st.lists(_LABEL, min_size=min(n, 3), max_size=max(n, 3)))
    if n > 3:
        tails = st.sampled_from(["", "\u3000", " ", "\t", "x" * 50])
        labels += ["技能" + str(i) + draw(tails) for i in range(n)]
    brackets = draw(st.sampled_from(["【{}】", "{}", "〈{}〉", "「{}」"]))
    values = st.integers(-50, 2000)
    if draw(st.booleans()):
        lines = [f"CC<={draw(values)} {brackets.format(lb)}" for lb in labels]
        return piece(
            name=draw(_TEXT) or "名",
            palette="\n".join(lines),
            memo=draw(_TEXT),
            externalUrl=draw(_TEXT),
        )
    return {
        "game": "coc7",
        "pc_name": draw(_TEXT) or "名",
        "shuzoku": draw(_TEXT),
        **{f"NA{i}": draw(st.integers(0, 120)) for i in range(1, 9)},
        "NA9": draw(st.integers(-5, 40)),
        "Luck_Left": draw(st.integers(-20, 120)),
        "dmg_bonus": draw(st.sampled_from(["+1D4", "０", "㍿㍿㍿㍿㍿㍿㍿㍿㍿㍿", ""])),
        "SKAN": labels,
        "SKAP": [draw(values) for _ in labels],
        "SKAM": [draw(_TEXT) for _ in labels],
        "arms_name": [draw(_TEXT) for _ in range(draw(st.integers(0, 15)))],
    }


_STORY = None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_any_sheet_the_reader_accepts_the_rule_command_accepts(doc: dict) -> None:
    global _STORY
    _STORY = _STORY or load_story(DEEP)
    try:
        imp = investigator(doc, "doc.json")
    except SheetError as e:
        assert e.message("ja") and e.message("en")
        return
    state, _ = new_game(_STORY, seed=1)
    _, events = step(_STORY, state, portable.command(imp.sheet))
    errors = [e for e in events if e.get("type") == "error"]
    assert not errors, (errors, imp.sheet)
    assert any(e.get("id") == "coc7.imported" for e in events)


def test_white_space_in_names_goes_through_the_rule_command_unchanged() -> None:
    story = load_story(DEEP)
    doc = piece(
        name="早瀬\u3000悠真", palette="\n".join(f"CC<=50 【技能\u3000{i}】" for i in range(40))
    )
    imp = investigator(doc, "x")
    state, _ = new_game(story, seed=1)
    state, events = step(story, state, portable.command(imp.sheet))
    assert not [e for e in events if e.get("type") == "error"]
    pcs = [
        s for s in state.stats.values() if isinstance(s, dict) and s.get("kind") == "investigator"
    ]
    assert pcs[0]["name"] == "早瀬\u3000悠真" and len(pcs[0]["skills"]) == 40


# ---------------------------------------------------------------- {…} in Katari's own palette


def _sheets() -> list[tuple[str, dict]]:
    from runner.ccfolia.investigator import load
    from runner.rules.coc7 import sheet as sh

    out = [(f"pregen {i}", s) for i, s in enumerate(sh.pregens(), 1)]
    for f in sorted((ROOT / "tests" / "data" / "ccfolia").glob("*.json")):
        try:
            imp = load(str(f))
        except SheetError:
            continue  # (the samples of bad input)
        out.append((f.name, portable.from_portable(imp.sheet)))
    return out


def test_the_samples_hold_a_damage_line_with_db() -> None:
    from runner.ccfolia.export import palette

    assert sum("+{DB} 【" in palette(s) for _, s in _sheets()) >= 3


@pytest.mark.parametrize(("name", "s"), _sheets(), ids=[n for n, _ in _sheets()])
def test_every_reference_in_our_exported_palette_resolves_against_its_sheet(
    name: str, s: dict
) -> None:
    """Katari's own export (``katari export --format ccfolia``) read back by ``katari roll
    --investigator``: every ``{…}`` of its palette is a value of the sheet, and every line rolls."""
    from runner.ccfolia.export import piece as to_piece
    from runner.ccfolia.palette import expand, sheet_lookup
    from runner.ccfolia.table import table_roll
    from runner.rules.dice import SeededDice, seed_state

    for sheet in (s, portable.from_portable(investigator(to_piece(s), "out.json").sheet)):
        lines = to_piece(sheet)["data"]["commands"].split("\n")
        if any(w.get("db", True) and not w.get("firearm") for w in sheet.get("weapons", [])):
            assert any("+{DB} 【" in ln for ln in lines)
        for line in lines:
            cmd, missing = expand(line, sheet_lookup(sheet))
            assert not missing, (name, line)
            res, why = table_roll(line, SeededDice(seed_state(7)), sheet)
            assert res is not None, (name, line, cmd, why)


@pytest.mark.parametrize(
    ("db", "rolled"),
    [
        ("+1D4", "(1D3+1D4) ＞ 2[2]+3[3] ＞ 5"),
        ("-1", "(1D3-1) ＞ 2[2]-1 ＞ 1"),
        ("0", "(1D3+0) ＞ 2[2]+0 ＞ 2"),
        ("なし", "(1D3+0) ＞ 2[2]+0 ＞ 2"),
    ],
)
def test_db_in_a_palette_line_at_katari_roll(tmp_path: Path, db: str, rolled: str) -> None:
    doc = json.loads(
        (ROOT / "tests" / "data" / "ccfolia" / "charasheet_coc7.json").read_text(encoding="utf-8")
    )
    doc["dmg_bonus"] = db
    f = tmp_path / "sheet.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    r = katari("roll", "--investigator", str(f), "--dice", "2,3", "1D3+{DB}", home=tmp_path)
    assert r.stdout.strip() == rolled and r.returncode == 0, r.stderr


# ---------------------------------------------------------------- control characters

EVIL = "\x1b]0;pwned\x07\x1b[2J\x9b31m\x00\r\x7f"
_BAD = __import__("re").compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]|\\u00(?:1b|07|9b|00)|\\x1b|pwned")


def _evil_documents() -> list[tuple[str, dict]]:
    e = EVIL
    ccfolia = {
        "kind": "character",
        "data": {
            "name": f"悪{e}名（あく{e}な）",
            "initiative": 50,
            "externalUrl": f"https://x.invalid/{e}",
            "memo": f"職業：探{e}偵\n年齢：30\nメモ{e}",
            "params": [{"label": c + ("" if c != "STR" else ""), "value": "50"} for c in CHARS]
            + [{"label": "DB", "value": f"0{e}"}],
            "status": [
                {"label": "HP", "value": 10, "max": 10},
                {"label": "MP", "value": 10, "max": 10},
                {"label": f"SAN{e}", "value": 50, "max": 99},
                {"label": "SAN", "value": 50, "max": 99},
            ],
            "commands": f"CC<=60 【目{e}星】\nCC<=40 【自作{e}技能】\n1d6+{{DB}} {e}ダメージ\nCC<=30 {e}",
        },
    }
    sheet = {
        "game": "coc7",
        "pc_name": f"悪{e}名",
        "shuzoku": f"探{e}偵",
        "age": 30,
        **{f"NA{i}": v for i, v in enumerate((60, 70, 65, 55, 50, 60, 45, 70), 1)},
        "dmg_bonus": f"+1D4{e}",
        "build_bonus": "1",
        "SKAN": [f"目{e}星", f"言{e}語", f"自作{e}"],
        "SKAM": ["", f"英{e}語", ""],
        "SKAP": ["50", "40", "30"],
        "arms_name": [f"警{e}棒"],
        "arms_hit": ["45"],
        "arms_damage": [f"1D6{e}+DB"],
        "url": f"u{e}",
    }
    return [("ccfolia", ccfolia), ("charasheet", sheet)]


@pytest.mark.parametrize(("kind", "doc"), _evil_documents(), ids=[k for k, _ in _evil_documents()])
def test_no_control_character_from_a_sheet_reaches_any_output(
    tmp_path: Path, kind: str, doc: dict
) -> None:
    """A sheet with control characters in every text field, through import, play and every
    export: none reaches stderr, the --jsonl events, the console, or the exported files."""
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    imp = investigator(doc, "evil.json")
    assert not _BAD.search(json.dumps(imp.sheet, ensure_ascii=False)), imp.sheet
    assert not _BAD.search(" ".join(n.message("ja") + n.message("en") for n in imp.notes))
    outs = []
    home = tmp_path / "home"
    r = katari(
        "play",
        str(DEEP),
        "--seed",
        "5",
        "--new",
        "--jsonl",
        "--investigator",
        str(f),
        stdin="1\n目を覚ます\n1\n",
        home=home,
    )
    assert r.returncode == 0, r.stderr
    assert "悪名" in r.stderr and "悪名" in r.stdout  # the name, without what was in it
    outs += [r.stdout, r.stderr]
    r = katari(
        "play",
        str(DEEP),
        "--seed",
        "5",
        "--new",
        "--investigator",
        str(f),
        stdin="1\n目を覚ます\nroll 目星\nroll 1D3+{DB}\n",
        home=tmp_path / "home2",
    )
    outs += [r.stdout, r.stderr]
    home = tmp_path / "home2"
    save = home / "stories" / "deep_sea_atelier" / "saves" / "autosave.json"
    for fmt in ("replay", "ccfolia-log", "ccfolia"):
        for gm in ((), ("--gm",)):
            r = katari("export", str(save), "--format", fmt, *gm, home=home)
            assert r.returncode == 0 and "悪名" in r.stdout, (fmt, r.stderr)
            outs += [r.stdout, r.stderr]
    r = katari("roll", "--investigator", str(f), "目星", "--seed", "1", home=home)
    outs += [r.stdout, r.stderr]
    for out in outs:
        assert not _BAD.search(out), _BAD.search(out)


def test_the_logs_write_no_control_character_whatever_they_are_given() -> None:
    """A save or transcript is a file from elsewhere: the logs strip what they write."""
    from runner.ccfolia.export import Message, log_html, piece, replay_text
    from runner.rules.coc7 import sheet as sh

    msgs = [
        Message(f"悪{EVIL}名", f"行{EVIL}\n次", kind="pc"),
        Message("KP", f"語り{EVIL}", kind="kp"),
    ]
    for out in (log_html(f"題{EVIL}", msgs), replay_text(f"題{EVIL}", msgs)):
        assert not _BAD.search(out) and "悪名" in out
    s = sh.pregens()[0]
    s.update(name=f"悪{EVIL}名", occupation=f"職{EVIL}", url=f"u{EVIL}")
    s["skills"][f"技{EVIL}"] = 40
    assert not _BAD.search(json.dumps(piece(s), ensure_ascii=False))


# ---------------------------------------------------------------- the user's language

_ENGLISH = __import__("re").compile(
    r"\b(?:the|is|not|save|damaged|recomputed|nested|number|list|object|text)\b"
)


@pytest.mark.parametrize(
    "content",
    [
        "[" * 40 + "]" * 40,
        '{"kind":"character","data":{"name":"a","initiative":Infinity}}',
        '{"kind":"character","data":{"name":"a","initiative":1e999}}',
        '{"kind":"character","data":{"name":"a",NaN:1}}',
        '{"kind":"character","data":{"name":"a","initiative":' + "9" * 50 + "}}",
        '{"kind": x}',
        "[[[[]]",
        '{"kind":"character","data":{"name":"x","params":{}}}',
        '{"kind":"character","data":[]}',
        '{"kind":"character","data":{"name":"x","params":[{"label":"STR","value":"abc"}]}}',
        '{"kind":"character","data":{"name":"x","commands":5}}',
        '{"pc_name":"x","game":"coc7","NA1":true}',
        "https://charasheet.vampire-blood.net/1",
        json.dumps(MANY_SKILLS),
        json.dumps(LONG_SKILL),
    ],
    ids=lambda c: c[:24],
)
def test_a_bad_sheet_is_one_line_in_the_users_language_naming_the_sheet(
    tmp_path: Path, content: str
) -> None:
    f = tmp_path / "sheet.json"
    f.write_text(content, encoding="utf-8")
    for lang in ("ja", "en"):
        for args in (
            ("play", "deep_sea_atelier", "--investigator", str(f)),
            ("roll", "--investigator", str(f), "1d6"),
        ):
            r = katari(*args, home=tmp_path, lang=lang)
            err = r.stderr.strip()
            assert r.returncode == 2 and len(err.splitlines()) == 1 and "Traceback" not in err, err
            assert str(f) in err and "the save" not in err, err
            said = err.split(str(f), 1)[1]
            if lang == "ja":
                assert not _ENGLISH.search(said), err
            else:
                assert not __import__("re").search(r"[ぁ-んァ-ヶ]", said), err


def test_the_sixth_edition_note_is_in_the_users_language() -> None:
    from runner.ccfolia.investigator import load

    imp = load(str(ROOT / "tests" / "data" / "ccfolia" / "charasheet_coc6.json"))
    note = next(n for n in imp.notes if n.code == "sixth")
    assert note.message("ja").endswith("HP、MP、DB、ビルド、MOV は計算し直しました")
    assert not _ENGLISH.search(note.message("ja"))
    assert note.message("en").endswith("HP, MP, DB, Build and MOV recomputed")
