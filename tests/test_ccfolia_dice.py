"""Every BCDice command players type (#16), through `katari roll` and the console's `roll`:
repeats, choice, D66, keep, * and / rounding, C(...), CoC 7th (CC, CBR, FAR, the tables), the
6th edition's CCB/RES/CBRB, the secret S (hidden from the shared screen and the players' view
until reveal/公開), the comment echoed as CCFOLIA shows it, and chat-palette rolls against the
investigator (roll 目星, roll CC<={SAN}). tests/test_bcdice_differential.py compares thousands
of commands with BCDice itself; these pin the behaviour of the front ends."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.rules.bcdice import REPEAT_NESTED, REPEAT_RANGE
from runner.rules.coc7 import tables
from runner.rules.coc7.bcdice import bcdice
from runner.rules.dice import ManualDice
from runner.story import load
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
DEEP = ROOT / "stories" / "deep_sea_atelier"
DATA = ROOT / "tests" / "data" / "ccfolia"


def katari(
    *args: str, stdin: str = "", home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"KATARI_HOME": str(home)} if home else {})}
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=env,
    )


# ---------------------------------------------------------------- katari roll


@pytest.mark.parametrize(
    "args,dice,out",
    [
        (["x3", "1d6"], "4,5,6", "#1\n(1D6) ＞ 4\n\n#2\n(1D6) ＞ 5\n\n#3\n(1D6) ＞ 6"),
        (["rep2 2D6"], "1,2,3,4", "#1\n(2D6) ＞ 3[1,2] ＞ 3\n\n#2\n(2D6) ＞ 7[3,4] ＞ 7"),
        (["choice[逃げる,戦う,隠れる]"], "2", "(choice[逃げる,戦う,隠れる]) ＞ 戦う"),
        (["choice(a,b,c)"], "3", "(choice(a,b,c)) ＞ c"),
        (["choice", "a", "b", "c"], "1", "(choice a b c) ＞ a"),
        (["D66"], "3,5", "(D66) ＞ 35"),
        (["5D6KH3"], "2,4,3,3,5", "(5D6KH3) ＞ 12[2,3,3,4,5] ＞ 12"),
        (["1d6/2"], "5", "(1D6/2) ＞ 5[5]/2 ＞ 2"),
        (["1d6/2U"], "5", "(1D6/2U) ＞ 5[5]/2U ＞ 3"),
        (["(1d6+2)*2"], "4", "((1D6+2)*2) ＞ (4[4]+2)*2 ＞ 12"),
        (["C(10/3R)"], "", "c(10/3R) ＞ 3"),
        (
            ["CC(1)<=70", "〈聞き耳〉"],
            "2,3,10",
            "CC(1)<=70 〈聞き耳〉 (1D100<=70) ボーナス・ペナルティダイス[1] ＞ 20, 30 ＞ 20 ＞ ハード成功",
        ),
        (["CBR(50,20)"], "30", "(1d100<=50,20) ＞ 30[レギュラー成功,失敗] ＞ 部分的成功"),
        (["CCB<=75"], "4", "(1D100<=75) ＞ 4 ＞ 決定的成功/スペシャル"),
        (["RESB(10-8)"], "88", "(1d100<=60) ＞ 88 ＞ 失敗"),
        (["CBRB(50,60)"], "52", "(1d100<=50,60) ＞ 52[失敗,成功] ＞ 部分的成功"),
        (["PH"], "13", "恐怖症表(13) ＞ クモ恐怖症（Arachnophobia）：クモを恐れる。"),
        (
            ["BMR"],
            "6,4",
            "狂気の発作（リアルタイム）(6) ＞ 失神：その場で気を失う。(1D10＞4ラウンド)",
        ),
    ],
)
def test_katari_roll_speaks_bcdice(args: list[str], dice: str, out: str) -> None:
    r = katari("roll", *args, *(["--dice", dice] if dice else []))
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip("\n") == out


def test_a_comment_is_echoed_before_the_result_as_ccfolia_shows_it() -> None:
    r = katari("roll", "CC<=60 【目星】", "--dice", "2,3")
    assert (
        r.stdout.strip()
        == "CC<=60 【目星】 (1D100<=60) ボーナス・ペナルティダイス[0] ＞ 23 ＞ 23 ＞ ハード成功"
    )
    js = json.loads(katari("roll", "2D6 ダメージ", "--dice", "1,2", "--json").stdout)
    assert (
        js["comment"] == "ダメージ"
        and js["text"] == "(2D6) ＞ 3[1,2] ＞ 3"
        and js["line"] == "2D6 ダメージ (2D6) ＞ 3[1,2] ＞ 3"
    )


def test_a_secret_roll_says_so_in_json() -> None:
    for cmd in ("SCC<=50", "s1d100", "Sx2 1d6", "Schoice[a,b]", "SD66"):
        js = json.loads(katari("roll", cmd, "--seed", "1", "--json").stdout)
        assert js["secret"] is True, cmd


def test_repeats_are_bounded_as_bcdice() -> None:
    assert bcdice("x101 1d6", ManualDice([])).text == REPEAT_RANGE
    assert bcdice("x0 1d6", ManualDice([])).text == REPEAT_RANGE
    assert bcdice("x2 rep3 1d6", ManualDice([])).text == REPEAT_NESTED
    assert bcdice("x99999999999999 1d6", ManualDice([])).text == REPEAT_RANGE
    assert (
        bcdice("x2 zzz", ManualDice([])).text
        == "繰り返し対象のコマンドが実行できませんでした (zzz)"
    )


def test_the_investigators_values_by_name(tmp_path: Path) -> None:
    sheet = str(DATA / "ccfolia_7th.json")
    r = katari("roll", "目星", "--investigator", sheet, "--dice", "4,2")
    assert (
        r.stdout.strip()
        == "CC<=60 【目星】 (1D100<=60) ボーナス・ペナルティダイス[0] ＞ 42 ＞ 42 ＞ レギュラー成功"
    )
    r = katari("roll", "CC<={SAN}", "【正気度ロール】", "--investigator", sheet, "--dice", "1,5")
    assert r.stdout.strip().startswith("CC<=70 【正気度ロール】 (1D100<=70)")
    r = katari("roll", "CC(1)<={図書館}", "--investigator", sheet, "--dice", "3,1,0")
    assert (
        "(1D100<=75) ボーナス・ペナルティダイス[1] ＞ 30, 10 ＞ 10 ＞ イクストリーム成功"
        in r.stdout
    )
    r = katari("roll", "CC<={水中呼吸}", "--investigator", sheet)
    assert r.returncode == 2 and "水中呼吸" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = katari("roll", "CC<={SAN}")
    assert r.returncode == 2 and "SAN" in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------- the tables


def _alpha(term: str) -> str:
    return re.sub(r"[^a-z]", "", term.lower())


def test_phobias_and_manias_follow_the_seventh_editions_numbering() -> None:
    assert len(tables.PHOBIAS) == 100 and len(tables.MANIAS) == 100
    assert len(tables.CASTING_MINOR) == 8 and len(tables.CASTING_MAJOR) == 8
    for table in (tables.PHOBIAS, tables.MANIAS):  # the rulebook lists them alphabetically
        terms = [_alpha(en) for _ja, en, _what in table]
        assert terms == sorted(terms)
        assert len({ja for ja, _en, _what in table}) == 100
    assert tables.PHOBIAS[12][1] == "Arachnophobia" and tables.PHOBIAS[64][1] == "Octophobia"
    assert tables.PHOBIAS[93][1] == "Triskadekaphobia" and tables.MANIAS[85][1] == "Pyromania"
    assert (
        bcdice("MA", ManualDice([86])).text
        == "マニア表(86) ＞ 放火マニア（Pyromania）：火をつけずにいられない。"
    )


def test_the_bouts_are_the_rules_own_tables() -> None:
    from runner.rules.coc7.sanity import BOUTS_REALTIME, BOUTS_SUMMARY

    for n in range(1, 11):
        assert BOUTS_REALTIME[n - 1][0] in bcdice("BMR", ManualDice([n, 3])).text
        assert (
            bcdice("BMS", ManualDice([n, 3])).text
            == f"狂気の発作（サマリー）({n}) ＞ {BOUTS_SUMMARY[n - 1][0]}(1D10＞3時間)"
        )


# ---------------------------------------------------------------- the console


def _console(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lines: list[str],
    *,
    gm: bool = False,
    view: Path | None = None,
) -> str:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    out = io.StringIO()
    repl = Repl(
        load(DEEP),
        io=PlainIO(io.StringIO("\n".join(lines) + "\n"), out, cols=200),
        new=True,
        seed=3,
        gm=gm,
        history=False,
        player_view=view,
    )
    repl.run()
    return out.getvalue()


def test_console_roll_reads_every_command_and_the_investigators_skills(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = _console(
        tmp_path,
        monkeypatch,
        [
            "2",
            "roll CC<=50 目星",
            "roll 目星",
            "roll CC<={図書館} 【図書館】",
            "roll x2 2D6",
            "roll choice[a,b,c]",
            "roll D66",
            "roll 1d6 + 1d4",
            "roll FAR(10,70,98)",
            "roll PH",
            "roll CCB<=50",
            "roll {水中呼吸}",
            "ダイス 1d100",
        ],
    )
    assert re.search(
        r"CC<=50 目星 \(1D100<=50\) ボーナス・ペナルティダイス\[0\] ＞ \d+ ＞ \d+ ＞ \S+", screen
    )
    # 佐伯 遥 (pregen 2): 目星 40, 図書館 70.
    assert re.search(r"CC<=40 【目星】 \(1D100<=40\)", screen)
    assert re.search(r"CC<=70 【図書館】 \(1D100<=70\)", screen)
    assert "#1\n(2D6) ＞" in screen and "#2\n(2D6) ＞" in screen
    assert re.search(r"\(choice\[a,b,c\]\) ＞ [abc]\n", screen) and re.search(
        r"\(D66\) ＞ [1-6][1-6]\n", screen
    )
    assert re.search(r"\(1D6\+1D4\) ＞ \d\[\d\]\+\d\[\d\] ＞ \d+", screen)
    assert "ボーナス・ペナルティダイス[0]\n1回目: ＞" in screen and "恐怖症表(" in screen
    assert re.search(
        r"\(1D100<=50\) ＞ \d+ ＞ (成功|失敗|スペシャル|決定的成功|致命的失敗)", screen
    )
    assert "「水中呼吸」は探索者のシートにありません" in screen
    assert re.search(r"\(1D100\) ＞ \d+\n", screen)
    assert "Traceback" not in screen


def test_a_secret_roll_is_hidden_until_revealed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = _console(
        tmp_path,
        monkeypatch,
        ["1", "roll SCC<=50 目星", "roll Sx2 1d6", "roll S2d6", "reveal", "公開"],
    )
    first = screen.split("▶ reveal")[0]
    assert "SCC<=50 目星：シークレットダイス（「公開」で結果を出します）" in first
    assert "Sx2 1d6：シークレットダイス" in first
    assert (
        "(1D100<=50)" not in first and "(1D6) ＞" not in first
    )  # nothing of the result on the shared screen
    after = screen.split("▶ reveal")[1]
    assert "シークレットダイスを公開します：" in after
    assert re.search(r"SCC<=50 目星 \(1D100<=50\) ボーナス・ペナルティダイス\[0\] ＞ \d+", after)
    assert re.search(r"Sx2 1d6\n#1\n\(1D6\) ＞ \d\n\n#2\n\(1D6\) ＞ \d", after)  # with its command
    assert re.search(r"S2d6 \(2D6\) ＞ \d+\[\d,\d\] ＞ \d+", after)
    assert "公開するシークレットダイスはありません" in screen.split("▶ 公開")[1]


def test_a_gms_secret_roll_stays_off_the_players_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = tmp_path / "view.jsonl"
    screen = _console(
        tmp_path,
        monkeypatch,
        ["1", "roll 2d6", "roll SCC<=40 【心理学】", "公開"],
        gm=True,
        view=view,
    )
    assert re.search(
        r"（シークレットダイス・プレイヤーには伏せています）SCC<=40 【心理学】 \(1D100<=40\)",
        screen,
    )
    lines = [json.loads(x) for x in view.read_text().splitlines()]
    texts = [
        e.get("text", "")
        for e in lines
        if e.get("type") == "narration" and e.get("id") == "table.roll"
    ]
    assert texts[0].startswith("(2D6) ＞")  # a plain roll: the table sees it
    assert texts[1] == "シークレットダイス"  # the secret one: only that it was made
    secret_at = next(i for i, e in enumerate(lines) if e.get("text") == "シークレットダイス")
    revealed_at = next(i for i, e in enumerate(lines) if "(1D100<=40)" in e.get("text", ""))
    assert revealed_at > secret_at  # the result reaches the players only with 公開
    assert not any("(1D100<=40)" in e.get("text", "") for e in lines[:revealed_at])
