"""Clocks and timelines: ``10:00 …`` lines, tables, 「20時になると」, 1日目 夜, relative
times (「電気をつけて1時間以降になると」), and the time a search costs."""

from __future__ import annotations

import re

from runner.importer.model import Line, TimedEntry

_KANJI = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "初": 1}
_DAY = r"(?:(?P<day>\d+|[一二三四五六七初])日目|第(?P<day2>\d+)日|(?P<next>翌日|翌朝))"
_PART = r"(?P<part>早朝|朝方|朝|午前中|午前|正午|昼間|昼|午後|夕方|夕刻|日没|夜中|深夜|夜|未明|明け方|夜明け|AM|PM|am|pm)"
_HM = r"(?P<h>\d{1,2})\s*(?::\s*(?P<m>\d{2})|時\s*(?:(?P<m2>\d{1,2})\s*分|(?P<half>半))?)"
_TIME = re.compile(rf"^(?:{_DAY}\s*(?:の)?\s*[、,]?\s*)?(?:{_PART}\s*(?:の)?\s*)?(?:{_HM})?")
_PART_AT = {
    "早朝": 5 * 60,
    "朝方": 6 * 60,
    "朝": 7 * 60,
    "午前中": 9 * 60,
    "午前": 9 * 60,
    "正午": 12 * 60,
    "昼間": 12 * 60,
    "昼": 12 * 60,
    "午後": 14 * 60,
    "夕方": 17 * 60,
    "夕刻": 17 * 60,
    "日没": 18 * 60,
    "夜": 20 * 60,
    "夜中": 23 * 60,
    "深夜": 24 * 60,
    "未明": 4 * 60,
    "明け方": 5 * 60,
    "夜明け": 5 * 60,
}
"""A day-part alone, as a clock time (our reading; docs/import.md): 朝 7:00, 昼 12:00,
夕方 17:00, 夜 20:00, 深夜 24:00 (midnight at the end of that day)."""
_WHEN = re.compile(
    r"^\s*(?:に|には|頃|ごろ|頃に|ちょうど)?\s*(?:になると|になったら|を過ぎると|を過ぎたら|過ぎると|になれば|"
    r"以降になると|以降は|以降|の時点で|頃になると|になる|に|、|,|:|\s|$)"
)
_REL = re.compile(
    r"(?P<anchor>[^、。]{0,20}?)\s*(?P<h>\d+)\s*時間(?:\s*(?P<m>\d+)\s*分|(?P<half>半))?"
    r"(?:\([^)]{0,20}\))?\s*(?:が)?\s*(?:経過|以降|経つ|たつ|経った|たった|後|が過ぎ|過ぎ)"
)
_REL_MIN = re.compile(
    r"(?P<anchor>[^、。]{0,20}?)\s*(?P<m>\d+)\s*分(?:\([^)]{0,20}\))?\s*(?:が)?\s*(?:経過|以降|経つ|たつ|後)"
)
_START_WORDS = re.compile(r"開始|目覚め|目を覚|スタート|到着|始ま|探索を始|セッション|ゲーム")
_LIST_MARK = re.compile(r"^(?:\d{1,2}[.)、\s]|\(\d{1,2}\)|[①-⑳])\s*")
_HEADER = re.compile(r"^(?:日時|時刻|時間|日程|時間帯|タイミング|いつ)$")
_COST = re.compile(r"(?:探索|調べ|調査)[^。]{0,18}?(?P<n>\d+)\s*(?P<u>分|時間)(?P<half>半)?")


_DAY_LINE = re.compile(
    r"^[\s【\[<(■□●○◆◇▼▽▶・\-*#]*(?:(?P<d>\d+|[一二三四五六七初])\s*日目|第\s*(?P<d2>\d+)\s*日|"
    r"DAY\s*(?P<d3>\d+))\s*[】\]>)]?\s*(?:\([^)]{0,8}\))?\s*[:：]?\s*$",
    re.I,
)


def day_marker(norm: str) -> int | None:
    """「1日目（土）」「【2日目】」「DAY2」 alone on a line: the day the times under it are on."""
    m = _DAY_LINE.match(norm)
    if not m:
        return None
    d = m.group("d") or m.group("d2") or m.group("d3")
    return int(d) if d.isdigit() else _KANJI.get(d)


