"""Story checks for UREG: rule dependencies (UA-22), enemy power (UA-02), obstacles."""

from __future__ import annotations

from typing import Any

from runner.rules.base import RuleError
from runner.rules.ureg.abilities import parse_choice
from runner.rules.ureg.items import CATALOGUE

OPTIONS = (
    "continue",
    "floors",
    "campaign",
    "visual_aid",
    "restart",
    "npc",
    "vanish",
    "life",
    "flowers",
    "combat",
)
DEPENDS = {"life": ("vanish",), "combat": ("npc", "vanish", "life"), "flowers": ("life",)}
SETTINGS = (
    "time_limit_minutes",
    "opening",
    "cards",
    "endings",
    "obstacles",
    "aids",
    "flower_exceptions",
)
OB_KEYS = {
    "node",
    "name",
    "name_en",
    "aliases",
    "height",
    "touch",
    "pull_up",
    "poke",
    "sturdy",
    "breakable",
    "lock",
    "dark",
    "gap",
    "run_up",
    "narrow",
    "heavy",
    "hidden",
    "hint",
    "hint_en",
    "ways",
    "effects",
    "say",
    "say_en",
    "fixtures",
    "fight",
}
FIGHT_KEYS = {"enemies", "plans", "advantage", "even", "disadvantage"}
PLAN_KEYS = {"items", "words", "modifier", "result", "say", "say_en"}
WAY_KEYS = {
    "id",
    "items",
    "words",
    "intents",
    "abilities",
    "mods",
    "vars",
    "say",
    "say_en",
    "fail",
    "fail_en",
    "effects",
}


