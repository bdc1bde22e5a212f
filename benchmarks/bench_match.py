"""What reading one typed command costs: ``resolve()`` (the matcher alone) and ``step()`` with
typed text, on the deep-sea story, per kind of phrasing.

    python3 benchmarks/bench_match.py [--rounds 200] [--no-kana]

Each kind is timed over every place of the story with all its actions offered (the most the
matcher ever weighs), after one warm-up round (the forms and readings are built once per
story, on first use). ``--no-kana`` times the story's own ``readings:`` only (as without
pyopenjtalk). Simulations pass Choice objects and never come here.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runner import kana  # noqa: E402
from runner.engine import Choice, new_game, resolve, step  # noqa: E402
from runner.engine.match import strip_note  # noqa: E402
from runner.story import load  # noqa: E402

STORY = Path(__file__).resolve().parent.parent / "stories" / "deep_sea_atelier"


def cases(story) -> dict[str, list[tuple[list[Choice], str]]]:
    """Per kind: (the place's actions, typed text)."""
    out: dict[str, list] = {
        "number": [],
        "exact label": [],
        "label minus annotation": [],
        "part": [],
        "kana": [],
        "verb + object": [],
        "not understood": [],
    }
    read = story.cache.get("_kana")
    for node in story.nodes.values():
        ch = [Choice(i + 1, a.id, a.label, a.aliases, a) for i, a in enumerate(node.actions)]
        for c in ch:
            plain = strip_note(c.label)
            out["number"].append((ch, str(c.n)))
            out["exact label"].append((ch, c.label))
            if plain != c.label:
                out["label minus annotation"].append((ch, plain))
            out["part"].append((ch, plain[len(plain) // 3 : len(plain) // 3 + 3]))
            if read is not None:
                try:
                    out["kana"].append((ch, read[plain]))
                except KeyError:
                    pass
            out["verb + object"].append((ch, "x " + plain[:2]))
        out["not understood"].append((ch, "ほげほげふがふが"))
    return {k: v for k, v in out.items() if v}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument(
        "--no-kana", action="store_true", help="the story's readings only (no pyopenjtalk)"
    )
    args = ap.parse_args()
    if args.no_kana:
        kana.installed = lambda: False  # type: ignore[assignment]
    t = time.perf_counter()
    story = load(STORY)
    st, _ = new_game(story, 1)
    table = cases(story)
    for items in table.values():  # warm-up: forms and readings, once per story
        for ch, text in items:
            resolve(story, st, text, ch)
    warm = time.perf_counter() - t
    print(
        f"deep_sea_atelier: {sum(len(n.actions) for n in story.nodes.values())} actions, "
        f"load + first reading of every form {warm:.2f} s "
        f"({'story readings only' if args.no_kana or '_kana' not in story.cache else 'pyopenjtalk'})"
    )
    print(f"{'kind':<24} {'resolve µs':>11} {'step µs':>9}")
    for kind, items in table.items():
        t = time.perf_counter()
        for _ in range(args.rounds):
            for ch, text in items:
                resolve(story, st, text, ch)
        per = (time.perf_counter() - t) / (args.rounds * len(items)) * 1e6
        t = time.perf_counter()
        n = max(1, args.rounds // 20)
        for _ in range(n):
            for _ch, text in items:
                step(story, st, text, tail_events=False)
        per_step = (time.perf_counter() - t) / (n * len(items)) * 1e6
        print(f"{kind:<24} {per:>11.1f} {per_step:>9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
