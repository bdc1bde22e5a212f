"""One-line messages of the listener, Japanese first, English on request.

Each says what went wrong *and what to do*; the game then goes on by keyboard."""

from __future__ import annotations

import os

MESSAGES: dict[str, dict[str, str]] = {
    "no_vosk": {
        "ja": "音声入力: vosk が入っていません。`pip install vosk` を実行してください（キーボードで続けます）。",
        "en": "Voice input: vosk is not installed; run `pip install vosk` (carrying on by keyboard).",
    },
    "no_model": {
        "ja": "音声入力: {lang} の音声モデルがありません。`katari voice install {lang}` で入れてください（キーボードで続けます）。",
        "en": "Voice input: no {lang} speech model; run `katari voice install {lang}` (carrying on by keyboard).",
    },
    "no_such_model": {
        "ja": "音声入力: モデルのフォルダ {path} がありません。`katari voice models` で入っているモデルを確かめてください。",
        "en": "Voice input: no model folder at {path}; see `katari voice models` for the installed ones.",
    },
    "broken_model": {
        "ja": "音声入力: {path} は使えない vosk モデルです（{why}）。`katari voice install {lang} --force` で入れ直してください。",
        "en": "Voice input: {path} is not a usable vosk model ({why}); reinstall it with `katari voice install {lang} --force`.",
    },
    "no_grammar": {
        "ja": "音声入力: {path} は実行時の文法に対応していません（大きいモデル）。small モデルを使ってください: `katari voice install {lang}`。",
        "en": "Voice input: {path} cannot take a runtime grammar (a big model); use a small one: `katari voice install {lang}`.",
    },
    "no_portaudio": {
        "ja": "音声入力: PortAudio がありません。`apt-get install libportaudio2` と `pip install sounddevice` を実行してください（キーボードで続けます）。",
        "en": "Voice input: PortAudio is missing; run `apt-get install libportaudio2` and `pip install sounddevice` (carrying on by keyboard).",
    },
    "no_microphone": {
        "ja": "音声入力: マイクが見つかりません。マイクをつないでから `katari play --voice` をやり直してください（キーボードで続けます）。",
        "en": "Voice input: no microphone found; plug one in and start `katari play --voice` again (carrying on by keyboard).",
    },
    "bad_rate": {
        "ja": "音声入力: マイクが {rate} Hz で録音できません。OS の音声設定で {rate} Hz を許すか、別のマイクを --device で選んでください（キーボードで続けます）。",
        "en": "Voice input: the microphone cannot record at {rate} Hz; allow {rate} Hz in the sound settings or pick another with --device (carrying on by keyboard).",
    },
    "wav_rate": {
        "ja": "{path}: {got} Hz の音声です。モデルは {want} Hz です。`sox {qpath} -r {want} -c 1 -b 16 out.wav` で変換してください。",
        "en": "{path}: audio is {got} Hz but the model takes {want} Hz; convert it with `sox {qpath} -r {want} -c 1 -b 16 out.wav`.",
    },
    "wav_format": {
        "ja": "{path}: 16 ビット・モノラルの WAV ではありません（{why}）。`sox {qpath} -r {want} -c 1 -b 16 out.wav` で変換してください。",
        "en": "{path}: not a 16-bit mono WAV ({why}); convert it with `sox {qpath} -r {want} -c 1 -b 16 out.wav`.",
    },
    "wav_long": {
        "ja": "{path}: {max} 秒より長い録音です。コマンドは数秒で言えます。`sox {qpath} out.wav trim 0 {max}` で短くしてください。",
        "en": "{path}: the recording is longer than {max} s; a command takes a few seconds: cut it with `sox {qpath} out.wav trim 0 {max}`.",
    },
    "wav_truncated": {
        "ja": "{path}: WAV が途中で切れています（ヘッダーの後に音声がありません）。録音し直すか、`sox {qpath} -r {want} -c 1 -b 16 out.wav` で作り直してください。",
        "en": "{path}: the WAV is cut short (no audio after its header); record it again or rebuild it with `sox {qpath} -r {want} -c 1 -b 16 out.wav`.",
    },
    "wav_missing": {
        "ja": "{path}: そのファイルはありません。",
        "en": "{path}: no such file.",
    },
    "no_wav": {
        "ja": "{path}: ファイルが読めません（{why}）。",
        "en": "{path}: cannot read the file ({why}).",
    },
    "not_understood": {
        "ja": "聞き取れませんでした。もう一度どうぞ。",
        "en": "Sorry, I did not catch that.",
    },
}


def language(lang: str | None = None) -> str:
    """``lang``, else $KATARI_LANG, else Japanese."""
    lang = lang or os.environ.get("KATARI_LANG") or "ja"
    return "en" if lang.startswith("en") else "ja"


def text(key: str, ui: str | None = None, *, game: bool = True, **kw: object) -> str:
    """The message ``key``; ``game=False`` (e.g. ``katari hear``) drops "carrying on by
    keyboard", which only makes sense inside a game."""
    msg = MESSAGES[key][language(ui)].format(**kw)
    if not game:
        msg = msg.replace("（キーボードで続けます）", "").replace(" (carrying on by keyboard)", "")
    return msg
