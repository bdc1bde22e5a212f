"""Compiles expression ASTs into functions of a hook context. The story's text is never run as
Python: a condition's generated function is written from its AST (names as dictionary keys,
literals as constants), see ``_one_function``."""

from __future__ import annotations

import ast
import operator
import sys
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, cast

from runner.rules import find_hook
from runner.rules.base import Hook, RuleError
from runner.rules.dice import DiceError

MAX_ABS = 10**18
MAX_STR = 10_000

Fn = Callable[[Any], Any]


class EvalError(ValueError):
    """An expression that cannot be computed at run time (a story bug, reported, never raised to the player)."""


class HookFailure(Exception):
    """A rule system's hook failed on its own (a ``KeyError``, an ``AttributeError`` in its
    code): a bug in the rule system, not in the story. The command does not run; front ends
    say in one line which hook failed and how, and show the traceback (``error``'s) only
    when asked (``KATARI_DEBUG=1``).

    With ``system``, ``hook`` is one of that rule system's own functions (``init``,
    ``after_command``, ``view``, ``offer``...), not a hook a story calls."""

    def __init__(self, hook: str, error: BaseException, system: str = "") -> None:
        super().__init__(
            f"rule system {system!r}: {hook} failed ({type(error).__name__}: {error})"
            if system
            else f"{hook}() raised {type(error).__name__}: {error}"
        )
        self.hook = hook
        self.error = error
        self.system = system

    def __reduce__(self) -> tuple[Any, ...]:  # from a simulate worker to the parent
        return (HookFailure, (self.hook, self.error, self.system))


_HOOK_ERRORS = (
    RuleError,
    TypeError,
    ValueError,
    LookupError,
    AttributeError,
    ArithmeticError,
    NameError,
    AssertionError,
)
"""What a hook call turns into a story error (``RuleError``, ``ValueError``, the story's
wrong arguments) or a :class:`HookFailure` (the rest)."""


def _num(v: Any) -> Any:
    if type(v) is int:
        if -MAX_ABS <= v <= MAX_ABS:
            return v
        raise EvalError("number too large")
    if type(v) is float:
        if v != v or abs(v) > MAX_ABS:
            raise EvalError("number too large or not a number")
        return v
    if type(v) is str and len(v) > MAX_STR:
        raise EvalError("text too long")
    return v


