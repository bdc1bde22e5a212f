"""Every draft `katari import` writes is a story: `katari check` finds no error (and no
warning), random play reaches an ending, the prose is the document's own, the report has
the shape the issue gives."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from runner.cli import main
from runner.importer.read import normalise, read_document
from runner.importer.score import load_key

DATA = Path(__file__).resolve().parent / "data" / "import"
DOCS = sorted(
    p
    for part in ("heldout", "tuning")
    for p in (DATA / part).iterdir()
    if not p.name.endswith(".json")
)


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    import contextlib
    import io

    out = {}
    base = tmp_path_factory.mktemp("drafts")
    for doc in DOCS:
        folder = base / doc.stem
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = main(["import", str(doc), "-o", str(folder), "--json"])
        assert rc == 0, doc
        out[doc.name] = (folder, json.loads(buf.getvalue()))
    return out


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_the_draft_checks_clean_and_reaches_an_ending(drafts: dict, doc: str) -> None:
    from runner.authoring.lint import lint
    from runner.authoring.simulate import simulate
    from runner.story import check

    folder, _report = drafts[doc]
    story, diags = check(folder)
    assert story is not None
    problems = [str(d) for d in diags + lint(story)]
    assert problems == [], problems
    rep = simulate(story, 1000, seed=0)
    ended = {e: n for e, n in rep.endings.items() if not e.startswith("(")}
    assert sum(ended.values()) >= 990, rep.endings
    assert rep.errors == [], rep.errors
    assert not rep.unreached_nodes, rep.unreached_nodes


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_the_report_has_the_issue_shape(drafts: dict, doc: str) -> None:
    _folder, r = drafts[doc]
    for k, t in (
        ("title", str),
        ("players", str),
        ("locations", list),
        ("timeline", list),
        ("monsters", list),
        ("npcs", list),
        ("endings", list),
        ("unplaced", list),
    ):
        assert isinstance(r[k], t), k
    assert r["edition"] in (6, 7)
    for loc in r["locations"]:
        assert isinstance(loc["name"], str) and isinstance(loc["line"], int)
        for c in loc["checks"]:
            assert isinstance(c["skill"], str) and c["difficulty"] in ("regular", "hard", "extreme")
            assert (
                isinstance(c["bonus"], int)
                and isinstance(c["pushable"], bool)
                and isinstance(c["line"], int)
            )
        for s in loc["san"]:
            assert {"success", "failure", "line"} <= set(s)
    for t in r["timeline"]:
        assert (
            isinstance(t["at"], str) and isinstance(t["what"], str) and isinstance(t["line"], int)
        )
        assert isinstance(t["checks"], list) and isinstance(t["san"], list)
    for m in r["monsters"] + r["npcs"]:
        assert (
            isinstance(m["name"], str)
            and isinstance(m["stats"], dict)
            and isinstance(m["san"], str)
        )
        for a in m["attacks"]:
            assert {"name", "skill", "damage"} <= set(a)
    for e in r["endings"]:
        assert e["kind"] in ("true", "good", "normal", "bad", "lost") and isinstance(e["line"], int)
    for u in r["unplaced"]:
        assert isinstance(u["line"], int) and isinstance(u["text"], str)
    # the key's facts are in the report where the key says
    key = load_key(next(k for k in DATA.glob("*/*.key.json") if load_key(k)["doc"] == doc))
    timed = {c["line"] for t in r["timeline"] for c in t["checks"]} | {
        s["line"] for t in r["timeline"] for s in t["san"]
    }
    placed = {c["line"] for loc in r["locations"] for c in loc["checks"]} | {
        s["line"] for loc in r["locations"] for s in loc["san"]
    }
    for item in key["checks"] + key["san"]:
        if item.get("in") == "timeline":
            assert item["line"] in timed and item["line"] not in placed, item
    assert r["title"] == key["title"] and r["edition"] == key["edition"]
    assert normalise(r["players"]) == normalise(key["players"])
    text = (_folder / "IMPORT.md").read_text(encoding="utf-8")
    for c in key["checks"]:
        assert f"line {c['line']}:" in text


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_the_prose_is_the_documents_own(drafts: dict, doc: str) -> None:
    """Every narration line of the draft is text of the document (Katari adds labels only)."""
    import yaml

    folder, _r = drafts[doc]
    path = next(d for d in DOCS if d.name == doc)
    source = normalise(
        "".join(re.sub(r"\*\*|__|`|\s", "", ln.raw) for ln in read_document(path).lines)
    )
    nodes = yaml.safe_load((folder / "places.yaml").read_text(encoding="utf-8"))["nodes"]
    endings = yaml.safe_load((folder / "story.yaml").read_text(encoding="utf-8"))["endings"]
    texts = [t for n in nodes.values() for t in n.get("narration", []) + n.get("keeper", [])]
    texts += [t for e in endings.values() for t in e.get("narration", [])]
    assert texts
    for t in texts:
        shown = t.replace("{{", "{").replace("}}", "}")  # a document's braces, escaped in the story
        assert normalise(re.sub(r"\s", "", shown)) in source, t


def test_timed_events_fire_at_their_times(drafts: dict) -> None:
    import yaml

    folder, r = drafts["h1_lighthouse.txt"]
    meta = yaml.safe_load((folder / "story.yaml").read_text(encoding="utf-8"))
    assert meta["clock"] == {"start": "18:00"}
    ats = [e["at"] for e in meta["events"] if "at" in e]
    assert ats == [
        120,
        240,
        360,
    ]  # 20:00, 22:00, 24:00; 18:00 (the start) is said as the game begins
    nodes = yaml.safe_load((folder / "places.yaml").read_text(encoding="utf-8"))["nodes"]
    assert nodes["intro"]["on_enter"] == [{"say": "探索者が鴎崎に到着。霧が出始める。"}]
    ev = next(e for e in meta["events"] if e.get("at") == 120)
    assert {"check": "coc7.check('聞き耳')", "outcomes": ev["effects"][1]["outcomes"]} == ev[
        "effects"
    ][1]
    assert {"do": "coc7.san_all('0/1')"} in ev["effects"] or any(
        "coc7.san('0/1')" in json.dumps(e, ensure_ascii=False) for e in ev["effects"]
    )
    assert meta["events"][-2]["effects"][-1] == {"goto": "climax"}  # 24:00 …クライマックスへ


def test_sixth_edition_creatures_are_written_converted(drafts: dict) -> None:
    import yaml

    folder, r = drafts["h3_bell_6th.html"]
    meta = yaml.safe_load((folder / "story.yaml").read_text(encoding="utf-8"))
    boss = next(c for c in meta["characters"].values() if c["name"] == "鳴らぬ鈴の主")
    assert boss["kind"] == "enemy"
    assert (
        boss["stats"]["STR"] == 150 and boss["stats"]["耐久力"] == 33 and boss["stats"]["装甲"] == 5
    )
    assert boss["stats"]["ダメージ"] == "2d6+3d6" and boss["stats"]["遭遇正気度喪失"] == "1/1d10"
    assert [a["name"] for a in boss["props"]["attacks"]] == ["踏みつけ", "のしかかり"]


def test_the_docs_example_is_what_the_importer_writes(tmp_path: Path) -> None:
    """docs/import.md shows a document going in and the draft coming out: both stay true."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "import.md").read_text(
        encoding="utf-8"
    )
    blocks = re.findall(r"```(\w+)\n(.*?)```", page, re.S)
    doc = next(b for lang, b in blocks if lang == "text" and b.startswith("『鐘楼の影』"))
    yamls = [b for lang, b in blocks if lang == "yaml"]
    assert len(yamls) == 2
    src = tmp_path / "bell.txt"
    src.write_text(doc, encoding="utf-8")
    out = tmp_path / "bell_draft"
    assert main(["import", str(src), "-o", str(out)]) == 0
    assert yamls[0] in (out / "story.yaml").read_text(encoding="utf-8")
    assert yamls[1] in (out / "places.yaml").read_text(encoding="utf-8")
    report = next(b for lang, b in blocks if lang == "text" and b.startswith("### 鐘楼の一階"))
    assert report in (out / "IMPORT.md").read_text(encoding="utf-8")
