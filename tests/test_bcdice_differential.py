"""Katari's dice against BCDice itself (#16).

BCDice ported to JavaScript (the npm package ``bcdice``, installed by ``.ci/install dev`` into
``.ci/node``) rolls a few thousand random commands across the grammar players type (sums with
* / and rounding, keep/drop, D66, C(...), choice, repeats, secret S, comments, CC, CBR, FAR,
the tables, the 6th edition's CCB/RES/CBRB) and reports the dice it rolled. The same dice are
handed to Katari's :func:`runner.rules.coc7.bcdice.bcdice`, which must ask for the same dice
(same sides, same order, all of them) and print the same text, with the same total and the
same verdict (success, failure, critical, fumble) and secrecy. The tables' entries are our
own words, so for BMR/BMS/PH/MA/FCL/FCM the entry's text is left out of the comparison (its
number and the bout's length are compared). Skipped when node or the package is absent.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from runner.rules.coc7.bcdice import bcdice

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / ".ci" / "node"
N_COMMANDS = int(__import__("os").environ.get("KATARI_BCDICE_N", "2400"))

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (NODE_DIR / "node_modules" / "bcdice").is_dir(),
    reason="node or the npm package bcdice is not installed (bash .ci/install dev installs it)",
)


# ---------------------------------------------------------------- the grammar, at random

SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100, 66)
WORDS = ("目星", "【聞き耳】", "〈図書館〉", "ダメージ", "test", "《回避》")


def _dice(r: random.Random) -> str:
    n = r.choice(("", "1", "2", "3", str(r.randint(1, 12))))
    s = r.choice(SIDES)
    d = r.choice("dD")
    filt = ""
    if n and n != "1" and r.random() < 0.25:
        filt = r.choice(("KH", "KL", "DH", "DL", "kh", "dl")) + str(r.randint(1, int(n) + 1))
    elif n and r.random() < 0.05:
        filt = r.choice(("MAX", "MIN", "max"))
    if s == 66 and not n:
        n = "1"
    return f"{n}{d}{s}{filt}"


def _term(r: random.Random, depth: int) -> str:
    x = r.random()
    if depth < 2 and x < 0.15:
        return f"({_sum(r, depth + 1)})"
    if x < 0.45:
        return str(r.randint(0, 20))
    return _dice(r)


def _positive(r: random.Random) -> str:
    """A divisor that cannot be zero."""
    return (
        str(r.randint(1, 6))
        if r.random() < 0.7
        else _dice(r).split("K")[0].split("D")[0] + f"D{r.choice((4, 6, 10))}"
    )


def _product(r: random.Random, depth: int) -> str:
    out = ("-" if r.random() < 0.08 else "") + _term(r, depth)
    for _ in range(r.choice((0, 0, 1, 1, 2))):
        if r.random() < 0.5:
            out += "*" + _term(r, depth)
        else:
            out += "/" + _positive(r) + r.choice(("", "", "U", "R", "F", "C", "u"))
    return out


def _sum(r: random.Random, depth: int = 0) -> str:
    out = _product(r, depth)
    for _ in range(r.choice((0, 1, 1, 2, 3))):
        out += r.choice("+-") + ("-" if r.random() < 0.05 else "") + _product(r, depth)
    return out


def add_dice(r: random.Random) -> str:
    while True:
        s = _sum(r)
        if (
            re.search(r"\d*[dD]\d", s)
            and sum(int(m) if m else 1 for m in re.findall(r"(\d*)[dD]\d", s)) <= 60
        ):
            break
    if r.random() < 0.35:
        op = r.choice(("<=", ">=", "<", ">", "=", "<>", "!=", "==", "=<", "=>"))
        target = r.choice((str(r.randint(1, 40)), "?", f"{r.randint(1, 30)}+{r.randint(1, 9)}"))
        s += op + target
    return s


def calc(r: random.Random) -> str:
    def expr(depth: int) -> str:
        parts = [str(r.randint(0, 30)) if depth > 1 or r.random() < 0.7 else f"({expr(depth + 1)})"]
        for _ in range(r.choice((0, 1, 2))):
            op = r.choice("+-*/")
            rhs = str(r.randint(1, 9)) if op == "/" else str(r.randint(0, 9))
            parts.append(op + ("-" if r.random() < 0.1 and op != "/" else "") + rhs)
            if op == "/":
                parts[-1] += r.choice(("", "", "U", "R", "F", "C"))
        return "".join(parts)

    return r.choice(("C", "c")) + f"({expr(0)})"


def choice(r: random.Random) -> str:
    items = r.sample(["a", "b", "c", "d", "探索", "逃げる", "x y", "1", "2", "10"], r.randint(2, 6))
    takes = r.choice(("", "", "", "2", "3"))
    kind = r.random()
    if kind < 0.1:
        return f"choice{takes}[{r.choice(('A-D', '1-6', 'b-f', '3-8'))}]"
    if kind < 0.45:
        return f"choice{takes}[{', '.join(items)}]" + (
            " " + r.choice(WORDS) if r.random() < 0.3 else ""
        )
    if kind < 0.75:
        return f"choice{takes}({','.join(items)})"
    return f"choice{takes} " + " ".join(i.replace(" ", "") for i in items)


def cc(r: random.Random) -> str:
    bonus = r.choice(
        ("", "", "", "(1)", "(-1)", "(+2)", "(-2)", "1", "-1", "+1", "(0)", "(3)", "(-101)")
    )
    target = r.choice(
        (
            "",
            f"<={r.randint(1, 99)}",
            f"<={r.randint(1, 99)}",
            f"<={r.randint(1, 120)}",
            f"<={r.randint(1, 99)}{r.choice('rhecRHEC')}",
            "<=0",
        )
    )
    return f"CC{bonus}{target}"


def far(r: random.Random) -> str:
    args = [
        str(r.choice((r.randint(1, 40), r.randint(90, 120), 0))),
        str(r.randint(1, 95)),
        str(r.choice((r.randint(90, 100), r.randint(30, 99), -98))),
    ]
    if r.random() < 0.6:
        args.append(r.choice(("", str(r.randint(-3, 2)))))
        if r.random() < 0.5:
            args.append(r.choice(("", "r", "h", "e", "R", "H")))
            if r.random() < 0.5:
                args.append(r.choice(("", str(r.randint(-1, 12)))))
    return f"{r.choice(('FAR', 'far', 'FaR'))}({','.join(args)})"


def sixth(r: random.Random) -> str:
    k = r.random()
    if k < 0.5:
        broken = r.choice(("", "", f"({r.randint(90, 99)})", f"{r.randint(80, 99)}"))
        return f"CCB{broken}" + r.choice(
            (
                "",
                f"<={r.randint(1, 99)}",
                f"<={r.randint(1, 99)}",
                f"<={r.randint(1, 20)}*5",
                f"<={r.randint(10, 60)}+{r.randint(1, 30)}",
            )
        )
    if k < 0.8:
        return f"{r.choice(('RESB', 'RES', 'resb'))}({r.randint(1, 20)}-{r.randint(1, 20)})"
    return f"CBRB({r.randint(1, 99)},{r.randint(1, 99)})"


def one(r: random.Random) -> tuple[str, str]:
    """(BCDice system, command)."""
    k = r.random()
    if k < 0.34:
        cmd, system = add_dice(r), "Cthulhu7th"
    elif k < 0.40:
        cmd, system = r.choice(("D66", "d66", "D66A", "D66D", "D66N", "D66S")), "Cthulhu7th"
    elif k < 0.46:
        cmd, system = calc(r), "Cthulhu7th"
    elif k < 0.54:
        cmd, system = choice(r), "Cthulhu7th"
    elif k < 0.72:
        cmd, system = cc(r), "Cthulhu7th"
    elif k < 0.76:
        cmd, system = f"CBR({r.randint(1, 99)},{r.randint(1, 99)})", "Cthulhu7th"
    elif k < 0.80:
        cmd, system = far(r), "Cthulhu7th"
    elif k < 0.86:
        cmd, system = r.choice(("BMR", "BMS", "PH", "MA", "FCL", "FCM", "bmr", "ph")), "Cthulhu7th"
    else:
        cmd, system = sixth(r), "Cthulhu"
    if r.random() < 0.12 and not cmd.lower().startswith("choice"):
        cmd = ("S" if r.random() < 0.5 else "s") + cmd
    if r.random() < 0.2 and not cmd.lower().startswith("choice"):
        cmd += " " + r.choice(WORDS)
    return system, cmd


def commands(n: int, seed: int = 16) -> list[tuple[str, str]]:
    r = random.Random(seed)
    out: list[tuple[str, str]] = []
    while len(out) < n:
        system, cmd = one(r)
        if r.random() < 0.1 and not cmd.startswith(("S", "s")):
            times = r.choice((1, 2, 3, 5, 0, 101))
            cmd = f"{r.choice(('x', 'rep', 'repeat', 'X'))}{times} {cmd}"
            if r.random() < 0.1:
                cmd = "S" + cmd
        out.append((system, cmd))
    # a few that must be refused alike
    out += [
        ("Cthulhu7th", c)
        for c in (
            "x2 x3 1d6",
            "CBR(1)",
            "CCX<=50",
            "hello",
            "1d6/",
            "choice[a]",
            "choice",
            "D6KH",
            "3D6DL",
            "C()",
            "FAR(1,2)",
            "D66X",
            "2D6<=?1",
        )
    ]
    return out


# ---------------------------------------------------------------- the comparison


class BCDiceDice:
    """Hands Katari the dice BCDice rolled and checks each is asked for with BCDice's sides."""

    def __init__(self, rands: list[list[int]], command: str) -> None:
        self.rands, self.used, self.command = rands, 0, command

    def face(self, sides: int) -> int:
        assert self.used < len(self.rands), f"{self.command!r}: Katari rolls more dice than BCDice"
        value, want = self.rands[self.used]
        assert sides == want, (
            f"{self.command!r}: die {self.used} is a d{sides}, BCDice rolled a d{want}"
        )
        self.used += 1
        return value


