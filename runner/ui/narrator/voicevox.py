"""VOICEVOX: speech from a VOICEVOX ENGINE the player runs on their own machine.

Katari ships no VOICEVOX code or voice: it talks to the engine's HTTP API (default
``http://127.0.0.1:50021``; ``--voicevox-url`` or ``$KATARI_VOICEVOX_URL``):

    POST /audio_query?text=…&speaker=N      -> the query (accent phrases, scales) as JSON
    POST /synthesis?speaker=N  (the query)  -> a WAV (24 kHz mono by default)
    GET  /speakers                          -> characters and their styles (ids)

A profile's ``voice`` is a style id (``3``) or a character's name with an optional style
(``ずんだもん``, ``ずんだもん:ノーマル``). ``rate`` is ``speedScale``, ``pitch`` (semitones) goes
to ``pitchScale`` (VOICEVOX works in log F0: one semitone is ln 2 / 12), ``volume`` is
``volumeScale``. Each VOICEVOX character asks to be credited as ``VOICEVOX:<name>``: `katari
voices` and transcripts say it for every character a game used.

The story's readings reach VOICEVOX as accent phrases: when a line holds a word of the
story's dictionary, Katari writes the line in AquesTalk-style kana from Open JTalk (with the
dictionary) and asks the engine's ``/accent_phrases?is_kana=true`` for them.
"""

from __future__ import annotations

import json
import math
import os
import re
import urllib.error
import urllib.parse
import urllib.request

from runner.ui.narrator.audio import Clip

DEFAULT_URL = "http://127.0.0.1:50021"
TIMEOUT = 60.0


def engine_url() -> str:
    return (os.environ.get("KATARI_VOICEVOX_URL") or DEFAULT_URL).rstrip("/")


class VoicevoxError(RuntimeError):
    pass


def _get(base: str, path: str, timeout: float = TIMEOUT) -> bytes:
    req = urllib.request.Request(base + path, method="GET")
    with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310
        return r.read()


def _post(base: str, path: str, params: dict, body: bytes = b"", timeout: float = TIMEOUT) -> bytes:
    url = f"{base}{path}?{urllib.parse.urlencode(params)}"
    req = urllib.request.Request(url, data=body, method="POST")
    if body:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=timeout) as r:  # noqa: S310
        return r.read()


def probe(base: str | None = None, timeout: float = 3.0) -> str | None:
    """None when a VOICEVOX ENGINE answers at ``base``, else one line saying what to do."""
    base = (base or engine_url()).rstrip("/")
    try:
        _get(base, "/version", timeout)
    except (urllib.error.URLError, OSError, ValueError) as e:
        why = getattr(e, "reason", e)
        return (
            f"no VOICEVOX ENGINE answers at {base} ({why}); start it, or give its address "
            f"with --voicevox-url"
        )
    return None


def speakers(base: str | None = None) -> list[dict]:
    """The engine's characters: [{"name", "styles": [{"name", "id"}]}]."""
    base = (base or engine_url()).rstrip("/")
    data = json.loads(_get(base, "/speakers").decode("utf-8"))
    if not isinstance(data, list):
        raise VoicevoxError("the engine's /speakers is not a list")
    return data


def credit(name: str) -> str:
    """The credit a VOICEVOX character asks for (its terms: ``VOICEVOX:<name>``)."""
    return f"VOICEVOX:{name}"


