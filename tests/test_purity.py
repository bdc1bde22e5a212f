"""The engine and the rules are pure (docs/architecture.md): the standard library only, no
print, no open(), no wall clock, no global random, no files, processes or environment. One
test for all of them (#14 item 5: it replaces four near-copies), and it follows imports: a
pure module that imports another module of the project, at the top or inside a function,
makes that module's imports its own, so a helper cannot bring PyYAML or the terminal in by
the back door."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE = ("runner/engine", "runner/rules")
BANNED_CALLS = {"print", "open", "input", "eval", "exec", "breakpoint"}
BANNED_MODULES = {
    "random",
    "time",
    "datetime",
    "os",
    "subprocess",
    "pathlib",
    "io",
    "shutil",
    "socket",
    "threading",
    "multiprocessing",
    "tempfile",
    "builtins",
}
BANNED_ATTRS = {("time", "time"), ("random", "random"), ("datetime", "now")}

KNOWN = {
    # Reached through the loader (runner.story), which reads story files with PyYAML: the
    # engine/loader boundary work of #14 item 4 makes what the engine needs public and small,
    # and then these leave the list.
    "runner/story/loader.py",
    "runner/story/source.py",
    "runner/story/yamlpos.py",
    "runner/story/fastyaml.py",  # (the fast YAML pass, split out of the loader: same standing)
    "runner/story/compiled.py",  # (the loader's cache of checked stories: same standing, and
    # reached only through loader.load; it leaves the list with the loader)
    "runner/folders.py",  # (where the cache lives: reached only from compiled.py above)
    "runner/kana.py",
    # The registry: reads the installed distributions' katari.rules entry points the first
    # time a rule system is asked for (when a story loads, never during a step).
    "runner/plugins.py",
}
"""Files the pure ones reach that are not pure yet; the list may only shrink."""


def _module_of(path: Path) -> str:
    if not path.is_relative_to(ROOT):
        return "runner.rules." + path.stem  # a probe written by a test
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _path_of(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for p in (base.with_suffix(".py"), base / "__init__.py"):
        if p.is_file():
            return p
    return None


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (absolute names), anywhere in the file."""
    module = _module_of(path)
    pkg = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg[: len(pkg) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.append((node.lineno, sub if _path_of(sub) else base))
    return out


def problems(path: Path) -> list[str]:
    """What makes one file impure, each as ``file:line: what``."""
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    out = []
    for line, name in _imports(path):
        top = name.split(".")[0]
        if top == "runner":
            if name.startswith("runner.ui") or name.startswith("runner.commands"):
                out.append(f"{rel}:{line}: imports {name}")
        elif top == "__future__":
            continue
        elif top not in sys.stdlib_module_names or top in BANNED_MODULES:
            out.append(f"{rel}:{line}: imports {name}")
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in BANNED_CALLS
        ):
            out.append(f"{rel}:{node.lineno}: {node.func.id}()")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and (node.value.id, node.attr) in BANNED_ATTRS
        ):
            out.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr}")
    return out


def reached(start: list[Path]) -> dict[Path, Path]:
    """Every project file the pure files import, directly or not: file -> a file importing it."""
    seen: dict[Path, Path] = {p: p for p in start}
    todo = list(start)
    while todo:
        p = todo.pop()
        for _line, name in _imports(p):
            if not name.startswith("runner."):
                continue
            parts = name.split(".")
            for i in range(2, len(parts) + 1):  # a.b.c runs a.b's __init__ too
                q = _path_of(".".join(parts[:i]))
                if q is not None and q not in seen:
                    seen[q] = p
                    todo.append(q)
    return seen


def _pure_files() -> list[Path]:
    return sorted(p for folder in PURE for p in (ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", _pure_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_pure_file_is_pure(path: Path) -> None:
    assert problems(path) == []


def test_what_the_pure_files_import_is_pure_too() -> None:
    bad = []
    for path, by in sorted(reached(_pure_files()).items()):
        rel = str(path.relative_to(ROOT))
        if rel.startswith(PURE) or rel in KNOWN:
            continue
        for p in problems(path):
            bad.append(f"{p} (reached from {by.relative_to(ROOT)})")
    assert bad == [], "\n".join(bad)


def test_the_guard_follows_imports_made_inside_functions(tmp_path: Path) -> None:
    # coc7's offer imports the engine's Choice inside a function: the walk goes there.
    assert ROOT / "runner" / "engine" / "engine.py" in reached(
        [ROOT / "runner" / "rules" / "coc7" / "offer.py"]
    )
    f = tmp_path / "probe.py"
    f.write_text("def hook(ctx):\n    import os\n    print(os.getcwd())\n", encoding="utf-8")
    assert problems(f) == ["probe.py:2: imports os", "probe.py:3: print()"]
