"""What front ends and author tools need from the bomb modules: the names of the module's
view in both languages, its short status-bar forms, the countdown the console runs, and the
expert's manual (``katari manual dungeon_2f``)."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Display, Manual, RealTimeClock
from runner.rules.ktane import KEY, SYSTEM

_BUTTONS = {
    "ja": {"forward": "前", "left": "左", "right": "右", "sword": "剣", "shield": "盾"},
}


def _edgework_short(edge: dict[str, Any], lang: str) -> str:
    """``ZG0PE3 点灯BOB 消灯FRQ,NSA 電池0`` (``lit BOB unlit FRQ,NSA batteries 0``)."""
    inds = [x for x in edge.get("indicators") or [] if isinstance(x, dict)]
    lit = ",".join(str(x.get("label", "")) for x in inds if x.get("lit"))
    unlit = ",".join(str(x.get("label", "")) for x in inds if not x.get("lit"))
    ja = lang == "ja"
    parts = [str(edge.get("serial", ""))]
    if lit:
        parts.append(("点灯" if ja else "lit ") + lit)
    if unlit:
        parts.append(("消灯" if ja else "unlit ") + unlit)
    if edge.get("batteries") is not None:
        parts.append(("電池" if ja else "batteries ") + str(edge["batteries"]))
    return " ".join(p for p in parts if p)


def _text(key: str, value: Any, lang: str, short: bool) -> str | None:
    """The edgework as the bar has room for it, indicators lit and unlit, batteries counted."""
    if short and key == "edgework" and isinstance(value, dict):
        return _edgework_short(value, lang)
    if key == "indicators" and isinstance(value, list) and all(isinstance(x, dict) for x in value):
        lit, unlit = ("点灯", "消灯") if lang == "ja" else ("lit ", "unlit ")
        sep = "、" if lang == "ja" else ", "
        return sep.join(f"{lit if x.get('lit') else unlit}{x.get('label', '')}" for x in value)
    if (
        key == "batteries"
        and isinstance(value, int)
        and not isinstance(value, bool)
        and lang == "ja"
    ):
        return f"{value}本"
    return None


SYSTEM.display = Display(
    labels={
        "ja": {
            "stage": "ステージ",
            "led": "LED",
            "strikes": "ミス",
            "solved": "解除",
            "edgework": "外観",
            "serial": "シリアル",
            "indicators": "インジケーター",
            "batteries": "電池",
            "level": "レベル",
            "move": "動き",
            "expected": "正解",
            "enemy": "敵",
            "sequence": "手順",
            "done": "済み",
            "x": "X",
        },
        "en": {
            "stage": "stage",
            "led": "LED",
            "strikes": "strikes",
            "solved": "solved",
            "edgework": "edgework",
            "serial": "serial",
            "indicators": "indicators",
            "batteries": "batteries",
            "level": "level",
            "move": "move",
            "expected": "expected",
            "enemy": "enemy",
            "sequence": "sequence",
            "done": "done",
            "x": "X",
        },
    },
    values={
        "ja": {
            "led": {
                "red": "赤",
                "yellow": "黄",
                "green": "緑",
                "blue": "青",
                "magenta": "マゼンタ",
                "white": "白",
                "off": "消灯",
            },
            "solved": {True: "済み", False: "まだ"},
            "move": _BUTTONS["ja"],
            "expected": _BUTTONS["ja"],
            "sequence": _BUTTONS["ja"],
        },
        "en": {"solved": {True: "yes", False: "no"}},
    },
    text=_text,
)


def _limit(story: Any) -> float | None:
    timer = (getattr(story, "options", None) or {}).get("timer")
    return int(timer) if timer else None


def _spent(state: Any, limit: float) -> float:
    left = ((getattr(state, "rules", None) or {}).get(KEY) or {}).get("time_left")
    return limit - float(left) if left is not None else 0.0


SYSTEM.realtime = RealTimeClock(
    limit=_limit,
    spent=_spent,
    report=lambda delta, total, behind: f"@tick {delta}",
    live=(("time_left",),),
)

SYSTEM.manuals["dungeon_2f"] = Manual(
    "runner.rules.ktane",
    "manual_{lang}.md",
    aliases=("dungeon", "dungeon2f", "ダンジョン・2f", "ダンジョン2f", "ダンジョン"),
)
