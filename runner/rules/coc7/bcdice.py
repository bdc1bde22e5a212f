"""BCDice-compatible commands for Call of Cthulhu 7th edition (新クトゥルフ神話TRPG).

``bcdice(text, source)`` reads ``CC``, ``CC<=50``, ``CC(1)<=50``, ``CC-2<=50``,
``CC<=50h`` (r/h/e/c), ``CBR(x,y)``, ``FAR(...)``, the tables ``BMR`` ``BMS`` ``PH`` ``MA``
``FCL`` ``FCM``, the 6th edition's ``CCB``, ``RES``/``RESB`` and ``CBRB``
(:mod:`runner.rules.coc7.bcdice_more`), our own ``SAN<=55 1/1d6``, every command BCDice has
for all systems (sums of dice, ``D66``, ``C(...)``, ``choice[...]``: :mod:`runner.rules.bcdice`)
and the repeats ``x3 CMD``; it prints what BCDice's Cthulhu7th (Cthulhu for the 6th
edition's) prints for the same dice. Anything else gives None. A leading ``S``
(``SCC<=50``) makes a secret roll, as in BCDice. Text after a space is a comment (except the
SAN loss), kept in ``BCResult.comment``.

Dice order (BCDice's): for CC the tens d10s (one, plus one per bonus or penalty die),
then the units d10, a face of 10 reading 0 and 00+0 reading 100; for a bare ``CC``, ``CBR``
and plain ``1d100``, one d100 face.
"""

from __future__ import annotations

import re
from typing import Any

from runner.rules.bcdice import SUCCESS_LEVELS, BCResult, common, normal, repeat, split
from runner.rules.coc7 import bcdice_more as more
from runner.rules.coc7.checks import LEVEL_JA, level_of, read_percentile
from runner.rules.dice import DiceError, DiceSource, NeedDice, parse
from runner.rules.dice import roll as roll_dice

BONUS_LIMIT = 100
MAX_COMMAND = 1000
"""Characters of a command read as BCDice (longer text is no BCDice command: None)."""
BONUS_ERROR = "ボーナス・ペナルティダイスの値は-100以上、100以下としてください"
RANK_JA = {"success": "成功", "partial": "部分的成功", "failure": "失敗"}


# ---------------------------------------------------------------- preprocessing

_PAREN = re.compile(r"\(([-+*/\d]+)\)")
_TOK = re.compile(r"\d+|[-+*/]")


def _arith(expr: str) -> int | None:
    """Evaluates integers with + - * / (division rounds down), or None if malformed."""
    toks = _TOK.findall(expr)
    if "".join(toks) != expr:
        return None
    pos = 0

    def atom() -> int | None:
        nonlocal pos
        sign = 1
        while pos < len(toks) and toks[pos] in "+-":
            sign = -sign if toks[pos] == "-" else sign
            pos += 1
        if pos >= len(toks) or not toks[pos].isdigit():
            return None
        v = int(toks[pos])
        pos += 1
        return sign * v

    def term() -> int | None:
        nonlocal pos
        v = atom()
        while v is not None and pos < len(toks) and toks[pos] in "*/":
            op = toks[pos]
            pos += 1
            w = atom()
            if w is None or (op == "/" and w == 0):
                return None
            v = v * w if op == "*" else v // w
        return v

    v = term()
    while v is not None and pos < len(toks):
        op = toks[pos]
        if op not in "+-":
            return None
        pos += 1
        w = term()
        if w is None:
            return None
        v = v + w if op == "+" else v - w
    return v


def _arith_char(ch: str) -> bool:
    return ch in "+-*/" or ch.isdecimal()  # what [-+*/\d] matches


