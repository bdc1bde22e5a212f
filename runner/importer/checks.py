"""Skill checks as keepers write them.

A line is read in four steps: find every skill *mention* (in any bracket, bare before
ロール/判定/に成功, a characteristic with ×5 or ハード, a BCDice ``CC<=目星``); drop the
mentions that are not rolls (recommended skills, a creature's skill list, a gain like
``+1%``, a modifier ``〈聞き耳〉に-20%``, ``…ではなく``, ``…は不要``, an opponent's
``源蔵のPOW``); join mentions into one check where the words between them say "or"
(``〈医学〉か〈自然〉``, ``「A」「B」のいずれか``, ``…でもよい``); then read what the line
says about each check: difficulty, bonus and penalty dice, push, opposed, outcomes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from runner.importer.model import Check, Line, Outcome
from runner.importer.skills import CHARS, DISTINCT, GROUPS_6E, KNOWN, canonical, is_known

_OPEN = "〈《【<[「『≪〔"
_CLOSE = "〉》】>]」』≫〕"
_PAIR = dict(zip(_OPEN, _CLOSE, strict=True))
_BRACKET = re.compile(
    r"([〈《【<\[「『≪〔])([^〈《【<\[「『≪〔〉》】>\]」』≫〕]{1,24})([〉》】>\]」』≫〕])"
)
_BARE = re.compile("|".join(re.escape(n) for n in KNOWN if len(n) >= 2))
_CHAR = re.compile(
    r"(?<![A-Za-z])(STR|CON|SIZ|DEX|APP|INT|POW|EDU)(?![A-Za-z])"
    r"(\s*\((?!ハード|イクストリーム|レギュラー|難易度)[^()]{1,6}\))?"
)
_BCDICE = re.compile(
    r"(?<![A-Za-z])CCB?\s*(?:\(\s*([+\-]?\d+)\s*\))?\s*<=\s*(?:\d+\s*)?"
    r"([^\s\d<>【】〈〉《》\[\]`。、,.()]{2,12}(?:\([^\s()]{1,8}\))?)"
)
_MULT = re.compile(r"^\s*[×xX*＊]\s*(\d)")
_CHECK_AFTER = re.compile(
    r"^\s*(?:技能)?\s*(?:ロール|判定|チェック|を振|で振|振ら|振り|振っ|に成功|に失敗|成功|失敗|"
    r"のハード|のイクストリーム|の(?:対抗|抵抗)|\(ハード|\(イクストリーム|ハード|イクストリーム|"
    r"対抗|抵抗|で判定|の判定|\(レギュラー)"
)
_DISTINCT_AFTER = re.compile(r"^\s*(?:で(?!も|き)|を使|を使用|に挑|が必要|を試|を行)")
_EXCLUDE_AFTER = re.compile(
    r"^[\s.…・]*(?:技能)?\s*(?:[+＋]\s*\d|に\s*[+\-]\s*\d|にペナルティ|にボーナス|では?なく|は不要|不要|"
    r"なし|無し|は使えない|の?必要は?ない|は要らない|はいらない|は必要ない|の技能値|の値|の成長|が?\s*\d+\s*%?|[:=]\s*\d|に成功している|"
    r"に成功していれば|はここ|の結果|の低い|の高い|が低い|が高い|を持つ|を持っている|は意味がない|は無意味|では意味がない|"
    r"のように|のような形|と表記|と記す|と書く)"
)
_OPPONENT_AFTER = re.compile(
    r"^\s*(?:\s*\d+\s*)?(?:と(?:の)?(?:対抗|抵抗)|に対抗|で対抗|に抵抗|との対抗)"
)
_DIFF = re.compile(
    r"ハード|イクストリーム|エクストリーム|レギュラー|困難|極限|(?<![A-Za-z])(?:Hard|Extreme|HARD|EXTREME)(?![A-Za-z])"
)
_DIFF_OF = {
    "ハード": "hard",
    "困難": "hard",
    "hard": "hard",
    "イクストリーム": "extreme",
    "エクストリーム": "extreme",
    "極限": "extreme",
    "extreme": "extreme",
    "レギュラー": "regular",
}
_BONUS = re.compile(
    r"(?:([+＋]?\d)\s*)?(ボーナス|ペナルティ)\s*[・･]?\s*ダイス\s*(?:を)?\s*(?:[+＋\-]?\s*(\d)\s*(?:個|つ|個分)?)?"
)
_PUSH = re.compile(
    r"プッシュ(?:・?ロール)?\s*(?:は|が|も)?\s*(可能|可|できる|OK|あり|不可|できない|禁止|なし|不能)"
)
_OPPOSED = re.compile(r"対抗|抵抗表|抵抗ロール|(?<![A-Za-z])vs\.?(?![A-Za-z])", re.I)
_ALT_WORD = re.compile(
    r"または|もしくは|あるいは|か、|(?<![はがのをにでと])か$|^か|^or$|^/$|^／$|どれか|いずれか|、|・|/"
)
_GAP_STRIP = re.compile(r"[\s、,・/／|`*]+")
_ALSO = re.compile(
    r"^\s*(?:\))?\s*(?:でも(?:よい|良い|いい|可|代用|OK|かまわない|構わない)|で代用|も可)"
)
_STAT_TOKEN = re.compile(
    r"(?<![A-Za-z])(?:STR|CON|SIZ|DEX|APP|INT|POW|EDU|HP|MP|SAN)\s*[:：=]?\s*\d+"
)
_DATA_HEAD = re.compile(
    r"^[\s・\-*【]*(?:(?:技能|攻撃|武器|攻撃方法|装甲|呪文|特殊能力|耐久力|HP|MP|DB|ダメージ・?ボーナス|"
    r"回避|移動|ビルド|正気度喪失|遭遇時?の?正気度喪失|攻撃回数|所持品|能力値|近接戦闘)"
    r"(?=[\s:：】\]/(（\d%]|$)|SAN\s*[:：]|\|\s*(?:STR|CON))"
)
_PERCENT_ITEM = re.compile(r"[^\s\d%、,:：]{2,}\s*[:：]?\s*\d{1,3}\s*%")
_OUTCOME = re.compile(
    r"(?:→\s*)?(?:[◯○×✕☆★]\s*)?(プッシュ(?:・?ロール)?(?:に)?失敗|クリティカル|ファンブル|イクストリーム成功|ハード成功|"
    r"(?<!ロール)(?<!ダイス)成功|失敗|勝(?:った|てば|ち|利|つと)|負け(?:た|ると|れば|たら)?)"
    r"(?:した場合|すれば|すると|したら|なら(?:ば)?|時|の場合|した時|した探索者は|の探索者は|した者は|で)?\s*[:：→、]?\s*"
)
_KEY = {
    "クリティカル": "critical",
    "ファンブル": "fumble",
    "イクストリーム成功": "extreme",
    "ハード成功": "hard",
    "成功": "success",
    "失敗": "failure",
}


@dataclass
class Mention:
    start: int
    end: int
    skill: str
    how: str
    diff: str = ""
    mult: int = 0
    excluded: str = ""
    bonus: int = 0
    written: str = ""


def is_data_line(norm: str) -> bool:
    """A creature's stat line, a skill list, an attack line, recommended skills: no rolls."""
    if "推奨" in norm[:12] or re.match(r"^[\s・\-*|]*(?:推奨|おすすめ|オススメ)", norm):
        return True
    if len(_STAT_TOKEN.findall(norm)) >= 2:
        return True
    if _DATA_HEAD.match(norm) and not re.search(r"(?:ロール|判定)(?:を|で|に|。)", norm):
        return True
    return len(_PERCENT_ITEM.findall(norm)) >= 2


