"""NPC and monster stat blocks: characteristics (also as a table), HP/耐久力, MP, armour,
damage bonus, build, move, skills, attacks, the SAN a sight of it costs; 6th-edition
characteristics (3–18) are multiplied by 5."""

from __future__ import annotations

import re
from typing import TypedDict

from runner.importer import sanity
from runner.importer.model import Attack, Creature, Line
from runner.importer.skills import CHAR_JA, CHARS, canonical, is_known

_CHAR_WORD = "|".join(CHARS) + "|" + "|".join(sorted(CHAR_JA, key=len, reverse=True))
_STAT = re.compile(rf"(?<![A-Za-z])({_CHAR_WORD})(?![A-Za-z])\s*[:=]?\s*(\d{{1,3}})")
_HP = re.compile(r"(?<![A-Za-z])(?:HP|耐久力|ヒットポイント)[】\]]?\s*[:=]?\s*(\d{1,3})")
_MP = re.compile(r"(?<![A-Za-z])(?:MP|マジック・?ポイント)[】\]]?\s*[:=]?\s*(\d{1,3})")
_SANV = re.compile(r"(?<![A-Za-z])(?:SAN|正気度)\s*[:=]?\s*(\d{1,3})(?!\s*/)(?!\d)")
_ARMOR = re.compile(r"装甲[】\]]?\s*[:=]?\s*(\d+|なし|無し)")
_DB = re.compile(
    r"(?<![A-Za-z])(?:DB|db|ダメージ・?ボーナス)[】\]]?\s*[:=]?\s*([+\-]?\d*d\d+|[+\-]?\d+|なし)"
)
_BUILD = re.compile(r"ビルド[】\]]?\s*[:=]?\s*([+\-]?\d+)")
_MOVE = re.compile(r"(?:移動率?|MOV)[】\]]?\s*[:=]?\s*(\d+)")
_DMG = r"\d*d\d+(?:\s*[+\-]\s*(?:\d*d\d+|\d+|DB|db|ダメージ・?ボーナス))*"
_PCT = re.compile(r"(\d{1,3})\s*%")
_SKILL_PCT = re.compile(r"([^\s\d%、,:：()/]{2,12}(?:\([^)]{1,10}\))?)\s*[:]?\s*(\d{1,3})\s*%")
_ATTACK_HEAD = re.compile(r"^[\s・\-*]*(?:攻撃方法|攻撃(?!回数)|武器|近接攻撃)\s*[:：]?\s*")
_NOT_ATTACK = {"回避", "技能", "装甲", "攻撃回数", "耐久力", "ビルド", "移動", "呪文"}


class _Defaults(TypedDict, total=False):
    """A creature's 「近接戦闘 40 ダメージ 1d6」 line: what its attacks default to."""

    skill: int
    damage: str


def creature_name(title: str) -> str:
    t = title.strip()
    t = re.sub(r"^(?:NPC|エネミー|クリーチャー|怪異|怪物|モンスター|神話生物|敵)\s*[:：]\s*", "", t)
    t = re.sub(r"[（(].*$", "", t) if not t.startswith(("(", "（")) else t
    t = re.sub(r"\s*\d+\s*歳.*$", "", t)
    t = t.strip(" \u3000「」『』【】")
    return t or title.strip()


_NAME_CUT = re.compile(r"[（(「『【：:／/|｜、。,]|\s+(?=\d)|\s{2,}|\u3000|\d+\s*歳")
_CARD = re.compile(
    r"^[^。、「]{1,16}?(?:[（(][^）)]{1,20}[）)](?=\s|$|\d|[：:／/|｜、,]|歳)|\s*\d{1,3}\s*歳|\s*[：:／/|｜])"
)
_PALETTE = re.compile(
    r"^\s*(?:CCB?|SCCB?|RESB?|CBRB?|\d*[dD]\d+|x\d+|choice)\b|^\s*CC\s*\(?[+\-]?\d*\)?\s*<=\s*\d"
)


def palette_line(norm: str) -> bool:
    """A line of the keeper's chat palette for a creature (CC<=45 【歯車の腕】, 1d6+1d4 【ダメージ】)."""
    return bool(_PALETTE.match(norm))


