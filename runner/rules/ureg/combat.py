"""Numeric combat (数的戦闘), exactly: every figure is a multiple of 0.5 (UA-03).

PC power 1, 〈○強力〉 +0.5, 〈○武術〉 +2, 〈×ひ弱〉 −0.5, 〈×非力〉 −0.5 bare-handed only;
one item per PC: the table's items, any other swingable or throwable item +0.5 (UA-04);
the plan moves the total by −5..+5; a difference under 1 is even.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg.abilities import Character
from runner.rules.ureg.items import IMPROVISED_POWER

ADVANTAGE, EVEN, DISADVANTAGE = "advantage", "even", "disadvantage"
RESULT_JA = {
    ADVANTAGE: "有利（敵を無力化）",
    EVEN: "対等（PCはダメージを受け、敵を無力化）",
    DISADVANTAGE: "不利（PCはダメージを受け、撤退）",
}
RESULT_EN = {
    ADVANTAGE: "advantage (the enemy is neutralised)",
    EVEN: "even (the PCs take damage and neutralise the enemy)",
    DISADVANTAGE: "disadvantage (the PCs take damage and retreat)",
}
# Check outcome keys a story may use, most specific first.
RESULT_KEYS = {
    ADVANTAGE: [ADVANTAGE, "win", "success"],
    EVEN: [EVEN, "trade", "success"],
    DISADVANTAGE: [DISADVANTAGE, "retreat", "failure"],
}


def pc_power(pc: Character, armed: bool) -> Fraction:
    p = Fraction(1)
    if pc.good == "強力":
        p += Fraction(1, 2)
    if pc.good == "武術":
        p += 2
    if pc.bad == "ひ弱":
        p -= Fraction(1, 2)
    if pc.bad == "非力" and not armed:
        p -= Fraction(1, 2)
    return p


def item_power(props: dict[str, Any] | None) -> Fraction:
    """The table's bonus, +0.5 for an improvised weapon, 0 for bare hands or a non-weapon."""
    if props is None:
        return Fraction(0)
    if "power" in props:
        return Fraction(str(props["power"]))
    if props.get("improvised", True):
        return IMPROVISED_POWER
    return Fraction(0)


def plan_modifier(x: object) -> Fraction:
    m = Fraction(str(x or 0))
    # The source: a good plan +1..+5, a bad one -1..-5 (whole steps); 0 = no modifier.
    if not -5 <= m <= 5 or m.denominator != 1:
        raise RuleError(f"a plan modifies power by a whole number from -5 to +5, not {x!r}")
    return m


def compare(pc_total: Fraction, enemy_total: Fraction) -> str:
    d = pc_total - enemy_total
    if d >= 1:
        return ADVANTAGE
    if d <= -1:
        return DISADVANTAGE
    return EVEN


@dataclass
class Fight:
    result: str
    pc_total: Fraction
    enemy_total: Fraction
    lines: list[tuple[str, str]]

    def explain(self, lang: str = "ja") -> str:
        """The PCs' side and the result, as the players see it: the enemy's power is a figure
        of the scenario, the keeper's (#13 item 25), so it is in :meth:`keeper` only."""
        from runner.rules.ureg.physics import fmt

        i = 0 if lang == "ja" else 1
        body = " + ".join(line[i] for line in self.lines)
        res = (RESULT_JA if lang == "ja" else RESULT_EN)[self.result]
        return f"{body} = {fmt(self.pc_total)} → {res}"

    def keeper(self, lang: str = "ja") -> str:
        """The comparison, for the game master: 「数的戦闘 2.5 対 敵の戦力 2」."""
        from runner.rules.ureg.physics import fmt

        if lang == "ja":
            return f"数的戦闘 {fmt(self.pc_total)} 対 敵の戦力 {fmt(self.enemy_total)}（差が1未満なら対等）"
        return f"numeric combat {fmt(self.pc_total)} vs enemy power {fmt(self.enemy_total)} (under 1 apart: even)"

    def say(self, ctx: Context, lang: str = "ja") -> None:
        ctx.say(self.explain(lang), id="ureg.fight")
        ctx.say(self.keeper(lang), keeper=True, id="ureg.fight.keeper")


def fight(
    fighters: list[tuple[Character, str, str, dict[str, Any] | None]],
    enemy_total: Fraction,
    plan: object = 0,
) -> Fight:
    """``fighters``: (character, item label ja, item label en, item props or None)."""
    from runner.rules.ureg.physics import fmt

    if not fighters:
        raise RuleError("a fight needs at least one PC")
    total = Fraction(0)
    lines: list[tuple[str, str]] = []
    for pc, lab, lab_en, props in fighters:
        armed = props is not None
        p = pc_power(pc, armed)
        ip = item_power(props)
        total += p + ip
        lines.append(
            (
                f"{pc.label}{pc.tags()} {fmt(p)}"
                + (f" + {lab} {fmt(ip)}" if armed else "（素手）"),
                f"{pc.label} {fmt(p)}" + (f" + {lab_en} {fmt(ip)}" if armed else " (bare-handed)"),
            )
        )
    m = plan_modifier(plan)
    if m:
        total += m
        lines.append(
            (f"作戦 {'+' if m > 0 else ''}{fmt(m)}", f"plan {'+' if m > 0 else ''}{fmt(m)}")
        )
    return Fight(compare(total, enemy_total), total, enemy_total, lines)
