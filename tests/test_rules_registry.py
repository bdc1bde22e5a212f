"""One registry of rule systems, filled from the ``katari.rules`` entry points (#14 item 2).

Katari's own rule systems are declared in pyproject.toml exactly as another package declares
one (tests/test_rules_plugin.py installs such a package); every command asks the registry,
so a rule system that is installed is usable, checked and listed everywhere at once, and
nothing outside a rule system's own package names it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

import runner.rules as registry
from runner.cli import main
from runner.rules import names, source, system
from runner.rules.base import Display, RuleSystem
from runner.story import StoryError, load

ROOT = Path(__file__).resolve().parent.parent
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "entry-points"
]["katari.rules"]


def test_katari_registers_its_own_systems_as_any_package_does() -> None:
    assert set(DECLARED) <= set(names())
    for name, value in DECLARED.items():
        rs = system(name)
        assert isinstance(rs, RuleSystem) and rs.name == name
        assert source(name).startswith(f"{value} (katari")
    assert names()[-1] == "none"


def loads(text: str, tmp: Path):  # noqa: ANN201 - a Story
    (tmp / "story.yaml").write_text(text, encoding="utf-8")
    return load(tmp)


def _minimal(rules: str) -> str:
    return (
        f"story: {{id: t, title: T, rules: {rules}, start: a}}\n"
        "nodes: {a: {narration: [x], actions: [{id: go, label: Go, end: e}]}}\n"
        "endings: {e: {kind: good, title: E}}\n"
    )


@pytest.mark.parametrize("name", names())
def test_every_installed_system_is_usable_listed_and_in_the_schema(
    name: str, capsys, tmp_path: Path
) -> None:
    from runner.story.schema import story_schema

    rs = system(name)
    if name != "none" and rs.validate is None:
        assert loads(_minimal(name), tmp_path).rules == name
    enum = story_schema()["properties"]["story"]["properties"]["rules"]["enum"]
    assert name in enum and name in story_schema()["properties"]  # and its own section
    assert main(["rules", "--lang", "en"]) == 0
    assert any(
        line.split()[0] == name for line in capsys.readouterr().out.splitlines() if line.strip()
    )


def test_an_unknown_system_is_one_positioned_line(tmp_path: Path) -> None:
    with pytest.raises(StoryError) as e:
        loads(_minimal("coc8"), tmp_path)
    msg = str(e.value)
    assert "unknown rule system 'coc8' (did you mean 'coc7'?); one of: " + ", ".join(names()) in msg


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch):
    """Installs a RuleSystem in the registry as an entry point would."""

    def install(rs: RuleSystem) -> RuleSystem:
        found = dict(registry._found())
        found[rs.name] = SimpleNamespace(
            name=rs.name, value=f"fake:{rs.name}", load=lambda: rs, dist=None
        )
        monkeypatch.setattr(registry, "_entries", found)
        monkeypatch.setitem(registry._loaded, rs.name, rs)
        return rs

    return install


def test_a_systems_lint_finding_always_has_a_code(fake, tmp_path: Path) -> None:
    from runner.authoring.lint import lint

    rs = fake(RuleSystem("linty", "lints"))
    rs.lint = lambda story, texts: [
        ("no code given", "", "warning"),
        ("its own code", "K399", "warning"),
    ]
    (tmp_path / "story.yaml").write_text(_minimal("linty"), encoding="utf-8")
    found = [(d.message, d.code, d.line) for d in lint(load(tmp_path))]
    assert found == [("no code given", "K300", 1), ("its own code", "K399", 1)]


def test_the_front_ends_take_labels_and_gauges_from_the_system(fake) -> None:
    from runner.ui.render import status_items

    fake(
        RuleSystem(
            "gauges",
            "g",
            display=Display(
                labels={
                    "ja": {"nerve": "胆力", "moves": "手数"},
                    "en": {"nerve": "nerve", "moves": "moves"},
                },
                stats=("nerve",),
                status_skip=frozenset({"secret"}),
            ),
        )
    )
    ev = {
        "type": "state",
        "node": "n",
        "title": "N",
        "stats": {"pc": {"name": "P", "nerve": 4, "hp": 9}},
        "gauges": {"moves": 3, "secret": 1},
    }
    story = SimpleNamespace(rules="gauges", variables={})
    assert dict(status_items(ev, story, "ja")) == {"場所": "N", "胆力": "4", "手数": "3"}
    assert dict(status_items(ev, story, "en")) == {"Place": "N", "nerve": "4", "moves": "3"}


# -- nothing outside a rule system's own package names it ----------------------------------

SHIPPED_STORY_IDS = sorted(p.name for p in (ROOT / "stories").iterdir() if p.is_dir())


def _mentions(text: str, systems: list[str]) -> list[str]:
    for sid in SHIPPED_STORY_IDS:  # a story's id (ureg_window_room) names a story, not its rules
        text = text.replace(sid, "")
    alts = "|".join(re.escape(s) for s in systems)
    return sorted(
        {
            m.group(1).lower()
            for m in re.finditer(rf"(?<![A-Za-z0-9])({alts})(?![A-Za-z0-9])", text, re.IGNORECASE)
        }
    )


_ROLLS = ("CC<=50", "CC(1)<=46", "CBR(50,30)", "RESB(60-50)", "SAN<=40", "1D100<=30", "2D6", "D66",
          "choice[a,b,c]", "x3 CC<=50", "FAR(10,50,90)", "CCB<=70", "hello", "")  # fmt: skip


def test_a_declared_dice_entry_rolls_as_its_systems_dice() -> None:
    """``katari.dice`` (what `katari roll` imports without the system's hooks) answers every
    command as the system's ``RuleSystem.dice`` does (the system may import it only at its
    first roll: coc7's load does not need BCDice's commands): the roll is the same either way."""
    from runner.rules.dice import SeededDice

    dice = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "entry-points"
    ]["katari.dice"]
    assert set(dice) <= set(DECLARED)
    for name, value in dice.items():
        module, _, attr = value.partition(":")
        fn = getattr(__import__(module, fromlist=[attr]), attr)
        assert registry._dice(name) is fn, name
        for text in _ROLLS:
            assert repr(system(name).dice(text, SeededDice(7))) == repr(fn(text, SeededDice(7))), (
                name,
                text,
            )


def test_dice_commands_ask_the_systems_in_order_loading_each_only_at_its_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first system in name order that reads a command answers it (one declared with
    ``RuleSystem.dice`` alone, as before ``katari.dice`` existed, too); the systems after it
    are not loaded, so `katari roll` does not import their hooks."""
    from runner.rules.bcdice import BCResult
    from runner.rules.dice import ManualDice

    first = RuleSystem("aaa_first", "reads 'mine'")
    first.dice = lambda text, source: BCResult("first's") if text == "mine" else None
    asked: list[str] = []

    def load_last() -> RuleSystem:
        asked.append("zzz_last")
        rs = RuleSystem("zzz_last", "reads 'late'")
        rs.dice = lambda text, source: BCResult("last's") if text == "late" else None
        return rs

    found = dict(registry._found())
    found["aaa_first"] = SimpleNamespace(value="a:S", load=lambda: first, dist=None)
    found["zzz_last"] = SimpleNamespace(value="z:S", load=load_last, dist=None)
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setattr(registry, "_loaded", {})
    assert registry.dice_command("mine", ManualDice([])) == BCResult("first's")
    assert registry.dice_command("1d6", ManualDice([4])).text == "(1D6) ＞ 4"  # coc7's BCDice
    assert asked == []
    assert registry.dice_command("late", ManualDice([])) == BCResult("last's")
    assert asked == ["zzz_last"]