def entry_name(raw: str) -> str:
    """The name a character entry starts with: 「瀬川 宗一郎（せがわ そういちろう）72歳／店主」 → 瀬川 宗一郎."""
    s = re.sub(r"^[\s・\-*●○◆◇■□◎★☆▼▽▶]+", "", raw.strip())
    s = re.sub(r"\*\*|__", "", s)
    m = _NAME_CUT.search(s)
    name = s[: m.start()] if m and m.start() > 0 else s
    return name.strip(" \u3000") or s[:16]


def _strip_mark(s: str) -> str:
    return re.sub(r"^[\s・\-*●○◆◇■□◎▼▽▶]+", "", s)


def _name_line(ln: Line, nxt: Line | None) -> bool:
    s = _strip_mark(ln.norm)
    if not s or s.startswith(("※", "(", "「", "【", "→", "|")) or len(s) > 60 or palette_line(s):
        return False
    if (
        len(_STAT.findall(s)) >= 2
        or _HP.search(s)
        or re.match(
            r"^(?:攻撃|武器|装甲|技能|呪文|正気度|遭遇|SAN|年齢|職業|HP|MP|DB|ビルド|移動|特徴|性格|備考|メモ|外見|所持品|"
            r"能力値|ステータス|ダメージ|回避|特殊|弱点|補足|注意|※)",
            s,
        )
    ):
        return False
    name = entry_name(ln.raw)
    if (
        not name
        or len(name) > 16
        or re.search(r"[。、]|[はがをでにも]$|ている|ました|です|ます", name)
        or re.fullmatch(
            r"(?:プレイ)?人数|(?:プレイ|所要|想定)?時間|推奨.*|舞台|形式|システム|ロスト率|傾向|難易度|備考|"
            r"メモ|注意|補足|概要|時代|場所|人物",
            name,
        )
    ):
        return False
    stat_next = nxt is not None and len(_STAT.findall(nxt.norm)) >= 2
    return (
        stat_next
        or bool(_CARD.match(s))
        or len(s) <= 16
        and "。" not in s
        and nxt is not None
        and bool(re.match(r"^\s*(?:[【\[]?(?:能力値|ステータス)|STR)", nxt.norm))
    )


def entries(lines: list[Line], *, need_stats: bool = False) -> list[tuple[Line | None, list[Line]]]:
    """A section listing several characters with no heading of their own: a paragraph (after a
    blank line) that opens with a name card (「名前（よみ）年齢／立場」) or a name right above
    a stat line starts an entry; a table with a 名前 column is one entry per row. Empty when
    the section does not read as such a list."""
    from runner.importer.timeline import table_cells

    rows = [table_cells(ln.norm) for ln in lines]
    if (
        rows
        and rows[0]
        and any(re.fullmatch(r"名前|氏名|NPC|キャラクター|人物|キャラ", c or "") for c in rows[0])
    ):
        col = next(
            i
            for i, c in enumerate(rows[0])
            if re.fullmatch(r"名前|氏名|NPC|キャラクター|人物|キャラ", c or "")
        )
        out: list[tuple[Line | None, list[Line]]] = []
        for ln, cells in zip(lines[1:], rows[1:], strict=False):
            if cells and len(cells) > col and cells[col].strip("-: "):
                name = re.sub(r"\*\*|__", "", cells[col]).strip()
                out.append((Line(ln.no, name, name), [ln]))
        return out
    if lines and (len(_STAT.findall(lines[0].norm)) >= 2 or stat_table(lines, 0)):
        return []  # the section's own stat block: one character, named by the heading
    out = []
    prev: Line | None = None
    for i, ln in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        para_start = prev is None or ln.no - prev.no > 1
        # a name card starts an entry even with no blank line before it, when the line
        # before was a whole sentence or a card itself (a dense list, one person a line)
        card_run = (
            prev is not None
            and bool(_CARD.match(_strip_mark(ln.norm)))
            and (
                prev.norm.rstrip().endswith(("。", "）", ")"))
                or bool(_CARD.match(_strip_mark(prev.norm)))
            )
        )
        if (
            para_start or card_run or nxt is not None and len(_STAT.findall(nxt.norm)) >= 3
        ) and _name_line(ln, nxt):
            out.append((ln, []))
        elif out:
            out[-1][1].append(ln)
        else:
            out.append((None, [ln]))
        prev = ln
    if need_stats:
        # among monsters, an entry is one only with a stat block of its own (not 「…用チャパレ」)
        kept: list[tuple[Line | None, list[Line]]] = []
        for head, body in out:
            if head is not None and not any(
                len(_STAT.findall(b.norm)) >= 2 or _HP.search(b.norm) for b in body
            ):
                if kept:
                    kept[-1][1].extend([head, *body])
                else:
                    kept.append((None, [head, *body]))
            else:
                kept.append((head, body))
        out = kept
    if (
        not any(h is not None for h, _ in out)
        or len(out) == 1
        and out[0][0] is not None
        and not out[0][1]
    ):
        return []
    return out


