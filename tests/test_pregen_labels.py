"""A ready-made investigator is named the same on the menu and on the sheet it gives, in every
language (the English deep sea offered "Emma Whitfield (newspaper reporter)" and then a sheet
of a Journalist; "graduate student in archaeology" became "Graduate Student (Archaeology)").
The menu takes its words from the rules' data (``{coc7.pregen_label(n)}``), the one source.

Guard: every shipped story, every language it is played in, every action at the character
choice that takes a ready-made investigator: the label the prompt shows is the sheet's name
and occupation, as the sheet the game then holds says them."""

from __future__ import annotations

import pytest

from runner.stories import shipped
from runner.story import load
from runner.story import translate as T
from runner.ui import jsonl as J


def editions() -> list[tuple[str, str]]:
    out = []
    for path in shipped():
        story = load(path)
        for lang in dict.fromkeys([story.language, *T.languages(story)]):
            out.append((path.name, lang))
    return out


def takes_pregen(action) -> bool:
    return "choose_pregen" in repr(action.effects)


@pytest.mark.parametrize(("story_id", "lang"), editions())
def test_the_menu_names_each_pregen_as_its_sheet_does(story_id: str, lang: str) -> None:
    source = load(next(p for p in shipped() if p.name == story_id))
    story = source if lang == source.language else T.apply(source, lang)
    pregen_ids = [a.id for node in story.nodes.values() for a in node.actions if takes_pregen(a)]
    for action_id in pregen_ids:
        evs = list(J.turns(story, [action_id], seed=1))
        first = next(e for e in evs if e["type"] == "prompt")
        label = next(a["label"] for a in first["actions"] if a["id"] == action_id)
        after = [e for e in evs if e["type"] == "state"][-1]
        sheets = [s for s in after["stats"].values() if isinstance(s, dict) and "occupation" in s]
        assert len(sheets) == 1, (story_id, lang, action_id, after["stats"])
        s = sheets[0]
        want = (
            f"{s['name']}（{s['occupation']}）"
            if lang == "ja"
            else f"{s['name']} ({s['occupation']})"
        )
        assert label == want, (story_id, lang, action_id)
    if story.rules == "coc7":
        assert len(pregen_ids) == 4
