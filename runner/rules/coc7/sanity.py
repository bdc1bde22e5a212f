"""Sanity: X/Y rolls, temporary, indefinite and permanent insanity, bouts of madness."""

from __future__ import annotations

import functools
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import condition as cd
from runner.rules.coc7.tables import BOUTS_REALTIME, BOUTS_SUMMARY
from runner.rules.dice import DiceError, parse


def parse_loss(loss: str) -> tuple[str, str]:
    """Splits ``X/Y`` (each a number or dice notation: ``1/1d6``, ``0/1d3``, ``2/2d10``)."""
    if type(loss) is str:
        return _split_text(loss)  # the same few texts, game after game
    return _split_loss(loss)


def _split_loss(loss: Any) -> tuple[str, str]:
    parts = str(loss).replace("／", "/").split("/")
    if len(parts) != 2:
        raise RuleError(f"SAN loss {loss!r}: write it as X/Y, e.g. 1/1d6")
    try:
        for p in parts:
            parse(p.strip())
    except DiceError as e:
        raise RuleError(f"SAN loss {loss!r}: {e}") from None
    return parts[0].strip(), parts[1].strip()


_split_text = functools.lru_cache(maxsize=256)(_split_loss)


def _amount(ctx: Context, expr: str, label: str, maximum: bool = False) -> int:
    e = parse(expr)
    if maximum:
        return max(0, e.maximum)
    for term in e.terms:
        if term.count:
            return max(0, ctx.roll(expr, label=label).total)
    return max(0, e.minimum)  # no dice: a fixed loss


BOUT_MODES = {
    "": None,
    "auto": None,
    "realtime": True,
    "real": True,
    "リアルタイム": True,
    "summary": False,
    "サマリー": False,
}
"""How a story may ask for a bout: in real time (the danger is right there) or summarised."""


def bout(ctx: Context, pid: str, realtime: bool | None = None) -> dict[str, Any]:
    """Rolls a bout of madness (1D10 on the table, 1D10 rounds or hours) and narrates it.

    Real time in a fight (or when the story asks, the danger being right there), else the
    summary: the rules then take the investigator out of the player's hands for its length
    (:mod:`runner.rules.coc7.condition`)."""
    d = ck.data(ctx)
    if realtime is None:
        realtime = bool(d.get("combat"))
    table = BOUTS_REALTIME if realtime else BOUTS_SUMMARY
    n = ctx.roll("1d10", label=ck.t(ctx, "狂気の発作", "bout of madness")).total
    length = ctx.roll("1d10", label=ck.t(ctx, "発作の長さ", "bout length")).total
    ja, en = table[n - 1]
    unit_ja, unit_en = ("ラウンド", "rounds") if realtime else ("時間", "hours")
    s = ctx.state.stats[pid]
    d["bout_seq"] = d.get("bout_seq", 0) + 1
    s["cond"]["bout"] = {
        "roll": n,
        "length": length,
        "unit": "rounds" if realtime else "hours",
        "left": length,
        "seq": d["bout_seq"],
    }
    cd.recheck(ctx)
    ctx.say(
        ck.t(
            ctx,
            f"{s['name']}は狂気の発作に襲われる（{length}{unit_ja}）。{ja}",
            f"{s['name']} suffers a bout of madness ({length} {unit_en}). {en}",
        )
    )
    result: dict[str, Any] = s["cond"]["bout"]
    return result


_SEVERITY = {"": 0, "temporary": 1, "indefinite": 2, "permanent": 3}


def _set_insane(s: dict[str, Any], kind: str) -> bool:
    cur = s["cond"].get("insane", "")
    if _SEVERITY[kind] > _SEVERITY.get(cur, 0):
        s["cond"]["insane"] = kind
        return True
    return False


