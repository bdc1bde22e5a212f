"""A hook's argument names (Hook.args) are what inspect.signature gives, for every hook of every
installed rule system and for the shapes a third-party hook may take (runner.rules.base reads
a plain function's names from its code object, and the signature for anything else)."""

from __future__ import annotations

import functools
import inspect
from typing import Any

import pytest

from runner import rules
from runner.rules.base import RuleSystem, _arg_names


def _signature_names(fn: Any) -> tuple[str, ...]:
    return tuple(inspect.signature(fn).parameters)[1:]


@pytest.mark.parametrize("name", [n for n in rules.names() if rules.system(n).hooks])
def test_every_registered_hook(name: str) -> None:
    system = rules.system(name)
    for hook in system.hooks.values():
        assert hook.args == _signature_names(hook.fn), hook.name


def _plain(ctx, a, b=1, *, c, d=2): ...  # type: ignore[no-untyped-def]
def _star(ctx, a, *rest, k=0, **more): ...  # type: ignore[no-untyped-def]
def _kw_only(ctx, *, who): ...  # type: ignore[no-untyped-def]
def _posonly(ctx, a, /, b): ...  # type: ignore[no-untyped-def]
def _none(ctx): ...  # type: ignore[no-untyped-def]
def _locals(ctx, a):  # type: ignore[no-untyped-def]
    x = a  # a local after the arguments is not one of them
    return x


def _wrapped(ctx, hidden):  # type: ignore[no-untyped-def]
    return hidden


@functools.wraps(_plain)
def _wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
    return _plain(*args, **kwargs)


class _Holder:
    def method(self, ctx, a): ...  # type: ignore[no-untyped-def]


@pytest.mark.parametrize(
    "fn",
    [
        _plain,
        _star,
        _kw_only,
        _posonly,
        _none,
        _locals,
        _wrapper,
        functools.partial(_plain, a=1),
        _Holder().method,
        lambda ctx, x, y=3: None,
    ],
)
def test_shapes(fn: Any) -> None:
    assert _arg_names(fn) == _signature_names(fn)


def test_registration_uses_them() -> None:
    toy = RuleSystem("toy_args")

    @toy.hook()
    def roll_(ctx: Any, target: int, *, bonus: int = 0) -> None: ...

    assert toy.hooks["roll"].args == ("target", "bonus")
