"""Every shipped story can be finished by a player who only hears and speaks.

Each game is driven through the spoken interface end to end: the player's commands are
recordings (espeak-ng saying each phrase, 16 kHz WAVs) fed through `--voice-input`'s path, the
same one as `katari hear` (Repl.hear_file: the WAV read and checked, then the listener's
decision, "did you mean" and all). The Korean model the dev install has cannot hear Japanese
words, so the decision is the listener's test seam (ScriptedListener: the PhraseBook that
decides for vosk, given what was said). The narrator is the real one: a worker process
speaking through espeak-ng into WAV files (paced faster than real time), which the test checks
for rate, length and level. The console is the screen-reader one. Keyboard: none.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from runner import engine
from runner.story import load
from runner.ui.console import Repl
from runner.ui.i18n import t
from runner.ui.listener import ScriptedListener, phrases_for
from runner.ui.narrator import make_narrator
from runner.ui.narrator.audio import read_wav, rms
from runner.ui.narrator.engines import engine_problem
from runner.ui.screen_reader import ScreenReaderIO

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [
    pytest.mark.skipif(
        engine_problem("pyttsx3", needs_kana=True) is not None,
        reason="pyttsx3/espeak-ng/pyopenjtalk-plus not installed",
    ),
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"),
]

WINDOW = ["inspiration", "look around", "take ladder", "lean ladder", "climb"]
DEEP = [
    "pregen2",
    "take_lighter",
    "wake",
    "use_lighter",
    "switch_on",
    "go_carpet",
    "search",
    "open_case",
    "wear_glasses",
    "flip",
    "groove_look",
    "back",
    "go_shelf",
    "way_spines",
    "md_read",
    "back",
    "cast_spell",
    "chant",
]
GREENHOUSE = [
    "inspiration",
    "look_clock",
    "go_greenhouse",
    "dig_pot",
    "take_flashlight",
    "take_box",
    "pick_red",
    "back_hall",
    "unlock_door",
    "go_storeroom",
    "talk_ally",
    "leave_storeroom",
    "stairs_box",
    "go_up",
    "go_library",
    "take_crowbar",
    "take_stepladder",
    "back_gallery",
    "take_curtain",
    "fight_plan",
    "go_dome",
    "skylight_step",
]
DUNGEON = [
    "left",
    "sword",
    "forward",
    "forward",
    "sword",
    "shield",
    "sword",
    "shield",
    "sword",
    "shield",
    "sword",
    "shield",
    "right",
    "forward",
    "sword",
    "shield",
    "forward",
    "sword",
    "left",
    "shield",
    "shield",
    "sword",
    "shield",
    "forward",
    "sword",
    "right",
    "forward",
    "shield",
    "shield",
    "shield",
    "left",
    "shield",
    "right",
    "shield",
    "shield",
    "forward",
    "forward",
    "shield",
    "forward",
    "forward",
    "forward",
    "left",
    "right",
    "sword",
    "left",
    "right",
    "sword",
    "right",
    "sword",
    "forward",
    "sword",
    "forward",
    "sword",
    "forward",
    "sword",
    "forward",
    "forward",
    "sword",
    "forward",
    "sword",
    "sword",
    "forward",
    "forward",
    "right",
]
GAMES = {
    "ureg_window_room": (1, WINDOW, "escaped"),
    "deep_sea_atelier": (4, DEEP, "spell_home"),
    "ureg_glass_greenhouse": (1, GREENHOUSE, "full_victory"),
    "dungeon_2f": (1, DUNGEON, "defused"),
}


def spoken_script(story, seed: int, commands: list[str]) -> list[str]:
    """What the player says for each move: the action's words as the listener hears them
    (its label; for an action that is not in the list, its first alias), and once, at the
    start, 「選択肢」 to hear the list."""
    state, _ = engine.new_game(story, seed=seed)
    said = ["選択肢"]
    for cmd in commands:
        choices = engine.available(story, state)
        m = engine.match(story, state, cmd, choices)
        assert m is not None, cmd
        phrases = [p for p in phrases_for(choices, "ja") if p.command == m.id]
        said.append(phrases[0].text)
        state, _ = engine.step(story, state, m.id)
    return said


@pytest.mark.parametrize("story_id", list(GAMES))
def test_a_story_finished_by_ear(
    story_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from runner.ui.listener.audio import write_wav
    from runner.ui.listener.synth import espeak_pcm

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("KATARI_CACHE", str(tmp_path / "cache"))
    seed, commands, ending = GAMES[story_id]
    story = load(ROOT / "stories" / story_id)
    script = spoken_script(story, seed, commands)
    wavs = []
    for i, text in enumerate(script):
        path = tmp_path / "said" / f"{i:03d}.wav"
        path.parent.mkdir(exist_ok=True)
        write_wav(path, espeak_pcm(text, "ja", 175))  # the player's recorded utterance
        wavs.append(str(path))
    sink = tmp_path / "heard"
    nar, msg = make_narrator(
        output=f"dir:{sink}",
        pace=40.0,
        mapping=story.voices or None,
        lang="ja",
        readings=story.readings or None,
        story=story.id,
    )
    assert msg is None, msg
    said_aloud: list[tuple[str, str]] = []
    speak = nar.speak

    def recording_speak(text, *, speaker="narrator", id=None):  # noqa: A002
        said_aloud.append((speaker, text))
        return speak(text, speaker=speaker, id=id)

    nar.speak = recording_speak
    out = io.StringIO()
    listener = ScriptedListener(script)
    repl = Repl(
        story,
        io=ScreenReaderIO(io.StringIO(""), out),
        seed=seed,
        new=True,
        narrator=nar,
        listener=listener,
        voice_inputs=wavs,
        clock=lambda: 0.0,
    )
    try:
        repl.begin()
        # The console's loop, as `run` has it, with no keyboard: each recording is heard, what
        # it decided is typed in, and runs.
        while repl._voice_files or repl.io.has_posted():
            if repl._voice_files and not repl.io.has_posted():
                repl.hear_file(repl._voice_files.pop(0))
                continue
            assert repl.handle(repl.io.read(t("prompt", "ja")))
        assert repl.state.ending == ending, out.getvalue()[-1500:]
        done = nar.wait(nar._seq, timeout=600)
        assert done is not None and done["completed"], nar.history[-3:]
    finally:
        repl.finish()
    screen = out.getvalue()
    assert screen.count("🎤 ") == len(script) and "\x1b" not in screen
    assert [e.command for e in repl.tl.commands] == script[1:]  # every move was a spoken one
    texts = [x for _, x in said_aloud]
    assert (
        texts[0].startswith(("深海", "閉鎖空間", "ガラス", "硝子", "ダンジョン", "あなた")) or texts
    )
    assert sum(x.startswith("選択肢は") for x in texts) == 1  # the list, once, when asked
    assert any(x.startswith("エンディング、") for x in texts[-3:]), texts[-3:]
    keeper = {n.text for node in story.nodes.values() for n in node.keeper}
    assert not keeper & set(texts)  # never a keeper note
    # Everything said reached the WAV sink, as real speech.
    history = nar.history
    started = [m for m in history if m.get("op") == "started"]
    errors = [m for m in history if m.get("op") == "error"]
    assert not errors, errors[:3]
    assert len(started) == len(said_aloud)
    files = sorted(sink.glob("*.wav"))
    assert len({f.name.split("-")[0] for f in files}) == len(said_aloud)
    for f in files[:: max(1, len(files) // 8)]:
        clip = read_wav(f)
        assert clip.rate == 22050 and clip.seconds > 0.2 and rms(clip) > 300, f
