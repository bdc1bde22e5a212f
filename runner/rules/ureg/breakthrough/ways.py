"""Resolving a proposal against one obstacle: the story's own ways first, then the generic
rules (reach, poke, break, unlock, light, gap, narrow, heavy); and modifications (加工)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.breakthrough.obstacles import fixtures, ob_name
from runner.rules.ureg.breakthrough.platforms import forms, reach_attempt
from runner.rules.ureg.breakthrough.proposal import Proposal
from runner.rules.ureg.breakthrough.words import fold


@dataclass
class Verdict:
    ok: bool
    text: str
    text_en: str
    way: dict[str, Any] | None = None


def _t(ctx: Context, v: Verdict) -> str:
    return v.text_en if C.lang(ctx) == "en" else v.text


def _tools(ctx: Context, items: list[str], kind: str) -> list[str]:
    return [i for i in items if kind in (A.item_props(ctx.story, i).get("tools") or [])]


def _needs_ok(ctx: Context, item: str) -> tuple[bool, str, str]:
    need = A.item_props(ctx.story, item).get("needs")
    if not need:
        return True, "", ""
    held = A.held(ctx.state)
    has_manual = any(A.item_props(ctx.story, i).get("expertise") for i in held)
    for alt in str(need).split("|"):
        if alt == "manual" and has_manual:
            return True, "", ""
        if alt != "manual" and C.has_ability(ctx, alt):
            return True, "", ""
    name = A.item_name(ctx.story, item, "ja")
    return (
        False,
        f"{name}を安全に使うには専門知識が要る",
        f"the {A.item_name(ctx.story, item, 'en')} needs expert knowledge to use safely",
    )


def _way_matches(
    ctx: Context, way: dict[str, Any], prop: Proposal, usable: set[str]
) -> bool | None:
    """True: the proposal names this way and it works; False: named but not met; None: not named."""
    items = C.split(way.get("items"))
    words = [fold(str(w)) for w in (way.get("words") or [])]
    intents = C.split(way.get("intents"))
    if not (items or words or intents):
        return None
    named = True
    if items:
        named = set(items) <= set(prop.items) | set(prop.missing)
    if words:
        named = named and any(w in fold(prop.text) for w in words)
    if intents:
        named = named and bool(set(intents) & prop.intents)
    if not named:
        return None
    if not set(items) <= usable:
        return False
    abil = C.split(way.get("abilities"))
    if abil and not any(C.has_ability(ctx, a) for a in abil):
        return False
    # Story variables that must be true (e.g. an ally who follows the party).
    story_vars = A.get(ctx.state, "vars") or {}
    if any(not story_vars.get(v) for v in C.split(way.get("vars"))):
        return False
    for item, form in A.as_dict(way.get("mods")).items():
        if C.value(ctx, "mods").get(item) != form:
            return False
    return True


def resolve(ctx: Context, oid: str, ob: dict[str, Any], prop: Proposal) -> Verdict | None:
    """Tries the story's ways, then the generic rules; None when nothing applies."""
    usable = set(A.held(ctx.state)) | set(fixtures(ctx, ob))
    best_fail: Verdict | None = None
    for way in ob.get("ways") or []:
        way = A.as_dict(way)
        m = _way_matches(ctx, way, prop, usable)
        if m:
            return Verdict(True, way.get("say", ""), way.get("say_en", way.get("say", "")), way)
        if m is False and best_fail is None:
            best_fail = Verdict(
                False,
                way.get("fail", "その方法はまだうまくいかない。"),
                way.get("fail_en", "That does not work yet."),
            )
    for rule in (_reach, _poke, _break, _unlock, _light, _gap, _narrow, _heavy):
        v = rule(ctx, ob, prop, usable)
        if v is not None:
            if v.ok:
                return v
            best_fail = best_fail or v
    return best_fail


def _people(ctx: Context, prop: Proposal) -> list[str]:
    named = [p for p in prop.pcs if p in C.active_pcs(ctx)]
    return named if named else C.active_pcs(ctx)


