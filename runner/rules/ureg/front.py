"""What front ends and author tools need from UREG: the names of its view in both languages,
the real-time limit the console runs, the campaign's carry-over (``katari play
--campaign-from``), the rules and item catalogue of ``katari rules``, and the abilities an
editor completes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from runner.rules.base import Campaign, Display, RealTimeClock, RuleError
from runner.rules.ureg import SYSTEM, campaign_carry, carry_command, escaped_pcs, text
from runner.rules.ureg import core as C
from runner.rules.ureg.abilities import BAD_ABILITIES, GOOD_ABILITIES, shown
from runner.rules.ureg.template import TEMPLATES

SYSTEM.display = Display(
    labels={
        "ja": {
            "life": "ライフ",
            "flowers": "花",
            "floor": "階",
            "characters": "脱出者",
            "npcs": "人物",
            "hint_used": "ヒント使用",
            "continues": "コンティニュー",
            "archetype": "タイプ",
            "good": "長所",
            "bad": "短所",
            "solved": "解いた仕掛け",
            "mods": "補正",
            "red": "赤",
            "white": "白",
            "yellow": "黄",
            "purple": "紫",
            "pink": "桃",
            "blue": "青",
            "cards": "カード",
            "face_up": "表",
            "face_down": "伏せ",
            "hidden": "伏せたカード",
        },
        "en": {
            "life": "life",
            "flowers": "flowers",
            "floor": "floor",
            "characters": "escapers",
            "npcs": "people",
            "hint_used": "hint used",
            "continues": "continues",
            "archetype": "type",
            "good": "strength",
            "bad": "weakness",
            "solved": "puzzles solved",
            "mods": "modifiers",
            "cards": "cards",
            "face_up": "face up",
            "face_down": "face down",
            "hidden": "face-down cards",
        },
    },
    values={
        "ja": {"hint_used": {True: "済み", False: "まだ"}},
        "en": {"hint_used": {True: "yes", False: "no"}},
    },
    stats=(
        "life",
        "ライフ",
        "good",
        "bad",
    ),  # the escaper's 〈○〉〈×〉: the sheet's, in the language played
    status_skip=frozenset({"time_limit", "time_spent", "npcs"}),
    same_as_stats=frozenset({"characters"}),
    word=lambda v, lang: shown(v, lang),  # a story's variable holding an ability (new_good)
)


def _spent(state: Any, limit: float) -> float:
    return float(
        ((getattr(state, "rules", None) or {}).get("ureg") or {}).get("time_spent", 0) or 0
    )


SYSTEM.realtime = RealTimeClock(
    limit=C.time_limit,
    spent=_spent,
    # Behind the console's own count (an undo or a load brought back an older State): sync.
    report=lambda delta, total, behind: (
        f"@time_sync {total}" if behind else f"@time_passed {delta}"
    ),
    waits=lambda story, state: not C.clock_started(story, state),
    live=(("ureg", "time_left"),),
)

_NOBODY = {
    "ja": "{prev} のゲームでは誰も脱出していません：キャンペーンを続けられるのは脱出した脱出者だけです",
    "en": "nobody escaped in the game of {prev}: only escaped PCs go on in a campaign",
}


def _carry(state: dict[str, Any], prev: str, lang: str) -> str:
    """``@carry {...}``: the escaped PCs' names and abilities, only as short text."""
    out = [c for c in escaped_pcs(state) if isinstance(c, str)]
    carry = {
        k: {f: v for f, v in d.items() if isinstance(v, str) and len(v) <= 200}
        for k, d in campaign_carry(state).items()
        if k in out and isinstance(d, dict)
    }
    if not out:
        raise RuleError(_NOBODY.get(lang, _NOBODY["en"]).format(prev=prev))
    return carry_command(carry)


SYSTEM.campaign = Campaign(
    wants=lambda story: bool((getattr(story, "options", None) or {}).get("campaign")),
    carry=_carry,
)

SYSTEM.topics.update({"rules": text.summary, "items": text.catalogue})


def _skills() -> list[tuple[str, str]]:
    """The abilities a story asks about (``ureg.has('閃き')``), strengths ○ and weaknesses ×."""
    out: list[tuple[str, str]] = []
    for mark, table in (("○", GOOD_ABILITIES), ("×", BAD_ABILITIES)):
        for ja, spec in table.items():
            en = str(spec[0]) if isinstance(spec, tuple) and spec else ""
            out.append((ja, f"{mark}{en}"))
            if en:
                out.append((en, f"{mark}{ja}"))
    return out


SYSTEM.skills = _skills
SYSTEM.hooks["has"] = replace(SYSTEM.hooks["has"], skill_arg=True)
SYSTEM.templates.update(TEMPLATES)
