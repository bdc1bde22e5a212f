"""`katari rules` and `katari rules ureg [items]`."""

from __future__ import annotations

from runner.cli import main

CREDIT = "「cc-by UREGベーシック Yasuda Lin」を参考にしました。"


def test_rules_lists_systems(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "ureg" in out and "UREG" in out and "coc7" in out


def test_rules_ureg_summary_has_the_credit(capsys):
    assert main(["rules", "ureg"]) == 0
    out = capsys.readouterr().out
    assert CREDIT in out and "〈○閃き〉" in out and "Littleness" in out and "2 m" in out
    assert main(["rules", "ureg", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert CREDIT in out and "Shoulder ride 3 m" in out


def test_rules_ureg_items(capsys):
    assert main(["rules", "ureg", "items"]) == 0
    out = capsys.readouterr().out
    for name in ("脚立", "懐中時計", "花（ピンク）", "キーアイテムC", "ダイナマイト"):
        assert name in out
    assert "足場 4 m（不安定）" in out and "戦力 +5" in out and CREDIT in out
    assert main(["rules", "ureg", "items", "--lang", "en"]) == 0
    assert "stepladder [stepladder]" in capsys.readouterr().out


def test_rules_unknown(capsys):
    assert main(["rules", "gurps"]) == 2
    assert main(["rules", "ureg", "spells"]) == 2
