"""The status bar at 80 and 120 columns: the place, the clock, the time left, the real-time
countdown and the turn always show; the other fields yield, the least important first, when
the bar is too narrow: the story's variables, then the rule system's fields (cards,
abilities, gauges, conditions), each from the last. (The UREG stories' cards field pushed 手番
off an 80-column bar.)

A property over random games of every shipped story, in every language it is played in, with
and without --gm: each state a player sees, rendered as the console renders its bar."""

from __future__ import annotations

import random

import pytest

from runner.rules import system
from runner.stories import shipped
from runner.story import load
from runner.story import translate as T
from runner.ui import jsonl as J
from runner.ui.i18n import t
from runner.ui.render import STATUS_KEEP, status_fields, time_text, toolbar, width

GAMES = 6
MAX_TURNS = 60


def editions() -> list[tuple[str, str]]:
    out = []
    for path in shipped():
        story = load(path)
        for lang in [story.language, *T.languages(story)]:
            if (path.name, lang) not in out:
                out.append((path.name, lang))
    return out


def player_states(story, seed: int) -> list[dict]:
    """The state events of a random game over --jsonl (what a player's bar is drawn from)."""
    rng = random.Random(seed)
    events: list[dict] = []

    def lines():
        for _ in range(MAX_TURNS):
            prompt = next((e for e in reversed(events) if e["type"] in ("prompt", "ending")), None)
            if prompt is None or prompt["type"] == "ending" or not prompt.get("actions"):
                return
            yield rng.choice(prompt["actions"])["id"]

    for ev in J.turns(story, lines(), seed=seed):
        events.append(ev)
    return [e for e in events if e["type"] == "state"]


def console_bar(story, ev: dict, lang: str, cols: int, gm: bool) -> tuple[str, list, dict]:
    """The bar as the console draws it: a real-time story's countdown live beside the place
    (its state fields left out), the GM mark with --gm. Returns the text, the extra pairs and
    the event the bar was drawn from."""
    extra: list[tuple[str, str]] = []
    spec = system(story.rules).realtime
    if spec is not None and spec.limit(story) is not None:
        extra = [(t("real_left", lang), "59:59")]
        ev = dict(ev)
        for path in spec.live:
            node = ev
            for key in path[:-1]:
                node[key] = dict(node.get(key) or {})
                node = node[key]
            node.pop(path[-1], None)
    bar = "".join(x for _, x in toolbar(ev, story, lang, cols=cols, gm=gm, extra=extra))
    return bar, extra, ev


@pytest.mark.parametrize(("story_id", "lang"), editions())
def test_the_bar_keeps_place_clock_and_turn_and_yields_the_least_important(
    story_id: str, lang: str
) -> None:
    path = next(p for p in shipped() if p.name == story_id)
    story = load(path)
    if lang != story.language:
        story = T.apply(story, lang)
    keep = {t(k, lang) for k in STATUS_KEEP}
    seen = 0
    for seed in range(GAMES):
        for ev in player_states(story, seed):
            for cols in (80, 120):
                for gm in (False, True):
                    bar, extra, drawn = console_bar(story, ev, lang, cols, gm)
                    where = f"{story_id} --lang {lang} seed {seed} turn {ev['turn']} {cols} cols"
                    assert width(bar) <= cols - 1, (where, bar)
                    assert f"{t('turn', lang)} {ev['turn']}" in bar, (where, bar)
                    assert bar.startswith(
                        f" GM │ {t('place', lang)} " if gm else f" {t('place', lang)} "
                    )
                    if ev.get("time"):
                        assert f"{t('time', lang)} {time_text(ev['time'], lang)}" in bar, (
                            where,
                            bar,
                        )
                    for label, value in extra:
                        assert f"{label} {value}" in bar, (where, bar)
                    items = status_fields(drawn, story, lang, short=True)
                    for label, value, _ in items[1:]:
                        if label in keep:
                            assert f"{label} {value}" in bar, (where, bar)
                    # the rest by importance (rank, then order): none shown after one that yielded
                    rest = sorted(
                        (rank, i, f"{label} {value}")
                        for i, (label, value, rank) in enumerate(items[1:])
                        if label not in keep
                    )
                    shown = [c in bar.split(" │ ") for _, _, c in rest]
                    assert shown == sorted(shown, reverse=True), (where, bar, rest)
                    if cols == 120 and shown and not shown[0]:
                        pytest.fail(f"{where}: the most important field yielded at 120: {bar}")
                    seen += 1
    assert seen > 0
