"""A story folder's YAML files, as listed at every load (runner.story.source.story_files).

The listing walks the folder with os.scandir; its meaning is the one it had as a Path.rglob
filter, kept here as the reference: every ``*.yaml``/``*.yml`` below the folder whose name does
not start with a dot, none under a folder named ``tests``, no folder entered through a link.
"""

from __future__ import annotations

import os
import random
from itertools import islice
from pathlib import Path

import pytest

from runner.story.source import MAX_FILES, story_files


def _reference(path: Path) -> list[Path]:
    if not path.is_dir():
        return [path]
    found = (
        q
        for q in path.rglob("*.y*ml")
        if q.suffix in (".yaml", ".yml")
        and "tests" not in q.relative_to(path).parts[:-1]
        and not q.name.startswith(".")
    )
    return sorted(islice(found, MAX_FILES + 1))


_NAMES = ["a.yaml", "b.yml", ".h.yaml", "c.txt", "tests", "sub", ".hid", "x.yaml", "d.YAML",
          "e.yaml.bak", "f.y.yml", "g.yamll", "notes.yml"]  # fmt: skip


@pytest.mark.parametrize("seed", range(40))
def test_listing_is_the_rglob_definition(tmp_path: Path, seed: int) -> None:
    """Random trees of files, folders (some named tests or x.yaml), links to folders and
    dangling links: the same files, in the same order."""
    rng = random.Random(seed)
    root = tmp_path / rng.choice(["story", "tests"])  # a story folder may itself be "tests"
    root.mkdir()
    folders = [root]
    for _ in range(rng.randint(5, 30)):
        where = rng.choice(folders) / rng.choice(_NAMES)
        if where.exists() or where.is_symlink():
            continue
        r = rng.random()
        if r < 0.35:
            where.mkdir()
            folders.append(where)
        elif r < 0.45:
            os.symlink(rng.choice(folders), where)
        elif r < 0.5:
            os.symlink(where.parent / "nowhere", where)
        else:
            where.write_text("x: 1\n")
    assert story_files(root) == _reference(root)


def test_tests_folder_is_not_entered(tmp_path: Path) -> None:
    (tmp_path / "story.yaml").write_text("x: 1\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "play.yaml").write_text("x: 1\n")
    (tmp_path / "more" / "tests").mkdir(parents=True)
    (tmp_path / "more" / "room.yml").write_text("x: 1\n")
    (tmp_path / "more" / "tests" / "t.yaml").write_text("x: 1\n")
    assert story_files(tmp_path) == [tmp_path / "more" / "room.yml", tmp_path / "story.yaml"]


def test_a_file_is_itself(tmp_path: Path) -> None:
    f = tmp_path / "one.yaml"
    f.write_text("x: 1\n")
    assert story_files(f) == [f]


def test_more_than_the_bound_is_cut_one_past_it(tmp_path: Path) -> None:
    """The loader refuses a folder of more than MAX_FILES files: the listing stops one past."""
    for i in range(MAX_FILES + 5):
        (tmp_path / f"n{i}.yaml").write_text("")
    assert len(story_files(tmp_path)) == MAX_FILES + 1
