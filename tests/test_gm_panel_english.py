"""The English GM panel is English (the tourist's item 2): timed events' titles were never
exported for translation (``next 16:30 空腹に気づく``) and an enemy's sheet keys showed as the
story wrote them (``耐久力 30 … 移動 10``).

Guard: for every shipped story with an English edition, the GM panel and the status bar of
``--gm --lang en``, rendered by the real render functions over the states of random GM games,
have no Japanese characters. The one exception, decided in docs/translating.md: a name the
translation keeps as it is (``Applied.proper_names``)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from runner.engine import available, new_game, state_event, step
from runner.stories import shipped
from runner.story import load
from runner.story.translate import apply, check, languages
from runner.ui.render import gm_hidden, gm_lines, plain, status_items

ROOT = Path(__file__).resolve().parent.parent
_JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]")
_PATHS = {(p.name if p.is_dir() else p.stem): p for p in shipped()}
_EN = sorted(n for n, p in _PATHS.items() if "en" in languages(load(p)))


def _japanese_left(text: str, names: frozenset[str]) -> list[str]:
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "")
    return _JA.findall(text)


@pytest.mark.parametrize("name", _EN)
def test_the_english_gm_panel_and_status_have_no_japanese(name: str) -> None:
    story = apply(load(_PATHS[name]), "en")
    names = story.translation.proper_names if story.translation is not None else frozenset()
    for seed in range(12):
        rnd = random.Random(seed)
        state, _ = new_game(story, seed=seed, gm=True)
        for _turn in range(40):
            gm_ev = state_event(story, state, gm=True)
            player_ev = state_event(story, state, gm=False)
            rows = gm_lines(gm_ev, story, "en", cols=120, hidden=gm_hidden(player_ev, gm_ev))
            texts = plain(rows).splitlines()
            texts += [f"{k} {v}" for k, v in status_items(player_ev, story, "en")]
            for text in texts:
                left = _japanese_left(text, names)
                assert not left, f"{name} seed {seed}: {text!r}"
            if state.ending is not None:
                break
            actions = [c for c in available(story, state) if c.n]
            if not actions:
                break
            state, _ = step(story, state, rnd.choice(actions), gm=True)


@pytest.mark.parametrize("name", _EN)
def test_every_timed_event_title_is_translated_and_checked(name: str) -> None:
    story = apply(load(_PATHS[name]), "en")
    src = load(_PATHS[name])
    for ev, en in zip(src.events, story.events, strict=True):
        if ev.title:
            assert en.title != ev.title and not _JA.search(en.title), (ev.id, en.title)
    assert not [d for d in check(src, "en") if "event." in str(d)]


def test_check_lang_en_reports_an_untranslated_event_title(tmp_path: Path) -> None:
    import shutil

    dst = tmp_path / "dungeon_2f"
    shutil.copytree(_PATHS["dungeon_2f"], dst)
    po = dst / "translations" / "en.po"
    po.write_text(
        po.read_text(encoding="utf-8").replace('msgstr "Time is up"', 'msgstr ""'),
        encoding="utf-8",
    )
    p = subprocess.run(
        [sys.executable, "-m", "runner", "check", str(dst), "--lang", "en"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = p.stdout + p.stderr
    assert "event.timeout.title: not translated into en" in out and "K400" in out, out
