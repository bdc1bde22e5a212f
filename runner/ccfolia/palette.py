"""Chat palettes: CCFOLIA's ``commands`` text, read into skills and written from a sheet, and
a palette line typed at Katari's ``roll`` (``roll 目星``, ``roll CC<={目星}``).

A palette line is a dice command and a label: ``CC<=60 【目星】``, ``CC(1)<=70 〈聞き耳〉``,
``CC<={SAN} 【正気度ロール】``, ``CCB<=75 《図書館》`` (6th edition), ``1d100<=50 目星``, with
any of the brackets 【】〈〉《》[]「」『』 or none; ``{ラベル}`` is a value of the piece's
params or status.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

MAX_PALETTE_LINES = 2000
MAX_LINE = 500

_BRACKETS = "【】〈〉《》[]「」『』<>"
_LINE = re.compile(
    r"^\s*S?(?P<cmd>CCB|CC|1D100|RESB?)\s*(?P<bonus>\(\s*[-+]?\d+\s*\)|[-+]?\d+)?\s*"
    r"<=\s*(?P<value>\d+|\{[^{}]{1,60}\}(?:\s*[*×]\s*\d+)?|\(\s*\{[^{}]{1,60}\}\s*[*×]\s*\d+\s*\))"
    r"(?P<diff>[RHEC])?(?:\s+(?P<label>.*))?$",
    re.IGNORECASE,
)
_REF = re.compile(r"\{([^{}]{1,60})\}")


def label_of(text: str) -> str:
    """The label of a palette line's comment: the first bracketed part, else the first word
    (``【目星】`` → 目星, ``〈聞き耳〉 メモ`` → 聞き耳, ``目星 技能`` → 目星)."""
    t = text.strip()
    m = re.search(r"[【〈《\[「『<]([^】〉》\]」』>]{1,60})[】〉》\]」』>]", t)
    if m:
        return m.group(1).strip()
    m = re.match(r"^[:：]?\s*([^\s:：]+)", t)
    return m.group(1).strip(_BRACKETS) if m else ""


class PaletteLine:
    """One palette line read as a skill roll."""

    __slots__ = ("n", "text", "command", "value", "ref", "times", "label")

    def __init__(
        self, n: int, text: str, command: str, value: int | None, ref: str, times: int, label: str
    ) -> None:
        self.n, self.text, self.command = n, text, command
        self.value, self.ref, self.times, self.label = value, ref, times, label

    def __repr__(self) -> str:
        return f"PaletteLine({self.n}, {self.command}, {self.value or self.ref!r}, {self.label!r})"


def read_palette(text: str) -> tuple[list[PaletteLine], list[tuple[int, str]]]:
    """(the skill lines, the other non-empty lines with their numbers) of a chat palette,
    ``\\r\\n`` or ``\\n``; at most :data:`MAX_PALETTE_LINES` lines are read."""
    # (imported here: `katari roll` expands {SAN} without loading the story package)
    from runner.story.text import printable

    rolls: list[PaletteLine] = []
    other: list[tuple[int, str]] = []
    lines = str(text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for n, raw in enumerate(lines[:MAX_PALETTE_LINES], 1):
        line = unicodedata.normalize("NFKC", printable(raw[:MAX_LINE]).replace("\t", " ")).strip()
        if not line or line.startswith("//") or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            other.append((n, line))
            continue
        v = m.group("value")
        ref, times, value = "", 1, None
        if "{" in v:
            r = _REF.search(v)
            ref = r.group(1).strip() if r else ""
            t = re.search(r"[*×]\s*(\d+)", v)
            times = int(t.group(1)) if t else 1
        else:
            value = int(v[:6])
        label = label_of(m.group("label") or "")
        if not label and ref:
            label = ref
        if not label:
            other.append((n, line))
            continue
        rolls.append(PaletteLine(n, line, m.group("cmd").upper(), value, ref, times, label))
    return rolls, other


_REF_SIGNED = re.compile(r"(\+?)\{([^{}]{1,60})\}")


def expand(text: str, lookup: Callable[[str], int | str | None]) -> tuple[str, str]:
    """A palette line typed at ``roll`` against an investigator: ``{ラベル}`` replaced by its
    value, and a bare skill name (``目星``, ``アイデア``) made ``CC<=60 【目星】``. Returns
    (the command to roll, "" or the label it could not find).

    A value may be dice with its sign (DB ``+1D4``, ``-1``, ``0``): ``1D3+{DB}`` is
    ``1D3+1D4``, ``1D3-1`` or ``1D3+0``, as CCFOLIA's palettes mean it."""
    missing = ""

    def sub(m: re.Match) -> str:
        nonlocal missing
        plus, label = m.group(1), m.group(2).strip()
        v = lookup(label)
        if v is None:
            missing = missing or label
            return m.group(0)
        value = str(v)
        if plus and value[:1] in "+-":
            return value  # the value's own sign takes the place of the palette's +
        return plus + value

    out = _REF_SIGNED.sub(sub, text)
    if missing:
        return out, missing
    word, _, rest = out.strip().partition(" ")
    name = word.strip(_BRACKETS)
    v = lookup(name) if name else None
    if isinstance(v, int):  # a name on the sheet (no BCDice command is one)
        return f"CC<={v} 【{name}】" + (f" {rest.strip()}" if rest.strip() else ""), ""
    return out, ""


_DB_LABELS = ("DB", "ダメージボーナス", "ダメージ・ボーナス")


def sheet_lookup(s: dict) -> Callable[[str], int | str | None]:
    """What ``{ラベル}`` and a bare name mean on a coc7 sheet: characteristics, HP/MP/SAN/幸運
    (current values), MOV, ビルド, アイデア (INT), 知識 (EDU), and skills by any of their names;
    DB (ダメージボーナス) is its dice as text (``+1D4``, ``-1``, ``0``)."""
    from runner.ccfolia.skills import reading

    def lookup(label: str) -> int | str | None:
        key = unicodedata.normalize("NFKC", label).strip()
        up = key.upper()
        if up in _DB_LABELS or key in _DB_LABELS:
            db = (
                unicodedata.normalize("NFKC", str(s.get("db", "0")))
                .strip()
                .upper()
                .replace(" ", "")
            )
            db = "0" if db in ("", "±0", "なし", "NONE") else db
            return db if re.fullmatch(r"[+-]?(\d{1,3}(D\d{1,3})?)", db) else None
        simple: dict[str, Any] = {
            "HP": s.get("hp"),
            "耐久力": s.get("hp"),
            "MP": s.get("mp"),
            "マジック・ポイント": s.get("mp"),
            "SAN": s.get("san"),
            "正気度": s.get("san"),
            "SAN値": s.get("san"),
            "正気度ロール": s.get("san"),
            "SANチェック": s.get("san"),
            "SAN値チェック": s.get("san"),
            "幸運": s.get("luck"),
            "LUCK": s.get("luck"),
            "MOV": s.get("mov"),
            "移動率": s.get("mov"),
            "ビルド": s.get("build"),
            "BUILD": s.get("build"),
        }
        if up in simple or key in simple:
            v = simple.get(up, simple.get(key))
            return int(v) if isinstance(v, int) else None
        name, kind = reading(key)
        chars = s.get("chars", {})
        if kind == "char":
            return chars.get(name)
        if kind in ("luck", "san"):
            return s.get(kind)
        if kind == "skill":
            from runner.rules.coc7 import sheet as sh

            known = name in s.get("skills", {}) or sh.base_value(name, chars) or name in sh._BASE
            if not known:
                return None
            return sh.skill_value(s, name)[1]
        return None

    return lookup
