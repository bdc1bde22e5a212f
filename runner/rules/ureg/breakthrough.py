"""突破: obstacles declared by a story, and the players' free proposals to get past them.

A story declares obstacles under ``story.options.obstacles`` (each with a ``node``) or under
a node's ``props.obstacles``; docs/rules-ureg.md gives the format. A proposal such as
「梯子を窓に立て掛けて登る」 or "use the ladder on the window" is read into the items,
obstacle, characters and intents it names; the obstacle's own ``ways`` are tried first, then
the generic rules (reach, break, unlock, light, gap, narrow, heavy, poke).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from runner.rules.base import RuleError
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg import physics as P
from runner.rules.ureg.items import CATALOGUE

# ---- words ----

INTENTS: dict[str, tuple[str, ...]] = {
    "hint": ("ヒント", "hint", "閃", "ひらめ"),
    "shoulder": ("肩車", "かたぐるま", "shoulder"),
    "run": ("助走", "じょそう", "run-up", "run up", "running", "run and"),
    "jump": ("跳", "飛び", "飛ぶ", "飛ん", "じゃんぷ", "jump", "leap", "とぶ", "とん"),
    "climb": ("登", "のぼ", "上が", "あが", "届", "とど", "立て掛", "立てかけ", "たてか", "乗", "のる",
              "のって", "climb", "reach", "lean", "stand on", "get up", "step on"),
    "break": ("壊", "こわ", "割", "わる", "わって", "破", "やぶ", "砕", "くだ", "叩き", "たたき", "爆破",
              "break", "smash", "bash", "blow", "blast", "destroy"),
    "unlock": ("鍵を開", "解錠", "開錠", "ぴっきんぐ", "unlock", "pick the lock", "pick"),
    "open": ("開け", "あけ", "開く", "ひらく", "open"),
    "light": ("照ら", "てら", "灯", "点け", "火をつけ", "明かりをつけ", "火を", "light", "illuminat",
              "shine", "ignite"),
    "bend": ("曲げ", "まげ", "曲", "bend"),
    "join": ("繋", "つな", "くっつ", "くっ付", "貼", "結", "むす", "接着", "継ぎ", "join", "tie",
             "tape", "glue", "attach", "combine", "connect"),
    "poke": ("突", "つつ", "つい", "押", "おす", "おし", "poke", "push", "prod", "knock"),
    "cross": ("渡", "わた", "越", "こえ", "cross", "bridge", "over the gap"),
    "squeeze": ("潜", "くぐ", "通り抜", "すり抜", "とおりぬ", "squeeze", "crawl through", "slip through"),
    "move": ("持ち上", "もちあ", "動か", "うごか", "どか", "ずら", "lift", "move", "shift", "heave"),
    "fold": ("閉じ", "たた", "close", "fold"),
    "fight": ("戦", "たたか", "殴", "なぐ", "叩", "打ちかか", "うちかか", "攻撃", "こうげき", "襲",
              "倒", "挑", "立ち向か", "たちむか", "斬", "刺", "撃", "fight", "attack", "hit",
              "strike", "punch"),
    "spread": ("広げ", "ひろげ", "伸ば", "のば", "unfold", "extend"),
    # Looking and taking are no breakthrough: a look is answered without a turn, taking is
    # the story's own actions' business (see propose).
    "examine": ("調べ", "しらべ", "見る", "見て", "みる", "眺め", "ながめ", "観察", "確かめ", "たしかめ",
                "覗", "のぞ", "examine", "inspect", "look at", "check"),
    "take": ("取る", "取っ", "取り", "とる", "拾", "ひろう", "ひろっ", "持つ", "持っ", "もつ", "もっ", "外す",
             "外し", "はずす", "はずし", "摘", "抱え", "take", "pick up", "grab"),
}

LOOK_ONLY = {"examine"}
TAKE_ONLY = {"take"}


# Intents that make sense with no object named (「肩車して手を伸ばす」); the others need an item
# or an obstacle in the sentence, so everyday words do not turn into proposals.
STRONG_INTENTS = {"shoulder", "jump", "climb", "squeeze", "break", "cross"}


def fold(text: str) -> str:
    """NFKC, lower case, katakana → hiragana: the form every match compares."""
    t = unicodedata.normalize("NFKC", text).lower()
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in t)


# 「鍵を開ける」 and the like name a lock, not a key in hand: (the noun, the phrase), folded.
_LOCK_PHRASES = tuple((fold(n), fold(n + v)) for n in ("鍵", "かぎ", "錠", "じょう")
                      for v in ("を開", "をあ", "を外", "をはず"))

# Words holding an intent's key that mean something else: 見渡す (look around) is not 渡る.
_NOT_INTENTS = ("見渡", "みわた")

# The fixed words, folded once: each intent's keys, and each catalogue item's names.
_INTENT_KEYS = tuple((intent, tuple(fold(k) for k in keys)) for intent, keys in INTENTS.items())
_CATALOGUE_WORDS = tuple((cat.id, tuple(fold(w) for w in (cat.name, cat.name_en, *cat.aliases)))
                         for cat in CATALOGUE.values())


@dataclass
class Proposal:
    text: str
    items: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Items named that nobody holds (story ids or catalogue names)."""
    obstacles: list[str] = field(default_factory=list)
    pcs: list[str] = field(default_factory=list)
    intents: set[str] = field(default_factory=set)

    def understood(self, ctx: Any) -> str:
        names = [f"「{A.item_name(ctx.story, i, C.lang(ctx))}」" for i in self.items]
        return "".join(names)