def preprocess(cmd: str) -> str:
    """Replaces parenthesised arithmetic by its value, as BCDice does: CC(-1) → CC-1.

    BCDice replaces the leftmost group of digits and + - * / in parentheses again and again,
    and stops at the first that is malformed. Groups close left to right in that same order,
    so one pass with a stack of open parentheses gives the same text in linear time (a
    100 KB command took 27 s when each replacement searched the text again)."""
    out: list[str] = []
    opens: list[list[Any]] = []  # [index in out of "(", inner is only digits and + - * / so far]
    for i, ch in enumerate(cmd):
        if ch == "(":
            opens.append([len(out), True])
            out.append(ch)
            continue
        if ch != ")" or not opens:
            if opens and not _arith_char(ch):
                opens[-1][1] = False
            out.append(ch)
            continue
        start, clean = opens.pop()
        if not clean or start + 1 == len(out):
            out.append(ch)  # (x) or (): left as it is, and the group around it is no arithmetic
            if opens:
                opens[-1][1] = False
            continue
        inner = "".join(out[start + 1 :])
        v = _arith(inner)
        if v is None:
            return "".join(out) + cmd[i:]
        s = str(v)
        if v >= 0 and start > 0 and out[start - 1][-1:].isalpha() and inner[0] == "+":
            s = "+" + s
        del out[start:]
        out.append(s)
        if opens and not all(_arith_char(c) for c in s):
            opens[-1][1] = False
    return "".join(out)


# ---------------------------------------------------------------- dice


def _faces(source: DiceSource, sides: list[int], expr: str) -> list[int]:
    got: list[int] = []
    try:
        for s in sides:
            got.append(source.face(s))
    except NeedDice:
        raise NeedDice(expr, sides[len(got) :]) from None
    return got


def _with_difficulty(total: int, needed: int) -> str:
    """BCDice ``with_difficulty_level``: critical on 01, fumble by the needed number, else success/failure."""
    if total == 1:
        return "critical"
    if total >= (96 if needed < 50 else 100):
        return "fumble"
    return "success" if total <= needed else "failure"


_CC = re.compile(r"^CC([-+]?\d+)?(?:<=(\d+)([RHEC])?)?$")
_CBR = re.compile(r"^CBR\((\d+),(\d+)\)$")
_SAN = re.compile(r"^SAN<=(\d+)$")