def _reach(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if ob.get("height") is None:
        return None
    plats = [i for i in prop.items if i in usable and forms(ctx, i)]
    others = [i for i in prop.items if i not in plats]
    it = prop.intents
    if not plats and not it & {"climb", "shoulder", "jump"}:
        return None
    if others and not plats and not it & {"climb", "shoulder", "jump"}:
        return None
    if "shoulder" in it:
        how = "shoulder,standing_shoulder"
    elif "jump" in it:
        how = "run_touch" if "run" in it else "touch"
    elif "climb" in it or plats:
        how = "stand"
    else:
        how = ""
    ok, att = reach_attempt(
        ctx,
        ob["height"],
        plats,
        _people(ctx, prop),
        how,
        run_up_room=ob.get("run_up", True) is not False,
        pull_up=bool(ob.get("pull_up")),
    )
    if att is None:
        return Verdict(False, "それでは高さが足りない。", "That is not high enough.")
    ja, en = att.explain("ja"), att.explain("en")
    if ok and att.stance in ("touch", "run_touch") and not ob.get("touch"):
        return Verdict(
            False,
            f"{ja}。跳んで一瞬触れるだけでは足りない。",
            f"{en}. A momentary touch is not enough here.",
        )
    if ok:
        return Verdict(True, f"{ja}。届いた！", f"{en}. You reach it!")
    return Verdict(False, f"{ja}。届かない。", f"{en}. Out of reach.")


def _poke(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if not ob.get("poke") or ob.get("height") is None:
        return None
    longs = [i for i in prop.items if i in usable and A.item_props(ctx.story, i).get("length")]
    if not longs:
        return None
    joined = next((j for j in C.value(ctx, "joined") if set(longs) & set(j)), None)
    parts = joined if joined else longs[:1]
    length = sum((P.metres(A.item_props(ctx.story, i)["length"]) for i in parts), Fraction(0))
    pcs = [C.character(ctx, c) for c in _people(ctx, prop)]
    best = max(pcs, key=P.reach)
    total = P.reach(best) + length
    target = P.metres(ob["height"])
    names = "+".join(A.item_name(ctx.story, i) for i in parts)
    names_en = "+".join(A.item_name(ctx.story, i, "en") for i in parts)
    rel = "≥" if total >= target else "<"
    ja = f"手の届く高さ {P.fmt(P.reach(best))} m + {names} {P.fmt(length)} m = {P.fmt(total)} m {rel} {P.fmt(target)} m"
    en = f"reach {P.fmt(P.reach(best))} m + {names_en} {P.fmt(length)} m = {P.fmt(total)} m {rel} {P.fmt(target)} m"
    return Verdict(
        total >= target,
        ja + ("。届いた！" if total >= target else "。届かない。"),
        en + (". It reaches!" if total >= target else ". Out of reach."),
    )


def _break(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if "break" not in prop.intents:
        return None
    name = ob_name(ctx, ob, "")
    if not ob.get("breakable") and not ob.get("sturdy"):
        return Verdict(False, f"{name}は壊せそうにない。", f"The {name} will not break.")
    tools = _tools(ctx, [i for i in prop.items if i in usable], "break")
    for tool in tools:
        ok, why, why_en = _needs_ok(ctx, tool)
        if not ok:
            return Verdict(False, why + "。", why_en + ".")
        tn = A.item_name(ctx.story, tool)
        return Verdict(
            True,
            f"{tn}で{name}を壊した！",
            f"You smash the {name} with the {A.item_name(ctx.story, tool, 'en')}!",
        )
    if ob.get("sturdy"):
        return Verdict(
            False,
            f"{name}は頑丈で、素手や力任せでは壊せない。",
            f"The {name} is sturdy: bare hands and brute force will not break it.",
        )
    if C.has_ability(ctx, "強力", ",".join(_people(ctx, prop))):
        return Verdict(
            True, f"〈○強力〉の力で{name}を壊した！", f"〈○Strong〉 muscles break the {name}!"
        )
    return Verdict(False, f"素手では{name}を壊せない。", f"Bare hands cannot break the {name}.")


def _lock(ob: dict[str, Any]) -> dict[str, Any]:
    lk = ob.get("lock")
    if isinstance(lk, str):
        return {"key": lk}
    return A.as_dict(lk)


def _unlock(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    lk = _lock(ob)
    if not lk or not prop.intents & {"unlock", "open"} and not prop.items:
        return None
    name = ob_name(ctx, ob, "")
    keys = C.split(lk.get("key"))
    for k in keys:
        if k in prop.items and k in usable:
            return Verdict(
                True,
                f"{A.item_name(ctx.story, k)}で{name}の鍵を開けた。",
                f"The {A.item_name(ctx.story, k, 'en')} opens the {name}.",
            )
    picks = _tools(ctx, [i for i in prop.items if i in usable], "pick")
    if not picks and "open" in prop.intents and not prop.items and "unlock" not in prop.intents:
        return Verdict(False, f"{name}には鍵がかかっている。", f"The {name} is locked.")
    if picks or "unlock" in prop.intents:
        if lk.get("safety") or lk.get("pick") is False:
            return Verdict(
                False,
                f"{name}の錠は鍵開けができない作りだ。",
                f"The {name}'s lock cannot be picked.",
            )
        if not picks:
            if not prop.items:
                return Verdict(False, f"{name}には鍵がかかっている。", f"The {name} is locked.")
            return None
        if not C.has_ability(ctx, "器用", ",".join(_people(ctx, prop))):
            return Verdict(
                False,
                "鍵開けには〈○器用〉な手先が要る。",
                "Picking a lock takes 〈○Dexterous〉 hands.",
            )
        return Verdict(
            True,
            f"{A.item_name(ctx.story, picks[0])}で{name}の鍵を開けた。",
            f"You pick the {name}'s lock with the {A.item_name(ctx.story, picks[0], 'en')}.",
        )
    return None


def _light(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if not ob.get("dark"):
        return None
    lights = [
        i
        for i in prop.items
        if i in usable
        and (
            A.item_props(ctx.story, i).get("light")
            or A.item_props(ctx.story, i).get("fire")
            or C.value(ctx, "mods").get(i) == "lit"
        )
    ]
    if lights:
        return Verdict(
            True,
            f"{A.item_name(ctx.story, lights[0])}で照らした。",
            f"You light the way with the {A.item_name(ctx.story, lights[0], 'en')}.",
        )
    if "light" in prop.intents:
        return Verdict(False, "照らす物がない。", "You have nothing to light it with.")
    if C.has_ability(ctx, "夜目", ",".join(_people(ctx, prop))) and not prop.items:
        return Verdict(
            True,
            "〈○夜目〉で暗がりを白黒に見通した。",
            "〈○Night-eyed〉, you see through the dark in black and white.",
        )
    return None


def _gap(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if ob.get("gap") is None or not prop.intents & {"jump", "cross"} and not prop.items:
        return None
    gap = P.metres(ob["gap"])
    longs = [i for i in prop.items if i in usable and A.item_props(ctx.story, i).get("length")]
    for i in longs:
        ln = P.metres(A.item_props(ctx.story, i)["length"])
        rel = "≥" if ln >= gap else "<"
        ja = f"{A.item_name(ctx.story, i)} {P.fmt(ln)} m {rel} 隙間 {P.fmt(gap)} m"
        en = f"{A.item_name(ctx.story, i, 'en')} {P.fmt(ln)} m {rel} gap {P.fmt(gap)} m"
        if ln >= gap:
            return Verdict(True, ja + "。橋が架かった。", en + ". A bridge!")
        return Verdict(False, ja + "。短すぎる。", en + ". Too short.")
    if not prop.intents & {"jump", "cross"}:
        return None
    run = "run" in prop.intents and ob.get("run_up", True) is not False
    lines, lines_en, ok = [], [], True
    for c in _people(ctx, prop):
        ch = C.character(ctx, c)
        j = P.long_jump(ch, run)
        ok &= j >= gap
        lines.append(f"{ch.label} {P.fmt(j)} m")
        lines_en.append(f"{ch.label} {P.fmt(j)} m")
    kind = ("助走付き幅跳び", "running long jump") if run else ("幅跳び", "long jump")
    ja = f"{kind[0]}：{'、'.join(lines)}（隙間 {P.fmt(gap)} m）"
    en = f"{kind[1]}: {', '.join(lines_en)} (gap {P.fmt(gap)} m)"
    return Verdict(
        ok,
        ja + ("。跳び越えた！" if ok else "。届かない。"),
        en + (". Across!" if ok else ". Too short."),
    )


def _narrow(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if not ob.get("narrow") or not prop.intents & {"squeeze", "climb", "move"} and not prop.pcs:
        return None
    # The party moves as one: everyone in the space has to fit, not just the one named.
    party = C.active_pcs(ctx)
    too_big = [c for c in party if not C.has_ability(ctx, "小柄", c)]
    if not too_big:
        return Verdict(
            True, "〈○小柄〉な体で狭い隙間を抜けた。", "〈○Small〉 enough, you slip through."
        )
    if len(too_big) == len(party):
        return Verdict(False, "普通の体では狭すぎて通れない。", "Too narrow for an ordinary body.")
    names = [C.character(ctx, c).label for c in too_big]
    return Verdict(
        False,
        f"{'と'.join(names)}は〈○小柄〉ではなく、狭すぎて一緒に通れない。",
        f"{', '.join(names)} not 〈○Small〉: too narrow to come through together.",
    )


def _heavy(ctx: Context, ob: dict[str, Any], prop: Proposal, usable: set[str]) -> Verdict | None:
    if not ob.get("heavy") or "move" not in prop.intents:
        return None
    tools = [
        i
        for i in prop.items
        if i in usable and set(A.item_props(ctx.story, i).get("tools") or []) & {"lift", "lever"}
    ]
    if tools:
        return Verdict(
            True,
            f"{A.item_name(ctx.story, tools[0])}を使って動かした。",
            f"With the {A.item_name(ctx.story, tools[0], 'en')} it moves.",
        )
    if C.has_ability(ctx, "強力", ",".join(_people(ctx, prop))):
        return Verdict(True, "〈○強力〉の力で動かした。", "〈○Strong〉 arms shift it.")
    return Verdict(False, "重すぎて、素手では動かない。", "Too heavy to move bare-handed.")


def modify(ctx: Context, prop: Proposal) -> Verdict | None:
    r = C.R(ctx)
    items = [i for i in prop.items if i in A.held(ctx.state) or i in fixtures(ctx)]
    it = prop.intents
    pcs = ",".join(_people(ctx, prop))
    if "bend" in it:
        target = next((i for i in items if A.item_props(ctx.story, i).get("bendable")), None)
        if target is None:
            return None
        tool = next((i for i in _tools(ctx, items, "bend") + _tools(ctx, items, "lever")), None)
        tname = A.item_name(ctx.story, target)
        if tool is None and not (C.has_ability(ctx, "強力", pcs)):
            return Verdict(
                False,
                f"道具なしでは{tname}は曲がらない。",
                f"The {A.item_name(ctx.story, target, 'en')} will not bend without a tool.",
            )
        r["mods"][target] = "bent"
        how = f"{A.item_name(ctx.story, tool)}を使い、" if tool else "〈○強力〉の力で"
        return Verdict(
            True,
            f"{how}{tname}を中央で「く」の字に曲げた。",
            f"You bend the {A.item_name(ctx.story, target, 'en')} in the middle.",
        )
    if "join" in it:
        longs = [
            i
            for i in items
            if A.item_props(ctx.story, i).get("length")
            and not set(A.item_props(ctx.story, i).get("tools") or []) & {"bind"}
        ]
        binders = [
            i
            for i in A.held(ctx.state)
            if set(A.item_props(ctx.story, i).get("tools") or []) & {"bind", "glue"}
        ]
        if len(longs) < 2:
            return None
        if not binders:
            return Verdict(False, "繋ぎ合わせる物がない。", "You have nothing to join them with.")
        r["joined"] = [j for j in r["joined"] if not set(j) & set(longs)] + [longs]
        length = sum((P.metres(A.item_props(ctx.story, i)["length"]) for i in longs), Fraction(0))
        names = "と".join(A.item_name(ctx.story, i) for i in longs)
        return Verdict(
            True,
            f"{A.item_name(ctx.story, binders[0])}で{names}を繋いだ（長さ {P.fmt(length)} m）。",
            f"You join them with the {A.item_name(ctx.story, binders[0], 'en')} ({P.fmt(length)} m long).",
        )
    if "light" in it:
        candle = next((i for i in items if A.item_props(ctx.story, i).get("needs_fire")), None)
        if candle is None:
            return None
        fire = next((i for i in A.held(ctx.state) if A.item_props(ctx.story, i).get("fire")), None)
        if fire is None:
            return Verdict(False, "火がない。", "You have no fire.")
        r["mods"][candle] = "lit"
        return Verdict(
            True,
            f"{A.item_name(ctx.story, fire)}で{A.item_name(ctx.story, candle)}に火を灯した。",
            f"You light the {A.item_name(ctx.story, candle, 'en')}.",
        )
    if it & {"spread", "fold", "open"}:
        target = next(
            (i for i in items if len(A.item_props(ctx.story, i).get("platform") or []) > 1), None
        )
        if target is None:
            return None
        form = "step" if "fold" in it else "ladder"
        r["mods"][target] = form
        return Verdict(
            True,
            f"{A.item_name(ctx.story, target)}を{'踏み台にした' if form == 'step' else '開いて梯子にした'}。",
            f"The {A.item_name(ctx.story, target, 'en')} is now a {'step' if form == 'step' else 'ladder'}.",
        )
    return None
