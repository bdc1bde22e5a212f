"""Automated play: many games through the real engine, and what they say about a story.

Game ``i`` uses seed ``seed + i`` for both the dice and the policy, so the same seed gives
the same report. Policies: ``random`` (any valid action), ``explorer`` (actions not yet
taken, in this game, then in any game), ``greedy`` (actions leading to nodes not yet
visited). Hidden actions (secret words) are only tried with ``secrets=True``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypedDict

from runner.authoring.graph import Graph, action_targets, build, moves, unparse
from runner.engine import available, new_game, step
from runner.story.model import Effect, Story

if TYPE_CHECKING:
    from runner.engine.events import RollEvent

POLICIES = ("random", "explorer", "greedy")
FAILURE_LEVELS = frozenset({"failure", "fumble", "fail", "pushed_failure"})
SUCCESS_KEYS = frozenset({"success", "critical", "extreme", "hard", "regular", "special"})


@dataclass
class Report:
    story: str
    runs: int
    seed: int
    policy: str
    max_turns: int
    endings: dict[str, int] = field(default_factory=dict)
    """Ending id -> games; ``(stuck)``, ``(turn cap)`` and ``(error)`` for games without one."""
    ending_kinds: dict[str, str] = field(default_factory=dict)
    turns: dict[str, float] = field(default_factory=dict)
    clock: dict[str, float] = field(default_factory=dict)
    nodes_total: int = 0
    unreached_nodes: list[str] = field(default_factory=list)
    actions_total: int = 0
    untaken_actions: list[str] = field(default_factory=list)
    """``node.action`` never taken, in nodes that games did reach."""
    unreached_endings: list[dict] = field(default_factory=list)
    """``{id, reason, detail, how}``: reason is a code (see REASONS), detail its evidence,
    how the ways the story reaches that ending (``{kind, src, action, cond}``, kind
    ``action``, ``enter``, ``event`` or ``rules``)."""
    rules: str = ""
    """The story's rule system (``none``)."""
    stuck: list[dict] = field(default_factory=list)
    """``{node, why, games}``: why is ``no_action`` or ``turn_cap``."""
    errors: list[dict] = field(default_factory=list)
    rolls: list[dict] = field(default_factory=list)
    checks: list[dict] = field(default_factory=list)
    lines_total: int = 0
    unshown_lines: list[str] = field(default_factory=list)
    """Narration line ids (``node.1``, or the line's own ``id``) that no game showed."""
    coverage: dict[str, float] = field(default_factory=dict)
    """Percent of nodes reached, actions taken, endings reached and lines shown."""
    failed_games: int = 0
    """Games that got stuck, hit the turn cap or met a story error."""
    failures: list[dict] = field(default_factory=list)
    """``{seed, why, node, turns, commands}`` of the first FAILURES_KEPT such games, by seed:
    ``katari play STORY --seed SEED --replay-commands FILE`` plays one again."""
    failed_seeds: list[int] = field(default_factory=list)
    """The seed of every such game (the first SEEDS_KEPT). A random-policy game depends on its
    seed alone: ``katari simulate --seed SEED --runs 1 --failures DIR`` writes its commands."""
    chunk: int = 250
    elapsed: float = 0.0

    def to_dict(self, *, timing: bool = True) -> dict:
        d = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "elapsed"}
        if timing:
            d["elapsed_s"] = round(self.elapsed, 3)
            d["games_per_s"] = round(self.runs / self.elapsed, 1) if self.elapsed > 0 else None
        return d


def _stats(xs: list[int]) -> dict[str, float]:
    if not xs:
        return {"mean": 0, "min": 0, "max": 0}
    return {"mean": round(sum(xs) / len(xs), 2), "min": min(xs), "max": max(xs)}