def _cc(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    m = _CC.match(cmd)
    if not m:
        return None
    bonus = int(m.group(1) or 0)
    target = int(m.group(2)) if m.group(2) is not None else None
    suffix = m.group(3)
    if target == 0:
        target = None
    elif target is not None and suffix == "H":
        target //= 2
    elif target is not None and suffix == "E":
        target //= 5
    elif target is not None and suffix == "C":
        target = 0
    if bonus == 0 and target is None:
        d = _faces(source, [100], raw)
        return BCResult(f"(1D100) ＞ {d[0]}", raw, d[0], d, [100])
    if abs(bonus) > BONUS_LIMIT:
        return BCResult(BONUS_ERROR, raw, error=True)
    n = abs(bonus) + 1
    d = _faces(source, [10] * (n + 1), raw)
    total, cands = read_percentile(d[:n], d[n], bonus)
    expr = "1D100" if target is None else f"1D100<={target}"
    parts = [
        f"({expr}) ボーナス・ペナルティダイス[{bonus}]",
        ", ".join(map(str, cands)),
        str(total),
    ]
    level = None
    if target is not None:
        level = _with_difficulty(total, target) if suffix else level_of(total, target)
        parts.append(LEVEL_JA[level])
    flags = (
        {}
        if level is None
        else {
            "success": level in SUCCESS_LEVELS,
            "failure": level not in SUCCESS_LEVELS,
            "critical": level == "critical",
            "fumble": level == "fumble",
        }
    )
    return BCResult(
        " ＞ ".join(parts),
        raw,
        total,
        d,
        [10] * len(d),
        level,
        target=target,
        bonus=bonus,
        flags=flags,
    )


def _cbr(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    m = _CBR.match(cmd)
    if not m:
        return None
    t1, t2 = int(m.group(1)), int(m.group(2))
    d = _faces(source, [100], raw)
    total = d[0]
    l1, l2 = level_of(total, t1), level_of(total, t2)
    ok1, ok2 = l1 in SUCCESS_LEVELS, l2 in SUCCESS_LEVELS
    rank = "success" if ok1 and ok2 else ("partial" if ok1 or ok2 else "failure")
    text = f"(1d100<={t1},{t2}) ＞ {total}[{LEVEL_JA[l1]},{LEVEL_JA[l2]}] ＞ {RANK_JA[rank]}"
    return BCResult(
        text,
        raw,
        total,
        d,
        [100],
        l1,
        levels=[l1, l2],
        rank=rank,
        flags={"success": rank == "success", "failure": rank == "failure"},
    )


def _san(cmd: str, loss: str, source: DiceSource, raw: str) -> BCResult | None:
    m = _SAN.match(cmd)
    if not m:
        return None
    san = int(m.group(1))
    x = y = None
    if loss:
        parts = loss.replace("／", "/").split("/")
        if len(parts) != 2:
            return None
        try:
            x, y = parse(parts[0]), parse(parts[1])
        except DiceError:
            return None
    d = _faces(source, [10, 10], raw)
    total, _ = read_percentile(d[:1], d[1], 0)
    lv = level_of(total, san)
    level = lv if lv in ("critical", "fumble", "failure") else "success"
    parts_out = [f"(1D100<={san}) 正気度ロール", str(total), LEVEL_JA[level]]
    info = None
    sides = [10, 10]
    dice = list(d)
    if x is not None and y is not None:
        spec = x if level in SUCCESS_LEVELS else y
        if level == "fumble":
            amount = max(0, y.maximum)
            parts_out.append(f"正気度喪失 {y.text.upper()}の最大値 {amount}")
        elif spec.dice_count == 0:
            amount = max(0, spec.minimum)
            parts_out.append(f"正気度喪失 {amount}")
        else:
            r = roll_dice(spec, source)
            dice += list(r.dice)
            sides += list(r.sides)
            amount = max(0, r.total)
            parts_out.append(
                f"正気度喪失 {spec.text.upper()}[{','.join(map(str, r.dice))}] = {amount}"
            )
        after = max(0, san - amount)
        parts_out.append(f"正気度 {san} → {after}")
        if after == 0:
            parts_out.append("永久的狂気")
        elif amount >= 5:
            parts_out.append("5以上の喪失：〈アイデア〉ロールで一時的狂気を判定")
        info = {"before": san, "loss": amount, "after": after, "expr": loss}
    return BCResult(" ＞ ".join(parts_out), raw, total, dice, sides, level, target=san, san=info)


_SYSTEM = re.compile(r"^(S)?(CCB|CBRB|RESB?|CC|CBR|FAR|BMR|BMS|FCL|FCM|PH|MA)")


def _system(raw: str, source: DiceSource) -> BCResult | None:
    """A Call of Cthulhu command (7th edition, and the 6th's CCB, RES, CBRB), or None."""
    word, rest = split(raw)
    cmd = word.upper()
    if cmd.startswith("SAN") or cmd.startswith("SSAN"):
        secret = cmd.startswith("SS")
        loss, _, comment = rest.partition(" ")
        res = _san(preprocess(cmd[1:] if secret else cmd), loss, source, raw)
        if res is not None:
            res.secret, res.comment = secret, comment.strip()
        return res
    cmd = preprocess(cmd)
    m = _SYSTEM.match(cmd)
    if not m:
        return None
    secret = m.group(1) is not None
    cmd = cmd[1:] if secret else cmd
    kind = m.group(2)
    if kind == "CCB":
        res = more.check6(cmd, source, raw)
    elif kind == "CBRB":
        res = more.combine6(cmd, source, raw)
    elif kind.startswith("RES"):
        res = more.resist6(cmd, source, raw)
    elif kind == "CC":
        res = _cc(cmd, source, raw)
    elif kind == "CBR":
        res = _cbr(cmd, source, raw)
    elif kind == "FAR":
        res = more.full_auto(cmd, source, raw)
    else:
        res = more.table(cmd, source, raw)
    if res is not None:
        res.secret = secret
        res.comment = rest
    return res


def _one(raw: str, source: DiceSource) -> BCResult | None:
    return _system(raw, source) or common(raw, source)


def bcdice(text: str, source: DiceSource) -> BCResult | None:
    """Runs a BCDice command (Call of Cthulhu's, then the common ones, then a repeat) with
    ``source``'s dice; None if ``text`` is not one."""
    raw = normal(text)
    if not raw or len(raw) > MAX_COMMAND:
        return None
    return repeat(raw, lambda t: _one(t, source), raw=raw) or _one(raw, source)
