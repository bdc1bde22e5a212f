"""Events into styled text: lines of ``(style, text)`` fragments, as prompt_toolkit prints them.

Nothing here talks to a terminal, so other front ends (a web view, the transcript, tests)
can reuse it. Widths are measured with prompt_toolkit's ``get_cwidth`` so that Japanese
(two columns a character) wraps where the terminal wraps.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from prompt_toolkit.utils import get_cwidth

from runner.story.text import printable
from runner.ui.i18n import has_text, key_label, t, value_name

if TYPE_CHECKING:  # annotations only: importing the engine here would load it with the UI
    from runner.engine.events import ErrorEvent, Event, NarrationEvent, OverrideEvent, RollEvent

Fragment = tuple[str, str]
Line = list[Fragment]

STYLE: dict[str, str] = {
    "narration": "",
    "speaker": "bold ansicyan",
    "keeper": "ansimagenta",
    "keeper.mark": "bold ansimagenta reverse",
    "roll": "ansiyellow",
    "roll.level": "bold ansiyellow",
    "error": "ansired",
    "hint": "ansibrightblack",
    "actions": "ansibrightblack",
    "actions.n": "bold ansigreen",
    "ending": "bold ansigreen",
    "ending.bad": "bold ansired",
    "command": "bold",
    "meta": "ansiblue",
    "title": "bold underline",
    "bottom-toolbar": "noreverse bg:#303030 #e0e0e0",
    "bottom-toolbar.key": "bold",
    "bottom-toolbar.place": "bold #ffffff",
    "bottom-toolbar.warn": "bold #ff8080",
}
"""Class name -> prompt_toolkit style; the REPL builds a ``Style`` from it when colours are on."""

# Characters that must not begin a line (kinsoku shori) and ones that must not end it.
_NO_START = set(
    "、。，．・：；？！ー…‥）〕］｝〉》」』】〙〗〟’”｠»ヽヾゝゞ々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.;:!?)]}%"
)
_NO_END = set("（〔［｛〈《「『【〘〖〝‘“｟«([{")


def is_wide(ch: str) -> bool:
    return get_cwidth(ch) > 1 or unicodedata.east_asian_width(ch) in ("W", "F")


def width(text: str) -> int:
    """Columns ``text`` takes in a terminal."""
    return get_cwidth(text)


def speaker_head(name: str, lang: str) -> str:
    """A speaker's name before their line: 「三浦」 in Japanese, ``Miura: `` in English."""
    return f"「{name}」" if lang == "ja" else f"{name}: "


def tidy(text: str) -> str:
    """Drops the spaces YAML folding leaves between Japanese sentences ("。 次")."""
    if " " not in text:
        return text
    out = []
    n = len(text)
    for i, ch in enumerate(text):
        if ch == " " and 0 < i < n - 1 and is_wide(text[i - 1]) and is_wide(text[i + 1]):
            continue
        out.append(ch)
    return "".join(out)


_CELL = 24
"""Columns a cell of a line of cells may take (:func:`_cells`)."""


def _cells(text: str) -> list[str] | None:
    """A line of cells, items two or more spaces apart, each short (a sheet's
    「筋力STR 80  体力CON 60  精神力POW 50」), as its cells and the spaces between them: the line
    then wraps between cells, never inside one (「精神」 and 「力POW 50」 on two lines). None for
    any other text (prose wraps as :func:`_tokens` cuts it)."""
    body = text.strip(" ")
    if "  " not in body:
        return None
    parts = [p for p in re.split(r"( {2,})", text) if p]
    if any(not p.isspace() and width(p) > _CELL for p in parts):
        return None
    return parts


def _tokens(text: str) -> list[str]:
    """Breakable units: a Latin word, one wide character, or a run of spaces; with kinsoku glue."""
    toks: list[str] = []
    buf = ""
    for ch in text:
        if ch.isspace():
            if buf and not buf[-1].isspace():
                toks.append(buf)
                buf = ""
            buf += " "
        elif is_wide(ch):
            if buf:
                toks.append(buf)
                buf = ""
            toks.append(ch)
        else:
            if buf and buf[-1].isspace():
                toks.append(buf)
                buf = ""
            buf += ch
    if buf:
        toks.append(buf)
    glued: list[str] = []
    carry = ""
    for tok in toks:
        if tok.isspace():
            if carry:
                glued.append(carry)
                carry = ""
            glued.append(tok)
            continue
        tok = carry + tok
        carry = ""
        if glued and not glued[-1].isspace() and tok[0] in _NO_START:
            glued[-1] += tok
        else:
            glued.append(tok)
        if glued[-1][-1] in _NO_END and len(glued[-1]) == 1:
            carry = glued.pop()
    if carry:
        glued.append(carry)
    return glued


def wrap(
    text: str, cols: int, *, indent: str = "", first: str = "", keep_spaces: bool = False
) -> list[str]:
    """Wraps ``text`` to ``cols`` columns: Japanese between any two characters (minding
    kinsoku), English between words. ``first`` prefixes the first line, ``indent`` the rest.
    Spaces are kept as given: the loader already took out the ones YAML folding leaves in a
    story's Japanese (:func:`runner.story.loader._tidy`), and every other text shown (the
    console's hints, a GM's usage lines 「ダメージ 三浦 1d3」, names 黒田 剛) means its spaces.
    ``keep_spaces`` is accepted for callers written when this function dropped them."""
    del keep_spaces
    cols = max(cols, 8)
    lines: list[str] = []
    for para in text.split("\n"):
        lead = para[: len(para) - len(para.lstrip(" "))]
        if lead and not first and not indent:
            first = indent = lead  # an indented line keeps its indent when it wraps
        line, w = first if not lines else indent, width(first if not lines else indent)
        start_w = w
        for tok in _cells(para) or _tokens(para):
            tw = width(tok)
            if tok.isspace():
                if w > start_w:
                    line += tok  # kept whole: columns in lists stay aligned
                    w += width(tok)
                continue
            if w + tw > cols and w > start_w:
                lines.append(line.rstrip())
                line, w = indent, width(indent)
                start_w = w
            while w + tw > cols and len(tok) > 1:
                # A word longer than the line: cut it by characters.
                cut, cw = "", 0
                for ch in tok:
                    if w + cw + width(ch) > cols and cut:
                        break
                    cut += ch
                    cw += width(ch)
                lines.append(line + cut)
                tok = tok[len(cut) :]
                tw = width(tok)
                line, w = indent, width(indent)
                start_w = w
            line += tok
            w += tw
        lines.append(line.rstrip())
    return lines


