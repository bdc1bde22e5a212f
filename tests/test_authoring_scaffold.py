"""`katari new`: every template passes `katari check` with no warning, and `katari test`."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.authoring.scaffold import ScaffoldError, new_story
from runner.cli import main


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("rules", ["none", "coc7", "ureg"])
def test_new_story_checks_and_tests(
    rules: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "new",
                f"my_{rules}",
                "--rules",
                rules,
                "--dir",
                str(tmp_path),
                "--title",
                "はじめての話",
                "--lang",
                lang,
            ]
        )
        == 0
    )
    folder = tmp_path / f"my_{rules}"
    assert (folder / "story.yaml").is_file() and (folder / "tests" / "smoke.yaml").is_file()
    text = (folder / "story.yaml").read_text(encoding="utf-8")
    assert f"rules: {rules}" in text and "# " in text and "title: はじめての話" in text
    capsys.readouterr()
    assert main(["check", str(folder)]) == 0, capsys.readouterr().out
    checked = capsys.readouterr()
    assert "warning" not in checked.out + checked.err, checked.out  # a starter checks clean
    assert main(["test", str(folder)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "PASSED" in out and "failed" not in out


def test_new_story_refuses_bad_names_and_overwrites(tmp_path: Path) -> None:
    with pytest.raises(ScaffoldError, match="cannot be a story id"):
        new_story("1 bad name", parent=tmp_path)
    new_story("ok", parent=tmp_path)
    with pytest.raises(ScaffoldError, match="already exists"):
        new_story("ok", parent=tmp_path)
    assert main(["new", "ok", "--dir", str(tmp_path)]) == 1


def test_titles_that_look_like_yaml_are_quoted(tmp_path: Path) -> None:
    from runner.story import load

    for i, title in enumerate(["yes", "a: b", "- dash", "# hash", '"q"', "100"]):
        folder = new_story(f"t{i}", parent=tmp_path, title=title)
        assert load(folder).title == title
