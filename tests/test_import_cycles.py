"""No module of the package imports a module that imports it back (directly or around a
longer loop), counting imports inside functions too: a circle means neither side can be read,
tested or moved alone (#14 item 5: the listener's vocab.py ⇄ vosk_listener.py was one).
Package ``__init__`` files are left out, since importing a submodule always runs them.

``KNOWN`` names the circles older than this test, each in another area; a circle may shrink
(a part of a known one passes), never grow or appear."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "runner"

KNOWN = {
    # (the console's part of this circle went when runner/ui/repl.py became runner/ui/console/)
    frozenset({"runner.ui.files", "runner.ui.reload"}),
    frozenset(
        {
            "runner.ui.narrator.cache",
            "runner.ui.narrator.engines",
            "runner.ui.narrator.profiles",
            "runner.ui.narrator.readings",
            "runner.ui.narrator.voicevox",
        }
    ),
    frozenset({"runner.engine.engine", "runner.engine.gm"}),
    frozenset({"runner.authoring.parallel", "runner.authoring.simulate"}),
}


def _modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = p.relative_to(ROOT).with_suffix("").parts
        if parts[-1] != "__init__":
            out[".".join(parts)] = p
    return out


def _imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    pkg = name.split(".")[:-1]
    found = set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                base = ".".join(pkg[: len(pkg) - n.level + 1] + ([base] if base else []))
            for a in n.names:
                for cand in (f"{base}.{a.name}", base):
                    if cand in known:
                        found.add(cand)
                        break
        elif isinstance(n, ast.Import):
            found |= {a.name for a in n.names if a.name in known}
    found.discard(name)
    return found


def circles() -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    mods = _modules()
    graph = {m: _imports(m, p, mods) for m, p in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(frozenset(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_new_import_circle() -> None:
    new = [sorted(c) for c in circles() if not any(c <= known for known in KNOWN)]
    assert not new, f"modules that import each other: {new}"


def test_the_listener_and_the_rules_have_no_circle() -> None:
    for c in circles():
        assert not any(
            m.startswith(("runner.ui.listener.vocab", "runner.ui.listener.vosk", "runner.rules."))
            for m in c
        ), sorted(c)


def test_the_guard_sees_a_circle_made_inside_a_function(tmp_path: Path) -> None:
    # The listener's circle was made by an import inside a function: the guard reads those.
    mods = {"runner.a": tmp_path / "a.py", "runner.b": tmp_path / "b.py"}
    mods["runner.a"].write_text("from runner import b\n")
    mods["runner.b"].write_text("def f():\n    from runner.a import x\n")
    assert _imports("runner.b", mods["runner.b"], mods) == {"runner.a"}
    assert _imports("runner.a", mods["runner.a"], mods) == {"runner.b"}
