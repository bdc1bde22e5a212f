"""``variables:``: each name with its starting value (and whether and when a player sees it)."""

from __future__ import annotations

from runner.story import expr as X
from runner.story.checker import Checker
from runner.story.keys import ID_RE
from runner.story.model import Variable
from runner.story.sections import Entries


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
    chk.variables = set(variables)
    return variables
