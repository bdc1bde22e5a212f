"""UREG state: options, characters, life, flowers, time, continue and victory.

Everything lives in plain JSON-able data: ``state.stats[character_id]`` for each
character (``good``, ``bad``, ``archetype``, ``life``, ``status``) and
``state.rules["ureg"]`` for the rest (see docs/rules-ureg.md).
"""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg import access as A
from runner.rules.ureg.abilities import ARCHETYPES, Character, ability_name, parse_choice
from runner.rules.ureg.items import FLOWER_COLOURS

# Optional rules (追加ルール) and their dependencies (UA-22) live in validate.py.
from runner.rules.ureg.validate import DEPENDS, OPTIONS, SETTINGS  # noqa: E402,F401
from runner.story.model import Goto

IN, ESCAPED, VANISHED, NEUTRALISED = "in", "escaped", "vanished", "neutralised"
NPC_KINDS = {"ally": "ally", "npc": "neutral", "neutral": "neutral", "enemy": "enemy"}
DEFAULT_ENDINGS = {
    "full_victory": "full_victory",
    "partial_victory": "partial_victory",
    "failure": "failure",
}


def lang(ctx: Context) -> str:
    story = ctx.story
    meta_lang = A.get(story, "language") or A.get(A.get(story, "meta"), "language")
    return "en" if str(meta_lang or "ja").startswith("en") else "ja"


def t(ctx: Context, ja: str, en: str) -> str:
    return en if lang(ctx) == "en" else ja


def option(story: Any, name: str) -> Any:
    o = A.options(story)
    if name == "combat":
        v = o.get("combat", False)
        return "numeric" if v is True else (v or False)
    return o.get(name, False)


def require(ctx: Context, name: str) -> None:
    if not option(ctx.story, name):
        raise RuleError(f"the UREG rule {name!r} is not switched on in this story's options")


_DEFAULTS: tuple[tuple[str, Any], ...] = (
    ("pcs", []),
    ("hint_used", False),
    ("solved", []),
    ("revealed", []),
    ("mods", {}),
    ("joined", []),
    ("flower_colour", None),
    ("time_spent", 0),
    ("continues", 0),
    ("chosen", False),
    ("lit", []),
    ("found", []),
)
_DEFAULT_KEYS = frozenset(k for k, _ in _DEFAULTS)


def _default(v: Any) -> Any:
    return v if not isinstance(v, (list, dict)) else type(v)()


def R(ctx: Context) -> dict[str, Any]:
    """The UREG rule data for writing, with its defaults (``init`` sets them all up)."""
    r = A.rules(ctx.state)
    if not r.keys() >= _DEFAULT_KEYS:
        for k, v in _DEFAULTS:
            if k not in r:
                r[k] = _default(v)
    return r


_DEFAULT = dict(_DEFAULTS)


def value(ctx: Context, key: str) -> Any:
    """One UREG rule value for reading (``pcs``, ``mods``, ...); never writes the state. A
    game has them all from ``init`` on; a state without this one (an older save, a test
    double that skipped ``init``) reads a fresh default. Read what it returns, never change it."""
    r = A.peek_rules(ctx.state)
    if key in r:
        return r[key]
    return _default(_DEFAULT[key])


# ---- characters ----


def init(ctx: Context) -> None:
    """Sets up PCs and NPCs from the story's characters (kind pc / ally / npc / enemy)."""
    r = R(ctx)
    stats = A.stats(ctx.state)
    pcs: list[str] = []
    for cid, ch in A.characters(ctx.story).items():
        kind = A.get(ch, "kind", "pc")
        src = {**A.as_dict(A.get(ch, "props")), **A.as_dict(A.get(ch, "stats"))}
        if kind == "pc" and src.get("joins") == "chosen":
            continue  # a party's second PC: in play once ureg.choose picks it (named as declared)
        st = stats.setdefault(cid, {})
        st.setdefault("name", A.get(ch, "name") or cid)
        if kind == "pc":
            pcs.append(cid)
            spec = (
                src.get("archetype")
                or src.get("abilities")
                or (f"○{src['good']} ×{src['bad']}" if src.get("good") and src.get("bad") else None)
            )
            if spec:
                arch, good, bad = parse_choice(str(spec))
                st.update(archetype=arch, good=good, bad=bad)
            st.setdefault("life", 1)
            st.setdefault("status", IN)
        else:
            st.setdefault("kind", NPC_KINDS.get(kind, "neutral"))
            st.setdefault("status", IN)
            if "power" in src:
                st.setdefault("power", src["power"])
            for k in ("good", "bad"):
                if k in src:
                    st.setdefault(k, src[k])
    if not pcs:
        # A solo player with no PC in the story: the recommended 〈○閃き〉〈×平凡〉 until chosen.
        a = ARCHETYPES["Inspiration"]
        stats.setdefault(
            "pc",
            {
                "name": "PC",
                "archetype": a.id,
                "good": a.good,
                "bad": a.bad,
                "life": 1,
                "status": IN,
            },
        )
        pcs = ["pc"]
    r["pcs"] = pcs


