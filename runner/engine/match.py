"""Matching what a player types or says to the actions valid now.

A command is read against each action's *forms*, built once per story and kept in
``Story.cache``: its label, id and aliases; the label without the annotation at its end
(「ノートを読む（30分）」 → 「ノートを読む」); and kana readings of the label and the aliases.
Readings come from the story's ``readings:`` (its words replaced by their kana) or, where the
loader handed one in as ``story.cache["_kana"]`` (a mapping text → kana: see
:mod:`runner.kana`, which uses pyopenjtalk when it is installed), from that mapping. Nothing
here imports anything outside the standard library.

The tiers, first that finds anything decides (see :func:`find`):

1. a label, id or alias, exactly (folded: width, kana, case, punctuation); an alias that
   other listed actions' labels also contain names all of them (the question);
2. the label without its annotation, or a reading, exactly;
3. a part of the label (without annotation), of an alias or of a reading;
4. the typed words in order with gaps, at most three pieces (「本棚を調べる」 for
   「本棚を入念に調べる」);
5. a part of the whole label, annotation included (「目星」);
6. a verb and its object: ``x 時計``, ``examine clock``, ``take ladder``, 「カーテンを取る」.

One action found: that action. Several: the candidates, for the front end to ask which.
Hidden actions (secret words) answer only to tiers 1-2, and are never listed.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

MAX_COMMAND = 16_384
"""Longest command (characters) the engine reads; a longer one is refused with one error
(the same bound as a ``--jsonl`` line's bytes). Rule (``@``) and GM (``!``) commands have
their own validators."""

_CACHED_LEN = 200
"""Texts up to this long are remembered by :func:`normalise` (labels, aliases, what people
type); longer ones are folded each time and never kept."""

_PUNCT = re.compile(r"[\s\u3000。、，．・！？!?「」『』（）()\[\]【】\"'`~…‥ー－\-_.,:;]+")


@lru_cache(maxsize=1)
def _ideograph() -> re.Pattern[str]:
    """One kanji (a reading may be needed). Compiled at the first match, not at import: its
    class of ~28,000 code points takes ~27 M instructions to compile, at every start."""
    return re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆〇]")


_HIRAGANA = {k: k - 0x60 for k in range(ord("ァ"), ord("ヶ") + 1)}
"""Katakana → hiragana (``str.translate``'s table)."""


def _kata_to_hira(s: str) -> str:
    return s.translate(_HIRAGANA)


def _fold(text: str) -> str:
    s = unicodedata.normalize("NFKC", text)
    s = _kata_to_hira(s).casefold()
    return _PUNCT.sub("", s)


_fold_cached = lru_cache(maxsize=4096)(_fold)


def normalise(text: str) -> str:
    """Folds width (全角/半角), kana (カタカナ→ひらがな), case and punctuation away.

    Remembers at most 4,096 short texts (least recently used go first), so a session fed
    endless distinct lines does not grow."""
    return _fold_cached(text) if len(text) <= _CACHED_LEN else _fold(text)


_NOTE = re.compile(r"[（(](?:[^（）()]|[（(][^（）()]*[）)])*[）)]\s*$")


def strip_note(label: str) -> str:
    """The label without the annotation(s) at its end: 「ノートを読む（30分）」 → 「ノートを読む」,
    「日本語らしき背表紙を読む（ほかの言語(日本語)）」 → 「日本語らしき背表紙を読む」. A label that is
    all annotation is kept whole."""
    s = label.rstrip()
    while True:
        m = _NOTE.search(s)
        if m is None or not s[: m.start()].strip():
            return s
        s = s[: m.start()].rstrip()


# ---- readings ---------------------------------------------------------------------------

Reader = Callable[[str], "str | None"]


def _substitution(readings: Mapping[str, str]) -> Reader:
    """The story's own readings: each listed word replaced by its kana (longest first)."""
    words = sorted((w for w in readings if w), key=len, reverse=True)
    if not words:
        return lambda text: None
    pattern = re.compile("|".join(re.escape(w) for w in words))

    def read(text: str) -> str | None:
        out = pattern.sub(lambda m: str(readings[m.group(0)]), text)
        return out if out != text else None

    return read


def reader(story: Any) -> Reader:
    """How this story's texts are read in kana: the mapping the loader handed in
    (``story.cache["_kana"]``), else the story's ``readings:``."""
    cache = story.cache
    hit: Reader | None = cache.get("_match_reader")
    if hit is not None:
        return hit
    table = cache.get("_kana")
    read: Reader
    if table is not None:

        def read(text: str) -> str | None:
            try:
                out = table[text]
            except LookupError:
                return None
            return out if isinstance(out, str) and out else None
    else:
        read = _substitution(getattr(story, "readings", None) or {})
    cache["_match_reader"] = read
    return read


# ---- the forms of an action -----------------------------------------------------------------


class Forms(NamedTuple):
    exact: tuple[str, ...]
    """Tier 1: the label, id and aliases, folded."""
    plain: frozenset[str]
    """Tier 2: the label without its annotation, and the readings of it and of the aliases."""
    parts: tuple[str, ...]
    """Tiers 3, 4 and 6: what a part of names the action (label without annotation, aliases,
    readings)."""
    full: str
    """Tier 5: the whole label, annotation included."""


def forms(story: Any, action: Any, shown: str | None = None) -> Forms:
    """An action's forms, built once per story. ``shown``: the label as listed now, when it
    differs from the written one (a label with ``{…}`` text: 「コインを{coins}枚払う」 is typed
    as the player saw it, 「コインを3枚払う」); those forms are kept per shown text."""
    table = story.cache.get("_forms")
    if table is None:
        table = story.cache["_forms"] = {}
    key: Any = id(action)
    if shown is not None and shown != action.label:
        key = (key, shown)
    hit = table.get(key)
    if hit is not None and hit[0] is action:
        built: Forms = hit[1]
        return built
    label = str(action.label) if shown is None else shown
    if len(table) > 20000:
        # Bounded: shown labels vary with the game, and a rule system may build its offers
        # afresh each turn (a push after a failed check), each a new action kept alive here.
        table.clear()
    read = reader(story)
    plain_label = strip_note(label)
    aliases = [str(a) for a in action.aliases]
    exact = tuple(
        dict.fromkeys(
            x
            for x in (normalise(label), normalise(str(action.id)), *(normalise(a) for a in aliases))
            if x
        )
    )
    kana: list[str] = []
    for text in (plain_label, *aliases):
        if not _ideograph().search(text):
            continue  # nothing a reading would change (kana, Latin): no look-up
        k = read(text)
        if k:
            nk = normalise(k)
            if nk and nk != normalise(text):
                kana.append(nk)
    plain = normalise(plain_label)
    parts = tuple(dict.fromkeys(x for x in (plain, *(normalise(a) for a in aliases), *kana) if x))
    f = Forms(exact, frozenset(x for x in (plain, *kana) if x), parts, normalise(label))
    table[key] = (action, f)
    return f


def forms_of(story: Any, choices: Iterable[Any]) -> list[tuple[Any, Forms]]:
    """Each choice with its action's :func:`forms`, in one pass: a choice listed with its
    action's own label (the very string) has them under the action, looked up here without
    a call per choice; others (a label with ``{…}`` worked out) go through :func:`forms`."""
    table = story.cache.get("_forms") or {}
    out = []
    for c in choices:
        a = c.action
        hit = table.get(id(a)) if c.label is a.label else None
        out.append((c, hit[1] if hit is not None and hit[0] is a else forms(story, a, c.label)))
    return out


# ---- finding ---------------------------------------------------------------------------------


class Found(NamedTuple):
    """What :func:`find` made of a command."""

    choice: Any = None
    """The one action it names, or None."""
    candidates: tuple[Any, ...] = ()
    """When it names several listed actions: those, in list order."""
    how: str = ""
    """The tier that decided: exact, plain, part, words, note, verb."""


_EN_VERB = re.compile(
    r"^(x|ex|examine|look at|l at|look|inspect|check|search|read|take|get|pick up|"
    r"grab|open|unlock)\s+(?:the\s+|a\s+|an\s+)?(.+)$"
)
_EN_CLASS = {
    "x": "examine",
    "ex": "examine",
    "examine": "examine",
    "look at": "examine",
    "l at": "examine",
    "look": "examine",
    "inspect": "examine",
    "check": "examine",
    "search": "examine",
    "read": "read",
    "take": "take",
    "get": "take",
    "pick up": "take",
    "grab": "take",
    "open": "open",
    "unlock": "open",
}

VERBS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # class: (Japanese stems found anywhere in a form, English words a form starts with)
    "examine": (
        (
            "調べ",
            "しらべ",
            "見る",
            "見て",
            "みる",
            "眺め",
            "ながめ",
            "確かめ",
            "たしかめ",
            "観察",
            "覗",
            "のぞ",
            "見定め",
            "見比べ",
            "見回",
            "見渡",
            "目を通",
        ),
        ("x", "examine", "look", "inspect", "check", "search"),
    ),
    "take": (
        (
            "取る",
            "取っ",
            "取り",
            "とる",
            "とっ",
            "拾",
            "ひろ",
            "持つ",
            "持っ",
            "持ち",
            "もつ",
            "もっ",
            "外す",
            "外し",
            "はず",
            "摘",
            "つむ",
            "抱え",
            "かかえ",
            "手に取",
        ),
        ("take", "get", "pick", "grab"),
    ),
    "open": (("開け", "開く", "あけ", "ひらく", "開錠"), ("open", "unlock")),
    "read": (("読", "よむ", "よん", "よみ"), ("read",)),
}
_JA_STEMS = tuple((cls, tuple(normalise(s) for s in ja)) for cls, (ja, _) in VERBS.items())
_STEMS = dict(_JA_STEMS)


def _enough(key: str) -> bool:
    """Long enough for a part to name something: two characters, or one ideograph (窓, 火)."""
    return len(key) >= 2 or bool(_ideograph().match(key))


_PARTICLES = frozenset("をにでへとのがはも")


def in_order(key: str, form: str, max_pieces: int = 3) -> bool:
    """Whether ``key`` is found in ``form`` as two to ``max_pieces`` pieces of at least two
    characters each, in order, with gaps between (each piece as long as it can be). A
    particle left alone between pieces may be missing (「絨毯を調べる」 in
    「絨毯とローテーブルを入念に調べる」)."""
    n = len(key)
    if n < 4 or len(form) <= n:
        return False
    i = pos = pieces = 0
    while i < n:
        length = 0
        at = -1
        while i + length < n:
            j = form.find(key[i : i + length + 1], pos)
            if j < 0:
                break
            length += 1
            at = j
        if length < 2:
            if key[i] in _PARTICLES and 0 < i < n - 1:
                i += 1
                continue
            return False
        pieces += 1
        if pieces > max_pieces:
            return False
        pos = at + length
        i += length
    return pieces >= 2


def is_verb_phrase(text: str) -> bool:
    """``x 時計``, ``look at the clock``, ``take ladder``: an English verb and an object."""
    return _EN_VERB.match(unicodedata.normalize("NFKC", text).strip().casefold()) is not None


def _verb_object(text: str, key: str) -> tuple[str, str] | None:
    """(verb class, folded object) of 「時計を見る」, ``x clock``, ``take the ladder``."""
    en = _EN_VERB.match(unicodedata.normalize("NFKC", text).strip().casefold())
    if en:
        obj = normalise(en.group(2))
        return (_EN_CLASS[en.group(1)], obj) if obj else None
    at = key.rfind("を")
    for _ in range(3):  # the verb is at the end: the last few を are enough
        if at <= 0:
            break
        rest = key[at + 1 :]
        for cls, stems in _JA_STEMS:
            if any(rest.startswith(s) for s in stems):
                return cls, key[:at]
        at = key.rfind("を", 0, at)
    return None


_LIKE = {"examine": ("examine", "read")}
"""Examining a thing written on is reading it (``x 新聞`` → 新聞を読む)."""


def _has_verb(f: Forms, cls: str) -> bool:
    for c in _LIKE.get(cls, (cls,)):
        stems = _STEMS[c]
        if any(s in p for p in f.parts for s in stems) or any(
            p.startswith(w) for p in f.exact for w in VERBS[c][1]
        ):
            return True
    return False


def _decide(hits: list[Any], how: str) -> Found | None:
    if not hits:
        return None
    uniq = list(dict.fromkeys(hits))
    if len(uniq) == 1:
        return Found(uniq[0], (), how)
    return Found(None, tuple(uniq), how)


def find(
    story: Any, choices: Iterable[Any], text: str, *, fuzzy: bool = True, verbs: bool = True
) -> Found:
    """Reads ``text`` against ``choices`` (objects with ``n``, ``action``; ``n == 0`` for a
    hidden action). With ``fuzzy=False`` only tiers 1-2 (whole names) are tried."""
    key = normalise(text)
    if not key:
        return Found()
    fs = forms_of(story, choices)
    for c, f in fs:
        if key in f.exact:
            if not c.n or key in (normalise(str(c.action.label)), normalise(str(c.action.id))):
                return Found(c, (), "exact")  # its label or id
            # An alias that other listed actions' labels also hold is no better a name for
            # this one than for them (「背表紙」 beside 「③背表紙から…探す」): ask which.
            also = [o for o, g in fs if o is not c and o.n and g.parts and key in g.parts[0]]
            if not also:
                return Found(c, (), "exact")
            return Found(None, tuple(sorted((c, *also), key=lambda x: x.n)), "exact")
    keys = [key]
    if len(text) <= _CACHED_LEN and _ideograph().search(text):
        k = reader(story)(text)  # 「眼鏡を掛ける」 read as 「めがねをかける」
        nk = normalise(k) if k else ""
        if nk and nk != key:
            keys.append(nk)
    for pool in ([(c, f) for c, f in fs if c.n], [(c, f) for c, f in fs if not c.n]):
        got = _decide([c for c, f in pool if any(k in f.plain for k in keys)], "plain")
        if got is not None:
            return got
    if not fuzzy:
        return Found()
    vis = [(c, f) for c, f in fs if c.n]
    # What was typed first, then its reading (a fragment's reading finds too much).
    for k in keys:
        if not _enough(k):
            continue
        got = (
            _decide([c for c, f in vis if any(k in p for p in f.parts)], "part")
            or _decide([c for c, f in vis if any(in_order(k, p) for p in f.parts)], "words")
            or _decide([c for c, f in vis if k in f.full], "note")
        )
        if got is not None:
            return got
    if verbs:
        vo = _verb_object(text, key)
        if vo is not None and _enough(vo[1]):
            cls, obj = vo
            named = [(c, f) for c, f in vis if any(obj in p for p in f.parts) or obj in f.full]
            # Only an action that does what was asked: looking at the box must not push it.
            got = _decide([c for c, f in named if _has_verb(f, cls)], "verb")
            if got is None and cls == "examine":
                # To look at a thing over there, go to it (「本棚を調べる」 → 「本棚へ」).
                got = _decide(
                    [c for c, f in named if f.parts and f.parts[0].endswith("へ")], "verb"
                )
            if got is not None:
                return got
    return Found()


def _may_be_close(key: str, texts: Iterable[str], cutoff: float) -> list[str]:
    """The ``texts`` that :func:`difflib.get_close_matches` could find close to ``key`` (the
    rest it would turn down anyway). Its first tests count, one character at a time in
    Python, the characters a text shares with ``key``; here the characters of a text found
    in ``key`` at all (as many or more) are counted in C (what ``str.translate`` deletes),
    and a text whose ratio cannot reach ``cutoff`` even so is dropped."""
    of_key = dict.fromkeys(map(ord, key))
    lk = len(key)
    return [
        x  # (the ratio as difflib works it out: 2 * shared / both lengths)
        for x in texts
        if 2.0 * min(len(x) - len(x.translate(of_key)), lk) / (len(x) + lk) >= cutoff
    ]


def suggestions(text: str, candidates: dict[str, str], n: int = 3) -> list[str]:
    """Labels whose normalised words are close to ``text`` (``candidates``: normalised → label)."""
    key = normalise(text)
    if not key:
        return []
    hits = difflib.get_close_matches(key, _may_be_close(key, candidates, 0.55), n * 2, 0.55)
    out: list[str] = []
    for h in hits:
        label = candidates[h]
        if label not in out:
            out.append(label)
    if not out and len(key) >= 2:
        for norm, label in candidates.items():
            if (key in norm or norm in key) and label not in out:
                out.append(label)
    return out[:n]
