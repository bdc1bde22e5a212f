"""What a new user trips over on the command line: misleading output, tracebacks, docs that
say something the program does not do."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from runner.cli import main

ROOT = Path(__file__).resolve().parent.parent


def cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


# -- katari list ---------------------------------------------------------------


def test_list_titles_line_up_on_screen(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "list")
    assert rc == 0
    rows = [line for line in out.splitlines() if re.match(r"^[* ] \w", line)]
    assert len(rows) >= 4
    # the title starts at the same terminal column on every row, 「60〜120分」 or 「5分」
    import json

    _, js, _ = run(capsys, "list", "--json")
    titles = [r["title"] for r in json.loads(js)]
    starts = set()
    for line, title in zip(rows, titles, strict=True):
        assert line.endswith(title)
        starts.add(cells(line[: line.rindex(title)]))
    assert len(starts) == 1, out
    assert " 1 nodes" not in out and " 1 node " in out


def test_readme_shows_what_list_prints(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "list")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in out.splitlines():
        assert "    " + line.rstrip() in readme, f"README's `katari list` lacks: {line}"


# -- katari new, then the README's authoring commands --------------------------


def test_readme_authoring_commands_work_where_new_puts_the_story(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index("## For authors") :]
    block = block[: block.index("[docs/authoring.md]")]
    cmds = [
        line.split("#")[0].split()
        for line in block.splitlines()
        if line.strip().startswith("katari ")
    ]
    assert cmds and cmds[0][:2] == ["katari", "new"]
    for argv in cmds:
        if argv[1] in ("play",):
            continue
        if argv[1] == "simulate":
            argv = [*argv[: argv.index("--runs")], "--runs", "20"]
        rc, out, err = run(capsys, *argv[1:])
        assert rc == 0, f"{' '.join(argv)}: {err}"
    for doc in ("README.md", "docs/authoring.md"):
        assert "stories/my_story" not in (ROOT / doc).read_text(encoding="utf-8"), doc


# -- katari graph ----------------------------------------------------------------


def test_graph_refuses_a_suffix_it_cannot_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "map.png"
    rc, _, err = run(
        capsys, "graph", "ureg_window_room", "-o", str(out_file), "--format", "mermaid"
    )
    assert rc == 0 and out_file.read_text(encoding="utf-8").startswith("flowchart")  # --format wins
    out_file.unlink()
    rc, _, err = run(capsys, "graph", "ureg_window_room", "-o", str(out_file))
    assert rc == 2 and not out_file.exists()
    assert "--format" in err and ".svg" in err


def test_graph_into_a_missing_folder_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rc, _, err = run(
        capsys,
        "graph",
        "ureg_window_room",
        "--format",
        "mermaid",
        "-o",
        str(tmp_path / "no" / "such" / "map.mmd"),
    )
    assert rc == 1
    assert err.startswith("katari graph: cannot write") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# -- katari roll -----------------------------------------------------------------


def test_roll_several_expressions(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(capsys, "roll", "1d6", "1d8", "--seed", "1")
    assert rc == 0, err
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("(1D6) ＞") and lines[1].startswith("(1D8) ＞")
    # a BCDice command with a space stays one roll
    rc, out, _ = run(capsys, "roll", "SAN<=55", "1/1d6", "--seed", "1")
    assert rc == 0 and len(out.splitlines()) == 1 and "正気度" in out
    rc, out, _ = run(capsys, "roll", "2d6", "+", "1", "--seed", "1")
    assert rc == 0 and len(out.splitlines()) == 1


def test_roll_real_dice_one_number_per_die(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "roll", "CC<=50", "--dice", "3,5")
    assert rc == 0 and "35" in out
    rc, _, err = run(capsys, "roll", "CC<=50", "--dice", "35")
    assert rc == 2 and "3,5" in err


# -- katari speak / manual -----------------------------------------------------


def test_speak_takes_o_like_the_other_commands() -> None:
    from runner.cli import build_parser

    args = build_parser().parse_args(["speak", "こんにちは", "-o", "a.wav"])
    assert args.out == "a.wav"
    args = build_parser().parse_args(["speak", "こんにちは", "--output", "b.wav"])
    assert args.out == "b.wav"


def test_speak_names_a_missing_story_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rc, _, err = run(
        capsys,
        "speak",
        "--story",
        str(tmp_path / "nope"),
        "--node",
        "x",
        "--out",
        str(tmp_path / "a.wav"),
    )
    assert rc == 2
    assert err.count(str(tmp_path / "nope")) == 1 and "katari list" in err
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "story: {id: b, title: B, start: a}\nnodes:\n  a:\n    actions:\n"
        "      - {id: x, label: X, goto: nowhere}\n",
        encoding="utf-8",
    )
    rc, _, err = run(
        capsys, "speak", "--story", str(bad), "--node", "a", "--out", str(tmp_path / "a.wav")
    )
    assert (
        rc == 2 and err.count(str(bad)) == 2 and "katari check" in err
    )  # the diagnostic + the hint


def test_manual_unknown_module_says_which_command(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "manual", "deep_sea_atelier")
    assert rc == 2 and err.startswith("katari manual: ") and "dungeon_2f" in err


# -- speech models follow KATARI_HOME --------------------------------------------


def test_models_live_in_katari_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from runner.ui.listener.models import models_dir

    monkeypatch.delenv("KATARI_MODEL_DIR", raising=False)
    monkeypatch.setenv("KATARI_HOME", str(tmp_path))
    assert models_dir() == tmp_path / "models"
    rc, out, _ = run(capsys, "voice", "models")
    assert rc == 0 and out.splitlines()[0] == f"# {tmp_path / 'models'}"
    monkeypatch.setenv("KATARI_MODEL_DIR", str(tmp_path / "elsewhere"))
    assert models_dir() == tmp_path / "elsewhere"


# -- no English ids in the Japanese game ------------------------------------------


def test_ureg_choice_is_told_in_japanese_only() -> None:
    from runner.engine import new_game, step
    from runner.stories import resolve
    from runner.story import load

    story = load(resolve("ureg_window_room"))
    state, _ = new_game(story, seed=1)
    _, events = step(story, state, "1")
    said = [
        e["text"] for e in events if e.get("type") == "narration" and e.get("id") == "ureg.choose"
    ]
    assert said and not re.search(r"[A-Za-z]", said[0]), said


# -- katari hear ------------------------------------------------------------------


def test_hear_reports_a_missing_file_before_the_model(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_MODEL_DIR", str(tmp_path / "models"))
    monkeypatch.delenv("KATARI_LANG", raising=False)
    rc, _, err = run(
        capsys, "hear", "--grammar", "前へ", "--lang", "xx", str(tmp_path / "nope.wav")
    )
    assert rc == 2 and "nope.wav" in err and "ありません" in err and "モデル" not in err
    # without a model: what to install, and no "carrying on by keyboard" outside a game
    wav = tmp_path / "a.wav"
    wav.write_bytes(b"RIFF")
    rc, _, err = run(capsys, "hear", "--grammar", "前へ", "--lang", "xx", str(wav))
    assert rc == 2 and "katari voice install xx" in err and "キーボード" not in err
