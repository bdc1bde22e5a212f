"""Pushing a failed check and spending Luck on it, offered to the player as actions.

Right after a failed skill check the table may push it (7e: once, with a justification and a
consequence the keeper foreshadows) or, by the optional rule, spend Luck equal to the margin
to make it a success. Neither for Luck or Sanity rolls, a fumble, a roll already pushed, a
hidden roll or a roll in a fight. The rules offer both as actions the player sees, in the
same place, right after the roll (the next command takes the chance away), and only while
the failure has changed nothing but words: a failure that already took time, moved the
player or changed what they carry is not taken back.

A push re-rolls the check (``coc7.push()``) and runs the story action's own outcomes again;
a failed push costs what the story set (``push_failure``: ``{minutes, damage}``, default
30 minutes, ``damage`` a dice expression or none), which the action's label says before the
roll. Spending Luck (``coc7.spend_luck()``, option ``luck_spending``, on by default) runs the
action's success outcome.
"""

from __future__ import annotations

from typing import Any

from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.condition import expr
from runner.story.model import Action, Advance

DEFAULT_FAILURE = {"minutes": 30, "damage": ""}
_NARRATION_ONLY = frozenset({"say"})


def push_failure(story: Any) -> dict[str, Any]:
    """What a failed push costs in this story: ``{"minutes": int, "damage": str}``."""
    raw = ck.option(_StoryCtx(story), "push_failure", None)
    cost = dict(DEFAULT_FAILURE)
    if isinstance(raw, dict):
        if isinstance(raw.get("minutes"), int) and 0 <= raw["minutes"] <= 24 * 60:
            cost["minutes"] = raw["minutes"]
        if isinstance(raw.get("damage"), str):
            cost["damage"] = raw["damage"]
    return cost


class _StoryCtx:
    """Just enough of a Context for ``checks.option`` to read a story's settings."""

    def __init__(self, story: Any) -> None:
        self.story = story


def _action(story: Any, node_id: str, key: str) -> Action | None:
    """The story action with this ``node.action`` key, at its node."""
    node = story.nodes.get(node_id)
    return next((a for a in node.actions if a.key == key), None) if node else None


def _said_only(a: Action) -> bool:
    if a.after:
        return False
    table = {o.key: o for o in a.outcomes}
    o = table.get("failure") or table.get("otherwise")
    return o is None or all(e[0] in _NARRATION_ONLY for e in o.effects)


def _lang(story: Any) -> str:
    return "en" if str(getattr(story, "language", "ja")).startswith("en") else "ja"


def _foreshadow(story: Any, lang: str) -> str:
    cost = push_failure(story)
    bits = []
    if cost["minutes"]:
        bits.append(
            f"{cost['minutes']} minutes lost"
            if lang == "en"
            else f"{cost['minutes']}分を無駄にする"
        )
    if cost["damage"]:
        bits.append(
            f"hurt ({cost['damage']})" if lang == "en" else f"怪我をする（{cost['damage']}）"
        )
    if lang == "en":
        return "if it fails: " + (" and ".join(bits) + ", " if bits else "") + "no further try"
    return "失敗すれば" + ("、".join(bits) + "うえ、" if bits else "") + "二度とは試せない"


def offers(story: Any, state: Any, d: dict[str, Any], s: dict[str, Any]) -> list[Action]:
    """The push and the Luck spend the rules offer now (none, one or both)."""
    last = d.get("last")
    if (
        not last
        or not last.get("pushable")
        or last.get("hidden")
        or last.get("success")
        or last.get("turn") != state.turn - 1
        or d.get("combat")
    ):
        return []
    key = last.get("action") or ""
    if not key.startswith(state.node) or key[len(state.node) : len(state.node) + 1] != ".":
        return []
    a = _action(story, state.node, key)
    if a is None or not _said_only(a):
        return []
    lang = _lang(story)
    skill = last["skill"] if lang == "ja" else sh.english(last["skill"])
    out = [_pushed(a, skill, _foreshadow(story, lang), lang)]
    if _luck_spending(story):
        pid = last.get("who")
        sheet = state.stats.get(pid) if pid else s
        cost = last["total"] - ck.needed(last["value"], last["difficulty"])
        luck = int((sheet or {}).get("luck", 0))
        if 0 < cost <= luck:
            out.append(_lucky(a, skill, cost, luck, lang))
    return out


def _luck_spending(story: Any) -> bool:
    return bool(ck.option(_StoryCtx(story), "luck_spending", True))


def _pushed(a: Action, skill: str, warn: str, lang: str) -> Action:
    label = (
        f"Push the {skill} roll ({warn})"
        if lang == "en"
        else f"〈{skill}〉をプッシュする（覚悟を決めてもう一度。{warn}）"
    )
    after = (Advance("advance", expr("coc7.push_consequence()")),)
    return Action(
        "push",
        label,
        ("push", "プッシュ"),
        None,
        False,
        a.cost,
        expr("coc7.push()"),
        a.outcomes,
        (),
        after,
        False,
        "coc7.push",
    )


def _lucky(a: Action, skill: str, cost: int, luck: int, lang: str) -> Action:
    label = (
        f"Spend {cost} Luck to make the {skill} roll a success (Luck {luck} → {luck - cost})"
        if lang == "en"
        else f"幸運を{cost}点使って〈{skill}〉を成功にする（幸運 {luck}→{luck - cost}）"
    )
    return Action(
        "spend_luck",
        label,
        ("luck", "幸運を使う"),
        None,
        False,
        0,
        expr("coc7.spend_luck()"),
        a.outcomes,
        (),
        (),
        False,
        "coc7.spend_luck",
    )
