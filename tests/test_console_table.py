"""Console defects found at a real table (issue #13, the console half): what players type
that the console also knows (戻る, back, g), and the guards that keep each kind out."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from conftest import piped, played, tui, unescape

from runner.engine import available, match
from runner.engine.match import normalise, strip_note
from runner.stories import shipped
from runner.story import load
from runner.ui.console import Repl
from runner.ui.i18n import META

ROOT = Path(__file__).resolve().parent.parent
STORIES = {p.name if p.is_dir() else p.stem: load(p) for p in shipped()}


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _plain(story, lines: list[str], **kw) -> tuple[Repl, str]:
    return played(story, lines, history=False, **kw)


def _repl(story, cols: int = 100, **kw) -> tuple[Repl, io.StringIO]:
    repl, out = piped(story, cols=cols, history=False, new=True, **kw)
    repl.begin()
    return repl, out


# -- 1. 戻る / back: the story's way back, never an undo -----------------------------------------

ROOMS = """story: {id: rooms, title: Rooms, language: ja, rules: none, start: hall}
nodes:
  hall:
    narration: [広間。]
    actions:
      - {id: go_study, label: 書斎へ, goto: study}
      - {id: go_yard, label: 中庭へ, goto: yard}
  study:
    narration: [書斎。]
    actions:
      - {id: read, label: 本を見る, say: 古い本。}
      - {id: to_hall, label: 広間に戻る, goto: hall}
  yard:
    narration: [中庭。]
    actions:
      - {id: to_hall2, label: 広間に戻る, goto: hall}
      - {id: to_study, label: 書斎へ戻る, goto: study}
      - {id: out, label: 外へ出る, end: e}