# ---- obstacle definitions ----

def obstacles(story: Any) -> dict[str, dict]:
    """Every obstacle of the story: id -> definition (with ``node`` a list). Worked out once
    for an engine story: read it, never change it."""
    return A.once(story, "obstacles", _obstacles)


def _obstacles(story: Any) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for oid, ob in A.as_dict(A.options(story).get("obstacles")).items():
        d = A.as_dict(ob)
        d["node"] = C.split(d.get("node"))
        out[oid] = d
    for nid, node in A.section(story, "nodes").items():
        for oid, ob in A.as_dict(A.as_dict(A.get(node, "props")).get("obstacles")).items():
            d = A.as_dict(ob)
            d["node"] = C.split(d.get("node")) or [nid]
            out[oid] = d
    return out


def active(ctx: Any) -> dict[str, dict]:
    """Obstacles at the current node, not yet solved, not hidden (or revealed)."""
    solved, revealed = C.value(ctx, "solved"), C.value(ctx, "revealed")
    node = A.get(ctx.state, "node")
    return {oid: ob for oid, ob in obstacles(ctx.story).items()
            if (not ob["node"] or node in ob["node"]) and oid not in solved
            and (not ob.get("hidden") or oid in revealed)}


def ob_name(ctx: Any, ob: dict, oid: str) -> str:
    if C.lang(ctx) == "en":
        return ob.get("name_en") or ob.get("name") or oid
    return ob.get("name") or oid


def fixtures(ctx: Any, ob: dict | None = None) -> list[str]:
    """Story items usable where they stand (a desk, a statue): node props and the obstacle.
    An entry ``{item: box, vars: [looked]}`` is there only once those story variables are
    true (the player has seen it): a proposal cannot use, and so reveal, what was never shown."""
    node = A.get(ctx.state, "node")
    out = _seen(ctx, A.node_props(ctx.story, node).get("fixtures"))
    if ob:
        out += _seen(ctx, ob.get("fixtures"))
    return list(dict.fromkeys(out))


def _seen(ctx: Any, raw: Any) -> list[str]:
    if not isinstance(raw, (list, tuple)):
        return C.split(raw)
    story_vars = A.get(ctx.state, "vars") or {}
    out = []
    for f in raw:
        if isinstance(f, dict):
            if f.get("item") and all(story_vars.get(v) for v in C.split(f.get("vars"))):
                out.append(str(f["item"]))
        elif f is not None and f != "":
            out.append(str(f))
    return out


# ---- parsing ----

_PARTICLES = set("をにがはでとのもへや")


def _word_start(text: str, pos: int, word: str) -> bool:
    """A short kana word (「べる」, 「いた」) starts a word only at the start, after a particle
    or after anything that is not kana or kanji: 「調べる」 names no bell, 「叩いた」 no board."""
    if len(word) > 2 or not all("ぁ" <= c <= "ゖ" or c == "ー" for c in word) or pos == 0:
        return True
    prev = text[pos - 1]
    if "一" <= prev <= "鿿" or "々" == prev:
        return False
    if "ぁ" <= prev <= "ゖ" or prev == "ー":
        return prev in _PARTICLES
    return True

def _item_words(story: Any, item: str) -> tuple[str, ...]:
    """The folded words naming an item, repeats kept (each one masks one mention)."""
    table = A.memo(story, "folded_words")
    if table is None:
        return tuple(fold(w) for w in A.item_words(story, item))
    hit = table.get(item)
    if hit is None:
        hit = table[item] = tuple(fold(w) for w in A.item_words(story, item))
    return hit


