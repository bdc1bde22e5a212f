"""Read-aloud narration (pyttsx3 + espeak-ng, or Open JTalk) with Japanese readings.

The REPL needs only::

    narrator, message = make_narrator(voices=args.voices, mapping=story.voices,
                                      lang=story.language, readings=story.readings)
    if message: print(message)          # one line; narrator is then a no-op
    narrate_events(narrator, events)    # after each step; keeper notes are never spoken
    narrator.skip(); narrator.again(); narrator.close()
"""

from __future__ import annotations

from runner.ui.narrator.narrator import (
    BaseNarrator,
    DisabledNarrator,
    Narrator,
    RecordingNarrator,
    make_narrator,
    narrate_events,
    off_message,
)
from runner.ui.narrator.profiles import Profile, ProfileError, VoiceSet, load_voices
from runner.ui.narrator.readings import reading_for, split_sentences

__all__ = [
    "BaseNarrator",
    "DisabledNarrator",
    "Narrator",
    "Profile",
    "ProfileError",
    "RecordingNarrator",
    "VoiceSet",
    "load_voices",
    "make_narrator",
    "narrate_events",
    "off_message",
    "reading_for",
    "split_sentences",
]
