"""The compiled-story cache (#14 item 6): an unchanged story loads from its compiled form,
a changed one is read again, and a corrupt or planted file is ignored and rebuilt."""

from __future__ import annotations

import dataclasses
import json
import marshal
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from runner.story import compiled
from runner.story import load as _load_story
from runner.story.loader import _load

ROOT = Path(__file__).resolve().parent.parent
STORIES = sorted(p for p in (ROOT / "stories").iterdir() if p.is_dir())


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("KATARI_CACHE", str(d))
    return d


def load(path: Path) -> Any:
    """Loads, and waits for the compiled form being written (by a child process)."""
    story = _load_story(path)
    compiled.flush()
    return story


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "compiled").glob("*.kc"))


def same(a: Any, b: Any, where: str = "story") -> None:
    """Equal, and of the same types all the way down (a NamedTuple equals a plain tuple)."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            if f.compare:
                same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_a_shipped_story_loads_the_same_from_its_compiled_form(path: Path, cache: Path) -> None:
    first = load(path)
    assert len(_entries(cache)) == 1
    again = load(path)
    fresh, _ = _load(path, check_hooks=True)
    same(again, fresh)
    same(first, fresh)


def _room(tmp_path: Path) -> Path:
    src = ROOT / "stories" / "ureg_window_room"
    dst = tmp_path / "room"
    dst.mkdir()
    for f in src.glob("*.yaml"):
        (dst / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return dst


def test_the_cached_load_reads_no_yaml_and_an_edit_is_read_again(
    tmp_path: Path, cache: Path
) -> None:
    room = _room(tmp_path)
    code = (
        "import json, sys\nfrom runner.story import load\ns = load(sys.argv[1])\n"
        "print(json.dumps({'title': s.title, 'yaml': 'yaml_rs' in sys.modules or 'yaml' in sys.modules}))"
    )

    def run() -> dict:
        env = {**os.environ, "KATARI_CACHE": str(cache)}
        out = subprocess.run(
            [sys.executable, "-c", code, str(room)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout.strip().splitlines()[-1])

    assert run()["yaml"] is True  # the first load reads the YAML and keeps the compiled form
    again = run()
    assert again["yaml"] is False, "an unchanged story was parsed again"
    story = next(room.glob("*.yaml"))
    text = story.read_text(encoding="utf-8")
    old_title = again["title"]
    story.write_text(text.replace(f"title: {old_title}", "title: Edited room", 1), encoding="utf-8")
    edited = run()
    assert edited == {"title": "Edited room", "yaml": True}
    assert len(_entries(cache)) == 2


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty", "forged", "code"])
def test_a_corrupt_or_hostile_compiled_file_is_ignored_and_rebuilt(
    tmp_path: Path, cache: Path, damage: str
) -> None:
    room = _room(tmp_path)
    good = load(room)
    [entry] = _entries(cache)
    blob = entry.read_bytes()
    head = len(compiled.MAGIC) + 32
    body = marshal.loads(blob[head:])
    if damage == "flip":
        blob = blob[:-10] + bytes([blob[-10] ^ 1]) + blob[-9:]
    elif damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "garbage":
        blob = os.urandom(len(blob))
    elif damage == "empty":
        blob = b""
    elif damage == "forged":  # a well-formed file of another story, hashed under a key not ours
        fake = (*body[:2], "PWNED", *body[3:])
        data = marshal.dumps(fake)
        import hashlib

        blob = compiled.MAGIC + hashlib.blake2b(data, key=b"k" * 32, digest_size=32).digest() + data
    elif damage == "code":  # marshal can carry a code object: without our key it is never read
        data = marshal.dumps(compile("open('/tmp/pwned', 'w')", "x", "exec"))
        blob = compiled.MAGIC + b"\0" * 32 + data
    entry.write_bytes(blob)
    again = load(room)
    same(again, good)
    assert again.title != "PWNED"
    # ...and the file was rebuilt: the next load reads a good compiled form again.
    [entry2] = _entries(cache)
    rebuilt = compiled.read(entry2.stem)
    assert rebuilt is not None
    same(rebuilt, good)


def test_the_cache_is_private_or_unused(tmp_path: Path, cache: Path) -> None:
    room = _room(tmp_path)
    load(room)
    d = cache / "compiled"
    os.chmod(d, 0o777)
    load(room)
    assert d.stat().st_mode & 0o777 == 0o700, "a folder others may write in is made private again"
    key = d / "key"
    assert key.stat().st_mode & 0o777 == 0o600
    os.chmod(key, 0o644)  # a key others could read: the cache is not used at all
    [entry] = _entries(cache)
    entry.unlink()
    load(room)
    assert _entries(cache) == []


def test_the_cache_can_be_turned_off(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_CACHE", "off")
    load(_room(tmp_path))
    assert not cache.exists()


def test_play_of_an_unchanged_story_is_the_same_game(tmp_path: Path, cache: Path) -> None:
    env = {**os.environ, "KATARI_CACHE": str(cache), "KATARI_HOME": str(tmp_path / "home")}
    cmds = "\n".join(["inspiration", "look_around", "take_ladder", "lean_ladder", "climb"]) + "\n"

    def play() -> list[dict]:
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "runner",
                "play",
                "ureg_window_room",
                "--jsonl",
                "--seed",
                "3",
                "--new",
            ],
            cwd=ROOT,
            env=env,
            input=cmds,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode == 0, r.stderr
        return [json.loads(x) for x in r.stdout.splitlines() if x.strip()]

    first = play()
    assert len(_entries(cache)) == 1
    assert play() == first
    assert any(e.get("type") == "ending" for line in first for e in line.get("events", [])) or any(
        line.get("type") == "ending" for line in first
    )


def test_true_and_one_stay_apart_in_the_compiled_form(tmp_path: Path) -> None:
    # Equal values of other types (True == 1 == 1.0) must not be merged when the compiled form
    # writes each repeated value once.
    p = tmp_path / "s.yaml"
    p.write_text(
        """story: {id: t, title: T, language: en, rules: none, start: a}