class VoicevoxEngine:
    name = "voicevox"

    def __init__(self, base: str | None = None) -> None:
        from runner.ui.narrator.engines import EngineError

        self.base = (base or engine_url()).rstrip("/")
        problem = probe(self.base)
        if problem:
            raise EngineError(problem)
        try:
            self._speakers = speakers(self.base)
        except (urllib.error.URLError, OSError, ValueError, VoicevoxError) as e:
            raise EngineError(
                f"the VOICEVOX ENGINE at {self.base} gave no speaker list ({e})"
            ) from None
        self.readings: dict = {}
        """The story's readings (set by whoever speaks for a story): see aquestalk_kana."""
        self.used: dict[int, str] = {}
        """Style id -> character name, for every voice that spoke (their credits)."""

    def styles(self) -> list[tuple[int, str, str]]:
        """(style id, character, style) for every style the engine has."""
        out = []
        for sp in self._speakers:
            for st in sp.get("styles") or ():
                if isinstance(st, dict) and isinstance(st.get("id"), int):
                    out.append((st["id"], str(sp.get("name", "?")), str(st.get("name", ""))))
        return out

    def style_id(self, voice: str) -> int:
        from runner.ui.narrator.engines import EngineError

        styles = self.styles()
        v = voice.strip()
        if v.isdigit():
            if any(i == int(v) for i, _, _ in styles):
                return int(v)
        else:
            who, _, style = v.partition(":")
            for i, name, sname in styles:
                if name == who and (not style or sname == style):
                    return i
        raise EngineError(f"the VOICEVOX ENGINE has no voice {voice!r} (see `katari voices`)")

    def character(self, style: int) -> str:
        return next((name for i, name, _ in self.styles() if i == style), f"style {style}")

    def voices(self) -> list[dict]:
        return [
            {
                "id": str(i),
                "name": f"{name}（{style}）",
                "languages": ["ja"],
                "credit": credit(name),
            }
            for i, name, style in self.styles()
        ]

    def check_voice(self, voice: str) -> None:
        self.style_id(voice)

    def synth(self, text: str, profile) -> Clip:
        from runner.ui.narrator.audio import read_wav_bytes
        from runner.ui.narrator.engines import EngineError

        if not re.search(r"\w", text):
            return Clip(b"", 24000)
        sid = self.style_id(profile.voice)
        try:
            query = json.loads(_post(self.base, "/audio_query", {"text": text, "speaker": sid}))
            kana = aquestalk_kana(text, self.readings) if self.readings else None
            if kana:
                phrases = json.loads(
                    _post(
                        self.base,
                        "/accent_phrases",
                        {"text": kana, "speaker": sid, "is_kana": "true"},
                    )
                )
                if isinstance(phrases, list) and phrases:
                    query["accent_phrases"] = phrases
            query["speedScale"] = float(profile.rate)
            query["pitchScale"] = float(profile.pitch) * math.log(2) / 12
            query["volumeScale"] = float(profile.volume)
            wav = _post(
                self.base,
                "/synthesis",
                {"speaker": sid},
                json.dumps(query, ensure_ascii=False).encode("utf-8"),
            )
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise EngineError(
                f"the VOICEVOX ENGINE at {self.base} failed: {e}".splitlines()[0]
            ) from None
        self.used[sid] = self.character(sid)
        return read_wav_bytes(wav)


def aquestalk_kana(text: str, readings) -> str | None:
    """``text`` as AquesTalk-style kana (``コーウンノ/ヤヌシ'ガ``: accent phrases split by ``/``,
    ``'`` after the accented mora, ``、`` at pauses) from Open JTalk with the story's
    dictionary, or None when the line holds no word of it (VOICEVOX's own reading is then kept)."""
    from runner.ui.narrator.readings import _phrases, load_openjtalk, use_dictionary

    if not readings or not any(w in text for w in readings):
        return None
    if not use_dictionary(readings):
        return None
    pj = load_openjtalk()
    out: list[str] = []
    for sentence in re.split(r"[。！？!?\n]+", text):
        if not sentence.strip():
            continue
        chunks: list[str] = []
        for part in re.split(r"[、,]+", sentence):
            if not part.strip():
                continue
            phrases = _phrases(pj.run_frontend(part))
            chunks.append("/".join(_mark(p, a) for p, _, a in phrases if p))
        out.append("、".join(c for c in chunks if c))
    return "、".join(c for c in out if c) or None


_SMALL = set("ァィゥェォャュョヮ")


def _mark(pron: str, accent: int) -> str:
    """Put AquesTalk's accent mark ``'`` after mora ``accent`` (flat phrases: on the last mora,
    which VOICEVOX reads as flat)."""
    morae: list[str] = []
    for ch in pron:
        if ch in _SMALL and morae:
            morae[-1] += ch
        elif ch.strip():
            morae.append(ch)
    if not morae:
        return ""
    k = accent if 1 <= accent <= len(morae) else len(morae)
    return "".join(morae[:k]) + "'" + "".join(morae[k:])
