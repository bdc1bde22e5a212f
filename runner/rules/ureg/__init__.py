"""UREG (Un Realistic Escape Game) basic system ver.1.5 as pure hooks.

「cc-by UREGベーシック Yasuda Lin」を参考にしました。 The rules are the source's; the
rulings UA-01..UA-24 settle its open points (docs/rules-ureg.md lists every hook).
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import RuleError, RuleSystem
from runner.rules.meta import Arg, MetaCommand
from runner.rules.ureg import access as A
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import combat as K
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.text import CREDIT
from runner.rules.ureg.validate import validate

SOURCE = "Un Realistic Escape Game ベーシックシステム ver.1.5（保田琳, 2019）CC-BY"

SYSTEM = RuleSystem("ureg", "UREG ベーシックシステム ver.1.5")
hook = SYSTEM.hook


def _num(x: Any) -> float:
    return float(x)


# ---- characters ----

@hook()
def choose(ctx, spec: str, who: str = "", name: str = "") -> str:
    """Chooses a PC: an archetype (Inspiration, Nimbleness, Strength, Dexterity, Night Vision,
    Littleness) or one ○ and one × ability ("○身軽 ×低身長"); ``who`` adds a PC to the party
    (``pc2``), ``name`` names it. Returns the archetype id or ""."""
    return C.choose(ctx, spec, who, name)


@hook(pure=True)
def chosen(ctx) -> bool:
    """Whether a PC has been chosen (stays true through a continue, so a story's character
    selection can be skipped when the watch starts the scenario again)."""
    return bool(C.value(ctx, "chosen"))


@hook(pure=True)
def party(ctx) -> int:
    """How many PCs are still in the space."""
    return len(C.active_pcs(ctx))


@hook(pure=True)
def has(ctx, ability: str, who: str = "") -> bool:
    """Whether a PC still in the space (or ``who``) has the ability (〈○強力〉, 強力, Strong)."""
    return C.has_ability(ctx, ability, who)


@hook(pure=True)
def ability(ctx, which: str = "good", who: str = "") -> str:
    """The ○ (``good``) or × (``bad``) ability of a PC (default the first), e.g. "閃き"."""
    cid = who or C.pc_ids(ctx)[0]
    return str(A.stats(ctx.state).get(cid, {}).get("bad" if which == "bad" else "good", ""))


@hook(pure=True)
def archetype(ctx, who: str = "") -> str:
    """The archetype id of a PC ("" for a created pair)."""
    cid = who or C.pc_ids(ctx)[0]
    return A.stats(ctx.state).get(cid, {}).get("archetype", "")


# ---- bodies and heights ----

@hook(pure=True)
def reach_height(ctx, who: str = "") -> float:
    """Standing reach in metres (2; 〈×低身長〉 1.5)."""
    return _num(P.reach(C.character(ctx, who or C.active_pcs(ctx)[0])))


@hook(pure=True)
def jump_height(ctx, who: str = "", run_up: bool = False) -> float:
    """Vertical jump in metres (0.5; 身軽 0.75; 鈍重 0.25; ×1.5 with a run-up)."""
    return _num(P.vertical_jump(C.character(ctx, who or C.active_pcs(ctx)[0]), bool(run_up)))


@hook(pure=True)
def jump_length(ctx, who: str = "", run_up: bool = False) -> float:
    """Long jump in metres (1.5; 身軽 3; 鈍重 1; ×2 with a run-up)."""
    return _num(P.long_jump(C.character(ctx, who or C.active_pcs(ctx)[0]), bool(run_up)))


@hook(pure=True)
def can_cross(ctx, gap: Any, who: str = "", run_up: bool = False) -> bool:
    """Whether every named PC (default: all in the space) clears a gap by a long jump."""
    g = P.metres(gap)
    return all(P.can_cross(C.character(ctx, c), g, bool(run_up)) for c in C.who_list(ctx, who))


@hook(pure=True)
def can_lift(ctx, bottom: str, top: str) -> bool:
    """Whether ``bottom`` can take ``top`` on the shoulders."""
    return P.can_lift(C.character(ctx, bottom), C.character(ctx, top))


@hook(pure=True)
def can_pull_up(ctx, puller: str, pulled: str) -> bool:
    """Whether ``puller`` can pull ``pulled`` up (same limits as lifting)."""
    return P.can_pull_up(C.character(ctx, puller), C.character(ctx, pulled))


@hook(pure=True)
def can_reach(ctx, height: Any, items: Any = None, pcs: Any = None, how: str = "") -> bool:
    """Whether the PCs reach ``height`` m. ``items``: "ladder+wooden_box" (all used) or empty
    for any held platform; ``pcs``: ids or all; ``how``: stand, shoulder, standing_shoulder,
    touch, run_touch (comma-separated) or any."""
    ok, _ = B.reach_attempt(ctx, height, items or None, pcs, how)
    return ok


@hook()
def reach(ctx, height: Any, items: Any = None, pcs: Any = None, how: str = "") -> bool:
    """Like ``can_reach`` but also says the arithmetic (「梯子 3 m + 手の届く高さ 2 m = 5 m ≥ 5 m」)."""
    ok, att = B.reach_attempt(ctx, height, items or None, pcs, how)
    if att is not None:
        ctx.say(att.explain(C.lang(ctx)), id="ureg.reach")
    return ok


# ---- sight ----

@hook(pure=True)
def can_see(ctx, who: str = "") -> bool:
    """Whether the PCs see here: node props ``light: dim|dark``; 〈×鳥目〉 is blind in the dim,
    〈○夜目〉 sees in the dark, a held light lets everyone see."""
    return C.can_see(ctx, who)


@hook(pure=True)
def movement(ctx, who: str = "") -> str:
    """"walk", "led" (taken by the hand) or "crawl"."""
    return C.movement(ctx, who)


@hook(pure=True)
def has_light(ctx) -> bool:
    """Whether the party holds a light (torch, phone, lighter, lit candle)."""
    return C.has_light(ctx)


# ---- obstacles ----

@hook(pure=True)
def solved(ctx, obstacle: str) -> bool:
    """Whether the obstacle has been broken through."""
    return obstacle in C.value(ctx, "solved")


@hook()
def solve(ctx, obstacle: str) -> None:
    """Marks an obstacle as broken through (for story actions that solve it their own way)."""
    if obstacle not in B.obstacles(ctx.story):
        raise RuleError(f"no UREG obstacle {obstacle!r}")
    if obstacle not in C.R(ctx)["solved"]:
        C.R(ctx)["solved"].append(obstacle)


@hook()
def reveal(ctx, obstacle: str) -> None:
    """Makes a ``hidden`` obstacle active."""
    if obstacle not in B.obstacles(ctx.story):
        raise RuleError(f"no UREG obstacle {obstacle!r}")
    if obstacle not in C.R(ctx)["revealed"]:
        C.R(ctx)["revealed"].append(obstacle)


@hook()
def propose(ctx, text: str) -> bool:
    """Runs a free proposal as if typed (「梯子を窓に立て掛けて登る」)."""
    return bool(B.propose(ctx, text))


@hook()
def find(ctx, items: Any) -> None:
    """探索: the players find the items (``"box+ladder"``); their item cards turn face up and
    proposals may name them from now on (before, a word for them is not understood)."""
    C.find(ctx, items)


@hook(pure=True)
def found(ctx, item: str) -> bool:
    """Whether the players have found the item (its card is face up, or it is held)."""
    return C.found(ctx, item)


@hook(pure=True)
def modified(ctx, item: str) -> str:
    """How an item has been changed: "bent", "lit", "ladder"/"step" (stepladder) or ""."""
    return C.value(ctx, "mods").get(item, "")


@hook()
def hint(ctx, about: str = "") -> bool:
    """〈○閃き〉's one special hint (once per scenario, UA-19), about the obstacle ``about``
    (the player's question) or the first one here."""
    return B.give_hint(ctx, about or None)


@hook(pure=True)
def hint_available(ctx) -> bool:
    """Whether the special hint can still be given."""
    return C.hint_available(ctx)


# ---- life, flowers, vanish ----

@hook()
def damage(ctx, who: str = "", amount: int = 1) -> None:
    """Damage: each named PC loses life (a flower takes it first); life 0 → vanish."""
    C.damage(ctx, who, int(amount))


@hook(pure=True)
def life(ctx, who: str = "") -> int:
    """A PC's life."""
    return int(A.stats(ctx.state)[who or C.pc_ids(ctx)[0]].get("life", 1))


@hook()
def vanish(ctx, who: str = "") -> None:
    """消滅 (default: every PC still in the space)."""
    C.vanish(ctx, who)


@hook(pure=True)
def vanished(ctx, who: str = "") -> bool:
    """Whether the character has vanished (no ``who``: every PC has)."""
    stats = A.stats(ctx.state)
    ids = C.split(who) or C.pc_ids(ctx)
    return all(stats.get(c, {}).get("status") == C.VANISHED for c in ids)


@hook(pure=True)
def flower_colour(ctx) -> str:
    """The colour of the flowers held ("red", ...) or ""."""
    return C.value(ctx, "flower_colour") or ""


@hook(pure=True)
def flowers(ctx) -> int:
    """How many flowers are held."""
    return sum(C.flowers_held(ctx).values())


# ---- combat ----

def _fighters(ctx, fighters: Any, weapons: Any) -> list[tuple]:
    ids = C.who_list(ctx, fighters)
    wmap: dict[str, str] = {}
    wl = C.split(weapons)
    for n, w in enumerate(wl):
        if ":" in w:
            k, _, v = w.partition(":")
            wmap[k] = v
        elif n < len(ids):
            wmap[ids[n]] = w
    used: set[str] = set()
    out = []
    for c in ids:
        w = wmap.get(c, "")
        if w in ("", "-", "none", "素手"):
            out.append((C.character(ctx, c), "", "", None))
            continue
        if w not in A.held(ctx.state) and w not in B.fixtures(ctx):
            raise RuleError(f"{w!r} is not held")
        if w in used and A.inventory(ctx.state).get(w, 0) < 2:
            raise RuleError(f"one {w!r} cannot arm two PCs")
        used.add(w)
        out.append((C.character(ctx, c), A.item_name(ctx.story, w), A.item_name(ctx.story, w, "en"),
                    A.item_props(ctx.story, w)))
    return out


@hook(pure=True)
def power(ctx, who: str = "", item: str = "") -> float:
    """A PC's numeric combat power with one item (or bare-handed)."""
    f = _fighters(ctx, who or C.active_pcs(ctx)[0], item)[0]
    return float(K.pc_power(f[0], f[3] is not None) + K.item_power(f[3]))


@hook()
def fight(ctx, enemies: Any, fighters: Any = "", weapons: Any = "", plan: Any = 0) -> list[str]:
    """Numeric combat: fighters (default all PCs) with weapons ("crowbar" or "pc:crowbar,b:knife")
    and a plan modifier −5..+5 against the enemies' total power. Applies the result and returns
    outcome keys: advantage/win/success, even/trade/success or disadvantage/retreat/failure."""
    fs = _fighters(ctx, fighters, weapons)
    res = K.fight(fs, C.enemy_total(ctx, enemies), plan)
    res.say(ctx, C.lang(ctx))
    C.apply_result(ctx, res.result, [f[0].id for f in fs], enemies)
    return list(K.RESULT_KEYS[res.result])


@hook()
def combat_result(ctx, result: str, fighters: Any = "", enemies: Any = "") -> list[str]:
    """About combat (UA-23): the story maps the chosen plan to advantage, even or
    disadvantage; this applies it the same way as ``fight``."""
    if result not in K.RESULT_KEYS:
        raise RuleError(f"a combat result is advantage, even or disadvantage, not {result!r}")
    ids = C.who_list(ctx, fighters)
    ctx.say(C.t(ctx, K.RESULT_JA[result], K.RESULT_EN[result]), id="ureg.fight")
    C.apply_result(ctx, result, ids, enemies)
    return list(K.RESULT_KEYS[result])


@hook(pure=True)
def neutralised(ctx, enemy: str) -> bool:
    """Whether an enemy NPC has been neutralised."""
    return A.stats(ctx.state).get(enemy, {}).get("status") == C.NEUTRALISED


# ---- time, continue, victory ----

@hook()
def time_passed(ctx, seconds: Any) -> None:
    """Adds real seconds played (sent by the front end); ends the game when time runs out."""
    C.time_passed(ctx, seconds)


@hook()
def time_sync(ctx, total_seconds: Any) -> None:
    """Sets the real time played to the front end's total if it is larger (after an undo)."""
    C.time_sync(ctx, total_seconds)


@hook(pure=True)
def time_left(ctx) -> int:
    """Seconds left on the real-time limit (−1 when the story has none)."""
    left = C.time_left(ctx)
    return -1 if left is None else left


@hook()
def wind_watch(ctx, who: str = "") -> None:
    """Continue: the holder winds the pocket watch; the scenario starts again (UA-09)."""
    C.wind_watch(ctx, who)


@hook()
def restart(ctx) -> None:
    """Restart: start a failed scenario again with the same PCs (if the story allows)."""
    C.restart(ctx)


@hook()
def escape(ctx, who: str = "") -> None:
    """Marks characters as escaped (default: every PC still in the space)."""
    C.escape(ctx, who)


@hook(pure=True)
def escaped(ctx, who: str = "") -> bool:
    """Whether the character (default: every PC) has escaped."""
    stats = A.stats(ctx.state)
    return all(stats.get(c, {}).get("status") == C.ESCAPED for c in (C.split(who) or C.pc_ids(ctx)))


@hook(pure=True)
def outcome(ctx) -> str:
    """full_victory, partial_victory or failure (UA-07, UA-21)."""
    return C.outcome(ctx)


@hook(pure=True)
def full_victory(ctx) -> bool:
    """Every PC and every ally NPC escaped."""
    return C.outcome(ctx) == "full_victory"


@hook(pure=True)
def partial_victory(ctx) -> bool:
    """Some PC escaped, but not everyone who counts."""
    return C.outcome(ctx) == "partial_victory"


@hook(pure=True)
def failure(ctx) -> bool:
    """No PC escaped."""
    return C.outcome(ctx) == "failure"


@hook()
def finish(ctx) -> str:
    """Ends the game with the ending the story maps to the outcome (options.endings)."""
    return C.finish(ctx)


@hook()
def give_up(ctx) -> str:
    """The players give up: the game ends with the outcome so far."""
    return C.finish(ctx)


# ---- options ----

@hook(pure=True)
def option(ctx, name: str) -> Any:
    """The value of an optional rule in this story (continue, floors, ..., combat)."""
    return C.option(ctx.story, name)


@hook()
def floor(ctx, name: str) -> None:
    """フロア: the PCs move to floor ``name`` (shown in the status bar). Items whose ``floor``
    prop names another floor are left behind there, and picked up again on coming back."""
    C.change_floor(ctx, name)


@hook(pure=True)
def aid(ctx, name: str) -> bool:
    """Whether a real-world helper (memo, calculator, lookup) is unlocked (UA-17)."""
    allowed = C.split(A.options(ctx.story).get("aids"))
    if name in allowed:
        return True
    return any(A.item_props(ctx.story, i).get("aid") == name for i in A.held(ctx.state))


# ---- life cycle ----

def _init(ctx) -> None:
    C.init(ctx)


def _on_unmatched(ctx, text: str) -> bool | str:
    return B.propose(ctx, text)


def _after_command(ctx, text: str) -> None:
    C.enforce_flowers(ctx)
    C.note_found(ctx)


def view(story: Any, state: Any, gm: bool) -> dict:
    """Status-bar data: characters, life, flowers, time left, hint, floor (and, for a GM,
    the NPCs, the obstacles solved and the items changed)."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    chars = []
    for cid in r.get("pcs", []):
        st = stats.get(cid, {})
        chars.append({"id": cid, "name": st.get("name", cid),
                      "abilities": [f"○{st['good']}" if st.get("good") else "",
                                    f"×{st['bad']}" if st.get("bad") else ""],
                      "archetype": st.get("archetype", ""), "life": st.get("life", 1),
                      "status": st.get("status", C.IN)})
    npcs = [{"id": c, "name": s.get("name", c), "kind": s.get("kind"), "status": s.get("status")}
            for c, s in stats.items() if isinstance(s, dict) and s.get("kind")]
    lim = C.time_limit(story)
    fl: dict[str, int] = {}
    for item, n in (A.get(state, "inventory") or {}).items():
        colour = A.item_props(story, item).get("flower")
        if colour and n:
            fl[colour] = fl.get(colour, 0) + n
    out = {"characters": chars, "flowers": fl,
           "time_limit": lim, "time_spent": r.get("time_spent", 0),
           "time_left": None if lim is None else max(0, lim - int(r.get("time_spent", 0))),
           "hint_used": r.get("hint_used", False), "floor": r.get("floor"),
           "continues": r.get("continues", 0)}
    deck = C.cards(story)
    if deck:
        # アイテムの配置: the scenario's cards lie face down until their items are found.
        found = set(r.get("found", [])) | {i for i, n in (A.get(state, "inventory") or {}).items() if n}
        up = [c for c in deck if c in found]
        down = [c for c in deck if c not in found]
        lang = "en" if A.get(story, "language") == "en" else "ja"
        out["cards"] = {"face_up": [A.item_name(story, c, lang) for c in up], "face_down": len(down)}
        if gm:
            out["cards"]["hidden"] = [A.item_name(story, c, lang) if c != C.UNKNOWN_CARD else "?" for c in down]
    if gm:
        # Every NPC the story holds, met or not (a player learns of them in the story's text).
        out["npcs"] = npcs
        out["solved"] = list(r.get("solved", []))
        out["mods"] = dict(r.get("mods", {}))
    return {"ureg": out}


def _meta_time(ctx, args: list) -> None:
    C.time_passed(ctx, args[0])


def _meta_sync(ctx, args: list) -> None:
    C.time_sync(ctx, args[0])


def _meta_choose(ctx, args: list) -> None:
    words = args[0]
    C.choose(ctx, " ".join(a for a in words if not a.startswith("@")),
             next((a[1:] for a in words if a.startswith("@")), ""))


SYSTEM.init = _init
SYSTEM.view = view
SYSTEM.on_unmatched = _on_unmatched
SYSTEM.after_command = _after_command
SYSTEM.validate = validate
# Rule commands, their arguments read and bounded by runner/rules/meta.py. The real-time
# reports and the carry are sent by front ends (the console refuses them from the keyboard);
# @choose, @wind and @restart stand for story actions (bots and tests); @hint a player may type.
SYSTEM.meta_commands.update({
    "time_passed": MetaCommand(_meta_time, (Arg("seconds", "seconds", 0),)),
    "time_sync": MetaCommand(_meta_sync, (Arg("total", "seconds", 0),)),
    "hint": MetaCommand(lambda ctx, args: B.give_hint(ctx), player=True),
    "choose": MetaCommand(_meta_choose, (Arg("choice", "words"),), usage="@choose ARCHETYPE|○X ×Y [@WHO]"),
    "wind": MetaCommand(lambda ctx, args: C.wind_watch(ctx)),
    "restart": MetaCommand(lambda ctx, args: C.restart(ctx)),
})


def campaign_carry(state: Any) -> dict:
    """What a campaign carries into its next scenario: the PCs' abilities only (no items;
    the 閃き hint is fresh again, UA-19). The front end sends it as ``@carry`` (see
    ``carry_command``), which calls ``apply_carry``."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    return {cid: {k: stats[cid][k] for k in ("name", "archetype", "good", "bad") if k in stats[cid]}
            for cid in r.get("pcs", []) if cid in stats}


