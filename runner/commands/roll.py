"""`katari roll EXPR`: dice from the command line (plain notation, or BCDice's CoC 7th syntax)."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("roll", help="roll dice (1d6+1d4, CC<=50, ...)",
                       description="Roll dice. Plain notation: 1d6+1d4, 3d3, 2d10-1, 1d100. "
                                   "CoC 7th in BCDice's syntax: CC<=50, CC(1)<=50, CC<=50h, CBR(50,30), "
                                   "SAN<=55 1/1d6, 1d100<=50.")
    p.add_argument("expr", nargs="+", help="what to roll")
    p.add_argument("--seed", type=int, default=None, help="seed for repeatable rolls")
    p.add_argument("--dice", default=None,
                   help="the faces of real dice, in the order rolled, e.g. 3,5 (tens die first for CC)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


MAX_EXPR = 1000
"""Characters of what to roll: far more than any dice notation or BCDice command needs."""


def _source(args: argparse.Namespace):  # noqa: ANN202
    import secrets

    from runner.rules.dice import MAX_DICE, MAX_SIDES, ManualDice, SeededDice, seed_state

    seed = args.seed if args.seed is not None else secrets.randbits(63)
    seeded = SeededDice(seed_state(seed))
    if args.dice:
        words = [x for x in args.dice.replace(" ", "").split(",") if x]
        if len(words) > MAX_DICE or not all(w.isdecimal() and len(w) <= 4 and int(w) <= MAX_SIDES
                                            for w in words):
            raise ValueError(args.dice)
        faces = [int(x) for x in words]
        return ManualDice(faces), faces
    return seeded, None


def run(args: argparse.Namespace) -> int:
    from runner.rules.dice import MAX_DICE, MAX_SIDES, DiceError, NeedDice, parse, quote

    text = " ".join(args.expr)
    if len(text) > MAX_EXPR:
        print(f"katari roll: too long to be dice ({len(text)} characters; at most {MAX_EXPR}): "
              f"{quote(text)}", file=sys.stderr)
        return 2
    try:
        source, faces = _source(args)
    except ValueError:
        print(f"katari roll: --dice takes at most {MAX_DICE} faces from 0 to {MAX_SIDES} separated by "
              f"commas, not {quote(args.dice)}", file=sys.stderr)
        return 2
    exprs = [text]
    if len(args.expr) > 1 and not text.upper().startswith("SAN"):
        # `katari roll 1d6 1d8` is two rolls (the usage line says EXPR [EXPR ...]); only a
        # BCDice command such as `SAN<=55 1/1d6` needs its words kept together.
        try:
            parse(text)
        except DiceError:
            exprs = list(args.expr)
    used = 0
    for expr in exprs:
        try:
            used += _roll_one(expr, source, args.json)
        except NeedDice as e:
            print(f"katari roll: not enough dice given for {expr!r}: {len(e.sides)} more needed "
                  f"({', '.join('d' + str(s) for s in e.sides)})", file=sys.stderr)
            return 2
        except DiceError as e:
            hint = ""
            if faces is not None and "cannot show" in str(e):
                hint = " (--dice takes one number per die: for 1d100 or CC the tens die, then the units die, e.g. 3,5)"
            print(f"katari roll: {e}{hint}", file=sys.stderr)
            return 2
    if faces is not None and used and len(faces) > used:
        print(f"katari roll: {len(faces) - used} die face(s) left over", file=sys.stderr)
    return 0


def _roll_one(text: str, source, as_json: bool) -> int:  # noqa: ANN001
    """Rolls and prints one expression; returns how many plain dice it used (0 for BCDice)."""
    from runner.rules.dice import roll

    try:
        from runner.rules.coc7.bcdice import bcdice
    except ImportError:
        bcdice = None
    res = bcdice(text, source) if bcdice else None
    if res is not None:
        print(json.dumps(res.to_json(), ensure_ascii=False) if as_json else res.text)
        return 0
    import re
    import unicodedata

    # A target after the dice, as dice bots take it: 2d6>=7, 1d20+3>15, 3d6<=10.
    m = re.match(r"^(.+?)(>=|<=|>|<|==|=)\s*(-?\d+)$", unicodedata.normalize("NFKC", text).strip())
    expr, op, target = (m.group(1), m.group(2), int(m.group(3))) if m else (text, None, None)
    r = roll(expr, source)
    out: dict = {"expr": r.expr, "dice": list(r.dice), "sides": list(r.sides), "total": r.total}
    if op is not None:
        ok = {">=": r.total >= target, "<=": r.total <= target, ">": r.total > target,
              "<": r.total < target}.get(op, r.total == target)
        out.update(target=target, op=op, success=ok)
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        dice = " ".join(f"[{f}/d{s}]" for f, s in zip(r.dice, r.sides, strict=True))
        line = f"{r.expr}: {dice} = {r.total}" if dice else f"{r.expr} = {r.total}"
        if op is not None:
            line += f" {op} {target} → {'成功' if out['success'] else '失敗'}"
        print(line)
    return len(r.dice)