def mentions(norm: str) -> list[Mention]:
    out: list[Mention] = []
    taken: list[tuple[int, int]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in taken)

    for m in _BCDICE.finditer(norm):
        name = m.group(2).strip("`'\" ")
        end = m.end()
        diff = ""
        if "(" in name:
            base, inner = name[: name.index("(")], name[name.index("(") + 1 : -1]
            if (
                inner in _DIFF_OF
                or not is_known(name)
                or base not in GROUPS_6E
                and not _CHAR.fullmatch(base)
                and re.search(
                    r"可|不可|OK|ハード|イクストリーム|レギュラー|対抗|秘匿|シークレット", inner
                )
            ):
                # CC<=鍵開け(プッシュ可), CC<=STR(ハード): the words after are not the name
                end -= len(name) - len(base)
                name = base
                diff = _DIFF_OF.get(inner, "")
        if is_known(name):
            mm = Mention(m.start(), end, canonical(name), "bcdice", diff)
            if m.group(1):
                mm.bonus = int(m.group(1))
            out.append(mm)
            taken.append((m.start(), end))
    for m in _BRACKET.finditer(norm):
        o, inner, c = m.groups()
        if _PAIR[o] != c or not free(m.start(), m.end()):
            continue
        quote = o in "「『"
        body, diff = _split_inner(inner)
        g = re.fullmatch(
            r"(ほかの言語|他の言語|芸術/製作|芸術・製作|科学|母国語|運転|操縦)\((.+[、,・/].+)\)",
            body,
        )
        o6 = re.fullmatch(
            r"(芸術/製作|芸術・製作|芸術および製作|芸術|製作|科学|ほかの言語|他の言語|運転|操縦|サバイバル)の"
            r"([^の]{1,14}?)(?:系統|系|など|等)*",
            body,
        )
        if g:  # 「ほかの言語（日本語、ラテン語）」: one roll in either language
            parts = [f"{g.group(1)}({x})" for x in re.split(r"[、,・/]", g.group(2)) if x]
        elif (
            o6
        ):  # 「芸術・製作の工芸や彫刻」「芸術および製作の大工系等」: the specialities, in words
            group = "芸術/製作" if "製作" in o6.group(1) or o6.group(1) == "芸術" else o6.group(1)
            parts = [
                f"{group}({re.sub(r'(?:系統|系|など|等)+$', '', x)})"
                for x in re.split(r"や|と|、|・|/|または", o6.group(2))
                if x
            ]
        else:
            parts = (
                [body]
                if is_known(body)
                else [p for p in re.split(r"[・/／、]|または|もしくは", body) if p]
            )
        after = norm[m.end() :]
        if (
            parts
            and all(is_known(p) for p in parts)
            and not (quote and len(parts) > 1 and "(" not in body and not o6)
        ):
            for p in parts:
                mm = Mention(m.start(), m.end(), canonical(p), "bracket", diff, written=p)
                if quote and not diff and not _quote_roll(after):
                    # 「日本語」がわかる: a quoted name is a roll only where the words say so
                    mm.excluded = "maybe"
                out.append(mm)
            taken.append((m.start(), m.end()))
        elif not quote and o != "【" and _custom(body) and _CHECK_AFTER.match(after):
            out.append(Mention(m.start(), m.end(), canonical(body), "bracket", diff, written=body))
            taken.append((m.start(), m.end()))
    for m in _CHAR.finditer(norm):
        if not free(m.start(), m.end()):
            continue
        after = norm[m.end() :]
        mult = _MULT.match(after)
        if mult:
            mm = Mention(
                m.start(), m.end() + mult.end(), m.group(1), "char", mult=int(mult.group(1))
            )
            out.append(mm)
            taken.append((mm.start, mm.end))
        elif re.match(r"^\s*[:：=]?\s*\d", after):
            continue
        elif (
            _CHECK_AFTER.match(after)
            or re.match(r"^\s*(?:で(?!も)|に成功|\(.{0,6}\)の)", after)
            or _OPPONENT_AFTER.match(after)
            or _memo_roll(norm[: m.start()], after, True)
        ):
            out.append(Mention(m.start(), m.end(), m.group(1), "char"))
            taken.append((m.start(), m.end()))
    for m in _BARE.finditer(norm):
        if not free(m.start(), m.end()):
            continue
        name = m.group(0)
        after = norm[m.end() :]
        before = norm[max(0, m.start() - 3) : m.start()]
        # a longer word that merely contains a skill (図書館員, 目星い) is not one
        if re.match(r"^[一-龥ァ-ヶー]", after) and not re.match(
            r"^(?:技能|判定|成功|失敗|対抗|抵抗|ロール)", after
        ):
            continue
        mult = _MULT.match(after)
        ok = bool(_CHECK_AFTER.match(after)) or bool(mult)
        if not ok and name in DISTINCT and name != "図書館" and _DISTINCT_AFTER.match(after):
            ok = True
        if not ok and before.endswith(("ここで", "全員", "全員で")) and name in DISTINCT:
            ok = True
        if not ok and _OPPONENT_AFTER.match(after):
            ok = True
        if not ok and _memo_roll(norm[: m.start()], after, name in DISTINCT and name != "図書館"):
            ok = True
        mm = Mention(
            m.start(),
            m.end() + (mult.end() if mult else 0),
            canonical(name),
            "bare",
            mult=int(mult.group(1)) if mult else 0,
            written=name,
        )
        if not ok:
            mm.excluded = "maybe"
        out.append(mm)
        taken.append((m.start(), m.end()))
    out.sort(key=lambda x: x.start)
    # A bare name joined by "or" to an accepted mention is accepted too (医学か自然のハード判定,
    # 鍵開け or 機械修理→成功).
    for _ in range(len(out)):
        for i, mm in enumerate(out):
            if mm.excluded != "maybe":
                continue
            nxt = out[i + 1] if i + 1 < len(out) else None
            prv = out[i - 1] if i else None
            if (
                nxt
                and not nxt.excluded
                and _is_alt_gap(norm[mm.end : nxt.start])
                or prv
                and not prv.excluded
                and mm.how == "bare"
                and _is_alt_gap(norm[prv.end : mm.start])
                and _memo_roll("→", norm[mm.end :], True)
            ):
                mm.excluded = ""
    for mm in out:
        if mm.excluded == "maybe":
            mm.excluded = "bare"
        after = norm[mm.end :]
        before = norm[max(0, mm.start - 12) : mm.start]
        after_roll = re.sub(r"^\s*(?:技能)?\s*(?:ロール|判定)", "", after)
        if (
            not mm.excluded
            and (
                _EXCLUDE_AFTER.match(after)
                or after_roll != after
                and re.match(r"^\s*(?:はここ|の結果|に成功している)", after_roll)
            )
            and not mm.mult
        ):
            mm.excluded = "not a roll"
        elif (
            not mm.excluded
            and _OPPONENT_AFTER.match(after)
            and re.search(r"[^\s探索者PC]の\s*$", before)
            and not re.search(r"(?:探索者|PC|自分|プレイヤー)の\s*$", before)
        ):
            mm.excluded = "opponent"
    return out