def plain(lines: Iterable[Line]) -> str:
    """The text of rendered lines, without styles (or terminal control sequences)."""
    return printable("\n".join("".join(text for _, text in line) for line in lines))


def _speaker_name(story: Any, speaker: str | None, name: str | None = None) -> str | None:
    """The name a narration line shows: the one the engine gave it (``name``: what the player
    knows the character as then), else the character's; none for the narrator or a speaker
    that is no character of the story (a voice, not a person)."""
    if not speaker or speaker == "narrator":
        return None
    if name:
        return str(name)
    chars = getattr(story, "characters", None)
    if chars is None:
        return speaker
    c = chars.get(speaker)
    return c.name if c is not None else None


def narration_text(ev: NarrationEvent, lang: str) -> str:
    """A narration event's text in ``lang``: a rule's line carries both languages in
    ``texts`` (a rule system writes both); story text is as written."""
    texts = ev.get("texts")
    if isinstance(texts, dict) and isinstance(texts.get(lang), str):
        return texts[lang]
    return str(ev.get("text", ""))


def level_text(level: Any, lang: str) -> str:
    key = f"level_{level}"
    s = t(key, lang)
    return str(level) if s == key else s


def level_gap(level: str) -> str:
    """What goes between a roll's line and its level: a space, none before a full-width
    bracket (「（目標 50）（GMの裁定で失敗）」, not 「（目標 50） （…」)."""
    return "" if level.startswith(("（", "【", "「")) else " "


def roll_text(ev: RollEvent, lang: str, system: str | None = None) -> tuple[str, str]:
    """(the roll line without its level, the level text) for a ``roll`` event; a roll whose
    outcome the GM forced shows the ruling instead of the dice's level."""
    dice = [int(x) for x in ev.get("dice", [])]
    sides = [int(x) for x in ev.get("sides", [])]
    expr = unicodedata.normalize("NFKC", str(ev.get("expr", ""))).lower()
    if expr.startswith(("1d100", "d100", "cc", "cbr")) and len(sides) >= 2 and set(sides) == {10}:
        # Percentile dice: tens die (or dice, with bonus/penalty) then units, read as 00-90 and 0-9.
        faces = " ".join([f"[{(f % 10) * 10:02d}]" for f in dice[:-1]] + [f"[{dice[-1] % 10}]"])
    elif sides and len(set(sides)) == 1:
        faces = " ".join(f"[{f}]" for f in dice)
    else:
        faces = " ".join(f"[{f}/d{s}]" for f, s in zip(dice, sides, strict=False))
    if not dice and ev.get("maximum"):
        faces = t("roll_maximum", lang)  # the rules' maximum: no die rolled
    label = ev.get("label") or ""
    line = t(
        "roll_line",
        lang,
        label=f"{label} " if label else "",
        expr=ev.get("expr", ""),
        dice=faces or "-",
        total=ev.get("total", ""),
    )
    if ev.get("target") is not None:
        line += t("roll_target", lang, target=ev["target"])
    if ev.get("forced"):  # the GM ruled the outcome: the dice's own verdict is not the result
        return line, t("roll_forced", lang, outcome=outcome_name(ev["forced"], lang, system))
    level = ev.get("level")
    text = level_text(level, lang) if level not in (None, "") else ""
    if text and ev.get("success") is False and level not in ("failure", "fumble"):
        # Rolled under the skill but not at the difficulty asked for.
        text += t("roll_needed", lang, level=level_text(ev.get("difficulty", ""), lang))
    return line, text