def stat_table(lines: list[Line], i: int) -> dict[str, int] | None:
    """A Markdown/HTML table whose header row names characteristics."""
    from runner.importer.timeline import table_cells

    head = table_cells(lines[i].norm)
    if not head:
        return None
    names = [
        canonical(c) if re.fullmatch(_CHAR_WORD, c) or c in ("HP", "MP", "耐久力") else ""
        for c in head
    ]
    if sum(1 for n in names if n in CHARS) < 3:
        return None
    for j in range(i + 1, min(i + 4, len(lines))):
        row = table_cells(lines[j].norm)
        if row is None:
            return None
        if not row:
            continue
        out = {}
        for n, v in zip(names, row, strict=False):
            if n and re.fullmatch(r"\d{1,3}", v):
                out["HP" if n == "耐久力" else n] = int(v)
        return out or None
    return None


def read_creature(
    title: str, line: int, lines: list[Line], kind: str, edition: int | None
) -> Creature:
    c = Creature(creature_name(title), line, kind)
    chars: dict[str, int] = {}
    attack_lines: list[Line] = []
    defaults: _Defaults = {}
    prev_attack = False
    for i, ln in enumerate(lines):
        s = ln.norm
        tab = stat_table(lines, i)
        if tab:
            for k, v in tab.items():
                (chars if k in CHARS else c.stats).__setitem__(k, v)
            continue
        for sm in _STAT.finditer(s):
            code = canonical(sm.group(1))
            if code in CHARS:
                chars.setdefault(code, int(sm.group(2)))
        if m := _HP.search(s):
            c.stats.setdefault("HP", int(m.group(1)))
        if m := _MP.search(s):
            c.stats.setdefault("MP", int(m.group(1)))
        if m := _SANV.search(s):
            c.stats.setdefault("SAN", int(m.group(1)))
        if m := _ARMOR.search(s):
            c.armor = int(m.group(1)) if m.group(1).isdigit() else 0
        if m := _DB.search(s):
            c.db = "" if m.group(1) == "なし" else m.group(1)
        if m := _BUILD.search(s):
            c.build = int(m.group(1))
        if m := _MOVE.search(s):
            c.move = int(m.group(1))
        if not c.san:
            found = sanity.find(ln)
            if found:
                c.san = found[0].loss
        is_attack = bool(_ATTACK_HEAD.match(s)) or (
            bool(_PCT.search(s)) and (bool(re.search(_DMG, s)) or "ダメージ" in s or prev_attack)
        )
        if re.match(r"^[\s・\-*]*技能\s*[:：]", s):
            for m in _SKILL_PCT.finditer(s[s.find(":") + 1 if ":" in s else 0 :]):
                name = m.group(1).lstrip("、, ")
                if is_known(name):
                    c.skills[canonical(name)] = int(m.group(2))
            is_attack = False
        elif re.match(
            r"^[\s・\-*(（]*(?:回避|近接戦闘|こぶし)\s*[:(]?", s
        ) and not _ATTACK_HEAD.match(s):
            m = re.search(r"近接戦闘(?:\([^)]*\))?\s*[:]?\s*(\d+)", s)
            if m:
                defaults["skill"] = int(m.group(1))
            m = re.search(rf"ダメージ\s*[:]?\s*({_DMG})", s)
            if m:
                defaults["damage"] = m.group(1)
            m = re.search(r"回避\s*[:]?\s*(\d+)", s)
            if m:
                c.skills["回避"] = int(m.group(1))
            if not re.search(_DMG, s) and not re.search(r"近接戦闘\s*\(", s):
                is_attack = False
        if is_attack:
            attack_lines.append(ln)
        prev_attack = is_attack
        if not (is_attack or _STAT.search(s) or _HP.search(s) or _ARMOR.search(s)):
            c.notes.append(ln)
    for ln in attack_lines:
        c.attacks += parse_attacks(ln.norm)
    if not c.attacks and "skill" in defaults:
        # 「近接戦闘(格闘) 40 ダメージ 1d6+DB」: the fighting skill is the attack
        c.attacks.append(
            Attack(
                "近接戦闘(格闘)",
                defaults["skill"],
                defaults.get("damage", ""),
                "近接戦闘(格闘)",
            )
        )
    for a in c.attacks:
        if a.skill is None and "skill" in defaults:
            a.skill = defaults["skill"]
        if not a.damage and "damage" in defaults:
            a.damage = defaults["damage"]
    if edition == 6:
        chars = {k: v * 5 for k, v in chars.items()}
    c.stats = {**chars, **c.stats}
    return c


