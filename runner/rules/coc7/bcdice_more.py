"""More of BCDice's Call of Cthulhu commands: full auto fire ``FAR(...)``, the 7th edition's
tables (``BMR``, ``BMS``, ``PH``, ``MA``, ``FCL``, ``FCM``) and, from the 6th edition (BCDice's
``Cthulhu`` system), ``CCB``, ``RES``/``RESB`` and ``CBRB`` with their own levels
(決定的成功, スペシャル, 致命的失敗, 故障).

Each function takes the command as BCDice's preprocessing leaves it (upper case, no ``S``,
parenthesised arithmetic worked out: ``RESB(10-8)`` is ``RESB2``) and returns a
:class:`~runner.rules.bcdice.BCResult`, or None when the text is not that command. The
wording is BCDice's; the tables' entries are our own words (:mod:`runner.rules.coc7.tables`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from runner.rules.bcdice import BCResult, calc, faces
from runner.rules.coc7 import tables
from runner.rules.coc7.checks import LEVEL_JA, read_percentile
from runner.rules.coc7.tables import BOUTS_REALTIME, BOUTS_SUMMARY
from runner.rules.dice import DiceSource

# ---------------------------------------------------------------- tables

_TABLES: dict[str, tuple[str, int, Callable[[int], str], str]] = {
    "BMR": ("狂気の発作（リアルタイム）", 10, lambda n: BOUTS_REALTIME[n - 1][0], "ラウンド"),
    "BMS": ("狂気の発作（サマリー）", 10, lambda n: BOUTS_SUMMARY[n - 1][0], "時間"),
    "PH": ("恐怖症表", 100, tables.phobia, ""),
    "MA": ("マニア表", 100, tables.mania, ""),
    "FCL": ("キャスティング・ロール失敗(小)表", 8, lambda n: tables.CASTING_MINOR[n - 1], ""),
    "FCM": ("キャスティング・ロール失敗(大)表", 8, lambda n: tables.CASTING_MAJOR[n - 1], ""),
}


def table(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    """``BMR``/``BMS`` (a bout of madness, 1D10, and its length, 1D10 rounds or hours), ``PH``
    and ``MA`` (1D100), ``FCL`` and ``FCM`` (1D8)."""
    spec = _TABLES.get(cmd)
    if spec is None:
        return None
    name, sides, entry, unit = spec
    sizes = [sides, 10] if unit else [sides]
    got = faces(source, sizes, raw)
    text = f"{name}({got[0]}) ＞ {entry(got[0])}"
    if unit:
        text += f"(1D10＞{got[1]}{unit})"
    return BCResult(text, raw, got[0], got, sizes)


# ---------------------------------------------------------------- full auto

_FAR = re.compile(
    r"^FAR\((-?\d+),(-?\d+),(-?\d+)(?:,(-?\d+)?)?(?:,(-?[A-Z0-9_]+)?)?(?:,(-?\d+)?)?\)$"
)
_STOP = {"r": 0, "h": 1, "e": 2}
"""Stop the burst once the difficulty has reached regular, hard or extreme."""
_DIFF_NOTE = {
    1: "\n【難易度がハードに変更】",
    2: "\n【難易度がイクストリームに変更】",
    3: "\n【難易度がクリティカルに変更】",
}
_HITS = {  # difficulty step -> (levels that hit, levels that impale)
    0: (("hard", "regular"), ("critical", "extreme")),
    1: (("hard",), ("critical", "extreme")),
    2: ((), ("critical", "extreme")),
    3: (("critical",), ()),
}


def _far_level(total: int, skill: int, harder: bool) -> str:
    """A burst's level: as a skill roll, but once the difficulty has gone up only 95 and
    less can succeed, so 96+ fumbles whatever the skill."""
    if total == 1:
        return "critical"
    if total >= (96 if skill < 50 or harder else 100):
        return "fumble"
    if total <= skill // 5:
        return "extreme"
    if total <= skill // 2:
        return "hard"
    return "regular" if total <= skill else "failure"


class _Burst:
    """One full-auto attack: volleys until the gun jams, the rounds run out or no difficulty
    is left (penalty dice grow one a volley; past two the difficulty goes up a step)."""

    def __init__(self, source: DiceSource, raw: str, skill: int, jam: int, volley: int) -> None:
        self.source, self.raw = source, raw
        self.skill, self.jam, self.volley_cap = skill, jam, volley
        self.dice: list[int] = []

    def volley_size(self) -> int:
        if 1 <= self.skill < 30:
            return 3  # the least a volley can be
        return min(self.skill // 10, self.volley_cap)

    def rounds(self, left: int, kind: str) -> tuple[int, int, int]:
        """(rounds that hit, rounds that impale, rounds spent) of one volley."""
        size = self.volley_size()
        if left - size >= 0:
            if kind == "hit":
                return (1 if 1 <= self.skill < 30 else size // 2), 0, size
            if kind == "impale":
                return -(-size // 2), size // 2, size
            return 0, 0, size
        last = 1 if left == 1 else left // 2  # the last rounds in the magazine
        if kind == "hit":
            return last, 0, left
        if kind == "impale":
            return left - last, last, left
        return 0, 0, left

    def fire(self, bullets: int, bonus: int, stop: str) -> str:
        out = ""
        shots = hits = impales = 0
        left = bullets
        dice = bonus

        def summary() -> str:
            return f"{out}\n＞ {hits}発が通常命中、{impales}発が貫通、残弾{left}発"

        for step in range(4):
            out += _DIFF_NOTE.get(step, "")
            while dice >= -2:
                shots += 1
                n = abs(dice) + 1
                got = faces(self.source, [10] * (n + 1), self.raw)
                self.dice += got
                total, cands = read_percentile(got[:n], got[n], dice)
                level = _far_level(total, self.skill, step >= 1)
                out += f"\n{shots}回目: ＞ {', '.join(map(str, cands))} ＞ {LEVEL_JA[level]}"
                if total >= self.jam:
                    out += "　ジャム"
                    return summary()
                hit_on, impale_on = _HITS[step]
                kind = "hit" if level in hit_on else "impale" if level in impale_on else ""
                h, i, spent = self.rounds(left, kind)
                out += f"　（{h}発が命中、{i}発が貫通）"
                hits, impales, left = hits + h, impales + i, left - spent
                if left <= 0:
                    return summary()
                dice -= 1
            if stop in _STOP and step >= _STOP[stop]:
                out += "\n【指定の難易度となったので、処理を終了します。】"
                break
            dice += 1
        return summary()


def full_auto(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    """``FAR(rounds, skill, malfunction[, bonus dice -2..2[, stop at r/h/e[, volley size]]])``:
    hits and impales of a burst (no damage), as BCDice counts them."""
    m = _FAR.match(cmd)
    if not m:
        return None
    bullets, skill, jam = int(m.group(1)), int(m.group(2)), int(m.group(3))
    bonus = int(m.group(4) or 0)
    stop = (m.group(5) or "").lower()
    given = m.group(6) is not None
    volley = int(m.group(6)) if given else skill // 10
    out = ""
    if bullets > 100:
        out += "弾薬が多すぎます。装填された弾薬を100発に変更します。\n"
        bullets = 100
    if given and volley > skill // 10 and skill > 39:
        volley = skill // 10
        out += (
            "ボレーの弾丸の数の上限は[技能値÷10（切り捨て）]発なので、それより高い数を指定できません。"
            f"ボレーの弾丸の数を{volley}発に変更します。\n"
        )
    elif given and skill <= 39 and volley > 3:
        volley = 3
        out += "技能値が39以下ではボレーの弾丸の数の上限および下限は3発です。ボレーの弾丸の数を3発に変更します。\n"
    if given and volley <= 0:
        return BCResult("ボレーの弾丸の数は正の数です。", raw, error=True)
    if given and volley < 3:
        volley = 3
        out += "ボレーの弾丸の数の下限は3発です。ボレーの弾丸の数を3発に変更します。\n"
    if bullets <= 0:
        return BCResult("弾薬は正の数です。", raw, error=True)
    if skill <= 0:
        return BCResult("目標値は正の数です。", raw, error=True)
    if jam < 0:
        out += "故障ナンバーは正の数です。マイナス記号を外します。\n"
        jam = -jam
    if not -2 <= bonus <= 2:
        return BCResult("エラー。ボーナス・ペナルティダイスの値は-2～2です。", raw, error=True)
    burst = _Burst(source, raw, skill, jam, volley)
    text = out + f"ボーナス・ペナルティダイス[{bonus}]" + burst.fire(bullets, bonus, stop)
    return BCResult(text, raw, None, burst.dice, [10] * len(burst.dice))


# ---------------------------------------------------------------- 6th edition

LEVEL6_JA = {
    "critical_special": "決定的成功/スペシャル",
    "critical": "決定的成功",
    "special": "スペシャル",
    "success": "成功",
    "fumble_broken": "致命的失敗/故障",
    "broken": "故障",
    "fumble": "致命的失敗",
    "failure": "失敗",
}
_LEVEL6 = {"critical_special": "critical", "fumble_broken": "fumble"}
"""6th-edition verdicts as Katari's levels (critical, special, success, fumble, broken, failure)."""