def escaped_pcs(state: Any) -> list[str]:
    """The PCs of a finished game who escaped (the ones a campaign takes on)."""
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    stats = A.get(state, "stats") or {}
    return [c for c in r.get("pcs", []) if (stats.get(c) or {}).get("status") == C.ESCAPED]


def carry_command(carry: dict) -> str:
    """``@carry {...}`` for a carry: compact JSON on one line; spaces inside names are
    written as \\u0020 because the engine splits a rule command's arguments on spaces."""
    import json

    return "@carry " + json.dumps(carry, ensure_ascii=False, separators=(",", ":")).replace(" ", "\\u0020")


def apply_carry(ctx, carry: dict) -> None:
    """Sets the carried PCs in a new campaign scenario (after ``init``) and locks the choice.
    The carried PCs are the party: a placeholder or story PC not carried leaves it."""
    stats = A.stats(ctx.state)
    r = C.R(ctx)
    for cid, d in carry.items():
        stats.setdefault(cid, {"life": 1, "status": C.IN}).update(d)
    for cid in r["pcs"]:
        if cid not in carry and cid in stats and not A.get(A.characters(ctx.story), cid):
            del stats[cid]  # the default solo PC made by init: not part of this party
    r["pcs"] = list(carry)
    r["chosen"] = True
    r["carried"] = True