def _div(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError("division by zero")
    r = a / b
    return (
        int(r)
        if isinstance(r, float) and r.is_integer() and isinstance(a, int) and isinstance(b, int)
        else r
    )


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError("division by zero")
    return a // b


def _mod(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError("division by zero")
    return a % b


def _add(a: Any, b: Any) -> Any:
    if type(a) is str or type(b) is str:
        return str(a) + str(b)
    return a + b


_BIN = {"+": _add, "-": operator.sub, "*": operator.mul, "/": _div, "//": _floordiv, "%": _mod}
_CMP: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def shares_state(hook: Hook) -> bool:
    """True for hooks audited never to write ``state.stats`` or ``state.rules``: every core
    hook, and the pure hooks of every rule system (tests/test_engine_purity_soak.py freezes
    the state and calls each of them). They may run while the working state still shares
    those with the previous state; any other hook first makes the engine copy them
    (``Ctx.own``)."""
    return hook.pure or hook.name.startswith("core.")


def _owning(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        ctx.own()
        return fn(ctx, *args, **kwargs)

    return call


_CALL_SITE = (__file__, sys.modules[RuleError.__module__].__file__)  # evaluate.py, rules/base.py


def _hook_error(name: str, e: Exception) -> Exception:
    """A hook's failure as the story error the player sees (an EvalError passes through), or,
    when the hook's own code broke (anything but ``RuleError``/``ValueError`` or arguments
    that do not fit its signature), a :class:`HookFailure` naming the hook."""
    if isinstance(e, (EvalError, HookFailure, DiceError)):
        return e  # (a table's face that its die cannot show is the table's, not the story's)
    if isinstance(e, ValueError) or (
        name.startswith("core.") and isinstance(e, (TypeError, KeyError))
    ):
        return EvalError(f"{name}(): {e}")
    if isinstance(e, TypeError):
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in _CALL_SITE:
            tb = tb.tb_next
        if tb is None:  # raised by the call itself: the story passed the wrong arguments
            return EvalError(f"{name}(): {e}")
    return HookFailure(name, e)


def compile_expr(
    node: tuple[Any, ...], rules: str, conditions: dict[str, tuple[Any, ...]] | None = None
) -> Fn:
    """Returns ``fn(ctx) -> value`` for an AST. ``conditions`` are the story's named
    conditions (``conditions: {rich: "coins >= 3"}``): a name among them stands for its
    expression, compiled in place.

    A condition of ``and``/``or``/``not``/comparisons becomes one Python function (see
    :func:`_one_function`); anything else, a tree of closures (:func:`closures`). Both give
    the same value and the same errors (tests/test_evaluate_generated.py)."""
    if node[0] in _LOGIC and not _one_closure(node, conditions) and not _has_attr(node, conditions):
        return _one_function(node, rules, conditions)
    return closures(node, rules, conditions)


def closures(
    node: tuple[Any, ...], rules: str, conditions: dict[str, tuple[Any, ...]] | None = None
) -> Fn:
    """:func:`compile_expr` as a tree of closures, one per node."""
    compile_expr = closures  # (the parts, as closures too)
    k = node[0]
    if k == "lit":
        v = node[1]
        return lambda ctx: v
    if k == "var" and conditions and node[1] in conditions:
        return compile_expr(conditions[node[1]], rules, conditions)
    if k == "attr":
        who, field = node[1], node[2]
        return lambda ctx: character_value(ctx, who, field)
    if k == "var":
        name = node[1]

        def var(ctx: Any) -> Any:
            try:
                return ctx.state.vars[name]
            except KeyError:
                raise EvalError(f"unknown variable {name!r}") from None

        return var
    if k == "neg":
        a = compile_expr(node[1], rules, conditions)

        def neg(ctx: Any) -> Any:
            v = a(ctx)
            if type(v) not in (int, float, bool):
                raise EvalError(f"cannot negate {v!r}")
            return -v

        return neg
    if k == "not":
        if node[1][0] == "var" and not (conditions and node[1][1] in conditions):
            # `not flag`: the commonest condition there is
            vname = node[1][1]

            def not_var(ctx: Any) -> bool:
                try:
                    return not ctx.state.vars[vname]
                except KeyError:
                    raise EvalError(f"unknown variable {vname!r}") from None

            return not_var
        a = compile_expr(node[1], rules, conditions)
        return lambda ctx: not a(ctx)
    if k in ("and", "or"):
        # Chains (a and b and c ...) become one loop rather than nested closures.
        parts: list[tuple[Any, ...]] = []

        def flatten(n: tuple[Any, ...]) -> None:
            if n[0] == k:
                flatten(n[1])
                flatten(n[2])
            elif n[0] == "var" and conditions and n[1] in conditions and conditions[n[1]][0] == k:
                flatten(conditions[n[1]])  # `my_turn and light`: one loop over all the parts
            else:
                parts.append(n)

        flatten(node)
        fs = tuple(compile_expr(x, rules, conditions) for x in parts)
        if len(fs) == 2:
            a, b = fs
            return (lambda ctx: a(ctx) and b(ctx)) if k == "and" else (lambda ctx: a(ctx) or b(ctx))
        if k == "and":

            def and_n(ctx: Any) -> Any:
                v: Any = True
                for f in fs:
                    v = f(ctx)
                    if not v:
                        return v
                return v

            return and_n

        def or_n(ctx: Any) -> Any:
            v: Any = False
            for f in fs:
                v = f(ctx)
                if v:
                    return v
            return v

        return or_n
    if k == "bin":
        op = _BIN[node[1]]
        sym = node[1]
        a, b = compile_expr(node[2], rules, conditions), compile_expr(node[3], rules, conditions)

        def binop(ctx: Any) -> Any:
            x, y = a(ctx), b(ctx)
            try:
                if sym == "*" and (type(x) is str or type(y) is str):
                    raise TypeError
                return _num(op(x, y))
            except TypeError:
                raise EvalError(f"cannot compute {x!r} {sym} {y!r}") from None

        return binop
    if k == "cmp":
        ops = [_CMP[o] for o in node[1]]
        fns = [compile_expr(x, rules, conditions) for x in node[2]]
        if (
            len(ops) == 1
            and node[2][0][0] == "var"
            and node[2][1][0] == "lit"
            and not (conditions and node[2][0][1] in conditions)
        ):
            # `hp > 0`, `fight_at == 'door'`: a variable against a constant.
            op0, vname, lit = ops[0], node[2][0][1], node[2][1][1]

            def cmp_var_lit(ctx: Any) -> bool:
                try:
                    return op0(ctx.state.vars[vname], lit)
                except KeyError:
                    raise EvalError(f"unknown variable {vname!r}") from None
                except TypeError:
                    raise EvalError("cannot compare those values") from None

            return cmp_var_lit
        if len(ops) == 1:
            op0, a, b = ops[0], fns[0], fns[1]

            def cmp1(ctx: Any) -> bool:
                try:
                    return op0(a(ctx), b(ctx))
                except TypeError:
                    raise EvalError("cannot compare those values") from None

            return cmp1

        def cmpn(ctx: Any) -> bool:
            left = fns[0](ctx)
            for op, p in zip(ops, fns[1:], strict=True):
                right = p(ctx)
                try:
                    if not op(left, right):
                        return False
                except TypeError:
                    raise EvalError("cannot compare those values") from None
                left = right
            return True

        return cmpn
    if k == "call":
        name, argn = node[1], node[2]
        hook = find_hook(name, rules)
        if hook is None:
            raise EvalError(f"unknown function {name!r}")
        fn = hook.fn if shares_state(hook) else _owning(hook.fn)
        args = [compile_expr(x, rules, conditions) for x in argn]
        kwargs = tuple((kw[0], compile_expr(kw[1], rules, conditions)) for kw in node[4])
        if kwargs:

            def call_kw(ctx: Any) -> Any:
                try:
                    return fn(ctx, *[a(ctx) for a in args], **{n: f(ctx) for n, f in kwargs})
                except _HOOK_ERRORS as e:
                    raise _hook_error(name, e) from e

            return call_kw
        if not args:

            def call0(ctx: Any) -> Any:
                try:
                    return fn(ctx)
                except _HOOK_ERRORS as e:
                    raise _hook_error(name, e) from e

            return call0
        if len(args) == 1 and argn[0][0] == "lit":
            lit = argn[0][1]

            def call_lit(ctx: Any) -> Any:
                try:
                    return fn(ctx, lit)
                except _HOOK_ERRORS as e:
                    raise _hook_error(name, e) from e

            return call_lit

        def call(ctx: Any) -> Any:
            try:
                return fn(ctx, *[a(ctx) for a in args])
            except _HOOK_ERRORS as e:
                raise _hook_error(name, e) from e

        return call
    raise EvalError(f"bad expression node {k!r}")  # pragma: no cover


# -- conditions as one function ------------------------------------------------
# `light and (lit_at < 0 or sdiff != 'regular')` is asked after every command; as closures it
# is five Python calls, as one generated function it is one. Only variables, literals,
# and/or/not and comparisons are written out; any other part (a hook call, arithmetic) stays
# its closure, called from the function. The function is built as a Python syntax tree from
# the story's parsed expression (names become dictionary keys, literals constants): no text
# of the story is parsed or run as Python.

_LOGIC = frozenset({"and", "or", "not", "cmp"})
_PY_CMP: dict[str, type[ast.cmpop]] = {
    "==": ast.Eq,
    "!=": ast.NotEq,
    "<": ast.Lt,
    "<=": ast.LtE,
    ">": ast.Gt,
    ">=": ast.GtE,
}


def _one_closure(node: tuple[Any, ...], conditions: dict[str, tuple[Any, ...]] | None) -> bool:
    """``not flag``, ``hp > 0``: conditions the closures already make one function of."""
    if conditions and any(
        n[0] == "var" and n[1] in conditions for n in node[1:] if type(n) is tuple
    ):
        return False
    if node[0] == "not":
        return bool(node[1][0] == "var")
    return (
        node[0] == "cmp"
        and len(node[1]) == 1
        and node[2][0][0] == "var"
        and node[2][1][0] == "lit"
        and not (conditions and node[2][0][1] in conditions)
    )


def _has_attr(node: Any, conditions: dict[str, tuple[Any, ...]] | None) -> bool:
    """Whether a ``pc.name``-style field is read anywhere in the condition (those stay
    closures: a field's lookup may raise what a comparison would turn into its own error)."""
    if type(node) is list:
        return any(_has_attr(x, conditions) for x in node)
    if type(node) is not tuple or not node:
        return False
    if node[0] == "attr":
        return True
    if node[0] == "var" and conditions and node[1] in conditions:
        return _has_attr(conditions[node[1]], conditions)
    return any(_has_attr(x, conditions) for x in node[1:])


def _one_function(
    node: tuple[Any, ...], rules: str, conditions: dict[str, tuple[Any, ...]] | None
) -> Fn:
    names: dict[str, Any] = {"EvalError": EvalError}  # the function's globals
    at = _AT

    def bound(value: Any) -> ast.expr:
        name = f"_{len(names)}"
        names[name] = value
        return ast.Name(name, ast.Load(), **at)

    def py(n: tuple[Any, ...]) -> ast.expr:
        k = n[0]
        if k == "lit":
            v = n[1]
            if type(v) in (str, int, bool) or v is None:
                return ast.Constant(v, None, **at)
            return bound(v)
        if k == "var":
            if conditions and n[1] in conditions:
                return py(conditions[n[1]])
            return ast.Subscript(_V, ast.Constant(n[1], None, **at), ast.Load(), **at)
        if k == "not":
            return ast.UnaryOp(ast.Not(), py(n[1]), **at)
        if k in ("and", "or"):
            op = ast.And() if k == "and" else ast.Or()
            return ast.BoolOp(op, [py(n[1]), py(n[2])], **at)
        if k == "cmp":
            parts = [py(x) for x in n[2]]
            return ast.Compare(parts[0], [_PY_CMP[o]() for o in n[1]], parts[1:], **at)
        return ast.Call(bound(closures(n, rules, conditions)), [_CTX], [], **at)

    try:
        code = compile(_function(py(node)), "<condition>", "exec")
    except (RecursionError, MemoryError, SyntaxError, ValueError):  # deeper than Python compiles
        return closures(node, rules, conditions)
    body = next(c for c in code.co_consts if isinstance(c, CodeType))
    return cast(Fn, FunctionType(body, names, "condition"))


_AT = {"lineno": 1, "col_offset": 0}
_V = ast.Name("V", ast.Load(), **_AT)
_CTX = ast.Name("ctx", ast.Load(), **_AT)
_TEMPLATE = ast.parse("""
def condition(ctx):
    V = ctx.state.vars
    try:
        return ...
    except KeyError as e:
        raise EvalError(f"unknown variable {e.args[0]!r}") from None
    except TypeError:
        raise EvalError("cannot compare those values") from None
""").body[0]
"""The generated function; ``...`` becomes the condition's expression."""


def _function(expr: ast.expr) -> ast.Module:
    """The template with ``expr`` in place of its ``...`` (the template's own parts are
    shared, never changed: compiling only reads them)."""
    fn = _TEMPLATE
    assert isinstance(fn, ast.FunctionDef)
    first, guarded = fn.body
    assert isinstance(guarded, ast.Try)
    tried = ast.Try([ast.Return(expr, **_AT)], guarded.handlers, [], [], **_AT)
    return ast.Module(
        [ast.FunctionDef(fn.name, fn.args, [first, tried], [], None, None, **_AT)], []
    )


def character_value(ctx: Any, who: str, field: str) -> Any:
    """``pc.name``, ``guard.HP``: a field of a character's sheet in the game (or of the
    story's character). ``pc`` is the rule system's active player character (its
    ``active_pc``), else the story's ``kind: pc`` character. Only data is looked up, never
    a Python attribute."""
    from runner.rules import system

    story = getattr(ctx, "story", None)
    if story is None:
        raise EvalError(f"{who}.{field}: no story to look it up in")
    cid = who
    if who == "pc":
        rs = system(story.rules)
        pick = getattr(rs, "active_pc", None)
        cid = ""
        if pick is not None:
            try:
                cid = pick(ctx) or ""
            except (RuleError, KeyError, ValueError) as e:
                raise EvalError(f"pc.{field}: {e}") from None
        if not cid:
            cid = next((c.id for c in story.characters.values() if c.kind == "pc"), "")
        if not cid:
            raise EvalError(f"pc.{field}: there is no player character yet")
    sheet = ctx.state.stats.get(cid)
    char = story.characters.get(cid)
    if isinstance(sheet, dict):
        if story.language != "ja" and isinstance(sheet.get(f"{field}_en"), str):
            return sheet[f"{field}_en"]  # a ready-made investigator's name in an English story
        v = sheet.get(field)
        if v is not None and not isinstance(v, (dict, list)):
            return v
        for sub in sheet.values():
            if isinstance(sub, dict) and field in sub and not isinstance(sub[field], (dict, list)):
                return sub[field]
    if char is not None:
        if field == "name":
            known = char.known_when is None or bool(ctx.eval(char.known_when))
            return char.name if known else (char.unknown_name or "???")
        if field in char.stats:
            return char.stats[field]
    if sheet is None and char is None:
        raise EvalError(f"{who}.{field}: no character {cid!r}")
    raise EvalError(f"{who}.{field}: {cid!r} has no {field!r}")
