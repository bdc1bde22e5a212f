"""#18 the translation pipeline, through `katari strings`, `katari check --lang`, `katari play
--lang --jsonl` and `katari list`: PO keyed by line ids, import beside the story, stale lines
by source hash, fallback marked for a game master, per-language aliases, the console's own
language following the story."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import polib
import pytest

from runner.cli import main
from runner.story import load
from runner.story import translate as T
from runner.ui import jsonl as J

ROOT = Path(__file__).resolve().parents[1]
WINDOW = ROOT / "stories" / "ureg_window_room"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def story_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the window room without its shipped translations, to translate afresh."""
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KATARI_LANG", raising=False)
    d = tmp_path / "room"
    shutil.copytree(WINDOW, d, ignore=shutil.ignore_patterns("translations"))
    return d


def fill(
    po_path: Path, words: dict[str, str], *, default: bool = True, skip: tuple[str, ...] = ()
) -> None:
    """Translate a PO file as a translator would: ``words`` by id, every other string as
    ``EN<id>`` (when ``default``), the ids in ``skip`` left empty."""
    po = polib.pofile(str(po_path))
    for e in po:
        if e.msgctxt in skip:
            e.msgstr = ""
        elif e.msgctxt in words:
            e.msgstr = words[e.msgctxt]
        elif default and not e.msgstr:
            e.msgstr = f"EN<{e.msgctxt}>"
    po.save(str(po_path))


def play(story, commands: list[str], *, gm: bool = False, seed: int = 1) -> list[dict]:
    out = io.StringIO()
    J.play(story, commands, out, seed=seed, gm=gm)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def texts(events: list[dict]) -> list[str]:
    return [e["text"] for e in events if e["type"] == "narration"]


# -- export ---------------------------------------------------------------------


def test_export_po_keys_each_string_by_its_line_id_with_node_and_speaker(
    capsys, story_dir, tmp_path
) -> None:
    out = tmp_path / "en.po"
    rc, _, err = run(capsys, "strings", "export", str(story_dir), "--lang", "en", "-o", str(out))
    assert rc == 0, err
    assert "strings of ureg_window_room to translate into en" in err
    po = polib.pofile(str(out))
    assert po.metadata["Language"] == "en" and po.metadata["X-Katari-Source-Language"] == "ja"
    by = {e.msgctxt: e for e in po}
    opening = by["room.opening"]
    assert (
        opening.msgid.startswith("気がつくと、あなたは六メートル四方の部屋")
        and opening.msgstr == ""
    )
    assert "node: room" in opening.comment and "kind: narration" in opening.comment
    assert f"source-hash: {T.source_hash(opening.msgid)}" in opening.comment
    # labels, aliases, titles, item names, obstacle words, ending titles: all there
    assert by["room.take_ladder.label"].msgid == "梯子を持つ"
    assert "ladder" in by["room.take_ladder.aliases"].msgid.split(" | ")
    assert by["items.ladder.name"].msgid == "梯子"
    assert by["room.props.obstacles.window.hint"].msgid.startswith("「梯子」だ")
    assert by["end.escaped.title"].msgid == "脱出成功"
    assert by["characters.pc.name"].msgid == "あなた"
    # ids are unique
    assert len(by) == len(po)


def test_export_names_the_speaker_of_a_said_line(capsys, tmp_path) -> None:
    out = tmp_path / "en.po"
    rc, _, err = run(
        capsys, "strings", "export", "deep_sea_atelier", "--lang", "en", "-o", str(out)
    )
    assert rc == 0, err
    spoken = [e for e in polib.pofile(str(out)) if "speaker: " in e.comment]
    assert spoken, "deep-sea has lines said by characters"
    assert all(e.msgctxt and "node: " in e.comment for e in spoken)


def test_export_csv_has_the_same_ids_for_a_spreadsheet(capsys, story_dir, tmp_path) -> None:
    assert (
        run(
            capsys,
            "strings",
            "export",
            str(story_dir),
            "--lang",
            "en",
            "-o",
            str(tmp_path / "en.po"),
        )[0]
        == 0
    )
    assert (
        run(
            capsys,
            "strings",
            "export",
            str(story_dir),
            "--lang",
            "en",
            "-o",
            str(tmp_path / "en.csv"),
        )[0]
        == 0
    )
    rows = list(csv.DictReader((tmp_path / "en.csv").open(encoding="utf-8", newline="")))
    assert list(rows[0]) == list(T.CSV_FIELDS)
    assert rows[0]["id"] == "#language" and rows[0]["translation"] == "en"
    assert rows[1]["id"] == "#proper_names"
    assert [r["id"] for r in rows[2:]] == [e.msgctxt for e in polib.pofile(str(tmp_path / "en.po"))]


def test_export_refuses_a_bad_language_in_one_line(capsys, story_dir) -> None:
    rc, out, err = run(capsys, "strings", "export", str(story_dir), "--lang", "../../x")
    assert rc == 2 and err.count("\n") == 1 and "Traceback" not in err


# -- import, play, check --------------------------------------------------------