variables: {a: 0, b: 0, c: 0}
nodes:
  a:
    on_enter: [{set: {a: true}}, {set: {b: 1}}, {set: {c: 1.0}}]
    actions:
      - {id: go, label: Go, when: "a == true", end: w}
      - {id: one, label: One, when: "b == 1", end: w}
endings:
  w: {kind: good}
""",
        encoding="utf-8",
    )
    load(p)
    again = load(p)
    fresh, _ = _load(p, check_hooks=True)
    same(again, fresh)
    sets = [e.pairs[0][1] for e in again.nodes["a"].on_enter]
    assert [type(x[1]) for x in sets] == [bool, int, float]


def test_the_encoding_writes_every_field_of_the_model() -> None:
    """A field added to the model must reach the compiled form (or a cached load loses it)."""
    for cls, fields in compiled.FIELDS.items():
        have = (
            cls._fields
            if hasattr(cls, "_fields")
            else tuple(f.name for f in dataclasses.fields(cls))
        )
        assert fields == have, (
            f"{cls.__name__}: the compiled form writes {fields}, the model has {have}"
        )


def test_the_first_load_forks_nothing_and_writes_nothing_before_flush(
    tmp_path: Path, cache: Path
) -> None:
    """A first load costs what it did before the cache: no child process shares the story's
    memory with the game (every page either touched would be copied), nothing is encoded;
    flush() (at exit) writes the compiled form, and the next load reads it."""
    room = _room(tmp_path)
    first = _load_story(room)
    assert not compiled._writers, "a child process was forked by the load"
    assert _entries(cache) == []
    compiled.flush()
    [entry] = _entries(cache)
    same(compiled.read(entry.stem), first)


def test_a_large_story_is_written_by_a_child_at_flush_and_read_back(
    tmp_path: Path, cache: Path
) -> None:
    """A large story's compiled form is written by a child process when flush() runs, not
    before (the load and the play after it go on alone); flush() waits for it."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ring import ring_story_yaml

    story = tmp_path / "ring.yaml"
    story.write_text(ring_story_yaml(compiled.SMALL + 10), encoding="utf-8")
    first = _load_story(story)
    assert not compiled._writers and _entries(cache) == []
    pid = os.getpid()
    compiled.flush()
    assert os.getpid() == pid
    [entry] = _entries(cache)
    again = compiled.read(entry.stem)
    assert again is not None
    same(again, first)


