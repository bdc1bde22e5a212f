"""``variables:``: each name with its starting value (and whether and when a player sees it)."""

from __future__ import annotations

from typing import Any

from runner.story import expr as X
from runner.story.checker import Checker
from runner.story.diagnostics import Declined
from runner.story.keys import ID_RE
from runner.story.model import Variable
from runner.story.sections import Entries
from runner.story.switches import meant, yaml11_word


def read_variables(chk: Checker, entries: Entries) -> dict[str, Variable]:
    variables: dict[str, Variable] = {}
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "variables"), "'variables'"):
            continue
        for vname, spec in val.items():
            vpos = chk.kpos(val, vname)
            if (
                not isinstance(vname, str)
                or not ID_RE.match(vname)
                or vname in X._CONST
                or vname in X._WORDS
            ):
                chk.err(vpos, f"{vname!r} cannot be a variable name", "K006")
                continue
            if vname in variables:
                chk.err(vpos, f"variable {vname!r} is declared twice", "K004")
            if isinstance(spec, dict):
                chk.unknown_keys(
                    spec, {"value", "visible", "label", "visible_when"}, f"variable {vname!r}"
                )
                shown_when = None
                if "visible_when" in spec:
                    shown_when = chk.expr(
                        spec["visible_when"], chk.vpos(spec, "visible_when"), condition=True
                    )
                    if spec.get("visible", True) is not True:
                        chk.err(
                            chk.vpos(spec, "visible"),
                            f"variable {vname!r}: 'visible_when' shows it "
                            "while the condition holds; drop 'visible: false'",
                            "K001",
                        )
                value = chk.plain(
                    spec.get("value", 0), chk.vpos(spec, "value") or chk.vpos(val, vname)
                )
                yes_no_text(chk, value, chk.vpos(spec, "value") or chk.vpos(val, vname), vname)
                variables[vname] = Variable(
                    vname,
                    value,
                    chk.flag(spec, "visible", "visible_when" in spec, f"variable {vname!r}")
                    or "visible_when" in spec,
                    str(spec.get("label", "")),
                    shown_when,
                )
            elif isinstance(spec, list):
                chk.err(
                    chk.vpos(val, vname),
                    f"variable {vname!r}: a list is not a value; use a number, text or true/false",
                    "K001",
                )
            else:
                variables[vname] = Variable(vname, chk.plain(spec, chk.vpos(val, vname)))
                yes_no_text(chk, spec, chk.vpos(val, vname), vname)
    chk.variables = set(variables)
    return variables


def yes_no_text(chk: Checker, value: Any, pos: tuple[int, int] | None, name: str) -> None:
    """Warns of a first value that is one of YAML 1.1's true/false words as text
    (``lamp_lit: no``): YAML 1.2 reads it as the text "no", which ``when: lamp_lit`` takes as
    true. A quoted word (``"no"``) is text on purpose and is not warned of: only the careful
    pass sees the quote, so the fast one hands such a story over to it."""
    if yaml11_word(value):
        if chk.fast:
            raise Declined
        lines = chk.texts.get(chk.file)
        if lines and pos and 0 < pos[0] <= len(lines):
            if lines[pos[0] - 1][pos[1] - 1 : pos[1]] in ("'", '"'):
                return
        fix = str(meant(value)).lower()
        chk.err(
            pos,
            f"variable {name!r} starts as the text {value!r}, which counts as true in a "
            f"condition; for a switch write '{name}: {fix}' (YAML 1.2 reads {value!r} as text, "
            "not as yes or no)",
            "K009",
            severity="warning",
        )
