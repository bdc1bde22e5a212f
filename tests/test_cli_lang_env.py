"""``KATARI_LANG`` sets the language of every command that has ``--lang`` (README): `katari
rules` and `katari manual` followed only --lang, defaulting to Japanese."""

from __future__ import annotations

import pytest

from runner.cli import main


@pytest.mark.parametrize(
    ("env", "argv", "want", "not_want"),
    [
        ("en", ["rules"], "Call of Cthulhu 7th edition", "新クトゥルフ"),
        ("", ["rules"], "新クトゥルフ神話TRPG（第7版）", "Call of Cthulhu"),
        ("en", ["rules", "--lang", "ja"], "UREG ベーシックシステム", "UREG Basic"),
        (
            "ja",
            ["rules", "--lang", "en"],
            "no rule system (only the built-in hooks)",
            "ルールシステムなし",
        ),
        ("en", ["rules", "ureg"], "UREG", "ベーシック"),
        ("en", ["manual", "dungeon_2f"], "# Module: Dungeon, 2nd Floor", "# モジュール"),
        ("", ["manual", "dungeon_2f"], "# モジュール：ダンジョン・2F", "# Module"),
    ],
)
def test_katari_lang_sets_the_default(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: str,
    argv: list[str],
    want: str,
    not_want: str,
) -> None:
    if env:
        monkeypatch.setenv("KATARI_LANG", env)
    else:
        monkeypatch.delenv("KATARI_LANG", raising=False)
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert want in out
    assert not_want not in out.splitlines()[0]


def test_unknown_manual_answers_in_katari_lang(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KATARI_LANG", "en")
    assert main(["manual", "nosuch"]) == 2
    assert "no manual for 'nosuch'" in capsys.readouterr().err