def translate_room(capsys, story_dir: Path, tmp_path: Path, fmt: str = "po", **kw) -> Path:
    out = tmp_path / f"en.{fmt}"
    assert (
        run(
            capsys,
            "strings",
            "export",
            str(story_dir),
            "--lang",
            "en",
            "-o",
            str(tmp_path / "en.po"),
        )[0]
        == 0
    )
    fill(
        tmp_path / "en.po",
        {
            "room.take_ladder.label": "Pick up the ladder",
            "room.take_ladder.aliases": "take the ladder | pick up the ladder | ladder",
            "choose.inspiration.aliases": "inspiration | 1",
            "room.look_around.aliases": "look around",
        },
        **kw,
    )
    if fmt == "csv":
        po = polib.pofile(str(tmp_path / "en.po"))
        with out.open("w", encoding="utf-8", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "source", "translation"])
            for e in po:
                w.writerow([e.msgctxt, e.msgid, e.msgstr])
    return out


@pytest.mark.parametrize("fmt", ["po", "csv"])
def test_import_writes_beside_the_story_and_the_story_plays_in_english(
    capsys, story_dir, tmp_path, fmt
) -> None:
    src = translate_room(capsys, story_dir, tmp_path, fmt)
    rc, out, err = run(capsys, "strings", "import", str(story_dir), str(src), "--lang", "en")
    assert rc == 0, err
    assert (story_dir / "translations" / "en.po").is_file()
    assert "0 missing, 0 stale" in out
    story = load(story_dir)
    en = T.apply(story, "en")
    assert en.language == "en" and en.translation.fallback == frozenset()
    evs = play(en, ["inspiration", "look around", "take the ladder"])
    assert "EN<room.opening>" in texts(evs)
    # an action's said lines too (say effects are overlaid, not only a node's narration)
    assert "EN<room.look_around.say.1>" in texts(evs) and "EN<room.take_ladder.say.1>" in texts(evs)
    prompt = [e for e in evs if e["type"] == "prompt"][-1]
    assert "EN<room.lean_ladder.label>" in [a["label"] for a in prompt["actions"]]
    state = [e for e in evs if e["type"] == "state"][-1]
    assert state["inventory"] == {"ladder": 1}
    # the Japanese words are the Japanese player's: an English game does not take them
    from runner.engine import new_game, step

    s, _ = new_game(en, 1)
    s, _ = step(en, s, "inspiration")
    s2, _ = step(en, s, "見渡す")
    assert s2.turn == s.turn, "a Japanese alias is not an English word"
    s3, _ = step(en, s, "look around")
    assert s3.vars["looked"] is True


def test_the_played_language_comes_from_lang_or_katari_lang_or_the_story(
    capsys, story_dir, tmp_path, monkeypatch
) -> None:
    src = translate_room(capsys, story_dir, tmp_path)
    assert run(capsys, "strings", "import", str(story_dir), str(src))[0] == 0

    def first_line(*extra: str) -> str:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
        rc, out, err = run(capsys, "play", str(story_dir), "--jsonl", "--seed", "1", *extra)
        assert rc == 0, err
        return json.loads(out.splitlines()[0])["text"]

    assert first_line() == "場にアイテムカードが三枚、裏向きに置かれた。"
    assert first_line("--lang", "en") == "EN<choose.1>"
    monkeypatch.setenv("KATARI_LANG", "en")
    assert first_line() == "EN<choose.1>"
    assert first_line("--lang", "ja").startswith("場にアイテムカード")


def test_check_lang_names_missing_and_stale_lines_and_gm_sees_the_fallback(
    capsys, story_dir, tmp_path
) -> None:
    src = translate_room(capsys, story_dir, tmp_path, skip=("room.again",))
    assert run(capsys, "strings", "import", str(story_dir), str(src))[0] == 0
    rc, out, err = run(capsys, "check", str(story_dir), "--lang", "en", "--no-voice")
    missing = [ln for ln in out.splitlines() if "not translated into en" in ln]
    assert len(missing) == 1 and "room.again" in missing[0] and "(warning)" in missing[0]
    assert "stale" not in out
    # the author rewrites a line after it was translated
    y = story_dir / "story.yaml"
    y.write_text(
        y.read_text(encoding="utf-8").replace("気がつくと、あなたは", "目が覚めると、あなたは"),
        encoding="utf-8",
    )
    rc, out, err = run(capsys, "check", str(story_dir), "--lang", "en", "--no-voice")
    assert rc == 0, "missing and stale translations are warnings"
    stale = [ln for ln in out.splitlines() if "stale" in ln]
    assert len(stale) == 1 and "room.opening" in stale[0]
    rc, out, _ = run(capsys, "check", str(story_dir), "--lang", "en", "--no-voice", "--json")
    codes = sorted(d["code"] for d in json.loads(out)["diagnostics"])
    assert codes == ["K400", "K401"]
    en = T.apply(load(story_dir), "en")
    assert en.translation.stale == {"room.opening"} and "room.again" in en.translation.missing
    # a player reads the source text (never the stale translation), a GM sees it marked
    player = play(en, ["inspiration"])
    assert any(t.startswith("目が覚めると") for t in texts(player))
    assert not any(e.get("untranslated") for e in player)
    gm = play(en, ["inspiration"], gm=True)
    marked = [e for e in gm if e.get("untranslated")]
    assert [e["id"] for e in marked] == ["room.opening"]
    # re-exporting keeps the old translation, marked fuzzy, with the source it was made from
    rc, _, _ = run(
        capsys,
        "strings",
        "export",
        str(story_dir),
        "--lang",
        "en",
        "-o",
        str(tmp_path / "again.po"),
    )
    e = next(e for e in polib.pofile(str(tmp_path / "again.po")) if e.msgctxt == "room.opening")
    assert (
        e.msgstr == "EN<room.opening>"
        and "fuzzy" in e.flags
        and e.previous_msgid.startswith("気がつくと")
    )


