"""`katari roll EXPR`: dice from the command line (plain notation, or BCDice's CoC 7th syntax)."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "roll",
        help="roll dice (1d6+1d4, CC<=50, x3 2D6, ...)",
        description="Roll dice as BCDice does, and print what BCDice prints: sums "
        "(2D6+1, (1D6+2)*2, 1D6/2U, 5D6KH3, 2D6>=7), D66, C(1+2), "
        "choice[a,b,c], repeats (x3 CMD, rep3, repeat3), and Call of "
        "Cthulhu's CC<=50, CC(1)<=50, CC<=50h, CBR(50,30), FAR(25,70,98), "
        "BMR, BMS, PH, MA, 6th edition CCB<=50, RESB(10-8), CBRB(50,30); "
        "our SAN<=55 1/1d6. A leading S makes a secret roll; words after "
        "the command are a comment (CC<=50 目星). With --investigator, "
        "'目星' or 'CC<={目星}' rolls that investigator's skill.",
    )
    p.add_argument("expr", nargs="+", help="what to roll")
    p.add_argument("--seed", type=int, default=None, help="seed for repeatable rolls")
    p.add_argument(
        "--dice",
        default=None,
        help="the faces of real dice, in the order rolled, e.g. 3,5 (tens die first for CC)",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--investigator",
        metavar="FILE",
        default=None,
        help="an investigator (CCFOLIA or キャラクター保管所 JSON, or - for stdin) whose "
        "values {目星}, {SAN}... and skill names refer to",
    )
    p.set_defaults(func=run)


MAX_EXPR = 1000
"""Characters of what to roll: far more than any dice notation or BCDice command needs."""


def _source(args: argparse.Namespace):  # noqa: ANN202
    import os

    from runner.rules.dice import MAX_DICE, MAX_SIDES, ManualDice, SeededDice, seed_state

    # 63 random bits from the system, as secrets.randbits(63) reads them (without its imports)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8)) >> 1
    seeded = SeededDice(seed_state(seed))
    if args.dice:
        words = [x for x in args.dice.replace(" ", "").split(",") if x]
        if len(words) > MAX_DICE or not all(
            w.isdecimal() and len(w) <= 4 and int(w) <= MAX_SIDES for w in words
        ):
            raise ValueError(args.dice)
        faces = [int(x) for x in words]
        return ManualDice(faces), faces
    return seeded, None


def _is_dice(word: str) -> bool:
    from runner.rules.dice import DiceError, parse

    try:
        parse(word)
    except DiceError:
        return False
    return True


def run(args: argparse.Namespace) -> int:
    from runner.rules.dice import MAX_DICE, MAX_SIDES, DiceError, NeedDice, short

    text = " ".join(args.expr)
    if len(text) > MAX_EXPR:
        _say("roll_too_long", n=len(text), most=MAX_EXPR, text=short(text))
        return 2
    try:
        source, faces = _source(args)
    except ValueError:
        _say("roll_dice_usage", most=MAX_DICE, sides=MAX_SIDES, text=short(args.dice))
        return 2
    sheet = None
    if args.investigator:
        from runner.rules.base import RuleError
        from runner.ui import investigators

        inv = investigators.first()  # (no story here: the rule system that has investigators)
        if inv is None:
            _say("roll_no_investigators")
            return 2
        ad = investigators.adapter(inv)
        from runner.ui.i18n import default_lang

        lang = default_lang()
        try:
            sheet = inv.sheet(ad.load(args.investigator).sheet)
        except (ad.SheetError, RuleError) as e:
            why = e.message(lang) if hasattr(e, "message") else str(e)
            print(f"katari roll: {why}", file=sys.stderr)
            return 2
    # `katari roll 1d6 1d8` is two rolls (every word is dice); `katari roll CC<=50 目星` one
    # command and its comment, as BCDice reads a line.
    exprs = (
        list(args.expr) if len(args.expr) > 1 and all(_is_dice(w) for w in args.expr) else [text]
    )
    used = 0
    for expr in exprs:
        try:
            n = _roll_one(expr, source, args.json, sheet)
        except NeedDice as e:
            dice = ", ".join("d" + str(s) for s in e.sides)
            _say("roll_need_dice", expr=short(expr), n=len(e.sides), dice=dice)
            return 2
        except DiceError as e:
            from runner.ui.i18n import default_lang, dice_reason, t

            lang = default_lang()
            why = dice_reason(e, lang)
            if faces is not None and e.code == "face":
                why += t("roll_faces_hint", lang)
            _refused(expr, why, args.json)
            return 2
        if n is None:
            return 2
        used += n
    if faces is not None and used and len(faces) > used:
        _say("roll_left_over", n=len(faces) - used)
    return 0


def _say(key: str, **kw: object) -> None:
    """One line on standard error in the language of KATARI_LANG (else Japanese)."""
    from runner.ui.i18n import default_lang, t

    print(f"katari roll: {t(key, default_lang(), **kw)}", file=sys.stderr)


def _roll_one(text: str, source, as_json: bool, sheet: dict | None = None) -> int | None:  # noqa: ANN001
    """Rolls and prints one command; returns how many dice it used (None: it said why not)."""
    from runner.ccfolia.table import table_roll
    from runner.ccfolia.table import text as say

    res, (why, label) = table_roll(text, source, sheet)
    if res is None:
        from runner.ui.i18n import default_lang

        _refused(text, say(why, default_lang(), label=label, expr=text[:40]), as_json)
        return None
    if as_json:
        import json

        print(json.dumps(res.to_json(), ensure_ascii=False))
    elif res.error:  # BCDice's own refusal (`x0 2D6`): its words, as an error
        print(f"katari roll: {res.line()}", file=sys.stderr)
    else:
        print(res.line())
    return None if res.error else len(res.dice)


def _refused(command: str, why: str, as_json: bool) -> None:
    """A command that cannot be rolled: one line on stderr, and with ``--json`` also the JSON
    object a script reads (``"error": true``), so every command answers in the form asked for."""
    print(f"katari roll: {why}", file=sys.stderr)
    if as_json:
        import json

        print(json.dumps({"command": command, "text": why, "error": True}, ensure_ascii=False))