_PROFILE = re.compile(
    r"(?:趣味|専攻|職業|特技|年齢|性格|好き|嫌い|得意|苦手|学部|所属|出身|推奨|技能|おすすめ)\s*[：:]\s*$"
)


def _memo_roll(before: str, after: str, distinct: bool) -> bool:
    """A keeper's memo names the roll bare, with arrows: 「見回す→目星」「駅名標：目星→成功：…」
    「降りたところで聞き耳。」「→DEX、失敗で転落」「説得or心理学→成功」."""
    if re.match(r"^\s*[→⇒]\s*(?:[◯○×✕☆★]\s*)?(?:成功|失敗|クリ|ファンブル)", after):
        return True
    ends = (
        re.match(r"^\s*(?:。|$|[(（](?!\d)|[、,]\s*(?:成功|失敗)|(?:or|OR|/|／)\s*\S)", after)
        or distinct
        and re.match(r"^\s*[→⇒]", after)
    )
    if not ends:
        return False
    if re.search(r"[→⇒]\s*$", before):
        return True
    if re.search(r"[：:]\s*$", before) and not _PROFILE.search(before):
        return distinct or bool(re.match(r"^\s*[→⇒]", after))
    return distinct and bool(re.search(r"(?:ところで|ここで|そこで|ついでに|同時に)\s*$", before))