def _outcome_marks(
    story: Story,
) -> tuple[dict[str | None, tuple[str, str]], dict[tuple[str, str], list[Any]]]:
    """Narration ids that show which outcome of which check ran; and each action check's outcomes
    (keyed by ``str | None``: a rule system's own lines have no id, and are looked up too)."""
    marks: dict[str | None, tuple[str, str]] = {}
    action_checks: dict[tuple[str, str], list] = {}

    def says(effs: tuple[Effect, ...]) -> list[str]:
        out: list[str] = []
        for e in effs:
            if e[0] == "say":
                out.extend(line.id for line in e[1])
            elif e[0] == "if":
                out += says(e[2]) + says(e[3])
        return out

    def walk(effs: tuple, where: str) -> None:
        for e in effs:
            if e[0] == "check":
                name = f"{where}: {unparse(e[1])}"
                for o in e[2]:
                    for nid in says(o.effects):
                        marks[nid] = (name, o.key)
                    walk(o.effects, where)
            elif e[0] == "if":
                walk(e[2], where)
                walk(e[3], where)

    for n in story.nodes.values():
        walk(n.on_enter, f"{n.id}.(enter)")
        for a in n.actions:
            where = f"{n.id}.{a.id}"
            walk(a.effects, where)
            walk(a.after, where)
            if a.check is not None:
                name = f"{where}: {unparse(a.check)}"
                action_checks[(n.id, a.id)] = [
                    name,
                    a.outcomes,
                    {o.key: says(o.effects) for o in a.outcomes},
                ]
                for o in a.outcomes:
                    for nid in says(o.effects):
                        marks[nid] = (name, o.key)
                    walk(o.effects, where)
    return marks, action_checks


class _Tally:
    def __init__(self) -> None:
        self.rolls: dict[str, list] = {}  # label -> [count, successes, judged, Counter(levels)]
        self.checks: dict[str, Counter] = {}

    def roll(self, ev: RollEvent) -> None:
        key = str(ev.get("label") or ev.get("expr") or "?")
        r = self.rolls.get(key)
        if r is None:
            r = self.rolls[key] = [0, 0, 0, Counter()]
        r[0] += 1
        ok = ev.get("success")
        level = ev.get("level")
        if ok is None and level is not None:
            ok = str(level) not in FAILURE_LEVELS
        if ok is not None:
            r[2] += 1
            r[1] += bool(ok)
        if level is not None:
            r[3][str(level)] += 1

    def check(self, name: str, key: str) -> None:
        c = self.checks.get(name)
        if c is None:
            c = self.checks[name] = Counter()
        c[key] += 1


CHUNK = 250
"""Games per chunk. Seeds are cut into chunks of this size whatever the number of jobs, and
the explorer's and greedy policies' memory of what earlier games did starts afresh with each
chunk: so a chunk plays the same games in any process, and the report is the same for any
``jobs``."""
FAILURES_KEPT = 100
"""Stuck or errored games whose seed and commands the report keeps (the first, by seed)."""
SEEDS_KEPT = 10_000
"""Seeds of stuck or errored games the report lists (the first, by seed)."""


@dataclass
class Partial:
    """What one chunk of games found: plain data, sent back from a worker process and merged."""

    start: int
    count: int
    outcomes: Counter = field(default_factory=Counter)
    stuck: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    turns: list = field(default_factory=lambda: [0, None, None])
    """sum, min, max."""
    clock: list = field(default_factory=lambda: [0, None, None])
    visited: set = field(default_factory=set)
    taken: set = field(default_factory=set)
    offered: dict = field(default_factory=dict)
    fired: set = field(default_factory=set)
    reached: set = field(default_factory=set)
    shown: set = field(default_factory=set)
    """Narration line ids that some game showed."""
    rolls: dict = field(default_factory=dict)
    checks: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)
    failed: int = 0
    failed_seeds: list = field(default_factory=list)


def _minmax(acc: list, x: int) -> None:
    acc[0] += x
    acc[1] = x if acc[1] is None or x < acc[1] else acc[1]
    acc[2] = x if acc[2] is None or x > acc[2] else acc[2]


class _ChunkOptions(TypedDict):
    """What every chunk of a run is played with (``play_chunk``'s keywords)."""

    policy: str
    max_turns: int
    secrets: bool