endings: {e: {kind: good}}
"""


@pytest.fixture()
def rooms(tmp_path: Path):
    p = tmp_path / "rooms.yaml"
    p.write_text(ROOMS, encoding="utf-8")
    return load(p)


def test_modoru_plays_the_one_way_back_by_a_part_of_its_label(home: Path, rooms) -> None:
    for word in ["戻る", "もどる", "back", "ＢＡＣＫ"]:
        repl, out = _plain(rooms, ["書斎へ", word], seed=1, new=True)
        assert "手戻しました" not in out and "undid" not in out.casefold()
        assert [e.command for e in repl.tl.commands] == ["書斎へ", "to_hall"], word
        assert repl.state.node == "hall" and "▶ 広間に戻る" in out


def test_modoru_asks_which_way_back_when_there_are_two(home: Path, rooms) -> None:
    repl, out = _plain(rooms, ["中庭へ", "戻る"], seed=1, new=True)
    assert [e.command for e in repl.tl.commands] == ["中庭へ"]
    assert "どれのことですか？（番号で選べます）" in out
    assert (
        "1. 広間に戻る" in out.split("どれのことですか")[1]
        and "2. 書斎へ戻る" in out.split("どれのことですか")[1]
    )
    assert "外へ出る" not in out.split("どれのことですか")[1]


def test_back_without_a_way_back_says_how_to_undo(home: Path) -> None:
    repl, out = _plain(STORIES["deep_sea_atelier"], ["1", "戻る"], seed=4, new=True)
    assert [e.command for e in repl.tl.commands] == ["1"]  # not undone
    assert "いま戻れる行動はありません。手を戻すなら「undo」か「一手戻す」です。" in out
    repl, out = _plain(
        STORIES["deep_sea_atelier"], ["1", "back", "一手戻す"], seed=4, new=True, lang="en"
    )
    assert "There is no way back from here now. To take back a move, type undo." in out
    assert repl.tl.pos == 0  # 一手戻す is the undo


SHARED = {
    # A word the console knows that shipped stories' labels use too, and what it does when no
    # action is called exactly that: "story" (the story's action; else a hint, never the meta
    # command), or the meta command's name when that only shows something or is its meaning.
    "戻る": "story",
    "もどる": "story",
    "back": "story",
    "return": "story",
    "見る": "look",
    "みる": "look",
    "見回す": "look",
    "look": "look",
    "l": "look",
    "もう一度": "again",
    "ダイス": "roll",
    "声": "voice",
    "やめる": "quit",
}
GO_BACK_WORDS = ("戻る", "もどる", "back", "go back", "return")
CHANGES_THE_GAME = {"undo", "redo", "restart", "load"}


def test_every_meta_word_a_story_label_uses_is_in_the_reviewed_table() -> None:
    """A new meta word (or a new story) that collides with what players type as story
    actions must be looked at: added to SHARED with what it does."""
    labels = {
        x
        for s in STORIES.values()
        for n in s.nodes.values()
        for a in n.actions
        for x in (strip_note(a.label), *a.aliases)
    }
    words = {w for name, (ja, en, _, _) in META.items() for w in (*ja, *en)}
    found = set()
    for w in words:
        nw = normalise(w)
        if not nw:
            continue
        for label in labels:
            if (w.isascii() and w.casefold() in re.split(r"\W+", label.casefold())) or (
                not w.isascii() and nw in normalise(label)
            ):
                found.add(w)
    assert found <= set(SHARED), sorted(found - set(SHARED))
    for w, does in SHARED.items():
        assert does not in CHANGES_THE_GAME, w


@pytest.mark.parametrize("word", sorted(SHARED))
def test_each_shared_word_does_what_the_table_says(home: Path, word: str) -> None:
    story = STORIES["deep_sea_atelier"]
    repl, out = _repl(story, seed=4)
    for c in ["1", "1"]:
        repl.handle(c)
    before = repl.tl.pos
    called = []
    for name in set(SHARED.values()) | CHANGES_THE_GAME:
        if name != "story" and hasattr(repl, f"cmd_{name}"):
            setattr(repl, f"cmd_{name}", lambda args, name=name: called.append(name))
    repl.repeat_last = lambda: called.append("again") or True
    repl.handle(word)
    want = SHARED[word]
    if want == "story":
        assert called == [] and repl.tl.pos >= before
    elif want == "voice":
        assert called == [] and "読み上げは動いていません" in out.getvalue()  # no narrator here
    else:
        assert called == [want]


@pytest.mark.parametrize("name", sorted(STORIES))
def test_go_back_words_never_undo_in_random_games(home: Path, name: str) -> None:
    """Property: in random games of every story, 戻る/back/もどる either play one of the
    actions offered (a move forward in the log) or change nothing; never an undo."""
    story = STORIES[name]
    rnd = random.Random(13)
    for game in range(6):
        repl, _ = _repl(story, seed=game)
        for _ in range(25):
            if repl.state.ending is not None:
                break
            word = rnd.choice(GO_BACK_WORDS)  # (what players type to go back)
            pos, offered = repl.tl.pos, {c.id for c in repl.choices()}
            repl.handle(word)
            assert repl.tl.pos in (pos, pos + 1), (name, word)
            if repl.tl.pos == pos + 1:
                chose = match(story, repl.tl.states[pos], repl.tl.commands[-1].command)
                assert chose is not None and chose.id in offered
            choices = [c for c in available(story, repl.state) if c.n]
            if not choices:
                break
            repl.handle(str(rnd.choice(choices).n))


# -- 2. g repeats the action, not the typed text ------------------------------------------------


def test_g_repeats_the_same_action_and_says_when_it_is_gone(home: Path) -> None:
    story = STORIES["deep_sea_atelier"]
    repl, out = _plain(story, ["4", "2", "1", "g", "g", "g", "g"], seed=9, new=True, lang="en")
    log = [e.command for e in repl.tl.commands]
    assert log[:3] == ["4", "2", "1"]
    search = match(story, repl.tl.states[2], "1").id
    assert all(c == search for c in log[3:]), log  # the Luck search again, never 照明を消す
    assert repl.state.vars.get("light") is False  # found, never switched on nor off by g
    assert "cannot be done now (g repeats the same action as last time)" in out


# -- 3. help lists only what the story's rule system offers ------------------------------------


def _roll_examples(line: str) -> list[str]:
    inner = (
        line[line.index("（") + 1 : line.rindex("）")]
        if "（" in line
        else line[line.index("(") + 1 : line.rindex(")")]
    )
    inner = re.sub(r"（[^）]*）|\([^)]*\)", "", inner)
    out = []
    for part in re.split(r"[、,]\s*", inner):
        part = part.replace("など", "").replace("...", "").strip()
        if part:
            out.append(part.removeprefix("roll ").strip())
    return out


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name", sorted(STORIES))
def test_help_lists_only_what_the_rules_offer_and_each_example_works(
    home: Path, name: str, lang: str
) -> None:
    from runner.rules import system

    story = STORIES[name]
    rs = system(story.rules)
    repl, out = _repl(story, seed=3, lang=lang)
    repl.handle("1")  # past a character choice, where a story has one
    out.truncate(0)
    out.seek(0)
    repl.handle("help")
    text = out.getvalue()
    lines = text.splitlines()
    assert any("sheet" in ln for ln in lines) == (rs.sheet is not None), text
    roll_line = repl.meta_help("roll")
    assert re.sub(r"\s", "", roll_line) in re.sub(r"\s", "", text)  # (wrapped on the screen)
    examples = _roll_examples(roll_line)
    assert "1d100" in examples and "目星" not in examples
    assert (len(examples) > 5) == (rs.sheet is not None and rs.skills is not None), examples
    for ex in examples:  # every example in help rolls here
        out.truncate(0)
        out.seek(0)
        repl.handle(f"roll {ex}")
        said = out.getvalue()
        assert "振れません" not in said and "Cannot roll" not in said and said.strip(), (ex, said)
    if rs.sheet is not None:
        out.truncate(0)
        out.seek(0)
        repl.handle("sheet")
        assert (
            "no character sheet" not in out.getvalue()
            and "シートがありません" not in out.getvalue()
        )


# -- 5. usage lines read as what one types ------------------------------------------------------


def test_gm_usage_lines_keep_their_spaces_at_80_columns(home: Path) -> None:
    repl, out = _repl(STORIES["deep_sea_atelier"], cols=80, seed=1, gm=True)
    repl.handle("1")
    for c in ["ダメージ", "強制", "変数", "与える"]:
        repl.handle(c)
    flat = out.getvalue().replace("\n", "")
    for typed in ["ダメージ 三浦 1d3", "強制 成功", "変数 天井の照明 はい", "与える 鍵"]:
        assert typed in flat, typed


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_interface_message_keeps_its_spaces(lang: str) -> None:
    """Property over the whole message table: what the console says (a hint, an error, a
    usage line) is shown with each of its spaces, however wide the letters around them."""
    from runner.ui.i18n import _TEXT
    from runner.ui.render import Renderer

    r = Renderer(STORIES["deep_sea_atelier"], lang=lang, cols=10_000)
    for key, text in _TEXT[lang].items():
        if "\n" in text or not text.strip():
            continue
        shown = "\n".join("".join(f[1] for f in ln) for ln in r.text(text))
        assert shown == text.rstrip(), key
        if (
            key.startswith("err_") and "{" not in text
        ):  # (an engine error's words, as the console shows them)
            shown = "\n".join(r.error_lines({"type": "error", "code": key[4:], "message": ""}, ""))
            assert shown == text.rstrip(), key


# -- 6. transcript into a folder that is not there ---------------------------------------------


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_transcript_refuses_a_missing_folder_in_one_line(
    home: Path, tmp_path: Path, lang: str
) -> None:
    target = tmp_path / "nonexistent" / "dir" / "x.md"
    repl, out = _repl(STORIES["ureg_window_room"], cols=1000, seed=1, lang=lang)
    out.truncate(0)
    out.seek(0)
    repl.handle(f"transcript {target}")
    said = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    assert not (tmp_path / "nonexistent").exists()
    assert repl.transcript_path is None
    want = "がないので、記録しません" if lang == "ja" else "does not exist: not recording"
    assert len(said) == 1 and want in said[0] and str(target.parent) in said[0], said
    repl.handle("1")
    assert not (tmp_path / "nonexistent").exists()
    # a folder that is there is written to, as before
    repl.handle(f"transcript {tmp_path / 'x.md'}")
    assert (tmp_path / "x.md").is_file()


# -- 8. a word two listed labels hold equally asks which ---------------------------------------

TIES = [
    # (story, commands to get there, typed, the actions it must ask between (ids) or the one it picks)
    ("deep_sea_atelier", "bookshelf+glasses", "背表紙", {"spines_glasses", "way_spines"}),
    ("deep_sea_atelier", "bookshelf+glasses", "眼鏡越しに背表紙を読む", "spines_glasses"),
    ("deep_sea_atelier", "bookshelf+glasses", "背表紙から探す", "way_spines"),
    ("deep_sea_atelier", "bookshelf+glasses", "way3", "way_spines"),
    ("deep_sea_atelier", "bookshelf+glasses", "spines_glasses", "spines_glasses"),
]


def _bookshelf_with_glasses(story):
    from runner.engine import new_game

    st, _ = new_game(story, 1)
    st.vars.update(light=True, glasses_on=True)
    st.node = "bookshelf"
    return st


@pytest.mark.parametrize("sid,where,typed,want", TIES)
def test_a_word_two_listed_labels_hold_asks_which(sid: str, where: str, typed: str, want) -> None:
    from runner.engine import resolve

    story = STORIES[sid]
    st = _bookshelf_with_glasses(story)
    got = resolve(story, st, typed)
    if isinstance(want, str):
        assert got.choice is not None and got.choice.id == want, got
    elif want is None:
        assert got.choice is None and len(got.candidates) >= 2
    else:
        assert got.choice is None and {c.id for c in got.candidates} == want, got


@pytest.mark.parametrize("name", sorted(STORIES))
def test_no_alias_outranks_another_listed_label_holding_it(name: str) -> None:
    """Property over random games of every story: when a typed alias of one listed action is
    also in another listed action's label, the player is asked; never one of them silently."""
    from runner.engine import new_game, resolve, step

    story = STORIES[name]
    rnd = random.Random(8)
    for seed in range(5):
        st, _ = new_game(story, seed)
        for _ in range(40):
            if st.ending is not None:
                break
            listed = [c for c in available(story, st) if c.n]
            if not listed:
                break
            for c in listed:
                for alias in c.aliases:
                    others = [
                        o
                        for o in listed
                        if o is not c
                        and normalise(str(alias)) in normalise(strip_note(o.label))
                        and normalise(str(alias))
                    ]
                    if not others or normalise(str(alias)) in (normalise(c.label), normalise(c.id)):
                        continue
                    got = resolve(story, st, str(alias))
                    if got.choice is not None and normalise(str(alias)) in {
                        normalise(str(x)) for x in (got.choice.label, got.choice.id)
                    }:
                        continue
                    assert (
                        got.choice is None
                        and c in got.candidates
                        and all(o in got.candidates for o in others)
                    ), (name, alias, c.label, [o.label for o in others])
            st, _ = step(story, st, rnd.choice(listed))