def _quote_roll(after: str) -> bool:
    return bool(
        _CHECK_AFTER.match(after)
        or _DISTINCT_AFTER.match(after)
        or re.match(r"^\s*(?:の|で|か)?(?:いずれか|どれか)|^\s*(?:で|を)(?:判定|ロール|振)", after)
        or re.match(r"^\s*など[^。]{0,14}?(?:ハード|イクストリーム|判定|成功|ロール|振)", after)
    )


def _split_inner(inner: str) -> tuple[str, str]:
    body = inner.strip()
    diff = ""
    m = re.search(r"(?:の)?(ハード|イクストリーム|エクストリーム|レギュラー)$", body)
    if m:
        diff = _DIFF_OF[m.group(1)]
        body = body[: m.start()]
    body = re.sub(r"(?:技能)?(?:ロール|判定)$", "", body).strip()
    return body, diff


def _custom(body: str) -> bool:
    return 1 < len(body) <= 10 and not re.search(r"\d|SAN|正気度|HO|ハンドアウト|[、。!?]", body)


def _is_alt_gap(gap: str) -> bool:
    if "。" in gap or len(gap) > 14:
        return False
    g = gap.strip()
    g = re.sub(r"^[)\]）】〉》>」』`\s]+|[(\[（【〈《<「『`\s]+$", "", g)
    if not _GAP_STRIP.sub("", g):
        return True
    if re.search(r"[のをにで]$", g) and not re.search(r"いずれか|どれか", g):
        return False
    return bool(
        re.search(
            r"または|もしくは|あるいは|(?:^|[^はがのをにでと])か(?:、)?$|^か|^や$|^or$|いずれか|どれか",
            g,
        )
    ) and not re.search(r"と(?:、)?$|それぞれ", g)


