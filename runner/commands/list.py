"""`katari list`: the stories we ship."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "list",
        help="list the shipped stories",
        description="List the stories that come with Katari: id, title, rule system, length, language.",
    )
    p.add_argument("--json", action="store_true")
    p.add_argument(
        "--lang",
        choices=["ja", "en"],
        default=None,
        help="show each story's title in this language when it has a translation "
        "(default $KATARI_LANG, else each story's own)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.stories import DEFAULT_STORY, shipped
    from runner.story import StoryError, load
    from runner.story import translate as T
    from runner.ui.i18n import played_lang

    rows: list[dict[str, Any]] = []
    for path in shipped():
        try:
            s = load(path)
        except StoryError as e:
            rows.append(
                {
                    "id": path.stem,
                    "title": f"(broken: {e})",
                    "rules": "?",
                    "nodes": 0,
                    "language": "?",
                    "length": "",
                }
            )
            continue
        langs = T.languages(s)
        lang = played_lang(getattr(args, "lang", None), s.language)
        if lang != s.language and lang in langs:
            try:
                s = T.apply(s, lang)
            except T.TranslationError:
                pass
        rows.append(
            {
                "id": s.id,
                "title": s.title,
                "rules": s.rules,
                "nodes": len(s.nodes),
                "endings": len(s.endings),
                "language": (s.translation.source_lang if s.translation else s.language),
                "translations": langs,
                "length": s.length,
                "default": s.id == DEFAULT_STORY,
            }
        )
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    for r in rows:
        star = "*" if r.get("default") else " "
        nodes = f"{r['nodes']:>4} node" + ("" if r["nodes"] == 1 else "s")
        # pad by display cells, not characters: 「60〜120分」 is nine cells wide
        languages = "+".join([r["language"], *r.get("translations", [])])
        print(
            f"{star} {r['id']:<22} {r['rules']:<6} {languages:<6} {nodes:<10} "
            f"{_pad(str(r['length']), 11)}{r['title']}"
        )
    lang = played_lang(getattr(args, "lang", None))
    print(_key(rows, lang))
    return 0


def _key(rows: list[dict[str, Any]], lang: str) -> str:
    """The line under the list: the star, and each language column it shows, in words
    (``ja+en: written in Japanese, translated into English``)."""
    from runner.ui.i18n import has_text, t

    def name(code: str) -> str:
        return t(f"lang_{code}", lang) if has_text(f"lang_{code}", lang) else code

    combos = dict.fromkeys((r["language"], *r.get("translations", [])) for r in rows)
    parts = []
    for first, *more in combos:
        head = "+".join([first, *more])
        if lang == "en":
            into = " and ".join(name(m) for m in more)
            parts.append(
                f"{head}: written in {name(first)}" + (f", translated into {into}" if more else "")
            )
        else:
            into = "と".join(name(m) for m in more)
            parts.append(
                f"{head}：{name(first)}で書かれ"
                + (f"、{into}に翻訳されています" if more else "ています")
            )
    if lang == "en":
        return "(* = the default story: `katari play` with no STORY; " + "; ".join(parts) + ")"
    return "（* = 既定の物語：STORY なしの `katari play`。" + "。".join(parts) + "）"


def _pad(text: str, cells: int) -> str:
    """``text`` padded with spaces to ``cells`` terminal columns (wide characters count two)."""
    import unicodedata

    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(1, cells - width)