_CARRY_KEYS = ("name", "archetype", "good", "bad")


def _meta_carry(ctx, args: list) -> None:
    """``@carry {"pc":{"name":..,"good":..,"bad":..}}``: the first command of a campaign
    scenario (``katari play STORY --campaign-from PREVIOUS`` sends it); its JSON comes
    read and bounded (runner/rules/meta.py)."""
    from runner.rules.ureg.abilities import BAD_ABILITIES, GOOD_ABILITIES

    if not C.option(ctx.story, "campaign"):
        raise RuleError(C.t(ctx, "この物語はキャンペーンのシナリオではありません（options に campaign: true がない）",
                            "this story is not a campaign scenario (its options have no campaign: true)"))
    r = C.R(ctx)
    if A.get(ctx.state, "turn", 0) or r.get("chosen"):
        raise RuleError(C.t(ctx, "引き継ぎはシナリオの始めにだけできます（もう始まっています）",
                            "a carry can only start a scenario; this game has already moved on"))
    carry = args[0]
    if not isinstance(carry, dict) or not carry or not all(
            isinstance(k, str) and k and isinstance(v, dict) for k, v in carry.items()):
        raise RuleError("@carry takes a JSON object of PCs: {\"pc\":{\"good\":..,\"bad\":..}}")
    clean: dict = {}
    for cid, d in carry.items():
        good, bad = d.get("good"), d.get("bad")
        if good not in GOOD_ABILITIES or bad not in BAD_ABILITIES:
            raise RuleError(f"@carry: {cid} needs a ○ ability and a × ability (good, bad), not {good!r}/{bad!r}")
        clean[cid] = {k: str(d[k]) for k in _CARRY_KEYS if isinstance(d.get(k), str)}
    apply_carry(ctx, clean)
    for cid in clean:
        c = C.character(ctx, cid)
        ctx.say(C.t(ctx, f"前のシナリオから脱出者を引き継ぎます（持ち物は持ち越せません）。{c.label}：{c.tags()}",
                    f"Your escapee carries on from the last scenario (items stay behind). {c.label}: {c.tags()}"),
                id="ureg.carry")
    # The scenario begins again from its start, so a character selection that skips when
    # ``ureg.chosen()`` is true takes the carried PC straight in.
    start = A.start_node(ctx.story)
    if start:
        ctx.run_effects([{"goto": start}])


SYSTEM.meta_commands["carry"] = MetaCommand(_meta_carry, (Arg("carry", "json"),),
                                            usage='@carry {"pc":{"good":"閃き","bad":"平凡"}}')


__all__ = ["SYSTEM", "CREDIT", "SOURCE", "view", "validate", "campaign_carry", "apply_carry",
           "carry_command", "escaped_pcs"]

# What front ends need from this system (labels, the real-time limit, the campaign, the
# rules text): runner/rules/ureg/front.py.
from runner.rules.ureg import front as _front  # noqa: E402,F401
