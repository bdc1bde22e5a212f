"""#18 every shipped story that has a translation plays in both languages: its play-tests
pass in each, the same seeds and action ids reach the same endings, and a random walk over
`--jsonl` games shows a player no character of the other language.

Generic over the shipped stories: a story joins as soon as it has ``translations/LANG.po``.
The suite plays a bounded number of games per story; ``KATARI_I18N_GAMES=1000 pytest
tests/test_i18n_stories.py`` plays the full thousand (the slow run)."""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest

from runner.authoring.playtest import load_cases, playtest_files, run_case
from runner.cli import main
from runner.stories import shipped
from runner.story import load
from runner.story import translate as T
from runner.ui import jsonl as J

GAMES = int(os.environ.get("KATARI_I18N_GAMES", "25"))
MAX_TURNS = 80

# Japanese script: kana, kanji, and the punctuation only Japanese uses (、。「」『』・ and the
# full-width forms). The UREG notation's 〈○…〉 brackets, ○ and × are the rules' own marks
# in every language (〈○Inspiration〉), so they are not counted.
JAPANESE = re.compile(
    "[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\u3001\u3002\u300c-\u300f\u30fb\uff01-\uff60\uff66-\uff9f]"
)
# An English word in a Japanese game: four or more Latin letters in a row (units such as m
# and cm, dice like 1D100, the bomb's three-letter indicator labels and serial are shorter).
ENGLISH = re.compile(r"(?<![A-Za-z])[A-Za-z]{4,}")
ENGLISH_OK = {"UREG", "BCDice", "GM"}
"""Latin words a Japanese game may show: names of systems the Japanese rules use as they are."""

# Fields that carry ids, not text a player reads.
ID_KEYS = {
    "type",
    "id",
    "node",
    "speaker",
    "ending",
    "code",
    "kind",
    "status",
    "archetype",
    "rules",
    "story",
    "command",
    "hook",
    "led",
    "level",
    "difficulty",
    "who",
    "awaiting",
    "conditions",
    "held_by",
    "insane",
    "side",
    "unit",
}
"""(``led``: the bomb module's zone, an id such as ``yellow`` in every language; ``level`` to
``who``: a roll's verdict and roller; ``awaiting`` to ``unit``: coc7's state for front ends,
its phases, condition ids and sides)"""


def translated_stories() -> list[tuple[str, str]]:
    out = []
    for path in shipped():
        story = load(path)
        for lang in T.languages(story):
            if lang != story.language:
                out.append((path.name, lang))
    return out


PAIRS = translated_stories()


RULE_KEYS = {"skill", "native", "marks", "name_en"}
"""Values in a rule system's sheets (a state event's ``stats``) that are the rules' own keys,
not words: a coc7 sheet names its skills, its weapons' skills, its improvement marks and the
investigator's own language by the Japanese rulebook's names, whatever the language played,
and keeps a ready-made investigator's English name (``name_en``) for English views
(the sheet a player reads is the rules' view of it, checked in tests/test_deep_sea_english.py)."""


def _strings(v, key: str = "", parent: str = ""):
    if isinstance(v, str):
        if key not in ID_KEYS and not (
            parent == "stats" and (key in RULE_KEYS or key == "weapons.name")
        ):
            yield key, v
    elif isinstance(v, dict):
        for k, x in v.items():
            if k == "gm":
                continue  # a game master's part of a state event
            # a weapon's name in a sheet is the key of the rules' weapon table (素手, M360J),
            # its ammunition's name the table's too
            yield from _strings(
                x,
                "weapons.name" if key == "weapons" and k in ("name", "ammo_name") else k,
                parent or ("stats" if k == "stats" else ""),
            )
    elif isinstance(v, list):
        for x in v:
            yield from _strings(x, key, parent)


def foreign(ev: dict, lang: str, allowed: set[str]) -> list[str]:
    """The strings of a non-GM event written in a script other than ``lang``'s."""
    out = []
    if isinstance(ev.get("texts"), dict):
        # A rule's line in both languages (runner.rules.coc7.checks.say), for a console shown
        # in another language than the story's: only the one played is read by this player.
        ev = {**ev, "texts": {lang: ev["texts"].get(lang, "")}}
    for key, s in _strings(ev):
        if ev.get("type") == "roll" and key == "text":
            continue  # BCDice's own line, as BCDice writes it (#18); a player reads the roll
            # from its numbers, in the language played (runner.ui.render.roll_text)
        if lang == "ja":
            hits = [w for w in ENGLISH.findall(s) if w not in ENGLISH_OK and w not in allowed]
        else:
            hits = [c for c in JAPANESE.findall(s) if not any(c in name for name in allowed)]
        if hits:
            out.append(f"{key}: {s!r}")
    return out


def walk(story, seed: int) -> tuple[list[dict], list[str]]:
    """A random game over the JSON-lines front end: at each prompt an action id (now and
    then a number, a label or an alias), until an ending or MAX_TURNS. Returns the events
    and the action ids played."""
    rng = random.Random(seed)
    events: list[dict] = []
    played: list[str] = []

    def lines():
        for _ in range(MAX_TURNS):
            prompt = next((e for e in reversed(events) if e["type"] in ("prompt", "ending")), None)
            if prompt is None or prompt["type"] == "ending" or not prompt.get("actions"):
                return
            a = rng.choice(prompt["actions"])
            played.append(a["id"])
            yield a["id"]

    for ev in J.turns(story, lines(), seed=seed):
        events.append(ev)
    return events, played


