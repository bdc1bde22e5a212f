"""``katari rules [SYSTEM [items]] [--lang ja|en]``: the rule systems and their summaries."""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list rule systems, or show one's rules (ureg: also items)",
                       description="With no SYSTEM: lists the rule systems. "
                                   "`katari rules ureg` shows the UREG rules; "
                                   "`katari rules ureg items` the item catalogue.")
    p.add_argument("system", nargs="?", help="coc7, ureg, ktane, none")
    p.add_argument("topic", nargs="?", help="items (ureg)")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language (default ja)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from runner.rules import KNOWN, system

    out = sys.stdout
    if not args.system:
        for name in KNOWN:
            try:
                title = system(name).title or name
            except Exception:  # a rule system still being written must not break the list
                title = "(not available)" if args.lang == "en" else "（未実装）"
            out.write(f"{name:8} {title}\n")
        return 0
    if args.system not in KNOWN:
        sys.stderr.write(f"katari rules: unknown rule system {args.system!r} "
                         f"(known: {', '.join(KNOWN)})\n")
        return 2
    if args.system == "ureg":
        from runner.rules.ureg import text

        if args.topic in (None, "", "summary", "rules"):
            out.write(text.summary(args.lang))
            return 0
        if args.topic in ("items", "item", "アイテム"):
            out.write(text.catalogue(args.lang))
            return 0
        sys.stderr.write(f"katari rules ureg: unknown topic {args.topic!r} (items)\n")
        return 2
    rs = system(args.system)
    out.write(f"{rs.name}: {rs.title}\n")
    for h in rs.hooks.values():
        first = h.doc.splitlines()[0] if h.doc else ""
        out.write(f"  {h.name}({', '.join(h.args)})  {first}\n")
    if args.system == "coc7":
        out.write(investigators(args.lang))
    return 0


def investigators(lang: str = "ja") -> str:
    """The ready-made investigators a story picks with ``options: {pregen: N}`` or
    ``coc7.choose_pregen(N)`` (the ``katari new --rules coc7`` template uses the first)."""
    from runner.rules.coc7.sheet import pregens

    ja = lang == "ja"
    head = ("\n出来合いの探索者（story の options: {pregen: N}、または coc7.choose_pregen(N)）:\n" if ja else
            "\nReady-made investigators (story options: {pregen: N}, or coc7.choose_pregen(N)):\n")
    rows = [head]
    for n, p in enumerate(pregens(), 1):
        name = p["name"] if ja else f"{p.get('name_en') or p['name']} ({p['name']})"
        age = f"{p['age']}歳" if ja else f"age {p['age']}"
        c = p["chars"]
        chars = " ".join(f"{k} {c[k]}" for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU") if k in c)
        best = sorted(p["skills"].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        skills = ("、" if ja else ", ").join(f"{k} {v}" for k, v in best)
        rows.append(f"  {n}. {name} — {p['occupation']}, {p['era']}, {age}, {p['native']}\n"
                    f"     {chars}  HP {p['hp']} MP {p['mp']} SAN {p['san']} {'幸運' if ja else 'Luck'} {p['luck']}\n"
                    f"     {'得意' if ja else 'best'}: {skills}\n")
    return "".join(rows)
