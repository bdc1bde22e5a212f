"""What the language server knows of a story: its files (as the editor has them), the check's
diagnostics, and where each id is defined and used. No LSP types here (see server.py).

Positions are (line, column), 0-based, columns in characters (code points); server.py turns
them into the editor's UTF-16 units.
"""

from __future__ import annotations

import gc
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("node", "item", "variable", "character")
"""What go-to-definition and find-references know (an ending counts as a node: goto reaches both)."""
EXPR_KEYS = {
    "when",
    "check",
    "do",
    "if",
    "visible_when",
    "known_when",
    "left_visible_when",
    "advance",
}
_STORY_HEAD = re.compile(r"^story\s*:", re.M)
_TOKEN = re.compile(
    r"""(?P<str>'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(?P<name>[^\W\d]\w*(?:\.[^\W\d]\w*)*)"""
)
_WORD = re.compile(r"[\w\-.]")
MAX_FILES = 200
"""Files of one story the server reads (a folder with more is not one story)."""


@dataclass(frozen=True, slots=True)
class Loc:
    path: str
    line: int
    col: int
    end: int


@dataclass
class Index:
    root: str
    files: dict[str, str] = field(default_factory=dict)
    """Each story file's text (the editor's, for open ones)."""
    defs: dict[tuple[str, str], list[Loc]] = field(default_factory=dict)
    refs: dict[tuple[str, str], list[Loc]] = field(default_factory=dict)
    calls: list[tuple[str, Loc]] = field(default_factory=list)
    """Hook names called in expressions, where."""
    rules: str = "none"
    titles: dict[tuple[str, str], str] = field(default_factory=dict)
    endings: set[str] = field(default_factory=set)
    """The node ids that are endings (``end:`` takes only these)."""

    def ids(self, kind: str) -> list[str]:
        return sorted({i for (k, i) in self.defs if k == kind})

    def at(self, path: str, line: int, col: int) -> tuple[str, str] | None:
        """The (kind, id) defined or used at this place, if any."""
        for table in (self.defs, self.refs):
            for key, locs in table.items():
                for loc in locs:
                    if loc.path == path and loc.line == line and loc.col <= col <= loc.end:
                        return key
        return None

    def hook_at(self, path: str, line: int, col: int) -> str | None:
        for name, loc in self.calls:
            if loc.path == path and loc.line == line and loc.col <= col <= loc.end:
                return name
        return None


# -- which files make a story ------------------------------------------------------


def _has_head(p: Path, overlays: dict[str, str]) -> bool:
    text = overlays.get(str(p))
    if text is None:
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                text = f.read(1 << 20)
        except OSError:
            return False
    return bool(_STORY_HEAD.search(text))


def _yaml_files(folder: Path) -> list[Path]:
    from runner.story import story_files

    try:
        return story_files(folder)[: MAX_FILES + 1]
    except OSError:
        return []


def story_root(file: str | os.PathLike[str], overlays: dict[str, str] | None = None) -> Path:
    """The story a file belongs to: its folder, when the folder's YAML files (``tests/`` aside)
    hold exactly one ``story:`` section and more than one file; else the file alone. A file
    without a ``story:`` section looks up to three folders up for its story."""
    overlays = overlays or {}
    f = Path(file)
    here = [f.parent, *list(f.parent.parents)[:3]]
    for d in here:
        if d.name == "tests":
            return f
        files = _yaml_files(d)
        if f not in files or len(files) > MAX_FILES:
            return f
        heads = [q for q in files if _has_head(q, overlays)]
        if len(heads) == 1:
            return d if len(files) > 1 else heads[0]
        if len(heads) > 1:
            return f
    return f


def story_texts(root: Path, overlays: dict[str, str]) -> dict[str, str]:
    """Each file of the story: the editor's text where it has one, else the disk's."""
    files = _yaml_files(root) if root.is_dir() else [root]
    out: dict[str, str] = {}
    for p in files[:MAX_FILES]:
        key = str(p)
        if key in overlays:
            out[key] = overlays[key]
            continue
        try:
            out[key] = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
    for key, text in overlays.items():  # an open file not saved yet
        if key not in out and (Path(key) == root or (root.is_dir() and Path(key).parent == root)):
            out[key] = text
    return out