def _sheet(ctx: Context, cid: str) -> dict[str, Any]:
    st = A.stats(ctx.state).get(cid)
    if st is None:
        raise RuleError(f"no character {cid!r}")
    result: dict[str, Any] = st
    return result


def character(ctx: Context, cid: str) -> Character:
    st = _sheet(ctx, cid)
    return Character(cid, st.get("good", ""), st.get("bad", ""), st.get("name", cid))


def pc_ids(ctx: Context) -> list[str]:
    """The party's ids: ``init`` always sets at least one, and reading never adds any."""
    return list(value(ctx, "pcs"))


def active_pcs(ctx: Context) -> list[str]:
    s = A.stats(ctx.state)
    return [p for p in pc_ids(ctx) if s.get(p, {}).get("status", IN) == IN]


def split(arg: Any) -> list[str]:
    """ "a+b", "a,b", ["a","b"] → ["a","b"]."""
    if arg is None or arg == "":
        return []
    if isinstance(arg, (list, tuple)):
        return [str(x) for x in arg]
    import re

    return [p for p in re.split(r"[\s,+、・]+", str(arg)) if p]


def who_list(ctx: Context, who: Any) -> list[str]:
    """Character ids named by ``who``; empty or "all" means every PC still in the space."""
    ids = split(who)
    if not ids or ids == ["all"]:
        return active_pcs(ctx)
    stats = A.stats(ctx.state)
    for i in ids:
        if i not in stats:
            raise RuleError(f"no character {i!r}")
    return ids


def choose(ctx: Context, spec: str, who: str = "", name: str = "") -> str:
    """Sets a PC's abilities from an archetype or a ○/× pair; returns the archetype id.

    ``name`` names the PC; without one, the name the story declares for it (its
    ``characters:`` entry, in the language played), else a new PC's id."""
    cid = who or pc_ids(ctx)[0]
    name = name or str(A.get(A.characters(ctx.story).get(cid), "name") or "")
    r = R(ctx)
    # キャンペーン: a chosen (or carried) PC never changes; a party may still add its second
    # PC during the first scenario's selection, but not after a carry.
    if option(ctx.story, "campaign") and r.get("chosen") and (cid in r["pcs"] or r.get("carried")):
        raise RuleError("in a campaign the first character chosen cannot be changed")
    arch, good, bad = parse_choice(spec)
    st = A.stats(ctx.state).setdefault(cid, {"name": cid, "life": 1, "status": IN})
    st.update(archetype=arch, good=good, bad=bad)
    if name:
        st["name"] = str(name)
    if cid not in r["pcs"]:
        r["pcs"].append(cid)
    r["chosen"] = True
    c = character(ctx, cid)
    # The pair is the archetype (its id names its strength): said once, in the player's words.
    ctx.say(
        t(ctx, f"{c.label}：{c.described()}", f"{c.label}: {c.described('en')}."), id="ureg.choose"
    )
    return arch


def has_ability(ctx: Context, ability: str, who: str = "") -> bool:
    a = ability_name(ability)
    for c in who_list(ctx, who):
        st = _sheet(ctx, c)  # (a Character costs more to build than this reads)
        if a == st.get("good", "") or a == st.get("bad", ""):
            return True
    return False


# ---- life, flowers, vanish ----


