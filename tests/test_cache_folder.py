"""One cache folder for every part that keeps something (runner/folders.py): ``KATARI_CACHE=off``
turns caching off everywhere. Before, the narration side read ``off`` as a folder's name and a
game in the suite (KATARI_CACHE=off) left ``off/readings/*.dic`` in the working folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner import folders

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("off", None),
        ("OFF", None),
        (" no ", None),
        ("0", None),
        ("false", None),
        ("/tmp/katari-c", Path("/tmp/katari-c")),
        ("offices", Path("offices")),
    ],
)
def test_katari_cache_values(monkeypatch, value: str, expected: Path | None) -> None:
    monkeypatch.setenv("KATARI_CACHE", value)
    assert folders.cache_dir() == expected


def test_empty_katari_cache_is_unset(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KATARI_CACHE", "")
    monkeypatch.setenv("KATARI_HOME", str(tmp_path))
    assert folders.cache_dir() == tmp_path / "cache"


def test_off_gives_a_scratch_folder_never_one_named_off(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("KATARI_CACHE", "off")
    monkeypatch.chdir(tmp_path)
    scratch = folders.working_cache_dir()
    assert scratch.is_absolute() and scratch.name.startswith("katari-cache-")
    assert folders.working_cache_dir() == scratch
    from runner.ui.narrator.cache import cache_dir as narration_cache

    assert narration_cache() == scratch
    assert not (tmp_path / "off").exists()


def _run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "KATARI_CACHE": "off",
        "KATARI_HOME": str(cwd / "home"),
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_speaking_a_story_with_the_cache_off_writes_nothing_where_it_runs(tmp_path: Path) -> None:
    # The story's readings are compiled into an Open JTalk dictionary: with the cache off it
    # went to ./off/readings/ (the narration side read "off" as a folder's name).
    pytest.importorskip("pyopenjtalk")
    out = tmp_path / "out"
    out.mkdir()
    r = _run(
        [
            "speak",
            "--engine",
            "openjtalk",
            "--story",
            "deep_sea_atelier",
            "--node",
            "choose",
            "-o",
            str(out / "x.wav"),
        ],
        tmp_path,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert (out / "x.wav").stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) in (["out"], ["home", "out"])


def test_voice_render_with_the_cache_off_says_so(tmp_path: Path) -> None:
    r = _run(["voice", "render", "ureg_window_room", "--engine", "openjtalk"], tmp_path)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "KATARI_CACHE=off" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["home"])
