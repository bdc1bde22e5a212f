"""The investigator and the game out to the online table (#16): `katari export SAVE|TRANSCRIPT
--format ccfolia` (a CCFOLIA piece to paste onto a board: the values after play, the params as
text, a 7th-edition chat palette), `--format ccfolia-log` (the HTML of CCFOLIA's ログ出力) and
`--format replay` (リプレイ text). The round trip: a sheet read in, played, written out, read in
again gives the same investigator."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.ccfolia.export import Message, log_html, piece
from runner.ccfolia.investigator import investigator, load
from runner.ccfolia.palette import read_palette
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.portable import from_portable

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
        timeout=180,
        env=env,
    )


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A GM's game with an imported investigator: a roll, 2 damage (an override), a transcript."""
    home = tmp_path_factory.mktemp("home")
    md = home / "session.md"
    cmds = ["スマホ", "目を覚ます", "ダメージ 2", "1", "1", "2", "4"]
    r = katari(
        "play",
        str(DEEP),
        "--gm",
        "--seed",
        "5",
        "--new",
        "--investigator",
        str(DATA / "ccfolia_7th.json"),
        "--transcript",
        str(md),
        stdin="\n".join(cmds) + "\n",
        home=home,
    )
    assert r.returncode == 0, r.stderr
    return home / "stories" / "deep_sea_atelier" / "saves" / "autosave.json", md


@pytest.mark.parametrize(
    "f", ["ccfolia_7th.json", "ccfolia_6th.json", "charasheet_coc7.json", "charasheet_coc6.json"]
)
def test_round_trip_through_a_ccfolia_piece(f: str) -> None:
    s = from_portable(load(str(DATA / f)).sheet)
    again = investigator(json.loads(json.dumps(piece(s)))).sheet
    assert again["name"] == s["name"] and again.get("reading", "") == s.get("reading", "")
    assert again["chars"] == s["chars"]
    for k in ("hp", "hp_max", "mp", "mp_max", "san", "luck", "db", "build", "mov"):
        assert again[k] == s[k], k
    for k, v in s["skills"].items():
        assert again["skills"].get(k, sh.base_value(k, s["chars"])) == v, k


def test_the_piece_has_what_ccfolia_reads() -> None:
    s = from_portable(load(str(DATA / "charasheet_coc7.json")).sheet)
    d = piece(s)["data"]
    assert (
        piece(s)["kind"] == "character"
        and d["name"] == "早瀬 悠真（はやせ ゆうま）"
        and d["initiative"] == 55
    )
    assert d["status"] == [
        {"label": "HP", "value": 13, "max": 13},
        {"label": "MP", "value": 9, "max": 9},
        {"label": "SAN", "value": 42, "max": 99},
        {"label": "幸運", "value": 55, "max": 99},
    ]
    assert d["params"][:8] == [{"label": c, "value": str(s["chars"][c])} for c in sh.CHARS]
    assert d["params"][8:] == [
        {"label": "DB", "value": "+1D4"},
        {"label": "ビルド", "value": "1"},
        {"label": "MOV", "value": "7"},
    ]
    assert all(isinstance(p["value"], str) for p in d["params"])
    lines = d["commands"].split("\n")
    assert lines[:4] == [
        "CC<={SAN} 【正気度ロール】",
        "CC<={INT} 【アイデア】",
        "CC<={EDU} 【知識】",
        "CC<={幸運} 【幸運】",
    ]
    rolls, other = read_palette(d["commands"])
    names = {r.label for r in rolls}
    for ja, _en, _b, _m in sh.SKILLS:  # a line for every skill of the 7th edition
        if ja not in ("ほかの言語", "母国語", "運転(自動車)") and "(" not in ja:
            assert ja in names or any(n.startswith(ja + "(") for n in names), ja
    assert (
        "CC<=70 【応急手当】" in lines
        and "CC<=31 【科学(薬学)】" in lines
        and "CC<=70 【母国語(日本語)】" in lines
    )
    assert "1D6+{DB} 【警棒のダメージ】" in lines
    assert other == [(n, ln) for n, ln in other if "ダメージ" in ln]  # the rest are damage lines


