"""What an investigator's condition allows: the rules' own offers in place of the story's.

A dead, dying or unconscious investigator, or one in a bout of madness, cannot walk to the
circle and cast a spell. The engine asks the rule system what it allows (``offer``, given
the story's open actions) before it lists, matches or runs one; this module answers for
coc7:

- dying (a major wound and 0 HP, not stabilised): only the CON roll of the round
  (failure = death); outside a fight each command is a round;
- unconscious (0 HP without a major wound, a failed CON roll after a major wound, or
  stabilised by First Aid): only waiting to come round, 1D10×10 minutes of the clock (the
  duration is the keeper's in 7e: our ruling), then awake with at least 1 HP;
- a bout of madness: only letting it run its course: a real-time bout's 1D10 rounds pass
  (in a fight the bout acts in the investigator's place, see combat.py), a summary bout's
  1D10 hours go by on the clock;
- dead: nothing of their own.

With several investigators, those who can act may give First Aid to a fallen companion, and
one of them takes over when the active investigator falls; while anyone is dying the table
plays in rounds (treat them, or let a round pass: their CON roll). The status shows each
condition (``view``), as does the sheet.
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.coc7 import checks as ck
from runner.story.expr import parse as _parse_expr
from runner.story.model import Action, Advance, Do

_EXPRS: dict[str, tuple[Any, ...]] = {}
"""Expression text → AST, kept for the life of the process: the engine caches compiled
expressions by the AST's identity, so an AST it has seen must never be freed."""


def expr(text: str) -> tuple[Any, ...]:
    hit = _EXPRS.get(text)
    if hit is None:
        hit = _EXPRS[text] = _parse_expr(text)
    return hit


def rule_action(
    aid: str,
    label: str,
    effects: tuple[Any, ...] = (),
    *,
    check: str | None = None,
    aliases: tuple[str, ...] = (),
) -> Action:
    """An action of the rules (not of the story): ``coc7.<aid>`` in the state's counts."""
    return Action(
        aid,
        label,
        aliases,
        None,
        False,
        0,
        expr(check) if check else None,
        (),
        effects,
        (),
        False,
        f"coc7.{aid}",
    )


def _do(*calls: str) -> Do:
    return Do("do", tuple(expr(c) for c in calls))


# ---------------------------------------------------------------- conditions


def recheck(ctx: Context) -> None:
    """Notes in the rules' data whether anyone cannot act (``down``), so that the question the
    engine asks a few times a turn (:func:`offers`) is one look when all is well. Called by
    every rule that changes a condition (damage, healing, a CON roll, a bout's start and end,
    coming round)."""
    d = ck.data(ctx)
    down = any(incapacity(v) for _, v in investigators(ctx.state))
    if down or d.get("down"):
        d["down"] = down


def bout_running(s: dict[str, Any]) -> dict[str, Any] | None:
    """The investigator's bout of madness while it lasts (``left`` rounds or hours)."""
    b = (s.get("cond") or {}).get("bout")
    return b if b and b.get("left", 0) > 0 else None


def incapacity(s: dict[str, Any]) -> str:
    """ "dead", "dying", "unconscious", "bout" or "" (can act) for an investigator's sheet."""
    cond = s.get("cond")
    if not cond:
        return ""
    if cond.get("dead"):
        return "dead"
    if cond.get("dying") and not cond.get("stable"):
        return "dying"
    if cond.get("unconscious") or cond.get("dying"):
        return "unconscious"
    b = cond.get("bout")
    if b and b.get("left", 0) > 0:
        return "bout"
    return ""


_NAMES = {
    "dead": ("死亡", "dead"),
    "dying": ("瀕死", "dying"),
    "unconscious": ("意識不明", "unconscious"),
    "stable": ("容体安定", "stabilised"),
    "major_wound": ("重傷", "major wound"),
    "temporary": ("一時的狂気", "temporary insanity"),
    "indefinite": ("不定の狂気", "indefinite insanity"),
    "permanent": ("永久的狂気", "permanent insanity"),
}


def condition_names(s: dict[str, Any], en: bool = False) -> list[str]:
    """The investigator's conditions in words, the gravest first (for the status and sheet)."""
    cond = s.get("cond") or {}
    i = 1 if en else 0
    out: list[str] = []
    if cond.get("dead"):
        return [_NAMES["dead"][i]]
    if cond.get("dying") and not cond.get("stable"):
        out.append(_NAMES["dying"][i])
    elif cond.get("unconscious") or cond.get("dying"):
        out.append(_NAMES["unconscious"][i])
        if cond.get("stable"):
            out.append(_NAMES["stable"][i])
    if cond.get("major_wound"):
        out.append(_NAMES["major_wound"][i])
    b = bout_running(s)
    if b:
        unit = (
            (" rounds" if b.get("unit") == "rounds" else " h")
            if en
            else ("ラウンド" if b.get("unit") == "rounds" else "時間")
        )
        out.append(("bout of madness, " if en else "狂気の発作・残り") + f"{b['left']}{unit}")
    if cond.get("insane"):
        out.append(_NAMES.get(str(cond["insane"]), (str(cond["insane"]),) * 2)[i])
    return out


# ---------------------------------------------------------------- the rules' own actions

_LABELS = {
    "con_roll": ("瀕死：体力（CON）ロールで命をつなぐ", "Dying: roll CON to hold on"),
    "come_round": ("意識を失っている：意識が戻るのを待つ", "Unconscious: wait to come round"),
    "bout_pass": ("狂気の発作：発作が過ぎるのを待つ", "Bout of madness: let it run its course"),
}
_ACTIONS: dict[tuple[str, str], Action] = {}


