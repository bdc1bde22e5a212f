"""Stories from strangers (#20, items 1-8): every attack is refused in one located line, in
bounded time and memory, by every command that reads a story; nothing hangs or tracebacks.

Each hostile file is made in tmp_path by the test. Commands run as a user runs them (a
subprocess) under an address-space cap (RLIMIT_AS), so a regression fails with a
MemoryError instead of eating the machine, and under a timeout, so a hang fails too.
"""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEM = 512 * 1024 * 1024
"""Address space a command may use (a normal check or play needs under 300 MB)."""
LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<msg>.+)$")

pytestmark = pytest.mark.timeout(600)


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM, MEM))


def katari(
    *args: str, home: Path, stdin: str = "", timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    e = dict(os.environ, KATARI_HOME=str(home), LANG="C.UTF-8", **(env or {}))
    e.pop("KATARI_STORIES", None)
    return subprocess.run(
        [sys.executable, "-m", "runner", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        preexec_fn=_cap,
        env=e,
    )


STORY = """story: {id: hostile, title: Hostile, language: en, rules: none, start: a}
nodes:
  a:
    narration: [Start.]
    actions:
      - {id: win, label: Win, end: w}
endings:
  w: {kind: good}
"""

COMMANDS = [
    ("check", "--no-voice"),
    ("play", "--jsonl"),
    ("graph", "-f", "dot"),
    ("simulate", "-n", "3"),
    ("test",),
]
"""Every command that reads a story."""


def refused(
    path: Path,
    fragment: str,
    home: Path,
    *,
    commands=COMMANDS,
    where: tuple[int, int] | None = None,
    name: str | None = None,
) -> None:
    """Every command refuses the story with a located line containing ``fragment``."""
    for cmd in commands:
        r = katari(cmd[0], str(path), *cmd[1:], home=home, stdin="1\n")
        both = r.stdout + r.stderr
        assert "Traceback" not in both and "Error:" not in both.replace("error(s)", ""), (
            cmd,
            both[-2000:],
        )
        assert r.returncode == 1, (cmd, r.returncode, both[-2000:])
        hits = [
            m for m in (LOCATED.match(ln) for ln in both.splitlines()) if m and fragment in m["msg"]
        ]
        assert hits, (cmd, fragment, both[-2000:])
        if name is not None:
            assert Path(hits[0]["path"]).name == name, hits[0].group(0)
        if where is not None:
            assert (int(hits[0]["line"]), int(hits[0]["col"])) == where, hits[0].group(0)
        if cmd[0] == "play":
            assert all(_json(ln) for ln in r.stdout.splitlines()), r.stdout[:2000]


def _json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def at(text: str, marker: str) -> tuple[int, int]:
    """The (line, column) where ``marker`` first appears in ``text``, both from 1."""
    i = text.index(marker)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


# ----------------------------------------------------------------- 1. alias bombs


def laughs(levels: int = 10, width: int = 10, indent: str = "      ") -> str:
    """A "billion laughs": each level an anchored list of ``width`` aliases of the last."""
    out = [f"{indent}l0: &a0 [{','.join(['lol'] * width)}]"]
    for i in range(1, levels):
        out.append(f"{indent}l{i}: &a{i} [{','.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(out) + "\n"


def test_a_billion_laughs_in_under_1kb_is_refused_by_every_command(
    tmp_path: Path, home: Path
) -> None:
    bomb = laughs()
    text = STORY.replace(
        "    narration: [Start.]\n", "    narration: [Start.]\n    props:\n" + bomb
    )
    assert len(text.encode()) < 1024 + len(STORY)
    assert len(bomb.encode()) < 1024
    p = write(tmp_path, text)
    refused(p, "aliases (*name) repeat more than 10,000 values", home, where=(9, 11))


def test_an_alias_bomb_in_a_play_test_file_is_refused(tmp_path: Path, home: Path) -> None:
    d = tmp_path / "st"
    (d / "tests").mkdir(parents=True)
    (d / "story.yaml").write_text(STORY, encoding="utf-8")
    (d / "tests" / "bomb.yaml").write_text("x:\n" + laughs(indent="  "), encoding="utf-8")
    r = katari("test", str(d), home=home)
    assert r.returncode == 1 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    assert (
        "bomb.yaml:5: aliases" in r.stdout and "aliases (*name) repeat more than 10,000" in r.stdout
    ), r.stdout


@pytest.mark.parametrize(
    "yaml_text,fragment",
    [
        ("      m0: &m0 {a: 1, b: 2}\n      m1: &m1 {!!merge <<: [*m0, *m0, *m0]}\n", "'!!merge'"),
        ("      deep: " + "[" * 150 + "]" * 150 + "\n", "nested more than 100 levels"),
        (
            "      deep:\n"
            + "".join("      " + "  " * i + f"k{i}:\n" for i in range(120))
            + "      "
            + "  " * 120
            + "x\n",
            "nested more than 100 levels",
        ),
    ],
)
def test_recursive_aliases_merge_keys_and_deep_nesting_are_refused(
    tmp_path: Path, home: Path, yaml_text: str, fragment: str
) -> None:
    text = STORY.replace(
        "    narration: [Start.]\n", "    narration: [Start.]\n    props:\n" + yaml_text
    )
    refused(write(tmp_path, text), fragment, home, commands=COMMANDS[:2])


def test_an_alias_inside_its_own_anchor_never_loops(tmp_path: Path, home: Path) -> None:
    from runner.story.yamlpos import Refused, load

    # The careful loader refuses it where it stands; yaml-rs reads the inner alias as null.
    with pytest.raises(Refused, match="an alias inside its own anchor"):
        load("loop: &l [1, *l]\n")
    text = STORY.replace(
        "    narration: [Start.]\n", "    narration: [Start.]\n    props:\n      loop: &l [1, *l]\n"
    )
    p = write(
        tmp_path,
        text.replace(
            "actions:\n      - {id: win",
            "actions:\n      - {id: wn, label: W, when: nope}\n      - {id: win",
        ),
    )
    # A story with another mistake is read again carefully, and the loop is shown too.
    refused(p, "an alias inside its own anchor", home, commands=COMMANDS[:2], where=(6, 18))


def test_deep_block_nesting_does_not_crash_the_fast_loader(tmp_path: Path, home: Path) -> None:
    # yaml-rs overflows its stack (a segfault) at ~20,000 nested "- " on one line.
    text = STORY.replace(
        "    narration: [Start.]\n",
        "    narration: [Start.]\n    props:\n      x:\n        " + "- " * 30_000 + "x\n",
    )
    refused(write(tmp_path, text), "", home, commands=COMMANDS[:2])


# ----------------------------------------------------------------- 2. files that are not files


def folder_story(tmp_path: Path) -> Path:
    d = tmp_path / "st"
    d.mkdir()
    (d / "story.yaml").write_text(STORY, encoding="utf-8")
    return d


def test_a_link_to_dev_zero_is_refused_without_reading_it(tmp_path: Path, home: Path) -> None:
    d = folder_story(tmp_path)
    (d / "zero.yaml").symlink_to("/dev/zero")
    refused(d, "not a regular file", home, name="zero.yaml", where=(1, 1))
    # the story named directly as a link to a device
    (tmp_path / "direct.yaml").symlink_to("/dev/zero")
    refused(tmp_path / "direct.yaml", "not a regular file", home, commands=COMMANDS[:2])


def test_a_fifo_is_refused_without_blocking(tmp_path: Path, home: Path) -> None:
    d = folder_story(tmp_path)
    os.mkfifo(d / "pipe.yaml")
    refused(d, "not a regular file", home, name="pipe.yaml")


def test_a_link_out_of_the_story_folder_is_not_read(tmp_path: Path, home: Path) -> None:
    d = folder_story(tmp_path)
    secret = tmp_path / "outside.yaml"
    secret.write_text("secret_key_one: 1\nsecret_key_two: [a, b]\n", encoding="utf-8")
    (d / "more.yaml").symlink_to(secret)
    for cmd in COMMANDS:
        r = katari(cmd[0], str(d), *cmd[1:], home=home, stdin="1\n")
        assert "secret_key" not in r.stdout + r.stderr, (cmd, r.stdout + r.stderr)
    refused(d, "outside the story folder", home, name="more.yaml")
    # a link that stays inside the folder is read as usual
    (d / "more.yaml").unlink()
    (d / "sub").mkdir()
    (d / "sub" / "real.yaml").write_text("variables: {x: 1}\n", encoding="utf-8")
    (d / "alias.yml").symlink_to(d / "sub" / "real.yaml")
    r = katari("check", str(d), "--no-voice", home=home)
    assert r.returncode == 1 and "variable 'x' is declared twice" in r.stdout, r.stdout


def test_a_file_that_grows_past_the_bound_is_refused(tmp_path: Path) -> None:
    from runner.story import source

    p = write(tmp_path, "x" * 5000)
    with pytest.raises(source.SourceError, match="larger than"):
        source.read_bytes(p, limit=4096)
    assert source.read_bytes(p, limit=5000) == b"x" * 5000


def _transcript(tmp_path: Path, home: Path, block: dict) -> Path:
    t = tmp_path / "t.md"
    t.write_text("# A game\n\n```katari-replay\n" + json.dumps(block) + "\n```\n", encoding="utf-8")
    return t


@pytest.mark.parametrize("story_id", ["hostile", "../../../dev/zero", "/dev/zero", "a\nb"])
def test_replay_never_loads_the_path_a_transcript_carries(
    tmp_path: Path, home: Path, story_id: str
) -> None:
    block = {
        "format": "katari-replay",
        "version": 1,
        "story": story_id,
        "story_path": "/dev/zero",
        "seed": 0,
        "commands": [],
        "state": None,
    }
    r = katari(
        "replay", str(_transcript(tmp_path, home, block)), "--lang", "en", home=home, timeout=30
    )
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "--story" in lines[0] and "not installed" in lines[0], r.stderr
    assert "Traceback" not in r.stdout + r.stderr and "\n" not in lines[0]


def test_replay_of_a_user_story_takes_the_path_the_user_gives(tmp_path: Path, home: Path) -> None:
    p = write(tmp_path, STORY)
    block = {
        "format": "katari-replay",
        "version": 1,
        "story": "hostile",
        "story_path": "/dev/zero",
        "seed": 0,
        "commands": [],
        "state": None,
    }
    r = katari(
        "replay",
        str(_transcript(tmp_path, home, block)),
        "--story",
        str(p),
        "--lang",
        "en",
        home=home,
    )
    assert r.returncode == 1 and "records no final state" in r.stdout, r.stdout + r.stderr


# ----------------------------------------------------------------- 3. expression depth


def test_a_999_term_sum_is_refused_where_it_stands(tmp_path: Path, home: Path) -> None:
    expr = "+".join(["1"] * 999)
    assert len(expr) < 2000
    text = STORY.replace(
        "{id: win, label: Win, end: w}", f'{{id: win, label: Win, when: "{expr}", end: w}}'
    )
    line, col = at(text, expr)
    # placed at the 40th "+", where the tree grows deeper than 40
    refused(
        write(tmp_path, text),
        "expression is nested more than 40 deep",
        home,
        commands=COMMANDS[:4],
        where=(line, col + 79),
    )


@pytest.mark.parametrize(
    "expr", ["1+1+1", "not not not x", "- - -x", "f(f(f(1)))", "a and b or c and d"]
)
def test_the_tree_bound_counts_every_kind_of_level(expr: str) -> None:
    from runner.story.expr import MAX_DEPTH, ExprError, parse

    def deep(n: int) -> str:
        return {
            "1+1+1": "+".join(["1"] * n),
            "not not not x": "not " * (n - 1) + "x",
            "- - -x": "- " * (n - 1) + "x",
            "f(f(f(1)))": "max(" * (n - 1) + "1" + ")" * (n - 1),
            "a and b or c and d": " and ".join(["x"] * n),
        }[expr]

    parse(deep(MAX_DEPTH))
    with pytest.raises(ExprError, match="nested more than"):
        parse(deep(MAX_DEPTH + 1))


# ----------------------------------------------------------------- 4. numbers


@pytest.mark.parametrize(
    "old,new,fragment,marker",
    [
        (
            "narration: [Start.]",
            "narration: [Start.]\n    props: {n: " + "9" * 5000 + "}",
            "not a whole number",
            "999",
        ),
        (
            "narration: [Start.]",
            "narration: [Start.]\n    props: {n: 0x" + "f" * 4000 + "}",
            "thousands of digits",
            "0x",
        ),
        (
            "narration: [Start.]",
            "narration: [Start.]\n    props: {n: 1e400}",
            "out of range (at most ±10^18)",
            "1e400",
        ),
        ("narration: [Start.]", "narration: [Start.]\n    props: {n: [.nan]}", "NaN", ".nan"),
        (
            "narration: [Start.]",
            "narration: [Start.]\n    props: {n: {m: -.inf}}",
            "out of range",
            "-.inf",
        ),
        (
            "narration: [Start.]",
            "narration: [Start.]\n    props: {n: 1000000000000000001}",
            "out of range",
            "1000",
        ),
        (
            "language: en,",
            "language: en, options: {time_limit_minutes: .inf},",
            "out of range",
            ".inf",
        ),
        (
            "end: w}",
            "end: w, cost: 99999999999999999999m}",
            "cost '99999999999999999999m' is out of range",
            "999",
        ),
        ("end: w}", "end: w, cost: " + "9" * 5000 + "m}", "is out of range", "999"),
        ("end: w}", "end: w, cost: ①m}", "cost '①m'", "①"),
        (
            "end: w}",
            "end: w, effects: [{give: {w2: 100000000000000000000}}]}",
            "count must be a whole number",
            "1000",
        ),
        (
            "end: w}",
            "end: w, effects: [{give: {w2: lots}}]}",
            "count must be a whole number",
            "lots",
        ),
        ("end: w}", "end: w, effects: [{advance: \"'ten'\"}]}", "advance", "\"'ten"),
        ("end: w}", "end: w, effects: [{advance: true}]}", "advance", "true"),
        ("end: w}", "end: w, effects: [{advance: 1e30}]}", "out of range", "1e30"),
        (
            "start: a}",
            "start: a}\nclock: {start: '10:00', limit: 99999999999999999999h}",
            "clock limit",
            "999",
        ),
        ("start: a}", "start: a}\nvariables: {x: .nan}", "NaN", ".nan"),
        ("start: a}", "start: a}\ncharacters: {c: {stats: {HP: 1e19}}}", "out of range", "1e19"),
    ],
)
def test_every_number_a_story_brings_is_checked_where_it_enters(
    tmp_path: Path, home: Path, old: str, new: str, fragment: str, marker: str
) -> None:
    text = STORY.replace(old, new, 1)
    if "w2" in new:
        text = text.replace("nodes:", "items: {w2: Widget}\nnodes:")
    refused(write(tmp_path, text), fragment, home, commands=COMMANDS[:2], where=at(text, marker))


def test_advance_by_a_text_variable_is_a_story_error_not_a_crash(
    tmp_path: Path, home: Path
) -> None:
    text = STORY.replace("start: a}", "start: a}\nvariables: {t: ten}").replace(
        "end: w}", "effects: [{advance: t}], end: w}"
    )
    p = write(tmp_path, text)
    r = katari("play", str(p), "--jsonl", home=home, stdin="1\n")
    assert "Traceback" not in r.stderr, r.stderr
    events = [json.loads(ln) for ln in r.stdout.splitlines()]
    errors = [e for e in events if e["type"] == "error"]
    assert errors and "advance needs minutes, not 'ten'" in errors[0]["message"], events


def test_state_events_are_strict_json(tmp_path: Path, home: Path) -> None:
    text = STORY.replace(
        "start: a}", "start: a}\nvariables: {x: {value: 1.5e18, visible: true}, y: 1e18}"
    )
    r = katari("play", str(write(tmp_path, text)), "--jsonl", home=home, stdin="")
    assert r.returncode == 1 and "out of range" in r.stderr, r.stderr
    text = STORY.replace(
        "start: a}",
        "start: a}\nvariables: {x: {value: 1e18, visible: true}, big: 1000000000000000000}",
    )
    r = katari("play", str(write(tmp_path, text)), "--jsonl", home=home, stdin="")
    assert r.returncode == 0 and r.stdout, r.stderr

    def refuse(c: str) -> None:
        raise AssertionError(f"non-JSON constant {c}")

    for ln in r.stdout.splitlines():
        json.loads(ln, parse_constant=refuse)


# ----------------------------------------------------------------- 5. YAML 1.2 core types only


def test_a_date_is_text_as_the_core_schema_says(tmp_path: Path, home: Path) -> None:
    text = STORY.replace(
        "start: a}", "start: a}\nvariables: {day: {value: 2024-01-01, visible: true}}"
    )
    r = katari("play", str(write(tmp_path, text)), "--jsonl", home=home, stdin="")
    assert r.returncode == 0, r.stdout + r.stderr
    state = next(
        json.loads(ln) for ln in r.stdout.splitlines() if json.loads(ln)["type"] == "state"
    )
    assert state["vars"]["day"] == "2024-01-01", state


@pytest.mark.parametrize(
    "value,tag",
    [
        ("!!set {a, b}", "!!set"),
        ("!!binary aGVsbG8=", "!!binary"),
        ("!!timestamp 2024-01-01", "!!timestamp"),
        ("!!omap [{a: 1}]", "!!omap"),
        ("!!python/object:os.system x", "!!python/object:os.system"),
        ("!local text", "!local"),
        ("!!int zz", "'zz' is not a whole number"),
        ("!!float one", "'one' is not a number"),
        ("!!bool maybe", "not true or false"),
    ],
)
def test_types_outside_the_core_schema_are_refused_where_they_stand(
    tmp_path: Path, home: Path, value: str, tag: str
) -> None:
    text = STORY.replace(
        "start: a}", "start: a}\nvariables: {x: {value: " + value + ", visible: true}}"
    )
    refused(write(tmp_path, text), tag, home, commands=COMMANDS[:2], where=at(text, value))


# ----------------------------------------------------------------- 6. events that re-trigger themselves


def test_a_start_that_advances_into_a_self_retriggering_event_is_a_story_error(
    tmp_path: Path, home: Path
) -> None:
    text = STORY.replace(
        "start: a}",
        "start: a}\nevents:\n  - {id: tick, at: 1, repeat: true, effects: [{advance: 1}]}",
    )
    text = text.replace("narration: [Start.]", "narration: [Start.]\n    on_enter: [{advance: 5}]")
    p = write(tmp_path, text)
    r = katari("play", str(p), "--jsonl", home=home, stdin="1\n")
    assert "Traceback" not in r.stderr and r.returncode == 0, r.stderr[-2000:]
    events = [json.loads(ln) for ln in r.stdout.splitlines()]
    assert any(e["type"] == "error" and "story error" in e["message"] for e in events), events
    assert events[-1]["type"] in ("prompt", "ending"), events[-1]
    r = katari("simulate", str(p), "-n", "3", "--json", home=home)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
    json.loads(r.stdout)


# ----------------------------------------------------------------- 7. injection into what Katari writes


@pytest.mark.parametrize(
    "narration,marker",
    [
        ('"You \\e[2J\\e[3Jwin"', "\\e[2J"),  # clear the screen
        ('"\\e]0;pwned\\a title"', "\\e]0"),  # OSC 0: the window title
        ('"\\e]52;c;cm0gLXJmIH4=\\a"', "\\e]52"),  # OSC 52: write the clipboard
        ('"\\x9b2J C1 CSI"', "\\x9b"),
        ('"\\rover"', "\\r"),
        ('"nul\\0"', "\\0"),
        ('"a\\u001bb"', "\\u001b"),
        ('"\x1b[2J literal"', "\x1b"),
    ],
)
def test_terminal_escapes_in_story_text_are_refused_where_they_stand(
    tmp_path: Path, home: Path, narration: str, marker: str
) -> None:
    text = STORY.replace("narration: [Start.]", "narration: [" + narration + "]")
    p = write(tmp_path, text)
    refused(p, "control character", home, where=at(text, marker))
    for cmd in COMMANDS:
        r = katari(cmd[0], str(p), *cmd[1:], home=home, stdin="1\n")
        assert not re.search(r"[\x1b\x9b\x07\r\x00]", r.stdout + r.stderr), (
            cmd,
            r.stdout + r.stderr,
        )


@pytest.mark.parametrize("field", ["title", "label", "key"])
def test_escapes_anywhere_in_a_story_are_refused(tmp_path: Path, home: Path, field: str) -> None:
    text = {
        "title": STORY.replace("title: Hostile", 'title: "Host\\e]0;x\\aile"'),
        "label": STORY.replace("label: Win", 'label: "W\\e[2Jin"'),
        "key": STORY.replace("  w: {kind: good}", '  "w\\e[2J": {kind: good}'),
    }[field]
    refused(write(tmp_path, text), "control character U+001B", home, commands=COMMANDS[:2])


def test_a_story_id_cannot_forge_a_transcript_replay_block(tmp_path: Path, home: Path) -> None:
    forged = 'x\\n```katari-replay\\n{\\"format\\": \\"katari-replay\\", \\"story\\": \\"deep_sea_atelier\\"}\\n```\\n'
    text = STORY.replace("id: hostile", f'id: "{forged}"')
    refused(
        write(tmp_path, text),
        "cannot be a story id",
        home,
        commands=COMMANDS[:2],
        where=at(text, '"x'),
    )


def test_node_titles_are_escaped_in_the_html_map(tmp_path: Path, home: Path) -> None:
    evil = "</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;"
    text = STORY.replace(
        "    narration: [Start.]", f"    title: '{evil}'\n    narration: ['{evil}']"
    )
    text = text.replace("title: Hostile", f"title: '{evil}'")
    p = write(tmp_path, text)
    for fmt in ("html", "svg", "mermaid"):  # (DOT is text for Graphviz, which escapes it)
        r = katari("graph", str(p), "-f", fmt, home=home)
        if r.returncode != 0:
            assert "graphviz is not installed" in r.stderr, r.stderr
            continue
        assert "<script>alert" not in r.stdout and "<img" not in r.stdout, fmt
        if fmt == "html":
            assert r.stdout.count("<script") == r.stdout.count("</script>"), (
                "a title closed a script element"
            )
            assert "&lt;/script&gt;" in r.stdout or "\\u003c/script\\u003e" in r.stdout


def test_replay_show_and_the_piped_console_write_no_escape_sequences(
    tmp_path: Path, home: Path
) -> None:
    # The commands of a transcript come from whoever wrote it.
    evil = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2Jwin"
    block = {
        "format": "katari-replay",
        "version": 1,
        "story": "hostile",
        "seed": 0,
        "commands": [{"command": evil}],
        "state": None,
    }
    p = write(tmp_path, STORY)
    r = katari(
        "replay",
        str(_transcript(tmp_path, home, block)),
        "--story",
        str(p),
        "--show",
        "--lang",
        "en",
        home=home,
    )
    assert "▶ win" in r.stdout or "▶ " in r.stdout, r.stdout + r.stderr
    assert not re.search(r"[\x1b\x07\x9b]", r.stdout + r.stderr), repr(r.stdout + r.stderr)
    # What a player pipes in is echoed back without its escapes.
    r = katari("play", str(p), "--lang", "en", home=home, stdin=evil + "\n")
    assert "Traceback" not in r.stderr, r.stderr
    assert not re.search(r"[\x1b\x07\x9b]", r.stdout), repr(r.stdout)


def test_printable_strips_whole_sequences_and_keeps_text() -> None:
    from runner.story.text import printable

    assert printable("a\x1b[2Jb") == "ab"
    assert printable("a\x1b]0;title\x07b") == "ab"
    assert printable("a\x1b]52;c;Zm9v\x1b\\b") == "ab"
    assert printable("a\x9b31mb\x9d8;;http://x\x9cc") == "abc"
    assert printable("行\tく\nよ\r\x00\x7f") == "行\tく\nよ"
    assert printable("plain 日本語 text") == "plain 日本語 text"


# ----------------------------------------------------------------- 8. the map


def _wide(tmp_path: Path, n: int = 20_000) -> Path:
    acts = "".join(f"      - {{id: go{i}, label: Go {i}, goto: b}}\n" for i in range(n))
    text = STORY.replace(
        "    actions:\n      - {id: win, label: Win, end: w}\n", "    actions:\n" + acts
    ).replace("endings:", "  b:\n    actions: [{id: win, label: Win, end: w}]\nendings:")
    return write(tmp_path, text)


def test_a_node_with_20000_actions_is_one_arrow_for_graphviz(tmp_path: Path, home: Path) -> None:
    import shutil

    p = _wide(tmp_path)
    r = katari("graph", str(p), "-f", "dot", home=home)
    assert r.returncode == 0 and "20000 moves" in r.stdout and r.stdout.count("->") < 10, r.stderr
    if shutil.which("dot") is None:
        pytest.skip("graphviz is not installed")
    r = katari("graph", str(p), "-f", "svg", home=home, timeout=120)
    assert r.returncode == 0 and "20000 moves" in r.stdout, r.stderr


FAKE_DOT = """#!{python}
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)   # a stubborn layout
with open(os.environ["FAKE_DOT_PID"], "w") as f:
    f.write(str(os.getpid()))
sys.stdin.buffer.read()
while True:
    time.sleep(0.2)
"""


def _fake_dot(tmp_path: Path) -> tuple[dict[str, str], Path]:
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    dot = bin_ / "dot"
    dot.write_text(FAKE_DOT.format(python=sys.executable), encoding="utf-8")
    dot.chmod(0o755)
    pid_file = tmp_path / "dot.pid"
    return {
        "PATH": f"{bin_}{os.pathsep}{os.environ.get('PATH', '')}",
        "FAKE_DOT_PID": str(pid_file),
    }, pid_file


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead
    except FileNotFoundError:
        return False


def _wait_for(cond, seconds: float = 20.0) -> bool:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return cond()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_layout_that_takes_too_long_is_stopped_and_reaped(tmp_path: Path, home: Path) -> None:
    env, pid_file = _fake_dot(tmp_path)
    p = write(tmp_path, STORY)
    r = katari("graph", str(p), "-f", "svg", "--timeout", "2", home=home, env=env, timeout=60)
    err = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(err) == 1 and "took longer than 2 s" in err[0], r.stderr
    assert "Traceback" not in r.stderr
    pid = int(pid_file.read_text())
    assert not _alive(pid), "dot was left running"
    # The HTML page falls back to a list of the boxes.
    r = katari("graph", str(p), "-f", "html", "--timeout", "2", home=home, env=env, timeout=60)
    assert (
        r.returncode == 0 and '<ul id="list">' in r.stdout and "took longer than 2 s" in r.stderr
    ), r.stderr
    assert not _alive(int(pid_file.read_text()))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_graphviz_does_not_outlive_a_killed_katari(tmp_path: Path, home: Path) -> None:
    import signal

    env, pid_file = _fake_dot(tmp_path)
    p = write(tmp_path, STORY)
    e = dict(os.environ, KATARI_HOME=str(home), **env)
    proc = subprocess.Popen(
        [sys.executable, "-m", "runner", "graph", str(p), "-f", "svg"],
        cwd=ROOT,
        env=e,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_cap,
    )
    pid = None
    try:
        assert _wait_for(lambda: pid_file.exists() and pid_file.read_text().strip() != ""), (
            "dot never started"
        )
        pid = int(pid_file.read_text())
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        assert _wait_for(lambda: not _alive(pid)), "dot outlived katari"
    finally:
        if proc.poll() is None:
            proc.kill()
        if pid is not None and _alive(pid):
            os.kill(pid, signal.SIGKILL)
