"""The built wheel works without the repository (#14 item 1).

CI used only an editable install, so nothing noticed that a wheel carried neither the stories
nor the voice profiles. This test builds the wheel with pip, installs it (and its
dependencies, from pip's index or cache) into a fresh venv, and runs the installed `katari`
from an empty folder with nothing of the source tree on its path: the stories are listed and
check clean, the window room is played to its ending through `--jsonl`, the shipped voice
profiles are found, and the version is the one the package declares.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p.name for p in (ROOT / "stories").iterdir() if p.is_dir())


def _run(
    cmd: list[str],
    *,
    cwd: Path,
    env: dict[str, str],
    stdin: str | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """(the venv's bin folder, an environment without the source tree, an empty folder)."""
    tmp = tmp_path_factory.mktemp("wheel")
    # Build from a copy of what a source distribution holds, so no stale build/ folder of the
    # checkout can slip an old file into the wheel (and the checkout is left as it was).
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for name in ("runner", "stories", "voices"):
        shutil.copytree(
            ROOT / name,
            src / name,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
    dist = tmp / "dist"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "KATARI_STORIES")
    }
    build = _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
        cwd=tmp,
        env=env,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    # The README's install shows what the build says: no page of setuptools warnings.
    assert "would be ignored" not in build.stderr, build.stderr[:2000]
    (wheel,) = dist.glob("katari-*.whl")
    venv.EnvBuilder(with_pip=False).create(tmp / "venv")
    bin_ = tmp / "venv" / "bin"
    inst = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(bin_ / "python"),
            "install",
            "-q",
            str(wheel),
        ],
        cwd=tmp,
        env=env,
        timeout=600,
    )
    assert inst.returncode == 0, inst.stderr[-2000:]
    empty = tmp / "elsewhere"
    empty.mkdir()
    env = {**env, "KATARI_HOME": str(tmp / "home"), "PYTHONNOUSERSITE": "1"}
    return bin_, env, empty


def test_the_installed_package_is_the_wheel_not_the_checkout(installed) -> None:
    bin_, env, cwd = installed
    r = _run(
        [str(bin_ / "python"), "-c", "import runner; print(runner.__file__)"], cwd=cwd, env=env
    )
    assert r.returncode == 0, r.stderr
    where = Path(r.stdout.strip()).resolve()
    assert bin_.parent.resolve() in where.parents
    assert ROOT not in where.parents


def test_the_wheel_carries_every_file_of_stories_and_voices(installed) -> None:
    bin_, env, cwd = installed
    r = _run(
        [str(bin_ / "python"), "-c", "import runner.shipped as s; print(s.__file__)"],
        cwd=cwd,
        env=env,
    )
    pkg = Path(r.stdout.strip()).parent
    for kind in ("stories", "voices"):
        want = sorted(
            str(p.relative_to(ROOT / kind)) for p in (ROOT / kind).rglob("*") if p.is_file()
        )
        got = sorted(str(p.relative_to(pkg / kind)) for p in (pkg / kind).rglob("*") if p.is_file())
        assert got == want and want


def test_katari_list_shows_every_shipped_story(installed) -> None:
    bin_, env, cwd = installed
    r = _run([str(bin_ / "katari"), "list"], cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    listed = [
        line.split()[1] if line.startswith("*") else line.split()[0]
        for line in r.stdout.splitlines()
        if line.startswith(("*", " "))
    ]
    assert sorted(listed) == SHIPPED


@pytest.mark.parametrize("story", SHIPPED)
def test_katari_check_passes_on_every_shipped_story(installed, story: str) -> None:
    bin_, env, cwd = installed
    r = _run([str(bin_ / "katari"), "check", story], cwd=cwd, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "ok" in r.stdout


def test_the_window_room_plays_to_its_ending(installed) -> None:
    bin_, env, cwd = installed
    commands = "inspiration\nlook around\ntake ladder\nlean ladder\nclimb\n"
    r = _run(
        [str(bin_ / "katari"), "play", "ureg_window_room", "--jsonl", "--seed", "1"],
        cwd=cwd,
        env=env,
        stdin=commands,
    )
    assert r.returncode == 0, r.stderr
    events = [json.loads(line) for line in r.stdout.splitlines()]
    assert events[-1] == {"type": "ending", "id": "escaped", "kind": "good", "title": "脱出成功"}


def test_the_shipped_voice_profiles_are_found(installed) -> None:
    bin_, env, cwd = installed
    r = _run([str(bin_ / "katari"), "voices"], cwd=cwd, env=env)
    assert r.returncode == 0, r.stderr
    profiles = r.stdout[r.stdout.index("\nprofiles (") + 1 :].splitlines()[1:]
    names = [line.split(":")[0].strip() for line in profiles if not line.startswith("    ")]
    assert names == sorted(p.stem for p in (ROOT / "voices").glob("*.yaml"))
    assert not any("broken" in line for line in profiles)


def test_the_version_is_kept_in_one_place(installed) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project.get("dynamic", [])
    bin_, env, cwd = installed
    from runner import __version__

    r = _run([str(bin_ / "katari"), "--version"], cwd=cwd, env=env)
    assert r.stdout.strip() == f"katari {__version__}"
    r = _run(
        [str(bin_ / "python"), "-c", "import importlib.metadata as m; print(m.version('katari'))"],
        cwd=cwd,
        env=env,
    )
    assert r.stdout.strip() == __version__