def test_katari_export_ccfolia_after_play(played: tuple[Path, Path]) -> None:
    save, md = played
    for src in (save, md):
        r = katari("export", str(src), "--format", "ccfolia")
        assert r.returncode == 0, r.stderr
        d = json.loads(r.stdout)["data"]
        assert d["name"] == "御影 灯子（みかげ とうこ）"
        assert d["status"][0] == {"label": "HP", "value": 8, "max": 11}  # after the 2 damage
        assert "職業：古書店主" in d["memo"] and "深海のアトリエ" in d["memo"]
        assert d["externalUrl"] == "https://example.invalid/sheets/mikage-toko"
        back = investigator(json.loads(r.stdout)).sheet
        assert back["hp"] == 8 and back["skills"]["図書館"] == 75


def test_katari_export_ccfolia_log(played: tuple[Path, Path], tmp_path: Path) -> None:
    save, md = played
    out = tmp_path / "log.html"
    r = katari("export", str(save), "--format", "ccfolia-log", "-o", str(out))
    assert r.returncode == 0, r.stderr
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<title>深海のアトリエ - logs</title>" in page
    ps = re.findall(
        r'<p style="color:(#[0-9a-f]{6});">\n\s+<span> \[(\w+)\]</span>\n\s+<span>([^<]*)</span> :\n'
        r"\s+<span>\n\s+(.*?)\n\s+</span>\n\s+</p>",
        page,
    )
    assert len(ps) == page.count("<p ") and len(ps) > 10
    assert {tab for _c, tab, _n, _t in ps} == {"main"}  # a players' log: no keeper notes
    texts = [(n, html.unescape(t)) for _c, _tab, n, t in ps]
    assert ("御影 灯子", "スマートフォンを持っていた") in texts
    assert ("system", "[ 御影 灯子 ] HP : 10 → 8") in texts
    rolls = [t for n, t in texts if n == "御影 灯子" and t.startswith("CC<=")]
    assert rolls and re.match(
        r"^CC<=\d+ 【\S+】 \(1D100<=\d+\) ボーナス・ペナルティダイス\[0\] ＞ \d+ ＞ \d+ ＞ \S+",
        rolls[0],
    )
    assert "CC&lt;=" in page and "<=" not in page.split("<body>")[1].replace("<p", "").replace(
        "<span", ""
    ).replace("</", "")
    assert "!damage" not in page and "DA-24" not in page and "真相" not in page
    gm = katari("export", str(save), "--format", "ccfolia-log", "--gm").stdout
    assert (
        "<span> [info]</span>" in gm
        and "真相" in gm
        and "<span> [other]</span>" in gm
        and "!damage 2" in gm
    )
    assert katari("export", str(md), "--format", "ccfolia-log").stdout == page


def test_katari_export_replay(played: tuple[Path, Path]) -> None:
    save, _ = played
    r = katari("export", str(save), "--format", "replay")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert text.startswith("『深海のアトリエ』リプレイ\n")
    assert (
        "\nKP：深海のアトリエへようこそ。" in text
        and "\n御影 灯子：スマートフォンを持っていた\n" in text
    )
    assert "\n[ 御影 灯子 ] HP : 10 → 8\n" in text
    assert re.search(r"\n御影 灯子：CC<=\d+ 【\S+】 \(1D100<=\d+\)", text)
    assert "KPメモ" not in text and "!damage" not in text
    assert "KP（KPメモ）：" in katari("export", str(save), "--format", "replay", "--gm").stdout


def test_log_escapes_and_breaks_lines() -> None:
    page = log_html("<題>", [Message("A&B", "1 < 2\n<script>", "main")])
    assert "<title>&lt;題&gt; - logs</title>" in page
    assert "<span>A&amp;B</span> :" in page and "1 &lt; 2<br>&lt;script&gt;" in page


def test_bad_export_input_is_one_line(tmp_path: Path) -> None:
    f = tmp_path / "x.json"
    f.write_text("{}")
    r = katari("export", str(f), "--format", "ccfolia")
    assert (
        r.returncode == 2
        and len(r.stderr.strip().splitlines()) == 1
        and "Traceback" not in r.stderr
    )
    r = katari("export", str(tmp_path / "none.json"))
    assert (
        r.returncode == 2
        and len(r.stderr.strip().splitlines()) == 1
        and "Traceback" not in r.stderr
    )
    r = katari("export", "x", "--format", "pdf")
    assert r.returncode == 2 and "invalid choice" in r.stderr
