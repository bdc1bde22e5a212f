"""Investigators brought into a game and taken out of it, for every front end (``katari play
--investigator``, the console's ``import``, ``katari roll --investigator``, ``katari export
--format ccfolia``): the rule system says whether its stories have them and which adapter reads
them (``RuleSystem.investigators``, docs/rules-api.md); a story whose rule system has none gets
one line saying so, in the user's language."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from runner.rules.base import Investigators


def of(rules: str | None) -> Investigators | None:
    """What the rule system ``rules`` declares about investigators, or None."""
    from runner.rules import BrokenRules, UnknownRules, system

    try:
        return system(rules or "none").investigators
    except (UnknownRules, BrokenRules):
        return None


def first() -> Investigators | None:
    """The first installed rule system's investigators (``katari roll --investigator``, which
    has no story), or None when no installed rule system has any."""
    from runner.rules import installed

    return next((rs.investigators for rs in installed() if rs.investigators is not None), None)


def adapter(inv: Investigators) -> ModuleType:
    """The module that reads and writes the rule system's investigators (its ``adapter``)."""
    return importlib.import_module(inv.adapter)


_REFUSAL = {
    "ja": (
        "{what}：{story} のルール「{title}」（{name}）には、取り込んだり書き出したりできる探索者がありません"
        "（探索者があるのは {others}）"
    ),
    "en": (
        "{what}: {story}'s rule system, {title} ({name}), has no investigators to import or export "
        "(those that do: {others})"
    ),
    "ja-none": "{what}：{story} にはルールがないので、取り込んだり書き出したりできる探索者がありません（探索者があるのは {others}）",
    "en-none": "{what}: {story} has no rule system, so no investigators to import or export (those that do: {others})",
}


def refusal(story: Any, what: str, lang: str) -> str:
    """One line: ``what`` (``--investigator``, ``import``) cannot be used with this story, since
    its rule system has no investigators; it names the installed ones that do."""
    from runner.rules import BrokenRules, UnknownRules, installed, system

    name = getattr(story, "rules", "") or "none"
    try:
        title = system(name).title_in(lang)
    except (UnknownRules, BrokenRules):
        title = name
    ja = lang == "ja"
    others = [
        f"{rs.name}「{rs.title_in(lang)}」" if ja else f"{rs.name} ({rs.title_in(lang)})"
        for rs in installed()
        if rs.investigators is not None
    ]
    key = ("ja" if ja else "en") + ("-none" if name == "none" else "")
    return _REFUSAL[key].format(
        what=what,
        story=getattr(story, "id", "?"),
        title=title,
        name=name,
        others=("、" if ja else ", ").join(others) or "-",
    )