def parse(ctx: Any, text: str) -> Proposal:
    prop = Proposal(text)
    folded = fold(text)
    acts = active(ctx)
    held = set(A.held(ctx.state)) | set(fixtures(ctx))
    for ob in acts.values():
        held |= set(fixtures(ctx, ob))
    # (word, kind, id), longest first so 「木箱」 wins over 「箱」. Only words found in the
    # proposal can match below, so the others are left out now (same result, far sooner).
    words: list[tuple[str, str, str]] = []
    story_items = set(A.section(ctx.story, "items")) | held
    for item in story_items:
        words += [(w, "item", item) for w in _item_words(ctx.story, item) if w in folded]
    for cat_id, cat_words in _CATALOGUE_WORDS:
        if cat_id not in story_items:
            words += [(w, "cat", cat_id) for w in cat_words if w in folded]
    for oid, ob in acts.items():
        for w in [oid, ob.get("name"), ob.get("name_en"), *(ob.get("aliases") or [])]:
            if w and fold(str(w)) in folded:
                words.append((fold(str(w)), "obstacle", oid))
    stats = A.stats(ctx.state)
    pcs = C.pc_ids(ctx)
    for cid in pcs + [c for c in stats if c not in pcs]:
        for w in (cid, stats.get(cid, {}).get("name")):
            if w and len(str(w)) > 1 and fold(str(w)) in folded:
                words.append((fold(str(w)), "pc", cid))
    # Longest first (「木箱」 before 「箱」); ties in a fixed order, never a set's hash order,
    # so the same proposal always reads the same.
    rank = {"item": 0, "cat": 1, "obstacle": 2, "pc": 3}  # a story's own item wins a shared word
    words.sort(key=lambda w: (-len(w[0]), rank[w[1]], w[0], w[2]))
    mask = folded
    # 「鍵を開ける」 opens a lock: that 鍵 is the lock, not a key to hold.
    unlock = False
    for noun, phrase in _LOCK_PHRASES:
        at = mask.find(phrase)
        while at >= 0:
            mask = mask[:at] + "\0" * len(noun) + mask[at + len(noun):]
            unlock = True
            at = mask.find(phrase, at + len(noun))
    found: list[tuple[int, str, str]] = []
    for w, kind, ident in words:
        if not w or w not in mask:  # (an earlier, longer word may have masked it)
            continue
        pat = re.escape(w)
        if re.fullmatch(r"[a-z0-9 \-']+", w):
            pat = rf"\b{pat}s?\b"  # whole English words (ladder, ladders)
        m = next((m for m in re.finditer(pat, mask) if _word_start(mask, m.start(), w)), None)
        if not m:
            continue
        mask = mask[:m.start()] + "\0" * (m.end() - m.start()) + mask[m.end():]
        found.append((m.start(), kind, ident))
    # Things are listed in the order the proposal names them (「木箱に梯子を載せて」: box, ladder).
    for _pos, kind, ident in sorted(found):
        if kind == "item":
            (prop.items if ident in held else prop.missing).append(ident)
        elif kind == "cat":
            prop.missing.append(ident)
        elif kind == "obstacle":
            prop.obstacles.append(ident)
        else:
            prop.pcs.append(ident)
    for w in _NOT_INTENTS:  # words that only look like an intent (見渡す is no crossing)
        mask = mask.replace(w, "\0" * len(w))
    for intent, keys in _INTENT_KEYS:
        if any(k in mask for k in keys):
            prop.intents.add(intent)
    if unlock:
        prop.intents.add("unlock")
    if re.match(r"(?:x|ex|l at)\s", folded):
        prop.intents.add("examine")  # the Frotz abbreviations: x box, l at window
    for lst in (prop.items, prop.missing, prop.obstacles, prop.pcs):
        lst[:] = list(dict.fromkeys(lst))
    return prop


# ---- platforms ----

def forms(ctx: Any, item: str) -> list[P.Form]:
    props = A.item_props(ctx.story, item)
    mods = C.value(ctx, "mods")
    if mods.get(item) == "bent":
        return []  # a bent ladder is a hook now, not a ladder
    name = A.item_name(ctx.story, item, "ja")
    name_en = A.item_name(ctx.story, item, "en")
    out = []
    own = A.as_dict(A.get(A.story_item(ctx.story, item), "props"))
    plat = props.get("platform")
    if "height" in own and "platform" not in own:
        plat = None  # the story's own height wins over the catalogue's forms
    if isinstance(plat, list):
        for f in plat:
            f = A.as_dict(f)
            if item in mods and f.get("form") not in (mods[item], None):
                continue
            out.append(P.Form(item, name, name_en, P.metres(f["height"]), bool(f.get("unstable")),
                              bool(f.get("support"))))
    elif props.get("height") is not None and plat is not False:
        out.append(P.Form(item, name, name_en, P.metres(props["height"]),
                          bool(props.get("unstable")), bool(props.get("support"))))
    return out


