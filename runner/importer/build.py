"""Runs the recognisers over the sections and gathers a :class:`Scenario`."""

from __future__ import annotations

import re

from runner.importer import checks as ck
from runner.importer import creatures as cr
from runner.importer import meta, sanity
from runner.importer import timeline as tl
from runner.importer.model import (
    Check,
    Creature,
    Document,
    Ending,
    Handout,
    ImportFailure,
    Line,
    Outcome,
    Place,
    SanRoll,
    Scenario,
    TimedEntry,
    Unplaced,
)
from runner.importer.read import normalise
from runner.importer.score import same_name
from runner.importer.sections import Section, assign_roles, build_tree, heading

_KEEPER = re.compile(
    r"^[\s・\-*]*(?:※|KP|ＫＰ|キーパー|GM|\(KP|（KP|【KP|☆|★|▽|注意|補足|備考)", re.I
)
_DESCRIBE = re.compile(r"^(?:描写|描写文|読み上げ|地の文|情景)")
_KP = re.compile(r"^(?:KP|ＫＰ|キーパー|GM)(?:情報|向け|のみ|用)?|^(?:補足|備考|メモ)", re.I)
_DESCRIBE_LINE = re.compile(r"^[\s・\-*]*(?:描写|読み上げ)\s*[:：]")
_ALT_START = re.compile(r"^\s*[、,]?\s*(?:または|もしくは|あるいは|or|OR)\s*[〈《【〔\[「『<]")
_BULLET = re.compile(r"^[\s]*[・\-*→☆★①-⑳]|^\d+[.)]\s")


def build(doc: Document) -> Scenario:
    root = build_tree(doc.lines)
    assign_roles(root)
    sc = Scenario(doc.path, doc.format, doc.encoding)
    first_heading = next(
        (s.title for s in root.walk() if s.line is not None and s.role == "title"), ""
    )
    sc.title = meta.title(doc.lines, doc.html_title, first_heading)
    sc.edition = meta.edition(doc.lines)
    sc.players = meta.players(doc.lines)
    sc.time = meta.play_time(doc.lines)
    sc.recommended = meta.recommended(doc.lines)
    b = _Builder(sc)
    b.preamble(root.body)
    for sec in root.children:
        b.section(sec)
    b.finish()
    headless_endings(sc, doc.lines)
    speakers(sc, doc.lines)
    # A scenario shows at least two of: checks, sanity rolls, a stat block, a timeline,
    # endings (or several checks). Headings alone make any document look like places.
    signals = [
        bool(sc.all_checks()),
        bool(sc.all_san()),
        any(c.stats for c in sc.creatures),
        bool(sc.timeline),
        bool(sc.endings),
    ]
    if sum(signals) < 2 and len(sc.all_checks()) < 3:
        raise ImportFailure("not_scenario", path=doc.path)
    return sc


