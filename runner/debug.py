"""How a front end reports a rule system's bug (docs/rules-api.md, "When a hook fails").

A hook that breaks on its own (``KeyError``, ``AttributeError``: runner.engine.evaluate's
``HookFailure``) costs the command, never the session: the player sees one line naming the
hook and the exception; the author who sets ``KATARI_DEBUG=1`` also gets the traceback on
standard error, pointing at the line of the rule system that failed."""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any


def debugging() -> bool:
    """Whether ``KATARI_DEBUG`` asks for tracebacks (set, and not ``0``/empty)."""
    return os.environ.get("KATARI_DEBUG", "") not in ("", "0")


def hook_failure_line(e: Any, lang: str = "en") -> str:
    """The one line for a failed hook: which hook, what it raised, how to see more."""
    what = f"{type(e.error).__name__}: {e.error}"
    more = "" if debugging() else " (KATARI_DEBUG=1 で詳細なトレースバックを表示)"
    whose = getattr(e, "system", "")
    if whose:  # one of the rule system's own functions (init, after_command...), not a hook
        start = e.hook == "init"
        if lang == "ja":
            return (
                f"ルールシステム '{whose}' の {e.hook} が失敗しました（{what}）：ルールシステムの"
                f"不具合です。{'ゲームは始まっていません' if start else 'コマンドは実行されていません'}"
                f"{more}"
            )
        more = "" if debugging() else " (KATARI_DEBUG=1 prints the traceback)"
        return (
            f"rule system {whose!r}: {e.hook} failed ({what}): a bug in the rule system, not the"
            f" story; {'the game did not start' if start else 'the command did not run'}{more}"
        )
    if lang == "ja":
        return (
            f"ルールのフック {e.hook}() が失敗しました（{what}）：ルールシステムの不具合です。"
            f"コマンドは実行されていません{more}"
        )
    more = "" if debugging() else " (KATARI_DEBUG=1 prints the traceback)"
    return (
        f"rule hook {e.hook}() failed ({what}): a bug in the rule system, not the story;"
        f" the command did not run{more}"
    )


def show_trace(e: Any) -> None:
    """With ``KATARI_DEBUG=1``: the failed hook's traceback, on standard error."""
    if debugging():
        err = getattr(e, "error", e)
        traceback.print_exception(type(err), err, err.__traceback__, file=sys.stderr)
        sys.stderr.flush()


def report(e: BaseException, lang: str = "en") -> bool:
    """Reports ``e`` on standard error if it is a failed hook (True), else False."""
    from runner.engine.evaluate import HookFailure

    if not isinstance(e, HookFailure):
        return False
    show_trace(e)
    sys.stderr.write(f"katari: {hook_failure_line(e, lang)}\n")
    return True
