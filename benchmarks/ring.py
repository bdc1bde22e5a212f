"""A synthetic ring story for benchmarks, the same shape as the ink peer's.

N nodes ``k0..k{N-1}``, each with one line of narration, a 1d6 roll into ``r`` on entry
(ink's temporary), and four actions: go on (once, only while hp > 0) to (i+1) mod N,
search (gold += r) to (7i+3) mod N, pay (only while gold > 3; gold -= 3) to (13i+5) mod N,
rest (hp -= 1; the story ends at 0) back to k0 (k1 from k0).
"""

from __future__ import annotations


def ring_story_yaml(n: int) -> str:
    """The ring story with ``n`` nodes as YAML text."""
    if n < 2:
        raise ValueError("a ring needs at least 2 nodes")
    out = [
        "story: {id: ring, title: Ring, language: en, rules: none, start: k0}",
        "variables: {hp: 10, gold: 0, r: 0}",
        "endings: {end: {kind: normal, title: The end}}",
        "nodes:",
    ]
    add = out.append
    for i in range(n):
        a, b, c = (i + 1) % n, (i * 7 + 3) % n, (i * 13 + 5) % n
        back = 1 if i == 0 else 0
        add(f"  k{i}:")
        add(f"    narration: [Room {i}. The walls are damp and the floor is cold.]")
        add("    on_enter: [{roll: {dice: 1d6, into: r}}]")
        add("    actions:")
        add(f"      - {{id: go, label: Go on {i}, once: true, when: hp > 0, goto: k{a}}}")
        add(
            f"      - {{id: search, label: Search {i}, effects: [{{add: {{gold: r}}}}], goto: k{b}}}"
        )
        add(
            f"      - {{id: pay, label: Pay {i}, when: gold > 3, effects: [{{add: {{gold: -3}}}}], goto: k{c}}}"
        )
        add(
            f"      - {{id: rest, label: Rest {i}, effects: [{{add: {{hp: -1}}}}, "
            f"{{if: hp <= 0, then: [{{end: end}}]}}], goto: k{back}}}"
        )
    return "\n".join(out) + "\n"


def ring_story_ink(n: int) -> str:
    """The twin in ink, for inkjs's compiler: the same knots, choices and roll."""
    s = ["VAR hp = 10", "VAR gold = 0", "-> k0"]
    for i in range(n):
        a, b, c = (i + 1) % n, (i * 7 + 3) % n, (i * 13 + 5) % n
        s += [
            f"=== k{i} ===",
            f"Room {i}. The walls are damp and the floor is cold.",
            "~ temp r = RANDOM(1, 6)",
            f"* {{hp > 0}} [Go on {i}] -> k{a}",
            f"+ [Search {i}]",
            "  ~ gold = gold + r",
            f"  -> k{b}",
            f"+ {{gold > 3}} [Pay {i}]",
            "  ~ gold = gold - 3",
            f"  -> k{c}",
            f"+ [Rest {i}]",
            "  ~ hp = hp - 1",
            "  {hp <= 0: -> END}",
            f"  -> k{1 if i == 0 else 0}",
        ]
    return "\n".join(s) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(ring_story_yaml(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