def _mult_diff(mult: int) -> str:
    # 6th edition: ×5 is the full value (7e regular), ×3 about half (hard), ×1 a fifth (extreme)
    return "regular" if mult >= 4 else ("hard" if mult >= 2 else "extreme")


def read_line(line: Line) -> tuple[list[Check], list[Mention]]:
    """The checks on one line, and every mention (for the report of what was left out)."""
    norm = line.norm
    if is_data_line(norm):
        return [], []
    ms = mentions(norm)
    live = [m for m in ms if not m.excluded]
    if not live:
        return [], ms
    # groups of alternatives
    groups: list[list[Mention]] = []
    for m in live:
        if groups:
            prev = groups[-1][-1]
            gap = norm[prev.end : m.start]
            if (
                _ALSO.match(norm[m.end :])
                and "対抗" not in norm[m.end : m.end + 16]
                and "対抗" not in gap
            ):
                groups[-1].append(m)
                continue
            if _is_alt_gap(gap):
                groups[-1].append(m)
                continue
        groups.append([m])
    # alternatives whose own difficulty differs are checks of their own
    split: list[list[Mention]] = []
    for g in groups:
        cur: list[Mention] = []
        for m in g:
            d = m.diff or (_mult_diff(m.mult) if m.mult else "")
            if cur:
                d0 = cur[0].diff or (_mult_diff(cur[0].mult) if cur[0].mult else "")
                also = bool(_ALSO.match(norm[m.end :]))
                if (
                    d != d0
                    and not (also and not d)
                    and (d or d0)
                    and (d or "regular") != (d0 or "regular")
                ):
                    split.append(cur)
                    cur = []
                elif d != d0 and (m.mult or cur[0].mult) and not also and d and d0:
                    split.append(cur)
                    cur = []
            cur.append(m)
        if cur:
            split.append(cur)
    split = _split_by_difficulty(norm, split)
    checks: list[Check] = []
    spans: list[tuple[int, int]] = []
    ends: list[list[int]] = []
    for g in split:
        skills: list[str] = []
        written: list[str] = []
        for m in g:
            if m.skill not in skills:
                skills.append(m.skill)
                written.append(m.written or m.skill)
        c = Check(skills, line.no, text=line.raw, written=written)
        own = [m.diff or (_mult_diff(m.mult) if m.mult else "") for m in g]
        own = [d for d in own if d]
        if own:
            c.difficulty = own[0]
        c.bonus = sum(m.bonus for m in g)
        checks.append(c)
        spans.append((g[0].start, g[-1].end))
        ends.append([m.end for m in g])
    _difficulties(norm, checks, spans, ms, ends)
    _dice(norm, checks, spans, ms, ends)
    _push(norm, checks, spans, ends)
    _opposed(norm, checks, spans, ms)
    _inline_outcomes(line, checks, spans)
    for c, (a, _b) in zip(checks, spans, strict=True):
        c.context = _context(norm[:a], line)
    return checks, ms


def _split_by_difficulty(norm: str, groups: list[list[Mention]]) -> list[list[Mention]]:
    """「〈鍵開け〉、またはSTRでこじ開ける（ハード）」: a difficulty written after a verb that
    follows the last of several alternatives is that alternative's alone."""
    out: list[list[Mention]] = []
    for g in groups:
        if len(g) > 1:
            last = g[-1]
            m = _DIFF.search(norm, last.end)
            if m and "。" not in norm[last.end : m.start()]:
                raw_gap = norm[last.end : m.start()]
                gap = re.sub(r"[\s()（）〉》】>\]」』の・、,]", "", raw_gap)
                nxt = norm.find("。", last.end)
                if (
                    len(gap) > 3
                    and (nxt < 0 or m.start() < nxt)
                    and not re.search(r"判定|ロール|成功|で$", gap)
                    and re.match(r"^[\s)〉》】>\]」』]*(?:で|を)", raw_gap)
                ):
                    out.append(g[:-1])
                    out.append([last])
                    continue
        out.append(g)
    return out