def parse_attacks(norm: str) -> list[Attack]:
    s = _ATTACK_HEAD.sub("", norm)
    items = _split_top(s)
    out: list[Attack] = []
    for it in items:
        it = it.strip(" ・-")
        if not it:
            continue
        dm = re.match(rf"^(?:ダメージ|damage)\s*[:]?\s*({_DMG}|\d+)", it)
        if dm and out:  # 「かぎ爪 25%、ダメージ 1d6+DB」: the damage of the attack before
            if not out[-1].damage:
                out[-1].damage = re.sub(r"\s+", "", dm.group(1))
            continue
        m = re.match(r"^([^\s\d(%:]+)", it)
        if not m:
            continue
        name = m.group(1)
        paren, end = _balanced(it, m.end())
        skill_name = ""
        if paren is not None:
            first = paren.split()[0] if paren.split() else ""
            first = re.sub(r"\d+\s*%?$", "", first)
            if first and is_known(first):
                skill_name = canonical(first)
        m_end = end if paren is not None else m.end()
        if name in _NOT_ATTACK or name.startswith(tuple(_NOT_ATTACK)):
            continue
        if re.match(r"^\d", name):
            continue
        rest = it[m_end:]
        pct = _PCT.search(it) or re.search(r"(?:^|\s)(\d{1,3})(?:\s|$)", rest)
        dmg = re.search(rf"(?<![A-Za-z]){_DMG}", rest)
        if not dmg:
            dm = re.search(r"ダメージ\s*[:]?\s*(\d+)(?!d)", rest)
            dmg_text = dm.group(1) if dm else ""
        else:
            dmg_text = dmg.group(0)
        sk = None
        if pct:
            sk = int(pct.group(1))
        if re.search(r"\(([^)]*近接戦闘[^)]*)\)", it) and not skill_name:
            skill_name = "近接戦闘(格闘)"
        if is_known(name) and not skill_name:
            skill_name = canonical(name)
        out.append(
            Attack(
                name.strip(),
                sk,
                re.sub(r"\s+", "", dmg_text)
                .replace("ダメージ・ボーナス", "DB")
                .replace("ダメージボーナス", "DB"),
                skill_name,
            )
        )
    return out


def _balanced(s: str, i: int) -> tuple[str | None, int]:
    """The text inside the parentheses opening at ``s[i]`` (nested ones kept), and the end."""
    if i >= len(s) or s[i] not in "(（":
        return None, i
    depth = 0
    for j in range(i, len(s)):
        if s[j] in "(（":
            depth += 1
        elif s[j] in ")）":
            depth -= 1
            if depth == 0:
                return s[i + 1 : j], j + 1
    return s[i + 1 :], len(s)


def _split_top(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "(（":
            depth += 1
        elif ch in ")）":
            depth = max(0, depth - 1)
        if ch in "、,/／" and depth == 0:
            out.append(cur)
            cur = ""
            continue
        cur += ch
    out.append(cur)
    return out


def looks_monster(c: Creature) -> bool:
    """For a mixed NPC/enemy section: a creature with a SAN cost, or no human traits."""
    if c.san:
        return True
    if "APP" in c.stats or "EDU" in c.stats:
        return False
    return bool(c.attacks) and bool(c.stats)
