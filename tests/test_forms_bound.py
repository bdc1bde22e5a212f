"""The engine's table of action forms stays bounded, whoever builds the actions.

A rule system may build the actions it offers afresh each turn (coc7's push and Luck
offers are plain code again, #14 item 5): each is a new object, and the matcher's
per-story table of forms, keyed by the action, would keep every one of them alive."""

from __future__ import annotations

from runner.engine.match import forms
from runner.stories import shipped
from runner.story import load
from runner.story.model import Action


def test_forms_of_actions_built_per_turn_do_not_pile_up() -> None:
    story = load(next(p for p in shipped() if p.name == "deep_sea_atelier"))
    for i in range(25_000):
        a = Action("push", "Push the Spot Hidden roll", ("push",), None, False, 0)
        assert "push" in forms(story, a).exact
        assert len(story.cache["_forms"]) <= 20_001, i
