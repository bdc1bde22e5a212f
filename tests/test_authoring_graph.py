"""The story map: every shipped story as SVG (Graphviz), HTML (headless Chromium) and Mermaid."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from runner.authoring import graph as G
from runner.cli import main
from runner.stories import shipped
from runner.story import load

STORIES = shipped()
CHROMIUM = (
    shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
)
needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None, reason="Graphviz (dot) is not installed"
)
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
SVG_NS = "{http://www.w3.org/2000/svg}"


def dump_dom(html_file: Path, tmp: Path) -> str:
    """Loads a page in headless Chromium and returns the DOM after its scripts ran."""
    profile = tmp / "chromium-profile"
    r = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            html_file.resolve().as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert r.returncode == 0, r.stderr.decode("utf-8", "replace")[-2000:]
    return r.stdout.decode("utf-8")


def root_tag(dom: str) -> str:
    """The <html ...> tag, where the page records data-ready and data-js-error."""
    m = re.search(r"<html[^>]*>", dom)
    assert m, dom[:200]
    return m.group(0)


def write_story(tmp: Path, text: str) -> Path:
    p = tmp / "story.yaml"
    p.write_text(text, encoding="utf-8")
    return p


NASTY = """\
story: {id: nasty, title: "A </script><b>bold</b> & \\"quoted\\" {{SVG}}", start: a}
variables: {x: 0}
nodes:
  a:
    title: "<img src=x onerror=alert(1)> \\\\ back\\\\slash"
    narration:
      - "</script><script>document.title='pwned'</script> {{DATA}} \\u2028 line"
      - {when: "x > 0", text: "only when x > 0 'quoted'"}
    keeper: ["GM: the key is in the <desk>"]
    actions:
      - {id: go, label: "go \\"on\\" | now", when: "x < 3 and not has('k')", goto: b}
      - {id: stay, label: stay, effects: [{add: {x: 1}}]}
  b:
    scene: second
    actions:
      - id: test
        label: test it
        check: "roll('1d6') >= 4"
        outcomes: {success: {end: won}, failure: {goto: a}}
endings:
  won: {kind: good, title: "won <3"}
  lost: death
events:
  - {id: doom, at: 30, effects: [{end: lost}]}
