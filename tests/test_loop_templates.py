"""`katari new --lang en` writes an English story (#15), `katari rules coc7` lists the
ready-made investigators the coc7 template refers to, and `@sheet` is documented and works."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.cli import main

ROOT = Path(__file__).resolve().parent.parent
_JA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.mark.parametrize("rules", ["none", "coc7", "ureg"])
def test_new_follows_lang_en(
    rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(["new", f"en_{rules}", "--rules", rules, "--lang", "en", "--dir", str(tmp_path)]) == 0
    )
    folder = tmp_path / f"en_{rules}"
    text = (folder / "story.yaml").read_text(encoding="utf-8")
    assert "language: en" in text
    # Japanese only where the rules require it: UREG's credit line and ability names.
    ja_lines = [x for x in text.splitlines() if _JA.search(x.split(" #")[0])]
    assert all("UREG" in x or "abilities" in x for x in ja_lines), ja_lines
    assert not _JA.search((folder / "tests" / "smoke.yaml").read_text(encoding="utf-8"))
    capsys.readouterr()
    assert main(["check", "--no-voice", str(folder)]) == 0, capsys.readouterr().out
    assert main(["test", str(folder)]) == 0, capsys.readouterr().out
    # The default stays Japanese (KATARI_LANG aside).
    assert main(["new", f"ja_{rules}", "--rules", rules, "--dir", str(tmp_path)]) == 0
    assert "language: ja" in (tmp_path / f"ja_{rules}" / "story.yaml").read_text(encoding="utf-8")


def test_rules_coc7_lists_the_ready_made_investigators(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["rules", "coc7", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Ready-made investigators (story options: {pregen: N}" in out
    for n, name in enumerate(
        ["Tsuyoshi Kuroda", "Haruka Saeki", "Mizuki Miura", "Emma Whitfield"], 1
    ):
        assert f"  {n}. {name} (" in out
    assert (
        "STR 80 CON 60 SIZ 60 DEX 70 APP 50 INT 50 POW 50 EDU 40  HP 12 MP 10 SAN 50 Luck 50" in out
    )
    assert main(["rules", "coc7"]) == 0
    assert "1. 黒田 剛 — 警察官" in capsys.readouterr().out
    # The template's pregen: 1 is the first of them, and says where to look.
    main(["new", "c", "--rules", "coc7", "--lang", "en", "--dir", str(tmp_path)])
    assert "katari rules coc7" in (tmp_path / "c" / "story.yaml").read_text(encoding="utf-8")


def test_at_sheet_is_documented_and_shows_the_sheet(tmp_path: Path) -> None:
    doc = (ROOT / "docs" / "repl.md").read_text(encoding="utf-8")
    assert "`@sheet [WHO]`" in doc
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KATARI_")},
        "KATARI_HOME": str(tmp_path),
    }
    r = subprocess.run(
        [sys.executable, "-m", "runner", "play", "deep_sea_atelier", "--new", "--seed", "1"],
        input="1\n@sheet\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
    )
    after = r.stdout.split("▶ @sheet", 1)[-1]
    assert "黒田 剛（警察官）" in after and "HP 12/12" in after, r.stdout