def replay(story, seed: int, ids: list[str]) -> list[dict]:
    out = io.StringIO()
    J.play(story, ids, out, seed=seed)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def ending_of(events: list[dict]) -> str | None:
    return next((e["id"] for e in reversed(events) if e["type"] == "ending"), None)


def allowed_names(story) -> set[str]:
    """Names a translation keeps in the source script (its ``X-Katari-Proper-Names``)."""
    return set(story.translation.proper_names) if story.translation is not None else set()


@pytest.mark.parametrize(("story_id", "lang"), PAIRS)
def test_play_tests_pass_in_both_languages(capsys, story_id: str, lang: str) -> None:
    assert main(["test", story_id, "-q"]) == 0, capsys.readouterr().out[-3000:]
    rc = main(["test", story_id, "--lang", lang, "-q"])
    out = capsys.readouterr().out
    assert rc == 0, out[-3000:]
    assert "passed" in out and "failed" not in out.split("===")[-2 if "===" in out else -1]


@pytest.mark.parametrize(("story_id", "lang"), PAIRS)
def test_each_play_test_reaches_the_same_ending_in_both_languages(story_id: str, lang: str) -> None:
    source = load(shipped_path(story_id))
    tr = T.apply(source, lang)
    assert tr.translation is not None and tr.translation.fallback == frozenset(), (
        f"{story_id} {lang}: untranslated or stale: {sorted(tr.translation.fallback)[:10]}"
    )
    n = 0
    for f in playtest_files(source.path):
        for case in load_cases(f):
            if case.skip or case.lang:
                continue
            res = run_case(tr, case)  # played in step with the source, action by action
            assert res.outcome == "passed", res.failures
            n += 1
    assert n > 0


def shipped_path(story_id: str) -> Path:
    return next(p for p in shipped() if p.name == story_id)


@pytest.mark.parametrize(("story_id", "lang"), PAIRS)
def test_random_games_are_the_same_game_and_in_one_language(story_id: str, lang: str) -> None:
    source = load(shipped_path(story_id))
    tr = T.apply(source, lang)
    allowed = allowed_names(tr)
    for seed in range(GAMES):
        ev_tr, ids = walk(tr, seed)
        ev_src = replay(source, seed, ids)
        # the same seed and action ids: the same ending and the same state at every turn
        assert ending_of(ev_tr) == ending_of(ev_src), (seed, ids)
        st_tr = [
            (e["node"], e["turn"], json.dumps(e["vars"]), json.dumps(e["inventory"]))
            for e in ev_tr
            if e["type"] == "state"
        ]
        st_src = [
            (e["node"], e["turn"], json.dumps(e["vars"]), json.dumps(e["inventory"]))
            for e in ev_src
            if e["type"] == "state"
        ]
        assert st_tr == st_src, (seed, ids)
        for ev in ev_tr:
            bad = foreign(ev, lang, allowed)
            assert not bad, f"{story_id} --lang {lang}, seed {seed}, after {ids}: {bad[:3]}"
        for ev in ev_src:
            bad = foreign(ev, source.language, allowed)
            assert not bad, (
                f"{story_id} --lang {source.language}, seed {seed}, after {ids}: {bad[:3]}"
            )


@pytest.mark.parametrize(("story_id", "lang"), PAIRS)
def test_the_play_tests_games_are_in_one_language_too(story_id: str, lang: str) -> None:
    """The walks rarely win (a bomb explodes long before it is defused): the play-tests'
    games, played by action id over --jsonl, reach the other endings; they must be in one
    language as well."""
    from runner.engine import new_game, resolve, step

    source = load(shipped_path(story_id))
    tr = T.apply(source, lang)
    allowed = allowed_names(tr)
    endings = set()
    for f in playtest_files(source.path):
        for case in load_cases(f):
            if case.skip or case.lang or case.dice or any(c.dice for c in case.commands):
                continue
            state, _ = new_game(source, case.seed)
            ids = []
            for cmd in case.commands:
                found = (
                    None
                    if cmd.text.startswith(("!", "@"))
                    else resolve(source, state, cmd.text).choice
                )
                ids.append(found.id if found is not None else cmd.text)
                state, _ = step(source, state, cmd.text)
            ev_tr, ev_src = replay(tr, case.seed, ids), replay(source, case.seed, ids)
            assert ending_of(ev_tr) == ending_of(ev_src), case.name
            endings.add(ending_of(ev_tr))
            for evs, lg in ((ev_tr, lang), (ev_src, source.language)):
                for ev in evs:
                    bad = foreign(ev, lg, allowed)
                    assert not bad, f"{story_id} --lang {lg}, case {case.name!r}: {bad[:3]}"
    assert len(endings - {None}) >= 1


def test_every_translation_of_a_shipped_story_is_complete_and_fresh() -> None:
    for story_id, lang in PAIRS:
        story = load(shipped_path(story_id))
        diags = T.check(story, lang)
        assert diags == [], [str(d) for d in diags[:5]]