def reach_attempt(ctx: Any, height: Any, items: Any = None, pcs: Any = None, how: str = "",
                  *, run_up_room: bool = True, pull_up: bool = False) -> tuple[bool, P.Attempt | None]:
    """Decides whether the PCs reach ``height`` m; ``items`` None = any held platform."""
    target = P.metres(height)
    ids = C.who_list(ctx, pcs)
    people = [C.character(ctx, c) for c in ids]
    exact = items is not None and items != ""
    chosen = C.split(items) if exact else A.held(ctx.state)
    fb = {i: forms(ctx, i) for i in chosen}
    fb = {i: f for i, f in fb.items() if f}
    try:
        stances = P.stance_set(how)
    except ValueError as e:
        raise RuleError(str(e)) from None
    ok, fail = _solve(target, tuple(people), tuple((i, tuple(f)) for i, f in fb.items()),
                      stances, exact, run_up_room, pull_up)
    return (ok is not None), (ok or fail)


@functools.lru_cache(maxsize=1024)
def _solve(target: Fraction, people: tuple[P.Character, ...], forms_by_item: tuple,
           stances: tuple[str, ...], exact: bool, run_up_room: bool,
           pull_up: bool = False) -> tuple[P.Attempt | None, P.Attempt | None]:
    """``P.solve``, remembered: it is a pure function of these (frozen) values, and a story
    asks the same reach over and over. The Attempts are shared, so they are only read."""
    return P.solve(target, list(people), {i: list(f) for i, f in forms_by_item},
                   stances=stances, exact_items=exact, run_up_room=run_up_room,
                   pull_up=pull_up)


# ---- resolving a proposal ----

@dataclass
class Verdict:
    ok: bool
    text: str
    text_en: str
    way: dict | None = None


def _t(ctx: Any, v: Verdict) -> str:
    return v.text_en if C.lang(ctx) == "en" else v.text


def _tools(ctx: Any, items: list[str], kind: str) -> list[str]:
    return [i for i in items if kind in (A.item_props(ctx.story, i).get("tools") or [])]


def _needs_ok(ctx: Any, item: str) -> tuple[bool, str, str]:
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
    return False, f"{name}を安全に使うには専門知識が要る", \
        f"the {A.item_name(ctx.story, item, 'en')} needs expert knowledge to use safely"


def _way_matches(ctx: Any, way: dict, prop: Proposal, usable: set[str]) -> bool | None:
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


def resolve(ctx: Any, oid: str, ob: dict, prop: Proposal) -> Verdict | None:
    """Tries the story's ways, then the generic rules; None when nothing applies."""
    usable = set(A.held(ctx.state)) | set(fixtures(ctx, ob))
    best_fail: Verdict | None = None
    for way in ob.get("ways") or []:
        way = A.as_dict(way)
        m = _way_matches(ctx, way, prop, usable)
        if m:
            return Verdict(True, way.get("say", ""), way.get("say_en", way.get("say", "")), way)
        if m is False and best_fail is None:
            best_fail = Verdict(False, way.get("fail", "その方法はまだうまくいかない。"),
                                way.get("fail_en", "That does not work yet."))
    for rule in (_reach, _poke, _break, _unlock, _light, _gap, _narrow, _heavy):
        v = rule(ctx, ob, prop, usable)
        if v is not None:
            if v.ok:
                return v
            best_fail = best_fail or v
    return best_fail


def _people(ctx: Any, prop: Proposal) -> list[str]:
    named = [p for p in prop.pcs if p in C.active_pcs(ctx)]
    return named if named else C.active_pcs(ctx)


def _reach(ctx, ob, prop, usable):
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
    ok, att = reach_attempt(ctx, ob["height"], plats, _people(ctx, prop), how,
                            run_up_room=ob.get("run_up", True) is not False,
                            pull_up=bool(ob.get("pull_up")))
    if att is None:
        return Verdict(False, "それでは高さが足りない。", "That is not high enough.")
    ja, en = att.explain("ja"), att.explain("en")
    if ok and att.stance in ("touch", "run_touch") and not ob.get("touch"):
        return Verdict(False, f"{ja}。跳んで一瞬触れるだけでは足りない。",
                       f"{en}. A momentary touch is not enough here.")
    if ok:
        return Verdict(True, f"{ja}。届いた！", f"{en}. You reach it!")
    return Verdict(False, f"{ja}。届かない。", f"{en}. Out of reach.")


