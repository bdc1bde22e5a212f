"""Bodies and heights, in exact metres (``Fraction``).

Figures from the source's Q&A and ability notes, read through rulings UA-10 to UA-15:
reach 2 m (〈×低身長〉 −0.5, 〈○小柄〉 2 m); shoulder ride 3 m, standing +0.5 only with a
〈○身軽〉/〈○小柄〉 on top; vertical jump 0.5 m, long jump 1.5 m (身軽 0.75/3, 鈍重 0.25/1),
a run-up multiplies the adjusted figure by 1.5 (vertical) or 2 (long); a jump gives only a
momentary touch; platforms add their height and stack; a ladder is unstable footing.

Where a created character holds both a boosting and a hindering trait for the same figure
(〈○身軽〉 with 〈×鈍重〉), the two cancel out to the ordinary figure: our reading, since the
source only knows the presets.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from runner.rules.ureg.abilities import Character

F = Fraction
REACH = F(2)
SHORT_PENALTY = F(1, 2)
SHOULDER = F(3)
STANDING_BONUS = F(1, 2)
RUN_UP_VERTICAL = F(3, 2)
RUN_UP_LONG = F(2)


def metres(x: object) -> Fraction:
    """Reads a height (int, str "1.5", float, Fraction) exactly."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float):
        return F(str(x))
    if isinstance(x, (int, str)):
        return F(str(x).strip().removesuffix("m").strip() if isinstance(x, str) else x)
    raise ValueError(f"not a length: {x!r}")


