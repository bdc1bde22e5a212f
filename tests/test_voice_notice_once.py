"""`katari play --voice` where voice input cannot start says why in one line, naming voice
input once (the listener's own reasons begin 「音声入力:」/"Voice input:"; a tourist saw
「音声入力は使えません：音声入力: マイクが見つかりません…」)."""

from __future__ import annotations

import argparse

import pytest

import runner.ui.listener as listener
from runner.commands.play import make_listener


@pytest.mark.parametrize(
    ("lang", "problem", "want"),
    [
        ("ja", "音声入力: マイクが見つかりません。", "音声入力: マイクが見つかりません。"),
        ("en", "Voice input: no microphone found.", "Voice input: no microphone found."),
        ("ja", "boom", "音声入力は使えません：boom"),
        ("en", "boom", "Voice input is not available: boom"),
    ],
)
def test_one_line_naming_voice_input_once(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    problem: str,
    want: str,
) -> None:
    monkeypatch.setattr(listener, "make_listener", lambda **kw: (None, problem))
    assert make_listener(argparse.Namespace(voice="push"), lang) is None
    err = capsys.readouterr().err
    assert err == want + "\n"