def _compare6(total: int, target: int, five: bool, broken: int = 0) -> tuple[str, dict[str, Any]]:
    """The 6th edition's verdict on a d100 (criticals 1 or 1-5, fumbles 100 or 96-100;
    スペシャル at a fifth of the target) and BCDice's flags."""
    crit, fumble_at = (5, 96) if five else (1, 100)
    if total <= target and total < 100:
        special = total <= max(1, min(100, target * 20 // 100))
        critical = total <= crit
        key = (
            "critical_special"
            if critical and special
            else "critical"
            if critical
            else "special"
            if special
            else "success"
        )
        flags = {"success": True, "critical": critical}
    else:
        key = "fumble" if total >= fumble_at else "failure"
        flags = {"failure": True, "fumble": key == "fumble"}
    if broken > 0 and total >= broken:
        key = "fumble_broken" if key == "fumble" else "broken"
        flags = {"failure": True, "fumble": key == "fumble_broken"}
    return key, flags


_CCB = re.compile(r"^CCB(\d+)?(?:<=([+,\-./*\d]+))?$")
_RES = re.compile(r"^RES(B)?(-?\d+)$")
_CBRB = re.compile(r"^CBRB\((\d+),(\d+)\)$")


def check6(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    """``CCB<=75`` (and ``CCB(98)<=75``, a malfunction number): a 6th-edition skill roll
    under BCDice's 5% rule."""
    m = _CCB.match(cmd)
    if not m:
        return None
    broken = int(m.group(1) or 0)
    target = 0
    if m.group(2):
        c = calc("C(" + m.group(2) + ")")
        target = c.total if c is not None and c.total is not None else 0
    d = faces(source, [100], raw)
    total = d[0]
    if target <= 0:
        return BCResult(f"(1D100) ＞ {total}", raw, total, d, [100])
    expr = f"(1D100<={target})" + (f" 故障ナンバー[{broken}]" if broken > 0 else "")
    key, flags = _compare6(total, target, True, broken)
    return BCResult(
        f"{expr} ＞ {total} ＞ {LEVEL6_JA[key]}",
        raw,
        total,
        d,
        [100],
        _LEVEL6.get(key, key),
        target=target,
        flags=flags,
    )


def resist6(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    """``RESB(active-passive)`` (5% rule) and ``RES(...)`` (1%): the resistance table, a
    target of 50 + 5 × the difference."""
    m = _RES.match(cmd)
    if not m:
        return None
    five = m.group(1) is not None
    target = int(m.group(2)) * 5 + 50
    if target < 5:
        return BCResult(
            f"(1d100<={target}) ＞ 自動失敗",
            raw,
            None,
            level="failure",
            target=target,
            flags={"failure": True},
        )
    if target > 95:
        return BCResult(
            f"(1d100<={target}) ＞ 自動成功",
            raw,
            None,
            level="success",
            target=target,
            flags={"success": True},
        )
    d = faces(source, [100], raw)
    key, flags = _compare6(d[0], target, five)
    return BCResult(
        f"(1d100<={target}) ＞ {d[0]} ＞ {LEVEL6_JA[key]}",
        raw,
        d[0],
        d,
        [100],
        _LEVEL6.get(key, key),
        target=target,
        flags=flags,
    )


def combine6(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    """``CBRB(x,y)``: one d100 against two targets, 6th-edition levels (5% rule)."""
    m = _CBRB.match(cmd)
    if not m:
        return None
    t1, t2 = int(m.group(1)), int(m.group(2))
    d = faces(source, [100], raw)
    total = d[0]
    (k1, f1), (k2, f2) = _compare6(total, t1, True), _compare6(total, t2, True)
    ok1, ok2 = "success" in f1, "success" in f2
    rank = "success" if ok1 and ok2 else "partial" if ok1 or ok2 else "failure"
    rank_ja = {"success": "成功", "partial": "部分的成功", "failure": "失敗"}[rank]
    flags = {
        "critical": bool(f1.get("critical") or f2.get("critical")),
        "fumble": bool(f1.get("fumble") or f2.get("fumble")),
        "success": ok1 or ok2,
        "failure": not (ok1 or ok2),
    }
    return BCResult(
        f"(1d100<={t1},{t2}) ＞ {total}[{LEVEL6_JA[k1]},{LEVEL6_JA[k2]}] ＞ {rank_ja}",
        raw,
        total,
        d,
        [100],
        _LEVEL6.get(k1, k1),
        levels=[_LEVEL6.get(k1, k1), _LEVEL6.get(k2, k2)],
        rank=rank,
        flags=flags,
    )