def flowers_held(ctx: Context) -> dict[str, int]:
    """colour -> count of flowers in the inventory."""
    out: dict[str, int] = {}
    for item, n in A.inventory(ctx.state).items():
        colour = A.item_props(ctx.story, item).get("flower")
        if colour and n:
            out[colour] = out.get(colour, 0) + n
    return out


def enforce_flowers(ctx: Context) -> None:
    """UA-08: a flower of another colour than those held falls from the hand."""
    r = R(ctx)
    inv = A.inventory(ctx.state)
    held = flowers_held(ctx)
    if not held:  # no flower in hand, none to drop (this runs after every command)
        r["flower_colour"] = None
        return
    colour = r["flower_colour"] if r["flower_colour"] in held else None
    if colour is None and held:
        # The first colour picked up (when several arrive at once, the story's item order).
        colour = next(iter(held))
    exceptions = set(A.as_dict(A.options(ctx.story)).get("flower_exceptions", []) or [])
    for item in list(inv):
        c = A.item_props(ctx.story, item).get("flower")
        if c and inv[item] and c != colour and c not in exceptions:
            del inv[item]
            name = A.item_name(ctx.story, item, lang(ctx))
            ctx.say(
                t(
                    ctx,
                    f"{name}は手の中の花と反発し合い、手から離れて落ちた。",
                    f"The {name} repels the flowers you hold and falls from your hand.",
                ),
                id="ureg.flower_repel",
            )
    r["flower_colour"] = colour if flowers_held(ctx) else None


def damage(ctx: Context, who: str = "", amount: int = 1) -> list[str]:
    """Each PC named loses ``amount`` life; a held flower takes each point first (UA-08).

    Returns the ids who vanished."""
    require(ctx, "life")
    gone = []
    inv = A.inventory(ctx.state)
    stats = A.stats(ctx.state)
    for cid in who_list(ctx, who):
        st = stats[cid]
        if st.get("status", IN) != IN:
            continue
        for _ in range(int(amount)):
            flower = next(
                (i for i, n in inv.items() if n and A.item_props(ctx.story, i).get("flower")), None
            )
            if flower:
                inv[flower] -= 1
                if inv[flower] <= 0:
                    del inv[flower]
                name = A.item_name(ctx.story, flower, lang(ctx))
                ctx.say(
                    t(
                        ctx,
                        f"{name}が{st.get('name', cid)}の代わりにダメージを受け、散った。",
                        f"The {name} takes the blow for {st.get('name', cid)} and scatters.",
                    ),
                    id="ureg.flower_scatter",
                )
                continue
            st["life"] = st.get("life", 1) - 1
            if st["life"] <= 0:
                st["life"] = 0
                vanish(ctx, cid)
                gone.append(cid)
                break
    if not flowers_held(ctx):
        R(ctx)["flower_colour"] = None
    return gone


def vanish(ctx: Context, who: str = "") -> None:
    """消滅: the character leaves the space; when every PC is gone the game ends, or a
    held pocket watch starts it again (continue)."""
    require(ctx, "vanish")
    stats = A.stats(ctx.state)
    for cid in split(who) or active_pcs(ctx):
        stats[cid]["status"] = VANISHED
        ctx.say(
            t(
                ctx,
                f"{stats[cid].get('name', cid)}は消滅した。",
                f"{stats[cid].get('name', cid)} vanishes.",
            ),
            id="ureg.vanish",
        )
    pcs = pc_ids(ctx)
    if pcs and not any(stats[p].get("status", IN) == IN for p in pcs):
        none_out = not any(stats[p].get("status") == ESCAPED for p in pcs)
        if none_out and option(ctx.story, "continue") and watch_item(ctx):
            do_continue(ctx, reason="vanish")
        else:
            finish(ctx)


# ---- combat results ----


def enemy_total(ctx: Context, enemies: Any) -> Any:
    """The enemy NPCs' total power (UA-02: every enemy fought needs one)."""
    from fractions import Fraction

    total = Fraction(0)
    stats = A.stats(ctx.state)
    for e in split(enemies):
        st = stats.get(e)
        if st is None or "power" not in st:
            raise RuleError(f"enemy {e!r} has no power (UA-02)")
        total += Fraction(str(st["power"]))
    return total