def _d(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def _num(x: Any) -> bool:
    try:
        float(str(x).removesuffix("m"))
        return True
    except ValueError:
        return False


def _props(item: dict[str, Any]) -> dict[str, Any]:
    """The loader hands items with their props flattened in; raw YAML keeps them nested."""
    return {**item, **_d(item.get("props"))}


def _node_props(node: Any) -> dict[str, Any]:
    node = _d(node)
    return _d(node.get("props")) if "props" in node and "obstacles" not in node else node


def _is_watch(item_id: str, item: dict[str, Any]) -> bool:
    props = _props(item)
    return (
        item_id == "pocket_watch"
        or props.get("ureg") == "pocket_watch"
        or bool(props.get("watch"))
        or item.get("name") == "懐中時計"
    )


def validate(raw: Any) -> list[tuple[str, str]]:
    """``validate(raw_story_dict) -> [(yaml path, message)]``."""
    out: list[tuple[str, str]] = []
    raw = _d(raw)
    meta = _d(raw.get("story"))
    opts = _d(meta.get("options"))
    base = "story.options"
    for k, _v in opts.items():
        if k not in OPTIONS and k not in SETTINGS:
            out.append(
                (
                    f"{base}.{k}",
                    f"unknown UREG option {k!r} (known: {', '.join(OPTIONS + SETTINGS)})",
                )
            )
    on = {k for k in OPTIONS if opts.get(k)}
    for rule, needs in DEPENDS.items():
        if rule in on:
            for n in needs:
                if n not in on:
                    out.append(
                        (f"{base}.{rule}", f"the {rule!r} rule needs {n!r} switched on too (UA-22)")
                    )
    if "combat" in opts and opts["combat"] not in (False, True, "about", "numeric", None):
        out.append((f"{base}.combat", "combat is about, numeric, true or false"))
    items = _d(raw.get("items"))
    if "continue" in on and not any(_is_watch(i, _d(it)) for i, it in items.items()):
        out.append(
            (f"{base}.continue", "the continue rule needs a pocket watch (懐中時計) item (UA-22)")
        )
    chars = _d(raw.get("characters"))
    numeric = opts.get("combat") in (True, "numeric")
    for cid, ch in chars.items():
        ch = _d(ch)
        kind = ch.get("kind", "pc")
        src = {**_d(ch.get("props")), **_d(ch.get("stats"))}
        path = f"characters.{cid}"
        if kind in ("ally", "npc", "neutral", "enemy") and "npc" not in on:
            out.append((f"{path}.kind", f"a {kind} character needs the 'npc' rule switched on"))
        if kind == "enemy" and numeric and "power" not in src:
            out.append(
                (f"{path}.stats.power", "an enemy NPC needs a power for numeric combat (UA-02)")
            )
        if "power" in src and not _num(src["power"]):
            out.append((f"{path}.stats.power", f"power must be a number, not {src['power']!r}"))
        if kind == "pc":
            spec = (
                src.get("archetype")
                or src.get("abilities")
                or (f"○{src['good']} ×{src['bad']}" if src.get("good") and src.get("bad") else None)
            )
            if spec:
                try:
                    parse_choice(str(spec))
                except RuleError as e:
                    out.append((f"{path}.stats", str(e)))
    tl = opts.get("time_limit_minutes")
    if tl is not None and (not _num(tl) or float(tl) <= 0):
        out.append((f"{base}.time_limit_minutes", "the time limit is a positive number of minutes"))
    deck = opts.get("cards")
    if deck is not None:
        if not isinstance(deck, list):
            out.append(
                (f"{base}.cards", "cards lists the scenario's placed items: [box, ladder, '?']")
            )
        else:
            for i, c in enumerate(deck):
                if c != "?" and str(c) not in items:
                    out.append(
                        (
                            f"{base}.cards.{i}",
                            f"card {c!r} is no item of this story ('?' for a card never turned up)",
                        )
                    )
    op = opts.get("opening")
    if op is not None and (
        not isinstance(op, str) or (_d(raw.get("nodes")) and op not in _d(raw.get("nodes")))
    ):
        out.append(
            (
                f"{base}.opening",
                f"opening names the node of the opening scene, and {op!r} is no node",
            )
        )
    endings = _d(raw.get("endings"))
    emap = {
        "full_victory": "full_victory",
        "partial_victory": "partial_victory",
        "failure": "failure",
        **_d(opts.get("endings")),
    }
    wanted = ["failure"] if tl or "vanish" in on else []
    for key in wanted if "endings" in raw else ():  # the loader's raw view has no endings
        if emap.get(key) not in endings:
            out.append(
                (
                    f"{base}.endings.{key}",
                    f"no ending {emap.get(key)!r} for {key} (time-out or everyone vanished)",
                )
            )
    nodes = _d(raw.get("nodes"))
    obs: list[tuple[str, str, dict[str, Any]]] = [
        (f"{base}.obstacles.{o}", o, _d(d)) for o, d in _d(opts.get("obstacles")).items()
    ]
    for nid, node in nodes.items():
        for o, d in _d(_node_props(node).get("obstacles")).items():
            obs.append((f"nodes.{nid}.props.obstacles.{o}", o, _d(d)))
    for path, _oid, ob in obs:
        for k in ob:
            if k not in OB_KEYS:
                out.append((f"{path}.{k}", f"unknown obstacle field {k!r}"))
        for n in [ob["node"]] if isinstance(ob.get("node"), str) else ob.get("node") or []:
            if nodes and n not in nodes:
                out.append((f"{path}.node", f"no node {n!r}"))
        for k in ("height", "gap"):
            if k in ob and not _num(ob[k]):
                out.append((f"{path}.{k}", f"{k} is metres, not {ob[k]!r}"))
        if "fight" in ob:
            out += _check_fight(f"{path}.fight", _d(ob["fight"]), chars, items, "combat" in on)
        for i, way in enumerate(ob.get("ways") or []):
            way = _d(way)
            wp = f"{path}.ways[{i}]"
            for k in way:
                if k not in WAY_KEYS:
                    out.append((f"{wp}.{k}", f"unknown way field {k!r}"))
            for it in way.get("items") or []:
                if items and it not in items and it not in CATALOGUE:
                    out.append((f"{wp}.items", f"no item {it!r}"))
            if not (way.get("items") or way.get("words") or way.get("intents")):
                out.append((wp, "a way needs items, words or intents to be proposed"))
    return out


def _check_fight(
    path: str, fight: dict[str, Any], chars: dict[str, Any], items: dict[str, Any], combat_on: bool
) -> list[tuple[str, str]]:
    """An obstacle fought in words: its enemies, and the plans the story judges."""
    out: list[tuple[str, str]] = []
    if not combat_on:
        out.append((path, "an obstacle with a fight needs the 'combat' rule switched on"))
    for k in fight:
        if k not in FIGHT_KEYS:
            out.append((f"{path}.{k}", f"unknown fight field {k!r}"))
    enemies = fight.get("enemies")
    names = [enemies] if isinstance(enemies, str) else list(enemies or [])
    if not names:
        out.append((f"{path}.enemies", "a fight names the enemy NPCs fought"))
    for e in names:
        if chars and _d(chars.get(e)).get("kind") != "enemy":
            out.append((f"{path}.enemies", f"{e!r} is not an enemy character"))
    for n, plan in enumerate(fight.get("plans") or []):
        plan = _d(plan)
        pp = f"{path}.plans[{n}]"
        for k in plan:
            if k not in PLAN_KEYS:
                out.append((f"{pp}.{k}", f"unknown plan field {k!r}"))
        if not (plan.get("items") or plan.get("words")):
            out.append((pp, "a plan needs items or words to be proposed"))
        for it in plan.get("items") or []:
            if items and it not in items and it not in CATALOGUE:
                out.append((f"{pp}.items", f"no item {it!r}"))
        m = plan.get("modifier", 0)
        if not isinstance(m, int) or isinstance(m, bool) or not -5 <= m <= 5:
            out.append((f"{pp}.modifier", "a plan modifies power by a whole number from -5 to +5"))
        if "result" in plan and plan["result"] not in ("advantage", "even", "disadvantage"):
            out.append((f"{pp}.result", "a plan's result is advantage, even or disadvantage"))
    return out