"""


def test_build_edges_carry_action_condition_and_outcome(tmp_path: Path) -> None:
    g = G.build(load(write_story(tmp_path, NASTY)))
    go = [e for e in g.edges if e.src == "a" and e.dst == "b"][0]
    assert go.action == "go" and go.cond == "x < 3 and not has('k')"
    test = {(e.dst, e.cond) for e in g.edges if e.src == "b"}
    assert test == {("won", "success"), ("a", "failure")}
    assert [e.dst for e in g.edges if e.kind == "event"] == ["lost"]
    assert g.nodes["won"].kind == "ending" and g.nodes["lost"].ending_kind == "death"


def test_unparse_round_trips_precedence() -> None:
    from runner.story.expr import parse

    for src in [
        "a + b * c",
        "(a + b) * c",
        "not (a and b) or c",
        "a - (b - c)",
        "-x + 1",
        "coc7.check('目星', 'hard')",
        "1 < x <= 3",
        "has('k') and visits('r') > 1",
    ]:
        assert G.unparse(parse(src)) == src or parse(G.unparse(parse(src))) == parse(src)


@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_mermaid_of_every_story(path: Path) -> None:
    story = load(path)
    text, _ = G.render(story, "mermaid")
    assert text.startswith("flowchart LR\n")
    g = G.build(story)
    for gn in g.nodes.values():
        assert re.search(rf"^\s+{gn.key}[\[\(\{{>]", text, re.M), gn.id
    arrows = [ln for ln in text.splitlines() if "-->" in ln or "-.->" in ln]
    assert len(arrows) == len(g.edges)


@needs_dot
@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_svg_of_every_story(path: Path) -> None:
    story = load(path)
    svg, _ = G.render(story, "svg")
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG_NS + "svg"
    ids = {el.get("id") for el in root.iter() if el.get("class") == "node"}
    g = G.build(story)
    assert ids == {"k" + gn.key for gn in g.nodes.values()}
    titles = " ".join("".join(t.itertext()) for t in root.iter(SVG_NS + "text"))
    start = story.nodes[story.start]
    assert (start.title or start.id) in titles


@needs_dot
@needs_chromium
@pytest.mark.parametrize("path", STORIES, ids=[p.name for p in STORIES])
def test_html_of_every_story_opens_in_chromium(path: Path, tmp_path: Path) -> None:
    story = load(path)
    page, _ = G.render(story, "html")
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page
    f = tmp_path / "map.html"
    f.write_text(page, encoding="utf-8")
    dom = dump_dom(f, tmp_path)
    assert "data-js-error" not in root_tag(dom)
    assert 'data-ready="1"' in root_tag(dom)
    assert f'data-selected="{story.start}"' in dom
    start = story.nodes[story.start]
    assert (start.title or start.id) in dom


@needs_chromium
def test_chromium_harness_sees_script_errors(tmp_path: Path) -> None:
    """The check above can fail: a page whose script throws is caught."""
    story = load(Path(STORIES[0]))
    page = G.to_html(G.build(story), None).replace('"use strict";', '"use strict"; null.boom();')
    f = tmp_path / "broken.html"
    f.write_text(page, encoding="utf-8")
    dom = dump_dom(f, tmp_path)
    assert "data-js-error" in root_tag(dom) and 'data-ready="1"' not in root_tag(dom)


@needs_dot
@needs_chromium
def test_story_text_is_escaped_everywhere(tmp_path: Path) -> None:
    story = load(write_story(tmp_path, NASTY))
    dot, _ = G.render(story, "dot")
    assert '\\"quoted\\"' in dot
    svg, _ = G.render(story, "svg")
    ET.fromstring(svg.encode("utf-8"))  # well-formed despite <, & and quotes
    page, _ = G.render(story, "html")
    assert page.count("</script>") == 3  # our three script blocks, none from the story
    f = tmp_path / "map.html"
    f.write_text(page, encoding="utf-8")
    dom = dump_dom(f, tmp_path)
    assert "data-js-error" not in root_tag(dom) and 'data-ready="1"' in root_tag(dom)
    assert "pwned" not in dom.split("<body")[0]  # the narration never ran as a script
    assert "<img" not in dom  # the title stayed text
    assert "&lt;img src=x onerror=alert(1)&gt;" in dom  # shown as text in the panel
    assert "{{DATA}}" in dom  # a slot name inside story text stays text
    assert "<b>bold</b>" not in dom


@needs_dot
def test_large_story_is_drawn_by_scene(tmp_path: Path) -> None:
    lines = ["story: {id: big, title: Big, start: a0}", "nodes:"]
    for s in ("a", "b"):
        for i in range(6):
            nxt = f"{s}{i + 1}" if i < 5 else ("b0" if s == "a" else "a0")
            lines.append(
                f"  {s}{i}: {{scene: part_{s}, actions: [{{label: next, goto: {nxt}}}, {{label: stop, end: fin}}]}}"
            )
    lines.append("endings: {fin: normal}")
    story = load(write_story(tmp_path, "\n".join(lines) + "\n"))
    svg, note = G.render(story, "svg", limit=5)
    assert "scenes" in note
    root = ET.fromstring(svg.encode("utf-8"))
    boxes = [el for el in root.iter() if el.get("class") == "node"]
    assert len(boxes) == 3  # two scenes and the ending
    full, _ = G.render(story, "dot", limit=5, full=True)
    assert full.count("cluster_") == 2


def test_large_story_without_scenes_is_refused_for_svg(tmp_path: Path) -> None:
    lines = ["story: {id: ring, title: Ring, start: n0}", "nodes:"]
    for i in range(8):
        lines.append(
            f"  n{i}: {{actions: [{{label: next, goto: n{(i + 1) % 8}}}, {{label: stop, end: fin}}]}}"
        )
    lines.append("endings: {fin: normal}")
    story = load(write_story(tmp_path, "\n".join(lines) + "\n"))
    with pytest.raises(ValueError, match="too many"):
        G.render(story, "svg", limit=5)
    page, note = G.render(story, "html", limit=5)
    assert "lists them" in note and '<ul id="list">' in page and "<svg" not in page
    text, note = G.render(story, "mermaid", limit=5)
    assert "too large" in note and "n7" in text


def test_cli_without_graphviz_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    rc = main(["graph", str(STORIES[0]), "--format", "svg"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 1 and len(err) == 1 and "install" in err[0] and "graphviz" in err[0]
    assert main(["graph", str(STORIES[0]), "--format", "mermaid"]) == 0


@needs_dot
def test_cli_writes_by_suffix(tmp_path: Path) -> None:
    out = tmp_path / "map.html"
    assert main(["graph", str(STORIES[0]), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")
    assert os.path.getsize(out) > 1000


def test_the_html_page_is_package_data_with_every_slot_filled() -> None:
    # The page lives in graph_page.html beside graph.py (shipped as package data, #14 item 5);
    # every {{SLOT}} in it is one to_html fills, and none is left in the page.
    import importlib.resources

    page = (
        importlib.resources.files("runner.authoring")
        .joinpath("graph_page.html")
        .read_text(encoding="utf-8")
    )
    slots = set(re.findall(r"\{\{([A-Z]+)\}\}", page))
    assert {"LANG", "TITLE", "DATA", "SVG"} <= slots
    story = load(next(p for p in shipped() if p.name == "deep_sea_atelier"))
    out = G.to_html(G.build(story), None, lang="en")
    assert out.startswith("<!doctype html>") and not re.search(r"\{\{[A-Z]+\}\}", out)
