"""What the rules offer beside the story's actions: a push or Luck after a failed check,
and the actions someone who cannot act is limited to."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7 import push as ps

_CHOICE: list[Any] = []
"""The engine's Choice record, fetched once on the first offer (the engine imports the rules)."""


def _choice() -> Any:
    if not _CHOICE:
        from runner.engine.engine import Choice

        _CHOICE.append(Choice)
    return _CHOICE[0]


def _offer(story: Any, state: Any, choices: list[Any]) -> list[Any]:
    """What the rules allow (RuleSystem.offer): asked a few times a turn, so the common case
    (everyone can act, no failed check just now) is a few dictionary reads."""
    d = state.rules.get("coc7")
    if d is None:
        return choices
    if "down" in d and d["down"]:  # someone cannot act (condition.recheck keeps this)
        return cd.offers(story, state, choices, _choice())
    last = d.get("last")
    if last is None or not last.get("pushable") or last.get("turn") != state.turn - 1:
        return choices  # a push or Luck only right after a failed check
    extra = ps.offers(story, state, d, state.stats.get(d.get("pc") or "") or {})
    if not extra:
        return choices
    Choice = _choice()
    shown = [c for c in choices if c.n]
    for a in extra:
        shown.append(Choice(len(shown) + 1, a.id, a.label, a.aliases, a))
    return shown + choices[len(shown) - len(extra) :]  # the hidden ones stay last


def _on_unmatched(ctx: Context, text: str) -> bool | str:
    """A command no action matched while the active investigator cannot act: say why and
    what can be done (not "not understood")."""
    lines = cd.unable_lines(ctx.story, ctx.state)
    if lines is None:
        return False
    ck.say(ctx, *lines)
    return "said"