def _owner(
    pos: int, spans: list[tuple[int, int]], norm: str, ends: list[list[int]], *, forward: int = 6
) -> int | None:
    """The check a word at ``pos`` speaks of: the one with the nearest mention before it in
    the same sentence, or one starting just after it."""
    best, best_end = None, -1
    for i, es in enumerate(ends):
        for b in es:
            if b <= pos and b > best_end and "。" not in norm[b:pos].rstrip("。"):
                best, best_end = i, b
    if best is not None:
        return best
    for i, (a, _b) in enumerate(spans):
        if a >= pos and a - pos <= forward:
            return i
    return None


def _difficulties(
    norm: str,
    checks: list[Check],
    spans: list[tuple[int, int]],
    ms: list[Mention],
    ends: list[list[int]],
) -> None:
    inside = [(m.start, m.end) for m in ms]
    for m in _DIFF.finditer(norm):
        if any(a <= m.start() < b for a, b in inside):
            continue
        after = norm[m.end() : m.end() + 3]
        if after.startswith("成功") and (
            m.start() == 0 or re.match(r"^[\s・\-→☆]*$", norm[: m.start()])
        ):
            continue  # an outcome level (イクストリーム成功：…), not a difficulty
        i = _owner(m.start(), spans, norm, ends)
        if i is None:
            continue
        word = m.group(0)
        checks[i].difficulty = _DIFF_OF.get(word, _DIFF_OF.get(word.lower(), "regular"))


def _dice(
    norm: str,
    checks: list[Check],
    spans: list[tuple[int, int]],
    ms: list[Mention],
    ends: list[list[int]],
) -> None:
    for m in _BONUS.finditer(norm):
        # 〈幸運〉にペナルティ・ダイス: a modifier on some later roll, not on this line's check
        prev = [x for x in ms if x.end <= m.start()]
        if prev and prev[-1].excluded == "not a roll" and m.start() - prev[-1].end <= 3:
            continue
        i = _owner(m.start(), spans, norm, ends, forward=0)
        if i is None:
            i = _owner(m.start(), spans, norm, ends)
        if i is None:
            continue
        n = int(m.group(3) or (m.group(1) or "1").lstrip("+＋") or 1)
        checks[i].bonus += n if m.group(2) == "ボーナス" else -n


def _push(
    norm: str, checks: list[Check], spans: list[tuple[int, int]], ends: list[list[int]]
) -> None:
    for m in _PUSH.finditer(norm):
        i = _owner(m.start(), spans, norm, ends, forward=0)
        if i is None:
            i = len(checks) - 1 if checks else None
        if i is None:
            continue
        checks[i].pushable = m.group(1) in ("可能", "可", "できる", "OK", "あり")


_OPP_VALUE = re.compile(
    r"([^\s(（、。:：]{1,12}?)の\s*(STR|CON|SIZ|DEX|APP|INT|POW|EDU|[^\s(（、。]{2,8}?)\s*(\d{1,3})"
)
_OPP_NAME = re.compile(
    r"([^\s(（、。:：「」〈《<\[【]{1,12}?)の\s*(?:STR|CON|SIZ|DEX|APP|INT|POW|EDU|[〈《<\[「【][^〉》>\]」】]{1,10}"
    r"[〉》>\]」】])\s*(?:と|に|で|との)(?:の)?(?:対抗|抵抗)|"
    r"([^\s(（、。:：「」〈《<\[【の]{1,12})\s*(?:と|に)(?:の)?(?:対抗|抵抗)"
)


