"""Investigators in and out go through the registry (#14 item 2 × #16): a story's rule system
declares them (``RuleSystem.investigators``) or has none, and then `katari play --investigator`,
`katari export --format ccfolia` and the console's `import` each refuse in one line, in the
user's language, naming the story's rule system by its title and the installed systems that
do have investigators, before reading anything, and never with a traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.rules import installed, system
from runner.story import load as load_story
from runner.ui.console import PlainIO, Repl

ROOT = Path(__file__).resolve().parent.parent
PIECE = ROOT / "tests" / "data" / "ccfolia" / "ccfolia_7th.json"
WITH = [rs for rs in installed() if rs.investigators is not None]

STORY = """\
story: {id: plain_walk, title: Plain Walk, rules: none, start: a}
nodes:
  a:
    narration: [A plain road.]
    actions:
      - {id: walk, label: Walk on, goto: b}
  b:
    narration: [Further along.]
    actions:
      - {id: stop, label: Stop, end: e}
endings: {e: {kind: good, title: The end}}
"""

SAYS = {  # what the refusal says besides the story, in each language
    "ja": ("取り込んだり書き出したりできる探索者がありません", "探索者があるのは"),
    "en": ("no investigators to import or export", "those that do:"),
}


@pytest.fixture()
def story(tmp_path: Path) -> Path:
    d = tmp_path / "plain_walk"
    d.mkdir()
    (d / "story.yaml").write_text(STORY, encoding="utf-8")
    return d


def katari(home: Path, lang: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KATARI_HOME": str(home), "KATARI_LANG": lang}
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        timeout=180,
        env=env,
    )


def _one_refusal(text: str, prefix: str, lang: str, story: str = "plain_walk") -> None:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in text, text
    line = lines[0]
    assert line.startswith(prefix), line
    assert story in line and all(s in line for s in SAYS[lang]), line
    assert WITH and all(rs.title_in(lang) in line for rs in WITH), (
        line
    )  # where investigators are, from the registry, named in the line's language


def test_the_shipped_systems_that_keep_investigators_say_so() -> None:
    assert WITH, "no installed rule system declares investigators: the CCFOLIA import has no home"
    for rs in WITH:
        inv = rs.investigators
        assert inv is not None and callable(inv.command) and callable(inv.active)
        ad = __import__(inv.adapter, fromlist=["load"])
        for name in (
            "investigator",
            "load",
            "read_file",
            "parse",
            "complete",
            "piece",
            "SheetError",
            "say",
        ):
            assert hasattr(ad, name), f"{rs.name}'s adapter {inv.adapter} lacks {name}"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_play_investigator_is_refused_in_one_line(story: Path, tmp_path: Path, lang: str) -> None:
    # (a file that is not there: the refusal comes first, nothing is read)
    for extra in ([], ["--jsonl"]):
        r = katari(
            tmp_path / "home",
            lang,
            "play",
            str(story),
            *extra,
            "--investigator",
            str(tmp_path / "absent.json"),
            "--lang",
            lang,
        )
        assert r.returncode == 2 and r.stdout == ""
        _one_refusal(r.stderr, f"katari play: --investigator{'：' if lang == 'ja' else ':'}", lang)
    r = katari(
        tmp_path / "home",
        lang,
        "play",
        str(story),
        "--jsonl",
        "--investigator",
        str(PIECE),
        "--lang",
        lang,
    )
    assert r.returncode == 2
    _one_refusal(r.stderr, "katari play: --investigator", lang)
    # A story of a rule system without investigators: that system is named by its title.
    r = katari(
        tmp_path / "home",
        lang,
        "play",
        "ureg_window_room",
        "--jsonl",
        "--investigator",
        str(PIECE),
        "--lang",
        lang,
    )
    assert r.returncode == 2
    _one_refusal(r.stderr, "katari play: --investigator", lang, "ureg_window_room")
    assert system("ureg").title_in(lang) in r.stderr


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_export_ccfolia_is_refused_in_one_line(story: Path, tmp_path: Path, lang: str) -> None:
    home = tmp_path / "home"
    r = katari(home, lang, "play", str(story), "--new", "--lang", lang, stdin="1\n")
    assert r.returncode == 0, r.stderr
    save = home / "stories" / "plain_walk" / "saves" / "autosave.json"
    assert save.exists()
    r = katari(
        home,
        lang,
        "export",
        str(save),
        "--story",
        str(story),
        "--format",
        "ccfolia",
        "--lang",
        lang,
    )
    assert r.returncode == 2 and r.stdout == ""
    _one_refusal(r.stderr, f"katari export: --format ccfolia{'：' if lang == 'ja' else ':'}", lang)
    # The log formats are no rule system's: they still work for this story.
    r = katari(
        home, lang, "export", str(save), "--story", str(story), "--format", "replay", "--lang", lang
    )
    assert r.returncode == 0 and "A plain road." in r.stdout, r.stderr


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_console_import_is_refused_in_one_line(
    story: Path, tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    word = "取り込む" if lang == "ja" else "import"
    for typed in (
        f"{word} {PIECE}\n",
        f"{word}\n",
    ):  # a file, or JSON to paste: refused before either
        out = io.StringIO()
        Repl(
            load_story(story),
            io=PlainIO(io.StringIO(typed + "1\n"), out, cols=400),
            lang=lang,
            new=True,
            seed=3,
            history=False,
        ).run()
        screen = out.getvalue()
        refusals = [ln.strip() for ln in screen.splitlines() if SAYS[lang][0] in ln]
        assert len(refusals) == 1, screen
        _one_refusal(refusals[0], "import", lang)
        assert (
            "Traceback" not in screen
            and "貼り付けて" not in screen
            and "Paste the JSON" not in screen
        )
        assert "Further along." in screen  # the game goes on: the next line is played
