"""``readings:`` (how words are read aloud and typed in kana) and ``voices:`` (a voice profile
for the narrator or a character)."""

from __future__ import annotations

from runner.story.checker import Checker
from runner.story.sections import Entries


def read_readings(chk: Checker, entries: Entries) -> dict[str, str]:
    readings: dict[str, str] = {}
    for name, val, data in entries:
        chk.file = name
        if chk.want_map(val, chk.vpos(data, "readings"), "'readings'"):
            readings.update({str(k): str(v) for k, v in val.items()})
    return readings


def read_voices(chk: Checker, entries: Entries) -> dict[str, str]:
    voices: dict[str, str] = {}
    for name, val, data in entries:
        chk.file = name
        if chk.want_map(val, chk.vpos(data, "voices"), "'voices'"):
            # A voice is given to a speaker: the narrator or a character (by id or name).
            voices.update(
                {str(chk.speaker(k, chk.kpos(val, k), voices=True)): str(v) for k, v in val.items()}
            )
    return voices
