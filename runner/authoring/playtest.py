"""Play-tests: scripted games with expectations, kept in a story's ``tests/*.yaml``.

A file holds one case or a list of cases (see docs/playtests.md)::

    - name: 閃きで脱出する
      seed: 1
      dice: [3, 5]                 # faces for the first rolls, in order (optional)
      commands: [inspiration, look around, {command: climb, dice: [6]}]
      expect:
        - {after: 1, node: room}   # after the first command (0 = at the start)
        - ending: escaped          # no ``after``: at the end of the script

Every expectation is reported with its ``path:line`` when it fails.
"""

from __future__ import annotations

import difflib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from runner.engine import NeedDice, available, clock_text, new_game, step
from runner.engine.events import Event
from runner.rules.dice import DiceError
from runner.story.keys import MERGE_KEY_HINT
from runner.story.model import Story
from runner.story.source import SourceError, read_text, story_root
from runner.story.switches import meant, switch_problem, yaml11_word
from runner.story.yamlpos import Map, Refused, Seq
from runner.story.yamlpos import load as yaml_load

CASE_KEYS = {"name", "seed", "gm", "dice", "commands", "expect", "allow_errors", "skip", "lang"}
EXPECT_KEYS = {
    "after",
    "node",
    "var",
    "vars",
    "ending",
    "has",
    "lacks",
    "clock",
    "text",
    "no_text",
    "offers",
    "not_offers",
    "visited",
    "turn",
    "fired",
}
COMMAND_KEYS = {"command", "dice"}


class PlaytestError(ValueError):
    """A test file that cannot be read; ``where`` is ``path:line``."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass
class Command:
    text: str
    dice: list[int]
    line: int


@dataclass
class Expect:
    checks: dict[str, Any]
    after: int | None
    line: int
    lines: dict[str, int] = field(default_factory=dict)
    """The line of each key, so a failure points at the very key that failed."""


@dataclass
class Case:
    name: str
    file: str
    line: int
    seed: int = 0
    gm: bool = False
    dice: list[int] = field(default_factory=list)
    dice_line: int = 0
    commands: list[Command] = field(default_factory=list)
    expect: list[Expect] = field(default_factory=list)
    allow_errors: bool = False
    skip: str = ""
    lang: str = ""
    """The language the case is written in, when it is not the story's own (its commands and
    texts are a translation's): it runs only on the story played in that language."""

    @property
    def nodeid(self) -> str:
        return f"{self.file}::{self.name}"


@dataclass
class Result:
    case: Case
    outcome: str
    """``passed``, ``failed``, ``skipped`` or ``error`` (a file that cannot be read)."""
    failures: list[str] = field(default_factory=list)
    """``path:line: message`` for each failed expectation."""
    warnings: list[str] = field(default_factory=list)
    """``path:line: message`` for names in expectations that the story does not have."""
    seconds: float = 0.0


def _line(m: Any, key: Any = None, index: int | None = None) -> int:
    if index is not None and isinstance(m, Seq) and index < len(m.ipos):
        return m.ipos[index][0]
    if key is not None and isinstance(m, Map) and key in m.kpos:
        return m.kpos[key][0]
    return getattr(m, "pos", (1, 1))[0]


def _faces(v: Any, where: str) -> list[int]:
    if v is None:
        return []
    if isinstance(v, int) and not isinstance(v, bool):
        return [v]
    if isinstance(v, str):
        v = v.replace(",", " ").split()
    if not isinstance(v, list):
        raise PlaytestError(where, "dice must be a list of faces, e.g. [3, 5]")
    try:
        return [int(x) for x in v]
    except (TypeError, ValueError):
        raise PlaytestError(where, f"dice must be whole numbers, not {v!r}") from None


def _switch(raw: Any, key: str, shown: str) -> bool:
    """A true/false key of a case (``gm``, ``allow_errors``): only true or false. YAML 1.2
    reads ``no`` as text, which would count as true (#14 item 3)."""
    v = raw.get(key, False)
    problem = switch_problem(key, v)
    if problem is not None:
        raise PlaytestError(f"{shown}:{_line(raw, key)}", problem)
    return bool(v)


