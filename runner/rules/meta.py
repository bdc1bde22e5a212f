"""Rule commands (``@name args``): one validator at the door for every rule system.

A rule system's own commands (``@time_passed 30``, ``@tick 5``, ``@carry {...}``,
``@sheet``) come from front ends, bots and, for a few, players. Each is declared with
:class:`MetaCommand`: what its arguments are and whether a player may type it at the
console. The engine reads every rule command's arguments through :meth:`MetaCommand.parse`
before the rule system sees them, so no rule system ever meets ``inf``, ``nan``, a
5,000-digit number, 50,000-deep JSON or a megabyte of text: each is one line saying what
is wrong, and nothing happens.

Argument kinds:

- ``seconds``: a number of seconds, 0 to :data:`MAX_SECONDS`, written ``30`` or ``30.5``
  (at most 3 decimals; no sign, exponent, ``inf`` or ``nan``);
- ``count``: a whole number between the argument's ``lo`` and ``hi``;
- ``word``: one word of at most :data:`MAX_WORD` characters;
- ``words``: the rest of the line as words (each at most :data:`MAX_WORD` characters);
- ``json``: the rest of the line as JSON, at most :data:`MAX_JSON` characters and
  :data:`MAX_DEPTH` levels deep, numbers finite.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.jsontext import brackets

MAX_LINE = 4096
"""Characters of a rule command's arguments."""
MAX_WORDS = 32
MAX_WORD = 256
MAX_SECONDS = 10**9
"""About 31 years: more than any real clock report, small enough to stay exact."""
MAX_JSON = 4096
MAX_DEPTH = 8

_SECONDS = re.compile(r"\d{1,10}(?:\.\d{1,3})?")
_COUNT = re.compile(r"-?\d{1,10}")

_MSG = {
    "ja": {
        "long": "引数が長すぎます（{n} 文字、{max} 文字まで）",
        "many": "引数が多すぎます（{n} 個、{max} 個まで）",
        "word": "引数が長すぎます（{n} 文字、{max} 文字まで）",
        "none": "引数はありません（{usage}）",
        "missing": "{arg} が必要です（{usage}）",
        "extra": "引数が多すぎます（{usage}）",
        "seconds": "{arg} は 0〜{max} の秒数で書いてください（例: 30、30.5）：{got}",
        "count": "{arg} は {lo}〜{hi} の整数で書いてください：{got}",
        "json": "{arg} は JSON で書いてください（{why}）",
    },
    "en": {
        "long": "arguments too long ({n} characters; at most {max})",
        "many": "too many arguments ({n}; at most {max})",
        "word": "an argument is too long ({n} characters; at most {max})",
        "none": "takes no arguments ({usage})",
        "missing": "needs {arg} ({usage})",
        "extra": "too many arguments ({usage})",
        "seconds": "{arg} must be seconds from 0 to {max} (e.g. 30 or 30.5), not {got}",
        "count": "{arg} must be a whole number from {lo} to {hi}, not {got}",
        "json": "{arg} must be JSON ({why})",
    },
}


