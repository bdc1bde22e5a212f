"""Start-up of the table's dice: `katari roll 1d6` and `katari roll CC<=50` beside `katari
--version` and bare Python.

    python benchmarks/bench_roll.py [--runs 15] [--base OLD_CHECKOUT]

Each run starts the command as a new process (``python -m runner ...``, output thrown away)
and takes its CPU time (``wait4``: user plus system), the four commands interleaved run by
run, so a busy moment on a shared machine hurts all of them alike; the figures are medians.
The goal (#14 item 6): both rolls within about twice `katari --version`, which is itself
near the bare-Python floor. With ``--base`` the same runs are made in another checkout (the
code before a change), interleaved too, and the this/base ratios printed. Both checkouts'
modules are byte-compiled first, as an installed wheel's are.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL = 2.0
COMMANDS = {
    "python": ["-c", "pass"],
    "--version": ["-m", "runner", "--version"],
    "roll 1d6": ["-m", "runner", "roll", "1d6"],
    "roll CC<=50": ["-m", "runner", "roll", "CC<=50"],
}


def cpu(tree: Path, argv: list[str]) -> float:
    """CPU seconds of ``python ARGV`` run in ``tree`` (its modules first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "KATARI_CACHE": "off"}
    pid = os.fork()
    if pid == 0:  # the child: the command, its output thrown away
        try:
            os.chdir(tree)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.execve(sys.executable, [sys.executable, *argv], env)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    if status != 0:
        raise SystemExit(f"bench_roll: {' '.join(argv)} failed in {tree} ({status})")
    return ru.ru_utime + ru.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--base", type=Path, help="another checkout to compare with (the code before)")
    args = ap.parse_args(argv)
    trees = {"this": ROOT}
    if args.base:
        trees["base"] = args.base.resolve()
    for tree in trees.values():
        compileall.compile_dir(str(tree / "runner"), quiet=1)
    res: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        for name, tree in trees.items():
            for what, cmd in COMMANDS.items():
                res.setdefault((name, what), []).append(cpu(tree, cmd))
    med = {k: statistics.median(v) for k, v in res.items()}
    for (name, what), xs in res.items():
        print(
            f"{name:>4} {what:>12}: CPU median {med[name, what] * 1000:6.1f} ms  "
            f"(runs: {', '.join(f'{x * 1000:.0f}' for x in xs)})"
        )
    for name in trees:
        v = med[name, "--version"]
        print(
            f"{name:>4}: --version/python x{v / med[name, 'python']:.2f}; "
            + "; ".join(
                f"{w}/--version x{med[name, w] / v:.2f}" for w in ("roll 1d6", "roll CC<=50")
            )
        )
    if args.base:
        print(
            "this/base: "
            + "; ".join(f"{w} x{med['this', w] / med['base', w]:.2f}" for w in COMMANDS)
        )
    worst = max(med["this", w] / med["this", "--version"] for w in ("roll 1d6", "roll CC<=50"))
    print(
        f"goal: rolls within x{GOAL:.1f} of --version (CPU): {'met' if worst <= GOAL else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