def _skip(raw: Any, shown: str) -> str:
    """``skip``: true/false, or the reason to skip the case. A yes/no word (``skip: no``) is
    refused: as a reason it would skip the case the author meant to run."""
    v = raw.get("skip", False)
    if v is True:
        return "skipped"
    if v is False or v is None:
        return ""
    if isinstance(v, str) and (yaml11_word(v) or v.strip().lower() in ("true", "false")):
        fix = "false" if meant(v) is False else "true"
        raise PlaytestError(
            f"{shown}:{_line(raw, 'skip')}",
            f"'skip' is true, false or a reason, not {v!r}; write 'skip: {fix}'"
            f" (YAML 1.2 reads {v!r} as text: as a reason, it would skip the case)",
        )
    if not isinstance(v, (str, int, float)):
        raise PlaytestError(f"{shown}:{_line(raw, 'skip')}", "'skip' is true, false or a reason")
    return str(v)


def _seed(raw: Any, shown: str) -> int:
    v = raw.get("seed", 0)
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise PlaytestError(
            f"{shown}:{_line(raw, 'seed')}", f"seed must be a whole number, not {v!r}"
        )
    return v


def _near(word: str, options: set[str]) -> str:
    if word == "<<":
        return MERGE_KEY_HINT
    hit = difflib.get_close_matches(word, sorted(options), n=1, cutoff=0.6)
    return f" (did you mean {hit[0]!r}?)" if hit else ""


def load_cases(
    path: str | Path, *, display: str | None = None, root: Path | None = None
) -> list[Case]:
    """Reads one test file (a regular file, inside ``root`` when given). Raises
    :class:`PlaytestError` for a malformed one."""
    p = Path(path)
    shown = display or str(p)
    try:
        data, dups = yaml_load(read_text(p, root))
    except SourceError as e:
        raise PlaytestError(f"{shown}:{e.pos[0] if e.pos else 1}", e.message) from None
    except Refused as e:
        mark = e.problem_mark
        raise PlaytestError(f"{shown}:{mark.line + 1 if mark else 1}", str(e.problem)) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise PlaytestError(
            f"{shown}:{mark.line + 1 if mark else 1}", f"YAML syntax: {e.problem or e.context}"
        ) from None
    except (OSError, yaml.YAMLError) as e:
        raise PlaytestError(f"{shown}:1", f"cannot read: {e}") from None
    if dups:
        key, pos = dups[0]
        raise PlaytestError(f"{shown}:{pos[0]}", f"duplicate key {key!r}")
    if data is None:
        return []
    items = data if isinstance(data, list) else [data]
    cases: list[Case] = []
    names: set[str] = set()
    for i, raw in enumerate(items):
        line = _line(data, index=i) if isinstance(data, list) else _line(data)
        where = f"{shown}:{line}"
        if not isinstance(raw, dict):
            raise PlaytestError(
                where, "a test case must be a mapping with name, commands and expect"
            )
        for k in raw:
            if k not in CASE_KEYS:
                raise PlaytestError(
                    f"{shown}:{_line(raw, k)}",
                    f"unknown key {k!r} in a test case{_near(str(k), CASE_KEYS)}",
                )
        name = str(raw.get("name") or f"case {i + 1}")
        if name in names:
            raise PlaytestError(where, f"two cases are named {name!r}")
        names.add(name)
        case = Case(
            name,
            shown,
            line,
            seed=_seed(raw, shown),
            gm=_switch(raw, "gm", shown),
            allow_errors=_switch(raw, "allow_errors", shown),
            skip=_skip(raw, shown),
            lang=str(raw.get("lang") or ""),
        )
        case.dice = _faces(raw.get("dice"), f"{shown}:{_line(raw, 'dice')}")
        case.dice_line = _line(raw, "dice")
        cmds = raw.get("commands") or []
        if isinstance(cmds, str):
            cmds = [cmds]
        if not isinstance(cmds, list):
            raise PlaytestError(f"{shown}:{_line(raw, 'commands')}", "commands must be a list")
        for j, c in enumerate(cmds):
            cl = _line(cmds, index=j) if isinstance(cmds, Seq) else _line(raw, "commands")
            if isinstance(c, dict):
                for k in c:
                    if k not in COMMAND_KEYS:
                        raise PlaytestError(
                            f"{shown}:{cl}",
                            f"unknown key {k!r} in a command{_near(str(k), COMMAND_KEYS)}",
                        )
                if "command" not in c:
                    raise PlaytestError(
                        f"{shown}:{cl}", "a command written as a mapping needs 'command'"
                    )
                case.commands.append(
                    Command(str(c["command"]), _faces(c.get("dice"), f"{shown}:{cl}"), cl)
                )
            elif c is None or isinstance(c, (list, bool)):
                raise PlaytestError(f"{shown}:{cl}", f"a command must be text, not {c!r}")
            else:
                case.commands.append(Command(str(c), [], cl))
        exps = raw.get("expect") or []
        if isinstance(exps, dict):
            exps = [exps]
        if not isinstance(exps, list):
            raise PlaytestError(f"{shown}:{_line(raw, 'expect')}", "expect must be a list")
        for j, x in enumerate(exps):
            xl = _line(exps, index=j) if isinstance(exps, Seq) else _line(raw, "expect")
            if not isinstance(x, dict) or not x:
                raise PlaytestError(
                    f"{shown}:{xl}", "an expectation is a mapping such as {node: room}"
                )
            for k in x:
                if k not in EXPECT_KEYS:
                    raise PlaytestError(
                        f"{shown}:{_line(x, k)}",
                        f"unknown expectation {k!r}{_near(str(k), EXPECT_KEYS)}",
                    )
            after = x.get("after")
            if after is not None and (
                not isinstance(after, int)
                or isinstance(after, bool)
                or not 0 <= after <= len(case.commands)
            ):
                raise PlaytestError(
                    f"{shown}:{_line(x, 'after')}",
                    f"after must be 0 to {len(case.commands)} (the number of commands played)",
                )
            checks = {k: v for k, v in x.items() if k != "after"}
            if not checks:
                raise PlaytestError(
                    f"{shown}:{xl}", "an expectation needs something to check besides 'after'"
                )
            for k in ("node", "ending"):
                if k in checks and isinstance(checks[k], (list, dict)):
                    raise PlaytestError(
                        f"{shown}:{_line(x, k)}", f"{k} is one name, not {checks[k]!r}"
                    )
            case.expect.append(Expect(checks, after, xl, {str(k): _line(x, k) for k in checks}))
        cases.append(case)
    return cases


