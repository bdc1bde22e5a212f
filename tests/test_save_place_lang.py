"""A saved game's place is named in the language played now: a game saved in Japanese and
offered for resuming (or listed) in English says the English title, not 暗闇; an older save
with no node recorded keeps the name it recorded."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.commands._common import translated
from runner.engine import new_game
from runner.stories import resolve
from runner.story import load
from runner.ui import files


def test_place_is_named_by_the_story_as_played_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path))
    ja = load(resolve("deep_sea_atelier"))
    en = translated(ja, "en")
    assert en is not None and en.language == "en"
    state, _ = new_game(ja, 1)
    tl = files.Timeline(ja.id, 1, [state])
    path = tmp_path / "s.json"
    files.write_save(path, ja, tl)
    info = files.save_info(path, ja.id)
    assert info.node == state.node
    assert info.place == ja.nodes[state.node].title
    assert files.place_of(ja, info) == ja.nodes[state.node].title
    assert files.place_of(en, info) == en.nodes[state.node].title != info.place
    older = files.SaveInfo(info.slot, path, place="暗闇")
    assert files.place_of(en, older) == "暗闇"
