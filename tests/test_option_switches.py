"""A rule system's on/off options read in one YAML dialect (#14 item 3). ``luck_spending: no``
(coc7) and ``visual_aid: no`` (ureg) were the text "no", which the rules took as on. A system
declares the options it reads as switches (``RuleSystem.switches``) and ``katari check``
refuses anything but true/false there, at its line, with the fix; no system is named in the
check itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import katari

from runner.rules import installed, system
from runner.story.loader import check

STORY = """story:
  id: s
  title: T
  language: en
  rules: {rules}
  start: a
  options:
{options}
nodes:
  a:
    narration: [Room.]
    actions:
      - {{id: leave, label: Leave, end: fin}}
endings:
  fin: {{kind: good, title: Fin}}
{tail}"""


def _write(tmp_path: Path, rules: str, options: str, tail: str = "") -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(STORY.format(rules=rules, options=options, tail=tail), encoding="utf-8")
    return p


def _errors(p: Path) -> list[str]:
    _, diags = check(p)
    return [f"{d.line}:{d.col}: {d.message} [{d.code}]" for d in diags if d.severity == "error"]


SWITCHES = sorted((rs.name, key) for rs in installed() for key in rs.switches)


def test_the_shipped_systems_declare_their_switches() -> None:
    assert {"luck_spending", "san_cap"} <= system("coc7").switches
    assert {"visual_aid", "campaign", "continue", "npc"} <= system("ureg").switches
    assert "combat" not in system("ureg").switches  # about, numeric, true or false


@pytest.mark.parametrize("rules,key", SWITCHES)
@pytest.mark.parametrize(
    "word,fix", [("no", "false"), ("off", "false"), ("yes", "true"), ('"false"', "false")]
)
def test_every_declared_switch_refuses_a_yes_no_word(
    tmp_path: Path, rules: str, key: str, word: str, fix: str
) -> None:
    p = _write(tmp_path, rules, f"    {key}: {word}")
    errs = _errors(p)
    want = f"8:{7 + len(key)}: story.options: '{key}' must be true or false, not"
    assert any(e.startswith(want) and f"write '{key}: {fix}'" in e for e in errs), errs


@pytest.mark.parametrize("rules,key", SWITCHES)
def test_true_and_false_load(tmp_path: Path, rules: str, key: str) -> None:
    for v in ("true", "false"):
        p = _write(tmp_path, rules, f"    {key}: {v}")
        assert not [e for e in _errors(p) if "must be true or false" in e], (key, v)


def test_coc7_reads_its_settings_nested_and_in_its_section_too(tmp_path: Path) -> None:
    p = _write(
        tmp_path, "coc7", "    pregen: 1\n    coc7: {luck_spending: on}", "coc7:\n  san_cap: n\n"
    )
    errs = _errors(p)
    assert any(
        e.startswith("9:27: story.options.coc7: 'luck_spending'")
        and "write 'luck_spending: true'" in e
        for e in errs
    ), errs
    assert any(
        e.startswith("18:12: coc7: 'san_cap'") and "write 'san_cap: false'" in e for e in errs
    ), errs


def test_a_system_that_declares_a_switch_gets_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is generic: a system's declaration is all it takes."""
    rs = system("ktane")
    p = _write(tmp_path, "ktane", "    blinking: no")
    assert not [e for e in _errors(p) if "blinking" in e]
    monkeypatch.setattr(rs, "switches", frozenset({"blinking"}))
    assert any("'blinking' must be true or false, not 'no'" in e for e in _errors(p))


def test_check_and_play_refuse_it_by_the_command_line(tmp_path: Path, home: Path) -> None:
    p = _write(tmp_path, "coc7", "    pregen: 1\n    luck_spending: no")
    r = katari("check", str(p), home=home)
    assert r.returncode == 1
    assert (
        "s.yaml:9:20: story.options: 'luck_spending' must be true or false, not 'no'; "
        "write 'luck_spending: false'" in r.stdout + r.stderr
    ), r.stdout + r.stderr
    r = katari("play", str(p), "--jsonl", stdin="", home=home)
    assert r.returncode != 0
