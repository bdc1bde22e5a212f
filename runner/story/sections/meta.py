"""``story:`` (id, title, language, rules, start, credits, ...), ``options:``, and the
top-level sections a rule system reads (a section named after the system)."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from runner.story.bounds import short
from runner.story.checker import Checker, closest
from runner.story.keys import ID_RE, STORY_KEYS
from runner.story.located import Map, file_of, locate

LANGUAGE_RE = re.compile(r"^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$")
"""A language code (BCP 47's simple form): ``ja``, ``en``, ``pt-BR``."""
LANGUAGE_NAMES = {
    "english": "en",
    "japanese": "ja",
    "日本語": "ja",
    "英語": "en",
    "nihongo": "ja",
    "korean": "ko",
    "한국어": "ko",
    "chinese": "zh",
    "中文": "zh",
    "french": "fr",
    "german": "de",
    "spanish": "es",
    "italian": "it",
    "portuguese": "pt",
    "eng": "en",
    "jp": "ja",
    "jpn": "ja",
    "en_us": "en-US",
    "en_gb": "en-GB",
}


class Head(NamedTuple):
    id: str
    rules: str
    language: str
    credits: tuple[str, ...]


def read_story(chk: Checker, meta: Any, meta_file: str, default_id: str) -> Head | None:
    """The ``story`` section (None if it is not a mapping); sets the checker's rule system."""
    chk.file = meta_file
    if not chk.want_map(meta, None, "'story'"):
        return None
    chk.unknown_keys(meta, STORY_KEYS, "'story'")
    for req in ("id", "title", "start"):
        if req not in meta:
            chk.err(meta.pos if isinstance(meta, Map) else None, f"'story' needs {req!r}", "K003")
    sid = (
        chk.want_str(meta.get("id", ""), chk.vpos(meta, "id"), "story id")
        if "id" in meta
        else default_id
    )
    if "id" in meta and sid and (not ID_RE.match(sid) or len(sid) > 100):
        # The id names save folders and is written into transcripts: a word, like a node id.
        chk.err(
            chk.vpos(meta, "id"),
            f"{short(sid, 40)} cannot be a story id (letters, digits, _ and -, at most 100)",
            "K006",
        )
        sid = "story"
    rules = str(meta.get("rules", "none"))
    why = rules_problem(rules)
    if why:
        chk.err(chk.vpos(meta, "rules"), why, "K005")
        rules = "none"
        chk.find_hook = None  # every hook call would be reported again: the one mistake is enough
    else:
        from runner.rules import ignored

        clash = ignored().get(rules) or ignored().get("core")
        if clash:  # another distribution declares this name: say it is not the one used
            chk.err(chk.vpos(meta, "rules"), clash, "K005", severity="warning")
    chk.rules = rules
    language = str(meta.get("language", "ja"))
    if not LANGUAGE_RE.match(language):
        near = LANGUAGE_NAMES.get(language.strip().lower())
        hint = f" (did you mean {near!r}?)" if near else ""
        chk.err(
            chk.vpos(meta, "language"),
            f"language {language!r} is not a language code{hint}: write a code such as ja or en",
            "K005",
        )
    credits = meta.get("credits", ())
    credits_t = (
        tuple(str(c) for c in credits)
        if isinstance(credits, list)
        else ((str(credits),) if credits else ())
    )
    return Head(sid, rules, language, credits_t)


def rules_problem(rules: str) -> str:
    """Why ``rules: RULES`` cannot be used ("" when it can): not installed, or broken."""
    from runner.rules import BrokenRules, names, refused, system

    known = names()
    if rules in refused():
        return refused()[rules]
    if rules not in known:
        if not known:
            return (
                f"unknown rule system {rules!r}: no rule system is installed (the "
                "katari.rules entry points are missing; reinstall Katari: pip install -e .)"
            )
        near = closest(rules, known)
        hint = f" (did you mean {near!r}?)" if near else ""
        return f"unknown rule system {short(rules, 40)}{hint}; one of: {', '.join(known)}"
    try:
        system(rules)
    except BrokenRules as e:
        return str(e)
    return ""


def read_options(chk: Checker, meta: Any) -> dict[str, Any]:
    """``story.options``: free-form data for the rule system, numbers checked."""
    options = meta.get("options") or {}
    if not isinstance(options, dict):
        chk.err(chk.vpos(meta, "options"), "'options' must be a mapping", "K001")
        options = {}
    checked: dict[str, Any] = chk.plain(options, chk.vpos(meta, "options"))
    return checked


def read_rule_sections(
    chk: Checker, extra: dict[str, Any], docs: list[tuple[str, Any]], meta_file: str
) -> None:
    """The rule systems' own top-level sections, as plain data (in place)."""
    for key in list(extra):
        chk.file = file_of(docs, key) or meta_file
        extra[key] = chk.plain(extra[key], locate(docs, key))
    chk.file = meta_file