def _as_list(v: Any) -> list:
    return v if isinstance(v, list) else [v]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    return a == b


def check_expectation(
    story: Story, state: Any, seen: list[str], checks: dict[str, Any]
) -> list[str]:
    """What does not hold, as messages (empty when everything does)."""
    bad: list[str] = []
    for key, want in checks.items():
        if key == "node":
            if state.node != str(want):
                bad.append(
                    f"expected to be at node {want!r}, but at {state.node!r}"
                    + (f" (the game ended: {state.ending})" if state.ending else "")
                )
        elif key == "ending":
            if want is None or want is False or str(want).lower() == "none":
                if state.ending is not None:
                    bad.append(f"expected the game to go on, but it ended: {state.ending!r}")
            elif state.ending != str(want):
                bad.append(
                    f"expected ending {want!r}, but "
                    + (
                        f"got {state.ending!r}"
                        if state.ending
                        else f"the game goes on at {state.node!r}"
                    )
                )
        elif key in ("var", "vars"):
            if not isinstance(want, dict):
                bad.append(f"{key}: write a mapping such as {{gold: 3}}")
                continue
            for name, value in want.items():
                if name not in state.vars:
                    bad.append(f"no variable {name!r}" + _near(str(name), set(state.vars)))
                elif not _same(state.vars[name], value):
                    hint = ""
                    if isinstance(state.vars[name], bool) and yaml11_word(value):
                        hint = (
                            f" (write {name}: {str(meant(value)).lower()}: YAML 1.2 reads"
                            f" {value!r} as text)"
                        )
                    bad.append(f"expected {name} = {value!r}, got {state.vars[name]!r}{hint}")
        elif key == "has":
            for item in _as_list(want):
                if isinstance(item, dict):
                    for it, n in item.items():
                        if state.inventory.get(str(it), 0) != n:
                            bad.append(
                                f"expected {n} × {it}, have {state.inventory.get(str(it), 0)}"
                            )
                elif not state.inventory.get(str(item)):
                    bad.append(
                        f"expected to have {item!r}; inventory: {dict(state.inventory) or 'empty'}"
                    )
        elif key == "lacks":
            for item in _as_list(want):
                if state.inventory.get(str(item)):
                    bad.append(f"expected not to have {item!r}")
        elif key == "clock":
            if isinstance(want, str) and ":" in want:
                got = clock_text(story, state.clock)
                if got != want:
                    bad.append(f"expected the clock to show {want}, it shows {got}")
            elif state.clock != want:
                bad.append(f"expected {want} minutes on the clock, got {state.clock}")
        elif key == "turn":
            if state.turn != want:
                bad.append(f"expected turn {want}, got {state.turn}")
        elif key == "text":
            for s in _as_list(want):
                if not any(str(s) in t for t in seen):
                    bad.append(
                        f"expected to see text {str(s)!r}; last lines: "
                        + " / ".join(repr(t[:40]) for t in seen[-3:])
                    )
        elif key == "no_text":
            for s in _as_list(want):
                if any(str(s) in t for t in seen):
                    bad.append(f"did not expect to see text {str(s)!r}")
        elif key in ("offers", "not_offers"):
            ids = {c.id for c in available(story, state) if c.n}
            labels = {c.label for c in available(story, state) if c.n}
            for a in _as_list(want):
                present = str(a) in ids or str(a) in labels
                if key == "offers" and not present:
                    bad.append(
                        f"expected action {a!r} to be offered; offered: {', '.join(sorted(ids)) or 'none'}"
                    )
                if key == "not_offers" and present:
                    bad.append(f"did not expect action {a!r} to be offered")
        elif key == "visited":
            for n in _as_list(want):
                if not state.visits.get(str(n)):
                    bad.append(f"expected node {n!r} to have been visited")
        elif key == "fired":
            for ev in _as_list(want):
                if str(ev) not in state.fired:
                    bad.append(
                        f"expected event {ev!r} to have fired; fired: {', '.join(state.fired) or 'none'}"
                    )
    return bad