def apply_result(ctx: Context, result: str, fighter_ids: list[str], enemies: Any) -> None:
    """Advantage or even neutralises the enemies; even or disadvantage costs every PC who
    fought 1 life (UA-01)."""
    stats = A.stats(ctx.state)
    if result in ("advantage", "even"):
        for e in split(enemies):
            stats[e]["status"] = NEUTRALISED
    if result in ("even", "disadvantage") and option(ctx.story, "life"):
        damage(ctx, ",".join(fighter_ids), 1)


# ---- continue, restart ----


def watch_item(ctx: Context) -> str | None:
    for item, n in A.inventory(ctx.state).items():
        if n and A.item_props(ctx.story, item).get("watch"):
            return item
    return None


def wind_watch(ctx: Context, who: str = "") -> None:
    """The holder winds the pocket watch within the time limit: continue from the start."""
    require(ctx, "continue")
    if not watch_item(ctx):
        raise RuleError("nobody holds the pocket watch")
    if time_left(ctx) == 0:
        raise RuleError("the time limit has passed")
    do_continue(ctx, reason="wind")


def _initial_vars(story: Any) -> dict[str, Any]:
    out = {}
    for k, v in A.section(story, "variables").items():
        val = A.get(v, "value", v) if not isinstance(v, (int, float, str, bool, type(None))) else v
        out[k] = val
    return out


def do_continue(ctx: Context, reason: str = "wind", *, keep_time: bool = True) -> None:
    """UA-09: everyone back at the start with 1 life, items other than the watch undiscovered,
    the time left unchanged, a used 閃き hint still used."""
    r = R(ctx)
    state = ctx.state
    inv = A.inventory(state)
    for item in list(inv):
        if not A.item_props(ctx.story, item).get("watch") or not keep_time:
            del inv[item]
    stats = A.stats(state)
    for cid, st in stats.items():
        if cid in r["pcs"]:
            st["life"] = 1
        if "status" in st:
            st["status"] = IN
    for k in ("solved", "revealed", "joined", "lit"):
        r[k] = []
    # The item cards are laid face down again; the watch in hand stays known.
    r["found"] = [i for i in inv if i in r.get("found", [])]
    r["mods"] = {}
    # Items left on other floors are undiscovered again too; the floor is the start's.
    r.pop("left", None)
    r.pop("floor", None)
    r["flower_colour"] = None
    r["outcome"] = None
    if keep_time:
        r["continues"] = r.get("continues", 0) + 1
    else:
        r["time_spent"] = 0
        r["hint_used"] = False
    init_vars = _initial_vars(ctx.story)
    if isinstance(A.get(state, "vars"), dict):  # variables set in play go, even with none declared
        state.vars.clear()
        state.vars.update(init_vars)
    # Once-only actions and visit counts start again with the scenario.
    for f in ("done", "visits"):
        v = A.get(state, f)
        if isinstance(v, dict):
            v.clear()
    if reason == "wind":
        msg = t(
            ctx,
            "懐中時計のネジを巻くと、景色が巻き戻っていく……。",
            "You wind the pocket watch and the world unwinds...",
        )
    elif reason == "vanish":
        msg = t(
            ctx,
            "全員が消えかけたその時、懐中時計が時を巻き戻した……。",
            "As the last of you fades, the pocket watch turns time back...",
        )
    else:
        msg = t(
            ctx,
            "同じ顔ぶれで、始めからやり直す。",
            "The same party starts over from the beginning.",
        )
    ctx.say(msg, id=f"ureg.{'continue' if keep_time else 'restart'}")
    start = A.start_node(ctx.story)
    if start:
        ctx.run_effects((Goto("goto", start),))


def restart(ctx: Context) -> None:
    """リスタート: a failed scenario again with the same PCs (the time limit starts over)."""
    require(ctx, "restart")
    try:
        ctx.state.ending = None
    except AttributeError:
        pass
    do_continue(ctx, reason="restart", keep_time=False)


# ---- item cards and what the players have found (探索) ----

UNKNOWN_CARD = "?"
"""A card of ``options.cards`` whose face the scenario never shows."""


def cards(story: Any) -> list[str]:
    """The scenario's placed item cards (配置アイテム), laid face down at the start:
    ``options.cards``, item ids or ``"?"``."""
    return [str(c) for c in (A.options(story).get("cards") or [])]