def fmt(x: Fraction) -> str:
    """1.5, 5, 1.125, 0.4: the shortest exact decimal (or a rounded one if none)."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        s = f"{float(x):.6f}".rstrip("0").rstrip(".")
        return s
    return f"{float(x):.3f}"


def reach(pc: Character) -> Fraction:
    """Standing reach: 2 m, 〈×低身長〉 50 cm less (〈○小柄〉 alone keeps 2 m, UA-11)."""
    return REACH - (SHORT_PENALTY if pc.bad == "低身長" else 0)


def vertical_jump(pc: Character, run_up: bool = False) -> Fraction:
    base = _jump(pc, F(1, 2), F(3, 4), F(1, 4))
    return base * RUN_UP_VERTICAL if run_up else base


def long_jump(pc: Character, run_up: bool = False) -> Fraction:
    base = _jump(pc, F(3, 2), F(3), F(1))
    return base * RUN_UP_LONG if run_up else base


def _jump(pc: Character, normal: Fraction, nimble: Fraction, heavy: Fraction) -> Fraction:
    n, h = pc.good == "身軽", pc.bad == "鈍重"
    if n and not h:
        return nimble
    if h and not n:
        return heavy
    return normal


def can_lift(bottom: Character, top: Character) -> bool:
    """Whether ``bottom`` can take ``top`` on the shoulders (or pull them up)."""
    if bottom.id == top.id:
        return False
    small_top = top.good == "小柄"
    if bottom.bad in ("非力", "低身長"):
        return small_top and top.bad != "鈍重"
    if top.bad == "鈍重":
        return bottom.good == "強力"
    return True


can_pull_up = can_lift


def can_stand_on_shoulders(top: Character) -> bool:
    return top.good in ("身軽", "小柄")


def shoulder_reach(bottom: Character, top: Character, standing: bool = False) -> Fraction:
    """3 m; −0.5 for a 〈×低身長〉 on top and again for one below; +0.5 standing (UA-11/12)."""
    h = SHOULDER
    if top.bad == "低身長":
        h -= SHORT_PENALTY
    if bottom.bad == "低身長":
        h -= SHORT_PENALTY
    if standing:
        h += STANDING_BONUS
    return h


def can_cross(pc: Character, gap: Fraction, run_up: bool = False) -> bool:
    """A long jump clears ``gap`` when it is at least as long (equality succeeds)."""
    return long_jump(pc, run_up) >= gap


# ---- platforms and the reach solver ----


@dataclass(frozen=True, slots=True)
class Form:
    """One way to stand on an item."""

    item: str
    label: str
    label_en: str
    height: Fraction
    unstable: bool = False
    support: bool = False


@dataclass
class Attempt:
    """One way of reaching up and how high it gets."""

    ok: bool
    target: Fraction
    total: Fraction
    parts: list[tuple[str, str, Fraction]] = field(default_factory=list)
    stance: str = "stand"
    who: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    note: str = ""
    note_en: str = ""
    blocked: bool = False
    """True when the body cannot do it at all (鈍重 alone on a ladder, a lift not allowed)."""

    def explain(self, lang: str = "ja") -> str:
        i = 0 if lang == "ja" else 1
        lhs = " + ".join(f"{p[i]} {fmt(p[2])} m" for p in self.parts)
        rel = "≥" if self.total >= self.target else "<"
        s = f"{lhs} = {fmt(self.total)} m {rel} {fmt(self.target)} m"
        note = self.note if lang == "ja" else self.note_en
        return f"{s}（{note}）" if note and lang == "ja" else (f"{s} ({note})" if note else s)


STANCES = ("stand", "shoulder", "standing_shoulder", "touch", "run_touch")
_STANCE_ALIASES = {
    "any": "",
    "": "",
    "climb": "stand",
    "jump": "touch",
    "jump_touch": "touch",
    "run_jump": "run_touch",
    "runup": "run_touch",
    "standing": "standing_shoulder",
}


def stance_set(how: str) -> tuple[str, ...]:
    h = (how or "").strip().lower()
    h = _STANCE_ALIASES.get(h, h)
    if not h:
        return STANCES
    out = []
    for part in h.replace("|", ",").split(","):
        part = _STANCE_ALIASES.get(part.strip(), part.strip())
        if part not in STANCES:
            raise ValueError(f"unknown way to reach: {part!r} (one of {', '.join(STANCES)})")
        out.append(part)
    return tuple(out)


def _reach_label(pc: Character) -> tuple[str, str]:
    if pc.bad == "低身長":
        return "手の届く高さ（×低身長）", "reach (×Short)"
    return "手の届く高さ", "reach"


def _stacks(forms_by_item: dict[str, list[Form]], exact: bool) -> list[tuple[Form, ...]]:
    """Every stack: one form per chosen item, at most one ladder, the ladder on top."""
    ids = list(forms_by_item)
    sizes = [len(ids)] if exact else range(len(ids) + 1)
    out: list[tuple[Form, ...]] = []
    for n in sizes:
        for combo in itertools.combinations(ids, n):
            for forms in itertools.product(*(forms_by_item[i] for i in combo)):
                if sum(f.unstable for f in forms) > 1:
                    continue
                out.append(tuple(sorted(forms, key=lambda f: f.unstable)))
    return out


def solve(
    target: Fraction,
    pcs: list[Character],
    forms_by_item: dict[str, list[Form]],
    *,
    stances: tuple[str, ...] = STANCES,
    exact_items: bool = False,
    run_up_room: bool = True,
    pull_up: bool = False,
) -> tuple[Attempt | None, Attempt | None]:
    """Searches the ways to reach ``target``: returns (the simplest success, the best failure).

    Success prefers fewer items, then standing over shoulder rides over jumps. With
    ``exact_items`` every given item must be used (a proposal naming them). With ``pull_up``
    the party climbs up there, so a shoulder ride counts only when the one on top can then
    pull the one below up.
    """
    best_ok: tuple[tuple[Any, ...], Attempt] | None = None
    best_fail: tuple[tuple[Any, ...], Attempt] | None = None
    for stack in _stacks(forms_by_item, exact_items):
        base = sum((f.height for f in stack), F(0))
        base_parts = [(f.label, f.label_en, f.height) for f in stack]
        unstable = any(f.unstable for f in stack)
        support = any(f.support for f in stack)
        for att in _attempts(
            target, pcs, stack, base, base_parts, unstable, support, stances, run_up_room, pull_up
        ):
            # Fewer items, then the simplest stance, then steady footing (a stepladder as a
            # step before as a ladder), then the higher.
            rank = (len(stack), STANCES.index(att.stance), unstable, -att.total)
            if att.ok and not att.blocked:
                if best_ok is None or rank < best_ok[0]:
                    best_ok = (rank, att)
            else:
                frank = (att.blocked, -att.total, len(stack), STANCES.index(att.stance))
                if best_fail is None or frank < best_fail[0]:
                    best_fail = (frank, att)
    return (best_ok[1] if best_ok else None), (best_fail[1] if best_fail else None)


def _attempts(
    target: Fraction,
    pcs: list[Character],
    stack: tuple[Form, ...],
    base: Fraction,
    base_parts: list[tuple[str, str, Fraction]],
    unstable: bool,
    support: bool,
    stances: tuple[str, ...],
    run_up_room: bool,
    pull_up: bool = False,
) -> Iterator[Attempt]:
    items = tuple(f.item for f in stack)
    others = len(pcs) > 1
    for pc in pcs:
        rl, rle = _reach_label(pc)
        heavy_blocked = unstable and pc.bad == "鈍重" and not others and not support
        note = (
            "〈×鈍重〉は支えがないと梯子に登れない"
            if heavy_blocked
            else ("もう一人が梯子を支える" if unstable and pc.bad == "鈍重" else "")
        )
        note_en = (
            "〈×Heavy〉 cannot climb a ladder without support"
            if heavy_blocked
            else ("another PC holds the ladder" if unstable and pc.bad == "鈍重" else "")
        )
        if "stand" in stances:
            total = base + reach(pc)
            yield Attempt(
                total >= target,
                target,
                total,
                [*base_parts, (rl, rle, reach(pc))],
                "stand",
                (pc.id,),
                items,
                note,
                note_en,
                heavy_blocked,
            )
        for stance, run in (("touch", False), ("run_touch", True)):
            if stance not in stances or unstable:
                continue
            if run and (stack or not run_up_room):
                continue  # a run-up needs open floor, not a box top
            j = vertical_jump(pc, run)
            total = base + reach(pc) + j
            jl = ("助走ジャンプ", "running jump") if run else ("垂直跳び", "vertical jump")
            yield Attempt(
                total >= target,
                target,
                total,
                [*base_parts, (rl, rle, reach(pc)), (jl[0], jl[1], j)],
                stance,
                (pc.id,),
                items,
                "跳んだ一瞬だけ触れる",
                "a momentary touch only",
            )
    if unstable:
        return  # no shoulder rides on a ladder
    for bottom, top in itertools.permutations(pcs, 2):
        for stance, standing in (("shoulder", False), ("standing_shoulder", True)):
            if stance not in stances:
                continue
            lift_ok = can_lift(bottom, top)
            stand_ok = not standing or can_stand_on_shoulders(top)
            pull_ok = not pull_up or can_pull_up(top, bottom)
            h = shoulder_reach(bottom, top, standing)
            label = (
                ("立ち肩車", "standing shoulder ride") if standing else ("肩車", "shoulder ride")
            )
            total = base + h
            note, note_en = "", ""
            if not lift_ok:
                note = f"{bottom.label}は{top.label}を持ち上げられない"
                note_en = f"{bottom.label} cannot lift {top.label}"
            elif not stand_ok:
                note = "立ち肩車は上に〈○身軽〉か〈○小柄〉が必要"
                note_en = "a standing ride needs 〈○Nimble〉 or 〈○Small〉 on top"
            elif not pull_ok:
                note = f"上がった{top.label}は{bottom.label}を引っ張り上げられない"
                note_en = f"{top.label}, once up, cannot pull {bottom.label} up"
            yield Attempt(
                total >= target,
                target,
                total,
                [
                    *base_parts,
                    (
                        f"{label[0]}（{bottom.label}→{top.label}）",
                        f"{label[1]} ({bottom.label}→{top.label})",
                        h,
                    ),
                ],
                stance,
                (bottom.id, top.id),
                items,
                note,
                note_en,
                not (lift_ok and stand_ok and pull_ok),
            )
