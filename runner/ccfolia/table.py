"""The table's own dice, as typed at ``katari roll`` and the console's ``roll``: every BCDice
command (each rule system's ``RuleSystem.dice``), chat-palette style against the active
investigator (``roll 目星``, ``roll CC<={目星}``, ``roll CC<={SAN}``), and secret rolls
kept back until ``reveal``/``公開``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from runner.rules.bcdice import BCResult
from runner.rules.dice import DiceError, DiceSource, parse

TEXTS = {
    "ja": {
        "secret": "{command}：シークレットダイス（「公開」で結果を出します）",
        "secret_gm": "（シークレットダイス・プレイヤーには伏せています）{line}",
        "secret_view": "シークレットダイス",
        "revealed": "シークレットダイスを公開します：",
        "nothing_hidden": "公開するシークレットダイスはありません",
        "missing": "「{label}」は探索者のシートにありません（例：roll 目星、roll CC<={{SAN}}）",
        "no_sheet": "「{{{label}}}」を読む探索者がまだいません（探索者を選んでから振ってください）",
        "not_dice": "「{expr}」は振れません（例：roll 1d100、roll CC<=50 目星、roll x3 2D6、roll choice[a,b]）",
        "dice_error": "{label}",
        "dice_failed": "ルールシステム {label}：ルールシステムの不具合のため振れませんでした",
    },
    "en": {
        "secret": "{command}: a secret roll (“reveal” shows the result)",
        "secret_gm": "(secret roll, hidden from the players) {line}",
        "secret_view": "a secret roll",
        "revealed": "The secret rolls:",
        "nothing_hidden": "No secret rolls to reveal",
        "missing": "“{label}” is not on the investigator's sheet (e.g. roll 目星, roll CC<={{SAN}})",
        "no_sheet": "No investigator yet to read “{{{label}}}” from (choose one first)",
        "not_dice": "Cannot roll “{expr}” (e.g. roll 1d100, roll CC<=50 Spot Hidden, roll x3 2D6, roll choice[a,b])",
        "dice_error": "{label}",
        "dice_failed": "rule system {label}: a bug in the rule system, not the roll",
    },
}


def text(key: str, lang: str, **kw: Any) -> str:
    return TEXTS.get(lang, TEXTS["en"])[key].format(**kw)


def _squeeze(cmd: str) -> str:
    """``1d6 + 1d4`` (plain dice with spaces) as one word; anything else as it is (BCDice
    reads up to the first space, the rest being a comment)."""
    if " " in cmd.strip() and re.match(r"^[\sdD\d+\-*/()×÷]+$", cmd):
        try:
            parse(cmd)
        except DiceError:
            return cmd
        return re.sub(r"\s+", "", cmd)
    return cmd


def active_sheet(state: Any, rules: str | None = None) -> dict | None:
    """The active investigator's sheet in a game state, or None: asked of the story's rule
    system (``rules``), else of every installed one that keeps investigators
    (``RuleSystem.investigators``)."""
    from runner.rules import BrokenRules, UnknownRules, installed, system

    try:
        systems = [system(rules)] if rules else installed()
    except (UnknownRules, BrokenRules):
        return None
    for rs in systems:
        if rs.investigators is not None:
            s = rs.investigators.active(state)
            if s is not None:
                return s
    return None


def table_roll(
    expr: str, source: DiceSource, sheet: dict | None = None, lang: str | None = None
) -> tuple[BCResult | None, tuple[str, str]]:
    """(the result, ("", "")) or (None, (why, label)) with why one of missing, no_sheet,
    not_dice, dice_error (``label`` then says what is wrong with the notation, in ``lang``:
    default $KATARI_LANG, else Japanese), dice_failed (a rule system's ``dice`` broke:
    ``label`` names it and how)."""
    from runner.rules import DiceFailure, dice_command

    cmd = expr.strip()
    if sheet is not None or "{" in cmd:  # a chat palette's {SAN} (plain dice need no palette)
        from runner.ccfolia.palette import _REF, expand, sheet_lookup

        if sheet is not None:
            cmd, missing = expand(cmd, sheet_lookup(sheet))
            if missing:
                return None, ("missing", missing)
        elif m := _REF.search(cmd):
            return None, ("no_sheet", m.group(1))
    try:
        res = dice_command(_squeeze(cmd), source)  # the rule systems' own commands (BCDice's)
    except DiceFailure as e:  # a rule system's dice broke: its one line, the game goes on
        return None, ("dice_failed", e.detail)
    if res is None:
        word = (cmd.split() or [""])[0]
        if re.search(r"\d", word) and re.search(r"[dD]", word):
            try:  # dice notation gone wrong: say where (the dice module's one line)
                parse(word)
            except DiceError as e:
                from runner.ui.i18n import default_lang, dice_reason

                return None, ("dice_error", dice_reason(e, lang or default_lang()))
        return None, ("not_dice", "")
    return res, ("", "")


@dataclass
class Secrets:
    """Secret rolls made at the console, kept until they are revealed."""

    hidden: list[str] = field(default_factory=list)

    def keep(self, line: str) -> None:
        self.hidden.append(line)
        del self.hidden[:-100]  # the last hundred are plenty

    def reveal(self) -> list[str]:
        out, self.hidden = self.hidden, []
        return out


def shown_with_command(res: BCResult) -> str:
    """A secret roll's line when it is revealed: always after the command typed (``Sx3 1d6``
    then ``#1`` …), since several revealed together are told apart only by it."""
    if res.comment or not res.command:
        return res.line()
    return f"{res.command}{chr(10) if chr(10) in res.text else ' '}{res.text}"
