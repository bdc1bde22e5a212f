"""Fuzzes `katari play STORY --jsonl` the way a hostile bot would, for as long as you like.

    python3 benchmarks/fuzz_jsonl.py [--minutes 5] [--seed 1] [--story ID ...] [--json]

Each session is the real subprocess under a memory cap (``RLIMIT_AS``), fed one line at a
time: actions from the last prompt (so games go deep), random text, random ``:dice`` lines,
random rule commands (``@time_passed inf``, deep JSON for ``@carry``, ...), game master
overrides (half the sessions run with ``--gm``), over-long lines and random bytes (invalid
UTF-8, NUL, escapes). Every line must be answered by valid UTF-8 JSON lines, exactly one
``state`` and one ``prompt`` or ``ending``, within a time bound, with no ``internal`` error;
the session must exit cleanly with nothing on stderr; its memory must not grow. A session
ends after an ending (plus a few lines sent to the ended game) or ``--lines`` lines.

The figures (lines fuzzed, sessions, endings reached, errors by code, the largest memory
growth, the slowest answer) go to docs/security.md. tests/test_jsonl_fuzz.py runs the same
driver with hypothesis and a bounded example count in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import select
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MEM_CAP = 5 << 29
"""2.5 GiB of address space per session: a session maps about 1.5 GiB (threads' stacks and
arenas) and holds about 180 MB; a runaway allocation hits the cap and shows as a failure."""
ANSWER_TIMEOUT = 60.0
"""Seconds to answer one line (generous for a loaded machine; a hang waits for ever)."""
GROWTH_LIMIT_KB = 64 * 1024
"""Resident memory a long session may gain after its first lines."""
QUIET_ENOUGH = ("WARNING: NJDNode_set_acc() in njd_node.c",)
"""Lines a third-party library writes to stderr by itself (Open JTalk's reader, turning a
random line into kana for matching): noise, not a failure. Anything else on stderr is."""


class FuzzFailure(AssertionError):
    """What the fuzzer found: the message says what, the session's lines say how."""


# ---------------------------------------------------------------- picking


class Pick:
    """Random choices from ``random.Random``; tests/test_jsonl_fuzz.py gives hypothesis's."""

    def __init__(self, rnd: random.Random) -> None:
        self.rnd = rnd

    def choice(self, seq):  # noqa: ANN001, ANN201
        return seq[self.rnd.randrange(len(seq))]

    def integer(self, lo: int, hi: int) -> int:
        return self.rnd.randint(lo, hi)

    def chance(self, p: float) -> bool:
        return self.rnd.random() < p

    def text(self, max_size: int) -> str:
        n = self.rnd.randint(0, max_size)
        pools = (
            range(0x20, 0x7F),
            range(0x3040, 0x30FF),
            range(0x4E00, 0x4FFF),
            range(0xFF01, 0xFF5E),
            range(0x00, 0x20),
            range(0x80, 0x250),
            range(0x1F300, 0x1F5FF),
        )
        out = []
        for _ in range(n):
            pool = pools[self.rnd.randrange(len(pools))]
            out.append(chr(self.rnd.choice(pool)))
        return "".join(out)

    def raw(self, max_size: int) -> bytes:
        return bytes(self.rnd.randrange(256) for _ in range(self.rnd.randint(1, max_size))).replace(
            b"\n", b""
        )


@dataclass
class StoryInfo:
    """What a fuzzer may name in a story: its rule commands, variables, items, nodes, PCs."""

    id: str
    rules: str
    meta: list[str]
    variables: list[str]
    items: list[str]
    nodes: list[str]
    characters: list[str]

    @classmethod
    def of(cls, path: Path) -> StoryInfo:
        from runner.rules import system
        from runner.story import load

        s = load(path)
        return cls(
            s.id,
            s.rules,
            sorted(system(s.rules).meta_commands),
            sorted(s.variables),
            sorted(s.items),
            sorted(s.nodes),
            sorted(getattr(s, "characters", {}) or {}),
        )


NUMBERS = [
    "0",
    "1",
    "5",
    "30",
    "59",
    "600",
    "1780",
    "1800",
    "86400",
    "12.5",
    "0.001",
    "-1",
    "-0",
    "1e3",
    "1e400",
    "-1e400",
    "inf",
    "-inf",
    "nan",
    "NaN",
    "Infinity",
    "9" * 30,
    "9" * 5000,
    "0x10",
    "１２",
    "٣",
    "1_000",
    "+5",
    ".5",
    "5.",
    "1e-400",
    "4294967296",
    "18446744073709551616",
]
WORDS = [
    "pc",
    "pc2",
    "@pc",
    "@pc2",
    "Strength",
    "Inspiration",
    "Littleness",
    "閃き",
    "○身軽 ×低身長",
    "",
    "x" * 300,
    "\x00",
    "\x1b[2J",
    "\u202e",
    "'",
    '"',
    "\\",
    "..",
    "/etc/passwd",
]