# -- diagnostics -------------------------------------------------------------------


def diagnose(root: Path, texts: dict[str, str]) -> dict[str, list]:
    """``katari check`` (loader and linter) over the texts as they are in the editor, by file.

    The loader reads files, so the texts are written to a private temporary copy of the
    story and the diagnostics' paths mapped back."""
    from runner.authoring.lint import lint
    from runner.story import check

    out: dict[str, list] = {p: [] for p in texts}
    with tempfile.TemporaryDirectory(prefix="katari-lsp-") as tmp:
        base = Path(tmp) / (root.name if root.is_dir() else "story")
        back: dict[str, str] = {}
        for p, text in texts.items():
            rel = Path(p).relative_to(root) if root.is_dir() else Path(Path(p).name)
            target = base / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            back[str(target)] = p
        target_root = (
            base if root.is_dir() else base / Path(next(iter(texts))).name if texts else base
        )
        try:
            story, diags = check(target_root)
            if story is not None:
                diags = diags + lint(story)
        finally:
            if (
                gc.get_freeze_count()
            ):  # the loader freezes what it built, for a game; an editor reloads often
                gc.unfreeze()
        import dataclasses

        for d in diags:
            path = back.get(d.path)
            if path is None:
                path = (
                    str(root) + d.path[len(str(target_root)) :]
                    if d.path.startswith(str(target_root))
                    else str(root)
                )
            out.setdefault(path, []).append(
                dataclasses.replace(
                    d, path=path, message=d.message.replace(str(target_root), str(root))
                )
            )
    return out


# -- the index ---------------------------------------------------------------------


def _line_col(lines: list[str], pos: tuple[int, int] | None) -> tuple[int, int] | None:
    if pos is None:
        return None
    return pos[0] - 1, pos[1] - 1


def _token_end(lines: list[str], line: int, col: int) -> tuple[int, int, str]:
    """(start, end, text) of the id written at (line, col): quotes skipped."""
    if not 0 <= line < len(lines):
        return col, col, ""
    text = lines[line]
    if col < len(text) and text[col] in "'\"":
        col += 1
    end = col
    while end < len(text) and _WORD.match(text[end]):
        end += 1
    while end > col and text[end - 1] == ".":
        end -= 1
    return col, end, text[col:end]


