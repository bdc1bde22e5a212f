"""Speech input: commands spoken to the game, limited to what can be said now.

For the REPL::

    listener, problem = make_listener(lang="ja", mode="push")   # or model=PATH
    if listener is None:
        print(problem)                    # one line; the game goes on by keyboard
    ...
    listener.set_phrases(phrases_for(engine.available(story, state), "ja"))
    listener.press(); ...; listener.release()         # push-to-talk key down / up
    heard = listener.next_heard(timeout=0.1)          # Heard | None
    if heard and heard.command:
        if heard.needs_confirm: ask did_you_mean(heard), then set_phrases(YES_NO[lang]) ...
        else: run heard.command
    narrator: listener.mute() before speaking, listener.unmute() after.

Tests use ``ScriptedListener([...texts...])``, which decides exactly like the real one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runner.ui.listener.core import (
        ACT_AT,
        CONFIRM_AT,
        META,
        YES_NO,
        Heard,
        Listener,
        Phrase,
        PhraseBook,
        ScriptedListener,
        did_you_mean,
        normalise,
        phrases_for,
        story_phrases,
    )
    from runner.ui.listener.vocab import split_words, unknown_words

_FROM = {"split_words": "vocab", "unknown_words": "vocab"}
"""Where each exported name lives (core, unless named here). They are imported on first use:
``katari check`` reads a model's vocabulary through runner.ui.listener.vocab and models
without paying for the listener's matching code."""


def __getattr__(name: str) -> Any:
    if name in __all__ and name != "make_listener":
        from importlib import import_module

        value = getattr(import_module(f"runner.ui.listener.{_FROM.get(name, 'core')}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ACT_AT",
    "CONFIRM_AT",
    "META",
    "YES_NO",
    "Heard",
    "Listener",
    "Phrase",
    "PhraseBook",
    "ScriptedListener",
    "did_you_mean",
    "make_listener",
    "normalise",
    "phrases_for",
    "split_words",
    "story_phrases",
    "unknown_words",
]


def make_listener(
    lang: str = "ja",
    *,
    model: str | Path | None = None,
    mode: str = "push",
    microphone: bool = True,
    device: int | str | None = None,
    msg_lang: str | None = None,
) -> tuple[Listener | None, str | None]:
    """A started listener, or (None, one line saying what to do).

    ``model``: a vosk model folder; by default the installed one for ``lang``
    (``katari voice install LANG``). ``microphone=False`` gives a listener fed by
    ``feed()`` (recorded input) and checks no audio device."""
    from runner.ui.listener import messages
    from runner.ui.listener.models import find_model, sample_rate

    try:
        import vosk  # noqa: F401
    except ImportError:
        return None, messages.text("no_vosk", msg_lang)
    path = Path(model) if model is not None else find_model(lang)
    if path is None:
        return None, messages.text("no_model", msg_lang, lang=lang)
    from runner.ui.listener.microphone import MicrophoneError, check_microphone
    from runner.ui.listener.vosk_listener import ModelError, VoskListener, load_model

    try:
        if microphone:  # before the model: loading one takes seconds and 100s of MB
            check_microphone(sample_rate(path), device, msg_lang)
    except MicrophoneError as e:
        return None, str(e)
    try:
        m = load_model(path, lang, msg_lang)
    except ModelError as e:
        return None, str(e)
    listener = VoskListener(m, lang=lang, rate=sample_rate(path), mode=mode)
    try:
        listener.start(microphone=microphone, device=device)
    except MicrophoneError as e:
        listener.close()
        return None, str(e)
    return listener, None
