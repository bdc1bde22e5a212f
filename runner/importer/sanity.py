"""Sanity rolls in every spelling: SANc 0/1d3, SANチェック(1/1D4), 正気度ロール 0/1,
【正気度喪失:1/1d6】, 【SAN 1/1d6+1】, 「SAN0/1くらいで」, 0/1のSANチェック,
SANチェック（成功0／失敗1D3）. Not rolls: SAN回復 1d6, 報酬, a fixed loss with no
roll (正気度1D3を失う), damage written as [0/1d3] with no SAN word.
"""

from __future__ import annotations

import re

from runner.importer.model import Line, SanRoll

_DICE = r"\d+(?:d\d+)?(?:[+\-]\d+(?:d\d+)?)*"
_WORD = (
    r"(?:SAN値?\s*(?:チェック|ロール|判定|[cC](?![a-zA-Z]))?|正気度\s*(?:\(SAN\))?\s*(?:ポイント)?\s*"
    r"(?:ロール|チェック|判定|喪失|減少|の?喪失)?|サンチェック|SANC)"
)
_LOSS = rf"(?P<s>{_DICE})\s*/\s*(?P<f>{_DICE})"
_AFTER = re.compile(
    rf"(?P<w>{_WORD})\s*[】\]]?\s*[:=]?\s*[(\[「『【]?\s*(?:[。、]\s*[「『(]?\s*)?{_LOSS}"
)
_BEFORE = re.compile(rf"{_LOSS}\s*(?:の|で)?\s*(?P<w>{_WORD})")
_SPLIT = re.compile(
    rf"(?P<w>{_WORD})\s*[:]?\s*[(\[【]?\s*成功(?:時)?\s*[:]?\s*(?P<s>{_DICE})\s*[/、,・\s]\s*失敗(?:時)?\s*[:]?\s*(?P<f>{_DICE})"
)
_NOT = re.compile(r"回復|報酬|上限|最大値|現在値")
_EVERYONE = re.compile(r"全員|全ての探索者|すべての探索者|見た者|見た探索者|目撃した|聞いた者")


def find(line: Line) -> list[SanRoll]:
    norm = line.norm
    out: list[SanRoll] = []
    spans: list[tuple[int, int]] = []
    for rx in (_SPLIT, _AFTER, _BEFORE):
        for m in rx.finditer(norm):
            if any(not (m.end() <= a or m.start() >= b) for a, b in spans):
                continue
            window = norm[max(0, m.start() - 6) : m.end() + 6]
            if _NOT.search(window):
                continue
            w = m.group("w")
            if (
                w.startswith("正気度")
                and not re.search(r"ロール|チェック|判定|喪失|減少|SAN", w)
                and rx is not _SPLIT
            ):
                # 「正気度 1/1d6」 alone is still a roll only right before the loss
                if rx is _BEFORE:
                    continue
            s, f = m.group("s"), m.group("f")
            spans.append((m.start(), m.end()))
            out.append(
                SanRoll(
                    s,
                    f,
                    line.no,
                    line.raw,
                    _context(norm[: m.start()]),
                    bool(_EVERYONE.search(norm)),
                )
            )
    out.sort(key=lambda r: norm.find(r.success))
    return out


def is_loss_line(norm: str) -> bool:
    """A SAN word with a number but no roll we could read: worth reporting as unplaced."""
    return (
        bool(re.search(_WORD, norm))
        and bool(re.search(r"\d", norm))
        and not _NOT.search(norm)
        and bool(re.search(r"SANc|SANチェック|正気度ロール|SAN判定|正気度喪失", norm))
    )


def _context(prefix: str) -> str:
    s = re.sub(r"^[\s・\-*→☆★]+", "", prefix)
    parts = [p for p in s.split("。") if p.strip()]
    s = parts[-1] if parts else ""
    s = re.sub(r"[\s:：→、(（「【*]+$", "", s)
    s = re.sub(r"(?:場合|時|際|とき)(?:は|に)?$|には$|は$|も$|として$", "", s).strip(" 、")
    return s[:24] + ("…" if len(s) > 24 else "")


def normal_dice(s: str) -> str:
    return re.sub(r"\s+", "", s.lower())