def _names(story: Story) -> dict[str, set[str]]:
    actions = {a.id for n in story.nodes.values() for a in n.actions}
    actions |= {a.label for n in story.nodes.values() for a in n.actions}
    return {
        "node": set(story.nodes),
        "ending": set(story.endings),
        "item": set(story.items),
        "action": actions,
        "event": {e.id for e in story.events},
    }


# What each expectation names; a typo there would make a negative expectation pass for ever.
_NAMED = {
    "node": "node",
    "visited": "node",
    "ending": "ending",
    "has": "item",
    "lacks": "item",
    "offers": "action",
    "not_offers": "action",
    "fired": "event",
}


def unknown_names(story: Story, checks: dict[str, Any]) -> list[tuple[str, str]]:
    """``(key, message)`` for every name in an expectation that the story does not have."""
    known = _names(story)
    out = []
    for key, what in _NAMED.items():
        if key not in checks:
            continue
        want = checks[key]
        if key == "ending" and (want is None or want is False or str(want).lower() == "none"):
            continue
        names = []
        for v in _as_list(want):
            names += [str(k) for k in v] if isinstance(v, dict) else [str(v)]
        for name in names:
            if name not in known[what]:
                options = known[what] | ({"none"} if key == "ending" else set())
                out.append((key, f"{key}: the story has no {what} {name!r}{_near(name, options)}"))
    return out


def _step_counting(
    story: Story, state: Any, text: str, queue: list[int], gm: bool
) -> tuple[Any, list[Event], int]:
    """Steps with the queued faces first; returns how many of them the command used.

    A step is pure, so trying it with 0, 1, 2… faces and only dice from the list finds
    exactly how many it rolls; past the list, the game's own seeded dice take over.
    """
    if not queue:
        new, events = step(story, state, text, gm=gm)
        return new, events, 0
    for k in range(len(queue) + 1):
        try:
            new, events = step(story, state, text, dice=queue[:k], manual=True, gm=gm)
            return new, events, k
        except NeedDice:
            continue
    new, events = step(story, state, text, dice=list(queue), gm=gm)
    return new, events, len(queue)


