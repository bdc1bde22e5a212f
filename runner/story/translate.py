"""Translations: every player-visible string of a story by a stable id, and a translation
laid over a loaded :class:`Story` so that it plays in another language.

A story's translation into LANG lives beside it, in ``STORY/translations/LANG.po`` (for a
one-file story ``x.yaml``: ``translations/x.LANG.po`` next to it): gettext PO, one entry a
string, the string's id as ``msgctxt``, the source text as ``msgid``, the translation as
``msgstr``, and ``#. source-hash: H`` the hash of the source text the translation was made
from. docs/translating.md walks a translator through it.

Ids (see :func:`entries`):

- narration: the line's own id (``room.opening``, ``room.look_around.say.1``);
- ``story.title``, ``story.description``, ``story.length``;
- ``NODE.title``; ``NODE.ACTION.label`` and ``NODE.ACTION.aliases`` (the words a player
  may type, separated by `` | ``: a translation gives its own language's words);
- ``end.ENDING.title``; ``variables.NAME.label``; ``items.ID.name``, ``items.ID.description``;
  ``characters.ID.name``, ``characters.ID.unknown_name``;
- rule data the rule system marks as text (``RuleSystem.text_keys``): ``NODE.props.PATH``,
  ``story.options.PATH``, ``section.SYSTEM.PATH`` (``room.props.obstacles.window.hint``);
- the rule system's own words (``RuleSystem.texts``): ``rules.SYSTEM.KEY``.

An id depends only on where its string is, so editing one string never moves another's.

A translation is applied by :func:`apply`: a new Story with every fresh translation in place,
``language`` the language played, and ``translation`` an :class:`Applied` record. A string
with no translation, or whose source changed since it was translated (*stale*: its hash
differs, or the translator left it fuzzy), stays in the source language; a game master's
view marks those lines (:func:`mark_events`).
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.story.model import Action, Narration, Node, Outcome, Story

ALIAS_SEP = " | "
"""Between the words of an ``aliases`` entry (a player may type any of them)."""

HASH_NOTE = "source-hash: "
NAMES_KEY = "#proper_names"
"""The names a translation keeps in the source script (「深海」 in an English game), as the
unit of this key: the PO header ``X-Katari-Proper-Names``, the CSV row ``#proper_names``;
comma-separated."""
MAX_TRANSLATION_BYTES = 16 * 1024 * 1024
"""A translation file larger than this is refused (a story's own limit is of this order)."""


class TranslationError(ValueError):
    """A translation file that cannot be used; the message is one line."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One translatable string of a story."""

    key: str
    """Its id (the PO ``msgctxt``)."""
    text: str
    """The source text (for ``aliases``: the words joined by :data:`ALIAS_SEP`)."""
    kind: str
    """narration, keeper, title, label, aliases, name, description, text, rules ..."""
    node: str = ""
    speaker: str = ""


@dataclass(frozen=True)
class Applied:
    """The translation a played Story carries (``Story.translation``)."""

    lang: str
    source_lang: str
    path: str
    """The translation file ("" when there is none)."""
    missing: frozenset[str] = frozenset()
    stale: frozenset[str] = frozenset()
    rule_texts: dict[str, str] = field(default_factory=dict)
    """``rules.SYSTEM.KEY`` → the translation's wording of a rule system's own text."""
    proper_names: frozenset[str] = frozenset()
    """Names the translation keeps as written in the source script (:data:`NAMES_KEY`)."""

    @property
    def fallback(self) -> frozenset[str]:
        """The ids shown in the source language (no translation, or a stale one)."""
        return self.missing | self.stale


def source_hash(text: str) -> str:
    """The short hash of a source text a translation records (12 hex digits of SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


# ---- what a story has to translate --------------------------------------------------


def _rules(story: Story) -> Any:
    from runner.rules import system

    try:
        return system(story.rules)
    except KeyError:
        return None


def entries(story: Story) -> list[Entry]:
    """Every player-visible string of ``story``, in story order, each once (by id)."""
    out: dict[str, Entry] = {}

    def add(key: str, text: Any, kind: str, node: str = "", speaker: str = "") -> None:
        if isinstance(text, str) and text.strip() and key not in out:
            out[key] = Entry(key, text, kind, node, speaker or "")

    add("story.title", story.title, "title")
    add("story.description", story.description, "description")
    add("story.length", story.length, "length")
    rs = _rules(story)
    text_keys = rs.text_keys if rs is not None else frozenset()
    for cid, c in story.characters.items():
        add(f"characters.{cid}.name", c.name if c.name != cid else "", "name")
        add(f"characters.{cid}.unknown_name", c.unknown_name, "name")
        for path, text, kind in _data_texts(c.props, text_keys):
            add(f"characters.{cid}.props.{path}", text, kind)
    for iid, it in story.items.items():
        add(f"items.{iid}.name", it.name if it.name != iid else "", "name")
        add(f"items.{iid}.description", it.description, "description")
        for path, text, kind in _data_texts(it.props, text_keys):
            add(f"items.{iid}.props.{path}", text, kind)
    for name, v in story.variables.items():
        add(f"variables.{name}.label", v.label, "label")
    for nid, node in story.nodes.items():
        add(f"{nid}.title", node.title, "title", nid)
        for line in (*node.narration, *node.keeper):
            _line(add, line, nid)
        _effects(add, node.on_enter, nid)
        for a in node.actions:
            add(f"{a.key}.label", a.label, "label", nid)
            if a.aliases:
                add(f"{a.key}.aliases", ALIAS_SEP.join(a.aliases), "aliases", nid)
            _effects(add, a.effects, nid)
            for o in a.outcomes:
                _effects(add, o.effects, nid)
            _effects(add, a.after, nid)
        for path, text, kind in _data_texts(node.props, text_keys):
            add(f"{nid}.props.{path}", text, kind, nid)
    for eid, e in story.endings.items():
        add(f"end.{eid}.title", e.title, "title", eid)
        for line in e.narration:
            _line(add, line, eid)
    for ev in story.events:
        add(f"event.{ev.id}.title", ev.title, "title", f"event {ev.id}")
        _effects(add, ev.effects, f"event {ev.id}")
    for path, text, kind in _data_texts(story.options, text_keys):
        add(f"story.options.{path}", text, kind)
    for section, data in story.extra.items():
        for path, text, kind in _data_texts(data, text_keys):
            add(f"section.{section}.{path}", text, kind)
    if rs is not None and rs.texts is not None:
        for key, text in rs.texts(story.language).items():
            add(f"rules.{story.rules}.{key}", text, "rules")
    return list(out.values())


def _line(add: Any, line: Narration, node: str) -> None:
    add(line.id, line.text, "keeper" if line.keeper else "narration", node, line.speaker or "")


def _effects(add: Any, effects: tuple[Any, ...], node: str) -> None:
    for e in effects:
        k = e[0]
        if k == "say":
            for line in e[1]:
                _line(add, line, node)
        elif k == "if":
            _effects(add, e[2], node)
            _effects(add, e[3], node)
        elif k == "check":
            for o in e[2]:
                _effects(add, o.effects, node)


_LIST_KEYS = ("aliases", "words")
"""Text keys whose lists are alternatives (one entry, words joined by ALIAS_SEP)."""


def _data_texts(
    data: Any, keys: frozenset[str], path: str = "", depth: int = 0
) -> Iterator[tuple[str, str, str]]:
    """(path, text, kind) for each text in rule data under one of ``keys``."""
    if depth > 32:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            p = f"{path}.{k}" if path else str(k)
            if k in keys:
                yield from _text_value(v, p, str(k))
            else:
                yield from _data_texts(v, keys, p, depth + 1)
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _data_texts(v, keys, f"{path}.{i}" if path else str(i), depth + 1)


def _text_value(v: Any, path: str, key: str) -> Iterator[tuple[str, str, str]]:
    if isinstance(v, str):
        yield path, v, key
    elif isinstance(v, list) and key in _LIST_KEYS:
        words = [str(w) for w in v if isinstance(w, (str, int, float)) and not isinstance(w, bool)]
        if words:
            yield path, ALIAS_SEP.join(words), "aliases"
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from _text_value(x, f"{path}.{i}", key)
    elif isinstance(v, dict) and isinstance(v.get("text"), str):
        yield f"{path}.text", v["text"], key
    elif isinstance(v, dict) and isinstance(v.get("name"), str):
        yield f"{path}.name", v["name"], key  # a named thing under a text key: its name


# ---- where translations live ----------------------------------------------------------


def translations_dir(story_path: str | os.PathLike[str]) -> Path:
    p = Path(story_path)
    return p / "translations" if p.is_dir() else p.parent / "translations"


def translation_path(story_path: str | os.PathLike[str], lang: str) -> Path:
    """Where the story's translation into ``lang`` lives."""
    p = Path(story_path)
    if p.is_dir():
        return p / "translations" / f"{lang}.po"
    return p.parent / "translations" / f"{p.stem}.{lang}.po"


def languages(story: Story) -> list[str]:
    """The languages the story has a translation file for."""
    p = Path(story.path)
    d = translations_dir(p)
    if not d.is_dir():
        return []
    out = []
    for f in sorted(d.glob("*.po")):
        if p.is_dir():
            lang = f.stem
        elif f.stem.startswith(p.stem + "."):
            lang = f.stem[len(p.stem) + 1 :]
        else:
            continue
        if _LANG_RE.match(lang):
            out.append(lang)
    return out


_LANG_RE = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$")


def valid_lang(lang: str) -> bool:
    return bool(_LANG_RE.match(lang or ""))


# ---- reading and writing PO and CSV ----------------------------------------------------


@dataclass
class Unit:
    """One translated string as a file holds it."""

    key: str
    source: str
    text: str
    hash: str = ""
    fuzzy: bool = False
    line: int = 0


def _read_bytes(path: Path) -> bytes:
    from runner.story.source import SourceError, read_bytes

    try:
        return read_bytes(path, limit=MAX_TRANSLATION_BYTES)
    except SourceError as e:
        raise TranslationError(f"{path}: {e.message}") from None


def read_units(path: str | os.PathLike[str]) -> tuple[str, list[Unit]]:
    """The language and the units of a PO or CSV file (by its suffix)."""
    p = Path(path)
    raw = _read_bytes(p)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TranslationError(f"{p}: not UTF-8 (byte {e.start})") from None
    if p.suffix.lower() == ".csv":
        return _read_csv(p, text)
    return _read_po(p, text)


def _read_po(p: Path, text: str) -> tuple[str, list[Unit]]:
    import polib

    try:
        po = polib.pofile(text, wrapwidth=0)
    except (OSError, ValueError) as e:
        raise TranslationError(f"{p}: not a PO file ({str(e).splitlines()[0][:200]})") from None
    lang = str(po.metadata.get("Language", "") or "").strip()
    units = []
    names = str(po.metadata.get("X-Katari-Proper-Names", "") or "").strip()
    if names:
        units.append(Unit(NAMES_KEY, "", names))
    for entry in po:
        if entry.obsolete or not entry.msgctxt:
            continue
        h = ""
        for c in (entry.comment or "").splitlines():
            if c.startswith(HASH_NOTE):
                h = c[len(HASH_NOTE) :].strip()
        units.append(
            Unit(entry.msgctxt, entry.msgid, entry.msgstr, h, "fuzzy" in entry.flags, entry.linenum)
        )
    return lang, units


CSV_FIELDS = ("id", "source", "translation", "needs_review", "context", "source_hash")


def _read_csv(p: Path, text: str) -> tuple[str, list[Unit]]:
    rows = csv.DictReader(io.StringIO(text, newline=""))
    if rows.fieldnames is None or not {"id", "source", "translation"} <= set(rows.fieldnames):
        raise TranslationError(
            f"{p}: a CSV translation needs the columns id, source and translation "
            f"(as `katari strings export --format csv` writes them)"
        )
    units = []
    lang = ""
    for i, r in enumerate(rows, 2):
        key = (r.get("id") or "").strip()
        if key == "#language":
            lang = (r.get("translation") or "").strip()
            continue
        if key == NAMES_KEY:
            units.append(Unit(key, "", (r.get("translation") or "").strip()))
            continue
        if not key:
            continue
        units.append(
            Unit(
                key,
                r.get("source") or "",
                r.get("translation") or "",
                (r.get("source_hash") or "").strip(),
                (r.get("needs_review") or "").strip().lower() in ("yes", "y", "true", "1", "x"),
                i,
            )
        )
    return lang, units


def _context(e: Entry) -> str:
    bits = []
    if e.node:
        bits.append(f"node: {e.node}")
    if e.speaker:
        bits.append(f"speaker: {e.speaker}")
    bits.append(f"kind: {e.kind}")
    return "; ".join(bits)


_NOTES = {
    "aliases": "words a player may type, separated by ' | ': give your language's words (any number)",
    "keeper": "a keeper's note: only a game master sees it",
    "rules": "the rule system's own words: keep every {placeholder}",
    "length": "how long a game takes",
}


def render_po(story: Story, lang: str, old: dict[str, Unit] | None = None) -> str:
    """The PO file of ``story``'s strings for ``lang``, with the translations in ``old``
    (a stale one marked fuzzy, with the source it was made from as the previous msgid)."""
    import polib

    po = polib.POFile(wrapwidth=0)
    po.metadata = {
        "Project-Id-Version": story.id,
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "X-Katari-Story": story.id,
        "X-Katari-Source-Language": story.language,
    }
    old = old or {}
    if old.get(NAMES_KEY) is not None and old[NAMES_KEY].text:
        po.metadata["X-Katari-Proper-Names"] = ", ".join(proper_names(old))
    for e in _export_entries(story, lang):
        h = source_hash(e.text)
        notes = [_context(e)]
        if e.kind in _NOTES:
            notes.append(_NOTES[e.kind])
        notes.append(HASH_NOTE + h)
        entry = polib.POEntry(msgctxt=e.key, msgid=e.text, msgstr="", comment="\n".join(notes))
        u = old.get(e.key)
        if u is not None and u.text:
            entry.msgstr = u.text
            if u.fuzzy or not _fresh(u, e.text):
                entry.flags.append("fuzzy")
                if u.source and u.source != e.text:
                    entry.previous_msgid = u.source
        elif e.kind == "rules":
            entry.msgstr = _builtin(story, lang, e.key) or ""
        po.append(entry)
    return str(po) + "\n"


def render_csv(story: Story, lang: str, old: dict[str, Unit] | None = None) -> str:
    """The same strings as :func:`render_po`, as CSV for a spreadsheet (a first row
    ``#language`` names the language)."""
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    w.writerow(["#language", "", lang, "", f"story {story.id}, written in {story.language}", ""])
    old = old or {}
    w.writerow(
        [
            NAMES_KEY,
            "",
            ", ".join(proper_names(old)),
            "",
            "names kept in the source script in this language, separated by commas",
            "",
        ]
    )
    for e in _export_entries(story, lang):
        u = old.get(e.key)
        text, review = "", ""
        if u is not None and u.text:
            text = u.text
            review = "yes" if u.fuzzy or not _fresh(u, e.text) else ""
        elif e.kind == "rules":
            text = _builtin(story, lang, e.key) or ""
        ctx = _context(e) + (f"; {_NOTES[e.kind]}" if e.kind in _NOTES else "")
        w.writerow([e.key, e.text, text, review, ctx, source_hash(e.text)])
    return buf.getvalue()


def _export_entries(story: Story, lang: str) -> list[Entry]:
    return entries(source_story(story))


def _builtin(story: Story, lang: str, key: str) -> str | None:
    rs = _rules(story)
    if rs is None or rs.texts is None:
        return None
    prefix = f"rules.{story.rules}."
    return rs.texts(lang).get(key[len(prefix) :]) if key.startswith(prefix) else None


def proper_names(units: dict[str, Unit]) -> list[str]:
    """The names the translation keeps in the source script (:data:`NAMES_KEY`)."""
    u = units.get(NAMES_KEY)
    return [] if u is None else [n.strip() for n in re.split(r"[,、，]", u.text) if n.strip()]


def _fresh(u: Unit, source: str) -> bool:
    """Whether a unit translates this very source text."""
    if u.hash:
        return u.hash == source_hash(source)
    return u.source == source


def source_story(story: Story) -> Story:
    """The story as written (a translated Story keeps it in its translation record)."""
    tr = story.translation
    return story if tr is None else story.cache.get("_source", story)


# ---- applying a translation ------------------------------------------------------------


def load_units(story: Story, lang: str) -> tuple[Path, dict[str, Unit]] | None:
    """The story's translation file for ``lang`` and its units by id, or None when it has none."""
    path = translation_path(story.path, lang)
    if not path.is_file():
        return None
    _lang, units = read_units(path)
    return path, {u.key: u for u in units}


def apply(story: Story, lang: str) -> Story:
    """``story`` in ``lang``: its translation laid over it. The story itself when ``lang`` is
    its own language or it has no translation into ``lang``. Raises TranslationError for a
    translation file that cannot be read."""
    if story.translation is not None:
        story = source_story(story)
    if not lang or lang == story.language:
        return story
    found = load_units(story, lang)
    if found is None:
        return story
    path, units = found
    return overlay(story, lang, units, str(path))


def overlay(story: Story, lang: str, units: dict[str, Unit], path: str = "") -> Story:
    """A new Story with the fresh translations of ``units`` in place of the source texts."""
    texts: dict[str, str] = {}
    missing: set[str] = set()
    stale: set[str] = set()
    rule_texts: dict[str, str] = {}
    for e in entries(story):
        u = units.get(e.key)
        if u is None or not u.text.strip():
            if e.kind != "rules":
                missing.add(e.key)
            continue
        if u.fuzzy or not _fresh(u, e.text):
            stale.add(e.key)
            continue
        if e.kind == "rules":
            rule_texts[e.key] = u.text
        else:
            texts[e.key] = u.text
    rs = _rules(story)
    tr = _Overlay(texts, rs.text_keys if rs is not None else frozenset())
    nodes = {nid: tr.node(n) for nid, n in story.nodes.items()}
    endings = {
        eid: dataclasses.replace(
            e, title=tr.get(f"end.{eid}.title", e.title), narration=tr.lines(e.narration)
        )
        for eid, e in story.endings.items()
    }
    variables = {
        k: dataclasses.replace(v, label=tr.get(f"variables.{k}.label", v.label))
        for k, v in story.variables.items()
    }
    items = {
        k: dataclasses.replace(
            it,
            name=tr.get(f"items.{k}.name", it.name),
            description=tr.get(f"items.{k}.description", it.description),
            props=tr.data(it.props, f"items.{k}.props"),
        )
        for k, it in story.items.items()
    }
    characters = {
        k: dataclasses.replace(
            c,
            name=tr.get(f"characters.{k}.name", c.name),
            unknown_name=tr.get(f"characters.{k}.unknown_name", c.unknown_name),
            props=tr.data(c.props, f"characters.{k}.props"),
        )
        for k, c in story.characters.items()
    }
    events = tuple(
        dataclasses.replace(
            ev, title=tr.get(f"event.{ev.id}.title", ev.title), effects=tr.effects(ev.effects)
        )
        for ev in story.events
    )
    options = tr.data(story.options, "story.options")
    extra = {k: tr.data(v, f"section.{k}") for k, v in story.extra.items()}
    applied = Applied(
        lang,
        story.language,
        path,
        frozenset(missing),
        frozenset(stale),
        rule_texts,
        frozenset(proper_names(units)),
    )
    new = dataclasses.replace(
        story,
        language=lang,
        title=tr.get("story.title", story.title),
        description=tr.get("story.description", story.description),
        length=tr.get("story.length", story.length),
        nodes=nodes,
        endings=endings,
        variables=variables,
        items=items,
        characters=characters,
        events=events,
        options=options,
        extra=extra,
        translation=applied,
        cache={},
    )
    new.cache["_source"] = story
    from runner import kana

    kana.attach(new)
    return new


class _Overlay:
    def __init__(self, texts: dict[str, str], text_keys: frozenset[str]) -> None:
        self.texts = texts
        self.text_keys = text_keys

    def get(self, key: str, default: str) -> str:
        return self.texts.get(key, default)

    def lines(self, lines: tuple[Narration, ...]) -> tuple[Narration, ...]:
        t = self.texts
        return tuple(ln._replace(text=t[ln.id]) if ln.id in t else ln for ln in lines)

    def effects(self, effects: tuple[Any, ...]) -> tuple[Any, ...]:
        out = []
        for e in effects:
            k = e[0]
            if k == "say":
                e = e._replace(lines=self.lines(e.lines))
            elif k == "if":
                e = e._replace(then=self.effects(e.then), other=self.effects(e.other))
            elif k == "check":
                e = e._replace(outcomes=tuple(self.outcome(o) for o in e.outcomes))
            out.append(e)
        return tuple(out)

    def outcome(self, o: Outcome) -> Outcome:
        return o._replace(effects=self.effects(o.effects))

    def action(self, a: Action) -> Action:
        aliases = a.aliases
        words = self.texts.get(f"{a.key}.aliases")
        if words is not None:
            aliases = tuple(w.strip() for w in words.split("|") if w.strip())
        return a._replace(
            label=self.get(f"{a.key}.label", a.label),
            aliases=aliases,
            effects=self.effects(a.effects),
            after=self.effects(a.after),
            outcomes=tuple(self.outcome(o) for o in a.outcomes),
        )

    def node(self, n: Node) -> Node:
        return n._replace(
            title=self.get(f"{n.id}.title", n.title),
            narration=self.lines(n.narration),
            keeper=self.lines(n.keeper),
            on_enter=self.effects(n.on_enter),
            actions=tuple(self.action(a) for a in n.actions),
            props=self.data(n.props, f"{n.id}.props"),
        )

    def data(self, data: Any, base: str) -> Any:
        """Rule data with its texts translated (a new copy only where something changes)."""
        if not self.text_keys or not isinstance(data, (dict, list)):
            return data
        return self._data(data, base, False, "", 0)

    def _data(self, v: Any, path: str, text: bool, key: str, depth: int) -> Any:
        if depth > 34:
            return v
        if text:
            if isinstance(v, str):
                return self.texts.get(path, v)
            if isinstance(v, list) and key in _LIST_KEYS:
                words = self.texts.get(path)
                return v if words is None else [w.strip() for w in words.split("|") if w.strip()]
            if isinstance(v, list):
                return [self._data(x, f"{path}.{i}", True, key, depth + 1) for i, x in enumerate(v)]
            if isinstance(v, dict) and isinstance(v.get("text"), str):
                return {**v, "text": self.texts.get(f"{path}.text", v["text"])}
            if isinstance(v, dict) and isinstance(v.get("name"), str):
                return {**v, "name": self.texts.get(f"{path}.name", v["name"])}
            return v
        if isinstance(v, dict):
            return {
                k: self._data(x, f"{path}.{k}", k in self.text_keys, str(k), depth + 1)
                for k, x in v.items()
            }
        if isinstance(v, list):
            return [self._data(x, f"{path}.{i}", False, key, depth + 1) for i, x in enumerate(v)]
        return v


# ---- importing, checking, marking -------------------------------------------------------


@dataclass
class ImportReport:
    path: Path
    translated: int = 0
    missing: int = 0
    stale: int = 0
    unknown: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


_PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def import_file(story: Story, src: str | os.PathLike[str], lang: str = "") -> ImportReport:
    """Reads a translation (PO or CSV) and writes it, in PO, where the story looks for it.

    Every string of the story gets an entry (empty when the file has none); strings the
    file has and the story no longer has are dropped (and listed in the report)."""
    story = source_story(story)
    file_lang, units = read_units(src)
    if not [u for u in units if u.key != NAMES_KEY]:
        raise TranslationError(
            f"{src}: no strings with an id in it (a file made by `katari strings "
            f"export {story.id} --lang LANG` has one per string)"
        )
    lang = lang or file_lang
    if not lang:
        stem = Path(src).stem
        lang = stem.rsplit(".", 1)[-1] if "." in stem else stem
    if not valid_lang(lang):
        raise TranslationError(f"{src}: which language is it? Give --lang (e.g. --lang en)")
    if lang == story.language:
        raise TranslationError(
            f"{story.id} is written in {lang}: a translation is into another language"
        )
    by_key = {u.key: u for u in units}
    ents = entries(story)
    known = {e.key for e in ents}
    out = translation_path(story.path, lang)
    rep = ImportReport(out)
    rep.unknown = [u.key for u in units if u.key not in known and u.key != NAMES_KEY]
    for e in ents:
        u = by_key.get(e.key)
        if u is None or not u.text.strip():
            if e.kind != "rules":
                rep.missing += 1
            continue
        if u.fuzzy or not _fresh(u, e.text):
            rep.stale += 1
        else:
            rep.translated += 1
        if e.kind == "rules" and sorted(_PLACEHOLDER.findall(e.text)) != sorted(
            _PLACEHOLDER.findall(u.text)
        ):
            rep.problems.append(
                f"{e.key}: keep the placeholders {' '.join(sorted(set(_PLACEHOLDER.findall(e.text))))}"
            )
    text = render_po(story, lang, by_key)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, out)
    return rep


