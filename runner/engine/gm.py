"""A game master's overrides (``!set``, ``!clock``, ``!damage``, ``!stat``, ``!force``,
``!give``, ``!take``, ``!goto``), run by :func:`runner.engine.engine.step`.

Overrides are commands like any other: they are in the log, the saves, the undo history and
replays. They take the same dice as the command that ran them (faces the table entered, or
the game's generator), so a timed event they set off asks the table like any roll.

Every answer is an event with a ``code`` and its ``data``; front ends word it in their
language (``runner/ui/i18n.py``); ``message`` is an English fallback for logs and bots.
Things are named as a person names them: an id, a name or label, a reading from the story's
``readings:``, or any part of a name that picks out one thing (several give ``gm_ambiguous``
with the candidates).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from runner.engine.evaluate import EvalError
from runner.engine.match import normalise, strip_note
from runner.rules.base import RuleError
from runner.rules.dice import NeedDice
from runner.story.model import Give, Take

GM_COMMANDS = ("set", "clock", "damage", "stat", "force", "give", "take", "goto")
GM_KEY = "_gm"
"""The GM's pending choices in ``State.rules``: a table like every rule system's data (so a
save holds it and its check accepts it), ``{"force": OUTCOME}`` until a check uses it."""
LEGACY_FORCE_KEY = "_gm_force"
"""Where earlier versions kept a pending force, as a bare string: saves holding it were
refused on load; :func:`runner.engine.state.check_state` moves it into ``GM_KEY``."""
SUCCESS_LEVELS = ("critical", "extreme", "hard", "regular", "success")
FAILURE_LEVELS = ("failure", "fumble")
STANDARD_OUTCOMES = SUCCESS_LEVELS + FAILURE_LEVELS

HEALTH = ("hp", "HP", "耐久力", "life", "ライフ")
"""A sheet's health, the first of these it has: what ``!damage`` takes by default."""
STAT_SYNONYMS: tuple[frozenset[str], ...] = tuple(
    frozenset(normalise(w) for w in group)
    for group in (
        ("hp", "耐久力", "体力", "life", "ライフ", "hit points"),
        ("san", "正気度", "sanity"),
        ("luck", "幸運"),
        ("mp", "マジックポイント", "マジック・ポイント", "magic points"),
    )
)
NESTED = ("chars", "skills")
"""Sheet parts one level down whose numbers ``!stat`` may change (``!stat pc 目星=70``)."""

SWITCH_WORDS = {
    "はい": "true",
    "オン": "true",
    "yes": "true",
    "on": "true",
    "いいえ": "false",
    "オフ": "false",
    "no": "false",
    "off": "false",
}
"""Words a GM types for a switch's value (``!set light yes``, 変数 天井の照明 はい): true or
false, unless the story has a variable of that name."""
_INT = re.compile(r"^[+-]?\d+$")
_DICE = re.compile(r"^\d*[dD]\d+(?:[+-](?:\d*[dD])?\d+)*$")
_STAT = re.compile(r"^(?:(.*?)\s+)?([^\s+=\-]+?)\s*([+=\-])\s*(\S*)$")
_HHMM = re.compile(r"^(\d{1,3}):(\d{2})$")
_SPAN = re.compile(r"^(?:(\d+)h)?(?:(\d+)(?:m|min)?)?$")
MAX_CANDIDATES = 8
MAX_AMOUNT = 99_999
"""The largest number an override adds, takes or sets (no sheet of any system holds more)."""


class Refused(Exception):
    """An override that cannot run: an ``error`` event with this code and data."""

    def __init__(self, code: str, message: str, **data: Any) -> None:
        super().__init__(message)
        self.code = code
        self.data = data


# -- naming things -------------------------------------------------------------