class Renderer:
    """Turns a turn's events into lines for a terminal ``cols`` wide."""

    def __init__(
        self,
        story: Any = None,
        *,
        lang: str = "ja",
        gm: bool = False,
        cols: int = 80,
        show_actions: bool = True,
    ) -> None:
        self.story = story
        self.lang = lang
        self.gm = gm
        self.cols = cols
        self.show_actions = show_actions

    def events(self, events: Iterable[Event], *, command: str = "") -> list[Line]:
        out: list[Line] = []
        for ev in events:
            out.extend(self.event(ev, command=command))
        return out

    def event(self, ev: Event, *, command: str = "") -> list[Line]:
        lang = self.lang
        if ev["type"] == "narration":
            if ev.get("keeper"):
                if not self.gm:
                    return []
                mark = t("keeper", lang)
                lines = wrap(
                    str(ev.get("text", "")),
                    self.cols,
                    first=mark + " ",
                    indent=" " * width(mark + " "),
                )
                return [[("class:keeper.mark", mark), ("class:keeper", lines[0][len(mark) :])]] + [
                    [("class:keeper", line)] for line in lines[1:]
                ]
            name = _speaker_name(self.story, ev.get("speaker"), ev.get("name"))
            text = narration_text(ev, lang)
            if self.gm and ev.get("id") in getattr(
                getattr(self.story, "translation", None), "fallback", ()
            ):
                text = (
                    t("untranslated", lang) + text
                )  # still in the source language (docs/translating.md)
            if name is None:
                return [[("class:narration", line)] for line in wrap(text, self.cols)]
            head = speaker_head(name, lang)
            lines = wrap(text, self.cols, first=head, indent="  ")
            first = lines[0]
            return [[("class:speaker", head), ("class:narration", first[len(head) :])]] + [
                [("class:narration", line)] for line in lines[1:]
            ]
        if ev["type"] == "roll":
            line, level = roll_text(ev, lang, getattr(self.story, "rules", None))
            frags: Line = [("class:roll", line)]
            if level:
                frags.append(("class:roll.level", level_gap(level) + level))
            if ev.get("keeper") and not self.gm:
                return []
            return [frags]
        if ev["type"] == "error":
            return [[("class:error", line)] for line in self.error_lines(ev, command)]
        if ev["type"] == "override":
            mark = t("override", lang)
            lines = wrap(
                override_text(ev, lang, self.story),
                self.cols,
                first=mark + " ",
                indent=" " * width(mark + " "),
                keep_spaces=True,
            )
            return [[("class:keeper.mark", mark), ("class:keeper", lines[0][len(mark) :])]] + [
                [("class:keeper", line)] for line in lines[1:]
            ]
        if ev["type"] == "ending":
            kname = t(f"kind_{ev.get('kind')}", lang)
            if kname.startswith("kind_"):
                kname = str(ev.get("kind", ""))
            style = "class:ending.bad" if ev.get("kind") in ("bad", "failure") else "class:ending"
            return [
                [("", "")],
                [(style, t("ending", lang, title=ev.get("title") or ev.get("id", ""), kind=kname))],
            ]
        if ev["type"] == "prompt":
            if not self.show_actions:
                return []
            return self.actions(ev.get("actions", []))
        return []  # state events go to the status bar; unknown types are ignored

    def error_lines(self, ev: ErrorEvent, command: str) -> list[str]:
        code = ev.get("code")
        lang = self.lang
        text = clip(command.strip(), 40)
        if code == "empty":
            return []
        if code == "unknown_command":
            msg = t("unknown_command", lang, text=_printable(text))
        elif code == "not_now":
            msg = t(
                "not_now", lang, text=_printable(clip(str(ev.get("label") or command.strip()), 40))
            )
        elif code == "ambiguous":
            cands = ev.get("candidates") or []
            lines = wrap(t("ambiguous", lang), self.cols)
            lines += [line for a in self.actions(cands[:8]) for line in ["".join(f[1] for f in a)]]
            if len(cands) > 8:
                lines.append(t("ambiguous_more", lang, n=len(cands) - 8))
            return lines
        elif code == "too_long":
            msg = t("too_long", lang, n=ev.get("max", ""))
        elif code == "no_such_number":
            msg = t("no_such_number", lang, text=_printable(text))
        else:
            msg = code_text(ev, lang, self.story) or t("error", lang, message=ev.get("message", ""))
        lines = wrap(
            msg, self.cols, keep_spaces=True
        )  # interface text: 「ダメージ 三浦 1d3」 keeps its spaces
        if ev.get("suggestions"):
            lines += wrap(t("suggest", lang, list=" / ".join(ev["suggestions"])), self.cols)
        return lines

    def actions(self, actions: Sequence[Mapping[str, Any]]) -> list[Line]:
        if not actions:
            return [[("class:actions", t("no_actions", self.lang))]]
        out: list[Line] = []
        for a in actions:
            n = a.get("n")
            head = f"  {n}. " if n else "  - "
            for i, line in enumerate(
                wrap(str(a.get("label", "")), self.cols, first=head, indent=" " * width(head))
            ):
                if i == 0:
                    out.append([("class:actions.n", head), ("class:actions", line[len(head) :])])
                else:
                    out.append([("class:actions", line)])
        return out

    def text(self, text: str, style: str = "") -> list[Line]:
        """Wraps interface text (its spaces kept: usage lines read as what one types)."""
        return [[(style, line)] for line in wrap(text, self.cols, keep_spaces=True)]


def clip(text: str, n: int) -> str:
    """``text`` cut to ``n`` characters, with … where it was cut."""
    return text if len(text) <= n else text[:n] + "…"


