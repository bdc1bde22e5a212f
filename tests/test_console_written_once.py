"""With ``--dice manual`` what a command made before a roll is written before the table is
asked; when the command is run again with the faces, those events are not written twice,
wherever they stand in the turn (a GM's override puts its own line first)."""

from __future__ import annotations

import random

from runner.ui.console.base import not_yet_written


def test_events_written_while_asking_are_left_out_wherever_they_stand() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        events = [
            {"type": rng.choice(["narration", "roll", "override"]), "n": i}
            for i in range(rng.randint(0, 9))
        ]
        early = [e for e in events if rng.random() < 0.4]
        rest = not_yet_written(events, early)
        assert rest == [e for e in events if e not in early]


def test_a_gm_override_line_before_the_early_events_does_not_repeat_them() -> None:
    said = {"type": "narration", "text": "触腕1に 12 ダメージ。"}
    keeper = {"type": "narration", "text": "触腕1の耐久力 30 → 18", "keeper": True}
    roll = {"type": "roll", "expr": "1d10", "total": 4}
    note = {"type": "override", "what": "damage"}
    assert not_yet_written([note, said, keeper, roll], [said, keeper]) == [note, roll]


def test_when_the_early_events_are_not_all_there_everything_is_written() -> None:
    a, b, c = ({"type": "narration", "text": x} for x in "abc")
    assert not_yet_written([a, c], [a, b]) == [a, c]