def _json_arg(p: Pick) -> str:
    depth = p.choice([1, 2, 3, 8, 9, 64, 3000])
    kind = p.choice(["deep", "carry", "junk", "big", "nan"])
    if kind == "deep":
        return "[" * depth + "]" * depth if p.chance(0.5) else '{"a":' * depth + "1" + "}" * depth
    if kind == "carry":
        good = p.choice(["閃き", "身軽", "強力", "空を飛ぶ", 5, None])
        bad = p.choice(["平凡", "低身長", "ひ弱", "", [], None])
        name = p.choice(["あなた", "x" * p.choice([1, 300, 5000]), 1, None])
        return json.dumps(
            {p.choice(["pc", "pc2", "", "x" * 50]): {"good": good, "bad": bad, "name": name}},
            ensure_ascii=False,
            separators=(",", ":"),
        ).replace(" ", "\\u0020")
    if kind == "big":
        return '{"pc":{"good":"閃き","bad":"平凡","n":' + "9" * p.choice([10, 4000, 5000]) + "}}"
    if kind == "nan":
        return (
            '{"pc":{"good":"閃き","bad":"平凡","n":'
            + p.choice(["NaN", "Infinity", "-Infinity", "1e400"])
            + "}}"
        )
    return p.choice(["{", "}", "[1,", "nope", "{}", "[]", "null", '"x"', "{'a':1}"])


SOAK_KINDS = ["text"] * 3 + ["distinct"] * 4 + ["dice", "rule", "bytes", "long", "word"]


