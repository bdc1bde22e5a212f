"""`katari import` at the door: bad input gets one clear line in the user's language and
leaves nothing behind; good input in any encoding, width or markup reads the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.cli import main
from runner.importer import ImportFailure, parse_document
from runner.importer.read import MAX_BYTES, normalise, read_document

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "import"

SCENARIO = """■導入
探索者は古い洋館に招かれる。
■書斎
・本棚を調べる→〈目星〉。成功：古い日記が見つかる。
日記を読んだ者はSANチェック（0/1d3）。
■エンディング
■TRUE END「朝」
日記を燃やした場合。
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def _bad_inputs(tmp: Path) -> dict[str, Path]:
    out = {}
    (tmp / "empty.txt").write_bytes(b"")
    out["empty"] = tmp / "empty.txt"
    (tmp / "blank.txt").write_text(" \n\u3000\n\t\n", encoding="utf-8")
    out["blank"] = tmp / "blank.txt"
    (tmp / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)
    out["png"] = tmp / "image.png"
    (tmp / "noise.txt").write_bytes(bytes((i * 97 + 13) % 256 for i in range(20000)))
    out["noise"] = tmp / "noise.txt"
    (tmp / "doc.docx").write_bytes(b"PK\x03\x04" + b"\x00" * 200)
    out["docx"] = tmp / "doc.docx"
    (tmp / "recipe.txt").write_text(
        "肉じゃがの作り方\n\nじゃがいもは皮をむいて一口大に切る。玉ねぎはくし切りにする。\n"
        "鍋に油を熱し、牛肉を炒める。色が変わったら野菜を加え、だし汁を注ぐ。\n"
        "砂糖と醤油で味をととのえ、落とし蓋をして二十分ほど煮る。\n",
        encoding="utf-8",
    )
    out["not a scenario"] = tmp / "recipe.txt"
    (tmp / "notes.md").write_text(
        "# 旅行記\n\n## 一日目\n朝の電車で海へ向かった。目星をつけていた店は閉まっていた。\n\n## 二日目\n"
        "雨。宿で本を読んだ。\n\n## エンディング\n無事に帰宅した。\n",
        encoding="utf-8",
    )
    out["headings, no rolls"] = tmp / "notes.md"
    big = tmp / "big.txt"
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)  # 50 MB (sparse: costs no disk)
    out["50 MB"] = big
    out["missing"] = tmp / "no_such_file.txt"
    (tmp / "folder").mkdir()
    out["folder"] = tmp / "folder"
    return out


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_bad_input_one_clear_line_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setenv("KATARI_LANG", lang)
    words = {
        "ja": {
            "empty": "空のファイル",
            "blank": "空のファイル",
            "png": "テキストではありません",
            "noise": "テキストではありません",
            "docx": "テキストではありません",
            "not a scenario": "シナリオとして読める箇所が見つかりません",
            "50 MB": "大きすぎます",
            "headings, no rolls": "シナリオとして読める箇所が見つかりません",
            "missing": "ファイルがありません",
            "folder": "ファイルではありません",
        },
        "en": {
            "empty": "empty",
            "blank": "empty",
            "png": "not a text document",
            "noise": "not a text document",
            "docx": "not a text document",
            "not a scenario": "nothing here reads as a scenario",
            "headings, no rolls": "nothing here reads as a scenario",
            "50 MB": "too large",
            "missing": "no such file",
            "folder": "not a file",
        },
    }[lang]
    for what, path in _bad_inputs(tmp_path).items():
        out_dir = tmp_path / f"out_{what.replace(' ', '_')}"
        rc, out, err = run(capsys, "import", str(path), "-o", str(out_dir))
        assert rc == 1, what
        assert out == "", what
        lines = err.strip().splitlines()
        assert len(lines) == 1, (what, err)
        assert lines[0].startswith("katari import: ") and words[what] in lines[0], (what, lines[0])
        assert "Traceback" not in err
        assert not out_dir.exists(), f"{what}: a draft was written"