def _opposed(
    norm: str, checks: list[Check], spans: list[tuple[int, int]], ms: list[Mention]
) -> None:
    for i, (_a, b) in enumerate(spans):
        tail = norm[b:]
        stop = tail.find("。")
        clause = tail if stop < 0 else tail[:stop]
        head = norm[max(0, _a - 6) : _a]
        if _OPPOSED.search(clause[:24]) or re.search(r"対抗$", norm[_a:b]) or "対抗" in head:
            c = checks[i]
            c.opposed = True
            v = _OPP_VALUE.search(clause)
            if v:
                c.opponent = v.group(1).lstrip("(（")
                c.opponent_skill = canonical(v.group(2))
                c.opponent_value = int(v.group(3))
            else:
                n = _OPP_NAME.search(clause)
                if n:
                    c.opponent = (n.group(1) or n.group(2)).lstrip("(（")
                opp = [m for m in ms if m.excluded == "opponent" and m.start >= b]
                if opp:
                    c.opponent_skill = opp[0].skill
            if not c.opponent:
                n = re.search(
                    r"([^\s、。(（:：]{1,12}?)の\s*(STR|CON|SIZ|DEX|APP|INT|POW|EDU)\s*(?:と|に)(?:の)?(?:対抗|抵抗)",
                    norm[:_a],
                )
                if n:
                    c.opponent = n.group(1)
                    c.opponent_skill = n.group(2)
            if not c.opponent:
                v = _OPP_VALUE.search(norm[:_a])
                if v and "対抗" in norm[:_a]:
                    c.opponent = v.group(1)
                    c.opponent_skill = canonical(v.group(2))
                    c.opponent_value = int(v.group(3))


def outcome_key(word: str) -> str:
    if word.startswith("プッシュ"):
        return "pushed_failure"
    if word.startswith("勝"):
        return "win"
    if word.startswith("負"):
        return "lose"
    return _KEY.get(word, "success")


def _inline_outcomes(line: Line, checks: list[Check], spans: list[tuple[int, int]]) -> None:
    norm = line.norm
    for i, (_a, b) in enumerate(spans):
        end = spans[i + 1][0] if i + 1 < len(spans) else len(norm)
        rest = norm[b:end]
        marks = list(_OUTCOME.finditer(rest))
        for j, m in enumerate(marks):
            stop = marks[j + 1].start() if j + 1 < len(marks) else len(rest)
            text = rest[m.end() : stop].strip(" 、。→")
            if not text or len(text) < 4 or re.match(r"^(?:が必要|が必須|で|を|に|の|\d|/)", text):
                continue  # 「ハード成功が必要」, 「成功0/失敗1D3」: not an outcome
            key = outcome_key(m.group(1))
            if checks[i].opposed and key in ("success", "failure"):
                key = {"success": "win", "failure": "lose"}[key]
            checks[i].outcomes.append(Outcome(key, _raw_slice(line, text), line.no))


def _raw_slice(line: Line, text: str) -> str:
    """The document's own words for a piece of the folded line, where they can be found."""
    if len(line.raw) == len(line.norm):
        i = line.norm.find(text)
        if i >= 0:
            return line.raw[i : i + len(text)]
    return text


def _context(prefix: str, line: Line) -> str:
    s = prefix
    s = re.sub(r"^[\s・\-*→☆★●○◆◇■□▼▽]+", "", s)
    s = re.sub(r"`?CCB?.*$", "", s)
    parts = [p for p in re.split(r"。", s) if p.strip()]
    s = parts[-1] if parts else ""
    s = re.sub(r"[\s:：→、(（`*]+$", "", s)
    s = re.sub(r"ので$|から$", "", s)
    s = re.sub(r"(?:場合|時|際|とき)(?:は|に)?$|には$|なら$|ならば$|を$|で$|に$|は$", "", s).strip(
        " 、"
    )
    s = re.sub(r"(?:その|この|ここ|そこ|全員|探索者)$", "", s).strip(" 、")
    if len(s) > 24:
        bits = [b for b in s.split("、") if b.strip()]
        s = bits[-1] if bits else s
    if len(s) > 24:
        s = s[:24] + "…"
    return _raw_slice(line, s) if s else ""


def outcome_line(line: Line) -> tuple[str, str] | None:
    """(key, text) when a line is an outcome of the check above it (成功：…, →×失敗 …)."""
    s = re.sub(r"^[\s・\-*]+", "", line.norm)
    m = _OUTCOME.match(s)
    if not m or m.start() != 0:
        return None
    word = m.group(1)
    if not re.match(r"^(?:→\s*)?(?:[◯○×✕☆★]\s*)?", s[: m.start(1)]):
        return None
    after = s[m.end(1) :]
    if (
        word in ("成功", "失敗")
        and re.match(r"^(?:したら|した場合|すれば|すると|なら|時|で|[:：→\s])", after) is None
        and after
        and after[0] not in "→:：、 "
    ):
        return None
    text = s[m.end() :].strip(" →")
    return outcome_key(word), _raw_slice(line, text) if text else ""


CHARS_SET = frozenset(CHARS)