def parse_time(text: str, *, listed: bool = False) -> tuple[int | None, int, str, int] | None:
    """(day, minutes of that day, how it was written, characters read) for a time at the
    start of ``text``, or None. ``listed``: a line of a timeline, where a day-part alone
    (「午前　自由行動」) is a time as it stands."""
    m = _TIME.match(text)
    if not m or m.end() == 0:
        return None
    day = None
    if m.group("day"):
        d = m.group("day")
        day = int(d) if d.isdigit() else _KANJI.get(d)
    elif m.group("day2"):
        day = int(m.group("day2"))
    elif m.group("next"):
        day = 2
    part = m.group("part") or ""
    minutes = None
    if m.group("h") is not None:
        h = int(m.group("h"))
        mm = int(m.group("m") or m.group("m2") or (30 if m.group("half") else 0))
        if h > 30 or mm > 59:
            return None
        if part in ("午後", "PM", "pm", "夕方", "夕刻", "夜") and h < 12:
            h += 12
        elif part in ("深夜", "夜中") and h < 6:
            h += 24
        minutes = h * 60 + mm
    elif part:
        if day is None and not part:
            return None
        minutes = _PART_AT.get(part, _PART_AT.get(part.upper(), None))
        if part.lower() in ("am", "pm"):
            return None
    if minutes is None:
        return None
    if m.group("h") is None and day is None:
        # a day-part alone ("夜になると") counts only when the sentence says it is a time
        spaced = listed and text[: m.end()] != text[: m.end()].rstrip()
        if not spaced and not re.match(
            r"^\s*(?:になると|になったら|が来ると|を迎えると|、|:|\s)", text[m.end() :]
        ):
            return None
    return day, minutes, text[: m.end()].strip(), m.end()


def at_text(day: int | None, minutes: int) -> str:
    h, mm = divmod(minutes, 60)
    t = f"{h}:{mm:02d}"
    return f"{day}日目 {t}" if day else t


def absolute(day: int | None, minutes: int) -> int:
    return ((day or 1) - 1) * 1440 + minutes


def strip_marks(norm: str) -> str:
    s = re.sub(r"^[\s・\-*→☆★●○◆◇■□▼▽▶▷►▸‣]+", "", norm)
    return s


def table_cells(norm: str) -> list[str] | None:
    if not norm.startswith("|"):
        return None
    cells = [c.strip() for c in norm.strip().strip("|").split("|")]
    if all(re.fullmatch(r":?-{2,}:?", c) or not c for c in cells):
        return []
    return cells


def entry_at(line: Line, *, in_timeline: bool) -> TimedEntry | None:
    """A timeline entry starting on ``line``: in a timeline section any line that begins
    with a time (or a table row whose first cell is one); elsewhere only 「20時になると」."""
    cells = table_cells(line.norm)
    if cells is not None:
        if not cells or not in_timeline or _HEADER.match(cells[0]):
            return None
        t = parse_time(cells[0])
        if t is None or t[3] < len(cells[0].rstrip()) - 4:
            return None
        day, minutes, written, _n = t
        what = " ／ ".join(c for c in cells[1:] if c)
        return TimedEntry(
            at_text(day, minutes),
            _raw_what(line, what),
            line.no,
            absolute(day, minutes),
            lines=[line],
        )
    s = _LIST_MARK.sub("", strip_marks(line.norm)) if in_timeline else strip_marks(line.norm)
    t = parse_time(s, listed=in_timeline)
    if t is not None:
        day, minutes, written, n = t
        rest = s[n:]
        if in_timeline:
            if not re.match(
                r"^\s*(?:[:：、,\s)]|に|には|頃|ごろ|になると|になったら|を過ぎ|過ぎ|以降|$)", rest
            ) and not re.match(r"^[^\d]", rest):
                return None
        elif (
            not _WHEN.match(rest)
            or rest.startswith(("まで", "までに"))
            or not re.match(
                r"^\s*(?:頃|ごろ)?\s*(?:になると|になったら|を過ぎると|を過ぎたら|過ぎると|になれば|以降になると|頃になると|の時点で)",
                rest,
            )
        ):
            return None
        what = re.sub(
            r"^\s*(?:頃|ごろ)?\s*(?:になると|になったら|を過ぎると|を過ぎたら|過ぎると|になれば|"
            r"以降になると|頃になると|の時点で|には|に)?\s*(?:[:：、,)]|\s)*",
            "",
            rest,
        ).strip()
        e = TimedEntry(
            at_text(day, minutes),
            _raw_what(line, what),
            line.no,
            absolute(day, minutes),
            lines=[line],
        )
        e.goto_climax = bool(re.search(r"クライマックス(?:へ|に|が始|開始|となる)", what))
        return e
    return relative_entry(line, listed=in_timeline)