TEXT_CHECKS = ("text", "no_text")


def run_case(story: Story, case: Case) -> Result:
    """Plays a case and checks its expectations.

    On a translated story (``katari test STORY --lang en``) a case written in the story's own
    language is played twice in step: each command is read by the story as written, and the
    action it names is played by its id in the translation. Both games must stay the same
    (node, ending, variables, inventory) after every command; the expectations are checked
    but for ``text``/``no_text``, which are in the other language. A case with ``lang:`` runs
    only in that language, as written."""
    t0 = time.perf_counter()
    res = Result(case, "passed")
    played = story.language
    source = story.cache.get("_source") if story.translation is not None else None
    written = case.lang or (source.language if source is not None else played)
    if case.skip or written != played and not (source is not None and written == source.language):
        res.outcome = "skipped"
        return res
    if source is not None and written == source.language:
        return _run_translated(story, source, case, t0)
    fails = res.failures
    at: dict[int | None, list[Expect]] = {}
    for x in case.expect:
        at.setdefault(x.after, []).append(x)
    state, events = new_game(story, case.seed, gm=case.gm)
    seen: list[str] = []
    queue = list(case.dice)

    def absorb(evs: list[Event]) -> list[str]:
        errs = []
        for ev in evs:
            if ev["type"] == "narration":
                seen.append(str(ev.get("text", "")))
            elif ev["type"] == "error":
                errs.append(str(ev.get("message", "")))
        return errs

    def verify(k: int | None) -> None:
        for x in at.get(k, ()):
            for msg in check_expectation(story, state, seen, x.checks):
                where = f" (after command {k})" if k else (" (at the start)" if k == 0 else "")
                fails.append(f"{case.file}:{x.line}: {msg}{where}")

    # A mistyped name would make `lacks:` or `not_offers:` pass for ever: say so up front.
    for x in case.expect:
        for key, msg in sorted(
            unknown_names(story, x.checks), key=lambda km: x.lines.get(km[0], 0)
        ):
            res.warnings.append(f"{case.file}:{x.lines.get(key, x.line)}: {msg}")

    for msg in absorb(events):
        fails.append(f"{case.file}:{case.line}: the story fails at the start: {msg}")
    verify(0)
    for i, cmd in enumerate(case.commands, 1):
        if state.ending is not None:
            fails.append(
                f"{case.file}:{cmd.line}: the game already ended ({state.ending}) "
                f"before command {i} {cmd.text!r}"
            )
            break
        queue = cmd.dice + queue
        try:
            new, events, used = _step_counting(story, state, cmd.text, queue, case.gm)
        except DiceError as e:
            fails.append(f"{case.file}:{cmd.line}: bad dice for {cmd.text!r}: {e}")
            break
        queue = queue[used:]
        errs = absorb(events)
        if new is state and errs and not case.allow_errors:
            fails.append(
                f"{case.file}:{cmd.line}: command {i} {cmd.text!r} failed at node "
                f"{state.node!r}: {errs[0]}"
            )
            break
        state = new
        verify(i)
    else:
        if queue:
            fails.append(
                f"{case.file}:{case.dice_line or case.line}: {len(queue)} dice face(s) "
                f"were never rolled: {queue}"
            )
        verify(None)
    res.outcome = "failed" if fails else "passed"
    res.seconds = time.perf_counter() - t0
    return res


