"""A small stand-in for a VOICEVOX ENGINE, for tests: the same HTTP API (version, speakers,
audio_query, accent_phrases, synthesis) on 127.0.0.1, answering with real speech (Open JTalk,
resampled to 24 kHz as VOICEVOX sends it). It records every request it gets."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import urllib.parse
import wave
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SPEAKERS = [
    {
        "name": "ずんだもん",
        "speaker_uuid": "z",
        "styles": [{"name": "ノーマル", "id": 3}, {"name": "あまあま", "id": 1}],
    },
    {"name": "四国めたん", "speaker_uuid": "m", "styles": [{"name": "ノーマル", "id": 2}]},
    {"name": "春日部つむぎ", "speaker_uuid": "t", "styles": [{"name": "ノーマル", "id": 8}]},
    {"name": "玄野武宏", "speaker_uuid": "k", "styles": [{"name": "ノーマル", "id": 11}]},
    {"name": "青山龍星", "speaker_uuid": "a", "styles": [{"name": "ノーマル", "id": 13}]},
]
_SMALL = set("ァィゥェォャュョヮ")


def _morae(kana: str) -> list[dict]:
    out: list[str] = []
    for ch in kana:
        if ch in _SMALL and out:
            out[-1] += ch
        elif ch not in "'/_、 ":
            out.append(ch)
    return [
        {"text": m, "consonant": None, "vowel": "a", "vowel_length": 0.1, "pitch": 5.5} for m in out
    ]


def _phrases_from_kana(kana: str) -> list[dict]:
    phrases = []
    for part in kana.replace("、", "/").split("/"):
        if not part:
            continue
        accent = len(_morae(part.split("'")[0])) or 1
        phrases.append(
            {"moras": _morae(part), "accent": accent, "pause_mora": None, "is_interrogative": False}
        )
    return phrases


def _phrases_from_text(text: str) -> list[dict]:
    import pyopenjtalk

    kana = pyopenjtalk.g2p(text, kana=True)
    return _phrases_from_kana(kana)


def _wav(text: str, speed: float, volume: float) -> bytes:
    import numpy as np
    import pyopenjtalk

    samples, rate = pyopenjtalk.tts(text or "ア", speed=max(0.5, min(2.0, speed)))
    x = np.asarray(samples, dtype=np.float64) * volume
    n = int(len(x) * 24000 / rate)
    y = np.interp(np.linspace(0, len(x) - 1, n), np.arange(len(x)), x)
    pcm = np.clip(y, -32768, 32767).astype("<i2").tobytes()
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(24000)
        w.writeframes(pcm)
    return buf.getvalue()


class StandIn:
    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict, object]] = []
        me = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def _send(self, code: int, body: bytes, ctype: str) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _json(self, data) -> None:
                self._send(
                    200, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json"
                )

            def do_GET(self):
                url = urllib.parse.urlparse(self.path)
                me.requests.append(("GET", url.path, {}, None))
                if url.path == "/version":
                    self._json("0.0.0-standin")
                elif url.path == "/speakers":
                    self._json(SPEAKERS)
                else:
                    self._send(404, b"{}", "application/json")

            def do_POST(self):
                url = urllib.parse.urlparse(self.path)
                q = {k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()}
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"null") if n else None
                me.requests.append(("POST", url.path, q, body))
                ids = {s["id"] for sp in SPEAKERS for s in sp["styles"]}
                if q.get("speaker") is not None and int(q["speaker"]) not in ids:
                    self._send(422, b'{"detail":"no such speaker"}', "application/json")
                elif url.path == "/audio_query":
                    self._json(
                        {
                            "accent_phrases": _phrases_from_text(q["text"]),
                            "speedScale": 1.0,
                            "pitchScale": 0.0,
                            "intonationScale": 1.0,
                            "volumeScale": 1.0,
                            "prePhonemeLength": 0.1,
                            "postPhonemeLength": 0.1,
                            "outputSamplingRate": 24000,
                            "outputStereo": False,
                            "kana": "",
                        }
                    )
                elif url.path == "/accent_phrases":
                    assert q.get("is_kana") == "true"
                    self._json(_phrases_from_kana(q["text"]))
                elif url.path == "/synthesis":
                    kana = "".join(m["text"] for p in body["accent_phrases"] for m in p["moras"])
                    self._send(
                        200, _wav(kana, body["speedScale"], body["volumeScale"]), "audio/wav"
                    )
                else:
                    self._send(404, b"{}", "application/json")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        with contextlib.suppress(Exception):
            self.server.server_close()