class _Builder:
    def __init__(self, sc: Scenario) -> None:
        self.sc = sc
        self.people = Place("登場人物", 0, role="people")
        self.notes: list[Line] = []
        self.rewards: list[Line] = []
        self.loose_handouts: list[tuple] = []
        self.lead: list[Line] = []
        self.consumed: set[int] = set()

    def _take_lead(self) -> list[Line]:
        out, self.lead = self.lead, []
        return out

    # ------------------------------------------------------------------ sections
    def preamble(self, lines: list[Line]) -> None:
        self._search_cost(lines)
        self.sc.background += [ln for ln in lines if not heading(ln)]
        self._stray(lines, "the document's opening")

    def section(self, sec: Section, parent: Section | None = None) -> None:
        role = sec.role
        lines = sec.all_lines()
        if role == "title":
            self.preamble(sec.body)
            for c in sec.children:
                self.section(c, sec)
        elif role in ("meta", "background", "notes"):
            self._search_cost(lines)
            own = [sec.line, *sec.body] if sec.line else list(sec.body)
            self._loose_creatures(own)
            self._timed(own, keep=self.sc.background)
            self._stray(own, f"section 「{sec.title}」")
            for c in sec.children:
                self.section(c, sec)
        elif role == "lead":
            self.lead += [ln for ln in lines if not heading(ln)]
        elif role in ("intro", "place", "climax"):
            own = sec.own_lines()
            self.sc.places.append(
                self.place(
                    sec.title, sec.line, self._take_lead() + (own[1:] if sec.line else own), role
                )
            )
            # sub-sections that stand on their own: places of a document with few headings,
            # an ending or a timeline written inside a place
            for c in sec.standalone():
                self.section(c, sec)
        elif role == "places":
            self._search_cost(lines)
            self._timed(sec.body, keep=self.notes)
            for c in sec.children:
                self.section(c, sec)
        elif role == "handout":
            self.handout(sec, parent)
        elif role == "timeline":
            self.timeline(sec)
        elif role in ("npcs", "monsters", "creatures"):
            kind = {"npcs": "npc", "monsters": "monster", "creatures": "creature"}[role]
            if sec.children:
                entries = cr.entries(sec.body, need_stats=kind != "npc")
                for head, body in entries or [(None, sec.body)]:
                    if head is None:
                        self.people_notes(body)
                    else:
                        self.creature(Section(cr.entry_name(head.raw), head, body=body), kind)
                for c in sec.children:
                    if c.role in ("npcs", "monsters", "creatures"):
                        self.section(c, sec)
                    else:
                        self.creature(c, kind)
                return
            entries = cr.entries(sec.body, need_stats=kind != "npc")
            if entries:
                # a flat list: 「瀬川 宗一郎（72）／店主」 then its lines, a name above a stat line,
                # a table of names
                for head, body in entries:
                    if head is None:
                        self.people_notes(body)
                        continue
                    self.creature(Section(cr.entry_name(head.raw), head, body=body), kind)
            elif any(cr._STAT.search(ln.norm) for ln in sec.body):
                self.creature(sec, kind)
            else:
                self.people_notes(sec.body)
        elif role in ("npc", "monster", "creature"):
            self.creature(sec, role)
        elif role == "endings":
            kids = [c for c in sec.children if c.role == "ending"]
            if kids:
                self.notes += sec.body
                for c in sec.children:
                    if c.role == "ending":
                        self.ending(c)
                    else:
                        self.section(c, sec)
            elif any(not heading(ln) for ln in sec.body):
                self.ending(sec)
        elif role == "ending":
            self.ending(sec)
        elif role == "reward":
            self.rewards += lines
        elif role == "after":
            pass
        else:
            self.sc.places.append(
                self.place(sec.title, sec.line, lines[1:] if sec.line else lines, "place")
            )

    # ------------------------------------------------------------------ places
    def place(self, name: str, head: Line | None, lines: list[Line], role: str) -> Place:
        p = Place(name, head.no if head else (lines[0].no if lines else 0), role=role)
        self.fill(p, lines)
        return p

    def fill(self, p: Place, lines: list[Line], feature: str = "") -> None:
        last: Check | None = None
        last_at = -99
        started = False
        entry: TimedEntry | None = None
        mode = ""
        for idx, ln in enumerate(lines):
            h = heading(ln)
            if h is not None:
                feature = h[1]
                entry = None
                # 【描写】 (read aloud) and 【KP情報】 (the keeper's) say whose the lines below are
                mode = (
                    "narration"
                    if _DESCRIBE.search(feature)
                    else "keeper"
                    if _KP.search(feature)
                    else ""
                )
                continue
            inline = _DESCRIBE_LINE.match(ln.norm)
            e = tl.entry_at(ln, in_timeline=False) or tl.prose_entry(ln)
            if e is not None:
                self.sc.timeline.append(e)
                entry = e
                self._read_into(e, [ln])
                continue
            if entry is not None and (
                ln.indent or entry.minutes is None and not tl.starts_list(ln.norm)
            ):
                # an entry's own lines: indented ones, or (for a numbered 「電気をつけて1時間…」)
                # everything up to the next numbered line
                entry.lines.append(ln)
                self._read_into(entry, [ln], more=True)
                continue
            entry = None
            used = False
            sans = sanity.find(ln)
            out = ck.outcome_line(ln)
            if out and last is not None and idx - last_at <= 6:
                key, text = out
                if last.opposed and key in ("success", "failure"):
                    key = {"success": "win", "failure": "lose"}[key]
                o = Outcome(key, text, ln.no)
                if sans:
                    o.san = sans[0]
                last.outcomes.append(o)
                used = True
            found, _ms = ck.read_line(ln)
            if (
                found
                and last is not None
                and last_at == idx - 1
                and _ALT_START.match(ln.norm)
                and not lines[idx - 1].raw.rstrip().endswith(("。", "」"))
                and found[0].difficulty == last.difficulty
            ):
                # 「…〈芸術／製作（日本画）〉」 / 「または〈鑑定〉に成功すると」: a line broken inside one
                # roll's alternatives
                for s, w in zip(found[0].skills, found[0].written or found[0].skills, strict=False):
                    if s not in last.skills:
                        last.skills.append(s)
                        last.written.append(w)
                last.outcomes += found[0].outcomes
                found = found[1:]
                used = True
            for c in found:
                if len(c.context) < 3 and feature:
                    c.context = feature
                p.checks.append(c)
                last, last_at = c, idx
                used = True
            for sr in sans:
                if out and used and any(o.san is sr for o in (last.outcomes if last else [])):
                    p.san.append(sr)
                    continue
                owner = _owning_outcome(ln, sr, found)
                if owner is not None and owner.san is None:
                    owner.san = sr
                if not sr.context and feature:
                    sr.context = feature
                p.san.append(sr)
                used = True
            if not used and not found and sanity.is_loss_line(ln.norm):
                self.sc.unplaced.append(
                    Unplaced(ln.no, ln.raw, "a sanity roll whose losses could not be read")
                )
            if re.search(r"戦闘", ln.norm):
                p.fights.append(ln.norm)
            if used:
                started = True
                p.keeper.append(ln)
            elif (
                inline
                or mode == "narration"
                and not _BULLET.match(ln.norm)
                and not _KEEPER.match(ln.norm)
            ):
                p.narration.append(ln)
            elif mode == "keeper":
                p.keeper.append(ln)
            elif (
                not started
                and not _KEEPER.match(ln.norm)
                and not _BULLET.match(ln.norm)
                and "KP" not in ln.norm
                and not tl.table_cells(ln.norm)
            ):
                p.narration.append(ln)
            else:
                p.keeper.append(ln)
        # outcome texts stay with their checks; they need not be keeper notes too
        out_lines = {o.line for c in p.checks for o in c.outcomes if o.line != c.line}
        p.keeper = [k for k in p.keeper if k.no not in out_lines]

    def _read_into(self, e: TimedEntry, lines: list[Line], more: bool = False) -> None:
        last = e.checks[-1] if e.checks else None
        for ln in lines:
            out = ck.outcome_line(ln) if more else None
            if out and last is not None:
                last.outcomes.append(Outcome(out[0], out[1], ln.no))
            found, _ms = ck.read_line(ln)
            e.checks += found
            if found:
                last = found[-1]
            for s in sanity.find(ln):
                owner = _owning_outcome(ln, s, found)
                if owner is not None and owner.san is None:
                    owner.san = s
                s.everyone = True
                e.san.append(s)

    def timeline(self, sec: Section) -> None:
        lines = sec.all_lines()[1:] if sec.line else sec.all_lines()
        self._search_cost(lines)
        cur: TimedEntry | None = None
        day: int | None = (
            None  # 「1日目（土）」 on a line of its own: the day of the times below it
        )
        last = -1
        for ln in lines:
            d = tl.day_marker(ln.norm)
            if d is not None:
                day, last, cur = d, -1, None
                continue
            if heading(ln):
                cur = None
                continue
            e = tl.entry_at(ln, in_timeline=True)
            if e is not None:
                if day is not None and e.minutes is not None and "日目" not in e.at:
                    m = e.minutes % 1440
                    if last >= 0 and m < last - 120:
                        m += 1440  # 「23:00 …」 then 「1:00 …」: past midnight, still under that day's heading
                    last = m
                    e.minutes = (day - 1) * 1440 + m
                    e.at = tl.at_text(day, m % 1440) if m < 1440 else tl.at_text(day + 1, m - 1440)
                self.sc.timeline.append(e)
                self._read_into(e, [ln])
                cur = e
            elif cur is not None and not tl.table_cells(ln.norm):
                cur.lines.append(ln)
                self._read_into(cur, [ln], more=True)
            else:
                self.notes.append(ln)
                found, _ = ck.read_line(ln)
                for c in found:
                    self.sc.unplaced.append(
                        Unplaced(c.line, ln.raw, "a check in the timeline that belongs to no time")
                    )

    def _timed(self, lines: list[Line], keep: list[Line]) -> None:
        """Notes sections: keep the lines; a numbered relative-time line is still an event
        (with the lines after it, up to the next numbered line)."""
        cur = None
        for ln in lines:
            if heading(ln):
                cur = None
                continue
            e = tl.relative_entry(ln)
            if e is not None:
                self.sc.timeline.append(e)
                self._read_into(e, [ln])
                cur = e
            elif (p := tl.prose_entry(ln)) is not None:
                # 「…6～7時間が経過した時に、探索者たちはお腹が空いたことに気付く」: an event told in prose
                self.sc.timeline.append(p)
                cur = None
            elif cur is not None and not tl.starts_list(ln.norm):
                cur.lines.append(ln)
                self._read_into(cur, [ln], more=True)
                continue
            else:
                cur = None
            keep.append(ln)

    def handout(self, sec: Section, parent: Section | None) -> None:
        lines = sec.all_lines()
        h = Handout(sec.title, sec.line.no if sec.line else 0, lines[1:])
        self.sc.handouts.append(h)
        target = None
        if parent is not None:
            sibs = parent.children
            i = sibs.index(sec)
            if i > 0 and sibs[i - 1].role == "place" and self.sc.places:
                target = self.sc.places[-1]
        if target is None:
            # a handout on its own: it goes where the document refers to it (（HO1）), if anywhere
            token = _handout_token(sec.title)
            self.loose_handouts.append((h, token, lines))
        else:
            target.handouts.append(h.name)
            self.fill(target, lines, feature=sec.title)

    # --------------------------------------------------------------- creatures
    def creature(self, sec: Section, kind: str) -> None:
        lines = sec.all_lines()[1:] if sec.line else sec.all_lines()
        c = cr.read_creature(
            sec.title, sec.line.no if sec.line else 0, lines, kind, self.sc.edition
        )
        if kind == "creature":
            # a stat block with attacks in the climax is who the climax is fought with
            in_climax = sec.parent is not None and sec.parent.role == "climax" and bool(c.attacks)
            c.kind = "monster" if cr.looks_monster(c) or in_climax else "npc"
        elif kind == "npc" and c.san:
            c.kind = "monster"  # under 登場人物, but seeing it costs SAN: 「住職の亡霊」 is fought, not met
        self.sc.creatures.append(c)
        # rolls written in a character's description (not its stat lines, not the keeper's
        # chat palette for it: 「CC<=45 【歯車の腕】」)
        prose = [
            ln
            for ln in c.notes
            if not cr._STAT.search(ln.norm)
            and not ck.is_data_line(ln.norm)
            and not (
                sanity.find(ln) and re.match(r"^[\s・\-*]*(?:【)?(?:SAN|正気度|遭遇)", ln.norm)
            )
            and not cr.palette_line(ln.norm)
        ]
        before = len(self.people.checks) + len(self.people.san)
        self.fill(self.people, [sec.line] + prose if sec.line else prose)
        if len(self.people.checks) + len(self.people.san) > before and not self.people.line:
            self.people.line = sec.line.no if sec.line else 0

    def _loose_creatures(self, lines: list[Line]) -> None:
        """A stat block outside any NPC or creature section (「以下のステータスは、触腕のみの数値。」)."""
        i = 0
        while i < len(lines):
            ln = lines[i]
            if len(cr._STAT.findall(ln.norm)) >= 3 and not heading(ln):
                block = [ln]
                j = i + 1
                while (
                    j < len(lines)
                    and j < i + 8
                    and (
                        cr._STAT.search(lines[j].norm)
                        or cr._HP.search(lines[j].norm)
                        or re.search(
                            r"ビルド|正気度喪失|攻撃|ダメージ|装甲|移動|回避|%", lines[j].norm
                        )
                    )
                ):
                    block.append(lines[j])
                    j += 1
                name = ""
                for k in range(i - 1, max(-1, i - 4), -1):
                    found = re.findall(
                        r"([^\s、。「」()（）:の]{1,12})(?:のみ)?の(?:数値|ステータス|能力値|データ)",
                        lines[k].norm,
                    ) or re.findall(r"「([^」]{1,16})」", lines[k].norm)
                    if found:
                        name = found[-1]
                        break
                self.consumed.update(b.no for b in block)
                c = cr.read_creature(
                    name or "名前のない相手", ln.no, block, "creature", self.sc.edition
                )
                c.kind = "monster" if cr.looks_monster(c) else "npc"
                if not any(x.stats == c.stats for x in self.sc.creatures):
                    self.sc.creatures.append(c)
                i = j
                continue
            i += 1

    def people_notes(self, lines: list[Line]) -> None:
        self.people.keeper += lines

    # ----------------------------------------------------------------- endings
    def ending(self, sec: Section) -> None:
        lines = sec.all_lines()[1:] if sec.line else sec.all_lines()
        e = Ending(sec.title, ending_kind(sec.title, lines), sec.line.no if sec.line else 0)
        for ln in lines:
            if heading(ln):
                continue
            if re.search(r"報酬|SAN回復|正気度回復|正気度.{0,4}回復", ln.norm):
                e.rewards.append(ln)
            elif re.search(r"場合|条件|なら(?:ば)?、|とき、", ln.norm) and len(e.narration) == 0:
                m = re.search(r"場合[。、]", ln.raw)
                if m and ln.raw[m.end() :].strip():
                    # 「…した場合。朝、凪は浜辺で…」: the condition, then the ending's own words
                    e.conditions.append(
                        Line(
                            ln.no,
                            ln.raw[: m.end()].strip(),
                            normalise(ln.raw[: m.end()]),
                            ln.indent,
                        )
                    )
                    rest = ln.raw[m.end() :].strip()
                    e.narration.append(Line(ln.no, rest, normalise(rest), ln.indent))
                else:
                    e.conditions.append(ln)
            else:
                e.narration.append(ln)
        self.sc.endings.append(e)

    # ------------------------------------------------------------------- misc
    def _search_cost(self, lines: list[Line]) -> None:
        if self.sc.search_cost is None:
            found = tl.search_cost(lines)
            if found:
                self.sc.search_cost = found[0]

    def _stray(self, lines: list[Line], where: str) -> None:
        timed = {ln.no for e in self.sc.timeline for ln in e.lines}
        for ln in lines:
            if heading(ln) or ln.no in self.consumed or ln.no in timed:
                continue
            found, _ = ck.read_line(ln)
            for c in found:
                self.sc.unplaced.append(
                    Unplaced(
                        c.line,
                        ln.raw,
                        f"a check ({'・'.join(c.skills)}) in {where}, not in a place",
                    )
                )
            for s in sanity.find(ln):
                self.sc.unplaced.append(
                    Unplaced(s.line, ln.raw, f"a sanity roll ({s.loss}) in {where}, not in a place")
                )

    def finish(self) -> None:
        sc = self.sc
        for h, token, lines in self.loose_handouts:
            home = None
            if token:
                for p in sc.places:
                    text = " ".join(ln.norm for ln in p.narration + p.keeper)
                    text += " ".join(
                        normalise(c.text) + " ".join(normalise(o.text) for o in c.outcomes)
                        for c in p.checks
                    )
                    if token in text:
                        home = p
                        break
            if home is None:
                sc.places.append(
                    self.place(h.name, lines[0] if lines else None, lines[1:], "handout")
                )
                sc.places[-1].handouts.append(h.name)
            else:
                home.handouts.append(h.name)
                before = len(home.checks) + len(home.san)
                extra = Place(home.name, home.line)
                self.fill(extra, lines[1:])
                home.checks += extra.checks
                home.san += extra.san
                home.keeper += extra.narration + extra.keeper
                del before
        if self.people.checks or self.people.san:
            sc.places.append(self.people)
        if self.notes:
            sc.background += self.notes
        if self.rewards and sc.endings:
            for end in sc.endings:
                end.rewards += [r for r in self.rewards if r not in end.rewards]
        # times: absolute minutes across midnight, in document order
        prev = None
        for e in sc.timeline:
            if e.minutes is None:
                continue
            day_given = "日目" in e.at
            if not day_given and prev is not None:
                while e.minutes + 1440 <= prev + 12 * 60 and e.minutes < prev - 120:
                    e.minutes += 1440
            prev = e.minutes
        for e in sc.timeline:
            if e.minutes is None and e.after:
                sc.unplaced.append(
                    Unplaced(
                        e.line,
                        e.lines[0].raw if e.lines else e.what,
                        f"a timed event counted from 「{e.after}」, not from the start: "
                        "a keeper note, not a clock event",
                    )
                )
        timed = [e.minutes for e in sc.timeline if e.minutes is not None]
        if timed:
            start = min(timed)
            begin = next(
                (
                    e
                    for e in sc.timeline
                    if e.minutes is not None
                    and re.search(r"開始|スタート|到着|始まる|始め", e.what)
                ),
                None,
            )
            intro = next((p for p in sc.places if p.role == "intro"), None)
            if begin is not None and begin.minutes is not None:
                start = begin.minutes  # 「18:00 探索開始」: the clock starts there
            elif intro is not None:
                for ln in intro.narration + intro.keeper:
                    t = tl.parse_time(tl.strip_marks(ln.norm))
                    if t and t[1] is not None:
                        m = t[1] % 1440 + ((t[0] or 1) - 1) * 1440
                        if m <= start:
                            start = m
                        elif m - 1440 <= start and m - 1440 >= start - 12 * 60:
                            start = m - 1440
                        break
            sc.clock_start = start
        # creature names that fights are written with
        names = {c.name: c for c in sc.creatures if c.kind == "monster"}
        for p in sc.places:
            hits = []
            for text in p.fights:
                for n in names:
                    if n and normalise(n) in text and n not in hits:
                        hits.append(n)
            p.fights = hits