def relative_entry(line: Line, *, listed: bool = False) -> TimedEntry | None:
    """「電気をつけて1時間以降になると」「目覚めてから10時間経過すると」: in a timeline
    section, or on a numbered line."""
    s = strip_marks(line.norm)
    if not listed and not _LIST_MARK.match(s):
        return None
    s = _LIST_MARK.sub("", s)
    m = _REL.match(s) or _REL_MIN.match(s)
    if not m or not re.search(
        r"すると|になると|したら|し、|と、|ると|経過し|以降",
        s[m.end() : m.end() + 12] + s[m.end() - 4 : m.end()],
    ):
        return None
    gd = m.groupdict()
    minutes = int(gd.get("h") or 0) * 60 + int(gd.get("m") or 0) + (30 if gd.get("half") else 0)
    anchor = (gd.get("anchor") or "").strip(" 、")
    after = "" if not anchor or _START_WORDS.search(anchor) else anchor
    what = s[m.end() :]
    what = re.sub(r"^[^、。]{0,12}?(?:すると|になると|したら|し、|と、|ると)", "", what).strip(
        " 、"
    )
    sign = f"+{minutes // 60}:{minutes % 60:02d}"
    e = TimedEntry(
        sign if not after else f"{after}{sign}",
        _raw_what(line, what or s),
        line.no,
        None,
        after=after,
        offset=minutes,
        lines=[line],
    )
    e.goto_climax = bool(re.search(r"クライマックス(?:へ|に|が始|開始|となる)", s))
    return e


_PROSE = re.compile(
    r"(?:^|[、。])\s*(?P<anchor>[^、。]{0,16}?)(?P<h>\d+)(?:\s*[~\-]\s*(?P<h2>\d+))?\s*時間(?P<half>半)?"
    r"\s*(?:が|ほど|くらい|ぐらい)?\s*経過(?:した(?:時|とき|頃|ころ)(?:に|には)?|すると|したら)\s*[、,]?\s*"
    r"(?P<what>[^。]{4,})"
)


def prose_entry(line: Line) -> TimedEntry | None:
    """An event a keeper's prose ties to the time played (「6～7時間が経過した時に、探索者たちは
    お腹が空いたことに気付くと良いでしょう」). A range counts from its start. Not the time a
    search costs (「1か所を調べるのに1時間」), not 「…した場合」 (a rule)."""
    s = line.norm
    m = _PROSE.search(s)
    if not m or re.search(
        r"[1一]\s*(?:か所|ヶ所|箇所|カ所|回|部屋|冊)|につき|ごと|毎|のに\s*$|には\s*$",
        s[: m.start("h")],
    ):
        return None
    anchor = m.group("anchor").strip()
    after = (
        anchor
        if re.search(r"(?:て|てから|後|以降)$", anchor) and not _START_WORDS.search(anchor)
        else ""
    )
    minutes = int(m.group("h")) * 60 + (30 if m.group("half") else 0)
    sign = f"+{minutes // 60}:{minutes % 60:02d}"
    return TimedEntry(
        sign if not after else f"{after}{sign}",
        _raw_what(line, m.group("what").strip()),
        line.no,
        None,
        after=after,
        offset=minutes,
        lines=[line],
    )


def starts_list(norm: str) -> bool:
    return bool(_LIST_MARK.match(strip_marks(norm))) or bool(re.match(r"^[\s]*[・\-*●○◆◇■□]", norm))


def search_cost(lines: list[Line]) -> tuple[int, int] | None:
    """(minutes, line) of 「探索1回につき30分」, 「1か所を調べるのに1時間」."""
    for ln in lines:
        m = _COST.search(ln.norm)
        if not m:
            continue
        if not re.search(
            r"につき|ごと|毎|のに|に\d|1回|一回|1か所|1ヶ所|1箇所|一か所|か所|回",
            ln.norm[: m.end()],
        ):
            continue
        n = int(m.group("n")) * (60 if m.group("u") == "時間" else 1) + (
            30 if m.group("half") else 0
        )
        if 5 <= n <= 240:
            return n, ln.no
    return None


def _raw_what(line: Line, what: str) -> str:
    if len(line.raw) == len(line.norm):
        i = line.norm.find(what)
        if i >= 0:
            return line.raw[i : i + len(what)].strip(" |｜")
    return what.strip(" |")