def play_chunk(
    story: Story,
    start: int,
    count: int,
    *,
    policy: str = "random",
    max_turns: int = 500,
    secrets: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Partial:
    """Plays games ``start`` .. ``start + count - 1`` (each game's seed is its number)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
    marks, action_checks = _outcome_marks(story)
    targets: dict[tuple[str, str], frozenset[str]] = {}
    if policy == "greedy":
        targets = {(n.id, a.id): action_targets(a) for n in story.nodes.values() for a in n.actions}
    endings_set = frozenset(story.endings)
    part = Partial(start, count)
    visited = part.visited
    taken = part.taken  # "node.action"
    offered = part.offered  # node -> ids of the actions offered there
    reached_endings = part.reached
    shown = part.shown
    outcomes = part.outcomes
    stuck = part.stuck
    errors = part.errors
    tally = _Tally()

    for seed in range(start, start + count):
        rng = random.Random(seed)
        choice_rng = rng.random
        state, events = new_game(story, seed)
        commands: list[str] = []
        for ev in events:
            if ev["type"] == "roll":
                tally.roll(ev)
            elif ev["type"] == "narration":
                shown.add(ev.get("id"))
            elif ev["type"] == "error":
                errors[(ev.get("message", ""), state.node)] += 1
        result = None
        why = ""
        while state.ending is None:
            if state.turn >= max_turns:
                result = "(turn cap)"
                why = "turn_cap"
                stuck[(state.node, "turn_cap")] += 1
                break
            node = state.node
            choices = available(story, state)
            if not secrets:
                choices = [c for c in choices if c.n]
            if not choices:
                result = "(stuck)"
                why = "no_action"
                stuck[(node, "no_action")] += 1
                break
            seen = offered.get(node)
            if seen is None:
                seen = offered[node] = set()
            seen.update(map(_choice_id, choices))
            if policy == "random" or len(choices) == 1:
                pick = choices[int(choice_rng() * len(choices))]
            else:
                pick = _pick(
                    policy,
                    choices,
                    node,
                    state,
                    taken,
                    visited,
                    reached_endings,
                    targets,
                    endings_set,
                    choice_rng,
                )
            commands.append(pick.id)
            new, events = step(story, state, pick, tail_events=False)
            if new is state:
                msg = next(
                    (ev.get("message", "") for ev in events if ev["type"] == "error"), "no change"
                )
                errors[(msg, node)] += 1
                result = "(error)"
                why = "error: " + msg
                break
            heard = None
            for ev in events:
                if ev["type"] == "roll":
                    tally.roll(ev)
                elif ev["type"] == "narration":
                    nid = ev.get("id")
                    shown.add(nid)
                    m = marks.get(nid)
                    if m is not None:
                        tally.check(*m)
                        if heard is None:
                            heard = set()
                        heard.add(m[0])
                elif ev["type"] == "error":
                    errors[(ev.get("message", ""), node)] += 1
            ac = action_checks.get((node, pick.id))
            if ac is not None and (heard is None or ac[0] not in heard):
                tally.check(ac[0], _silent_outcome(ac, new))
            if policy != "random":  # the other policies steer by what this game took
                taken.add(f"{node}.{pick.id}")
            state = new
        if state.ending is not None:
            result = state.ending
            reached_endings.add(state.ending)
        else:
            part.failed += 1
            if len(part.failed_seeds) < SEEDS_KEPT:
                part.failed_seeds.append(seed)
            if len(part.failures) < FAILURES_KEPT:
                part.failures.append(
                    {
                        "seed": seed,
                        "why": why,
                        "node": state.node,
                        "turns": state.turn,
                        "commands": commands,
                    }
                )
        outcomes[result] += 1
        _minmax(part.turns, state.turn)
        _minmax(part.clock, state.clock)
        visited.update(state.visits)
        taken.update(state.done)
        part.fired.update(state.fired)
        if progress is not None:
            progress(1)
    part.rolls = tally.rolls
    part.checks = tally.checks
    return part


def chunks(runs: int, seed: int = 0, size: int = CHUNK) -> list[tuple[int, int]]:
    """The (first seed, games) of each chunk of a run."""
    return [(seed + k, min(size, runs - k)) for k in range(0, runs, size)]


def simulate(
    story: Story,
    runs: int = 100,
    *,
    seed: int = 0,
    policy: str = "random",
    max_turns: int = 500,
    secrets: bool = False,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    chunk: int = CHUNK,
    cluster: str | None = None,
    address: str | None = None,
) -> Report:
    """Plays ``runs`` games and reports endings, lengths, coverage, dead ends and rolls.

    The games are cut into chunks of ``chunk`` seeds, played in this process (``jobs`` 1),
    over ``jobs`` local processes, or as tasks of a Ray cluster (``cluster="ray"``, at
    ``address``; see :mod:`runner.authoring.parallel`); the report is the same either way."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
    t0 = time.perf_counter()
    todo = chunks(runs, seed, max(1, chunk))
    opts = _ChunkOptions(policy=policy, max_turns=max_turns, secrets=secrets)
    if cluster is None and (jobs <= 1 or len(todo) == 1):
        done = [0]

        def tick(n: int) -> None:
            done[0] += n
            if progress is not None:  # (tick is handed on only when there is a progress)
                progress(done[0], runs)

        parts = [
            play_chunk(story, s, n, progress=tick if progress is not None else None, **opts)
            for s, n in todo
        ]
    else:
        from runner.authoring import parallel

        parts = parallel.run_chunks(
            story,
            todo,
            opts,
            jobs=jobs,
            cluster=cluster,
            address=address,
            progress=progress,
            runs=runs,
        )
    rep = merge(
        story,
        parts,
        runs=runs,
        seed=seed,
        policy=policy,
        max_turns=max_turns,
        secrets=secrets,
        chunk=chunk,
    )
    rep.elapsed = time.perf_counter() - t0
    return rep


def story_lines(story: Story) -> list[str]:
    """The ids of every narration line a player may be shown (keeper lines aside): the
    nodes', the endings', and those said by effects, events and outcomes."""
    out: list[str] = []

    def lines(ls: Any) -> None:
        out.extend(line.id for line in ls if not line.keeper)

    def walk(effs: tuple) -> None:
        for e in effs:
            if e[0] == "say":
                lines(e[1])
            elif e[0] == "if":
                walk(e[2])
                walk(e[3])
            elif e[0] == "check":
                for o in e[2]:
                    walk(o.effects)

    for n in story.nodes.values():
        lines(n.narration)
        walk(n.on_enter)
        for a in n.actions:
            walk(a.effects)
            for o in a.outcomes:
                walk(o.effects)
            walk(a.after)
    for e in story.endings.values():
        lines(e.narration)
    for ev in story.events:
        walk(ev.effects)
    return list(dict.fromkeys(out))


def _pct(n: int, total: int) -> float:
    return round(100.0 * n / total, 1) if total else 100.0


def merge(
    story: Story,
    parts: list[Partial],
    *,
    runs: int,
    seed: int,
    policy: str,
    max_turns: int,
    secrets: bool = False,
    chunk: int = CHUNK,
) -> Report:
    """One report from the chunks' findings (in any order: they are sorted by first seed)."""
    parts = sorted(parts, key=lambda p: p.start)
    outcomes: Counter = Counter()
    stuck: Counter = Counter()
    errors: Counter = Counter()
    turns = [0, None, None]
    clocks = [0, None, None]
    visited: set[str] = set()
    taken: set[str] = set()
    offered: dict[str, set[str]] = {}
    fired: set[str] = set()
    reached: set[str] = set()
    shown: set[str] = set()
    rolls: dict[str, list] = {}
    checks: dict[str, Counter] = {}
    failures: list[dict] = []
    failed_seeds: list[int] = []
    failed = 0
    for p in parts:
        outcomes.update(p.outcomes)
        stuck.update(p.stuck)
        errors.update(p.errors)
        for acc, got in ((turns, p.turns), (clocks, p.clock)):
            if got[1] is not None:
                acc[0] += got[0]
                acc[1] = got[1] if acc[1] is None else min(acc[1], got[1])
                acc[2] = got[2] if acc[2] is None else max(acc[2], got[2])
        visited |= p.visited
        taken |= p.taken
        for k, v in p.offered.items():
            offered.setdefault(k, set()).update(v)
        fired |= p.fired
        reached |= p.reached
        shown |= p.shown
        for label, (count, ok, judged, levels) in p.rolls.items():
            r = rolls.setdefault(label, [0, 0, 0, Counter()])
            r[0] += count
            r[1] += ok
            r[2] += judged
            r[3].update(levels)
        for name, keys in p.checks.items():
            checks.setdefault(name, Counter()).update(keys)
        failed += p.failed
        failures.extend(p.failures[: max(0, FAILURES_KEPT - len(failures))])
        failed_seeds.extend(p.failed_seeds[: max(0, SEEDS_KEPT - len(failed_seeds))])

    def stats(acc: list) -> dict[str, float]:
        if acc[1] is None:
            return {"mean": 0, "min": 0, "max": 0}
        return {"mean": round(acc[0] / runs, 2), "min": acc[1], "max": acc[2]}

    rep = Report(story.id, runs, seed, policy, max_turns)
    rep.chunk = chunk
    rep.rules = story.rules
    rep.endings = dict(sorted(outcomes.items(), key=lambda kv: (-kv[1], kv[0])))
    rep.ending_kinds = {k: e.kind for k, e in story.endings.items()}
    rep.turns = stats(turns)
    rep.clock = stats(clocks)
    rep.nodes_total = len(story.nodes)
    rep.unreached_nodes = [n for n in story.nodes if n not in visited]
    all_actions = [
        (n.id, a.id) for n in story.nodes.values() for a in n.actions if secrets or not a.hidden
    ]
    rep.actions_total = len(all_actions)
    rep.untaken_actions = [
        f"{n}.{a}" for n, a in all_actions if n in visited and f"{n}.{a}" not in taken
    ]
    missing = [e for e in story.endings if e not in reached]
    g = build(story, merge=False) if missing else None
    rep.unreached_endings = [
        {"id": e, **_why_unreached(g, e, visited, offered, taken, fired, story)} for e in missing
    ]
    rep.stuck = [
        {"node": n, "why": why, "games": c}
        for (n, why), c in sorted(stuck.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    rep.errors = [
        {"message": m, "node": n, "count": c}
        for (m, n), c in sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))
    ]
    for label, (count, ok, judged, levels) in sorted(rolls.items()):
        row: dict[str, Any] = {"label": label, "count": count}
        if judged:
            row["success_rate"] = round(ok / judged, 3)
        if levels:
            row["levels"] = dict(sorted(levels.items()))
        rep.rolls.append(row)
    for name, keys in sorted(checks.items()):
        judged = sum(c for k, c in keys.items() if k in SUCCESS_KEYS or k in FAILURE_LEVELS)
        ok = sum(c for k, c in keys.items() if k in SUCCESS_KEYS)
        row = {"check": name, "count": sum(keys.values()), "outcomes": dict(sorted(keys.items()))}
        if judged:
            row["success_rate"] = round(ok / judged, 3)
        rep.checks.append(row)
    lines = story_lines(story)
    rep.lines_total = len(lines)
    rep.unshown_lines = [x for x in lines if x not in shown]
    taken_n = sum(1 for n, a in all_actions if f"{n}.{a}" in taken)
    rep.coverage = {
        "nodes": _pct(len(story.nodes) - len(rep.unreached_nodes), len(story.nodes)),
        "actions": _pct(taken_n, len(all_actions)),
        "endings": _pct(len(story.endings) - len(missing), len(story.endings)),
        "lines": _pct(len(lines) - len(rep.unshown_lines), len(lines)),
    }
    rep.failed_games = failed
    rep.failures = failures
    rep.failed_seeds = failed_seeds
    return rep


def _silent_outcome(ac: list, new: Any) -> str:
    """The outcome of a check that said nothing: by where the game went, or by elimination."""
    _name, outs, says = ac
    here = new.ending or new.node
    by_move = [o.key for o in outs if any(t == here for _k, t, _c in moves(o.effects))]
    if len(by_move) == 1:
        return by_move[0]
    quiet = [k for k, ids in says.items() if not ids]
    if len(quiet) == 1:
        return quiet[0]
    if new.ending is not None:
        # The rules ended the game inside the check (ctx.end): no outcome ran.
        return "→" + new.ending
    return "?"


_choice_id = itemgetter(1)
"""A Choice's id (Choice is a NamedTuple: n, id, ...), read in C for every offered action."""


def _pick(
    policy: str,
    choices: list,
    node: str,
    state: Any,
    taken: set[str],
    visited: set[str],
    reached: set[str],
    targets: dict,
    endings: frozenset[str],
    rnd: Callable[[], float],
) -> Any:
    cands = choices
    if policy == "greedy":
        seen_here = state.visits
        done_here = state.done
        # Once per game per action: retrying a failed way is the explorer's business.
        fresh = [
            c
            for c in choices
            if f"{node}.{c.id}" not in done_here
            and any(
                (t not in endings and t not in seen_here) or (t in endings and t not in reached)
                for t in targets.get((node, c.id), ())
            )
        ]
        if fresh:
            never = [
                c
                for c in fresh
                if any(t not in visited and t not in reached for t in targets.get((node, c.id), ()))
            ]
            cands = never or fresh
            return cands[int(rnd() * len(cands))]
    done = state.done
    new_here = [c for c in choices if f"{node}.{c.id}" not in done]
    if new_here:
        never = [c for c in new_here if f"{node}.{c.id}" not in taken]
        cands = never or new_here
    else:
        never = [c for c in choices if f"{node}.{c.id}" not in taken]
        cands = never or choices
    return cands[int(rnd() * len(cands))]


REASONS = {
    "no_move": (
        "どの移動もここへ来ない（ルールの処理だけが終わらせられる）",
        "no move in the story leads here (only a rule system could end here)",
    ),
    "source_unreached": (
        "ここへ来る場所に一度も着かなかった",
        "the places that lead here were never reached",
    ),
    "never_offered": (
        "行動が一度も選べなかった（when が真にならなかった）",
        "the action was never offered (its 'when' was never true)",
    ),
    "never_offered_other": (
        "行動が一度も選べなかった",
        "the action was never offered",
    ),
    "never_chosen": (
        "行動は選べたが一度も選ばれなかった（回数や方針を変えて）",
        "the action was offered but never chosen (more runs or another policy)",
    ),
    "condition_never_true": (
        "行動はしたが、ここへ来る条件・判定結果が出なかった",
        "the action was taken but the condition or check result leading here never came up",
    ),
    "event_never_fired": ("時間イベントが起きなかった", "the timed event never fired"),
    "needs_rules_input": (
        "ルールの入力次第（ランダムな選択では出にくい）",
        "depends on rule-system input that random play does not produce",
    ),
    "rules_never_ended": (
        "ルールがこのエンディングで終わらせなかった（ルールの状態次第で、ランダムな選択では出なかった）",
        "the rules never ended the game here (it depends on the rules' state, which random "
        "play never brought about)",
    ),
}
"""Why an ending was never reached, in Japanese and English. ``never_offered`` says 'when'
only of an action that has one; an ending the rules reach is said to be the rules'."""

WAYS = {
    "action": ("行動 {src}.{action}", "action {src}.{action}"),
    "enter": ("{src} に入ったとき", "entering {src}"),
    "event": ("時間イベント {src}", "timed event {src}"),
    "rules": ("ルール（{rules}）", "the rules ({rules})"),
    "cond": ("（{cond} のとき）", " if {cond}"),
}
"""How an ending is reached, one way: by an action, on entering a node, by a timed event,
or by the rule system (its node data or ``options: endings``)."""


def _why_unreached(
    g: Graph | None,
    ending: str,
    visited: set[str],
    offered: dict[str, set[str]],
    taken: set[str],
    fired: set[str],
    story: Any = None,
) -> dict:
    """Guesses why no game reached ``ending``: the furthest any path to it got. ``how``
    lists the ways there as found in the story (``{kind, src, action, cond}``: an action, a
    node's on_enter, a timed event, the rules), never a condition the story does not have."""
    assert g is not None
    rank = {
        "no_move": 0,
        "source_unreached": 1,
        "event_never_fired": 2,
        "never_offered_other": 3,
        "never_offered": 3,
        "never_chosen": 4,
        "condition_never_true": 5,
        "needs_rules_input": 6,
        "rules_never_ended": 6,
    }
    whens: dict[str, bool] = {}
    if story is not None:
        whens = {
            f"{n.id}.{a.id}": a.when is not None for n in story.nodes.values() for a in n.actions
        }
    best = ("no_move", "")
    how: list[dict] = []
    for e in g.edges:
        if e.dst != ending:
            continue
        src = e.src[1:] if e.kind == "event" else e.src
        way = {"kind": e.kind, "src": src, "action": e.action, "cond": e.cond}
        if e.kind == "rules":
            way["src"] = "" if e.src == "@rules" else e.src
        if way not in how:
            how.append(way)
        if e.kind == "event":
            ev = e.src[1:]
            r = (
                ("event_never_fired", ev)
                if ev not in fired
                else ("condition_never_true", f"event {ev}: {e.cond}")
            )
        elif e.kind == "rules":
            r = (
                "rules_never_ended",
                e.src if e.src != "@rules" else f"options: endings: {e.label}",
            )
        elif e.src not in visited:
            r = ("source_unreached", e.src)
        elif e.kind == "action":
            key = f"{e.src}.{e.action}"
            if e.action not in offered.get(e.src, ()) and key not in taken:
                r = ("never_offered" if whens.get(key, True) else "never_offered_other", key)
            elif key not in taken:
                r = ("never_chosen", key)
            elif "." in e.cond and "(" in e.cond:
                r = ("needs_rules_input", f"{key}: {e.cond}")
            else:
                r = ("condition_never_true", f"{key}: {e.cond}" if e.cond else key)
        else:
            r = ("condition_never_true", f"{e.src} (enter): {e.cond}")
        if rank[r[0]] > rank[best[0]]:
            best = r
    return {"reason": best[0], "detail": best[1], "how": how}


def _ways(how: Any, li: int, t: dict, rules: str) -> str:
    """``; reached by: …`` for the text report (the first three ways, and how many more)."""
    if not how:
        return ""
    shown = [way_text(w, li, rules) for w in how[:3]]
    more = f" (+{len(how) - 3})" if len(how) > 3 else ""
    return t["ways"] + t["way_sep"].join(shown) + more


def way_text(way: dict, li: int, rules: str = "") -> str:
    """One way to an ending, as the report says it (``action door.open if
    bomb.solved()``, ``the rules (bomb)``)."""
    text = WAYS[way["kind"]][li].format(rules=rules or "?", **way)
    if way["kind"] == "rules" and way["src"]:
        text += f" {way['src']}"
    if way["cond"]:
        text += WAYS["cond"][li].format(cond=way["cond"])
    return text


# ----------------------------------------------------------------- text report

_T = {
    "ja": {
        "head": "{story}: {runs} 回（方針 {policy}、シード {seed}、上限 {cap} 手）",
        "endings": "エンディング",
        "turns": "手数",
        "clock": "ゲーム内時間（分）",
        "stat": "平均 {mean}・最小 {min}・最大 {max}",
        "nodes": "到達したノード {n}/{t}",
        "unreached_nodes": "一度も着かなかったノード",
        "actions": "選ばれなかった行動（着いたノードで）",
        "unreached_endings": "一度も出なかったエンディング",
        "ways": "。ここへ来る道：",
        "way_sep": "、",
        "stuck": "行き詰まり",
        "no_action": "選べる行動がない",
        "turn_cap": "手数の上限（ループ？）",
        "errors": "ストーリーのエラー",
        "rolls": "ロール",
        "checks": "判定の結果",
        "checks_ended": "→ID：判定の途中でルールがゲームを終わらせた（エンディング ID、結果は実行されず）",
        "checks_unknown": "?：何も言わない結果で、どれか見分けられなかったもの",
        "rate": "成功率",
        "games": "回",
        "coverage": "網羅率：ノード {nodes}%・行動 {actions}%・エンディング {endings}%・文 {lines}%",
        "unshown": "一度も表示されなかった文（ナレーションの id）",
        "failures": "行き詰まった・エラーのゲーム（シードとコマンド）",
        "failure": "シード {seed}：{node} で{why}（{turns} 手）",
        "replay": "再現：katari play {story} --seed SEED --replay-commands FILE（FILE はコマンドを一行ずつ）",
        "replay_dir": "再現：katari play {story} --replay-commands {dir}/seed-SEED.txt",
        "more_failures": "ほか {n} ゲーム（コマンドは最初の {kept} ゲームだけを記録）",
        "seeds": "シード",
        "why_no_action": "選べる行動がない",
        "why_turn_cap": "手数の上限",
        "why_error": "エラー",
    },
    "en": {
        "head": "{story}: {runs} games (policy {policy}, seed {seed}, cap {cap} turns)",
        "endings": "endings",
        "turns": "turns",
        "clock": "in-game time (minutes)",
        "stat": "mean {mean}, min {min}, max {max}",
        "nodes": "nodes reached {n}/{t}",
        "unreached_nodes": "nodes never reached",
        "actions": "actions never taken (in reached nodes)",
        "unreached_endings": "endings never reached",
        "ways": "; reached by: ",
        "way_sep": ", ",
        "stuck": "stuck",
        "no_action": "no valid action",
        "turn_cap": "turn cap reached (a loop?)",
        "errors": "story errors",
        "rolls": "rolls",
        "checks": "check outcomes",
        "checks_ended": "→ID: the rules ended the game during the check (at ending ID; no outcome ran)",
        "checks_unknown": "?: an outcome that said nothing and could not be told apart",
        "rate": "success",
        "games": "games",
        "coverage": "coverage: nodes {nodes}%, actions {actions}%, endings {endings}%, lines {lines}%",
        "unshown": "lines never shown (narration ids)",
        "failures": "stuck or errored games (seed and commands)",
        "failure": "seed {seed}: {why} at {node} ({turns} turns)",
        "replay": "replay one: katari play {story} --seed SEED --replay-commands FILE (FILE: the commands, one a line)",
        "replay_dir": "replay one: katari play {story} --replay-commands {dir}/seed-SEED.txt",
        "more_failures": "{n} more games (commands kept for the first {kept})",
        "seeds": "seeds",
        "why_no_action": "no valid action",
        "why_turn_cap": "turn cap",
        "why_error": "error",
    },
}


def format_report(
    rep: Report,
    lang: str = "ja",
    *,
    limit: int = 20,
    story_arg: str | None = None,
    failures_dir: str | None = None,
) -> str:
    """The report as text for a person."""
    t = _T.get(lang, _T["en"])
    li = 0 if lang == "ja" else 1
    out = [
        t["head"].format(
            story=rep.story, runs=rep.runs, policy=rep.policy, seed=rep.seed, cap=rep.max_turns
        ),
        "",
    ]
    out.append(t["endings"] + ":")
    for k, c in rep.endings.items():
        kind = rep.ending_kinds.get(k)
        out.append(
            f"  {k:<24} {c:>6}  {100 * c / max(1, rep.runs):5.1f}%"
            + (f"  ({kind})" if kind else "")
        )
    out.append(f"{t['turns']}: " + t["stat"].format(**rep.turns))
    out.append(f"{t['clock']}: " + t["stat"].format(**rep.clock))
    out.append(t["nodes"].format(n=rep.nodes_total - len(rep.unreached_nodes), t=rep.nodes_total))
    if rep.coverage:
        out.append(t["coverage"].format(**{k: f"{v:g}" for k, v in rep.coverage.items()}))

    def listing(title: str, items: list[str]) -> None:
        if not items:
            return
        out.append(f"{title} ({len(items)}):")
        for x in items[:limit]:
            out.append(f"  {x}")
        if len(items) > limit:
            out.append(f"  … +{len(items) - limit}")

    listing(t["unreached_nodes"], rep.unreached_nodes)
    listing(t["actions"], rep.untaken_actions)
    listing(
        t["unreached_endings"],
        [
            f"{u['id']}: {REASONS[u['reason']][li]}"
            + (f" — {u['detail']}" if u["detail"] else "")
            + _ways(u.get("how", ()), li, t, rep.rules)
            for u in rep.unreached_endings
        ],
    )
    listing(t["stuck"], [f"{s['node']}: {t[s['why']]} ×{s['games']}" for s in rep.stuck])
    listing(t["errors"], [f"{e['node']}: {e['message']} ×{e['count']}" for e in rep.errors])
    rows = []
    for r in rep.rolls:
        extra = f"  {t['rate']} {100 * r['success_rate']:.1f}%" if "success_rate" in r else ""
        lv = "  " + ", ".join(f"{k} {v}" for k, v in r["levels"].items()) if r.get("levels") else ""
        rows.append(f"{r['label']}: ×{r['count']}{extra}{lv}")
    listing(t["rolls"], rows)
    rows = []
    for ck in rep.checks:
        extra = f"  {t['rate']} {100 * ck['success_rate']:.1f}%" if "success_rate" in ck else ""
        rows.append(
            f"{ck['check']}: " + ", ".join(f"{k} {v}" for k, v in ck["outcomes"].items()) + extra
        )
    listing(t["checks"], rows)
    keys = {k for c in rep.checks for k in c["outcomes"]}
    if rows and any(k.startswith("→") for k in keys):
        out.append(f"  ({t['checks_ended']})")
    if rows and "?" in keys:
        out.append(f"  ({t['checks_unknown']})")
    listing(t["unshown"], rep.unshown_lines)
    if rep.failures:
        import shlex

        out.append(f"{t['failures']} ({rep.failed_games}):")
        for f in rep.failures[:limit]:
            why = f["why"]
            said = (
                t["why_error"] + why[len("error") :]
                if why.startswith("error")
                else t.get(f"why_{why}", why)
            )
            cmds = ", ".join(f["commands"]) or "-"
            if len(cmds) > 160:
                cmds = cmds[:157] + "…"
            out.append(
                "  "
                + t["failure"].format(seed=f["seed"], why=said, node=f["node"], turns=f["turns"])
                + f": {cmds}"
            )
        if rep.failed_games > min(limit, len(rep.failures)):
            rest = rep.failed_seeds[min(limit, len(rep.failures)) :]
            seeds = ", ".join(map(str, rest[:30])) + (", …" if len(rest) > 30 else "")
            out.append(
                "  "
                + t["more_failures"].format(
                    n=rep.failed_games - min(limit, len(rep.failures)), kept=len(rep.failures)
                )
                + f": {t['seeds']} {seeds}"
            )
        story = shlex.quote(story_arg or rep.story)
        out.append(
            "  "
            + (
                t["replay_dir"].format(story=story, dir=failures_dir)
                if failures_dir
                else t["replay"].format(story=story)
            )
        )
    return "\n".join(out) + "\n"