def _poke(ctx, ob, prop, usable):
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
    return Verdict(total >= target, ja + ("。届いた！" if total >= target else "。届かない。"),
                   en + (". It reaches!" if total >= target else ". Out of reach."))


def _break(ctx, ob, prop, usable):
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
        return Verdict(True, f"{tn}で{name}を壊した！", f"You smash the {name} with the {A.item_name(ctx.story, tool, 'en')}!")
    if ob.get("sturdy"):
        return Verdict(False, f"{name}は頑丈で、素手や力任せでは壊せない。",
                       f"The {name} is sturdy: bare hands and brute force will not break it.")
    if C.has_ability(ctx, "強力", ",".join(_people(ctx, prop))):
        return Verdict(True, f"〈○強力〉の力で{name}を壊した！", f"〈○Strong〉 muscles break the {name}!")
    return Verdict(False, f"素手では{name}を壊せない。", f"Bare hands cannot break the {name}.")


def _lock(ob: dict) -> dict:
    lk = ob.get("lock")
    if isinstance(lk, str):
        return {"key": lk}
    return A.as_dict(lk)


def _unlock(ctx, ob, prop, usable):
    lk = _lock(ob)
    if not lk or not prop.intents & {"unlock", "open"} and not prop.items:
        return None
    name = ob_name(ctx, ob, "")
    keys = C.split(lk.get("key"))
    for k in keys:
        if k in prop.items and k in usable:
            return Verdict(True, f"{A.item_name(ctx.story, k)}で{name}の鍵を開けた。",
                           f"The {A.item_name(ctx.story, k, 'en')} opens the {name}.")
    picks = _tools(ctx, [i for i in prop.items if i in usable], "pick")
    if not picks and "open" in prop.intents and not prop.items and "unlock" not in prop.intents:
        return Verdict(False, f"{name}には鍵がかかっている。", f"The {name} is locked.")
    if picks or "unlock" in prop.intents:
        if lk.get("safety") or lk.get("pick") is False:
            return Verdict(False, f"{name}の錠は鍵開けができない作りだ。", f"The {name}'s lock cannot be picked.")
        if not picks:
            if not prop.items:
                return Verdict(False, f"{name}には鍵がかかっている。", f"The {name} is locked.")
            return None
        if not C.has_ability(ctx, "器用", ",".join(_people(ctx, prop))):
            return Verdict(False, "鍵開けには〈○器用〉な手先が要る。", "Picking a lock takes 〈○Dexterous〉 hands.")
        return Verdict(True, f"{A.item_name(ctx.story, picks[0])}で{name}の鍵を開けた。",
                       f"You pick the {name}'s lock with the {A.item_name(ctx.story, picks[0], 'en')}.")
    return None


def _light(ctx, ob, prop, usable):
    if not ob.get("dark"):
        return None
    lights = [i for i in prop.items if i in usable and (
        A.item_props(ctx.story, i).get("light") or A.item_props(ctx.story, i).get("fire")
        or C.value(ctx, "mods").get(i) == "lit")]
    if lights:
        return Verdict(True, f"{A.item_name(ctx.story, lights[0])}で照らした。",
                       f"You light the way with the {A.item_name(ctx.story, lights[0], 'en')}.")
    if "light" in prop.intents:
        return Verdict(False, "照らす物がない。", "You have nothing to light it with.")
    if C.has_ability(ctx, "夜目", ",".join(_people(ctx, prop))) and not prop.items:
        return Verdict(True, "〈○夜目〉で暗がりを白黒に見通した。", "〈○Night-eyed〉, you see through the dark in black and white.")
    return None


def _gap(ctx, ob, prop, usable):
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
    return Verdict(ok, ja + ("。跳び越えた！" if ok else "。届かない。"),
                   en + (". Across!" if ok else ". Too short."))


def _narrow(ctx, ob, prop, usable):
    if not ob.get("narrow") or not prop.intents & {"squeeze", "climb", "move"} and not prop.pcs:
        return None
    # The party moves as one: everyone in the space has to fit, not just the one named.
    party = C.active_pcs(ctx)
    too_big = [c for c in party if not C.has_ability(ctx, "小柄", c)]
    if not too_big:
        return Verdict(True, "〈○小柄〉な体で狭い隙間を抜けた。", "〈○Small〉 enough, you slip through.")
    if len(too_big) == len(party):
        return Verdict(False, "普通の体では狭すぎて通れない。", "Too narrow for an ordinary body.")
    names = [C.character(ctx, c).label for c in too_big]
    return Verdict(False, f"{'と'.join(names)}は〈○小柄〉ではなく、狭すぎて一緒に通れない。",
                   f"{', '.join(names)} not 〈○Small〉: too narrow to come through together.")