def find(story: Any, kind: str, query: str, table: dict[str, list[str]]) -> str:
    """The id in ``table`` (id -> the names it goes by, the first shown) that ``query`` names.
    Raises :class:`Refused` (``gm_not_found`` / ``gm_ambiguous``) with the candidates."""
    if query in table:
        return query
    key = normalise(query)
    shown = {k: (names[0] if names else k) for k, names in table.items()}
    if key:
        keys = {key}
        for word, reading in (getattr(story, "readings", None) or {}).items():
            if normalise(str(reading)) == key:
                keys.add(normalise(str(word)))
        norms = {k: {normalise(n) for n in (*names, k) if n} for k, names in table.items()}
        for test in (lambda n, q: n == q, lambda n, q: q in n):
            hits = [k for k, ns in norms.items() if any(test(n, q) for n in ns for q in keys)]
            if len(hits) == 1:
                return hits[0]
            if hits:
                raise Refused(
                    "gm_ambiguous",
                    f"“{query}” could be: " + ", ".join(shown[h] for h in hits),
                    kind=kind,
                    query=query,
                    candidates=[shown[h] for h in hits[:MAX_CANDIDATES]],
                )
    known = [shown[k] for k in list(table)[:MAX_CANDIDATES]]
    raise Refused(
        "gm_not_found",
        f"no {kind} “{query}”" + ("; known: " + ", ".join(known) if known else ""),
        kind=kind,
        query=query,
        known=known,
        more=max(0, len(table) - MAX_CANDIDATES),
    )


def item_names(story: Any, iid: str) -> list[str]:
    """The names an item goes by, its own first: its name, its kana reading, and the aliases
    of the actions that name it in their labels (「スマートフォンを持っていた」: スマホ, phone).
    Built once per story."""
    table = story.cache.get("_gm_item_names")
    if table is None:
        from runner.engine.match import reader

        read = reader(story)
        table = {}
        actions = [a for n in story.nodes.values() for a in n.actions]
        for k, it in story.items.items():
            name = str(it.name).strip("「」『』")
            names = [str(it.name)]
            kana = read(name) if name else None
            if kana:
                names.append(kana)
            for a in actions:
                if name and name in str(a.label):
                    names += [str(x) for x in a.aliases]
            table[k] = [n for i, n in enumerate(names) if n and n not in names[:i]]
        story.cache["_gm_item_names"] = table
    return table.get(iid) or [iid]


def people(story: Any, state: Any) -> dict[str, list[str]]:
    """Everyone with a sheet, by the names a person uses (the sheet's, the story's)."""
    out: dict[str, list[str]] = {}
    for cid, sheet in (state.stats or {}).items():
        names: list[str] = []
        if isinstance(sheet, dict):
            names += [str(sheet[k]) for k in ("name", "name_en") if sheet.get(k)]
        c = story.characters.get(cid)
        if c is not None:
            names.append(c.name)
            short = (c.props or {}).get("short")
            if short:
                names.append(str(short))
        out[cid] = [n for i, n in enumerate(names) if n and n not in names[:i]] or [cid]
    return out


def default_pc(story: Any, state: Any) -> str | None:
    """The player character an override without a name means: the rule system's active one,
    else the only (or first) player character with a sheet."""
    stats = state.stats or {}
    active = (
        ((state.rules or {}).get(story.rules) or {}).get("pc")
        if isinstance(state.rules, dict)
        else None
    )
    if isinstance(active, str) and active in stats:
        return active
    pcs = [cid for cid, s in stats.items() if _is_pc(story, cid, s)]
    return pcs[0] if pcs else None


def _is_pc(story: Any, cid: str, sheet: Any) -> bool:
    c = story.characters.get(cid)
    if c is not None:
        return bool(c.kind == "pc")
    return isinstance(sheet, dict) and sheet.get("kind") not in ("enemy", "npc")


