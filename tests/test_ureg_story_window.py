"""The window room (stories/ureg_window_room) on the UREG hooks, with the seed's figures:
a 5 m window, a 3 m ladder, a 1 m wooden box; an adult reaches 2 m, 〈×低身長〉 50 cm less."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest

from runner.engine import available, new_game, step
from runner.story import load

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def story():
    return load(ROOT / "stories" / "ureg_window_room")


def play(story, *commands):
    st, ev = new_game(story, 1)
    seen = []
    for c in commands:
        st, ev = step(story, st, c)
        seen += [e["text"] for e in ev if e["type"] == "narration"]
    return st, seen


def test_the_story_uses_the_ureg_rules_and_catalogue_items(story):
    assert story.rules == "ureg"
    assert any("cc-by UREGベーシック Yasuda Lin" in c for c in story.credits)
    from runner.rules.ureg import access as A

    # Heights come from the catalogue by name, in metres.
    assert A.item_props(story, "ladder")["platform"][0]["height"] == "3"
    assert A.item_props(story, "box")["platform"][0]["height"] == "1"
    first = [c.id for c in available(story, new_game(story)[0])]
    assert first[:2] == ["inspiration", "littleness"]


def test_ordinary_escapes_with_the_ladder_alone_exactly(story):
    st, seen = play(story, "inspiration", "look around", "take ladder", "lean ladder", "climb")
    assert "梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m" in seen  # equality reaches (UA-13)
    assert st.ending == "escaped"
    assert st.stats["pc"]["status"] == "escaped" and st.rules["ureg"]["outcome"] == "full_victory"


def test_short_fails_with_the_ladder_alone(story):
    st, seen = play(story, "littleness", "look around", "take ladder", "lean ladder", "climb")
    assert "梯子 3 m + 手の届く高さ（×低身長） 1.5 m = 4.5 m < 5 m" in seen
    assert st.ending is None


def test_short_escapes_with_the_box_under_the_ladder(story):
    st, seen = play(
        story, "littleness", "look around", "take ladder", "push box", "ladder on box", "climb"
    )
    assert "木箱 1 m + 梯子 3 m + 手の届く高さ（×低身長） 1.5 m = 5.5 m ≥ 5 m" in seen
    assert st.ending == "escaped"


@pytest.mark.parametrize("who,ok", [("inspiration", True), ("littleness", False)])
def test_free_proposal_with_the_ladder_alone(story, who, ok):
    st, seen = play(story, who, "look around", "take ladder", "梯子を窓に立て掛けて登る")
    assert (st.ending == "escaped") is ok


def test_free_proposal_short_with_box_and_ladder(story):
    st, seen = play(story, "littleness", "look around", "take ladder", "木箱に梯子を載せて窓へ登る")
    assert st.ending == "escaped" and any("5.5 m ≥ 5 m" in t for t in seen)


def _reachable_endings(story, first: str, banned: set[str]) -> set[str]:
    """Every ending reachable through the offered actions, never using ``banned``."""
    st, _ = new_game(story, 1)
    st, _ = step(story, st, first)

    def key(s):
        return (
            s.node,
            tuple(sorted(s.vars.items())),
            tuple(sorted(s.inventory.items())),
            tuple(sorted(s.done)),
            repr(s.rules),
        )

    seen = {key(st)}
    todo = deque([st])
    endings: set[str] = set()
    while todo:
        s = todo.popleft()
        for c in available(story, s):
            if c.id in banned or c.id == "give_up":
                continue
            n, _ = step(story, s, c.id)
            if n.ending:
                endings.add(n.ending)
                continue
            k = key(n)
            if k not in seen:
                seen.add(k)
                todo.append(n)
    assert len(seen) > 5  # the search did explore the room
    return endings


def test_short_cannot_escape_without_the_box_by_any_route(story):
    assert _reachable_endings(story, "littleness", {"push_box"}) == set()
    assert _reachable_endings(story, "littleness", set()) == {"escaped"}
    assert _reachable_endings(story, "inspiration", {"push_box"}) == {"escaped"}


def test_short_cannot_escape_by_jumping_or_reaching(story):
    for cmd in ("jump", "手を伸ばす", "跳んで窓に触る", "助走をつけて窓へジャンプする"):
        st, seen = play(story, "littleness", "look around", cmd)
        assert st.ending is None, cmd


def test_the_sample_play_in_the_players_own_words(story):
    # The source's example of play, the player's lines typed as they stand: look around for
    # another exit (the box and the 3 m ladder turn up), take the ladder, lean it under the
    # window and reach: 〈×平凡〉's hands just reach the 5 m window.
    st, seen = play(
        story,
        "inspiration",
        "辺りを見渡して他に出口がないか調べます。",
        "「梯子」を持つことはできますか？",
    )
    assert st.vars["looked"] is True and st.inventory == {"ladder": 1}
    assert any("「木箱」と三メートルの「梯子」" in t for t in seen)
    st, seen = play(
        story,
        "inspiration",
        "辺りを見渡して他に出口がないか調べます。",
        "「梯子」を持つことはできますか？",
        "その「梯子」を窓の下に立て掛けて、両手を伸ばせば窓を開けて出られますか？",
    )
    assert "梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m。届いた！" in seen
    assert st.ending == "escaped" and st.rules["ureg"]["outcome"] == "full_victory"


def test_looking_around_is_not_read_as_crossing_something():
    from hook_context import WINDOW_ROOM, ureg_context

    from runner.rules.ureg.breakthrough import parse

    ctx = ureg_context(WINDOW_ROOM)
    assert "cross" not in parse(ctx, "辺りを見渡す").intents
    assert "cross" in parse(ctx, "梯子を渡して越える").intents