def _heavy(ctx, ob, prop, usable):
    if not ob.get("heavy") or "move" not in prop.intents:
        return None
    tools = [i for i in prop.items if i in usable and set(A.item_props(ctx.story, i).get("tools") or [])
             & {"lift", "lever"}]
    if tools:
        return Verdict(True, f"{A.item_name(ctx.story, tools[0])}を使って動かした。",
                       f"With the {A.item_name(ctx.story, tools[0], 'en')} it moves.")
    if C.has_ability(ctx, "強力", ",".join(_people(ctx, prop))):
        return Verdict(True, "〈○強力〉の力で動かした。", "〈○Strong〉 arms shift it.")
    return Verdict(False, "重すぎて、素手では動かない。", "Too heavy to move bare-handed.")


# ---- modifications (加工) ----

def modify(ctx: Any, prop: Proposal) -> Verdict | None:
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
            return Verdict(False, f"道具なしでは{tname}は曲がらない。", f"The {A.item_name(ctx.story, target, 'en')} will not bend without a tool.")
        r["mods"][target] = "bent"
        how = f"{A.item_name(ctx.story, tool)}を使い、" if tool else "〈○強力〉の力で"
        return Verdict(True, f"{how}{tname}を中央で「く」の字に曲げた。",
                       f"You bend the {A.item_name(ctx.story, target, 'en')} in the middle.")
    if "join" in it:
        longs = [i for i in items if A.item_props(ctx.story, i).get("length")
                 and not set(A.item_props(ctx.story, i).get("tools") or []) & {"bind"}]
        binders = [i for i in A.held(ctx.state) if set(A.item_props(ctx.story, i).get("tools") or []) & {"bind", "glue"}]
        if len(longs) < 2:
            return None
        if not binders:
            return Verdict(False, "繋ぎ合わせる物がない。", "You have nothing to join them with.")
        r["joined"] = [j for j in r["joined"] if not set(j) & set(longs)] + [longs]
        length = sum((P.metres(A.item_props(ctx.story, i)["length"]) for i in longs), Fraction(0))
        names = "と".join(A.item_name(ctx.story, i) for i in longs)
        return Verdict(True, f"{A.item_name(ctx.story, binders[0])}で{names}を繋いだ（長さ {P.fmt(length)} m）。",
                       f"You join them with the {A.item_name(ctx.story, binders[0], 'en')} ({P.fmt(length)} m long).")
    if "light" in it:
        candle = next((i for i in items if A.item_props(ctx.story, i).get("needs_fire")), None)
        if candle is None:
            return None
        fire = next((i for i in A.held(ctx.state) if A.item_props(ctx.story, i).get("fire")), None)
        if fire is None:
            return Verdict(False, "火がない。", "You have no fire.")
        r["mods"][candle] = "lit"
        return Verdict(True, f"{A.item_name(ctx.story, fire)}で{A.item_name(ctx.story, candle)}に火を灯した。",
                       f"You light the {A.item_name(ctx.story, candle, 'en')}.")
    if it & {"spread", "fold", "open"}:
        target = next((i for i in items if len(A.item_props(ctx.story, i).get("platform") or []) > 1), None)
        if target is None:
            return None
        form = "step" if "fold" in it else "ladder"
        r["mods"][target] = form
        return Verdict(True, f"{A.item_name(ctx.story, target)}を{'踏み台にした' if form == 'step' else '開いて梯子にした'}。",
                       f"The {A.item_name(ctx.story, target, 'en')} is now a {'step' if form == 'step' else 'ladder'}.")
    return None


# ---- the entry point ----

def solve_obstacle(ctx: Any, oid: str, ob: dict, v: Verdict) -> None:
    r = C.R(ctx)
    if oid not in r["solved"]:
        r["solved"].append(oid)
    text = _t(ctx, v)
    if text:
        ctx.say(text, id=f"ureg.breakthrough.{oid}")
    extra = ob.get("say_en" if C.lang(ctx) == "en" else "say") or ob.get("say")
    if extra:
        ctx.say(extra, id=f"ureg.obstacle.{oid}")
    effects = list((v.way or {}).get("effects") or []) + list(ob.get("effects") or [])
    if effects:
        ctx.run_effects(effects)