def make_line(
    p: Pick, info: StoryInfo, prompt: list[dict], gm: bool, *, soak: bool = False
) -> bytes:
    """One input line (without its newline). ``soak``: lines that leave the game where it is
    (no actions, no overrides, no clock reports), mostly distinct and long, to see whether
    memory grows with what a session has been sent."""
    if soak:
        kind = p.choice(SOAK_KINDS)
        if kind == "distinct":
            n = p.integer(1000, 5000)
            return (str(p.integer(0, 1 << 60)) + p.text(20).replace("\n", " ") + "あ" * n).encode(
                "utf-8", "surrogatepass"
            )
        if kind == "rule":
            name = p.choice(["nosuch", "x" * 50, "sheet", "describe", "hint"])
            return f"@{name} {p.choice(WORDS[:9])} {p.text(30).replace(chr(10), ' ')}".encode(
                "utf-8", "surrogatepass"
            )
    else:
        kind = p.choice(
            ["action"] * 7
            + ["text"] * 2
            + ["dice"] * 2
            + ["rule"] * 4
            + ["gm"] * 2
            + ["bytes", "long", "word"]
        )
    if kind == "action" and prompt:
        a = p.choice(prompt)
        how = p.choice(["n", "id", "label", "label"])
        line = str(a["n"]) if how == "n" else a["id"] if how == "id" else a["label"]
        if p.chance(0.1):
            line = p.choice(
                [line.upper(), " " + line + " ", line + "\r", line[: max(1, len(line) // 2)]]
            )
        return line.encode()
    if kind == "dice" or (kind == "action" and not prompt):
        faces = [
            p.choice(
                ["1", "3", "6", "9", "10", "0", "100", "1000", "1001", "-1", "x", "9" * 40, "１"]
            )
            for _ in range(p.integer(0, 6))
        ]
        sep = p.choice([",", " ", ", "])
        return (":dice" + (" " + sep.join(faces) if faces or p.chance(0.5) else "")).encode()
    if kind == "rule":
        name = p.choice(
            info.meta + ["nosuch", "", "time_passed", "carry", "tick", "sheet", "x" * 100]
        )
        if name == "carry" or p.chance(0.1):
            args = _json_arg(p)
        else:
            args = " ".join(p.choice(NUMBERS + WORDS) for _ in range(p.integer(0, 3)))
        return f"@{name} {args}".rstrip(" " if p.chance(0.5) else "").encode(
            "utf-8", "surrogatepass"
        )
    if kind == "gm":
        verb = p.choice(["set", "clock", "damage", "force", "give", "take", "goto", "nosuch"])
        values = NUMBERS + WORDS + ["true", "1+1", '"s"', "1+" * 600 + "1"]
        arg = {
            "set": lambda: f"{p.choice(info.variables or ['x'])} {p.choice(values)}",
            "clock": lambda: p.choice(
                ["+30", "+1e400", "13:00", "99:99", "-5", "+" + "9" * 40, "1h", "inf"]
            ),
            "damage": lambda: (
                f"{p.choice(info.characters + ['pc', 'x'])} {p.choice(NUMBERS)} {p.choice(['HP', 'SAN', 'MP', 'x', ''])}"
            ),
            "force": lambda: p.choice(
                ["success", "failure", "critical", "fumble", "hard", "ほげ", ""]
            ),
            "give": lambda: p.choice(info.items + ["x"]),
            "take": lambda: p.choice(info.items + ["x"]),
            "goto": lambda: p.choice(info.nodes + ["x"]),
            "nosuch": lambda: "",
        }[verb]()
        return f"!{verb} {arg}".encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return p.choice(
            [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x1b[31m", b"\r", b"\xef\xbb\xbf1", b""]
        ) + p.raw(40)
    if kind == "long":
        return ("x" * p.choice([100, 5000, 16384, 16385, 40000])).encode()
    if kind == "word":
        words = [
            "help",
            "undo",
            "look",
            "inventory",
            "save",
            "quit",
            "/quit",
            "status",
            "sheet",
            "x 本棚",
            "?",
            "-1",
            "1.5",
            " ",
        ]
        return p.choice(words if soak else words + ["g", "again", "0", "99", "１", "①"]).encode()
    return p.text(60).replace("\n", " ").encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------- the session


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM_CAP, MEM_CAP))


def _strict(line: bytes) -> dict:
    def no(c: str) -> None:
        raise ValueError(f"{c} is not JSON")

    ev = json.loads(line.decode("utf-8"), parse_constant=no)
    if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
        raise ValueError("not an event object")
    return ev


@dataclass
class Session:
    """One `katari play STORY --jsonl` subprocess under a memory cap."""

    story: Path
    seed: int = 0
    gm: bool = False
    home: str = ""
    lines: list[bytes] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    samples: dict = field(default_factory=dict)
    slowest: float = 0.0
    ended: bool = False
    prompt: list[dict] = field(default_factory=list)
    _stderr: str = ""

    def __post_init__(self) -> None:
        self._err = tempfile.TemporaryFile()
        env = {**os.environ, "KATARI_HOME": self.home or tempfile.mkdtemp(prefix="katari-fuzz-")}
        cmd = [
            sys.executable,
            "-m",
            "runner",
            "play",
            str(self.story),
            "--jsonl",
            "--seed",
            str(self.seed),
        ]
        self.proc = subprocess.Popen(
            cmd + (["--gm"] if self.gm else []),
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            preexec_fn=_cap,
        )
        self._buf = b""
        try:
            self.first = self.read_turn("(the start)")
        except BaseException:
            self.kill()
            raise

    def fail(self, why: str) -> FuzzFailure:
        tail = b"\n".join(self.lines[-8:]).decode("utf-8", "backslashreplace")[-1500:]
        return FuzzFailure(
            f"{self.story.name} seed {self.seed}{' --gm' if self.gm else ''}: {why}\n"
            f"after {len(self.lines)} lines; the last ones:\n{tail}\nstderr: {self.stderr()[-1500:]}"
        )

    def stderr(self) -> str:
        if self._err.closed:
            return self._stderr
        self._err.seek(0)
        return self._err.read().decode("utf-8", "replace")

    def _line(self, deadline: float) -> bytes:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self.fail(f"no answer within {ANSWER_TIMEOUT:.0f} s (a hang)")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    raise self.fail(
                        f"the session ended (exit {self.proc.wait()}) without answering"
                    )
                self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def read_turn(self, sent: str) -> list[dict]:
        t0 = time.monotonic()
        deadline = t0 + ANSWER_TIMEOUT
        turn: list[dict] = []
        while True:
            raw = self._line(deadline)
            try:
                ev = _strict(raw)
            except ValueError as e:
                raise self.fail(f"a line that is not UTF-8 JSON ({e}): {raw[:200]!r}") from None
            turn.append(ev)
            if ev["type"] in ("prompt", "ending"):
                break
        self.slowest = max(self.slowest, time.monotonic() - t0)
        kinds = [e["type"] for e in turn]
        if kinds.count("state") != 1 or len(kinds) < 2 or kinds[-2] != "state":
            raise self.fail(
                f"the answer to {sent!r} is not one state then one prompt/ending: {kinds}"
            )
        for e in turn:
            if e["type"] == "error":
                self.errors[e.get("code", "-")] += 1
                self.samples.setdefault(e.get("code", "-"), (sent[:60], e.get("message", "")[:120]))
                if e.get("code") == "internal":
                    raise self.fail(f"an internal error: {e}")
        if kinds[-1] == "ending":
            self.ended = True
            self.prompt = []
        else:
            self.prompt = turn[-1].get("actions") or []
        return turn

    def send(self, line: bytes) -> list[dict]:
        self.lines.append(line)
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise self.fail(f"the session closed its input (exit {self.proc.wait()})") from None
        return self.read_turn(line[:80].decode("utf-8", "backslashreplace"))

    def rss_kb(self) -> int:
        try:
            for row in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if row.startswith("VmRSS:"):
                    return int(row.split()[1])
        except OSError:
            pass
        return 0

    def close(self) -> None:
        """End of input: the session must exit 0 with no further output and nothing on stderr."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.proc.stdin = None  # closed: communicate() must not flush it
        try:
            rest, _ = self.proc.communicate(timeout=ANSWER_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise self.fail("did not exit at the end of its input") from None
        rest = self._buf + rest
        err = self._stderr = self.stderr()
        self._err.close()
        noise = [x for x in err.splitlines() if x.strip() and not x.startswith(QUIET_ENOUGH)]
        if self.proc.returncode != 0 or noise:
            raise self.fail(f"exit {self.proc.returncode}, stderr {err[-1500:]!r}")
        if rest.strip():
            raise self.fail(f"output nobody asked for: {rest[:300]!r}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def run_session(
    p: Pick,
    story: Path,
    info: StoryInfo,
    *,
    seed: int,
    gm: bool,
    max_lines: int,
    home: str = "",
    check_growth: bool = False,
    soak: bool = False,
) -> dict:
    """Fuzzes one session; returns its figures or raises :class:`FuzzFailure`. ``soak``:
    lines that leave the game where it is (see :func:`make_line`), for the growth check,
    which compares the resident memory after 300 lines with the end."""
    s = Session(story, seed=seed, gm=gm, home=home)
    try:
        base = 0
        after_end = 0
        for i in range(max_lines):
            if i == 300:
                base = s.rss_kb()
            s.send(make_line(p, info, s.prompt, gm, soak=soak))
            if s.ended:
                after_end += 1
                if after_end > 3:
                    break
        growth = s.rss_kb() - base if base else 0
        if check_growth and base and growth > GROWTH_LIMIT_KB:
            raise s.fail(f"resident memory grew by {growth // 1024} MB over {len(s.lines)} lines")
        s.close()
    except BaseException:
        s.kill()
        raise
    return {
        "lines": len(s.lines),
        "ended": s.ended,
        "errors": s.errors,
        "growth_kb": growth,
        "slowest": s.slowest,
        "samples": s.samples,
    }


def shipped_stories() -> list[Path]:
    from runner.stories import shipped

    return list(shipped())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0, help="how long to fuzz (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--lines", type=int, default=3000, help="most lines in one session (default 3000)"
    )
    ap.add_argument("--story", action="append", help="a story id (default: every shipped story)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    stories = [
        s
        for s in shipped_stories()
        if not args.story or s.name in args.story or s.stem in args.story
    ]
    infos = {s: StoryInfo.of(s) for s in stories}
    rnd = random.Random(args.seed)
    p = Pick(rnd)
    home = tempfile.mkdtemp(prefix="katari-fuzz-")
    end = time.monotonic() + args.minutes * 60
    total: Counter = Counter()
    errors: Counter = Counter()
    samples: dict = {}
    growth = slowest = 0.0
    per_story: Counter = Counter()
    t0 = time.monotonic()
    failures = []
    while time.monotonic() < end:
        story = p.choice(stories)
        seed = rnd.randrange(1 << 31)
        gm = p.chance(0.5)
        soak = total["sessions"] % 8 == 7  # now and then a long session, for the growth check
        try:
            r = run_session(
                p,
                story,
                infos[story],
                seed=seed,
                gm=gm,
                max_lines=args.lines,
                home=home,
                check_growth=True,
                soak=soak,
            )
        except FuzzFailure as e:
            failures.append(str(e))
            print(f"FAILURE\n{e}", file=sys.stderr)
            total["sessions"] += 1
            continue
        total["sessions"] += 1
        total["lines"] += r["lines"]
        total["endings"] += r["ended"]
        total["soak_sessions"] += soak
        per_story[infos[story].id] += r["lines"]
        errors.update(r["errors"])
        for k, v in r["samples"].items():
            samples.setdefault(k, v)
        growth = max(growth, r["growth_kb"])
        slowest = max(slowest, r["slowest"])
    secs = time.monotonic() - t0
    out = {
        "minutes": round(secs / 60, 1),
        "sessions": total["sessions"],
        "soak_sessions": total["soak_sessions"],
        "lines": total["lines"],
        "lines_per_s": round(total["lines"] / secs, 1),
        "endings": total["endings"],
        "per_story": dict(per_story),
        "errors_by_code": dict(errors.most_common()),
        "max_rss_growth_mb": round(growth / 1024, 1),
        "slowest_answer_s": round(slowest, 3),
        "memory_cap_gib": MEM_CAP / (1 << 30),
        "failures": len(failures),
        "an_error_of_each_code": {k: f"{a!r} -> {m}" for k, (a, m) in sorted(samples.items())},
    }
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        for k, v in out.items():
            print(f"{k:>18}: {v}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