def find(ctx: Context, items: Any) -> list[str]:
    """探索: the players find these items; their cards turn face up. Returns the newly found."""
    r = R(ctx)
    new = [i for i in split(items) if i not in r["found"]]
    for i in new:
        if A.story_item(ctx.story, i) is None:
            raise RuleError(f"no item {i!r} in this story")
        r["found"].append(i)
    turned = [i for i in new if i in cards(ctx.story) and i not in A.held(ctx.state)]
    if turned:
        # The sample's 「（カードを２枚表向きにする）」: the table sees the cards turn.
        ja = "".join(f"「{A.item_name(ctx.story, i)}」" for i in turned)
        en = ", ".join(A.item_name(ctx.story, i, "en") for i in turned)
        ctx.say(
            t(
                ctx,
                f"（アイテムカード{ja}を表向きにした）",
                f"(The item cards {en} are turned face up.)",
            ),
            id="ureg.cards",
        )
    return new


def note_found(ctx: Context) -> None:
    """Whatever the players hold, they have found (after every command)."""
    found = value(ctx, "found")
    new = [i for i in A.held(ctx.state) if i not in found]
    if new:
        R(ctx)["found"].extend(new)


def found(ctx: Context, item: str) -> bool:
    """Whether the players know the item: found (its card face up) or held."""
    return item in value(ctx, "found") or item in A.held(ctx.state)


# ---- time (UA-16) ----


def time_limit(story: Any) -> int | None:
    m = A.options(story).get("time_limit_minutes")
    return int(round(float(m) * 60)) if m else None


def time_left(ctx: Context) -> int | None:
    lim = time_limit(ctx.story)
    if lim is None:
        return None
    return max(0, lim - int(value(ctx, "time_spent")))


def clock_started(story: Any, state: Any) -> bool:
    """Whether the real-time limit runs: from the opening on (「ゲームプレイと同時に時間を計り
    始めます」). A story whose ``opening`` option names the node of its opening scene keeps the
    clock still while the players are before it (choosing their escapers); time already
    counted keeps it running (undo never gives time back)."""
    node = A.options(story).get("opening")
    if not node:
        return True
    r = A.get(A.get(state, "rules") or {}, "ureg") or {}
    return bool(
        (A.get(state, "visits") or {}).get(node) or r.get("time_spent") or r.get("continues")
    )


def time_passed(ctx: Context, seconds: Any) -> None:
    """The front end reports real seconds played since its last report (none count before
    the opening: see :func:`clock_started`)."""
    s = float(seconds)
    if s < 0:
        raise RuleError("time cannot go backwards")
    if not clock_started(ctx.story, ctx.state):
        return
    _set_spent(ctx, R(ctx)["time_spent"] + s)


def time_sync(ctx: Context, total: Any) -> None:
    """The front end's own running total (kept outside the state); undo never lowers it."""
    _set_spent(ctx, max(float(R(ctx)["time_spent"]), float(total)))


def _set_spent(ctx: Context, spent: float) -> None:
    r = R(ctx)
    r["time_spent"] = int(spent) if float(spent).is_integer() else round(spent, 3)
    if time_left(ctx) == 0 and not A.get(ctx.state, "ending") and not r.get("timed_out"):
        r["timed_out"] = True
        ctx.say(
            t(
                ctx,
                "制限時間が過ぎた。閉鎖空間は静かに閉じていく……。",
                "Time is up. The closed space seals itself...",
            ),
            id="ureg.time_up",
        )
        ending = endings(ctx.story).get("time_up") or endings(ctx.story)["failure"]
        r["outcome"] = "failure"
        ctx.end(ending)


# ---- victory (UA-07, UA-21) ----


def endings(story: Any) -> dict[str, Any]:
    return {**DEFAULT_ENDINGS, **A.as_dict(A.options(story).get("endings"))}


def escape(ctx: Context, who: str = "") -> None:
    """Marks characters (default: every PC still in the space) as escaped."""
    stats = A.stats(ctx.state)
    for cid in split(who) or active_pcs(ctx):
        if cid not in stats:
            raise RuleError(f"no character {cid!r}")
        if stats[cid].get("status", IN) == IN:
            stats[cid]["status"] = ESCAPED