SAID = "said"
"""What :func:`propose` returns for words only (a look at something): no turn is spent."""

# What kind of obstacle an intent is about: with several obstacles here and none named,
# the one the proposal fits is meant (「針金で鍵を開ける」 in a hall with a locked door and
# broken stairs is about the door).
_FITS: dict[str, tuple[str, ...]] = {
    "unlock": ("lock",), "open": ("lock",), "break": ("breakable", "sturdy"),
    "climb": ("height",), "shoulder": ("height",), "jump": ("height", "gap"), "cross": ("gap",),
    "squeeze": ("narrow",), "light": ("dark",), "move": ("heavy",), "poke": ("poke",),
    "fight": ("fight",),
}


def _fitting(acts: dict[str, dict], intents: set[str]) -> list[str]:
    keys = {k for i in intents for k in _FITS.get(i, ())}
    if not keys:
        return []
    return [oid for oid, ob in acts.items() if any(ob.get(k) not in (None, False, "") for k in keys)]


def _missing_names(ctx: Any, missing: list[str]) -> tuple[str, str]:
    names = "、".join(f"「{A.item_name(ctx.story, i) if i not in CATALOGUE or A.story_item(ctx.story, i) else CATALOGUE[i].name}」" for i in missing)
    names_en = ", ".join(A.item_name(ctx.story, i, "en") if A.story_item(ctx.story, i) or i not in CATALOGUE else CATALOGUE[i].name_en for i in missing)
    return names, names_en


def _look(ctx: Any, prop: Proposal, acts: dict[str, dict]) -> bool | str:
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
                seen.append((f"床から {P.fmt(P.metres(ob['height']))} m の高さにある",
                             f"it is {P.fmt(P.metres(ob['height']))} m above the floor"))
            if ob.get("gap") is not None:
                seen.append((f"幅は {P.fmt(P.metres(ob['gap']))} m", f"it is {P.fmt(P.metres(ob['gap']))} m across"))
            if _lock(ob):
                seen.append(("鍵がかかっている", "it is locked"))
            if ob.get("narrow"):
                seen.append(("ひどく狭い", "it is very narrow"))
            if ob.get("dark"):
                seen.append(("暗くて先が見えない", "it is too dark to see"))
            if ob.get("heavy"):
                seen.append(("ひどく重そうだ", "it looks very heavy"))
            if en:
                text = f"The {name}: " + ("; ".join(e for _, e in seen) or "nothing more to see") + \
                    ". Say how you would get past it, and with what."
            else:
                text = f"「{name}」：" + ("、".join(j for j, _ in seen) or "これといって変わったところはない") + \
                    "。どう突破するか、何を使うか、具体的に提案してみよう。"
        ctx.say(text, id=f"ureg.look.{oid}")
        said = True
    for item in prop.items:
        desc = "" if en else str(A.get(A.story_item(ctx.story, item), "description") or "")
        name = A.item_name(ctx.story, item, "en" if en else "ja")
        ctx.say(desc or (f"The {name}." if en else f"「{name}」。"), id=f"ureg.look.{item}")
        said = True
    return SAID if said else False  # a thing not at hand: the engine's "not understood"


def propose(ctx: Any, text: str) -> bool | str:
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
            ctx.say(f"You already have: {names_en}." if C.lang(ctx) == "en" else f"{names}はもう手元にある。",
                    id="ureg.have")
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
        elif len(acts) == 1 and not ("unlock" in prop.intents and not fitting) and (
                prop.items or prop.intents & STRONG_INTENTS or (
                "fight" in prop.intents and next(iter(acts.values())).get("fight"))):
            targets = list(acts)
    if not prop.items and not prop.missing and not targets and not prop.obstacles:
        return False
    lang_en = C.lang(ctx) == "en"
    if prop.missing:
        # Everything the proposal names takes part, or it is said what is not at hand: a
        # plan that silently drops the ladder it names is not the player's plan.
        names, names_en = _missing_names(ctx, prop.missing)
        ctx.say(f"You do not have: {names_en}." if lang_en else f"{names}は手元にない。", id="ureg.missing")
        return True
    if not targets:
        what = prop.understood(ctx)
        ctx.say("Use it on what? Nothing here seems to need it yet." if lang_en else
                f"{what}を何に使うのか、ここでは対象が見当たらない。", id="ureg.no_target")
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
        ctx.say(f"Understood: {', '.join([A.item_name(ctx.story, i, 'en') for i in prop.items] + [ob_name(ctx, ob, oid)])}. "
                "But how exactly? That plan does not get you past it." if lang_en else
                f"{understood}について考えたが、その方法では突破できそうにない。どう使うか、もう少し具体的に。",
                id="ureg.not_through")
    else:
        ctx.say(_t(ctx, v) if lang_en else f"{understood}：{v.text}", id="ureg.not_through")
    return True