_TABLE = re.compile(r"^(.+?\(\d+\)) ＞ .*?(\(1D10＞\d+(?:ラウンド|時間)\))?$", re.S)


def _tables_as_numbers(text: str) -> str:
    """A table's line with its entry's words left out (ours are our own)."""
    return "\n".join(
        _TABLE.sub(r"\1 ＞ …\2", line)
        if _TABLE.match(line) and "表" in line or "狂気の発作" in line
        else line
        for line in text.split("\n")
    )


def _flags(res) -> dict:  # noqa: ANN001
    f = {k: bool(res.flags.get(k)) for k in ("success", "failure", "critical", "fumble")}
    return f


@pytest.fixture(scope="module")
def bcdice_results() -> list[tuple[str, str, dict]]:
    cmds = commands(N_COMMANDS)
    req = "".join(
        json.dumps({"system": s, "command": c}, ensure_ascii=False) + "\n" for s, c in cmds
    )
    run = subprocess.run(
        ["node", str(NODE_DIR / "bcdice_rolls.js")],
        input=req,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    outs = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(outs) == len(cmds)
    return [(s, c, o) for (s, c), o in zip(cmds, outs, strict=True)]


def test_at_least_2000_commands_across_the_grammar(bcdice_results) -> None:  # noqa: ANN001
    assert len(bcdice_results) >= 2000
    read = [c for _, c, o in bcdice_results if not o.get("none") and not o.get("error")]
    assert len(read) >= 2000
    kinds = {
        "CC": 0,
        "CBR": 0,
        "FAR": 0,
        "choice": 0,
        "D66": 0,
        "C(": 0,
        "x": 0,
        "CCB": 0,
        "RES": 0,
        "KH": 0,
        "/": 0,
        "PH": 0,
    }
    for c in read:
        for k in kinds:
            if k.lower() in c.lower():
                kinds[k] += 1
    assert all(v >= 20 for v in kinds.values()), kinds


def test_katari_says_what_bcdice_says_for_the_same_dice(bcdice_results) -> None:  # noqa: ANN001
    problems: list[str] = []
    for _system, cmd, want in bcdice_results:
        if want.get("error"):
            continue  # (BCDice itself failed on it: nothing to compare)
        dice = BCDiceDice(want.get("rands") or [], cmd)
        try:
            got = bcdice(cmd, dice)
        except AssertionError as e:
            problems.append(str(e))
            continue
        if want.get("none"):
            if got is not None:
                problems.append(f"{cmd!r}: BCDice reads no command, Katari says {got.text!r}")
            continue
        if got is None:
            problems.append(f"{cmd!r}: Katari reads no command, BCDice says {want['text']!r}")
            continue
        # (JavaScript's negative zero: the port prints -0.0 where Ruby's BCDice prints 0)
        w_text = _tables_as_numbers(re.sub(r"(?<![\d.])-0\.0(?![\d])", "0", want["text"]))
        g_text = _tables_as_numbers(got.text)
        if w_text != g_text:
            problems.append(f"{cmd!r}:\n  BCDice {want['text']!r}\n  Katari {got.text!r}")
            continue
        if dice.used != len(want.get("rands") or []):
            problems.append(
                f"{cmd!r}: Katari used {dice.used} of BCDice's {len(want['rands'])} dice"
            )
        if bool(want.get("secret")) != got.secret:
            problems.append(f"{cmd!r}: secret {want.get('secret')} / {got.secret}")
        w_flags = {k: bool(want.get(k)) for k in ("success", "failure", "critical", "fumble")}
        if w_flags != _flags(got):
            problems.append(f"{cmd!r}: verdict BCDice {w_flags}, Katari {_flags(got)}")
        if got.total is not None and got.parts is None and not got.error:
            segs = [s.strip() for s in re.split(r"＞|\n", got.text)]
            if (
                str(got.total) not in segs
                and f"{got.total}[" not in got.text
                and not cmd.upper().lstrip("S").startswith(("CBR", "BM", "PH", "MA", "FC", "C("))
            ):
                problems.append(f"{cmd!r}: total {got.total} is not BCDice's {want['text']!r}")
    assert not problems, f"{len(problems)} differences, the first:\n" + "\n".join(problems[:15])