def _printable(text: str) -> str:
    """Control characters shown as ``\\x..`` so an echo cannot move the cursor."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


# -- status ------------------------------------------------------------------

CORE_KEYS = {
    "type",
    "node",
    "title",
    "turn",
    "clock",
    "time",
    "time_left",
    "vars",
    "inventory",
    "stats",
    "gm",
    "ending",
}
PREFERRED_STATS = ("HP", "hp", "MP", "mp", "Luck", "luck", "life", "ライフ")
"""The gauges a status bar shows first when the rule system names none (Display.stats)."""
SHEET_SKIP = frozenset({"hp", "mp", "luck", "age"})
"""Sheet numbers the GM panel does not repeat after the gauges, unless the rule system says."""


def _display(system: Any) -> Any:
    """The story's rule system's Display (runner.rules' registry), or an empty one."""
    from runner.rules import BrokenRules, UnknownRules
    from runner.rules import system as find
    from runner.rules.base import Display

    if isinstance(system, str):
        try:
            return find(system).display
        except (UnknownRules, BrokenRules):
            pass
    return Display()


def is_view_key(key: str) -> bool:
    """Whether a state key holds a rule system's whole view (its name): shown flat, one level down."""
    from runner.rules import is_system

    return key != "none" and is_system(key)


def duration(minutes: Any, lang: str) -> str:
    try:
        m = int(minutes)
    except (TypeError, ValueError):
        return str(minutes)
    h, mm = divmod(m, 60)
    if lang == "ja":
        return f"{h}時間{mm:02d}分" if h else f"{mm}分"
    return f"{h}h{mm:02d}m" if h else f"{mm}m"


def compact(value: Any, depth: int = 0) -> str:
    """A short one-line form of a view value."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, (int, float, str)):
        return str(value)
    if isinstance(value, dict):
        parts = []
        for k, v in value.items():
            if v is None or v == "" or v == [] or v == {} or depth > 1:
                continue
            c = compact(v, depth + 1)
            if c:
                parts.append(f"{k}={c}" if not isinstance(v, dict) else f"{k}({c})")
        return " ".join(parts)
    if isinstance(value, (list, tuple)):
        parts = []
        for x in value:
            if isinstance(x, dict):
                name = x.get("name") or x.get("label") or x.get("id")
                rest = {
                    k: v
                    for k, v in x.items()
                    if k not in ("name", "label", "id")
                    and isinstance(v, (int, float, str))
                    and not isinstance(v, bool)
                    and v != ""
                }
                lit = "*" if x.get("lit") else ""
                s = f"{name}{lit}" if name is not None else ""
                if rest and depth < 2:
                    s += "(" + " ".join(f"{k}={v}" for k, v in list(rest.items())[:3]) + ")"
                parts.append(s)
            else:
                c = compact(x, depth + 1)
                if c:
                    parts.append(c)
        return ",".join(p for p in parts if p)
    return str(value)


def view_text(
    key: str,
    value: Any,
    lang: str = "ja",
    system: str | None = None,
    depth: int = 0,
    *,
    short: bool = False,
) -> str:
    """A rule system's view value in the interface language: values with names of their own
    (LED colours, buttons), the edgework, maps with their keys named; the rest as ``compact``.
    ``short``: the status bar's form, where the edgework must fit beside the stage and LED."""
    own = _display(system).text
    if own is not None:
        text = own(key, value, lang, short)
        if text is not None:
            return text
    if isinstance(value, (str, bool)):
        name = value_name(key, value, lang, system)
        if name is not None:
            return name
    sep = "、" if lang == "ja" else ", "
    if isinstance(value, (list, tuple)) and value and all(isinstance(x, str) for x in value):
        names = [value_name(key, x, lang, system) for x in value]
        if any(n is not None for n in names):
            return sep.join(n if n is not None else x for n, x in zip(names, value, strict=True))
    if isinstance(value, dict) and depth < 2:
        parts = []
        for k, v in value.items():
            if v is None or v == "" or v == [] or v == {}:
                continue
            c = view_text(str(k), v, lang, system, depth + 1)
            if c:
                parts.append(f"{key_label(str(k), lang, system)} {c}")
        return ("・" if lang == "ja" else " · ").join(parts)
    return compact(value, depth)


def _stat_keys(s: dict, system: str | None = None) -> list[str]:
    """The keys of a sheet the status bar shows: the rule system's gauges (or the usual
    ones), else its first numbers."""
    picked = [
        k
        for k in (_display(system).stats or PREFERRED_STATS)
        if k in s and isinstance(s[k], (int, float, str))
    ]
    if not picked:
        picked = [
            k for k, v in s.items() if isinstance(v, (int, float)) and not isinstance(v, bool)
        ][:4]
    return picked


def stat_items(stats: dict, lang: str = "ja", system: str | None = None) -> list[tuple[str, str]]:
    """Toolbar pairs from a ``stats`` map (character id -> stats): the usual gauges first."""
    out: list[tuple[str, str]] = []
    many = len(stats) > 1
    for cid, s in stats.items():
        if not isinstance(s, dict):
            continue
        for k in _stat_keys(s, system):
            name = key_label(k, lang, system)
            v = s[k]
            mx = s.get(f"{k}_max")
            val = f"{v}/{mx}" if isinstance(mx, int) and k != "san" else str(v)
            out.append((f"{s.get('name', cid)} {name}" if many else name, val))
    return out


def status_items(
    ev: Mapping[str, Any], story: Any = None, lang: str = "ja", *, short: bool = False
) -> list[tuple[str, str]]:
    """(label, value) pairs for the status bar from a ``state`` event, the place first.
    ``short`` (the bar itself): compact forms, and a rule system's False flags left out."""
    return [(label, value) for label, value, _ in status_fields(ev, story, lang, short=short)]


RULES_FIELD, STORY_FIELD = 1, 2
"""How much a status field matters when the bar is narrow (less is more): the rule system's
gauges and view (HP, conditions, cards) before the story's variables."""


def status_fields(
    ev: Mapping[str, Any], story: Any = None, lang: str = "ja", *, short: bool = False
) -> list[tuple[str, str, int]]:
    """:func:`status_items` with each field's rank: 0 for the place, clock and time left,
    RULES_FIELD, STORY_FIELD."""
    items: list[tuple[str, str, int]] = [
        (t("place", lang), str(ev.get("title") or ev.get("node", "")), 0)
    ]
    if ev.get("time"):
        items.append((t("time", lang), time_text(ev["time"], lang), 0))
    if ev.get("time_left") is not None:
        items.append((t("left", lang), duration(ev["time_left"], lang), 0))
    system = getattr(story, "rules", None)
    items.extend((k, v, RULES_FIELD) for k, v in stat_items(ev.get("stats") or {}, lang, system))
    variables = getattr(story, "variables", {}) or {}
    for name, v in (ev.get("vars") or {}).items():
        if v is None or v == "":
            continue
        var = variables.get(name)
        label = var.label if var is not None and var.label else name
        items.append((label, compact(v), STORY_FIELD))
    for key, v in ev.items():
        if key in CORE_KEYS or v is None:
            continue
        if isinstance(v, dict) and (key == getattr(story, "rules", None) or is_view_key(key)):
            # A rule system's view under its own name: show its useful parts flat.
            shown = _display(key)
            for k2, v2 in v.items():
                if _nothing(v2) or k2 in shown.status_skip:
                    continue
                if k2 in shown.same_as_stats and ev.get("stats"):
                    continue  # the same people as in ``stats``, already shown
                if k2 == "time_left":
                    items.append((t("left", lang), duration(v2, lang), 0))
                    continue
                c = view_text(k2, v2, lang, key, 1)
                if c:
                    items.append((key_label(k2, lang, key), c, RULES_FIELD))
            continue
        if short and v is False:
            continue  # "solved: not yet" for the whole game says nothing the bar has room for
        c = view_text(key, v, lang, system if isinstance(system, str) else None, short=short)
        if c:
            label = key_label(key, lang, system if isinstance(system, str) else None)
            items.append((label, c, RULES_FIELD))
    return items


def _nothing(v: Any) -> bool:
    """A view value the bar leaves out: none, False, an empty text or list. A zero is a value
    (``grit 0``): ``0 in (None, "", False)`` is true in Python, which hid it."""
    return v is None or v is False or (isinstance(v, (str, list, dict)) and not v)


STATUS_KEEP = ("place", "time", "left", "real_left", "turn")
"""The status bar's fields that never yield (by their interface label): where, when, how long
is left and the turn. When the bar is too narrow the others yield, the least important first:
the story's variables, then the rule system's fields (status_fields' ranks), each from the
last."""


def _cut(text: str, cols: int) -> str:
    """``text`` cut to ``cols`` columns, an ellipsis at the cut."""
    if width(text) <= cols:
        return text
    out = ""
    for ch in text:
        if width(out + ch) > cols - 1:
            break
        out += ch
    return out + "…"


def toolbar(
    ev: Mapping[str, Any] | None,
    story: Any = None,
    lang: str = "ja",
    *,
    cols: int = 80,
    gm: bool = False,
    extra: list[tuple[str, str]] | None = None,
    lead: list[tuple[str, str]] | None = None,
) -> list[Fragment]:
    """The bottom toolbar's fragments, cut to ``cols``. ``extra`` pairs go right after the
    place (the real-time countdown), ``lead`` ones before it (a listening microphone).

    The place, clock, time left, real-time countdown, turn, GM mark and microphone always
    stay (STATUS_KEEP); the other fields yield, the least important first (the story's
    variables, then the rule system's fields, each from the last), until the bar fits, and a
    place name too long for what is left is cut with an ellipsis."""
    if not ev:
        return [("class:bottom-toolbar", t("toolbar_keys", lang))]
    keep = {t(k, lang) for k in STATUS_KEEP}
    items = status_fields(ev, story, lang, short=True)
    # (label, value, rank: 0 stays, else how much it matters; is the place)
    fields = [
        (label, value, 0 if label in keep else rank, i == 0)
        for i, (label, value, rank) in enumerate(items)
    ]
    fields[1:1] = [(label, value, 0, False) for label, value in extra or []]
    fields[0:0] = [(label, value, 0, False) for label, value in lead or []]
    if gm:
        fields.insert(0, ("", t("gm_mode", lang), 0, False))
    if ev.get("turn") is not None:
        fields.append((t("turn", lang), str(ev["turn"]), 0, False))
    warn = {t("left", lang), t("real_left", lang)}
    chunks = [
        (
            f"{label} {value}".strip() if label else value,
            rank,
            place,
            label in warn or value.startswith("🎤"),
        )
        for label, value, rank, place in fields
    ]
    room = cols - 1

    def used(cs: list[tuple[str, int, bool, bool]]) -> int:
        return sum(width(c[0]) for c in cs) + 1 + 3 * (len(cs) - 1)

    while used(chunks) > room and any(c[1] for c in chunks):
        # the least important yields first: the story's variables, then the rules' fields,
        # each from the last
        del chunks[max((c[1], i) for i, c in enumerate(chunks) if c[1])[1]]
    over = used(chunks) - room
    if over > 0:
        for i, (c, rank, place, warns) in enumerate(chunks):
            if place:
                cut = _cut(c, max(width(t("place", lang)) + 2, width(c) - over))
                chunks[i] = (cut, rank, place, warns)
    frags: list[Fragment] = []
    total = 0
    for chunk, _, place, warns in chunks:
        sep = " │ " if frags else " "
        w = width(sep + chunk)
        if total + w > room:
            break  # a bar narrower than its kept fields: they are cut from the end
        frags.append(("class:bottom-toolbar", sep))
        style = "class:bottom-toolbar.place" if place else "class:bottom-toolbar"
        if warns:
            style = "class:bottom-toolbar.warn"
        frags.append((style, chunk))
        total += w
    return frags


def status_lines(
    ev: Mapping[str, Any] | None,
    story: Any = None,
    lang: str = "ja",
    *,
    cols: int = 80,
    extra: list[tuple[str, str]] | None = None,
) -> list[Line]:
    """The ``status`` command: one pair a line."""
    if not ev:
        return []
    out: list[Line] = [[("class:title", t("status_head", lang))]]
    items = status_items(ev, story, lang)
    items[1:1] = extra or []
    for label, value in items:
        for line in wrap(f"{label}: {value}", cols, first="  ", indent="    ", keep_spaces=True):
            out.append([("", line)])
    out.append([("", f"  {t('turn', lang)}: {ev.get('turn', 0)}")])
    return out


def clock_seconds(seconds: float) -> str:
    """A real-time countdown as M:SS (H:MM:SS past an hour)."""
    s = max(0, int(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def override_text(ev: OverrideEvent, lang: str = "en", story: Any = None) -> str:
    """An ``override`` event in one line, in ``lang`` (by its code; the engine's English
    message only for an override this console does not know)."""
    text = code_text(ev, lang, story)
    if text is not None:
        return text
    msg = str(ev.get("message") or "")
    if msg.startswith("GM: "):
        msg = msg[4:]
    return msg or " ".join([str(ev.get("what", "")), *map(str, ev.get("args", []))])


def value_text(value: Any, lang: str) -> str:
    """A variable's value as a person reads it (はい / いいえ, numbers, text)."""
    if isinstance(value, bool):
        return t("value_true" if value else "value_false", lang)
    if value is None or value == "":
        return t("value_none", lang)
    return str(value)


def time_text(clock: Any, lang: str) -> str:
    """The engine's clock text (``01:00 (+1d)``) in ``lang`` (``01:00（翌日）``)."""
    text = str(clock or "")
    head, sep, rest = text.partition(" (+")
    if not sep or not rest.endswith("d)") or not rest[:-2].isdigit():
        return text
    n = int(rest[:-2])
    return head + (t("next_day", lang) if n == 1 else t("nth_day", lang, n=n))


def outcome_name(key: Any, lang: str, system: str | None = None) -> str:
    """A check's outcome as a GM reads it: a rule level's name, the rule system's name for
    its own key (``Display.values[lang]["outcome"]``), else the key made readable."""
    key = str(key)
    if has_text(f"level_{key}", lang):
        return level_text(key, lang)
    hit = value_name("outcome", key, lang, system)
    return hit if hit else key.replace("_", " ")


def outcome_key(word: str, lang: str, system: str | None = None) -> str:
    """The outcome key a GM's word names: the key itself, or any name :func:`outcome_name`
    gives it in either language (``イクストリーム成功``, ``怯ませた``); else the word folded."""
    from runner.engine.gm import STANDARD_OUTCOMES

    folded = unicodedata.normalize("NFKC", word).casefold()
    d = _display(system)
    own = [k for lg in ("ja", "en") for k in ((d.values.get(lg) or {}).get("outcome") or {})]
    for k in (*STANDARD_OUTCOMES, *own):
        if folded == k or any(
            unicodedata.normalize("NFKC", outcome_name(k, lg, system)).casefold() == folded
            for lg in (lang, "ja", "en")
        ):
            return k
    return folded


def _outcome_name(key: Any, lang: str, system: str | None = None) -> str:
    return outcome_name(key, lang, system)


def _names(items: Any, lang: str) -> str:
    return ("、" if lang == "ja" else ", ").join(str(x) for x in (items or []))


def code_text(ev: ErrorEvent | OverrideEvent, lang: str = "ja", story: Any = None) -> str | None:
    """An ``error`` or ``override`` event worded in ``lang`` from its ``code`` and ``data``;
    None when this console has no words for the code."""
    code = ev.get("code")
    if not code:
        return None
    kind = ev.get("type")
    d = dict(ev.get("data") or {})
    system = getattr(story, "rules", None)
    system = system if isinstance(system, str) else None
    if kind == "override":
        key = f"ov_{code}"
        if not has_text(key, lang):
            return None
        if code == "set":
            d.update(old=value_text(d.get("old"), lang), value=value_text(d.get("value"), lang))
        elif code == "clock":
            d.update(
                {
                    "d": duration(d.get("minutes", 0), lang),
                    "from": time_text(d.get("from"), lang),
                    "to": time_text(d.get("to"), lang),
                }
            )
        elif code in ("stat", "damage"):
            sk = str(d.get("stat", ""))  # the sheet's word for it (耐久力), else its label
            d["stat"] = value_name("stat", sk, lang, system) or key_label(sk, lang, system)
        elif code in ("force", "forced", "force_kept"):
            d["value"] = _outcome_name(d.get("value", ev.get("value", "")), lang, system)
        try:
            return t(key, lang, **d)
        except (KeyError, IndexError, ValueError):
            return None
    if kind != "error":
        return None
    key = f"err_{code}"
    if code == "gm_usage" and has_text(f"{key}_{d.get('verb')}", lang):
        key = f"{key}_{d.get('verb')}"
    if not has_text(key, lang):
        return None
    if "holds" in d:
        d["holds"] = t(f"holds_{d['holds']}", lang)
    if "kind" in d:
        d["kind"] = (
            t(f"named_{d['kind']}", lang) if has_text(f"named_{d['kind']}", lang) else d["kind"]
        )
    if "known" in d:
        names = list(d.get("known") or [])
        listed = _names(names, lang) + ("…" if d.get("more") else "")
        d["known"] = t("err_gm_known", lang, list=listed) if names else ""
    if "candidates" in d:
        d["candidates"] = _names(d["candidates"], lang)
    if "allowed" in d:
        d["allowed"] = _names([_outcome_name(k, lang, system) for k in d["allowed"]], lang)
    if "value" in d and code.startswith("gm_force"):
        d["value"] = str(d["value"])
    elif code in ("gm_same", "gm_same_stat"):
        d["value"] = value_text(d.get("value"), lang)
    if code == "gm_same_stat":
        d["stat"] = key_label(str(d.get("stat", "")), lang, system)
    d.setdefault("allowed", "")
    try:
        return t(key, lang, **d)
    except (KeyError, IndexError, ValueError):
        return None


def _flat(d: dict) -> dict:
    """A GM view's hidden parts, one level flat (``hidden.expected`` -> ``expected``)."""
    out: dict = {}
    for k, v in d.items():
        if isinstance(v, dict) and (k == "hidden" or is_view_key(k)):
            out.update(v)
        else:
            out[k] = v
    return out


def _clock_parts(ev: Mapping[str, Any], lang: str) -> list[str]:
    parts = []
    if ev.get("time"):
        parts.append(time_text(ev["time"], lang))
    if ev.get("time_left") is not None and not isinstance(ev.get("time_left"), bool):
        parts.append(t("gm_left", lang, left=duration(ev["time_left"], lang)))
    parts.append(f"{t('turn', lang)} {ev.get('turn', 0)}")
    return parts


def gm_timed(ev: Mapping[str, Any], story: Any, lang: str) -> tuple[list[str], list[str]]:
    """The timed events still to come, soonest first, as ``16:30 hunger（あと6時間00分）``, and
    the condition events that have not happened yet (by name; ones that repeat are left out)."""
    g = ev.get("gm") or {}
    repeat = {e.id for e in (getattr(story, "events", None) or ()) if getattr(e, "repeat", False)}
    timed, waiting = [], []
    for p in g.get("pending_events", []):
        name = str(p.get("title") or p.get("id"))  # the story's title for it, else its id
        if p.get("at") is None:
            if p.get("id") not in repeat:
                waiting.append(name)
            continue
        d = duration(max(0, int(p["at"]) - int(ev.get("clock", 0))), lang)
        when = time_text(p.get("time"), lang) if p.get("time") else f"+{p['at']}"
        timed.append(
            f"{when} {name}（{t('gm_in', lang, d=d)}）"
            if lang == "ja"
            else f"{when} {name} ({t('gm_in', lang, d=d)})"
        )
    return timed, waiting


def gm_vars(ev: Mapping[str, Any], story: Any, lang: str) -> tuple[list[str], list[str]]:
    """The variables that matter (those the story labels or shows), with their labels, and
    the others that have changed since the start, grouped by the word their names begin with
    (``door(open ✓ unlocked ✓)``): never the whole list of every variable."""
    g = ev.get("gm") or {}
    allv = g.get("all_vars", ev.get("vars") or {})
    variables = getattr(story, "variables", {}) or {}
    word = _display(getattr(story, "rules", None)).word

    def mark(v: Any) -> str:  # a text in the rules' own words is named in ``lang``
        if word is not None and isinstance(v, str) and v:
            v = word(v, lang) or v
        return value_mark(v, lang)

    shown, changed = [], []
    groups: dict[str, list[tuple[str, Any]]] = {}
    for name, v in allv.items():
        var = variables.get(name)
        if var is not None and (var.label or var.visible):
            shown.append(f"{var.label or name} {mark(v)}")
            continue
        if var is not None and v == var.value:
            continue
        head, sep, rest = name.partition("_")
        groups.setdefault(head if sep else name, []).append((rest if sep else name, v))
    for head, members in groups.items():
        if len(members) == 1:
            k, v = members[0]
            full = f"{head}_{k}" if k != head else head
            changed.append(f"{full} {mark(v)}")
        else:
            changed.append(f"{head}(" + " ".join(f"{k} {mark(v)}" for k, v in members) + ")")
    return shown, changed


def value_mark(v: Any, lang: str) -> str:
    """A variable's value in the panel: ✓ / ✗ for yes and no, the value otherwise."""
    if isinstance(v, bool):
        return "✓" if v else "✗"
    if v is None or v == "":
        return t("value_none", lang)
    return str(v)


def gm_people(ev: Mapping[str, Any], story: Any, lang: str) -> list[str]:
    """Every character with a sheet (enemies too): the usual gauges, conditions, then a few
    more numbers."""
    chars = getattr(story, "characters", {}) or {}
    system = getattr(story, "rules", None)
    system = system if isinstance(system, str) else None
    rows = []
    for cid, sheet in (ev.get("stats") or {}).items():
        if not isinstance(sheet, dict):
            continue
        c = chars.get(cid)
        name = sheet.get("name") or (c.name if c is not None and c.name else cid)
        pairs = stat_items({cid: sheet}, lang, system)
        shown = set(_stat_keys(sheet, system))
        skip = _display(system).sheet_skip or SHEET_SKIP
        extra = [
            (k, v)
            for k, v in sheet.items()
            if isinstance(v, (int, float))
            and not isinstance(v, bool)
            and k not in shown
            and not k.endswith("_max")
            and k.lower() not in skip
        ][:8]
        found = sheet.get("cond")
        cond: dict[str, Any] = found if isinstance(found, dict) else {}
        # A condition that is on, or of a kind (``insane: temporary``).
        marks = [
            _condition_mark(k, cond[k], lang, system)
            for k in _display(system).conditions
            if cond.get(k)
        ]
        vals = (
            [f"{k} {v}" for k, v in pairs]
            + [f"［{m}］" if lang == "ja" else f"[{m}]" for m in marks]
            + [f"{key_label(k, lang, system)} {v}" for k, v in extra]
        )
        kind = (
            f"({key_label(c.kind, lang, system)})"
            if c is not None and c.kind and c.kind != "pc"
            else ""
        )
        rows.append(f"{name}{kind}: " + (" ".join(vals) or compact(sheet)))
    return rows


def _condition_mark(key: str, value: Any, lang: str, system: str | None) -> str:
    """A condition on a character's row: its name (重傷), or the name of its kind
    (``insane: temporary`` → 一時的狂気), or the key and the value as they are."""
    if not isinstance(value, str):
        return key_label(key, lang, system)
    return value_name(key, value, lang, system) or f"{key_label(key, lang, system)}:{value}"


def gm_lines(
    ev: Mapping[str, Any] | None,
    story: Any = None,
    lang: str = "ja",
    *,
    cols: int = 80,
    hidden: dict | None = None,
    folded: bool = False,
    max_lines: int | None = None,
    key: str = "",
) -> list[Line]:
    """The game master's panel. Its first line is a summary (clock, time left, turn, the next
    timed event, how many variables have changed); folded, that line is all. Open, it lists
    the timed events to come with their times and names, the condition events not yet met,
    the variables that matter (labelled) and those that changed (grouped), every character's
    stats (enemies' too) and the rule system's hidden values (``hidden``: what the GM's state
    event shows and the player's does not). ``max_lines`` bounds it (the game must stay on
    the screen): what does not fit is counted on its last line. ``key`` names the key that
    folds it (shown in the summary's head). Never narrated: it is not story text."""
    if not ev:
        return []
    timed, waiting = gm_timed(ev, story, lang)
    shown, changed = gm_vars(ev, story, lang)
    sep = "・" if lang == "ja" else " · "
    head = t("gm_panel_key", lang, key=key) if key else t("gm_panel_head", lang)
    parts = _clock_parts(ev, lang)
    if timed:
        parts.append(t("gm_next", lang, what=timed[0]))
    if changed:
        parts.append(t("gm_changed_n", lang, n=len(changed)))
    summary = clip_cols(
        head + sep.join(parts) if lang == "ja" else f"{head} " + sep.join(parts), cols
    )
    if folded:
        return [[("class:keeper.mark", summary)]]
    rows: list[str] = [summary]
    rows.append(
        f"  {t('gm_pending', lang)}: " + (" / ".join(timed) if timed else t("gm_none", lang))
    )
    if waiting:
        rows.append(f"  {t('gm_waiting', lang)}: " + ("、" if lang == "ja" else ", ").join(waiting))
    if shown:
        rows.append(f"  {t('gm_vars', lang)}: " + sep.join(shown))
    rows.append(
        f"  {t('gm_changed', lang)}: " + (" ".join(changed) if changed else t("gm_none", lang))
    )
    rows += [f"  {r}" for r in gm_people(ev, story, lang)]
    system = getattr(story, "rules", None)
    flat = _flat(hidden or {})
    if flat:
        rows.append(
            f"  {t('gm_hidden', lang)}: "
            + view_text("hidden", flat, lang, system if isinstance(system, str) else None)
        )
    out: list[Line] = []
    for i, row in enumerate(rows):
        lead = "  " if row.startswith("  ") else ""
        for line in wrap(row[len(lead) :], cols, first=lead, indent="    ", keep_spaces=True):
            out.append([("class:keeper.mark" if i == 0 else "class:keeper", line)])
    if max_lines is not None and len(out) > max(1, max_lines):
        keep = max(1, max_lines) - 1
        more = len(out) - keep
        out = out[:keep] + [[("class:keeper", clip_cols("  " + t("gm_more", lang, n=more), cols))]]
    return out


def clip_cols(text: str, cols: int) -> str:
    """``text`` cut to ``cols`` terminal columns (with … where it was cut)."""
    if width(text) <= cols:
        return text
    out, w = "", 0
    for ch in text:
        if w + width(ch) > cols - 1:
            break
        out += ch
        w += width(ch)
    return out + "…"


def gm_hidden(player_ev: Mapping[str, Any], gm_ev: Mapping[str, Any]) -> dict[str, Any]:
    """What a GM's state event shows and a player's does not, besides ``gm`` and ``stats``."""
    out: dict[str, Any] = {}
    for k, v in gm_ev.items():
        if k in ("gm", "stats", "vars", "type", "time", "time_left", "clock"):
            continue  # (the clock and time left head the panel)
        pv = player_ev.get(k)
        if pv == v:
            continue
        if isinstance(v, dict) and isinstance(pv, dict):
            sub = {k2: v2 for k2, v2 in v.items() if pv.get(k2) != v2}
            if sub:
                out[k] = sub
        else:
            out[k] = v
    return out


# -- transcripts -------------------------------------------------------------

CLOCK_COMMANDS = ("@time_passed", "@time_sync", "@tick")
"""Commands the console sends for real time passing (not a player's)."""


def is_clock_command(command: str | None) -> bool:
    return command is not None and command.split(" ", 1)[0] in CLOCK_COMMANDS


def markdown_turn(
    events: Iterable[Event],
    story: Any = None,
    *,
    lang: str = "ja",
    gm: bool = False,
    command: str | None = None,
    n: int | None = None,
) -> str:
    """One turn as Markdown: the command as a heading-like line, narration as paragraphs."""
    out: list[str] = []
    if command is not None and is_clock_command(command):
        parts = command.split()
        secs = parts[1] if len(parts) > 1 else "?"
        out.append(
            f"*{_md(t('time_report', lang, n=secs) if parts[0] != '@time_sync' else '⏱ ' + command)}*"
            + (f" <sub>#{n}</sub>" if n is not None else "")
        )
        out.append("")
    elif command is not None and command.startswith("!"):
        out.append(
            f"**▶ {_md(t('override', lang))} {_md(command)}**"
            + (f" <sub>#{n}</sub>" if n is not None else "")
        )
        out.append("")
    elif command is not None:
        out.append(f"**▶ {_md(command)}**" + (f" <sub>#{n}</sub>" if n is not None else ""))
        out.append("")
    for ev in events:
        if ev["type"] == "narration":
            if ev.get("keeper"):
                if gm:
                    out.append(f"> {t('keeper', lang)} *{_md(tidy(str(ev.get('text', ''))))}*")
                    out.append("")
                continue
            name = _speaker_name(story, ev.get("speaker"), ev.get("name"))
            text = _md(tidy(narration_text(ev, lang)))
            out.append(f"**{speaker_head(_md(name), lang).strip()}** {text}" if name else text)
            out.append("")
        elif ev["type"] == "roll":
            line, level = roll_text(ev, lang, getattr(story, "rules", None))
            out.append(f"`{line}`" + (f"{level_gap(level)}**{level}**" if level else ""))
            out.append("")
        elif ev["type"] == "ending":
            kname = t(f"kind_{ev.get('kind')}", lang)
            if kname.startswith("kind_"):
                kname = str(ev.get("kind", ""))
            out.append(
                f"### {t('ending', lang, title=_md(str(ev.get('title') or ev.get('id', ''))), kind=kname)}"
            )
            out.append("")
        elif ev["type"] == "override":
            out.append(f"> **{_md(t('override', lang))}** {_md(override_text(ev, lang, story))}")
            out.append("")
        elif ev["type"] == "error":
            out.append(f"*{_md(code_text(ev, lang, story) or str(ev.get('message', '')))}*")
            out.append("")
    return "\n".join(out)


def _md(text: str | None) -> str:
    """Escapes what would turn narration into Markdown markup by accident."""
    if not text:
        return ""
    s = "".join(ch if ch.isprintable() or ch == "\n" else " " for ch in text)
    for ch in "\\`*_[]<>#|":
        s = s.replace(ch, "\\" + ch)
    return s.replace("\n", "  \n")