def stat_path(sheet: dict[str, Any], query: str | None) -> tuple[str, ...]:
    """The key (or ``(part, key)`` one level down) of ``sheet`` that ``query`` names; its
    health when ``query`` is None."""
    if query is None:
        for k in HEALTH:
            if _number(sheet.get(k)):
                return (k,)
        raise Refused(
            "gm_no_health", "this sheet has no HP", known=_numbers(sheet)[:MAX_CANDIDATES]
        )
    flat: dict[tuple[str, ...], str] = {(k,): k for k, v in sheet.items() if _number(v)}
    for part in NESTED:
        sub = sheet.get(part)
        if isinstance(sub, dict):
            flat.update({(part, k): k for k, v in sub.items() if _number(v) and (k,) not in flat})
    if (query,) in flat:
        return (query,)
    key = normalise(query)
    group = next((g for g in STAT_SYNONYMS if key in g), frozenset({key}))
    hits = [p for p, k in flat.items() if normalise(k) in group]
    if not hits and key:
        hits = [p for p, k in flat.items() if key in normalise(k)]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise Refused(
            "gm_ambiguous",
            f"stat “{query}” could be: " + ", ".join(flat[h] for h in hits),
            kind="stat",
            query=query,
            candidates=[flat[h] for h in hits[:MAX_CANDIDATES]],
        )
    raise Refused(
        "gm_not_found",
        f"no stat “{query}”",
        kind="stat",
        query=query,
        known=_numbers(sheet)[:MAX_CANDIDATES],
        more=0,
    )


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numbers(sheet: dict[str, Any]) -> list[str]:
    return [k for k, v in sheet.items() if _number(v) and not k.endswith(("_max", "_start"))]


def outcome_keys(story: Any) -> tuple[str, ...]:
    """Every outcome a check can have in this story: the rule levels and the story's own keys."""
    hit: tuple[str, ...] | None = story.cache.get("_gm_outcomes")
    if hit is None:
        keys: list[str] = list(STANDARD_OUTCOMES)

        def walk(effects: Iterable[Any]) -> None:
            for e in effects:
                if e[0] == "if":
                    walk(e[2])
                    walk(e[3])
                elif e[0] == "check":
                    outcomes(e[2])

        def outcomes(outs: Iterable[Any]) -> None:
            for o in outs:
                if o.key not in keys and o.key != "otherwise":
                    keys.append(o.key)
                walk(o.effects)

        for node in story.nodes.values():
            walk(node.on_enter)
            for a in node.actions:
                walk(a.effects)
                outcomes(a.outcomes)
                walk(a.after)
        for ev in story.events:
            walk(ev.effects)
        hit = story.cache["_gm_outcomes"] = tuple(keys)
    return hit


def _outcome_fold(key: str) -> str:
    """An outcome key as a GM may type it: case, spaces and underscores folded away."""
    return "".join(key.casefold().replace("_", " ").split())


def set_force(rules: dict[str, Any], value: str) -> None:
    """Keeps ``value`` as the outcome of the next check that can have it."""
    gm = rules.get(GM_KEY)
    rules[GM_KEY] = {**(gm if type(gm) is dict else {}), "force": value}


def take_force(rules: dict[str, Any]) -> str | None:
    """The pending forced outcome, removed from ``rules`` (None when there is none)."""
    gm = rules.get(GM_KEY)
    if type(gm) is not dict or "force" not in gm:
        return None
    rest = {k: v for k, v in gm.items() if k != "force"}
    if rest:
        rules[GM_KEY] = rest
    else:
        del rules[GM_KEY]
    return str(gm["force"])


def forced_keys(forced: str, table: dict[str, Any]) -> list[str] | None:
    """The outcome keys a forced result stands for at a check with outcomes ``table``, or
    None when this check cannot have that result (it is kept for the next check)."""
    keys = [forced] + (
        ["success"] if forced in SUCCESS_LEVELS else ["failure"] if forced in FAILURE_LEVELS else []
    )
    if any(k in table for k in keys) or "otherwise" in table:
        return keys
    return None


# -- the clock -------------------------------------------------------------------


