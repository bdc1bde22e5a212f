"""`katari roll` with input that is not what it claims (#20 item 19): bounded at the door,
parentheses read in linear time, errors quoting a short prefix, never a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.rules.coc7.bcdice import _arith, preprocess

ROOT = Path(__file__).resolve().parents[1]


def roll(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "runner", "roll", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env={**os.environ, "KATARI_LANG": "en"},  # (its English lines; ja: test_roll_lang.py)
    )


def test_a_huge_expression_is_refused_at_once_quoting_a_prefix() -> None:
    nested = "CC" + "(" * 50000 + "1" + ")" * 50000  # 100 KB: 27 s before, and echoed whole
    t0 = time.perf_counter()
    p = roll(nested)
    assert time.perf_counter() - t0 < 10
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "too long to be dice (100003 characters; at most 1000)" in p.stderr
    assert len(p.stderr) < 200 and p.stdout == ""


def test_numbers_too_long_for_int_are_refused_without_a_traceback() -> None:
    for args in (
        ["CC" + "9" * 5000],
        ["1d" + "6" * 5000],
        ["1d6", "--dice", "9" * 5000],
        ["1d6", "--dice", ",".join(["1"] * 5000)],
    ):
        p = roll(*args)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr[-500:]
        assert len(p.stderr) < 200, p.stderr


def test_errors_quote_at_most_a_short_prefix() -> None:
    p = roll("1d6+" * 200 + "x")
    assert p.returncode == 2 and "cannot read dice expression '1d6+1d6" in p.stderr
    assert len(p.stderr) < 200, p.stderr


def _reference(cmd: str) -> str:
    """BCDice's way, as it was: the leftmost arithmetic group again and again (quadratic)."""
    paren = re.compile(r"\(([-+*/\d]+)\)")
    while True:
        m = paren.search(cmd)
        if not m:
            return cmd
        v = _arith(m.group(1))
        if v is None:
            return cmd
        s = str(v)
        if v >= 0 and m.start() > 0 and cmd[m.start() - 1].isalpha() and m.group(1)[0] == "+":
            s = "+" + s
        cmd = cmd[: m.start()] + s + cmd[m.end() :]


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="()()(+-*/0123456789CBRxh<=,١ ", max_size=24))
def test_preprocess_reads_parentheses_as_bcdice_does(text: str) -> None:
    assert preprocess(text) == _reference(text)
    assert preprocess("CC" + text) == _reference("CC" + text)


def test_preprocess_is_linear() -> None:
    def cost(n: int) -> float:
        text = "CC" + "(" * n + "+1" + ")" * n + "(2)" * n + "(x" * n
        t0 = time.perf_counter()
        preprocess(text)
        return time.perf_counter() - t0

    # 8x the text: about 8x the time (the old way took 64x; 10,000 nested pairs took seconds).
    small, big = min(cost(10000) for _ in range(3)), min(cost(80000) for _ in range(3))
    assert big < 10 and big < small * 8 * 3, (small, big)
