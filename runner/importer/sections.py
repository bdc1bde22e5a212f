"""Headings into a tree of sections, and what each section is for.

Keepers mark headings with whatever is at hand: ``■ ◆ ● ◇ ○`` and friends, ``【見出し】``,
Markdown ``#``, numbers (``3.`` ``3-1.``), ``<見出し>``. A marker's rank is the order in
which the document first uses it under its parent (the way a reader sees it): a marker
already open on the path is a sibling, a new one a child. Markdown levels and numbering
depth compare among themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from runner.importer.model import Line
from runner.importer.skills import is_known

SYMBOLS = "■□◆◇●○〇▼▽★◎◉▲△♦◈▶▷►◢◤"
_MD = re.compile(r"^(#{1,6})\s*([^#].*?)\s*#*$")
_SYM = re.compile(rf"^([{SYMBOLS}])[ \u3000]*(.+)$")
_NUM = re.compile(r"^(\d{1,2})(?:[-.](\d{1,2}))?(?:[-.](\d{1,2}))?(?:[.:)]|\s)\s*(\S.*)$")
_BRACKET = re.compile(r"^【([^】]{1,40})】(.{0,30})$")
_FIELD = re.compile(
    r"^(?:能力値|ステータス|技能|攻撃|攻撃方法|武器|装甲|呪文|特殊能力|耐久力|HP|MP|DB|ダメージ・?ボーナス|"
    r"ビルド|移動|MOV|回避|SAN|SANc|正気度|正気度喪失|年齢|職業|性別|所持品|備考|性格|概要|外見)$",
    re.I,
)
_RULED = re.compile(r"^[-=―─━＝~～*＊_]{2,}\s*([^-=―─━＝~～*＊_]{1,24}?)\s*[-=―─━＝~～*＊_]{2,}$")
_CHAPTER = re.compile(
    r"^第\s*([0-9一二三四五六七八九十]{1,3})\s*([章節部幕話])\s*[:：.、]?\s*(\S.*)?$"
)
_PAREN_NUM = re.compile(r"^\((\d{1,2})\)\s*(\S.*)$")
_NOT_EMOJI = set("☆★✓✔✕✖✗✘❌※")


def emoji_mark(s: str) -> int:
    """How many characters of pictograph (📖, ☀, ⏰, with any variation selector) open ``s``:
    keepers posting on ふせったー, Discord or Notion mark headings with them."""
    i = 0
    while i < len(s):
        o = ord(s[i])
        if s[i] in _NOT_EMOJI:
            break
        if o >= 0x1F000 or 0x2300 <= o <= 0x23FF or 0x2600 <= o <= 0x27BF or 0x2B00 <= o <= 0x2BFF:
            i += 1
        elif i and o in (0xFE0F, 0x200D):
            i += 1
        else:
            break
    return i


_ANGLE = re.compile(r"^[<\[]([^>\]]{1,30})[>\]]$")
_RULE = re.compile(r"^[=\-─━_*~＝・.。…\s]{3,}$")
_LOSS = re.compile(r"\d+(?:d\d+)?\s*/\s*\d*d?\d+")
_OUTCOME = re.compile(r"^(?:成功|失敗|クリティカル|ファンブル|勝|負)")
_END_WORD = re.compile(r"END|エンド|エンディング|ED\d|BAD|GOOD|TRUE|NORMAL|ロスト", re.I)


@dataclass
class Section:
    title: str
    line: Line | None
    style: tuple = ()
    body: list[Line] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    parent: Section | None = field(default=None, repr=False)
    role: str = ""

    def all_lines(self) -> list[Line]:
        out = ([self.line] if self.line else []) + list(self.body)
        for c in self.children:
            out += c.all_lines()
        return sorted(out, key=lambda ln: ln.no)

    def own_lines(self) -> list[Line]:
        """This section's lines and those of the sub-sections that are part of it (features,
        notes), not those that stand on their own (an ending under a place)."""
        out = ([self.line] if self.line else []) + list(self.body)
        for c in self.children:
            if c.role in ("feature", "notes", "lead", "") or c.role == self.role == "notes":
                out += c.own_lines()
        return sorted(out, key=lambda ln: ln.no)

    def standalone(self) -> list[Section]:
        """Sub-sections (at any depth) that are not part of this one."""
        out = []
        for c in self.children:
            if c.role in ("feature", "notes", "lead", ""):
                out += c.standalone()
            else:
                out.append(c)
        return out

    def walk(self):  # noqa: ANN201
        yield self
        for c in self.children:
            yield from c.walk()


def clean_title(t: str) -> str:
    t = t.strip()
    t = t[emoji_mark(t) :]
    t = re.sub(rf"^[{SYMBOLS}#\s\u3000]+", "", t)
    t = (
        re.sub(r"^第\s*[0-9０-９一二三四五六七八九十]{1,3}\s*[章節部幕話]\s*[:：.、]?\s*", "", t)
        or t
    )
    t = re.sub(r"^[(（][0-9０-９]{1,2}[)）]\s*", "", t) or t
    t = (
        re.sub(r"^\d{1,2}(?:[-.]\d{1,2}){0,2}[.:)]?\s*", "", t)
        if re.match(r"^\d{1,2}(?:[-.]\d{1,2}){0,2}[.:)\s]", t)
        else t
    )
    m = re.fullmatch(r"【([^】]+)】(.*)", t)
    if m:
        t = (m.group(1) + (" " + m.group(2).strip() if m.group(2).strip() else "")).strip()
    m = re.fullmatch(r"[<\[＜［]([^>\]＞］]+)[>\]＞］]", t)
    if m:
        t = m.group(1)
    return t.strip(" \u3000:：")


def heading(line: Line) -> tuple[tuple, str] | None:
    """(style, title) when ``line`` is a heading."""
    s = line.norm
    m = _MD.match(s)
    if m and line.raw.lstrip().startswith(("#", "＃")):
        return ("md", len(m.group(1))), clean_title(line.raw.lstrip("#＃ \u3000"))
    if line.indent:
        return None
    m = _RULED.match(s)
    if m and _short(m.group(1), 24):
        return ("ruled",), m.group(1).strip()  # 「---概要---」「=== TL ===」: a memo's headings
    n = emoji_mark(s)
    if n:
        rest = s[n:].strip()
        if (
            rest
            and _short(rest)
            and not _OUTCOME.match(rest)
            and not _LOSS.search(rest)
            and not re.match(r"^[\d:：]", rest)
        ):
            return ("sym", "emoji"), clean_title(line.raw)
        return None
    m = _CHAPTER.match(s)
    if m and _short(m.group(3) or "", 30):
        return ("chap", m.group(2)), clean_title(line.raw) or line.raw.strip()
    m = _PAREN_NUM.match(s)
    if m and _short(m.group(2), 24) and "、" not in m.group(2) and not _LOSS.search(m.group(2)):
        return ("pnum",), clean_title(line.raw)
    m = _SYM.match(s)
    if m:
        rest = m.group(2).strip()
        if (
            _short(rest)
            and not _OUTCOME.match(rest)
            and not _LOSS.search(rest)
            and not re.match(r"^\d{1,2}\s*(?::\d|時)", rest)
        ):  # ▶17:00 入店: a timeline entry
            return ("sym", m.group(1)), clean_title(line.raw)
        return None
    m = _NUM.match(s)
    if m:
        rest = m.group(4).strip()
        if (
            _short(rest, 30)
            and not re.match(r"^\d", rest)
            and "、" not in rest
            and not _LOSS.search(rest)
            and not re.search(r"\d+:\d\d|時", rest[:6])
        ):
            depth = 1 + (m.group(2) is not None) + (m.group(3) is not None)
            return ("num", depth), clean_title(line.raw)
        return None
    m = _BRACKET.match(s)
    if m:
        inner = m.group(1).strip()
        if m.group(2).strip() and _FIELD.match(inner):
            return None  # 【HP】16, 【攻撃】歯車の腕 45%: a labelled field of a stat block
        if not is_known(inner) and not _LOSS.search(inner) and not re.search(r"SAN|正気度", inner):
            return ("br", "【"), clean_title(line.raw)
        return None
    m = _ANGLE.match(s)
    if m and not is_known(m.group(1)) and not _LOSS.search(m.group(1)):
        return ("br", "<"), clean_title(line.raw)
    if re.fullmatch(
        r"(?:あとがき|後書き|おわりに|終わりに|謝辞|クレジット|更新履歴|利用規約|参考文献|著作権表記)[:：]?",
        s,
    ):
        return ("word",), s.rstrip(":：")
    if (
        _short(s, 30)
        and _END_WORD.search(s)
        and not s.startswith(("→", "・", "-", "※"))
        and not re.search(r"[。、]|場合|扱い|へ$", s)
        and re.search(r"エンド|END|エンディング", s, re.I)
    ):
        return ("end",), clean_title(line.raw)
    return None


def _short(s: str, n: int = 40) -> bool:
    if len(s) > n:
        return False
    body = s.rstrip("。")
    return "。" not in body


def is_rule(line: Line) -> bool:
    return bool(_RULE.match(line.norm))


def build_tree(lines: list[Line]) -> Section:
    root = Section("", None, ("root",))
    stack: list[Section] = [root]
    for ln in lines:
        if is_rule(ln):
            continue
        h = heading(ln)
        if h is None:
            stack[-1].body.append(ln)
            continue
        style, title = h
        # Find where this heading goes on the open path.
        idx = None
        if style == ("end",):
            # 「END D：ロスト」 after 「☔END C：…」: another ending, not a part of the one before
            for i in range(len(stack) - 1, 0, -1):
                if classify(stack[i].title) == "ending":
                    idx = i
                    break
        for i in range(len(stack) - 1, 0, -1):
            if idx is not None:
                break
            st = stack[i].style
            if st == style:
                idx = i
                break
            if st[0] == style[0] and style[0] in ("md", "num") and st[1] > style[1]:
                continue
            if st[0] == style[0] and style[0] in ("md", "num") and st[1] < style[1]:
                break
        if idx is None and style[0] in ("md", "num"):
            # close deeper headings of the same kind
            for i in range(len(stack) - 1, 0, -1):
                st = stack[i].style
                if st[0] == style[0] and st[1] >= style[1]:
                    idx = i
            if idx is not None:
                del stack[idx:]
                idx = None
        if idx is not None:
            del stack[idx:]
        parent = stack[-1]
        sec = Section(title, ln, style, parent=parent)
        parent.children.append(sec)
        stack.append(sec)
    return root


# ------------------------------------------------------------------------- roles

_ROLES: list[tuple[str, re.Pattern]] = [
    (
        "after",
        re.compile(
            r"あとがき|後書き|謝辞|クレジット|更新履歴|利用規約|参考文献|おわりに|著作権|使用素材|素材"
        ),
    ),
    (
        "endings",
        re.compile(
            r"^(?:エンディング|ENDING|結末|エンド|END)(?:一覧|について|分岐|$)|エンディング$|^結末",
            re.I,
        ),
    ),
    (
        "ending",
        re.compile(
            r"END|エンド|エンディング|結末|終幕|トゥルー|バッド|ノーマル|グッド|ロスト$|^ロスト|^生還|^全滅|"
            r"^LOST$|^DEAD$",
            re.I,
        ),
    ),
    (
        "timeline",
        re.compile(
            r"タイムライン|タイムテーブル|時系列|スケジュール|時間経過|イベント表|進行表|時間表|タイムチャート|"
            r"時間の流れ|^イベント$|TIMELINE|^日程(?:表)?$|^行程(?:表)?$|^TL$",
            re.I,
        ),
    ),
    (
        "creatures",
        re.compile(
            r"(?:NPC|登場人物|人物).*(?:エネミー|クリーチャー|怪物|敵)|(?:エネミー|クリーチャー).*(?:NPC|人物)",
            re.I,
        ),
    ),
    ("npcs", re.compile(r"NPC|登場人物|人物紹介|キャラクター|^人物", re.I)),
    (
        "monsters",
        re.compile(
            r"エネミー|クリーチャー|怪物|モンスター|神話生物|^怪異|^敵|(?<!シナリオ)(?<!基本)データ$|ステータス"
        ),
    ),
    ("climax", re.compile(r"クライマックス|最終局面|決戦|CLIMAX", re.I)),
    ("intro", re.compile(r"導入|オープニング|プロローグ|序章|OPENING|INTRO", re.I)),
    (
        "background",
        re.compile(
            r"あらすじ|背景|真相|KP情報|KP向け|KPのみ|KP用|KPメモ|解説|黒幕|事件の|^補足|向け補足|^備考|"
            r"^メモ$|^TIPS$|^運営",
            re.I,
        ),
    ),
    (
        "meta",
        re.compile(
            r"概要|はじめに|シナリオ情報|シナリオについて|シナリオデータ|基本データ|基本情報|注意|前書き|まえがき|"
            r"ご利用|レギュレーション|ルール|"
            r"推奨|このシナリオ|コンセプト|早見表",
            re.I,
        ),
    ),
    ("reward", re.compile(r"^(?:生還)?報酬|^成長|SAN回復")),
    ("handout", re.compile(r"ハンドアウト|^HO\d*|^資料", re.I)),
    (
        "places",
        re.compile(
            r"^(?:探索箇所|探索場所|探索パート|探索可能箇所|探索|調査パート|調査箇所|マップ|場所|ロケーション|"
            r"各部屋|部屋の構成|.{0,6}の構成)(?:一覧|について|\(.*\)|（.*）)?$"
        ),
    ),
]
CONTAINERS = {"places", "npcs", "monsters", "creatures", "endings"}
_KP_NOTES = re.compile(r"補足|メモ|TIPS|Q&A|FAQ|注意|運営", re.I)
"""A section of advice to the keeper: its sub-sections talk about rolls, they are no places."""


def _has_rolls(lines: list[Line]) -> bool:
    from runner.importer import sanity
    from runner.importer.checks import read_line

    return any(read_line(ln)[0] or sanity.find(ln) for ln in lines)


def classify(title: str) -> str:
    from runner.importer.read import normalise

    t = normalise(title)
    for role, rx in _ROLES:
        if rx.search(t):
            return role
    return "unknown"


def assign_roles(root: Section) -> None:
    """Gives every section a role: intro, place, feature, climax, timeline, npc, monster,
    creature, ending, endings, background, meta, reward, handout, after, places, npcs,
    monsters, creatures, notes."""
    for sec in root.children:
        _assign(sec, "")


def _assign(sec: Section, context: str) -> None:
    own = classify(sec.title)
    if context in ("place", "intro", "climax", "feature"):
        role = own if own in ("handout", "ending", "endings") else "feature"
    elif context in ("npcs", "monsters", "creatures"):
        role = {"npcs": "npc", "monsters": "monster", "creatures": "creature"}[context]
        if own in ("npcs", "monsters", "creatures"):
            role = own
    elif context == "endings":
        role = "ending" if own not in ("reward", "after") else own
    elif context in ("background", "meta", "notes", "loose"):
        # Notes sections of a document with few headings may still hold the places: a
        # sub-section whose own lines hold rolls is one (it keeps its own sub-sections
        # with rolls as places of their own).
        role = (
            "notes"
            if own
            not in (
                "ending",
                "endings",
                "timeline",
                "npcs",
                "monsters",
                "creatures",
                "climax",
                "intro",
            )
            else own
        )
        if role == "notes" and context == "loose" and not sec.children:
            role = "lead"  # the text that leads into the place after it (判定なしでわかる情報)
        if (
            role in ("notes", "lead")
            and _has_rolls(sec.body)
            and not _KP_NOTES.search(sec.parent.title if sec.parent else "")
        ):
            role = "place"
            sec.role = role
            for c in sec.children:
                _assign(c, "loose")
            return
    elif context in (
        "after",
        "reward",
        "timeline",
        "npc",
        "monster",
        "creature",
        "handout",
        "ending",
    ):
        role = "notes" if own not in ("ending", "endings", "timeline") else own
        if context == "ending" and own not in ("ending",):
            role = "notes"
    elif context == "places":
        role = (
            own
            if own in ("handout", "climax", "timeline", "intro", "endings", "ending")
            else "place"
        )
    else:
        role = own
        known = [c for c in sec.children if classify(c.title) not in ("unknown", "place")]
        if (
            own in ("unknown", "meta")
            and len(known) >= 2
            and sec.style in (("md", 1), ("num", 1))
            or own == "unknown"
            and len(known) >= 3
        ) and not stat_block(sec.body):
            # the document's title over everything: its children are the top level
            sec.role = "title"
            for c in sec.children:
                _assign(c, "")
            return
        if own == "unknown":
            role = "place"  # its sub-sections are parts of it (a container of places is named so)
        if (
            own == "ending"
            and sec.children
            and all(classify(c.title) in ("ending", "unknown", "reward") for c in sec.children)
        ):
            if not re.search(
                r"TRUE|BAD|GOOD|NORMAL|トゥルー|バッド|グッド|ノーマル|ロスト|\d", sec.title, re.I
            ):
                role = "endings"
    if (
        role in ("place", "feature", "notes", "lead", "unknown")
        and own in ("unknown", "place")
        and stat_block(sec.body)
    ):
        role = "creature"  # 「---車掌---」 or 「◎黒岩 玄斎」 over a stat block: a character, wherever it stands
    sec.role = role
    for c in sec.children:
        _assign(c, role)
    # 「◎真壁 清一郎　依頼人（能力値は省略）」 among ◎ characters with stats: one of them
    kids = sec.children
    for c in kids:
        if (
            c.role in ("feature", "notes", "place")
            and not c.children
            and len(c.body) <= 2
            and sum(1 for k in kids if k.role == "creature" and k.style == c.style) >= 2
            and not _has_rolls(c.body)
        ):
            c.role = "creature"


def stat_block(lines: list[Line]) -> bool:
    """Four or more characteristics with values among a section's first lines (one line,
    a table, or one per line)."""
    from runner.importer.creatures import _STAT, stat_table
    from runner.importer.skills import canonical

    codes = set()
    for i, ln in enumerate(lines[:12]):
        for m in _STAT.finditer(ln.norm):
            codes.add(canonical(m.group(1)))
        tab = stat_table(lines, i)
        if tab:
            codes.update(k for k in tab if k != "HP")
    return len(codes) >= 4
