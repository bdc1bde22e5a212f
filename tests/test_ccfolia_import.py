"""Investigators in from the Japanese online table (#16): CCFOLIA's clipboard JSON and
キャラクター保管所's sheet JSON, 6th-edition sheets converted, skill names made canonical,
the sheet validated like a pregen (a mismatch reported, never fixed), through
`katari play --investigator FILE|-` (the console and --jsonl) and the console's import. Bad or
foreign input is one line saying what and where, never a traceback. The samples in
tests/data/ccfolia are ours (made up for these tests)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.ccfolia.investigator import investigator, load
from runner.ccfolia.messages import SheetError
from runner.ccfolia.palette import read_palette
from runner.ccfolia.read import parse
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.portable import command, from_portable, to_portable
from runner.story import load as load_story
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
DATA = ROOT / "tests" / "data" / "ccfolia"


def katari(
    *args: str, stdin: str = "", home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"KATARI_HOME": str(home)} if home else {}), "KATARI_LANG": "ja"}
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )


def codes(imp) -> list[str]:  # noqa: ANN001
    return [n.code for n in imp.notes]


# ---------------------------------------------------------------- what is read


def test_a_ccfolia_piece() -> None:
    imp = load(str(DATA / "ccfolia_7th.json"))
    s = imp.sheet
    assert (imp.source, imp.edition) == ("CCFOLIA", 7)
    assert (s["name"], s["reading"], s["occupation"], s["age"]) == (
        "御影 灯子",
        "みかげ とうこ",
        "古書店主",
        32,
    )
    assert s["chars"] == {
        "STR": 45,
        "CON": 60,
        "POW": 70,
        "DEX": 55,
        "APP": 65,
        "SIZ": 50,
        "INT": 80,
        "EDU": 75,
    }
    assert (s["hp"], s["hp_max"], s["mp"], s["mp_max"], s["san"], s["luck"]) == (
        10,
        11,
        14,
        14,
        70,
        55,
    )
    assert (s["db"], s["build"], s["mov"]) == ("0", 0, 8)
    assert s["url"] == "https://example.invalid/sheets/mikage-toko"
    sk = s["skills"]
    # Every bracket style, CC(1)<=, the canonical names (言語(英語) → ほかの言語(英語), 芸術：… → 芸術/製作(…)).
    assert (sk["図書館"], sk["目星"], sk["聞き耳"], sk["鑑定"], sk["歴史"], sk["オカルト"]) == (
        75,
        60,
        55,
        65,
        60,
        45,
    )
    assert (
        sk["ほかの言語(英語)"] == 51
        and sk["芸術/製作(古書修復)"] == 50
        and sk["近接戦闘(格闘)"] == 25
    )
    assert "近接戦闘" not in sk  # a heading at 0 is no skill
    assert sk["製本"] == 30 and "unknown_skill" in codes(imp)  # kept, and said
    assert codes(imp).count("mismatch") == 0


def test_a_ccfolia_piece_with_lf_reads_as_with_crlf() -> None:
    doc = json.loads((DATA / "ccfolia_7th.json").read_text())
    lf = dict(doc, data=dict(doc["data"], commands=doc["data"]["commands"].replace("\r\n", "\n")))
    assert "\r\n" in doc["data"]["commands"]
    assert investigator(lf).sheet == investigator(doc).sheet


@pytest.mark.parametrize(
    "line,name,value",
    [
        ("CC<=60 【目星】", "目星", 60),
        ("CC(1)<=70 〈聞き耳〉", "聞き耳", 70),
        ("CCB<=75 《図書館》", "図書館", 75),
        ("CC<=50 [鑑定]", "鑑定", 50),
        ("CC<=45 歴史", "歴史", 45),
        ("1d100<=40 「心理学」", "心理学", 40),
        ("CC-1<=30 『水泳』", "水泳", 30),
        ("ＣＣ＜＝６５ 【説得】", "説得", 65),
        ("CC<=55 【聞き耳】 メモ", "聞き耳", 55),
        ("SCC<=20 【隠密】", "隠密", 20),
        ("CC<=80h 【回避】", "回避", 80),
    ],
)
def test_palette_lines_in_every_style(line: str, name: str, value: int) -> None:
    rolls, other = read_palette(line)
    assert not other and len(rolls) == 1
    assert (rolls[0].label, rolls[0].value) == (name, value)


def test_palette_values_from_params_and_status() -> None:
    doc = {
        "kind": "character",
        "data": {
            "name": "テスト",
            "params": [{"label": c, "value": "50"} for c in sh.CHARS]
            + [{"label": "目星", "value": "65"}],
            "status": [{"label": "正気度", "value": 48, "max": 99}],
            "commands": "CC<={SAN} 【正気度ロール】\nCC<={正気度} 【SAN】\nCC<=70 【図書館】\nCC<={ない値} 【何か】",
        },
    }
    imp = investigator(doc)
    assert imp.sheet["san"] == 48 and imp.sheet["skills"]["図書館"] == 70
    assert "skipped_lines" in codes(imp)  # {ない値}: nothing on the piece to read


def test_a_charasheet_picks_the_order_where_hp_and_mp_hold() -> None:
    imp = load(str(DATA / "charasheet_coc7.json"))
    s = imp.sheet
    assert (
        imp.notes[0].code == "order"
        and imp.notes[0].kw["order"] == "STR CON SIZ DEX APP INT POW EDU"
    )
    assert "STR CON SIZ DEX APP INT POW EDU" in imp.notes[0].message("ja")
    assert s["chars"] == {
        "STR": 60,
        "CON": 70,
        "SIZ": 65,
        "DEX": 55,
        "APP": 50,
        "INT": 60,
        "POW": 45,
        "EDU": 70,
    }
    assert (s["hp"], s["mp"], s["san"], s["san_start"], s["luck"], s["luck_start"]) == (
        13,
        9,
        42,
        45,
        55,
        60,
    )
    assert (s["db"], s["build"], s["occupation"], s["age"]) == ("+1D4", 1, "救急救命士", 29)
    sk = s["skills"]
    assert sk["運転(自動車)"] == 50 and sk["近接戦闘(格闘)"] == 45 and sk["ほかの言語(英語)"] == 21
    assert sk["科学(薬学)"] == 31 and sk["応急手当"] == 70
    assert s["weapons"] == [
        {"name": "警棒", "skill": "近接戦闘(格闘)", "damage": "1d6", "db": True, "impale": False}
    ]


def test_the_other_orders_of_na1_to_na8() -> None:
    doc = json.loads((DATA / "charasheet_coc7.json").read_text())
    # The site's own order (STR CON POW DEX APP SIZ INT EDU): the same investigator written so.
    c = {"STR": 60, "CON": 70, "SIZ": 65, "DEX": 55, "APP": 50, "INT": 60, "POW": 45, "EDU": 70}
    site = ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")
    doc2 = dict(doc, **{f"NA{i}": str(c[k]) for i, k in enumerate(site, 1)})
    imp = investigator(doc2)
    assert imp.sheet["chars"] == c and imp.notes[0].kw["order"] == " ".join(site)
    # No order fits: said, and read in the site's order.
    doc3 = dict(doc, NA9="30")
    imp = investigator(doc3)
    assert imp.notes[0].code == "order_none"
    assert any(n.code == "mismatch" and n.kw["have"] == 30 for n in imp.notes)


def test_a_mismatch_is_reported_and_the_sheets_value_kept() -> None:
    doc = json.loads((DATA / "ccfolia_7th.json").read_text())
    doc["data"]["status"][0] = {"label": "HP", "value": 12, "max": 12}  # (60+50)/10 is 11
    doc["data"]["params"][-3] = {"label": "DB", "value": "+1D4"}  # STR+SIZ 95: DB 0
    imp = investigator(doc)
    assert imp.sheet["hp_max"] == 12 and imp.sheet["hp"] == 12 and imp.sheet["db"] == "+1D4"
    mism = [n.message("ja") for n in imp.notes if n.code == "mismatch"]
    assert any(
        "HP の最大値 が 12 ですが、(CON+SIZ)/10 = 11 です（シートの値のままにします）" == m
        for m in mism
    )
    assert any(m.startswith("DB が +1D4 ですが") for m in mism)
    assert any("HP max is 12, but (CON+SIZ)/10 = 11" in n.message("en") for n in imp.notes)


def test_a_sixth_edition_piece_is_converted_and_every_change_listed() -> None:
    imp = load(str(DATA / "ccfolia_6th.json"))
    s = imp.sheet
    assert imp.edition == 6
    assert s["chars"] == {
        "STR": 65,
        "CON": 60,
        "SIZ": 75,
        "DEX": 70,
        "APP": 50,
        "INT": 65,
        "POW": 55,
        "EDU": 70,
    }
    assert (s["hp_max"], s["mp_max"], s["db"], s["build"], s["mov"], s["san"], s["luck"]) == (
        13,
        11,
        "+1D4",
        1,
        7,
        55,
        55,
    )
    sk = s["skills"]
    assert (
        sk["近接戦闘(格闘)"] == 75
        and sk["射撃(拳銃)"] == 45
        and sk["隠密"] == 60
        and sk["芸術/製作(写真術)"] == 35
    )
    note = next(n for n in imp.notes if n.code == "sixth").message("ja")
    assert note.startswith("第6版のシートを第7版に換算しました：STR 13→65, CON 12→60")
    assert (
        "こぶし(パンチ)→近接戦闘(格闘)" in note and "忍び歩き→隠密" in note and "HP、MP、DB" in note
    )
    assert any(n.code == "unknown_skill" and "値切り" in n.kw["names"] for n in imp.notes)


def test_a_sixth_edition_charasheet() -> None:
    imp = load(str(DATA / "charasheet_coc6.json"))
    s = imp.sheet
    assert imp.edition == 6 and imp.notes[0].code == "order_six"
    assert s["chars"]["INT"] == 75 and s["chars"]["EDU"] == 80 and s["hp_max"] == 10
    sk = s["skills"]
    assert (
        sk["近接戦闘(格闘)"] == 50
        and sk["射撃(ライフル/ショットガン)"] == 30
        and sk["手さばき"] == 15
    )
    assert (
        sk["母国語(日本語)"] == 80
        and sk["科学(化学)"] == 1
        and sk["自然"] == 10
        and sk["図書館"] == 75
    )


def test_the_portable_form_is_small_and_faithful() -> None:
    for f in (
        "ccfolia_7th.json",
        "ccfolia_6th.json",
        "charasheet_coc7.json",
        "charasheet_coc6.json",
    ):
        s = load(str(DATA / f)).sheet
        cmd = command(s)
        assert len(cmd) < 4096 and " " not in cmd[len("@investigator ") :]
        full = from_portable(s)
        assert full["name"] == s["name"] and full["hp"] == s["hp"] and full["chars"] == s["chars"]
        assert from_portable(to_portable(full))["skills"] == {
            k: v for k, v in full["skills"].items() if k in to_portable(full)["skills"]
        }


# ---------------------------------------------------------------- through the katari commands


def _state(out: str) -> dict:
    states = [json.loads(x) for x in out.splitlines() if x.startswith('{"type":"state"')]
    return states[-1]


def test_katari_play_investigator_file_headless(tmp_path: Path) -> None:
    r = katari(
        "play",
        str(DEEP),
        "--jsonl",
        "--investigator",
        str(DATA / "charasheet_coc7.json"),
        stdin="look\n",
        home=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "早瀬 悠真（キャラクター保管所）を取り込みました" in r.stderr
    assert "STR CON SIZ DEX APP INT POW EDU の順に読みました" in r.stderr
    st = _state(r.stdout)
    pc = st["coc7"]["investigators"][0]
    assert (pc["name"], pc["hp"], pc["hp_max"], pc["san"], pc["luck"]) == (
        "早瀬 悠真",
        13,
        13,
        42,
        55,
    )
    assert st["node"] == "belongings"  # the character choice is made


def test_katari_play_investigator_from_pasted_json_then_commands(tmp_path: Path) -> None:
    pasted = (DATA / "ccfolia_6th.json").read_text()  # (indented: many lines)
    r = katari(
        "play",
        str(DEEP),
        "--jsonl",
        "--investigator",
        "-",
        stdin=pasted + "\nスマホ\n",
        home=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "第6版のシートを第7版に換算しました" in r.stderr
    st = _state(r.stdout)
    assert st["coc7"]["investigators"][0]["name"] == "犬飼 鉄平" and st["inventory"] == {"phone": 1}


def test_the_console_plays_the_investigator(tmp_path: Path) -> None:
    r = katari(
        "play",
        str(DEEP),
        "--new",
        "--investigator",
        str(DATA / "ccfolia_7th.json"),
        stdin="@sheet\n",
        home=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    # (names keep their spaces as the sheet writes them)
    assert "探索者：御影 灯子（みかげ とうこ）（古書店主）を取り込みました" in r.stdout
    assert "HP 10/11" in r.stdout and "図書館 75" in r.stdout


@pytest.mark.parametrize(
    "content,says",
    [
        ("", "空です"),
        ('{"kind":"character","data":{"name":"切れ', "JSON として読めません"),
        ("[" * 5000 + "]" * 5000, "JSON の入れ子が深すぎます"),
        ("[1, 2, 3]", "探索者のデータではありません"),
        ('{"kind":"room","data":{}}', "「room」のデータです"),
        ('{"game":"sw25","pc_name":"x"}', "「sw25」のシートです"),
        ('{"kind":"character","data":{"name":""}}', "data.name：探索者の名前がありません"),
        (
            '{"kind":"character","data":{"name":"x","params":{}}}',
            "data.params：リストではありません",
        ),
        (
            '{"kind":"character","data":{"name":"x","params":[{"label":"STR","value":"abc"}]}}',
            "data.params[0].value：'abc' は数ではありません",
        ),
        (
            '{"kind":"character","data":{"name":"x","params":[{"label":"STR","value":"50"}]}}',
            "能力値が足りません（CON SIZ DEX APP INT POW EDU）",
        ),
        (
            '{"kind":"character","data":{"name":"x","params":[' + ",".join(["{}"] * 300) + "]}}",
            "多すぎます（300 個、200 個まで）",
        ),
        ('{"pc_name":"x","game":"coc7","NA1":"50"}', "NA2：能力値が足りません"),
        ("https://charasheet.vampire-blood.net/1234567", "Katari はネットから何も取ってきません"),
        ("not json at all", "JSON として読めません"),
    ],
)
def test_bad_or_foreign_input_is_one_clear_line(tmp_path: Path, content: str, says: str) -> None:
    f = tmp_path / "sheet.json"
    f.write_text(content)
    r = katari("play", str(DEEP), "--jsonl", "--investigator", str(f), home=tmp_path / "home")
    assert r.returncode == 2
    err = r.stderr.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert err.startswith("katari play: ") and str(f) in err and says in err


def test_input_is_bounded_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"{" + b" " * (2 << 20) + b"}")
    r = katari("play", str(DEEP), "--jsonl", "--investigator", str(big), home=tmp_path / "home")
    assert (
        r.returncode == 2 and "大きすぎます" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    )
    r = katari("play", str(DEEP), "--jsonl", "--investigator", "/dev/zero", home=tmp_path / "home")
    assert r.returncode == 2 and "/dev/zero" in r.stderr and "Traceback" not in r.stderr
    r = katari(
        "play",
        str(DEEP),
        "--jsonl",
        "--investigator",
        str(tmp_path / "none.json"),
        home=tmp_path / "home",
    )
    assert r.returncode == 2 and "none.json" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(SheetError):
        parse('{"a":' * 100 + "1" + "}" * 100)


def test_only_for_call_of_cthulhu_stories(tmp_path: Path) -> None:
    r = katari(
        "play",
        "ureg_window_room",
        "--jsonl",
        "--investigator",
        str(DATA / "ccfolia_7th.json"),
        home=tmp_path,
    )
    assert r.returncode == 2 and "coc7" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def _console(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> str:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    out = io.StringIO()
    Repl(
        load_story(DEEP),
        io=PlainIO(io.StringIO(text), out, cols=200),
        new=True,
        seed=3,
        history=False,
    ).run()
    return out.getvalue()


def test_json_pasted_at_the_character_choice_is_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pasted = (DATA / "charasheet_coc6.json").read_text()  # many lines, as a paste
    screen = _console(tmp_path, monkeypatch, pasted + "\n@sheet\n")
    assert "宮坂 しのぶ（キャラクター保管所）を取り込みました" in screen
    assert "第6版のシートを第7版に換算しました" in screen
    assert "探索者：宮坂 しのぶ（記者）を取り込みました" in screen
    assert "図書館 75" in screen


def test_the_console_import_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = _console(
        tmp_path,
        monkeypatch,
        f"import {DATA / 'ccfolia_7th.json'}\nimport {DATA / 'ccfolia_6th.json'}\n"
        f"取り込む {DATA / 'broken.json'}\n",
    )
    assert "御影 灯子（CCFOLIA）を取り込みました" in screen
    # Once the game has moved on, another investigator is refused, in one line.
    assert "取り込んだ探索者はゲームの始め（探索者を選ぶところ）でだけ使えます" in screen
    assert "broken.json：JSON として読めません" in screen and "Traceback" not in screen
    screen = _console(
        tmp_path, monkeypatch, "import\n" + (DATA / "ccfolia_7th.json").read_text() + "\n\n@sheet\n"
    )
    assert "貼り付けてください" in screen and "HP 10/11" in screen


def test_a_player_cannot_type_the_rule_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = load(str(DATA / "ccfolia_7th.json")).sheet
    screen = _console(tmp_path, monkeypatch, command(s) + "\n")
    assert "@investigator" in screen and "取り込みました" not in screen.split("▶ @investigator")[-1]


def test_the_character_choice_offers_the_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = _console(tmp_path, monkeypatch, "1\n")
    hint = "  import：CCFOLIA・キャラクター保管所の探索者を取り込む（JSON を貼り付けても）"
    assert screen.count(hint) == 1
    assert screen.index("5. ダイスで新しい探索者を作る") < screen.index(hint) < screen.index("▶ 1")