def _rule_choice(kind: str, lang: str) -> Action:
    hit = _ACTIONS.get((kind, lang))
    if hit is None:
        label = _LABELS[kind][1 if lang == "en" else 0]
        effects: tuple[Any, ...]
        if kind == "con_roll":
            effects = (_do("coc7.tick()"),)
        elif kind == "come_round":
            effects = (
                Advance("advance", expr("coc7.out_cold_minutes()")),
                _do("coc7.come_round()"),
            )
        else:
            effects = (Advance("advance", expr("coc7.bout_minutes()")), _do("coc7.end_bout()"))
        hit = _ACTIONS[kind, lang] = rule_action(kind, label, effects)
    return hit


def investigators(state: Any) -> list[tuple[str, dict[str, Any]]]:
    return [
        (k, v)
        for k, v in (state.stats or {}).items()
        if type(v) is dict and v.get("system") == "coc7" and v.get("kind") == "investigator"
    ]


_UNABLE = {
    "dying": ("瀕死で動けない", "is dying and cannot act"),
    "unconscious": ("意識を失っていて動けない", "is unconscious and cannot act"),
    "bout": (
        "狂気の発作のさなかで、思うように動けない",
        "is in a bout of madness and cannot act as they wish",
    ),
    "dead": ("もう死んでいる", "is dead"),
}


def unable_lines(story: Any, state: Any) -> tuple[str, str] | None:
    """Why the active investigator cannot do what was typed, and what the table can do, in
    both languages (the answer to a command while dying, unconscious, in a bout or dead);
    None when they can act."""
    d = (state.rules or {}).get("coc7")
    if not d or not d.get("down"):
        return None
    s = state.stats.get(d.get("pc") or "")
    why = incapacity(s) if type(s) is dict else ""
    if not why:
        return None
    out: list[str] = []
    for i, lang in enumerate(("ja", "en")):
        acts = [c[2] for c in offers(story, state, [], lambda *a: a, lang=lang)]
        head = f"{s['name']}は{_UNABLE[why][0]}。" if i == 0 else f"{s['name']} {_UNABLE[why][1]}."
        if acts:
            tail = (
                ("できるのは" + "、".join(f"「{a}」" for a in acts) + "。")
                if i == 0
                else (" What can be done: " + "; ".join(acts) + ".")
            )
        elif d.get("combat"):
            tail = "戦いはそのまま進む。" if i == 0 else " The fight goes on without them."
        else:
            tail = "できることはない。" if i == 0 else " Nothing can be done."
        out.append(head + tail)
    return out[0], out[1]


def offers(
    story: Any, state: Any, choices: list[Any], choice_type: Any, lang: str | None = None
) -> list[Any]:
    """What the rules allow the table now, given the story's open actions (``choices``, the
    engine's numbered Choices); ``choice_type`` builds a Choice ``(n, id, label, aliases,
    action)``. Unchanged when every investigator can act (the common case, asked a few times
    a turn: a few dictionary reads)."""
    rules = state.rules
    d = rules.get("coc7") if rules else None
    if not d or not d.get("down"):
        return choices
    s = state.stats.get(d.get("pc") or "")
    if type(s) is not dict:
        return choices
    if d.get("combat"):
        # In a fight the rules play the fallen out (combat.advance) and never stop on one.
        return [] if incapacity(s) else choices
    if lang is None:
        lang = "en" if str(getattr(story, "language", "ja")).startswith("en") else "ja"
    pcs = investigators(state)
    able = [(k, v) for k, v in pcs if not incapacity(v)]
    dying = [(k, v) for k, v in pcs if incapacity(v) == "dying"]
    why = incapacity(s)
    if not able:  # nobody can act: the active investigator's condition decides
        if why in ("", "dead"):
            return []
        kind = {"dying": "con_roll", "unconscious": "come_round"}.get(why, "bout_pass")
        a = _rule_choice(kind, lang)
        return [choice_type(1, a.id, a.label, a.aliases, a)]
    # Companions: the able may give First Aid to the fallen; while someone is dying the table
    # plays in rounds (treat them, or let a round pass: their CON roll); an active
    # investigator who cannot act hands over to one who can.
    extra: list[Action] = []
    for k, v in pcs:
        if incapacity(v) in ("dying", "unconscious") and not v["cond"].get("aided"):
            for hk, hv in able:
                extra.append(_first_aid(k, v["name"], hk, hv["name"], lang))
    if dying:
        extra.append(_rule_choice("con_roll", lang))
    if why:
        for hk, hv in able:
            extra.append(_take_over(hk, hv["name"], lang))
    base = [] if (why or dying) else list(choices)
    n = max((c.n for c in base), default=0)
    for a in extra:
        n += 1
        base.append(choice_type(n, a.id, a.label, a.aliases, a))
    return base


def _first_aid(tid: str, name: str, hid: str, healer: str, lang: str) -> Action:
    key = (f"first_aid:{hid}:{tid}", lang)
    hit = _ACTIONS.get(key)
    if hit is None:
        label = (
            f"{healer}: give {name} First Aid"
            if lang == "en"
            else f"{healer}が{name}を応急手当する（応急手当）"
        )
        hit = _ACTIONS[key] = rule_action(
            f"first_aid_{hid}_{tid}", label, (_do(f"coc7.first_aid({tid!r}, {hid!r})"),)
        )
    return hit


def _take_over(pid: str, name: str, lang: str) -> Action:
    key = (f"take_over:{pid}", lang)
    hit = _ACTIONS.get(key)
    if hit is None:
        label = f"{name} acts from now on" if lang == "en" else f"ここからは{name}が動く"
        hit = _ACTIONS[key] = rule_action(
            f"take_over_{pid}", label, (_do(f"coc7.set_active({pid!r})"),)
        )
    return hit