def test_check_lang_without_a_translation_says_how_to_make_one(capsys, story_dir) -> None:
    rc, out, err = run(capsys, "check", str(story_dir), "--lang", "en", "--no-voice")
    assert rc == 0
    assert "no en translation" in out and "katari strings export" in out


@pytest.mark.parametrize(
    "data", [b"\xff\xfe not utf-8", b'msgid "unterminated\n', b"id,text\nx,y\n"]
)
def test_importing_a_broken_file_is_one_line_and_writes_nothing(
    capsys, story_dir, tmp_path, data
) -> None:
    bad = tmp_path / ("bad.csv" if data.startswith(b"id,") else "bad.po")
    bad.write_bytes(data)
    rc, out, err = run(capsys, "strings", "import", str(story_dir), str(bad), "--lang", "en")
    assert rc == 1 and err.count("\n") == 1 and "Traceback" not in err, err
    assert not (story_dir / "translations" / "en.po").exists()


def test_import_into_the_story_s_own_language_is_refused(capsys, story_dir, tmp_path) -> None:
    src = translate_room(capsys, story_dir, tmp_path)
    rc, _, err = run(capsys, "strings", "import", str(story_dir), str(src), "--lang", "ja")
    assert rc == 1 and "written in ja" in err


# -- the console's own words follow the played language ------------------------------


def test_list_shows_translations_and_english_titles(capsys, monkeypatch) -> None:
    monkeypatch.delenv("KATARI_LANG", raising=False)
    rc, out, _ = run(capsys, "list", "--lang", "en", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert "en" in rows["ureg_window_room"]["translations"]
    assert rows["ureg_window_room"]["language"] == "ja"
    assert not any(
        "\u3040" <= c <= "\u30ff" or "\u4e00" <= c <= "\u9fff"
        for c in rows["ureg_window_room"]["title"]
    )
    rc, out, _ = run(capsys, "list")
    assert "ja+en" in out and "既定の物語" in out
    rc, out, _ = run(capsys, "list", "--lang", "en")
    assert "the default story" in out


def test_an_english_story_gets_an_english_console_without_lang(
    capsys, tmp_path, monkeypatch
) -> None:
    monkeypatch.delenv("KATARI_LANG", raising=False)
    monkeypatch.setenv("KATARI_HOME", str(tmp_path / "home"))
    from runner.ui.i18n import default_lang, played_lang

    assert played_lang(None, "en") == "en" and played_lang(None, "ja") == "ja"
    assert played_lang("ja", "en") == "ja"
    monkeypatch.setenv("KATARI_LANG", "en")
    assert default_lang("ja") == "en"


def test_proper_names_a_translation_keeps_survive_import_and_export(
    capsys, story_dir, tmp_path
) -> None:
    src = translate_room(capsys, story_dir, tmp_path)
    po = polib.pofile(str(src))
    po.metadata["X-Katari-Proper-Names"] = "深海, アトリエ"
    po.save(str(src))
    assert run(capsys, "strings", "import", str(story_dir), str(src))[0] == 0
    en = T.apply(load(story_dir), "en")
    assert en.translation.proper_names == {"深海", "アトリエ"}
    assert (
        run(
            capsys,
            "strings",
            "export",
            str(story_dir),
            "--lang",
            "en",
            "-o",
            str(tmp_path / "x.csv"),
        )[0]
        == 0
    )
    rows = list(csv.DictReader((tmp_path / "x.csv").open(encoding="utf-8", newline="")))
    assert rows[1]["id"] == "#proper_names" and rows[1]["translation"] == "深海, アトリエ"
    assert run(capsys, "strings", "import", str(story_dir), str(tmp_path / "x.csv"))[0] == 0
    assert T.apply(load(story_dir), "en").translation.proper_names == {"深海", "アトリエ"}


def test_export_into_a_folder_not_made_yet_makes_it(capsys, tmp_path) -> None:
    """`-o translations/en.po` in a story with no translations/ folder yet writes the file."""
    out = tmp_path / "new" / "translations" / "en.po"
    rc, _, err = run(
        capsys, "strings", "export", "deep_sea_atelier", "--lang", "en", "-o", str(out)
    )
    assert rc == 0 and out.exists() and 'msgid ""' in out.read_text(encoding="utf-8"), err