def check(story: Story, lang: str) -> list[Any]:
    """Diagnostics (warnings) for the story's translation into ``lang``: each string with no
    translation (K400) and each stale one (K401); a file that cannot be read is K402."""
    from runner.story.diagnostics import Diagnostic

    story = source_story(story)
    path = translation_path(story.path, lang)
    if lang == story.language:
        return []
    if not path.is_file():
        return [
            Diagnostic(
                str(path),
                1,
                1,
                f"no {lang} translation of {story.id} (katari strings export "
                f"{story.id} --lang {lang} -o {lang}.po makes one to fill in)",
                "K400",
                "warning",
            )
        ]
    try:
        _lang, units = read_units(path)
    except TranslationError as e:
        return [Diagnostic(str(path), 1, 1, str(e), "K402", "warning")]
    by_key = {u.key: u for u in units}
    out = []
    for ent in entries(story):
        u = by_key.get(ent.key)
        line = u.line if u is not None and u.line else 1
        if u is None or not u.text.strip():
            if ent.kind != "rules":
                out.append(
                    Diagnostic(
                        str(path),
                        line,
                        1,
                        f"{ent.key}: not translated into {lang} "
                        f"(shown in {story.language}): {_clip(ent.text)}",
                        "K400",
                        "warning",
                    )
                )
        elif u.fuzzy or not _fresh(u, ent.text):
            out.append(
                Diagnostic(
                    str(path),
                    line,
                    1,
                    f"{ent.key}: stale: the source changed since it was "
                    f"translated (shown in {story.language} until it is "
                    f"checked): {_clip(ent.text)}",
                    "K401",
                    "warning",
                )
            )
    return out


def _clip(text: str, n: int = 40) -> str:
    text = text.replace("\n", " ")
    return repr(text if len(text) <= n else text[: n - 1] + "…")


UNTRANSLATED = {"ja": "〔未訳〕", "en": "[untranslated] "}


def untranslated(story: Any, key: str) -> bool:
    """Whether the string ``key`` is shown in the source language in this translated game."""
    tr = getattr(story, "translation", None)
    return tr is not None and key in tr.fallback
