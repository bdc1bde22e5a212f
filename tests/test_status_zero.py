"""A rule system's view value of 0 stays on the status bar (a tourist's grit counter vanished
when it reached 0, as ``0 in (None, "", False)`` is true); nothing, False and empty texts or
lists still leave it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from runner.ui.render import status_items, toolbar

STORY = SimpleNamespace(rules="twodice", variables={})


@pytest.mark.parametrize("value,shown", [(0, "0"), (0.0, "0.0"), (3, "3"), (-1, "-1"), ("x", "x")])
def test_a_value_is_shown(value: Any, shown: str) -> None:
    ev = {"node": "wall", "title": "Wall", "twodice": {"grit": value}}
    assert ("grit", shown) in status_items(ev, STORY, "en", short=True)
    bar = "".join(text for _, text in toolbar(ev, STORY, "en", cols=80))
    assert f"grit {shown}" in bar


@pytest.mark.parametrize("value", [None, False, "", [], {}])
def test_nothing_is_left_out(value: Any) -> None:
    ev = {"node": "wall", "title": "Wall", "twodice": {"grit": value}}
    assert all(label != "grit" for label, _ in status_items(ev, STORY, "en", short=True))