def test_a_dice_entry_from_another_distribution_is_not_the_systems(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``katari.dice`` counts only beside the system's own ``katari.rules`` declaration."""
    rs = RuleSystem("own_dice", "its own dice")
    rs.dice = lambda text, source: "its own"
    found = dict(registry._found())
    found["own_dice"] = SimpleNamespace(value="o:S", load=lambda: rs, dist="katari-own 1.0")
    stranger = SimpleNamespace(load=lambda: lambda text, source: "a stranger's", dist="other 2.0")
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setattr(registry, "_loaded", {})
    monkeypatch.setitem(registry._dice_entries, ("own_dice", "other 2.0"), stranger)
    assert registry._dice("own_dice")("x", None) == "its own"


def test_no_module_outside_a_rule_systems_package_names_one() -> None:
    """The registry is the only list: the console, the linter, the commands ask the rule
    system (RuleSystem) for what they once guessed by its name. Tests, docs, stories and
    pyproject.toml (the entry points) may name them; runner/ may not, outside
    runner/rules/<name>/."""
    systems = [n for n in names() if n != "none"]
    own = {ROOT / "runner" / "rules" / n for n in systems}
    # Two exceptions, each a rule system's adapter to the world outside, named by its
    # RuleSystem and reached only through the registry. coc7's scenario importer
    # (RuleSystem.importer) writes drafts in that system's hooks and reads its skill table. It
    # cannot live in runner/rules/coc7/, since it reads files and writes YAML, which a rule
    # system may not (tests/test_engine.py).
    own.add(ROOT / "runner" / "importer")
    # And coc7's investigator adapter (RuleSystem.investigators.adapter), which reads
    # CCFOLIA pieces and キャラクター保管所 sheets into that system's sheets and writes them back
    # as pieces. It cannot live in runner/rules/coc7/ either, since it reads files and standard
    # input; the front ends reach it only through the registry.
    own.add(ROOT / "runner" / "ccfolia")
    offenders = []
    for f in sorted((ROOT / "runner").rglob("*")):
        if (
            not f.is_file()
            or "__pycache__" in f.parts
            or (ROOT / "runner" / "shipped") in f.parents
        ):
            continue
        if f in own or any(d in f.parents for d in own):
            continue
        found = _mentions(f.read_text(encoding="utf-8", errors="replace"), systems)
        if found:
            offenders.append(f"{f.relative_to(ROOT)}: {', '.join(found)}")
    assert offenders == []


def test_the_name_guard_sees_a_name_in_any_spelling() -> None:
    systems = ["coc7", "ureg", "ktane"]
    assert _mentions('if story.rules == "ureg":', systems) == ["ureg"]
    assert _mentions("_KTANE_BUTTONS = {}  # UREG's", systems) == ["ktane", "ureg"]
    assert _mentions("from runner.rules.coc7.bcdice import bcdice", systems) == ["coc7"]
    assert _mentions('FALLBACK_STORY = "ureg_window_room"', systems) == []
