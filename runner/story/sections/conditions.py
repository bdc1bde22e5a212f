"""``conditions:``: named conditions (Yarn's smart variables). ``can_swim: "…"`` names a
condition once; ``when: can_swim`` (or any expression, or ``{can_swim: …}`` in text) uses it.
A name stands for its expression, worked out each time it is read; a condition may use
others, but not itself, even through others."""

from __future__ import annotations

from runner.story import expr as X
from runner.story.checker import Checker
from runner.story.keys import ID_RE
from runner.story.sections import Entries


def read_conditions(chk: Checker, entries: Entries) -> dict[str, X.Node]:
    """Each named condition's AST (after the variables are declared: a name is one or the other)."""
    out: dict[str, X.Node] = {}
    where: dict[str, tuple[str, tuple[int, int] | None]] = {}
    for name, val, data in entries:
        chk.file = name
        if not chk.want_map(val, chk.vpos(data, "conditions"), "'conditions'"):
            continue
        for cname, src in val.items():
            kpos = chk.kpos(val, cname)
            if (
                not isinstance(cname, str)
                or not ID_RE.match(cname)
                or cname in X._CONST
                or cname in X._WORDS
                or cname in X._FORBIDDEN_NAMES
            ):
                chk.err(kpos, f"{cname!r} cannot be a condition's name", "K006")
                continue
            if cname in out:
                chk.err(kpos, f"condition {cname!r} is declared twice", "K004")
                continue
            if cname in chk.variables:
                chk.err(kpos, f"{cname!r} is both a variable and a condition: rename one", "K004")
                continue
            node = chk.expr(src, chk.vpos(val, cname), condition=True)
            if node is not None:
                out[cname] = node
                where[cname] = (name, kpos)
    chk.conditions = set(out)
    for cname, (file, pos) in where.items():
        loop = _loop(cname, out)
        if loop:
            chk.err(
                pos, "condition " + repr(cname) + " uses itself: " + " → ".join(loop), "K015", file
            )
    return out


def _loop(start: str, conds: dict[str, X.Node]) -> list[str]:
    """The chain of names by which a condition comes back to itself, or []."""
    path = [start]
    seen = set()

    def visit(name: str) -> bool:
        for n in X.nodes(conds[name]):
            if n[0] == "var" and n[1] in conds:
                if n[1] == start:
                    path.append(start)
                    return True
                if n[1] not in seen:
                    seen.add(n[1])
                    path.append(n[1])
                    if visit(n[1]):
                        return True
                    path.pop()
        return False

    return path if visit(start) else []
