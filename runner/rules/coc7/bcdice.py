"""BCDice-compatible commands for Call of Cthulhu 7th edition (新クトゥルフ神話TRPG).

``bcdice(text, source)`` reads ``CC``, ``CC<=50``, ``CC(1)<=50``, ``CC-2<=50``,
``CC<=50h`` (r/h/e/c), ``CBR(x,y)``, plain ``1d100<=50`` and our own ``SAN<=55 1/1d6``,
and prints what BCDice's Cthulhu7th prints for the same dice. Anything else gives None.
A leading ``S`` (``SCC<=50``) makes a secret roll, as in BCDice. Text after a space is a
comment (except the SAN loss).

Dice order (BCDice's): for CC the tens d10s (one, plus one per bonus or penalty die),
then the units d10, a face of 10 reading 0 and 00+0 reading 100; for a bare ``CC``, ``CBR``
and plain ``1d100``, one d100 face.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from runner.rules.coc7.checks import LEVEL_JA, level_of, read_percentile
from runner.rules.dice import DiceError, DiceSource, NeedDice, parse
from runner.rules.dice import roll as roll_dice

BONUS_LIMIT = 100
MAX_COMMAND = 1000
"""Characters of a command read as BCDice (longer text is no BCDice command: None)."""
BONUS_ERROR = "ボーナス・ペナルティダイスの値は-100以上、100以下としてください"
SUCCESS_LEVELS = frozenset({"critical", "extreme", "hard", "regular", "success"})
RANK_JA = {"success": "成功", "partial": "部分的成功", "failure": "失敗"}


@dataclass
class BCResult:
    """One command's result: BCDice's text plus the numbers behind it."""

    text: str
    command: str = ""
    total: int | None = None
    dice: list[int] = field(default_factory=list)
    sides: list[int] = field(default_factory=list)
    level: str | None = None
    """critical, extreme, hard, regular, success (with a difficulty suffix), failure, fumble."""
    levels: list[str] | None = None
    """CBR: the level against each target."""
    rank: str | None = None
    """CBR: success, partial or failure."""
    target: int | None = None
    bonus: int = 0
    secret: bool = False
    error: bool = False
    san: dict | None = None
    """SAN: {before, loss, after, expr}."""

    @property
    def success(self) -> bool | None:
        if self.rank is not None:
            return self.rank == "success"
        return None if self.level is None else self.level in SUCCESS_LEVELS

    def to_json(self) -> dict:
        out: dict = {"command": self.command, "text": self.text, "total": self.total,
                     "dice": list(self.dice), "sides": list(self.sides), "level": self.level,
                     "success": self.success, "critical": self.level == "critical",
                     "fumble": self.level == "fumble", "secret": self.secret}
        if self.target is not None:
            out["target"] = self.target
        if self.bonus:
            out["bonus"] = self.bonus
        if self.levels is not None:
            out["levels"] = list(self.levels)
            out["rank"] = self.rank
        if self.san is not None:
            out["san"] = dict(self.san)
        if self.error:
            out["error"] = True
        return out


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
    opens: list[list] = []  # [index in out of "(", inner is only digits and + - * / so far]
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
        inner = "".join(out[start + 1:])
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
        raise NeedDice(expr, sides[len(got):]) from None
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
_D100 = re.compile(r"^1D100<=(\d+)$")


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
    parts = [f"({expr}) ボーナス・ペナルティダイス[{bonus}]", ", ".join(map(str, cands)), str(total)]
    level = None
    if target is not None:
        level = _with_difficulty(total, target) if suffix else level_of(total, target)
        parts.append(LEVEL_JA[level])
    return BCResult(" ＞ ".join(parts), raw, total, d, [10] * len(d), level, target=target,
                    bonus=bonus)


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
    return BCResult(text, raw, total, d, [100], l1, levels=[l1, l2], rank=rank)


def _d100(cmd: str, source: DiceSource, raw: str) -> BCResult | None:
    m = _D100.match(cmd)
    if not m:
        return None
    target = int(m.group(1))
    d = _faces(source, [100], raw)
    # BCDice's Cthulhu7th gives plain dice only success or failure.
    level = "success" if d[0] <= target else "failure"
    return BCResult(f"(1D100<={target}) ＞ {d[0]} ＞ {LEVEL_JA[level]}", raw, d[0], d, [100],
                    level, target=target)


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
            parts_out.append(f"正気度喪失 {spec.text.upper()}[{','.join(map(str, r.dice))}] = {amount}")
        after = max(0, san - amount)
        parts_out.append(f"正気度 {san} → {after}")
        if after == 0:
            parts_out.append("永久的狂気")
        elif amount >= 5:
            parts_out.append("5以上の喪失：〈アイデア〉ロールで一時的狂気を判定")
        info = {"before": san, "loss": amount, "after": after, "expr": loss}
    return BCResult(" ＞ ".join(parts_out), raw, total, dice, sides, level, target=san, san=info)


def bcdice(text: str, source: DiceSource) -> BCResult | None:
    """Runs a CoC 7th BCDice command with ``source``'s dice; None if ``text`` is not one."""
    raw = unicodedata.normalize("NFKC", str(text)).strip()
    if not raw or len(raw) > MAX_COMMAND:
        return None
    words = raw.split()
    cmd = words[0].upper()
    secret = False
    if cmd.startswith("S") and not cmd.startswith("SAN"):
        secret, cmd = True, cmd[1:]
    cmd = preprocess(cmd)
    res: BCResult | None
    if cmd.startswith("CC"):
        res = _cc(cmd, source, raw)
    elif cmd.startswith("CBR"):
        res = _cbr(cmd, source, raw)
    elif cmd.startswith("SAN"):
        res = _san(cmd, words[1] if len(words) > 1 else "", source, raw)
    elif cmd.startswith("1D100"):
        res = _d100(cmd, source, raw)
    else:
        res = None
    if res is not None:
        res.secret = secret
    return res