def build(root: Path, texts: dict[str, str]) -> Index:
    """Definitions and uses of every id, from the texts (a file that does not parse now adds
    nothing)."""
    from runner.story.yamlpos import Map, Seq
    from runner.story.yamlpos import load as yaml_load

    idx = Index(str(root), dict(texts))
    docs: list[tuple[str, list[str], Any]] = []
    for path, text in texts.items():
        try:
            data, _ = yaml_load(text)
        except Exception:  # noqa: BLE001 - half-typed YAML: the diagnostics say why
            continue
        if isinstance(data, Map):
            docs.append((path, text.splitlines(), data))

    def define(kind: str, key: Any, m: Map, path: str, lines: list[str], title: str = "") -> None:
        lc = _line_col(lines, m.kpos.get(key))
        if lc is None or not isinstance(key, str):
            return
        s, e, _ = _token_end(lines, *lc)
        idx.defs.setdefault((kind, key), []).append(Loc(path, lc[0], s, e))
        if title:
            idx.titles[(kind, key)] = title

    for path, lines, data in docs:
        meta = data.get("story")
        if isinstance(meta, Map) and isinstance(meta.get("rules"), str):
            idx.rules = meta["rules"]
        for section, kind in (
            ("nodes", "node"),
            ("endings", "node"),
            ("items", "item"),
            ("variables", "variable"),
            ("characters", "character"),
        ):
            val = data.get(section)
            if isinstance(val, Map):
                for key, spec in val.items():
                    title = ""
                    if isinstance(spec, Map):
                        title = str(spec.get("title") or spec.get("name") or "")
                    elif isinstance(spec, str) and kind == "item":
                        title = spec
                    define(kind, key, val, path, lines, title)
                    if section == "endings" and isinstance(key, str):
                        idx.endings.add(key)
    known = {k: set(idx.ids(k)) for k in KINDS}

    def use(kind: str, path: str, lines: list[str], pos: tuple[int, int] | None) -> None:
        lc = _line_col(lines, pos)
        if lc is None:
            return
        s, e, word = _token_end(lines, *lc)
        if word:
            idx.refs.setdefault((kind, word), []).append(Loc(path, lc[0], s, e))

    def expression(path: str, lines: list[str], value: Any, pos: tuple[int, int] | None) -> None:
        lc = _line_col(lines, pos)
        if lc is None or not isinstance(value, str) or "\n" in value.strip():
            return
        line, col = lc
        if not 0 <= line < len(lines):
            return
        text = lines[line]
        start = col + 1 if col < len(text) and text[col] in "'\"" else col
        src = (
            text[start : start + len(value)] if text[start : start + len(value)] == value else value
        )
        if src != value:
            return
        for m in _TOKEN.finditer(src):
            if m.group("name"):
                name = m.group("name")
                a, b = start + m.start(), start + m.end()
                if name in known["variable"]:
                    idx.refs.setdefault(("variable", name), []).append(Loc(path, line, a, b))
                rest = src[m.end() :].lstrip()
                if rest.startswith("("):
                    idx.calls.append((name, Loc(path, line, a, b)))
            else:
                lit = m.group("str")
                word = lit[1:-1] if len(lit) >= 2 and lit[-1] == lit[0] else lit[1:]
                a = start + m.start() + 1
                for kind in ("node", "item", "character"):
                    if word in known[kind]:
                        idx.refs.setdefault((kind, word), []).append(
                            Loc(path, line, a, a + len(word))
                        )

    def walk(path: str, lines: list[str], v: Any) -> None:
        if isinstance(v, Map):
            for key, val in v.items():
                vp = v.vpos.get(key)
                if key in ("goto", "end") and isinstance(val, str):
                    use("node", path, lines, vp)
                elif key in ("give", "take"):
                    if isinstance(val, str):
                        use("item", path, lines, vp)
                    elif isinstance(val, Seq):
                        for i, x in enumerate(val):
                            if isinstance(x, str) and i < len(val.ipos):
                                use("item", path, lines, val.ipos[i])
                    elif isinstance(val, Map):
                        for k in val:
                            use("item", path, lines, val.kpos.get(k))
                elif key in ("set", "add") and isinstance(val, Map):
                    for k, x in val.items():
                        use("variable", path, lines, val.kpos.get(k))
                        expression(path, lines, x, val.vpos.get(k))
                elif key == "into" and isinstance(val, str):
                    use("variable", path, lines, vp)
                elif key == "speaker" and isinstance(val, str) and val in known["character"]:
                    use("character", path, lines, vp)
                elif key in EXPR_KEYS and isinstance(val, str):
                    expression(path, lines, val, vp)
                elif key == "do" and isinstance(val, Seq):
                    for i, x in enumerate(val):
                        if i < len(val.ipos):
                            expression(path, lines, x, val.ipos[i])
                else:
                    walk(path, lines, val)
        elif isinstance(v, Seq):
            for x in v:
                walk(path, lines, x)

    for path, lines, data in docs:
        meta = data.get("story")
        if isinstance(meta, Map) and isinstance(meta.get("start"), str):
            use("node", path, lines, meta.vpos.get("start"))
        for section in ("nodes", "endings", "events", "variables", "characters", "clock"):
            if section in data:
                walk(path, lines, data[section])
        if isinstance(meta, Map) and isinstance(meta.get("options"), Map):
            walk(path, lines, meta["options"])
    return idx


# -- completion and hover ----------------------------------------------------------


def hooks(rules: str) -> dict[str, Any]:
    """Every hook a story with these rules may call, by the name it is called with."""
    from runner.rules import system

    out = {name: h for name, h in system("core").hooks.items()}
    if rules not in ("none", "core"):
        try:
            out.update({f"{rules}.{name}": h for name, h in system(rules).hooks.items()})
        except Exception:  # noqa: BLE001 - an unknown rule system: the check says so
            pass
    return out