# ---- combat (戦闘) against an enemy obstacle ----

def _plan_matches(ctx: Any, plan: dict, prop: Proposal, usable: set[str]) -> bool:
    items = C.split(plan.get("items"))
    words = [fold(str(w)) for w in (plan.get("words") or [])]
    if not (items or words):
        return False
    if items and not set(items) <= set(prop.items) & usable:
        return False
    return not words or any(w in fold(prop.text) for w in words)


def fight_obstacle(ctx: Any, oid: str, ob: dict, prop: Proposal) -> None:
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
    plan = next((A.as_dict(p) for p in cfg.get("plans") or []
                 if _plan_matches(ctx, A.as_dict(p), prop, usable)), {})
    plan_items = set(C.split(plan.get("items")))
    weapons = [i for i in prop.items if i in usable and i not in plan_items
               and K.item_power(A.item_props(ctx.story, i)) > 0]
    lang = C.lang(ctx)
    if plan.get("say"):
        ctx.say(plan.get("say_en", plan["say"]) if lang == "en" else plan["say"], id=f"ureg.plan.{oid}")
    result = plan.get("result") if C.option(ctx.story, "combat") == "about" else None
    if result in K.RESULT_KEYS:
        ctx.say(C.t(ctx, K.RESULT_JA[result], K.RESULT_EN[result]), id="ureg.fight")
    else:
        armed = []
        for n, cid in enumerate(fighters):
            w = weapons[n] if n < len(weapons) else None
            armed.append((C.character(ctx, cid), A.item_name(ctx.story, w) if w else "",
                          A.item_name(ctx.story, w, "en") if w else "",
                          A.item_props(ctx.story, w) if w else None))
        res = K.fight(armed, C.enemy_total(ctx, enemies), plan.get("modifier", 0))
        result = res.result
        res.say(ctx, lang)
    continues = C.value(ctx, "continues")
    C.apply_result(ctx, result, fighters, enemies)
    if A.get(ctx.state, "ending") or C.value(ctx, "continues") != continues:
        return  # everyone vanished: the game is over, or the watch started it again
    if result == K.DISADVANTAGE:
        effects = list(cfg.get("disadvantage") or [])
        if effects:
            ctx.run_effects(effects)
        return
    solve_obstacle(ctx, oid, ob, Verdict(True, "", "", {"effects": list(cfg.get(result) or [])}))


def give_hint(ctx: Any, about: str | None = None) -> bool:
    """〈○閃き〉's special hint, once per scenario play (UA-19), about the obstacle ``about``
    (the player's question) or else the first one here."""
    r = C.R(ctx)
    if not C.hint_available(ctx):
        ctx.say(C.t(ctx, "特別なヒントはもう使った（または〈○閃き〉のPCがいない）。",
                    "The special hint is used up (or no PC has 〈○Inspiration〉)."), id="ureg.hint_none")
        return False
    acts = active(ctx)
    if not acts:
        ctx.say(C.t(ctx, "今は閃くことがない。", "Nothing comes to mind just now."), id="ureg.hint_none")
        return False
    oid = about if about in acts else next(iter(acts))
    ob = acts[oid]
    text = ob.get("hint_en" if C.lang(ctx) == "en" else "hint") or ob.get("hint")
    if not text:
        ways = [A.as_dict(w) for w in ob.get("ways") or []]
        items = [i for w in ways for i in C.split(w.get("items"))]
        if items:
            text = C.t(ctx, f"閃いた！「{A.item_name(ctx.story, items[0])}」が役に立ちそうだ。",
                       f"Inspiration! The {A.item_name(ctx.story, items[0], 'en')} could help.")
        elif ob.get("height") is not None:
            text = C.t(ctx, "閃いた！高さを足せる物を、重ねて使えないだろうか。",
                       "Inspiration! Could things that add height be stacked?")
        else:
            text = C.t(ctx, f"閃いた！「{ob_name(ctx, ob, oid)}」をよく調べてみよう。",
                       f"Inspiration! Look closely at the {ob_name(ctx, ob, oid)}.")
    r["hint_used"] = True
    ctx.say(text, id="ureg.hint")
    return True