def outcome(ctx: Context) -> str:
    stats = A.stats(ctx.state)
    pcs = pc_ids(ctx)
    out = [p for p in pcs if stats[p].get("status") == ESCAPED]
    if not out:
        return "failure"
    allies = [c for c, s in stats.items() if s.get("kind") == "ally"]
    if len(out) == len(pcs) and all(stats[a].get("status") == ESCAPED for a in allies):
        return "full_victory"
    return "partial_victory"


def finish(ctx: Context) -> str:
    """Ends the game with the story's ending for the outcome (options.endings)."""
    o = outcome(ctx)
    R(ctx)["outcome"] = o
    ctx.end(endings(ctx.story)[o])
    return o


# ---- floors (フロア) ----


def change_floor(ctx: Context, name: str) -> None:
    """フロア: items are carried only within a floor. An item whose ``floor`` prop names
    another floor stays behind where the PCs leave it (kept in ``left``) and is picked up
    again when they come back; items with no ``floor`` (the watch, flowers) go everywhere."""
    require(ctx, "floors")
    r = R(ctx)
    new = str(name)
    left: dict[str, Any] = r.setdefault("left", {})
    inv = A.inventory(ctx.state)
    dropped = []
    for item in list(inv):
        f = A.item_props(ctx.story, item).get("floor")
        if f is not None and str(f) != new and inv[item]:
            pile = left.setdefault(str(f), {})
            pile[item] = pile.get(item, 0) + inv.pop(item)
            dropped.append(A.item_name(ctx.story, item, lang(ctx)))
    back = []
    for item, n in left.pop(new, {}).items():
        inv[item] = inv.get(item, 0) + n
        back.append(A.item_name(ctx.story, item, lang(ctx)))
    if dropped:
        ctx.say(
            t(
                ctx,
                f"{'、'.join(dropped)}はこのフロアの外へは持ち出せない。境目に置いていった。",
                f"The {', '.join(dropped)} cannot leave their floor; you leave them at the threshold.",
            ),
            id="ureg.floor_left",
        )
    if back:
        ctx.say(
            t(
                ctx,
                f"置いていった{'、'.join(back)}を拾い直した。",
                f"You pick up the {', '.join(back)} you left here.",
            ),
            id="ureg.floor_back",
        )
    r["floor"] = new


# ---- light and sight (〈×鳥目〉, 〈○夜目〉) ----


def darkness(ctx: Context) -> str:
    """ "dark", "dim" or "" for the current node (node props ``dark``/``dim``/``light``)."""
    node = A.get(ctx.state, "node")
    if node in value(ctx, "lit"):
        return ""
    p = A.node_props(ctx.story, node)
    level = p.get("light") or ("dark" if p.get("dark") else "dim" if p.get("dim") else "")
    return level if level in ("dark", "dim") else ""


def has_light(ctx: Context) -> bool:
    mods = value(ctx, "mods")
    for item in A.held(ctx.state):
        p = A.item_props(ctx.story, item)
        if p.get("light") or p.get("fire") or mods.get(item) == "lit":
            return True
    return False


def can_see(ctx: Context, who: str = "") -> bool:
    level = darkness(ctx)
    if not level or has_light(ctx):
        return True
    ids = who_list(ctx, who)
    ok = []
    for c in ids:
        ch = character(ctx, c)
        if ch.good == "夜目":
            ok.append(True)
        elif level == "dim":
            ok.append(ch.bad != "鳥目")
        else:
            ok.append(False)
    return all(ok)


def movement(ctx: Context, who: str = "") -> str:
    """ "walk", "led" (someone who sees takes the hand) or "crawl" (〈×鳥目〉 in the dim)."""
    ids = who_list(ctx, who)
    if can_see(ctx, ",".join(ids)):
        return "walk"
    seers = [c for c in active_pcs(ctx) if c not in ids and can_see(ctx, c)]
    return "led" if seers else "crawl"


# ---- 閃き hint (UA-19) ----


def hint_available(ctx: Context) -> bool:
    return not value(ctx, "hint_used") and any(
        _sheet(ctx, c).get("good", "") == "閃き" for c in active_pcs(ctx)
    )


def flower_colour_name(ctx: Context, colour: str | None) -> str | None:
    if not colour:
        return None
    ja, en = FLOWER_COLOURS.get(colour, (colour, colour))
    return t(ctx, ja, en)