def _quote(text: str, n: int = 24) -> str:
    return repr(text[:n] + "…" if len(text) > n else text)


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a rule command."""

    name: str
    kind: str
    """``seconds``, ``count``, ``word``, ``words`` or ``json`` (see the module's doc)."""
    default: Any = None
    """The value when the argument is left out; None makes it required (``words``: [])."""
    lo: int = 0
    hi: int = MAX_SECONDS


@dataclass(frozen=True)
class MetaCommand:
    """A rule command: ``fn(ctx, values)`` with its arguments already read and bounded."""

    fn: Callable[[Any, list[Any]], Any]
    args: tuple[Arg, ...] | None = ()
    """The arguments in order; None for any words (a plain function registered directly)."""
    player: bool = False
    """Whether a player may type it at the console. The others are sent by front ends
    (a real-time clock, a campaign's carry) and bots; the console refuses them."""
    usage: str = ""

    def parse(self, name: str, text: str, lang: str = "en") -> list[Any]:
        """The argument values of ``@name text``; raises :class:`RuleError` (one line, in
        ``lang``) for anything out of bounds."""
        msg = _MSG.get(lang, _MSG["en"])
        usage = self.usage or "@" + name + "".join(f" {a.name.upper()}" for a in self.args or ())
        if len(text) > MAX_LINE:
            raise RuleError(msg["long"].format(n=len(text), max=MAX_LINE))
        words = text.split()
        if len(words) > MAX_WORDS:
            raise RuleError(msg["many"].format(n=len(words), max=MAX_WORDS))
        specs = self.args
        if specs is None:
            specs = (Arg("args", "words"),)
        out: list[Any] = []
        i = 0
        for a in specs:
            if a.kind == "json":
                out.append(_json(" ".join(words[i:]), a, msg, usage))
                i = len(words)
                continue
            if a.kind == "words":
                for w in words[i:]:
                    if len(w) > MAX_WORD:
                        raise RuleError(msg["word"].format(n=len(w), max=MAX_WORD))
                out.append(words[i:])
                i = len(words)
                continue
            if i >= len(words):
                if a.default is None:
                    raise RuleError(msg["missing"].format(arg=a.name.upper(), usage=usage))
                out.append(a.default)
                continue
            out.append(_one(words[i], a, msg))
            i += 1
        if i < len(words):
            raise RuleError(msg["none" if not specs else "extra"].format(usage=usage))
        return out

    def __call__(self, ctx: Context, words: list[str]) -> Any:
        """Runs with raw words, read as the engine reads them (for tests and front ends)."""
        return self.fn(ctx, self.parse("command", " ".join(words)))


def _one(word: str, a: Arg, msg: dict[str, str]) -> Any:
    w = unicodedata.normalize("NFKC", word)
    if a.kind == "seconds":
        if not _SECONDS.fullmatch(w) or float(w) > a.hi:
            raise RuleError(msg["seconds"].format(arg=a.name.upper(), max=a.hi, got=_quote(word)))
        v = float(w)
        return int(v) if v.is_integer() else v
    if a.kind == "count":
        if not _COUNT.fullmatch(w) or not a.lo <= int(w) <= a.hi:
            raise RuleError(
                msg["count"].format(arg=a.name.upper(), lo=a.lo, hi=a.hi, got=_quote(word))
            )
        return int(w)
    if len(word) > MAX_WORD:
        raise RuleError(msg["word"].format(n=len(word), max=MAX_WORD))
    return word


def json_depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in JSON text (outside strings), in one pass."""
    return max([0, *(d for ch, d in brackets(text) if ch in "[{")])


def _finite(text: str) -> float:
    v = float(text)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("numbers must be finite")
    return v


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON has")


def _json(text: str, a: Arg, msg: dict[str, str], usage: str) -> Any:
    if not text:
        if a.default is None:
            raise RuleError(msg["missing"].format(arg=a.name.upper(), usage=usage))
        return a.default
    if len(text) > MAX_JSON:
        raise RuleError(
            msg["json"].format(
                arg=a.name.upper(), why=f"{len(text)} characters; at most {MAX_JSON}"
            )
        )
    if json_depth(text) > MAX_DEPTH:
        raise RuleError(
            msg["json"].format(arg=a.name.upper(), why=f"nested more than {MAX_DEPTH} deep")
        )
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except ValueError as e:  # JSONDecodeError, a non-finite number, an int of too many digits
        why = str(e).splitlines()[0][:80]
        raise RuleError(msg["json"].format(arg=a.name.upper(), why=why)) from None


def as_command(fn: MetaCommand | Callable[[Any, list[str]], Any]) -> MetaCommand:
    """A registered rule command as a :class:`MetaCommand` (a plain function takes words,
    still bounded in number and length)."""
    return fn if isinstance(fn, MetaCommand) else MetaCommand(fn, None)


def player_may_type(rules: Any, name: str) -> bool:
    """Whether a player may type ``@name`` at the console under the rule system ``rules``."""
    from runner.rules import system

    fn = system(rules).meta_commands.get(name)
    return fn is not None and as_command(fn).player


def player_commands(rules: Any) -> list[str]:
    """The rule commands a player may type at the console, for messages."""
    from runner.rules import system

    return sorted(n for n, fn in system(rules).meta_commands.items() if as_command(fn).player)
