"""Every message in the player's language (issue #13 item 14): random games of every shipped
story in the Japanese and the English console, with the slips people make and a game
master's overrides, never put an engine's English message or a raw id on the screen.

The rule that keeps it so: every ``error`` and ``override`` event has a ``code`` that the
console words in its language (``err_<code>`` / ``ov_<code>`` in runner/ui/i18n.py)."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

from runner.stories import shipped
from runner.story import load
from runner.ui import i18n
from runner.ui.console import PlainIO, Repl
from runner.ui.render import code_text

STORIES = {p.name if p.is_dir() else p.stem: load(p) for p in shipped()}
CODES_BY_RENDERER = {"unknown_command", "no_such_number", "empty"}
"""Error codes the renderer words itself (with the command typed)."""

SLIPS = [
    "zzz",
    "99",
    "0",
    "@check",
    "@sheet x",
    "roll abc",
    "roll 1d",
    "undo abc",
    "undo -1",
    "redo x",
    "load nosuch",
    "save ../x",
    "transcript /etc/passwd/x.md",
    "pause",
    "pause",
    "resume",
    "look",
    "status",
    "inventory",
    "history",
    "help",
    "gm",
    "!set x 1",
    "/unknown",
]
GM_LINES = [
    "変数 ほげ 1",
    "変数 light はい",
    "時計 +30",
    "時計 ほげ",
    "時刻 09:00",
    "時刻 25:00",
    "ダメージ 3",
    "ダメージ だれか 2",
    "ダメージ pc 1 ほげ",
    "強制 ほげ",
    "強制 成功",
    "与える 鍵",
    "与える ほげ",
    "取り上げる スマホ",
    "移動 ほげ",
    ":HP-1",
    ":SAN=40",
    ":ほげ+1",
    "gm set",
    "gm clock",
    "gm force",
    "gm damage",
    "gm bogus",
    "gm give",
    "gm goto",
    "!frobnicate",
]
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


def _texts(story) -> str:
    """Everything the story itself says (names, labels, narration): words there are fine."""
    out: list[str] = [story.title, story.description]
    for n in story.nodes.values():
        out.append(n.title)
        out += [x.text for x in (*n.narration, *n.keeper)]
        for a in n.actions:
            out += [a.label, *a.aliases]
    for e in story.endings.values():
        out.append(e.title)
        out += [x.text for x in e.narration]
    out += [i.name + " " + i.description for i in story.items.values()]
    out += [c.name for c in story.characters.values()]
    out += [v.label for v in story.variables.values()]
    return "\n".join(str(x) for x in out)


def _raw_ids(story, lang: str) -> set[str]:
    """Ids a person never sees: of endings and their kinds, nodes, items, variables and
    characters, minus the words that the story's own text or the interface uses."""
    ids = {
        *story.endings,
        *(e.kind for e in story.endings.values()),
        *story.nodes,
        *story.items,
        *story.variables,
        *story.characters,
        *(e.id for e in story.events),
    }
    seen = set(_WORD.findall(_texts(story)))
    seen |= set(_WORD.findall(" ".join(i18n._TEXT[lang].values())))
    return {x for x in ids if _WORD.fullmatch(x) and x not in seen}


class _NoPanel(Repl):
    """The GM panel is the keeper's own tool (its words are tested in test_gm_panel.py)."""

    def gm_panel(self, cols: int | None = None, **kw: object) -> list:
        return []

    def autosave(self) -> None:
        pass  # thousands of fsyncs say nothing about words (saves are tested elsewhere)


def _play(story, lang: str, gm: bool, seed: int) -> tuple[str, list[dict]]:
    rnd = random.Random(seed)
    out = io.StringIO()
    shown: list[dict] = []
    repl = _NoPanel(
        story,
        io=PlainIO(io.StringIO(), out, cols=100),
        new=True,
        lang=lang,
        gm=gm,
        seed=seed,
        clock=lambda: 0.0,
    )
    real_show = repl.show

    def show(events: list[dict], command: str = "", **kw: Any) -> None:
        shown.extend(events)
        real_show(events, command, **kw)

    repl.show = show  # type: ignore[method-assign]
    repl.begin()
    for _ in range(60):
        roll = rnd.random()
        if roll < 0.15:
            line = rnd.choice(SLIPS)
        elif gm and roll < 0.35:
            line = rnd.choice(GM_LINES)
        else:
            choices = [c for c in repl.choices() if c.n]
            line = str(rnd.choice(choices).n) if choices else "undo"
        if not repl.handle(line):
            break
    repl.finish()
    return out.getvalue(), shown


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name", sorted(STORIES))
def test_random_games_show_no_english_engine_message_or_raw_id(
    name: str, lang: str, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    story = STORIES[name]
    raw_player = _raw_ids(story, lang)
    for seed in range(16):
        gm = seed % 2 == 1
        # A keeper sets variables by their names, labelled or not (変数 door_open はい).
        raw = raw_player - set(story.variables) if gm else raw_player
        screen, events = _play(story, lang, gm=gm, seed=seed)
        for ev in events:
            if ev.get("type") not in ("error", "override"):
                continue
            code = ev.get("code")
            assert code, f"{name}: an {ev['type']} event without a code: {ev}"
            if code not in CODES_BY_RENDERER:
                assert code_text(ev, lang, story) is not None, (
                    f"{name}/{lang}: no words for {code}: {ev}"
                )
            msg = str(ev.get("message") or "")
            if len(msg) > 12 and code not in ("story_error",):
                assert msg not in screen, (
                    f"{name}/{lang}: the engine's own message reached the screen: {msg}"
                )
        words = set(_WORD.findall(screen))
        leaked = sorted(words & raw)
        assert not leaked, (
            f"{name}/{lang} seed {seed}: raw ids on screen: {leaked}\n"
            + "\n".join(line for line in screen.splitlines() if any(w in line for w in leaked))[
                :2000
            ]
        )
        if lang == "ja":
            # Interface lines in Japanese carry no English sentence (4+ English words in a row).
            for line in screen.splitlines():
                assert not re.search(r"\b[a-z]+ [a-z]+ [a-z]+ [a-z]+\b", line), f"{name}: {line}"


def test_the_raw_ids_seen_at_the_table_are_worded(tmp_path: Path, monkeypatch) -> None:
    from runner.ui.render import Renderer, plain, status_lines

    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    r = Renderer(None, lang="ja")
    assert "━━ エンディング：深海に散る（死亡）━━" in plain(
        r.event({"type": "ending", "kind": "death", "title": "深海に散る"})
    )
    ended = {
        "type": "state",
        "node": "end",
        "title": "温室からの脱出",
        "turn": 9,
        "ending": "full_victory",
        "ureg": {"flowers": {"red": 1, "white": 2}},
    }
    text = plain(status_lines(ended, STORIES["ureg_glass_greenhouse"], "ja"))
    assert "full_victory" not in text and "花: 赤 1・白 2" in text
    out = io.StringIO()
    repl = Repl(
        STORIES["ureg_glass_greenhouse"],
        io=PlainIO(
            io.StringIO("1\n@check\nroll abc\ntranscript /etc/passwd/x.md\n"), out, cols=100
        ),
        new=True,
        seed=1,
        clock=lambda: 0.0,
    )
    repl.run()
    screen = out.getvalue()
    for english in (
        "unknown rule command",
        "cannot read dice expression",
        "No such file",
        "Not a directory",
    ):
        assert english not in screen
    assert "「abc」は振れません（例：roll 1d100、roll 2d6+1、roll CC<=50）" in screen
    assert "記録を書けません：/etc/passwd：フォルダーのはずの場所がファイルです" in screen