def skills(rules: str) -> list[tuple[str, str]]:
    """The names a check of the rule system takes (its skills, its abilities), with a short
    note: what the rule system declares (RuleSystem.skills)."""
    from runner.rules import BrokenRules, UnknownRules, system

    try:
        found = system(rules).skills
    except (UnknownRules, BrokenRules):
        return []
    return list(found()) if found is not None else []


def _skill_call(rules: str) -> re.Pattern[str]:
    """A call, open at a quoted argument, of a hook whose arguments are skills (Hook.skill_arg)."""
    names = [name for name, h in hooks(rules).items() if getattr(h, "skill_arg", False)]
    if not names:
        return re.compile(r"(?!)")
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(r"(?:" + alts + r")\(\s*(?:[^,()]*,\s*)*'[^']*$")


def hook_doc(name: str, h: Any) -> str:
    """Markdown for a hook: its call with argument names (and the domain each declared one
    takes: ``skill``, ``difficulty``, ``dice``...), whether it may sit in a condition, and its
    docstring."""
    domains = getattr(h, "domains", None) or {}
    sig = f"{name}({', '.join(f'{a}: {domains[a].name}' if a in domains else a for a in h.args)})"
    kind = (
        "condition or effect (reads the game)"
        if h.pure
        else "effect or check only (changes the game)"
    )
    doc = (h.doc or "").strip()
    return f"```\n{sig}\n```\n{kind}\n\n{doc}".rstrip()


_CTX_IDS = [
    (re.compile(r"(?:^|[\s{,])(?:goto|start)\s*:\s*[\"']?[\w\-]*$"), ("node",)),
    (re.compile(r"(?:^|[\s{,])end\s*:\s*[\"']?[\w\-]*$"), ("ending",)),
    (re.compile(r"(?:^|[\s{,])(?:give|take)\s*:.*$"), ("item",)),
    (re.compile(r"(?:^|[\s{,])(?:speaker)\s*:\s*[\"']?[\w\-]*$"), ("character",)),
    (re.compile(r"(?:^|[\s{,])(?:into)\s*:\s*[\"']?[\w\-]*$"), ("variable",)),
]
_EXPR_CTX = re.compile(
    r"(?:^|[\s{,-])(?:" + "|".join(sorted(EXPR_KEYS)) + r")\s*:\s*(?P<q>[\"']?)(?P<src>.*)$"
)


def completions(idx: Index, line_text: str, col: int) -> list[tuple[str, str, str]]:
    """(label, kind, detail) for the cursor at ``col`` of ``line_text``: ids after goto/end/
    give/take/speaker, variables and hook names in an expression, ids and skill names in a
    quoted argument, every id elsewhere."""
    before = line_text[:col]
    for rx, kinds in _CTX_IDS:
        if rx.search(before):
            if kinds == ("ending",):
                return [(i, "node", idx.titles.get(("node", i), "")) for i in sorted(idx.endings)]
            return [(i, k, idx.titles.get((k, i), "")) for k in kinds for i in idx.ids(k)]
    m = _EXPR_CTX.search(before)
    if m is not None:
        src = m.group("src")
        quotes = src.count("'") - src.count("\\'")
        if m.group("q") != "'" and quotes % 2 == 1:  # inside a quoted argument
            out: list[tuple[str, str, str]] = []
            if _skill_call(idx.rules).search(src):
                out += [(s, "skill", note) for s, note in skills(idx.rules)]
            out += [
                (i, k, idx.titles.get((k, i), ""))
                for k in ("item", "node", "character")
                for i in idx.ids(k)
            ]
            return out
        out = [(v, "variable", "") for v in idx.ids("variable")]
        out += [
            (name, "hook", f"{name}({', '.join(h.args)})")
            for name, h in sorted(hooks(idx.rules).items())
        ]
        return out
    return [(i, k, idx.titles.get((k, i), "")) for k in KINDS for i in idx.ids(k)]


def hook_name_at(line_text: str, col: int) -> str | None:
    """The dotted name under the cursor (``mysys.check`` in ``mysys.check('目星')``)."""
    for m in re.finditer(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*", line_text):
        if m.start() <= col <= m.end():
            return m.group(0)
    return None
