"""The entry point: a proposal tried on the obstacles here (look and take, a breakthrough,
a modification or a fight), what is said back, and hints."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.breakthrough.obstacles import active, fixtures, ob_name
from runner.rules.ureg.breakthrough.proposal import Proposal, parse
from runner.rules.ureg.breakthrough.ways import Verdict, _lock, _people, _t, modify, resolve
from runner.rules.ureg.breakthrough.words import LOOK_ONLY, STRONG_INTENTS, TAKE_ONLY, fold
from runner.rules.ureg.items import CATALOGUE


def solve_obstacle(ctx: Context, oid: str, ob: dict[str, Any], v: Verdict) -> None:
    r = C.R(ctx)
    if oid not in r["solved"]:
        r["solved"].append(oid)
    text = _t(ctx, v)
    if text:
        ctx.say(text, id=f"ureg.breakthrough.{oid}")
    extra = ob.get("say_en" if C.lang(ctx) == "en" else "say") or ob.get("say")
    if extra:
        ctx.say(extra, id=f"ureg.obstacle.{oid}")
    run_story_effects(ctx, (v.way or {}).get("effects"), ob.get("effects"))


def run_story_effects(ctx: Context, *lists: Any) -> None:
    """Runs effect data the story holds, one list after the other, each passed as it is:
    the engine compiles a list once and knows it again the next time (a list put together
    afresh on each call would be compiled on each call)."""
    for effects in lists:
        if effects:
            ctx.run_effects(effects if isinstance(effects, list) else list(effects))


SAID = "said"
"""What :func:`propose` returns for words only (a look at something): no turn is spent."""


# What kind of obstacle an intent is about: with several obstacles here and none named,
# the one the proposal fits is meant (「針金で鍵を開ける」 in a hall with a locked door and
# broken stairs is about the door).
_FITS: dict[str, tuple[str, ...]] = {
    "unlock": ("lock",),
    "open": ("lock",),
    "break": ("breakable", "sturdy"),
    "climb": ("height",),
    "shoulder": ("height",),
    "jump": ("height", "gap"),
    "cross": ("gap",),
    "squeeze": ("narrow",),
    "light": ("dark",),
    "move": ("heavy",),
    "poke": ("poke",),
    "fight": ("fight",),
}


def _fitting(acts: dict[str, dict[str, Any]], intents: set[str]) -> list[str]:
    keys = {k for i in intents for k in _FITS.get(i, ())}
    if not keys:
        return []
    return [
        oid for oid, ob in acts.items() if any(ob.get(k) not in (None, False, "") for k in keys)
    ]


def _missing_names(ctx: Context, missing: list[str]) -> tuple[str, str]:
    names = "、".join(
        f"「{A.item_name(ctx.story, i) if i not in CATALOGUE or A.story_item(ctx.story, i) else CATALOGUE[i].name}」"
        for i in missing
    )
    names_en = ", ".join(
        A.item_name(ctx.story, i, "en")
        if A.story_item(ctx.story, i) or i not in CATALOGUE
        else CATALOGUE[i].name_en
        for i in missing
    )
    return names, names_en


def _look(ctx: Context, prop: Proposal, acts: dict[str, dict[str, Any]]) -> bool | str:
    """A look at what the proposal names (「窓を調べる」): what can be seen of it, and no
    turn. Nothing named: not understood (False)."""
    en = C.lang(ctx) == "en"
    said = False
    for oid in prop.obstacles:
        ob = acts.get(oid)
        if ob is None:
            continue
        name = ob_name(ctx, ob, oid)
        text = ob.get("look_en" if en else "look") or ob.get("look")
        if not text:
            seen = []
            if ob.get("height") is not None:
                seen.append(
                    (
                        f"床から {P.fmt(P.metres(ob['height']))} m の高さにある",
                        f"it is {P.fmt(P.metres(ob['height']))} m above the floor",
                    )
                )
            if ob.get("gap") is not None:
                seen.append(
                    (
                        f"幅は {P.fmt(P.metres(ob['gap']))} m",
                        f"it is {P.fmt(P.metres(ob['gap']))} m across",
                    )
                )
            if _lock(ob):
                seen.append(("鍵がかかっている", "it is locked"))
            if ob.get("narrow"):
                seen.append(("ひどく狭い", "it is very narrow"))
            if ob.get("dark"):
                seen.append(("暗くて先が見えない", "it is too dark to see"))
            if ob.get("heavy"):
                seen.append(("ひどく重そうだ", "it looks very heavy"))
            if en:
                text = (
                    f"The {name}: "
                    + ("; ".join(e for _, e in seen) or "nothing more to see")
                    + ". Say how you would get past it, and with what."
                )
            else:
                text = (
                    f"「{name}」："
                    + ("、".join(j for j, _ in seen) or "これといって変わったところはない")
                    + "。どう突破するか、何を使うか、具体的に提案してみよう。"
                )
        ctx.say(text, id=f"ureg.look.{oid}")
        said = True
    for item in prop.items:
        desc = "" if en else str(A.get(A.story_item(ctx.story, item), "description") or "")
        name = A.item_name(ctx.story, item, "en" if en else "ja")
        ctx.say(desc or (f"The {name}." if en else f"「{name}」。"), id=f"ureg.look.{item}")
        said = True
    return SAID if said else False  # a thing not at hand: the engine's "not understood"


def propose(ctx: Context, text: str) -> bool | str:
    """Handles a free proposal; False when nothing in it was recognised, :data:`SAID` when it
    was only looked at (no turn)."""
    prop = parse(ctx, text)
    # A thing the players have not found is a word they could not know (#13 item 25):
    # 「梯子は手元にない」 would tell them there is a ladder somewhere.
    prop.missing[:] = [i for i in prop.missing if C.found(ctx, i)]
    if "hint" in prop.intents and not prop.items:
        # The player may say what the hint should be about (an obstacle named).
        give_hint(ctx, next(iter(prop.obstacles), None))
        return True
    acts = active(ctx)
    if prop.intents and prop.intents <= LOOK_ONLY:
        return _look(ctx, prop, acts)  # looking is no breakthrough
    if prop.intents and prop.intents <= TAKE_ONLY and not prop.obstacles:
        # Taking things is what the story's actions do; what is already in hand is said so.
        if prop.items and not prop.missing:
            names = "、".join(f"「{A.item_name(ctx.story, i)}」" for i in prop.items)
            names_en = ", ".join(A.item_name(ctx.story, i, "en") for i in prop.items)
            ctx.say(
                f"You already have: {names_en}."
                if C.lang(ctx) == "en"
                else f"{names}はもう手元にある。",
                id="ureg.have",
            )
            return SAID
        return False
    targets = [o for o in prop.obstacles if o in acts]
    if not targets and not prop.obstacles:
        mod = modify(ctx, prop)
        if mod is not None:
            ctx.say(_t(ctx, mod), id="ureg.modify")
            return True
        fitting = _fitting(acts, prop.intents)
        if len(acts) > 1 and len(fitting) == 1:
            targets = fitting
        elif (
            len(acts) == 1
            and not ("unlock" in prop.intents and not fitting)
            and (
                prop.items
                or prop.intents & STRONG_INTENTS
                or ("fight" in prop.intents and next(iter(acts.values())).get("fight"))
            )
        ):
            targets = list(acts)
    if not prop.items and not prop.missing and not targets and not prop.obstacles:
        return False
    lang_en = C.lang(ctx) == "en"
    if prop.missing:
        # Everything the proposal names takes part, or it is said what is not at hand: a
        # plan that silently drops the ladder it names is not the player's plan.
        names, names_en = _missing_names(ctx, prop.missing)
        ctx.say(
            f"You do not have: {names_en}." if lang_en else f"{names}は手元にない。",
            id="ureg.missing",
        )
        return True
    if not targets:
        what = prop.understood(ctx)
        ctx.say(
            "Use it on what? Nothing here seems to need it yet."
            if lang_en
            else f"{what}を何に使うのか、ここでは対象が見当たらない。",
            id="ureg.no_target",
        )
        return True
    oid = targets[0]
    ob = acts[oid]
    v = resolve(ctx, oid, ob, prop)
    if v is not None and v.ok:
        solve_obstacle(ctx, oid, ob, v)
        return True
    if ob.get("fight") and "fight" in prop.intents and C.option(ctx.story, "combat"):
        fight_obstacle(ctx, oid, ob, prop)
        return True
    understood = prop.understood(ctx) + f"「{ob_name(ctx, ob, oid)}」"
    if v is None:
        ctx.say(
            f"Understood: {', '.join([A.item_name(ctx.story, i, 'en') for i in prop.items] + [ob_name(ctx, ob, oid)])}. "
            "But how exactly? That plan does not get you past it."
            if lang_en
            else f"{understood}について考えたが、その方法では突破できそうにない。どう使うか、もう少し具体的に。",
            id="ureg.not_through",
        )
    else:
        ctx.say(_t(ctx, v) if lang_en else f"{understood}：{v.text}", id="ureg.not_through")
    return True


def _plan_matches(ctx: Context, plan: dict[str, Any], prop: Proposal, usable: set[str]) -> bool:
    items = C.split(plan.get("items"))
    words = [fold(str(w)) for w in (plan.get("words") or [])]
    if not (items or words):
        return False
    if items and not set(items) <= set(prop.items) & usable:
        return False
    return not words or any(w in fold(prop.text) for w in words)


def fight_obstacle(ctx: Context, oid: str, ob: dict[str, Any], prop: Proposal) -> None:
    """A fight proposed in words (戦闘): the PCs named fight (all of them if none is named),
    the swingable or throwable items named are their weapons, one each, in the order named
    (UA-04), and the obstacle's ``fight.plans`` give the plan's modifier (numeric combat) or
    its result (about combat, UA-23). Advantage or even solves the obstacle; even or
    disadvantage costs every fighter 1 life (UA-01)."""
    from runner.rules.ureg import combat as K

    cfg = A.as_dict(ob.get("fight"))
    enemies = cfg.get("enemies") or ""
    usable = set(A.held(ctx.state)) | set(fixtures(ctx, ob))
    fighters = _people(ctx, prop)
    plan = next(
        (
            A.as_dict(p)
            for p in cfg.get("plans") or []
            if _plan_matches(ctx, A.as_dict(p), prop, usable)
        ),
        {},
    )
    plan_items = set(C.split(plan.get("items")))
    weapons = [
        i
        for i in prop.items
        if i in usable and i not in plan_items and K.item_power(A.item_props(ctx.story, i)) > 0
    ]
    lang = C.lang(ctx)
    if plan.get("say"):
        ctx.say(
            plan.get("say_en", plan["say"]) if lang == "en" else plan["say"], id=f"ureg.plan.{oid}"
        )
    result = plan.get("result") if C.option(ctx.story, "combat") == "about" else None
    if result in K.RESULT_KEYS:
        ctx.say(C.t(ctx, K.RESULT_JA[result], K.RESULT_EN[result]), id="ureg.fight")
    else:
        armed = []
        for n, cid in enumerate(fighters):
            w = weapons[n] if n < len(weapons) else None
            armed.append(
                (
                    C.character(ctx, cid),
                    A.item_name(ctx.story, w) if w else "",
                    A.item_name(ctx.story, w, "en") if w else "",
                    A.item_props(ctx.story, w) if w else None,
                )
            )
        res = K.fight(armed, C.enemy_total(ctx, enemies), plan.get("modifier", 0))
        result = res.result
        res.say(ctx, lang)
    continues = C.value(ctx, "continues")
    C.apply_result(ctx, result, fighters, enemies)
    if A.get(ctx.state, "ending") or C.value(ctx, "continues") != continues:
        return  # everyone vanished: the game is over, or the watch started it again
    if result == K.DISADVANTAGE:
        run_story_effects(ctx, cfg.get("disadvantage"))
        return
    solve_obstacle(ctx, oid, ob, Verdict(True, "", "", {"effects": cfg.get(result)}))


def give_hint(ctx: Context, about: str | None = None) -> bool:
    """〈○閃き〉's special hint, once per scenario play (UA-19), about the obstacle ``about``
    (the player's question) or else the first one here."""
    r = C.R(ctx)
    if not C.hint_available(ctx):
        ctx.say(
            C.t(
                ctx,
                "特別なヒントはもう使った（または〈○閃き〉のPCがいない）。",
                "The special hint is used up (or no PC has 〈○Inspiration〉).",
            ),
            id="ureg.hint_none",
        )
        return False
    acts = active(ctx)
    if not acts:
        ctx.say(
            C.t(ctx, "今は閃くことがない。", "Nothing comes to mind just now."), id="ureg.hint_none"
        )
        return False
    oid = about if about in acts else next(iter(acts))
    ob = acts[oid]
    text = ob.get("hint_en" if C.lang(ctx) == "en" else "hint") or ob.get("hint")
    if not text:
        ways = [A.as_dict(w) for w in ob.get("ways") or []]
        items = [i for w in ways for i in C.split(w.get("items"))]
        if items:
            text = C.t(
                ctx,
                f"閃いた！「{A.item_name(ctx.story, items[0])}」が役に立ちそうだ。",
                f"Inspiration! The {A.item_name(ctx.story, items[0], 'en')} could help.",
            )
        elif ob.get("height") is not None:
            text = C.t(
                ctx,
                "閃いた！高さを足せる物を、重ねて使えないだろうか。",
                "Inspiration! Could things that add height be stacked?",
            )
        else:
            text = C.t(
                ctx,
                f"閃いた！「{ob_name(ctx, ob, oid)}」をよく調べてみよう。",
                f"Inspiration! Look closely at the {ob_name(ctx, ob, oid)}.",
            )
    r["hint_used"] = True
    ctx.say(text, id="ureg.hint")
    return True
