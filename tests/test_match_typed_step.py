"""A typed command takes the same turn as the choice it names, whichever way step() reads it.

step() reads typed text by the shortest way that gives the same answer: a number against the
numbers alone (a label's ``{…}`` is not worked out for it), an exact id against that one
action, anything else against every listed action. Guard: in random games of every shipped
story, at every turn, an action's number, its id and its label as listed each take exactly
the turn that stepping its Choice takes; a number past the list is refused with the count."""

from __future__ import annotations

import random

import pytest

from runner.engine import available, new_game, resolve, step
from runner.stories import shipped
from runner.story import load

STORIES = shipped()


@pytest.mark.parametrize("path", STORIES, ids=[p.stem for p in STORIES])
def test_a_number_an_id_and_a_label_take_the_turn_their_choice_takes(path) -> None:
    story = load(path)
    turns = 0
    for seed in range(3):
        rnd = random.Random(seed)
        st, _ = new_game(story, seed)
        while st.ending is None and st.turn < 40:
            listed = available(story, st)
            shown = [c for c in listed if c.n]
            if not shown:
                break
            for c in shown:
                want = step(story, st, c)
                typed = [str(c.n), c.id]
                if resolve(story, st, c.label).choice == c:  # (a label two actions share asks)
                    typed.append(c.label)
                for text in typed:
                    got = step(story, st, text)
                    assert got[1] == want[1], (path.name, st.node, text)
                    assert got[0].to_dict() == want[0].to_dict(), (path.name, st.node, text)
                turns += 1
            past = step(story, st, str(len(shown) + 1), tail_events=False)[1][0]
            if past.get("code") == "no_such_number":  # (a rule system may answer it first)
                assert past["message"].endswith(f"choose 1 to {len(shown)}"), past
            st, _ = step(story, st, rnd.choice(shown))
    assert turns > 20


def test_a_number_at_a_menu_of_worked_out_labels_takes_that_action() -> None:
    story = load(next(p for p in shipped() if p.name == "deep_sea_atelier"))
    st, _ = new_game(story, 1)
    listed = available(story, st)
    assert "{" in story.nodes[st.node].actions[0].label  # the menu's labels are worked out
    assert "{" not in listed[0].label
    for c in listed:
        if c.n:
            assert step(story, st, f" {c.n} ")[0].to_dict() == step(story, st, c)[0].to_dict()
    err = step(story, st, "９", tail_events=False)[1][0]
    assert err["code"] == "no_such_number" and err["message"] == "no action ９: choose 1 to 5"