# -- 10. the GM takes what is carried, by name, reading or alias ---------------------------------

TAKE = [  # typed after 取り上げる / gm take, with the phone and the lighter carried
    ("スマホ", "phone"),
    ("phone", "phone"),
    ("スマートフォン", "phone"),
    ("スマート", "phone"),
    ("ライター", "lighter"),
    ("lighter", "lighter"),
]


def _gm_with(story, lang: str = "ja"):
    repl, out = _repl(story, cols=200, seed=1, gm=True, lang=lang)
    repl.gm_panel = lambda *a, **k: []
    for c in ["1", "take_phone", "take_lighter"]:
        repl.handle(c)
    assert set(repl.state.inventory) == {"phone", "lighter"}
    out.truncate(0)
    out.seek(0)
    return repl, out


@pytest.mark.parametrize("typed,item", TAKE)
def test_gm_take_finds_a_carried_item_by_name_reading_or_alias(
    home: Path, typed: str, item: str
) -> None:
    repl, out = _gm_with(STORIES["deep_sea_atelier"])
    repl.handle(f"取り上げる {typed}")
    assert item not in repl.state.inventory and len(repl.state.inventory) == 1, out.getvalue()
    assert "を取り上げました" in out.getvalue()


def test_gm_take_lists_only_what_is_carried(home: Path) -> None:
    story = STORIES["deep_sea_atelier"]
    repl, out = _gm_with(story)
    repl.handle("取り上げる ほげ")
    said = out.getvalue()
    assert "候補：スマートフォン、ライター" in said, said
    for k, it in story.items.items():
        if k not in repl.state.inventory:
            assert it.name not in said.split("候補：")[1], it.name
    out.truncate(0)
    out.seek(0)
    repl.handle("取り上げる 警察の銃")  # an item of the story, not carried: said so
    assert repl.state.inventory.keys() == {"phone", "lighter"}
    assert "見つかりません" not in out.getvalue() and out.getvalue().strip()


