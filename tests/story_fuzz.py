"""Random damage to shipped stories: `katari check` and a short `katari play --jsonl` on each.

    python tests/story_fuzz.py [--examples N] [--seed S]

Hypothesis takes a shipped story's YAML text and mutates it at random: stray bytes, alias
bombs, deep nesting, huge and non-finite numbers, YAML tags, control characters, lines
doubled or dropped. Each result is checked and played through the real command line
(``runner.cli.main``, in this process). A traceback, a line of ``check`` that is neither a
located problem nor a summary, or a line of ``play --jsonl`` that is not strict JSON fails
the run; a hang is the caller's timeout, and memory the caller's RLIMIT_AS
(tests/test_hostile_fuzz.py runs this under both, with a bounded number of examples).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOURCES = [
    ROOT / "stories" / "ureg_window_room" / "story.yaml",
    ROOT / "stories" / "ureg_glass_greenhouse" / "story.yaml",
    ROOT / "stories" / "dungeon_2f" / "story.yaml",
    ROOT / "stories" / "deep_sea_atelier" / "room.yaml",
    ROOT / "stories" / "deep_sea_atelier" / "story.yaml",
]
LOCATED = re.compile(r"^.+?:\d+:\d+: .+$")
SUMMARY = re.compile(r"^.+: (ok \(.+\)|\d+ error\(s\))$")

MUTATION = st.one_of(
    st.tuples(st.just("bytes"), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("bomb"), st.integers(2, 12), st.integers(2, 12)),
    st.tuples(
        st.just("deep"), st.sampled_from(["[", "{a: ", "- ", "\n  x:"]), st.integers(20, 30_000)
    ),
    st.tuples(
        st.just("number"),
        st.sampled_from(
            [
                "9" * 30,
                "9" * 5000,
                "1e400",
                "-.inf",
                ".nan",
                "0x" + "f" * 5000,
                "1000000000000000001",
                "-0",
                "1_000",
                "1e18",
                "0o777",
            ]
        ),
    ),
    st.tuples(
        st.just("tag"),
        st.sampled_from(
            [
                "!!set ",
                "!!binary ",
                "!!timestamp ",
                "!foo ",
                "!!merge ",
                "!!python/object:os.system ",
                "!!int ",
                "!!float ",
                "!!str ",
                "!!map ",
                "!!seq ",
                "!!bool ",
                "!!null ",
                "!<tag:x> ",
            ]
        ),
    ),
    st.tuples(
        st.just("control"),
        st.sampled_from(
            [
                "\x1b[2J",
                "\\e]0;x\\a",
                "\x00",
                "\\x9b",
                "\r",
                "\x7f",
                "\\u001b",
                "\x85",
                "\u2028",
                "\ufeff",
            ]
        ),
    ),
    st.tuples(st.just("alias"), st.sampled_from(["*a", "&a ", "&a [*a]", "*nope", "<<: *a"])),
    st.tuples(st.just("line"), st.sampled_from(["dup", "del"])),
)


def mutate(text: bytes, mutation: tuple, where: int) -> bytes:
    kind = mutation[0]
    n = len(text)
    i = where % (n + 1)
    lines = text.split(b"\n")
    li = where % len(lines)
    value_at = [m.end() for m in re.finditer(rb": ", text)] or [i]
    v = value_at[where % len(value_at)]
    if kind == "bytes":
        return text[:i] + mutation[1] + text[i:]
    if kind == "bomb":
        levels, width = mutation[1], mutation[2]
        indent = re.match(rb" *", lines[li]).group()
        out = [indent + b"l0: &a0 [" + b",".join([b"lol"] * width) + b"]"]
        for k in range(1, levels):
            out.append(
                indent
                + f"l{k}: &a{k} [".encode()
                + b",".join([f"*a{k - 1}".encode()] * width)
                + b"]"
            )
        return b"\n".join(lines[:li] + out + lines[li:])
    if kind == "deep":
        opener, depth = mutation[1], mutation[2]
        closer = {"[": "]", "{a: ": "}"}.get(opener, "")
        return text[:v] + (opener * depth + "x" + closer * depth).encode() + text[v:]
    if kind == "number":
        digits = list(re.finditer(rb"\b[0-9]+\b", text))
        if not digits:
            return text[:v] + mutation[1].encode() + text[v:]
        m = digits[where % len(digits)]
        return text[: m.start()] + mutation[1].encode() + text[m.end() :]
    if kind in ("tag", "alias"):
        return text[:v] + mutation[1].encode() + text[v:]
    if kind == "control":
        return text[:i] + mutation[1].encode() + text[i:]
    if kind == "line":
        if mutation[1] == "dup":
            return b"\n".join(lines[: li + 1] + lines[li:])
        return b"\n".join(lines[:li] + lines[li + 1 :])
    raise AssertionError(kind)


def cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    from runner.cli import main

    # Text streams over bytes, as a terminal or a pipe gives (play --jsonl reads and writes
    # the bytes underneath).
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", write_through=True)
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
            out.flush()
            err.flush()
    finally:
        sys.stdin = old
    return rc, out_b.getvalue().decode("utf-8"), err_b.getvalue().decode("utf-8")


def _no_constant(c: str) -> None:
    raise ValueError(f"non-JSON constant {c}")


def check_one(story: Path) -> None:
    rc, out, err = cli(["check", "--no-voice", str(story)])
    assert rc in (0, 1), (rc, out, err)
    for line in out.splitlines():
        assert LOCATED.match(line) or SUMMARY.match(line), f"check printed {line!r}"
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", line), (
            f"check printed a control character: {line!r}"
        )
    rc, out, err = cli(["play", "--jsonl", str(story)], stdin="1\n2\nlook\n")
    assert rc in (0, 1), (rc, out, err)
    events = [json.loads(line, parse_constant=_no_constant) for line in out.splitlines()]
    if rc == 1:
        # A story that cannot be played is said in error events, for a bot (docs/jsonl.md),
        # and in words on stderr, for a person.
        assert events and all(
            e["type"] == "error" and e["code"] in ("bad_story", "no_story") for e in events
        ), out
        assert err.strip(), "play refused the story without saying why"


def run(examples: int, seed: int | None = None) -> None:
    work = Path(tempfile.mkdtemp(prefix="katari-story-fuzz-"))
    os.environ["KATARI_HOME"] = str(work / "home")

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        src=st.sampled_from(SOURCES),
        mutations=st.lists(st.tuples(MUTATION, st.integers(0, 10**9)), min_size=1, max_size=3),
    )
    def one(src: Path, mutations: list) -> None:
        d = work / "s"
        if d.exists():
            shutil.rmtree(d)
        shutil.copytree(src.parent, d, ignore=shutil.ignore_patterns("tests"))
        target = d / src.name
        text = target.read_bytes()
        for m, where in mutations:
            text = mutate(text, m, where)
        target.write_bytes(text)
        check_one(d if src.parent.name == "deep_sea_atelier" else target)

    try:
        if seed is not None:
            from hypothesis import seed as hseed

            hseed(seed)(one)()
        else:
            one()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--examples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=None, help="a random seed (default: derandomized)")
    args = ap.parse_args()
    run(args.examples, args.seed)
    print(
        f"story fuzz: {args.examples} mutated stories checked and played, no traceback, no non-JSON line"
    )


if __name__ == "__main__":
    main()
