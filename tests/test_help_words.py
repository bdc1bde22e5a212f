"""The console's ``help`` lists its commands in the player's language only: English help
shows the English words (it listed 「help / ヘルプ」, 「look / 見る」 ...), Japanese help the
Japanese word and the English one; the words of either language are accepted in both.

Guard: every shipped story in English, as a player and with --gm: the help's command lines
carry no Japanese (a proper name such as キャラクター保管所 excepted), every word listed is
a word the console takes, and a Japanese word still works in an English game."""

from __future__ import annotations

import re

import pytest
from conftest import katari

from runner.stories import shipped
from runner.ui.i18n import meta_words

JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff60]")
PROPER = ("キャラクター保管所",)
"""Names the English help keeps as they are (a Japanese web service's name)."""
STORIES = [p.name for p in shipped()]


def commands_block(out: str, head: str, end: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith(head))
    stop = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(end))
    return lines[start + 1 : stop]


@pytest.mark.parametrize("story", STORIES)
@pytest.mark.parametrize("gm", [False, True])
def test_english_help_shows_english_words_only(tmp_path, story: str, gm: bool) -> None:
    out = katari(
        "play",
        story,
        "--lang",
        "en",
        "--new",
        *(["--gm"] if gm else []),
        stdin="help\nヘルプ\n",
        home=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    block = commands_block(out.stdout, "Commands", "Actions")
    assert len(block) >= 10, out.stdout
    known = meta_words()
    for line in block:
        words = line.strip().split(" — ")[0]
        shown = words
        for name in PROPER:
            line = line.replace(name, "")
        assert not JAPANESE.search(line), line
        assert " / " not in shown, line
        assert shown.casefold() in known, line  # a word the console takes
    # ヘルプ typed in the English game is still help: the list comes twice
    assert out.stdout.count("Commands (") == 2, out.stdout


def test_japanese_help_keeps_both_words(tmp_path) -> None:
    out = katari("play", "ureg_window_room", "--new", stdin="help\nhelp\n", home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "ヘルプ / help — この一覧" in out.stdout
