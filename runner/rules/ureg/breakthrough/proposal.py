"""A proposal read: the items, people, obstacles and intents named in the player's words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from runner.rules.base import Context
from runner.rules.ureg import access as A
from runner.rules.ureg import core as C
from runner.rules.ureg.breakthrough.obstacles import active, fixtures
from runner.rules.ureg.breakthrough.words import (
    _CATALOGUE_WORDS,
    _INTENT_KEYS,
    _LOCK_PHRASES,
    _NOT_INTENTS,
    fold,
)


@dataclass
class Proposal:
    text: str
    items: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Items named that nobody holds (story ids or catalogue names)."""
    obstacles: list[str] = field(default_factory=list)
    pcs: list[str] = field(default_factory=list)
    intents: set[str] = field(default_factory=set)

    def understood(self, ctx: Context) -> str:
        names = [f"「{A.item_name(ctx.story, i, C.lang(ctx))}」" for i in self.items]
        return "".join(names)


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


def parse(ctx: Context, text: str) -> Proposal:
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
            mask = mask[:at] + "\0" * len(noun) + mask[at + len(noun) :]
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
        mask = mask[: m.start()] + "\0" * (m.end() - m.start()) + mask[m.end() :]
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