def clock_delta(story: Any, clock: int, raw: str) -> int:
    """Minutes to move the clock for ``+30``, ``+1h30m`` or ``HH:MM``.

    ``HH:MM`` is that time on the day the clock shows now; hours from 24 go on into the next
    days (``25:00`` is the next day's 01:00). A time already past is refused, never read as
    tomorrow: the clock never goes back, and a slip of the finger must not skip a day."""
    text = raw.strip().lower()
    if text.startswith(("-", "−", "－")) and text[1:].strip():
        raise Refused(
            "gm_clock_minus", f"the clock only moves forward ({raw!r} would turn it back)", text=raw
        )
    if text.startswith("+"):
        m = _SPAN.match(text[1:])
        if text[1:] and m and (m.group(1) or m.group(2)):
            return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
        raise Refused("gm_clock_bad", f"cannot read the time {raw!r}", text=raw)
    m = _HHMM.match(text)
    if not m or int(m.group(2)) >= 60:
        raise Refused("gm_clock_bad", f"cannot read the time {raw!r}", text=raw)
    start = story.clock.start if story.clock else 0
    now = start + clock
    day = now // (24 * 60)
    target = day * 24 * 60 + int(m.group(1)) * 60 + int(m.group(2))
    if target <= now:
        h, mm = divmod(target - day * 24 * 60 + 24 * 60, 60)
        then = f"{h:02d}:{mm:02d}"
        raise Refused(
            "gm_clock_now" if target == now else "gm_clock_back",
            f"it is {_hhmm(now - day * 24 * 60)} now (the same time on the next day is {then})"
            if target == now
            else f"it is {_hhmm(now - day * 24 * 60)}: {raw} has passed (the clock only moves "
            f"forward; {then} is that time on the next day)",
            text=raw,
            now=_hhmm(now - day * 24 * 60),
            next=then,
        )
    return target - now


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


# -- running one override ----------------------------------------------------------


def _amount(tok: str) -> bool:
    return bool(_INT.match(tok) or _DICE.match(tok))


def _roll_amount(ctx: Any, tok: str, label: str) -> int:
    if _INT.match(tok):
        return int(tok)
    total: int = ctx.roll(tok, label=label).total
    return total


KINDS_SAID = {"switch": "a switch (yes or no)", "number": "a number", "text": "text"}
"""What a variable holds, in the English of an event's ``message`` (front ends word the
``holds`` code in their language: runner/ui/i18n.py ``holds_*``)."""