def test_fifty_megabytes_are_refused_before_reading_in_a_real_process(tmp_path: Path) -> None:
    big = tmp_path / "big.html"
    with open(big, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    env = dict(os.environ, KATARI_LANG="en", KATARI_HOME=str(tmp_path / "home"))
    p = subprocess.run(
        [sys.executable, "-m", "runner", "import", str(big), "-o", str(tmp_path / "d")],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert p.returncode == 1
    assert p.stderr.count("\n") == 1 and "too large (50.0 MB)" in p.stderr and "5.0 MB" in p.stderr
    assert "Traceback" not in p.stderr
    assert MAX_BYTES < 50 * 1024 * 1024


def test_an_existing_folder_is_not_overwritten_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_LANG", "en")
    doc = tmp_path / "s.txt"
    doc.write_text(SCENARIO, encoding="utf-8")
    out_dir = tmp_path / "mine"
    out_dir.mkdir()
    (out_dir / "notes.txt").write_text("my own notes", encoding="utf-8")
    rc, _out, err = run(capsys, "import", str(doc), "-o", str(out_dir))
    assert rc == 1 and "already holds files" in err and err.count("\n") == 1
    assert sorted(p.name for p in out_dir.iterdir()) == ["notes.txt"]
    rc, out, _err = run(capsys, "import", str(doc), "-o", str(out_dir), "--force")
    assert rc == 0, _err
    assert (out_dir / "notes.txt").read_text(encoding="utf-8") == "my own notes"  # lost nothing
    assert {"story.yaml", "places.yaml", "IMPORT.md"} <= {p.name for p in out_dir.iterdir()}
    (tmp_path / "file").write_text("x", encoding="utf-8")
    rc, _out, err = run(capsys, "import", str(doc), "-o", str(tmp_path / "file"))
    assert rc == 1 and "is a file" in err


def test_unknown_rules_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "s.txt"
    doc.write_text(SCENARIO, encoding="utf-8")
    rc, _out, err = run(capsys, "import", str(doc), "-o", str(tmp_path / "d"), "--rules", "ureg")
    assert rc == 2 and "coc7" in err and err.count("\n") == 1


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp932", "euc_jp", "utf-16"])
def test_every_encoding_reads_the_same(tmp_path: Path, encoding: str) -> None:
    doc = tmp_path / "s.txt"
    doc.write_bytes(SCENARIO.encode(encoding))
    sc = parse_document(doc)
    assert [c.skills for c in sc.all_checks()] == [["目星"]]
    assert [(s.success, s.failure, s.line) for s in sc.all_san()] == [("0", "1d3", 5)]
    assert [(e.kind, e.line) for e in sc.endings] == [("true", 7)]
    assert sc.places[1].name == "書斎"


def test_line_endings_and_shift_jis_control_bytes_keep_line_numbers(tmp_path: Path) -> None:
    # \r\n and \r end lines; U+0085, which cp932 text may hold, does not
    doc = tmp_path / "s.txt"
    doc.write_bytes(
        SCENARIO.replace("\n", "\r\n").replace("古い洋館", "古い\u0085洋館").encode("utf-8")
    )
    sc = parse_document(doc)
    assert [c.line for c in sc.all_checks()] == [4]
    doc.write_bytes(SCENARIO.replace("\n", "\r").encode("utf-8"))
    assert [c.line for c in parse_document(doc).all_checks()] == [4]


def test_full_width_and_half_width_read_the_same() -> None:
    assert normalise("ＳＡＮｃ０／１Ｄ６") == "SANc0/1d6"
    assert normalise("〈ＤＥＸ〉×５") == "〈DEX〉×5"
    assert normalise("ｼﾅﾘｵ") == "シナリオ"


def test_html_is_read_as_text_with_the_source_line_numbers(tmp_path: Path) -> None:
    page = (
        "<!DOCTYPE html>\n<html><head><title>館</title><style>p{color:red}</style>\n"
        "<script>var x = '〈目星〉';</script></head>\n<body>\n<h2>■書斎</h2>\n"
        "<p>古い本棚がある。<br>\n・本棚を調べる：&lt;目星&gt;に成功すると日記が見つかる。<br>\n"
        "SANチェック 0/1D3</p>\n<table><tr><th>時刻</th><th>出来事</th></tr>\n"
        "<tr><td>20:00</td><td>鐘が鳴る。</td></tr></table>\n</body></html>\n"
    )
    doc = tmp_path / "s.html"
    doc.write_text(page, encoding="utf-8")
    d = read_document(doc)
    assert d.format == "html" and d.html_title == "館"
    by_line = {ln.no: ln.raw for ln in d.lines}
    assert by_line[5] == "## ■書斎"
    assert by_line[7] == "・本棚を調べる：<目星>に成功すると日記が見つかる。"
    assert by_line[8] == "SANチェック 0/1D3"
    assert by_line[10] == "| 20:00 | 鐘が鳴る。 |"
    assert not any("var x" in ln.raw for ln in d.lines)  # scripts are not text


def test_shift_jis_page_declared_in_a_meta_tag(tmp_path: Path) -> None:
    page = '<html><head><meta charset="Shift_JIS"></head><body><h2>書斎</h2><p>〈目星〉で日記。</p></body></html>'
    doc = tmp_path / "s.htm"
    doc.write_bytes(page.encode("cp932"))
    d = read_document(doc)
    assert d.encoding == "cp932" and any(ln.raw == "〈目星〉で日記。" for ln in d.lines)


def test_the_failure_carries_a_message_key() -> None:
    with pytest.raises(ImportFailure) as e:
        read_document(DATA / "no_such.txt")
    assert e.value.key == "missing" and "no_such.txt" in e.value.message("en")
