"""A condition compiled as one generated function (runner/engine/evaluate.py) gives what the
tree of closures gives: the same value of the same type, or the same error with the same
message, on random conditions over random states (missing variables, values of the wrong
type, named conditions, hook calls, arithmetic)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from runner.engine.evaluate import EvalError, HookFailure, closures, compile_expr
from runner.story.expr import parse

VARS = ["a", "b", "c", "flag", "word", "gone"]
"""``gone`` is never set: reading it is an unknown variable."""
CONDITIONS_SRC = {"rich": "a >= 3 and not flag", "odd": "b % 2 == 1 or word == 'x'"}
CONDITIONS = {k: parse(v) for k, v in CONDITIONS_SRC.items()}


def _value(rng: random.Random) -> Any:
    return rng.choice([0, 1, 2, 3, -1, 10**18, 2.5, True, False, "", "x", "abc", None])


def _atom(rng: random.Random, depth: int) -> str:
    r = rng.random()
    if r < 0.35:
        return rng.choice(VARS + ["rich", "odd"])
    if r < 0.55:
        return rng.choice(["0", "1", "3", "-2", "'x'", "''", "true", "false", "2.5"])
    if r < 0.65:
        return rng.choice(["has('key')", "count('key')", "clock()", "min(a, 2)"])
    if r < 0.75 and depth < 4:
        return f"({_expr(rng, depth + 1)}) + {_atom(rng, depth + 1)}"
    if depth < 4:
        return f"({_expr(rng, depth + 1)})"
    return rng.choice(VARS)


def _expr(rng: random.Random, depth: int = 0) -> str:
    r = rng.random()
    if r < 0.2:
        return "not " + _atom(rng, depth)
    if r < 0.45:
        ops = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        out = f"{_atom(rng, depth)} {ops} {_atom(rng, depth)}"
        if rng.random() < 0.3:
            out += f" {rng.choice(['<', '<=', '=='])} {_atom(rng, depth)}"
        return out
    if r < 0.8:
        joiner = rng.choice([" and ", " or "])
        return joiner.join(_atom(rng, depth) for _ in range(rng.randint(2, 5)))
    return _atom(rng, depth)


def _ctx(rng: random.Random) -> SimpleNamespace:
    vs = {v: _value(rng) for v in VARS if v != "gone" and rng.random() < 0.9}
    state = SimpleNamespace(
        vars=vs, inventory={"key": 1} if rng.random() < 0.5 else {}, clock=rng.randint(0, 99)
    )
    return SimpleNamespace(state=state, story=None, own=lambda: None)


def _outcome(fn: Any, ctx: Any) -> tuple[str, Any]:
    try:
        v = fn(ctx)
    except (EvalError, HookFailure) as e:
        return (type(e).__name__, str(e))
    return (type(v).__name__, v)


@pytest.mark.parametrize("seed", range(8))
def test_generated_conditions_agree_with_closures(seed: int) -> None:
    rng = random.Random(seed)
    generated = 0
    for _ in range(400):
        src = _expr(rng)
        try:
            node = parse(src)
        except Exception:
            continue
        try:
            ref = closures(node, "none", CONDITIONS)
        except EvalError:
            continue
        fn = compile_expr(node, "none", CONDITIONS)
        generated += fn.__name__ == "condition"
        for _ in range(6):
            ctx = _ctx(rng)
            assert _outcome(fn, ctx) == _outcome(ref, ctx), (src, ctx.state)
    assert generated > 200  # the property is about the generated functions


def test_a_condition_is_one_function_and_reads_no_text_as_code() -> None:
    """`light and (lit_at < 0 or sdiff != 'regular')`: one Python function; a variable named
    like code stays a dictionary key, a literal like code stays a constant."""
    fn = compile_expr(parse("light and (lit_at < 0 or sdiff != 'regular')"), "none")
    assert fn.__name__ == "condition"
    ctx = SimpleNamespace(state=SimpleNamespace(vars={"light": 1, "lit_at": 5, "sdiff": "hard"}))
    assert fn(ctx) is True
    ctx.state.vars["sdiff"] = "regular"
    assert fn(ctx) is False
    sneaky = compile_expr(parse('w == \'__import__("os").system("x")\' or not w'), "none")
    ctx = SimpleNamespace(state=SimpleNamespace(vars={"w": "__import__('os')"}))
    assert sneaky(ctx) is False


def test_deep_conditions_work_as_closures_do() -> None:
    """Named conditions nest past the parser's bound of 40: a tree 300 deep still gives what
    the closures give (the generated function, or the closures where Python cannot compile it)."""
    node: tuple[Any, ...] = ("var", "a")
    for i in range(300):
        node = ("not", node) if i % 2 else ("and", ("var", "b"), node)
    fn, ref = compile_expr(node, "none"), closures(node, "none")
    for vs in ({"a": 0, "b": 1}, {"a": 1, "b": 1}, {"a": 1, "b": 0}, {"b": 1}):
        ctx = SimpleNamespace(state=SimpleNamespace(vars=vs))
        assert _outcome(fn, ctx) == _outcome(ref, ctx)
