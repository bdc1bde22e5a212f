"""What the document says about itself: title, edition, players, play time, recommended
skills."""

from __future__ import annotations

import re

from runner.importer.model import Line
from runner.importer.skills import canonical, is_known

_NOISE = re.compile(
    r"クトゥルフ神話TRPG|新クトゥルフ神話TRPG|CoC\s*7th|CoC\s*6th|CoC\s*[67]版?|CoC|シナリオ置き場|"
    r"シナリオ|第?[67]版(?:対応)?|7th|6th|タイマン|用|対応",
    re.I,
)


def title(lines: list[Line], html_title: str = "", first_heading: str = "") -> str:
    for ln in lines[:12]:
        m = re.search(r"『([^』]{1,40})』", ln.raw) or re.fullmatch(
            r"[\s\u3000]*「([^」]{1,40})」[\s\u3000]*", ln.raw
        )
        if m:
            return m.group(1).strip()
        m = re.match(r"^(?:シナリオ名|タイトル|題名)\s*[:：]\s*(.+)$", ln.norm)
        if m:
            return _clean(m.group(1))
    for cand in (first_heading, html_title):
        t = _clean(cand)
        if t:
            return t
    for ln in lines[:3]:
        if heading_like(ln):
            continue
        t = _clean(ln.raw)
        if t and len(t) <= 40 and "。" not in t:
            return t
    return ""


def heading_like(ln: Line) -> bool:
    from runner.importer.sections import classify, heading

    h = heading(ln)
    return h is not None and classify(h[1]) not in ("unknown", "place")


def _clean(t: str) -> str:
    t = re.sub(
        r"^[【\[［<＜]([^】\]］>＞]*(?:TRPG|CoC|シナリオ|版|7th|6th)[^】\]］>＞]*)[】\]］>＞]\s*",
        "",
        t.strip(),
        flags=re.I,
    )
    t = re.split(r"\s*[―—|｜]\s*|\s+-\s+", t.strip())[0]
    t = re.sub(r"[（(][^）)]*(?:TRPG|版|CoC|シナリオ)[^）)]*[）)]", "", t)
    t = re.sub(r"^#+\s*", "", t)
    t2 = _NOISE.sub("", t).strip(" \u3000:：・「」『』")
    return t2 if t2 else t.strip()


def edition(lines: list[Line]) -> int | None:
    text = "\n".join(ln.norm for ln in lines[:60])
    six = re.search(r"第?6版|6th|CoC6|クトゥルフ神話TRPG\(6", text, re.I)
    seven = re.search(r"第?7版|7th|CoC7|新クトゥルフ|7版", text, re.I)
    if six and seven:
        return 6 if six.start() < seven.start() else 7
    if six:
        return 6
    if seven:
        return 7
    whole = "\n".join(ln.norm for ln in lines)
    if len(re.findall(r"(?:STR|CON|DEX|POW|EDU|INT|SIZ|APP)\s*[×xX*]\s*\d", whole)) >= 2:
        return 6
    if re.search(r"ハード|イクストリーム|ボーナス・?ダイス|ペナルティ・?ダイス", whole):
        return 7
    return None


def players(lines: list[Line]) -> str:
    for ln in lines[:80]:
        raw = re.sub(r"\*\*|__", "", ln.raw).replace("　", " ")
        m = re.search(
            r"(?:プレイ人数|PL人数|推奨人数|参加人数|人数|PL数|プレイヤー数)\s*[:：|｜]?\s*\|?\s*"
            r"(?:[^\s|｜、。,\d]{0,3}?)(\d+\s*(?:[~〜～\-ー－]\s*\d+)?\s*人)",
            raw,
        )
        if m:
            return m.group(1).strip()
        m = re.search(r"(\d+\s*[~〜～\-ー－]\s*\d+\s*人|\d+\s*人)(?:用|向け)?", ln.raw)
        if m and re.search(r"人数|PL|プレイヤー|/", ln.raw):
            return m.group(1).strip()
        if re.search(r"タイマン|ソロ(?:シナリオ|用|向け)|1人用", ln.norm):
            return "1人"
    return ""


def play_time(lines: list[Line]) -> str:
    for ln in lines[:80]:
        m = re.search(
            r"(?:プレイ時間|想定時間|所要時間|想定プレイ時間|時間)\s*[:：|｜]?\s*\|?\s*([^|｜\n]*?\d+\s*(?:[~〜～\-]\s*\d+)?\s*時間[^|｜\n、。]{0,6})",
            re.sub(r"\*\*|__", "", ln.raw).replace("　", " "),
        )
        if m and not re.search(r"探索|経過|につき", ln.norm):
            return m.group(1).strip()
    return ""


def recommended(lines: list[Line]) -> list[str]:
    for ln in lines[:80]:
        m = re.search(r"推奨(?:技能)?\s*[:：|｜]?\s*(.+)$", ln.norm)
        if not m:
            continue
        out = []
        for part in re.split(r"[、,/・\s<>〈〉《》【】\[\]「」|]+", m.group(1)):
            part = part.strip()
            if part and is_known(part) and canonical(part) not in out:
                out.append(canonical(part))
        if out:
            return out
    return []