# ------------------------------------------------------------- headless endings

_CLOSING = re.compile(
    r"元(?:の|居た|いた)(?:場所|世界|日常|時代|部屋)(?:へ|に)(?:と)?(?:戻|帰|送り返)|元の世界へ帰|"
    r"(?:無事に?)?(?:帰還|生還)(?:した|できた|を果たし)|別のお話|別の物語|藻屑と|命を落と|息絶え|"
    r"帰らぬ人|二度と(?:戻|帰)(?:れ|ら)な|亡骸(?:が|を|だけ|と)|死亡した|死んでしまった|息を引き取"
)
_RULE_WORDS = re.compile(
    r"場合|判定|ロール|ダメージ|ターン|消費|MP|[0-9]+\s*(?:時間|分)|キーパー|KP|ことができ|ことはでき|"
    r"できません|必要"
)
_DEATH = re.compile(r"亡骸|無惨|死亡|死んで|死後|藻屑|命を落と|息絶え|帰らぬ人")
_BOUNDARY = re.compile(r"^[\s]*[→⇒・※☆★\-*①-⑳(（\[【＜<]|場合")
_NAMED_KIND = re.compile(
    r"(TRUE|トゥルー|GOOD|グッド|NORMAL|ノーマル|BAD|バッド|ロスト|LOST)\s*(?:エンド|END)?\s*"
    r"(?:に(?:して|なり|な)|と(?:して|する|なる)|扱い)",
    re.I,
)