def san_check(
    ctx: Context, loss: str, who: str = "", source: str = "", hidden: Any = False, mode: Any = ""
) -> list[str]:
    """A Sanity roll with loss ``X/Y``; returns keys such as ["temporary","insane","failure"].

    Success loses X, failure Y, a fumble the maximum of Y. No bonus or penalty dice.
    5+ lost at once → INT roll (success: temporary insanity and a bout); a fifth of the
    day's starting SAN lost in one game day → indefinite; 0 → permanent. ``mode``: how a
    bout plays (``realtime``, ``summary``; default real time only in a fight).
    """
    x, y = parse_loss(loss)
    m = str(mode or "").strip().lower()
    if m not in BOUT_MODES:
        raise RuleError(f"bout mode {mode!r}: realtime or summary")
    realtime = BOUT_MODES[m]
    pid = ck.pc_id(ctx, who)
    s = ctx.state.stats[pid]
    d = ck.data(ctx)
    day = int(getattr(ctx.state, "clock", 0) or 0) // 1440
    if d.get("day") != day:
        d["day"], d["day_loss"], d["day_start"] = day, {}, {}
    d["day_start"].setdefault(pid, s["san"])
    en = ck.lang(ctx) == "en"  # only that language's lines are built
    r = ck.roll_d100(
        ctx,
        s["san"],
        label="Sanity roll" if en else "正気度ロール",
        hidden=bool(hidden),
        who=pid,
        san=True,
    )
    level = r["level"]
    ok = ck.RANK[level] >= 1
    amount = _amount(
        ctx, x if ok else y, "SAN loss" if en else "正気度喪失", maximum=(level == "fumble")
    )
    cap = ck.option(ctx, "san_cap", False)
    if source and cap:
        # 7e keeper guidance (ruling DA-15): a creature never costs more in total than its worst.
        limit = parse(y).maximum
        got = d["san_by_source"].get(source, 0)
        amount = max(0, min(amount, limit - got))
    if source:
        d["san_by_source"][source] = d["san_by_source"].get(source, 0) + amount
    before = s["san"]
    s["san"] = max(0, before - amount)
    lost = before - s["san"]
    d["day_loss"][pid] = d["day_loss"].get(pid, 0) + lost
    d["last_san"] = {"who": pid, "lost": lost, "level": level, "san": s["san"]}
    ctx.say(
        f"{s['name']}'s SAN {before} → {s['san']} (-{lost})"
        if en
        else f"{s['name']}の正気度 {before} → {s['san']}（-{lost}）"
    )
    keys = ["success"] if ok else (["fumble", "failure"] if level == "fumble" else ["failure"])
    mad: list[str] = []
    if s["san"] == 0:
        _set_insane(s, "permanent")
        mad.append("permanent")
        ctx.say(
            ck.t(
                ctx,
                f"{s['name']}の正気は完全に失われた（永久的狂気）。",
                f"{s['name']} is permanently insane.",
            )
        )
    else:
        start = d["day_start"][pid]
        if lost > 0 and d["day_loss"][pid] * 5 >= start and s["cond"].get("insane") != "indefinite":
            _set_insane(s, "indefinite")
            mad.append("indefinite")
            ctx.say(
                ck.t(
                    ctx,
                    f"{s['name']}は不定の狂気に陥る。",
                    f"{s['name']} falls into indefinite insanity.",
                )
            )
            bout(ctx, pid, realtime)
        if lost >= 5:
            ir = ck.check(ctx, "INT", "regular", 0, pid)
            d["last"]["pushable"] = False
            if "success" in ir:
                _set_insane(s, "temporary")
                mad.append("temporary")
                ctx.say(
                    ck.t(
                        ctx,
                        f"{s['name']}は恐怖の意味を理解してしまった（一時的狂気）。",
                        f"{s['name']} understands too well: temporary insanity.",
                    )
                )
                if "indefinite" not in mad:
                    bout(ctx, pid, realtime)
            elif "indefinite" in mad:
                # The INT roll is about temporary insanity only: the indefinite insanity
                # that this same loss brought on stays.
                ctx.say(
                    ck.t(
                        ctx,
                        "心はその瞬間の記憶を押し込めた。一時的狂気にはならなかったが、不定の狂気は消えない。",
                        "The mind buries the moment: no temporary insanity, but the "
                        "indefinite insanity remains.",
                    )
                )
            else:
                ctx.say(
                    ck.t(
                        ctx,
                        "心が記憶を押し込め、一時的狂気は免れた。",
                        "The mind buries the memory: no temporary insanity.",
                    )
                )
    if mad:
        return [*mad, "insane", *keys]
    return keys


def san_all(ctx: Context, loss: str, source: str = "", mode: Any = "") -> list[str]:
    """A Sanity roll for every investigator still alive; returns the active one's keys."""
    active = ck.pc_id(ctx)
    out: list[str] = []
    for pid in ck.pc_ids(ctx):
        if ctx.state.stats[pid]["cond"].get("dead"):
            continue
        keys = san_check(ctx, loss, pid, source, False, mode)
        if pid == active:
            out = keys
    return out
