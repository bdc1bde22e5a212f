"""UREG's reading of free words (#13 item 7): a table of what players type in the shipped
escape rooms and how each must be read: a story action, a look (words only, no turn, no
"cannot get through"), a breakthrough attempt with everything named in it, or "not understood".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.engine import new_game, step
from runner.story import load

ROOT = Path(__file__).resolve().parent.parent
TO_GALLERY = ["inspiration", "go_greenhouse", "take_box", "back_hall", "stairs_box", "go_up"]
NO_WAY = "突破できそうにない"


def action(aid: str) -> dict:
    """The story's own action ran."""
    return {"action": aid}


def look(text: str) -> dict:
    """Words only: the text is said, the state (and the turn) stays."""
    return {"look": text}


def attempt(text: str) -> dict:
    """A turn of the rules' reading, saying ``text``."""
    return {"turn": text}


TABLE = [
    # story, commands before, typed, reading
    ("ureg_window_room", ["1"], "窓を調べる", look("「窓」：床から 5 m の高さにある")),
    ("ureg_window_room", ["1"], "x 窓", look("「窓」：床から 5 m の高さにある")),
    # The box has not been seen yet: no proposal may use it, or even name it (#13 item 25: the
    # word is read as unknown, so the window is tried bare-handed, as for 「ほげに乗る」).
    ("ureg_window_room", ["1"], "木箱に乗る", attempt("「窓」：手の届く高さ 2 m = 2 m < 5 m")),
    (
        "ureg_window_room",
        ["1", "look_around"],
        "木箱に乗る",
        attempt("木箱 1 m + 手の届く高さ 2 m = 3 m < 5 m"),
    ),
    ("ureg_window_room", ["1", "look_around"], "木箱を調べる", look("各辺が1mの頑丈な木の箱")),
    ("ureg_window_room", ["1", "look_around"], "x 木箱", look("各辺が1mの頑丈な木の箱")),
    # Everything named takes part: a ladder not in hand is said so, never silently dropped.
    (
        "ureg_window_room",
        ["1", "look_around"],
        "木箱に梯子を立てて登る",
        attempt("「梯子」は手元にない"),
    ),
    (
        "ureg_window_room",
        ["1", "look_around", "take_ladder"],
        "木箱に梯子を立てて登る",
        attempt("木箱 1 m + 梯子 3 m + 手の届く高さ 2 m = 6 m ≥ 5 m"),
    ),
    (
        "ureg_window_room",
        ["1", "look_around", "take_ladder"],
        "梯子を持つ",
        look("「梯子」はもう手元にある"),
    ),
    ("ureg_window_room", ["1", "look_around"], "梯子を取る", action("take_ladder")),
    ("ureg_window_room", ["1", "look_around"], "梯子を調べる", {"not_understood": True}),
    # The hall: a locked door and broken stairs. Words find what they are about.
    (
        "ureg_glass_greenhouse",
        ["dexterity", "open_drawer"],
        "針金で鍵を開ける",
        attempt("針金で物置の扉の鍵を開けた"),
    ),
    (
        "ureg_glass_greenhouse",
        ["dexterity", "open_drawer", "try_door"],
        "針金で鍵を開ける",
        action("pick_door"),
    ),
    # The wire is still in the closed drawer: an unknown word, and the door is simply locked.
    (
        "ureg_glass_greenhouse",
        ["strength"],
        "針金で鍵を開ける",
        attempt("物置の扉には鍵がかかっている"),
    ),
    (
        "ureg_glass_greenhouse",
        ["dexterity", "open_drawer", "try_door", "pick_door"],
        "針金で鍵を開ける",
        attempt("「針金」を何に使うのか、ここでは対象が見当たらない"),
    ),
    ("ureg_glass_greenhouse", ["strength"], "物置の扉を開ける", action("try_door")),
    ("ureg_glass_greenhouse", ["strength", "try_door"], "物置の扉を開ける", action("try_door")),
    ("ureg_glass_greenhouse", ["strength"], "扉を調べる", look("「物置の扉」：鍵がかかっている")),
    (
        "ureg_glass_greenhouse",
        ["strength"],
        "物置の扉を調べる",
        look("「物置の扉」：鍵がかかっている"),
    ),
    (
        "ureg_glass_greenhouse",
        ["strength"],
        "階段を調べる",
        look("「崩れた階段」：床から 2.5 m の高さにある"),
    ),
    ("ureg_glass_greenhouse", ["strength"], "時計を見る", action("look_clock")),
    # The gallery: the curtain is taken by the story's action; once in hand it is said so.
    ("ureg_glass_greenhouse", TO_GALLERY, "カーテンを外す", action("take_curtain")),
    ("ureg_glass_greenhouse", TO_GALLERY, "カーテンを取る", action("take_curtain")),
    (
        "ureg_glass_greenhouse",
        [*TO_GALLERY, "take_curtain"],
        "カーテンを外す",
        look("「カーテン」はもう手元にある"),
    ),
    ("ureg_glass_greenhouse", TO_GALLERY, "番人を調べる", look("「硝子の番人」")),
]


@pytest.fixture(scope="module")
def stories():
    return {
        sid: load(ROOT / "stories" / sid) for sid in ("ureg_window_room", "ureg_glass_greenhouse")
    }


@pytest.mark.parametrize(
    "sid,before,typed,reading", TABLE, ids=[f"{r[0][5:9]}-{r[2]}" for r in TABLE]
)
def test_ureg_free_words_are_read_as_the_table_says(stories, sid, before, typed, reading) -> None:
    story = stories[sid]
    st, _ = new_game(story, 1)
    for c in before:
        st, ev = step(story, st, c)
        assert not [e for e in ev if e["type"] == "error"], (c, ev)
    new, ev = step(story, st, typed)
    said = "".join(e["text"] for e in ev if e["type"] == "narration")
    errors = [e for e in ev if e["type"] == "error"]
    assert NO_WAY not in said, said
    if "action" in reading:
        key = f"{st.node}.{reading['action']}"
        assert new.done.get(key, 0) == st.done.get(key, 0) + 1, (said, errors)
    elif "look" in reading:
        assert reading["look"] in said, (said, errors)
        assert new is st  # words only: nothing changes, no turn
    elif "turn" in reading:
        assert reading["turn"] in said, (said, errors)
        assert new.turn == st.turn + 1 and not errors
    else:
        assert new is st and errors and errors[0]["code"] == "unknown_command", ev
