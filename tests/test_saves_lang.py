"""A save records the language its game was played in; `katari replay` and resuming use it.

The rules put names in the State at the start (a UREG PC called 'You' or 'あなた', a CoC era
'Modern' or '現代'), and the story's commands are in the language played: a game played in
English must replay in English and resume in English. Property: for every shipped story, both
languages (and GM mode), a few random moves chosen headless (``--jsonl``), played in the
console and saved, replay OK and resume in the language they were played in."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import katari

from runner.commands._common import translated
from runner.stories import installed_story, shipped_dir
from runner.story import load
from runner.ui import files
from runner.ui.jsonl import turns

STORY_IDS = sorted(p.name for p in shipped_dir().iterdir() if (p / "story.yaml").exists())
CASES = [(sid, lang, False) for sid in STORY_IDS for lang in ("ja", "en")] + [
    ("deep_sea_atelier", "en", True)
]


def random_moves(story_id: str, lang: str, seed: int, gm: bool, n: int = 5) -> list[str]:
    """``n`` actions picked at random from each turn's prompt, as a bot playing ``--jsonl``
    in ``lang`` would pick them (by number), avoiding those that end the game (a finished
    game is not offered for resuming)."""
    story = translated(load(installed_story(story_id)), lang)
    rng = random.Random(f"{story_id}-{lang}-{seed}")
    cmds: list[str] = []
    for _ in range(n):
        last = list(turns(story, cmds, seed=seed, gm=gm))[-1]
        if last["type"] != "prompt" or not last["actions"]:
            break
        actions = list(last["actions"])
        rng.shuffle(actions)
        for a in actions:
            if list(turns(story, [*cmds, str(a["n"])], seed=seed, gm=gm))[-1]["type"] == "prompt":
                cmds.append(str(a["n"]))
                break
        else:
            break
    return cmds


def body(path: Path) -> dict:
    return files.read_doc(path)


def env_without_lang() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "KATARI_LANG"}


@pytest.mark.parametrize(("story_id", "lang", "gm"), CASES)
def test_a_random_game_replays_and_resumes_in_its_language(
    story_id: str, lang: str, gm: bool, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    seed = 11
    cmds = random_moves(story_id, lang, seed, gm)
    assert cmds
    gm_flag = ["--gm"] if gm else []
    env = env_without_lang()
    r = katari(
        "play",
        story_id,
        "--lang",
        lang,
        "--new",
        "--seed",
        str(seed),
        *gm_flag,
        "--transcript",
        str(tmp_path / "t.md"),
        stdin="\n".join([*cmds, "save t", "quit"]) + "\n",
        home=home,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    saves = home / "stories" / story_id / "saves"
    t = saves / "t.json"
    assert body(t)["lang"] == lang
    assert body(saves / "autosave.json")["lang"] == lang
    r = katari("replay", str(t), home=home, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("OK" if lang == "en" else "OK：")
    r = katari("replay", str(tmp_path / "t.md"), home=home, env=env)  # the transcript too
    assert r.returncode == 0, r.stdout + r.stderr

    # Resume with no --lang: in the language played, said in one line when it is not the
    # language the story would otherwise be played in (its own: Japanese).
    r = katari("play", story_id, *gm_flag, stdin="y\nsave u\nquit\n", home=home, env=env)
    assert r.returncode == 0, r.stderr
    said = {"en": "This game was played in English", "ja": "このゲームは"}[lang]
    assert (said in r.stderr) == (lang == "en")
    resumed = {"en": "Resumed (", "ja": "続きから再開しました（"}[lang]
    assert resumed in r.stdout, r.stdout[-600:]
    u = saves / "u.json"
    assert body(u)["lang"] == lang
    assert body(u)["state"] == body(t)["state"]
    r = katari("replay", str(u), home=home, env=env)
    assert r.returncode == 0, r.stdout + r.stderr


def test_an_old_save_without_a_language_is_the_storys_language(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = env_without_lang()
    story_id = "ureg_window_room"
    r = katari(
        "play",
        story_id,
        "--new",
        stdin="1\nlook around\nquit\n",
        home=home,
        env=env,
    )
    assert r.returncode == 0, r.stderr
    auto = home / "stories" / story_id / "saves" / "autosave.json"
    old = dict(body(auto))
    assert old.pop("lang") == "ja"
    auto.write_bytes(json.dumps(files._doc(old), ensure_ascii=False).encode())
    files._unlink(files.journal_path(auto))
    # An English console: the replay and the resume still play the story in Japanese.
    env_en = {**env, "KATARI_LANG": "en"}
    r = katari("replay", str(auto), home=home, env=env_en)
    assert r.returncode == 0, r.stdout + r.stderr
    r = katari("play", story_id, stdin="y\nquit\n", home=home, env=env_en)
    assert r.returncode == 0, r.stderr
    assert "このゲームは日本語で遊ばれていたので、日本語で続けます" in r.stderr
    assert "あなた" in r.stdout or "窓の部屋" in r.stdout


def test_an_explicit_lang_wins_at_resume_and_says_what_stays(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = env_without_lang()
    story_id = "ureg_window_room"
    r = katari("play", story_id, "--lang", "en", "--new", stdin="1\nquit\n", home=home, env=env)
    assert r.returncode == 0, r.stderr
    r = katari("play", story_id, "--lang", "ja", stdin="y\nquit\n", home=home, env=env)
    assert r.returncode == 0, r.stderr
    assert "このゲームは英語で遊ばれていました" in r.stderr
    assert len([ln for ln in r.stderr.splitlines() if ln.strip()]) == 1
