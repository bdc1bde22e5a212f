"""``katari check`` reports a hook called without a required argument (K014), keyword-only or
positional, as it reports too many: ``badsig.level()`` for ``def level(ctx, *, who)`` passed
check and failed in play (as a check: story_error; in a ``when:``, the action vanished)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from runner.cli import main

STORY = """story: {{id: t, title: T, language: en, rules: badsig, start: a}}
nodes:
  a:
    narration: [hi]
    actions:
      - {{label: go, when: "{expr}", end: out}}
endings: {{out: {{kind: good}}}}
"""


@pytest.fixture(autouse=True)
def badsig(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule system ``badsig`` in the registry, as an entry point would install it."""
    import runner.rules as registry
    from runner.rules.base import RuleSystem

    rs = RuleSystem("badsig", "signatures")

    @rs.hook(pure=True)
    def level(ctx: Any, *, who: str) -> int:
        return 1

    @rs.hook(pure=True)
    def many(ctx: Any, first: str, *rest: str) -> int:
        return 1

    @rs.hook(pure=True)
    def pair(ctx: Any, a: str, b: str = "", *, mode: str = "x") -> int:
        return 1

    found = dict(registry._found())
    found["badsig"] = SimpleNamespace(name="badsig", value="t:badsig", load=lambda: rs, dist=None)
    monkeypatch.setattr(registry, "_entries", found)
    monkeypatch.setitem(registry._loaded, "badsig", rs)


def _check(tmp_path: Path, expr: str) -> tuple[int, str]:
    p = tmp_path / "s.yaml"
    p.write_text(STORY.format(expr=expr), encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = main(["check", str(p), "--no-voice"])
    return code, out.getvalue()


@pytest.mark.parametrize(
    "expr,message",
    [
        (
            "badsig.level() > 0",
            "badsig.level() needs the argument 'who'; write badsig.level(…, who=…)",
        ),
        ("badsig.level(who='x', whom='y') > 0", "badsig.level() has no argument 'whom'"),
        ("badsig.level('x') > 0", "badsig.level() takes 0 argument(s), got 1"),
        ("badsig.many() > 0", "badsig.many() takes at least 1 argument(s), got 0"),
        ("badsig.pair() > 0", "badsig.pair() takes 1 to 2 argument(s), got 0"),
        ("badsig.pair('a', 'b', 'c') > 0", "badsig.pair() takes 1 to 2 argument(s), got 3"),
    ],
)
def test_a_call_that_would_fail_in_play_is_k014(tmp_path: Path, expr: str, message: str) -> None:
    code, out = _check(tmp_path, expr)
    assert code == 1, out
    assert f"s.yaml:6:28: {message}" in out, out
    assert "[K014]" in out


@pytest.mark.parametrize(
    "expr",
    [
        "badsig.level(who='x') > 0",
        "badsig.many('a') > 0",
        "badsig.many('a', 'b', 'c') > 0",
        "badsig.pair('a') > 0",
        "badsig.pair(a='a', mode='y') > 0",
        "badsig.pair('a', 'b', mode='y') > 0",
    ],
)
def test_a_call_that_fits_is_not_reported(tmp_path: Path, expr: str) -> None:
    code, out = _check(tmp_path, expr)
    assert code == 0, out
    assert "K014" not in out