def test_a_command_keeps_the_compiled_form_at_exit_and_a_large_one_without_waiting(
    tmp_path: Path, cache: Path
) -> None:
    """The compiled form is written as the process ends: a small story's by the process
    itself, a large one's by a child that outlives it, on the null device (whoever reads the
    command's output is not kept waiting for the writer)."""
    import time

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ring import ring_story_yaml

    big = tmp_path / "ring.yaml"
    big.write_text(ring_story_yaml(compiled.SMALL + 10), encoding="utf-8")
    code = "import sys\nfrom runner.story import load\nfor p in sys.argv[1:]:\n    load(p)\n"
    env = {**os.environ, "KATARI_CACHE": str(cache)}
    r = subprocess.run(
        [sys.executable, "-c", code, str(_room(tmp_path)), str(big)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and r.stdout == "" and r.stderr == "", r.stderr[-2000:]
    deadline = time.monotonic() + 120
    while len(_entries(cache)) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(_entries(cache)) == 2
    for entry in _entries(cache):
        assert compiled.read(entry.stem) is not None


def test_the_compiled_form_goes_where_the_cache_was_when_loaded(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written later, it still goes to the folder the load looked in (a test's or a
    command's KATARI_CACHE may be gone by the exit); at most MAX_PENDING stories wait."""
    room = _room(tmp_path)
    _load_story(room)
    elsewhere = tmp_path / "elsewhere"
    monkeypatch.setenv("KATARI_CACHE", str(elsewhere))
    compiled.flush()
    assert len(_entries(cache)) == 1 and not elsewhere.exists()
    for i in range(compiled.MAX_PENDING + 2):
        twin = tmp_path / f"twin{i}"
        shutil.copytree(room, twin)
        _load_story(twin)
    assert len(compiled._pending) == compiled.MAX_PENDING
    compiled.flush()
    assert len(_entries(elsewhere)) == compiled.MAX_PENDING


def test_a_stale_entry_written_by_us_is_ignored_and_rebuilt(tmp_path: Path, cache: Path) -> None:
    """A well-hashed file in an older layout (our key, another FORMAT) is not read: rebuilt."""
    room = _room(tmp_path)
    good = load(room)
    [entry] = _entries(cache)
    head = len(compiled.MAGIC) + 32
    body = marshal.loads(entry.read_bytes()[head:])
    old = marshal.dumps((compiled.FORMAT - 1, *body[1:]))
    import hashlib

    mac_key = (cache / "compiled" / "key").read_bytes()
    mac = hashlib.blake2b(old, key=mac_key, digest_size=32).digest()
    entry.write_bytes(compiled.MAGIC + mac + old)
    assert compiled.read(entry.stem) is None and not entry.exists()
    same(load(room), good)
    assert compiled.read(entry.stem) is not None


def test_the_key_covers_katari_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import runner

    files = [("story.yaml", b"story: {}")]
    a = compiled.story_key(files, True)
    monkeypatch.setattr(runner, "__version__", runner.__version__ + ".1")
    assert compiled.story_key(files, True) != a
    monkeypatch.undo()
    assert compiled.story_key(files, True) == a
    assert compiled.story_key([("story.yaml", b"story: {} ")], True) != a


@pytest.mark.parametrize(
    "command",
    [
        ["play", "ureg_window_room", "--jsonl", "--new"],
        ["simulate", "ureg_window_room", "--runs", "3"],
        ["graph", "ureg_window_room", "-o", "{tmp}/g.html"],
        ["test", "ureg_window_room"],
    ],
    ids=["play", "simulate", "graph", "test"],
)
def test_commands_load_an_unchanged_story_from_its_compiled_form(
    command: list[str], tmp_path: Path, cache: Path
) -> None:
    """The second run of a command parses none of the story's YAML (yaml-rs is not imported)."""
    env = {**os.environ, "KATARI_CACHE": str(cache), "KATARI_HOME": str(tmp_path / "home")}
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]

    def run() -> str:
        r = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "runner", *args],
            cwd=ROOT,
            env=env,
            input="",
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 0, r.stderr[-2000:]
        return r.stderr

    parsed = re.compile(r"\|\s+yaml_rs$", re.M)
    assert parsed.search(run())
    assert len(_entries(cache)) == 1
    assert not parsed.search(run()), "the unchanged story's YAML was parsed again"


@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_a_shipped_story_loads_in_one_fast_pass(path: Path) -> None:
    """A correct story never imports PyYAML (the careful pass): a new player's first load of a
    shipped story is one yaml-rs pass (deep sea's comment quoting ``{x: ...}`` made it two)."""
    code = (
        "import sys\nfrom runner.story import load\nload(sys.argv[1])\nprint('yaml' in sys.modules)"
    )
    env = {**os.environ, "KATARI_CACHE": "off"}
    r = subprocess.run(
        [sys.executable, "-c", code, str(path)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == "False", f"{path.name} was read again by the careful pass"


def test_without_a_fork_a_small_story_is_written_and_a_large_one_not_kept(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that runs threads does not fork: flush() writes a small story's compiled
    form itself; a large one is not kept (its next load reads the YAML, as before the cache)."""
    import threading

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from ring import ring_story_yaml

    monkeypatch.setattr(threading, "active_count", lambda: 2)
    _load_story(_room(tmp_path))
    compiled.flush()
    assert not compiled._writers and len(_entries(cache)) == 1
    big = tmp_path / "ring.yaml"
    big.write_text(ring_story_yaml(compiled.SMALL), encoding="utf-8")
    _load_story(big)
    compiled.flush()
    assert not compiled._writers and len(_entries(cache)) == 1