def headless_endings(sc: Scenario, lines: list[Line]) -> None:
    """Endings whose headings were lost (a page whose headings were images, text copied out of
    a PDF): in the second half of a document that shows fewer than two endings, a run of
    story lines that closes the story (「…元居た場所へと戻れます。」「…それはまた別のお話。」
    「…海の藻屑となってしました。」) is an ending. The run starts after the last line of
    keeper's matter before it (a check, a sanity roll, a → / ※ / ・ line, a condition); its
    kind is the one the lines after it name (「グッドエンドにしてあります」), else lost for a
    death, else normal."""
    if len(sc.endings) >= 2 or not lines:
        return
    half = lines[len(lines) // 2].no
    rolls = {c.line for c in sc.all_checks()} | {s.line for s in sc.all_san()}
    heads = {e.line for e in sc.endings}
    timed = {ln.no for e in sc.timeline for ln in e.lines}
    taken: set[int] = {c.line for c in sc.creatures} | {n.no for c in sc.creatures for n in c.notes}
    runs: list[list[Line]] = []
    cur: list[Line] = []
    for ln in lines:
        if ln.no < half or ln.no in timed or ln.no in taken:
            cur = []
            continue
        if ln.no in heads or heading(ln) is not None:
            cur = []
            continue
        if (
            ln.no in rolls
            or _BOUNDARY.match(ln.norm)
            or not ln.norm.rstrip("」』)）").endswith("。")
            or _RULE_WORDS.search(ln.norm)
        ):
            cur = []  # the keeper's matter: a roll, a note, a rule
            continue
        cur.append(ln)
        if _CLOSING.search(ln.norm):
            runs.append(cur)
            cur = []
    if not runs:
        return
    found: list[Ending] = []
    for i, run in enumerate(runs):
        start = run[0].no
        owner = max((e for e in sc.endings if e.line < start), key=lambda e: e.line, default=None)
        if (
            owner is not None
            and not any(owner.line < r[0].no < start for r in runs[:i])
            and not any(owner.line < f.line for f in found)
        ):
            continue  # the closing of an ending whose heading survived (番外エンド ＜バッドエンド…＞)
        nxt = runs[i + 1][0].no if i + 1 < len(runs) else 10**9
        after = [ln for ln in lines if run[-1].no < ln.no < min(nxt, run[-1].no + 8)]
        kind = ""
        for ln in after + run:
            m = _NAMED_KIND.search(ln.norm)
            if m:
                kind = ending_kind(m.group(1), [])
                break
        if not kind:
            kind = "lost" if any(_DEATH.search(ln.norm) for ln in run) else "normal"
        name = re.split(r"[、。]", run[0].raw)[0][:20]
        # its condition is the keeper's line just before it (「※…場合にも発生。」); the lines
        # after the last one, to the end, are its notes (「…グッドエンドにしてあります」)
        before = [
            ln
            for ln in lines
            if start - 3 <= ln.no < start
            and re.match(r"^[\s]*(?:※|\(|条件|発生条件)", ln.norm)
            and re.search(r"場合|条件", ln.norm)
            and ln.no not in heads
            and heading(ln) is None
        ]
        tail = (
            [ln for ln in after if ln.no not in heads and heading(ln) is None]
            if i == len(runs) - 1
            else []
        )
        found.append(Ending(name, kind, start, narration=list(run), conditions=before + tail))
    if not found:
        return
    used = {ln.no for e in found for ln in e.narration + e.conditions}
    for p in sc.places:
        p.narration = [ln for ln in p.narration if ln.no not in used]
        p.keeper = [ln for ln in p.keeper if ln.no not in used]
    for e in sc.endings:
        e.narration = [ln for ln in e.narration if ln.no not in used]
    sc.endings = sorted(sc.endings + found, key=lambda e: e.line)


_SPEAKER = re.compile(
    r"(?:^|[、。」])\s*(?P<who>[^、。「」\s]{2,12}?)(?:は|が)[^。「」]{0,30}?「[^」]{2,}」\s*と\s*"
    r"(?:言|話|答|謝|呟|つぶや|叫|告げ|笑|尋ね|囁|ささや)"
)
_NOT_SPEAKER = re.compile(
    r"探索者|PC|KP|キーパー|プレイヤー|PL|あなた|自分|彼女?$|誰か|全員|一同|皆|みんな|HO\d"
)


def speakers(sc: Scenario, lines: list[Line]) -> None:
    """A document with no list of characters still has people who speak: 「ローブの人物は…
    「少し意識が遠くなるかもしれないけれど」と言ってから」. Each who speaks and is named
    again elsewhere is an NPC (no stats)."""
    if sc.npcs:
        return
    text = "\n".join(ln.norm for ln in lines)
    seen: dict[str, int] = {}
    for ln in lines:
        for m in _SPEAKER.finditer(ln.norm):
            who = re.sub(r"^(?:その|この|あの)", "", m.group("who"))
            if (
                _NOT_SPEAKER.search(who)
                or heading(ln) is not None
                or any(same_name(c.name, who) for c in sc.creatures)
            ):
                continue
            seen.setdefault(who, ln.no)
    for who, no in seen.items():
        if text.count(who) >= 2:
            sc.creatures.append(Creature(who, no, "npc"))


def _handout_token(title: str) -> str:
    """「HO1　看護師長の業務日誌」 → "HO1"; 「ハンドアウト①：…」 → "ハンドアウト1"."""
    t = normalise(title)
    m = re.match(r"^(HO\s*\d+|ハンドアウト\s*\d*|資料\s*\d*)", t, re.I)
    return re.sub(r"\s+", "", m.group(1)) if m else ""


def _owning_outcome(ln: Line, s: SanRoll, found: list[Check]) -> Outcome | None:
    """The outcome on this line whose text holds the sanity roll (成功すると…SANチェック)."""
    for c in found:
        for o in c.outcomes:
            if (
                o.line == ln.no
                and s.text
                and normalise(o.text)
                and s.success in normalise(o.text)
                and re.search(r"SAN|正気度", normalise(o.text))
            ):
                return o
    return None


_KINDS = [
    ("true", re.compile(r"TRUE|トゥルー|真エンド|真END|ベスト|BEST|ハッピーエンド", re.I)),
    ("lost", re.compile(r"LOST|ロスト|DEAD|デッド|死亡|全滅", re.I)),
    ("bad", re.compile(r"BAD|バッド", re.I)),
    ("good", re.compile(r"GOOD|グッド|HAPPY", re.I)),
    ("normal", re.compile(r"NORMAL|ノーマル", re.I)),
    ("good", re.compile(r"生還|帰還|脱出成功")),
]


def ending_kind(title: str, lines: list[Line]) -> str:
    """true, good, normal, bad or lost: from the heading first, then the first lines."""
    t = normalise(title)
    for kind, rx in _KINDS:
        if rx.search(t):
            return kind
    body = " ".join(ln.norm for ln in lines[:4])
    for kind, rx in _KINDS[:5]:
        if rx.search(body):
            return kind
    # the verdict on a line of its own: 「→生還。正気度回復１Ｄ８」
    if any(_VERDICT.match(ln.norm) for ln in lines[:6]):
        return "good"
    return "normal"


_VERDICT = re.compile(r"^[\s・\-*→⇒]*(?:生還|帰還|脱出成功|生存)(?:[。、,(（!！]|\s|$)")