def said(value: Any) -> str:
    """A value as the English ``message`` of an event says it: yes/no for a switch, a text
    in quotes, never a Python spelling (True, None)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "(none)"
    return f"“{value}”" if isinstance(value, str) else str(value)


def _kind(value: Any) -> str:
    """What a variable holds, as ``!set`` keeps it: ``switch`` (true/false), ``number``,
    ``text``, or "" (anything: a variable that starts empty)."""
    if isinstance(value, bool):
        return "switch"
    if isinstance(value, (int, float)):
        return "number"
    return "text" if isinstance(value, str) and value != "" else ""


def run(ctx: Any, verb: str, args: list[str]) -> dict[str, Any]:
    """Runs ``!verb args`` on ``ctx`` (its state is the command's copy); returns the
    ``override`` event. Raises :class:`Refused`."""
    from runner.engine import engine as E

    story, st = ctx.story, ctx.state
    note: dict[str, Any] = {"type": "override", "what": verb, "args": args, "code": verb}
    if verb == "set":
        if len(args) < 2:
            raise Refused("gm_usage", "!set VARIABLE VALUE", verb=verb)
        table = {k: [v.label] if v.label else [] for k, v in story.variables.items()}
        var, rest = _prefix(story, "variable", args, table)
        if not rest:
            raise Refused("gm_usage", "!set VARIABLE VALUE", verb=verb)
        from runner.story.expr import ExprError, parse

        text = " ".join(rest)
        label = story.variables[var].label or var
        if text.casefold() in SWITCH_WORDS and text not in story.variables:
            text = SWITCH_WORDS[text.casefold()]
        try:
            value = ctx.eval(parse(text))
        except (ExprError, EvalError) as e:
            raise Refused(
                "gm_bad_value",
                f"{label}: cannot read “{text}” ({e})",
                var=var,
                label=label,
                text=text,
            ) from None
        kind = _kind(story.variables[var].value)
        if kind and _kind(value) != kind:  # a switch stays a switch, a number a number
            raise Refused(
                "gm_bad_type",
                f"{label} holds {KINDS_SAID[kind]}: “{' '.join(rest)}” does not fit",
                var=var,
                label=label,
                text=" ".join(rest),
                holds=kind,
            )
        old = st.vars.get(var)
        if type(old) is type(value) and old == value:  # nothing to override: nothing recorded
            raise Refused(
                "gm_same",
                f"{label} already holds {said(value)}: nothing changed",
                var=var,
                label=label,
                value=value,
            )
        st.vars[var] = value
        note["data"] = {"var": var, "label": label, "old": old, "value": value}
        note["message"] = f"GM: {label}: {said(old)} → {said(value)}"
    elif verb == "clock":
        if len(args) != 1:
            raise Refused("gm_usage", "!clock +MINUTES, !clock +1h30m or !clock HH:MM", verb=verb)
        delta = clock_delta(story, st.clock, args[0])
        before = E.clock_text(story, st.clock)
        note["data"] = {
            "minutes": delta,
            "from": before,
            "to": E.clock_text(story, st.clock + delta),
        }
        note["message"] = f"GM: clock moved {delta} min to {note['data']['to']}"
        ctx.events.append(note)
        E.advance(ctx, delta)
        return note
    elif verb in ("damage", "stat"):
        return _stat(ctx, verb, args, note)
    elif verb == "force":
        if not args:
            raise Refused(
                "gm_usage", "!force OUTCOME", verb=verb, allowed=list(outcome_keys(story))
            )
        # A story's own key as a GM reads it (``loud_noise`` shown as "loud noise") is
        # the same key: case, spaces and underscores do not tell outcomes apart.
        value = " ".join(args)
        allowed = outcome_keys(story)
        if value not in allowed:
            low = _outcome_fold(value)
            value = next((k for k in allowed if _outcome_fold(k) == low), value)
        if value not in allowed:
            raise Refused(
                "gm_force_unknown",
                f"no check can have the outcome “{value}”; outcomes: " + ", ".join(allowed),
                value=value,
                allowed=list(allowed),
            )
        ctx.own()
        set_force(st.rules, value)
        note["args"] = [value]
        note["data"] = {"value": value}
        note["message"] = f"GM: the next check's outcome will be {value}"
    elif verb in ("give", "take"):
        if not args:
            raise Refused("gm_usage", f"!{verb} ITEM", verb=verb)
        # Taking: only what is carried is a candidate (and listed); giving: any item.
        pool = (
            [k for k in story.items if st.inventory.get(k)] if verb == "take" else list(story.items)
        )
        try:
            item = find(story, "item", " ".join(args), {k: item_names(story, k) for k in pool})
        except Refused as missing:
            if verb != "take" or missing.code != "gm_not_found":
                raise
            try:  # an item of the story that is not carried: said so, rather than "no such item"
                item = find(
                    story, "item", " ".join(args), {k: item_names(story, k) for k in story.items}
                )
            except Refused:
                raise missing from None
        if verb == "take" and not st.inventory.get(item):
            name = story.items[item].name
            raise Refused("gm_not_carried", f"“{name}” is not carried", item=item, name=name)
        E._run(ctx, (Give("give", ((item, 1),)) if verb == "give" else Take("take", ((item, 1),)),))
        note["args"] = [item]
        note["data"] = {
            "item": item,
            "name": story.items[item].name,
            "count": st.inventory.get(item, 0),
        }
        note["message"] = f"GM: {'gave' if verb == 'give' else 'took'} “{story.items[item].name}”"
    elif verb == "goto":
        if not args:
            raise Refused("gm_usage", "!goto NODE", verb=verb)
        node = find(
            story,
            "place",
            " ".join(args),
            {k: [v.title] if v.title else [] for k, v in story.nodes.items()},
        )
        ctx.goto = node
        note["args"] = [node]
        note["data"] = {"node": node, "title": story.nodes[node].title or node}
        note["message"] = f"GM: moved to “{note['data']['title']}”"
    else:
        raise Refused(
            "gm_usage", "GM commands: " + ", ".join("!" + c for c in GM_COMMANDS), verb=""
        )
    ctx.events.insert(0, note)
    return note


def _prefix(
    story: Any, kind: str, args: list[str], table: dict[str, list[str]]
) -> tuple[str, list[str]]:
    """The thing named by the longest run of leading words that names one exactly (names may
    have spaces: ``!set To the surface 5`` names the label "To the surface (m)", its note at
    the end optional), else by the first word, else by the longest run that picks out one
    thing; and the words after it."""
    for k in range(len(args) - 1, 1, -1):
        try:
            hit = find(story, kind, " ".join(args[:k]), table)
        except Refused:
            continue
        names = (*table[hit], hit)
        if normalise(" ".join(args[:k])) in {
            normalise(x) for n in names for x in (n, strip_note(n))
        }:
            return hit, args[k:]
    try:
        return find(story, kind, args[0], table), args[1:]
    except Refused:
        for k in range(len(args) - 1, 1, -1):  # a name's first words (the first one alone is not)
            try:
                return find(story, kind, " ".join(args[:k]), table), args[k:]
            except Refused:
                continue
        raise


def _stat(ctx: Any, verb: str, args: list[str], note: dict[str, Any]) -> dict[str, Any]:
    """``!damage [WHO] N [STAT]`` (health by default, through the rule system's ``damage``
    hook for a player character) and ``!stat [WHO] STAT±N`` / ``STAT=N`` (CCFOLIA's
    ``:HP-3``)."""
    from runner.engine import engine as E

    story, st = ctx.story, ctx.state
    if verb == "damage":
        at = next((i for i, a in enumerate(args) if _amount(a)), None)
        if at is None:
            raise Refused("gm_usage", "!damage WHO AMOUNT [STAT]", verb=verb)
        who_text, amount_tok, rest = " ".join(args[:at]), args[at], args[at + 1 :]
        stat_text: str | None = " ".join(rest) or None
        op = "-"
    else:
        m = _STAT.match(" ".join(args))
        if not m:
            raise Refused("gm_usage", "!stat [WHO] STAT-N | STAT+N | STAT=N", verb=verb)
        who_text, stat_text, op, amount_tok = m.group(1) or "", m.group(2), m.group(3), m.group(4)
    ctx.own()
    fight = _fighters(ctx)
    if who_text:
        table = people(story, st)
        for cid in fight.get("instead_of") or ():
            table.pop(cid, None)  # while its copies fight, a name means one of them
        table.update(
            {cid: [str(s.get("name") or cid)] for cid, s in fight.get("sheets", {}).items()}
        )
        who = find(story, "character", who_text, table)
    else:
        pc = default_pc(story, st)
        if pc is None:
            raise Refused("gm_usage", "name whom: !damage WHO AMOUNT", verb=verb)
        who = pc
    fighting = who in fight.get("sheets", {})
    sheet = fight["sheets"][who] if fighting else st.stats[who]
    name = str(
        (sheet.get("name") if isinstance(sheet, dict) else None)
        or (story.characters[who].name if who in story.characters else who)
    )
    if not isinstance(sheet, dict):
        raise Refused("gm_no_health", f"{name} has no sheet", known=[], who=who, name=name)
    try:
        path = stat_path(sheet, stat_text)
    except Refused as e:
        e.data.update(who=who, name=name)
        raise
    holder = sheet if len(path) == 1 else sheet[path[0]]
    key = path[-1]
    old = holder[key]
    health = path[0] in HEALTH
    floor = (
        health or key.casefold() in ("san", "luck", "mp") or normalise(key) in ("正気度", "幸運")
    )
    _check_amount(amount_tok, op, key, stat_text or stat_word(story, key), floor)
    label_roll = f"{name} {stat_word(story, key)}"
    n = _roll_amount(ctx, amount_tok.lstrip("+") if op != "=" else amount_tok, label_roll)
    if op == "=" and type(old) is type(n) and old == n:  # nothing to override: nothing recorded
        raise Refused(
            "gm_same_stat",
            f"{name} {key} is already {n}: nothing changed",
            who=who,
            name=name,
            stat=key,
            value=n,
        )
    if op == "-" and n < 0:
        op, n = "+", -n
    # The line saying what the GM did comes after the roll that decides its amount and before
    # everything it causes (a dazed tentacle's 1D10, a major wound's CON roll): it is written
    # here, and its figures filled in once the change is made (docs/gm.md, "Order").
    note["args"] = [who, *(path), op, str(n)]
    note["data"] = {"who": who, "name": name, "stat": key, "op": op, "amount": n, "old": old}
    ctx.events.append(note)
    new: Any  # a sheet's number (an int, or what a GM's story keeps there)
    if op == "-" and health and (fighting or _is_pc(story, who, sheet)):
        try:
            ruled = _rule_damage(ctx, who, n)
        except (NeedDice, E._Ending):
            # The table is asked for a die the damage caused (what is shown before it asks
            # already says what the damage did), or the blow ended the game: the line is whole.
            note["data"]["new"] = holder[key]
            note["message"] = f"GM: {name} {key}: {old} → {holder[key]}"
            raise
    else:
        ruled = False
    if ruled:
        new = holder[key]
    else:
        new = old - n if op == "-" else old + n if op == "+" else n
        mx = holder.get(f"{key}_max")
        if op == "+" and _number(mx):
            new = min(new, mx)
        if floor:
            new = max(0, new)
        holder[key] = new
    note["data"]["new"] = holder[key]
    note["message"] = f"GM: {name} {key}: {old} → {holder[key]}"
    return note


def stat_word(story: Any, key: str) -> str:
    """A sheet key as the story's language names it in a roll's label (``san``: 正気度 / SAN;
    ``hp``: 耐久力 / HP): the rule system's name for the stat, else its label, else the key."""
    from runner.rules import system

    lang = "en" if str(getattr(story, "language", "") or "").startswith("en") else "ja"
    try:
        shown = system(story.rules).display
    except (KeyError, ValueError, RuleError):
        return key
    if shown is None:
        return key
    word = ((shown.values.get(lang) or {}).get("stat") or {}).get(key)
    return str(word or (shown.labels.get(lang) or {}).get(key) or key)


def _check_amount(tok: str, op: str, key: str, typed: str, floor: bool) -> None:
    """Refuses an amount no sheet can take, in one line that says what fits: not a whole
    number or dice (``abc``, ``1.5``, nothing), below 0 for a stat that stops at 0 (``=-3``
    for Luck), or more than :data:`MAX_AMOUNT`."""
    bare = tok[1:] if tok[:1] in "+-" and op != "=" else tok
    data = {"stat": key, "typed": typed, "text": tok, "max": MAX_AMOUNT}
    if not bare.strip("+-"):
        raise Refused("gm_no_amount", f"{typed}: no amount", **data)
    if not _amount(bare):
        raise Refused("gm_bad_amount", f"{typed}: {tok!r} is not a whole number or dice", **data)
    if _INT.match(bare):
        n = int(bare)
        if abs(n) > MAX_AMOUNT:
            raise Refused("gm_amount_too_big", f"{typed}: {tok} is more than {MAX_AMOUNT}", **data)
        if op == "=" and n < 0 and floor:
            raise Refused("gm_amount_negative", f"{typed}: {tok} is below 0", **data)


def _fighters(ctx: Any) -> dict[str, Any]:
    """The rule system's own copies of characters in a running fight (its ``fighters()``
    hook: ``{"sheets": {id: sheet}, "instead_of": [ids]}``), which an override must reach
    instead of the story's sheet; {} when it has none."""
    from runner.rules import find_hook

    rules = ctx.story.rules
    hook = find_hook(f"{rules}.fighters", rules) if rules not in ("none", "core") else None
    if hook is None:
        return {}
    try:
        got = hook.fn(ctx)
    except RuleError:
        return {}
    return got if isinstance(got, dict) and isinstance(got.get("sheets", {}), dict) else {}


def _rule_damage(ctx: Any, who: str, n: int) -> bool:
    """Damage through the rule system's own ``damage(amount, who)`` hook (major wounds,
    dying, a flower that takes the blow); False if it has none."""
    from runner.rules import find_hook

    rules = ctx.story.rules
    hook = find_hook(f"{rules}.damage", rules) if rules not in ("none", "core") else None
    if hook is None or not {"amount", "who"} <= set(hook.args):
        return False
    try:
        hook.fn(ctx, amount=n, who=who)
    except RuleError:
        return False
    return True