# -- 7. saves at 80 columns ---------------------------------------------------------------------


def test_saves_columns_line_up_at_80_columns_and_reasons_are_indented(home: Path) -> None:
    from runner.ui import files
    from runner.ui.render import width

    story = STORIES["ureg_window_room"]
    repl, out = _repl(story, cols=80, seed=1)
    repl.handle("1")
    for name in ["quick", "backup-20261201-1524-2", "梯子の前"]:
        repl.handle(f"save {name}")
    folder = files.slot_path(story.id, "quick").parent
    (folder / "backup-20261201-1524-3.json").write_text("[" * 300 + "]" * 300, encoding="utf-8")
    (folder / "x.json").write_text('{"format": 99}', encoding="utf-8")
    out.truncate(0)
    out.seek(0)
    repl.handle("saves")
    rows = [ln for ln in out.getvalue().splitlines() if ln.strip()][1:]
    assert all(width(r) <= 80 for r in rows), rows
    assert all(r.startswith("  ") for r in rows), (
        rows
    )  # every row indented, a reason's second line too
    dated = [r for r in rows if re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", r)]
    assert len(dated) >= 3
    starts = {width(r[: re.search(r"\d{4}-\d\d-\d\d", r).start()]) for r in dated}
    assert len(starts) == 1, rows  # the dates in one column, whatever the name's length
    broken = [i for i, r in enumerate(rows) if "backup-20261201-1524-3" in r][0]
    reason_col = width(rows[broken]) - width(rows[broken].split("json", 1)[1].lstrip())
    assert rows[broken + 1].startswith(" " * reason_col) and not rows[broken + 1].startswith(
        " " * (reason_col + 1)
    ), rows
    assert reason_col == next(iter(starts)), rows  # the reason in the dates' column


# -- 4. the manual-dice prompt ------------------------------------------------------------------

START = ["1", "スマホ", "目を覚ます"]


def _tui(story, keys: str, **kw) -> tuple[Repl, str]:
    repl, screen = tui(story, keys, rows=24, cols=80, new=True, **kw)
    return repl, unescape(screen)


@pytest.mark.skipif(__import__("shutil").which("tmux") is None, reason="tmux is not installed")
def test_the_dice_prompt_keeps_the_status_bar_at_80x24_gm(tmp_path: Path) -> None:
    """In tmux at 80x24, ``--gm --dice manual``: while the dice prompt waits, the status bar
    (and the GM's folded panel) stays at the bottom; status typed there shows, and it waits on."""
    from test_gm_screen import Screen

    scr = Screen(80, 24, tmp_path / "home")
    try:
        for k in START:
            scr.wait(lambda s: s.rstrip().splitlines()[-2:] and "▶" in s)
            scr.send(k, "Enter")
        scr.wait(lambda s: "手探りで電気のスイッチを探す" in s)
        scr.send("2", "Enter")
        screen = scr.wait(lambda s: "🎲 幸運 50 に 1d100" in s)
        rows = screen.rstrip("\n").splitlines()
        assert len(rows) == 24 and "幸運 50" in rows[-1] and "HP" in rows[-1], (
            screen
        )  # the bar, at the bottom
        scr.send("status", "Enter")
        screen = scr.wait(lambda s: "手番:" in s)
        assert "🎲 幸運 50 に 1d100" in screen.splitlines()[-2] or "🎲" in "".join(
            screen.splitlines()[-4:]
        ), screen
        scr.send("47", "Enter")
        screen = scr.wait(lambda s: "→ 47" in s)
        assert "[40] [7] → 47" in screen
    finally:
        scr.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_dice_prompt_answers_help_status_and_bad_faces_and_keeps_waiting(
    home: Path, lang: str
) -> None:
    story = STORIES["deep_sea_atelier"]
    repl, out = _plain(
        story,
        [*START, "2", "abc", "help", "status", "/status", "47"],
        seed=1,
        new=True,
        lang=lang,
        manual=True,
    )
    assert repl.tl.commands[-1].command == "2" and repl.tl.commands[-1].dice == [4, 7]
    if lang == "ja":
        assert "出目を読めません：「abc」（例：47）" in out
        assert "振ったダイスの出目を数で入力してください（例：47）" in out
        assert out.count("状態：") == 2
    else:
        assert "Cannot read the faces “abc” (e.g. 47)" in out
        assert "Type the faces the dice showed, as numbers (e.g. 47)" in out
    assert "'abc'" not in out and "3 5" not in out
    # A 1d3 asks for a face a d3 has
    repl, out = _plain(story, [*START, "2", "00", "x"], seed=1, new=True, manual=True)
    assert "出目を読めません：「x」（例：2）" in out


# -- 9. the action list after a turn that left it as it was (the screen-reader console) ----------


def _sr(story, **kw) -> tuple[Repl, io.StringIO]:
    from runner.ui.screen_reader import ScreenReaderIO

    out = io.StringIO()
    repl = Repl(story, io=ScreenReaderIO(io.StringIO(""), out), history=False, new=True, **kw)
    repl.gm_panel = lambda *a, **k: []
    repl.begin()
    return repl, out


def test_the_list_is_said_after_a_dying_con_roll_that_holds(home: Path) -> None:
    repl, out = _sr(STORIES["deep_sea_atelier"], seed=5, gm=True)
    for c in ["1", "スマホ", "目を覚ます", "1", "1", "ダメージ 6", "ダメージ 6"]:
        repl.handle(c)
    assert [c.label for c in repl.choices() if c.n] == ["瀕死：体力（CON）ロールで命をつなぐ"]
    out.truncate(0)
    out.seek(0)
    repl.handle("1")
    said = out.getvalue()
    assert "まだ持ちこたえている" in said
    assert "選択肢は同じ：1. 瀕死：体力（CON）ロールで命をつなぐ" in said


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("name", sorted(STORIES))
def test_every_turn_that_ran_says_what_can_be_done(home: Path, name: str, lang: str) -> None:
    """Property over random games in the screen-reader console: after every turn that ran,
    the list (or, when it is the one said last, that it is the same) or the ending is said."""
    story = STORIES[name]
    rnd = random.Random(9)
    for seed in range(3):
        repl, out = _sr(story, seed=seed, lang=lang)
        for _ in range(30):
            if repl.state.ending is not None:
                break
            listed = [c for c in repl.choices() if c.n]
            if not listed:
                break
            out.truncate(0)
            out.seek(0)
            before = repl.tl.pos
            repl.handle(str(rnd.choice(listed).n))
            said = out.getvalue()
            if repl.tl.pos == before or repl.state.ending is not None:
                continue
            assert re.search(
                r"選択肢（\d+）：|選択肢は同じ|Choices \(\d+\):|Same choices|The choices are the same",
                said,
            ), said
