"""`katari check` of a large story stays within 5% of its time before #14 (benchmarks/
bench_engine.py's check column) with the same diagnostics: what the speed rests on, each
against the plain answer it stands for.

- A story the linter finds nothing in is checked without PyYAML (the careful parser, whose
  import alone costs ~100 M instructions): lint reads the YAML again with positions only
  when it has something to place.
- The dead-end check K036 (places the player can reach but never leave) walks the graph
  backwards once; on random graphs it names exactly the reachable nodes that reach no ending.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.story import check

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from ring import ring_story_yaml  # noqa: E402

SHOW = (
    "import runpy, sys\n"
    "sys.argv = ['katari', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('runner', run_name='__main__')\n"
    "except SystemExit as e:\n"
    "    print('EXIT', e.code, 'yaml' in sys.modules, file=sys.stderr)\n"
)


def _check_imports_yaml(path: Path, tmp_path: Path) -> tuple[str, bool]:
    env = {**os.environ, "KATARI_HOME": str(tmp_path / "home"), "KATARI_CACHE": "off"}
    r = subprocess.run(
        [sys.executable, "-c", SHOW, "check", "--no-voice", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    line = next(x for x in r.stderr.splitlines() if x.startswith("EXIT "))
    return r.stdout, line.split()[2] == "True"


def test_a_story_the_linter_finds_nothing_in_is_checked_without_pyyaml(tmp_path: Path) -> None:
    ring = tmp_path / "ring.yaml"
    ring.write_text(ring_story_yaml(50), encoding="utf-8")
    out, yaml_imported = _check_imports_yaml(ring, tmp_path)
    assert out == f"{ring}: ok (50 nodes, 1 ending, rules none)\n"
    assert not yaml_imported
    # A name the linter reports inside an expression is placed where it stands: PyYAML then.
    text = ring_story_yaml(50).replace("when: gold > 3", "when: has('lamp')", 1)
    ring.write_text(text, encoding="utf-8")
    out, yaml_imported = _check_imports_yaml(ring, tmp_path)
    line = 1 + text[: text.index("has('lamp')")].count("\n")
    assert f"{ring}:{line}:" in out and "lamp" in out and "[K301]" in out, out
    assert yaml_imported


def _graph_story(edges: list[list[int]], exits: list[bool]) -> str:
    out = [
        "story: {id: g, title: G, language: en, rules: none, start: n0}",
        "endings: {end: {kind: normal, title: End}}",
        "nodes:",
    ]
    for i, targets in enumerate(edges):
        out.append(f"  n{i}:")
        out.append("    actions:")
        for j, t in enumerate(targets):
            out.append(f"      - {{id: a{j}, label: A{j}, goto: n{t}}}")
        if exits[i] or not targets:
            out.append("      - {id: out, label: Out, end: end}")
    return "\n".join(out) + "\n"


@st.composite
def graphs(draw: st.DrawFn) -> tuple[list[list[int]], list[bool]]:
    n = draw(st.integers(2, 14))
    edges = [draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3)) for _ in range(n)]
    exits = [draw(st.booleans()) and draw(st.booleans()) for _ in range(n)]
    return edges, exits


def _reach(start: set[int], step: dict[int, set[int]]) -> set[int]:
    seen, todo = set(start), list(start)
    while todo:
        for t in step.get(todo.pop(), ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_no_way_out_names_the_reachable_nodes_that_reach_no_ending(
    graph: tuple[list[list[int]], list[bool]],
) -> None:
    edges, exits = graph
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.yaml"
        path.write_text(_graph_story(edges, exits), encoding="utf-8")
        _story, diags = check(path)
    forward = {i: set(ts) for i, ts in enumerate(edges)}
    reachable = _reach({0}, forward)
    stuck = [
        i
        for i in range(len(edges))
        if i in reachable
        and not any(exits[j] for j in _reach({i}, forward))  # no ending from anywhere after
    ]
    k036 = [d for d in diags if d.code == "K036"]
    if not stuck:
        assert not k036
        return
    assert len(k036) == 1
    ids = [f"n{i}" for i in stuck]
    shown = ", ".join(ids[:8]) + (f" and {len(ids) - 8} more" if len(ids) > 8 else "")
    assert f"from {shown} no action" in k036[0].message
    assert k036[0].line == 1 + _graph_story(edges, exits).split("\n").index(f"  n{stuck[0]}:")
