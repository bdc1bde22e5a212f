"""The microphone: PortAudio through sounddevice, 16-bit mono at the model's rate.

The stream's callback only hands raw blocks on (PortAudio calls it on its own thread and
wants it quick); decoding happens on the listener's worker thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runner.ui.listener import messages


class MicrophoneError(Exception):
    """No PortAudio, no input device, or a rate it will not record at; one line to show."""


def check_microphone(
    rate: int = 16000, device: int | str | None = None, lang: str | None = None
) -> Any:
    """The sounddevice module when an input device can record at ``rate``, else
    :class:`MicrophoneError`. Opens nothing."""
    try:
        import sounddevice as sd
    except (ImportError, OSError) as e:  # OSError: the PortAudio library is missing
        raise MicrophoneError(messages.text("no_portaudio", lang)) from e
    try:
        sd.query_devices(device, kind="input")
    except (ValueError, sd.PortAudioError) as e:
        raise MicrophoneError(messages.text("no_microphone", lang)) from e
    try:
        sd.check_input_settings(device=device, channels=1, dtype="int16", samplerate=rate)
    except (ValueError, sd.PortAudioError) as e:
        raise MicrophoneError(messages.text("bad_rate", lang, rate=rate)) from e
    return sd


def open_microphone(
    on_audio: Callable[[bytes], None],
    rate: int = 16000,
    device: int | str | None = None,
    block_seconds: float = 0.1,
    lang: str | None = None,
) -> Any:
    """A started input stream calling ``on_audio(pcm)`` every ``block_seconds``."""
    sd = check_microphone(rate, device, lang)

    def callback(indata: Any, frames: int, time: Any, status: Any) -> None:
        on_audio(bytes(indata))

    try:
        stream = sd.RawInputStream(
            samplerate=rate,
            blocksize=int(rate * block_seconds),
            device=device,
            channels=1,
            dtype="int16",
            callback=callback,
        )
        stream.start()
    except (ValueError, sd.PortAudioError) as e:
        raise MicrophoneError(messages.text("no_microphone", lang)) from e
    return stream