def _run_translated(story: Story, source: Story, case: Case, t0: float) -> Result:
    """A case of the source language played on the source and the translation in step."""
    from runner.engine import resolve

    res = Result(case, "passed")
    fails = res.failures
    at: dict[int | None, list[Expect]] = {}
    for x in case.expect:
        at.setdefault(x.after, []).append(x)
    lang = story.language
    state, events = new_game(story, case.seed, gm=case.gm)
    mirror, _ = new_game(source, case.seed, gm=case.gm)
    queue = list(case.dice)
    for ev in events:
        if ev["type"] == "error":
            fails.append(
                f"{case.file}:{case.line}: the {lang} story fails at the start: {ev.get('message', '')}"
            )

    def verify(k: int | None) -> None:
        for x in at.get(k, ()):
            checks = {key: v for key, v in x.checks.items() if key not in TEXT_CHECKS}
            for msg in check_expectation(source, state, [], checks):
                where = f" (after command {k})" if k else (" (at the start)" if k == 0 else "")
                fails.append(f"{case.file}:{x.line}: {msg}{where} [{lang}]")

    def differs(a: Any, b: Any) -> str:
        for what in ("node", "ending", "vars", "inventory", "clock"):
            if getattr(a, what) != getattr(b, what):
                return f"{what}: {getattr(b, what)!r} in {lang}, {getattr(a, what)!r} in {source.language}"
        return ""

    verify(0)
    for i, cmd in enumerate(case.commands, 1):
        if state.ending is not None:
            fails.append(
                f"{case.file}:{cmd.line}: the {lang} game already ended ({state.ending}) "
                f"before command {i} {cmd.text!r}"
            )
            break
        found = (
            None if cmd.text.startswith(("!", "@")) else resolve(source, mirror, cmd.text).choice
        )
        text = found.id if found is not None else cmd.text
        queue = cmd.dice + queue
        try:
            new_m, _, used = _step_counting(source, mirror, cmd.text, list(queue), case.gm)
            new, events, used2 = _step_counting(story, state, text, queue, case.gm)
        except DiceError as e:
            fails.append(f"{case.file}:{cmd.line}: bad dice for {cmd.text!r}: {e}")
            break
        queue = queue[used2:]
        errs = [str(ev.get("message", "")) for ev in events if ev["type"] == "error"]
        if new is state and errs and not case.allow_errors and new_m is not mirror:
            fails.append(
                f"{case.file}:{cmd.line}: command {i} {text!r} failed in {lang} at node "
                f"{state.node!r}: {errs[0]}"
            )
            break
        state, mirror = new, new_m
        why = differs(mirror, state) or (
            "" if used == used2 else f"dice: {used2} used in {lang}, {used}"
        )
        if why:
            fails.append(
                f"{case.file}:{cmd.line}: after command {i} {cmd.text!r} the {lang} game differs "
                f"from the {source.language} one: {why}"
            )
            break
        verify(i)
    else:
        verify(None)
    res.outcome = "failed" if fails else "passed"
    res.seconds = time.perf_counter() - t0
    return res


def playtest_files(story_path: str | Path) -> list[Path]:
    """The play-test files of a story folder (``tests/*.yaml``), or next to a single file."""
    p = Path(story_path)
    folder = (p if p.is_dir() else p.parent) / "tests"
    if not folder.is_dir():
        return []
    return sorted(q for q in folder.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file())


def run_tests(
    story: Story, files: list[Path], *, select: str = "", display_base: Path | None = None
) -> list[Result]:
    """Runs every case in ``files`` (those whose id contains ``select``)."""
    results: list[Result] = []
    root = story_root(story.path)
    if root is None:  # a one-file story: its tests/ folder is next to it
        root = Path(os.path.realpath(Path(story.path).parent))
    home = os.path.abspath(
        Path(story.path) if Path(story.path).is_dir() else Path(story.path).parent
    )
    for f in files:
        shown = str(f)
        # Files found in the story's own tests/ stay inside its folder; files the user
        # names on the command line may be anywhere.
        inside = os.path.abspath(f).startswith(home + os.sep)
        if display_base is not None:
            try:
                shown = str(f.resolve().relative_to(display_base.resolve()))
            except ValueError:
                shown = str(f)
        try:
            cases = load_cases(f, display=shown, root=root if inside else None)
        except PlaytestError as e:
            c = Case(Path(shown).name, shown, 1)
            results.append(Result(c, "error", [str(e)]))
            continue
        for c in cases:
            if select and select not in c.nodeid:
                continue
            results.append(run_case(story, c))
    return results


def summary(results: list[Result], seconds: float) -> str:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.outcome] = counts.get(r.outcome, 0) + 1
    parts = [f"{counts[k]} {k}" for k in ("passed", "failed", "error", "skipped") if counts.get(k)]
    return (", ".join(parts) or "no tests ran") + f" in {seconds:.2f}s"
