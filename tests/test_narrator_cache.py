"""Narration rendered once per line (`katari voice render`) and played from the cache: keyed by
line id, engine, voice and the text's hash, so an edited line is rendered again and an
unchanged one never; a stopped run goes on where it stopped; the narrator plays a cached line
at once and speaks the others live."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.story import load
from runner.ui.narrator import make_narrator
from runner.ui.narrator.audio import read_wav, rms
from runner.ui.narrator.cache import line_path, story_lines
from runner.ui.narrator.engines import engine_problem
from runner.ui.narrator.narrator import voices_for

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    engine_problem("openjtalk") is not None, reason="pyopenjtalk-plus not installed"
)

STORY = """\
story: {{id: cache_test, title: 録音の部屋, language: ja, rules: none, start: hall}}
readings: {{家主: やぬし}}
voices: {{owner: npc}}
characters: {{owner: {{name: 家主}}}}
nodes:
  hall:
    title: 広間
    narration:
      - {first}
      - {{text: "「よく来たね」", speaker: owner}}
    keeper: [鍵は暖炉の中。]
    actions:
      - id: wait
        label: 待つ
        effects:
{more}
          - end: done
endings:
  done: {{title: おわり, kind: good, narration: [夜が明けた。]}}
"""


def write_story(
    folder: Path, first: str = "古い蓄音機が部屋の隅に置かれている。", n: int = 2
) -> Path:
    folder.mkdir(exist_ok=True)
    more = "\n".join(f"          - say: 時計が{i + 1}回鳴った。" for i in range(n))
    (folder / "story.yaml").write_text(STORY.format(first=first, more=more), encoding="utf-8")
    return folder


def katari(*args: str, env: dict, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        **kw,
    )


@pytest.fixture()
def env(tmp_path: Path) -> dict:
    return dict(
        os.environ,
        KATARI_CACHE=str(tmp_path / "cache"),
        KATARI_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(ROOT),
    )


def wavs(env: dict) -> dict[str, float]:
    root = Path(env["KATARI_CACHE"]) / "narration" / "cache_test"
    return {p.name: p.stat().st_mtime_ns for p in root.rglob("*.wav")}


def test_render_once_edit_renders_that_line_again(tmp_path: Path, env: dict) -> None:
    story_dir = write_story(tmp_path / "s")
    r = katari("voice", "render", str(story_dir), "--engine", "openjtalk", env=env)
    assert r.returncode == 0, r.stderr
    assert "cache_test: 5 lines; 0 already rendered, 5 to render (openjtalk, 1 job)" in r.stderr
    assert "5/5 lines" in r.stderr  # the progress bar reached the end
    assert "rendered 5 lines" in r.stdout and "MB)" in r.stdout
    first = wavs(env)
    assert len(first) == 5  # 2 narration + 2 says + the ending; never the keeper note
    assert not any("keeper" in name for name in first)
    for p in (Path(env["KATARI_CACHE"]) / "narration").rglob("*.wav"):
        clip = read_wav(p)
        assert clip.rate == 48000 and rms(clip) > 300 and 0.4 < clip.seconds < 10, p
    # The owner speaks with the npc profile: another folder (engine-voice-profile hash).
    assert (
        len({p.parent.name for p in (Path(env["KATARI_CACHE"]) / "narration").rglob("*.wav")}) == 2
    )
    r = katari("voice", "render", str(story_dir), "--engine", "openjtalk", env=env)
    assert "5 already rendered, 0 to render" in r.stderr and wavs(env) == first  # never again
    write_story(story_dir, first="古い蓄音機が、部屋の隅で静かに回っている。")
    r = katari("voice", "render", str(story_dir), "--engine", "openjtalk", env=env)
    assert "4 already rendered, 1 to render" in r.stderr, r.stderr
    after = wavs(env)
    assert len(after) == 5  # the old render of the edited line is gone
    changed = set(after) - set(first)
    assert len(changed) == 1 and next(iter(changed)).startswith("hall.1--")
    assert {k: v for k, v in after.items() if k not in changed} == {
        k: v for k, v in first.items() if not k.startswith("hall.1--")
    }


def test_a_stopped_render_goes_on_where_it_stopped_and_jobs_share_the_work(
    tmp_path: Path, env: dict
) -> None:
    story_dir = write_story(tmp_path / "s", n=24)
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "runner",
            "voice",
            "render",
            str(story_dir),
            "--engine",
            "openjtalk",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a suite started in the background (`cmd &`) inherits SIGINT ignored, and Python
        # then never raises KeyboardInterrupt: give the render the terminal's default back
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while len(wavs(env)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    done = len(wavs(env))
    assert p.returncode == 130, err
    assert f"stopped: {done}/27 lines are in the cache" in err
    assert 2 <= done < 27
    r = katari("voice", "render", str(story_dir), "--engine", "openjtalk", "--jobs", "2", env=env)
    assert r.returncode == 0, r.stderr
    assert f"{done} already rendered, {27 - done} to render (openjtalk, 2 jobs)" in r.stderr
    assert len(wavs(env)) == 27
    r = katari("voice", "render", str(story_dir), "--jobs", "0", env=env)
    assert r.returncode == 2 and "must be between 1 and 64" in r.stderr


def test_the_narrator_plays_cached_lines_at_once_and_speaks_the_rest_live(
    tmp_path: Path, env: dict, monkeypatch
) -> None:
    story_dir = write_story(tmp_path / "s")
    r = katari("voice", "render", str(story_dir), "--engine", "openjtalk", env=env)
    assert r.returncode == 0, r.stderr
    monkeypatch.setenv("KATARI_CACHE", env["KATARI_CACHE"])
    story = load(story_dir)
    lines = list(story_lines(story))
    voices = voices_for(None, "openjtalk")
    hit = line_path(
        story.id, lines[0].id, lines[0].text, voices.resolve("narrator", "ja"), story.readings
    )
    assert hit.is_file()
    sink = tmp_path / "out"
    nar, msg = make_narrator(
        engine="openjtalk",
        output=f"dir:{sink}",
        mapping=story.voices,
        readings=story.readings,
        story=story.id,
    )
    assert msg is None, msg
    try:
        a = nar.speak(lines[0].text, id=lines[0].id)  # rendered: from the cache
        b = nar.speak("時計が七回鳴った。", id=None)  # made up in play: live
        c = nar.speak(lines[1].text, speaker="owner", id=lines[1].id)  # the owner's own voice
        for seq in (a, b, c):
            assert nar.wait(seq, timeout=120)["completed"] is True
    finally:
        nar.close()
    started = {m["seq"]: m for m in nar.history if m.get("op") == "started"}
    assert started[a]["cached"] is True and started[c]["cached"] is True
    assert started[b]["cached"] is False
    played = read_wav(sink / f"{a:04d}-00.wav")
    assert played.pcm == read_wav(hit).pcm  # the very audio rendered before
    live = read_wav(sink / f"{b:04d}-00.wav")
    assert live.rate == 48000 and rms(live) > 300
