"""``katari sweep``: the same games under each value of a story option, endings side by side.

Each setting plays the same seeds (``seed`` .. ``seed + runs - 1``), so the rows differ only
by the option. Options are the story's ``options:`` (``story.options``), addressed by their
key, or a dotted path into a nested one (``push_failure.minutes``).
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import yaml

from runner.story.model import Story


class SweepError(ValueError):
    """A ``--set`` that cannot be used, in one line."""


def parse_sets(specs: list[str]) -> list[tuple[str, list[Any]]]:
    """``["strikes=1,2,3"]`` -> ``[("strikes", [1, 2, 3])]``; values are read as YAML scalars
    (``true``, ``3``, ``null``, ``hall``)."""
    out: list[tuple[str, list[Any]]] = []
    for spec in specs:
        key, eq, vals = spec.partition("=")
        key = key.strip()
        if not eq or not key or not vals.strip():
            raise SweepError(f"--set {spec!r}: write OPTION=VALUE,VALUE,... (e.g. strikes=1,2,3)")
        values = []
        for raw in vals.split(","):
            raw = raw.strip()
            try:
                v = yaml.safe_load(raw) if raw else ""
            except yaml.YAMLError:
                v = raw
            if isinstance(v, (dict, list)):
                v = raw
            values.append(v)
        if any(k == key for k, _ in out):
            raise SweepError(f"--set {key!r} is given twice")
        out.append((key, values))
    if not out:
        raise SweepError("give at least one --set OPTION=VALUE,VALUE,...")
    return out


def _put(options: dict, dotted: str, value: Any) -> dict:
    out = dict(options)
    head, _, rest = dotted.partition(".")
    if rest:
        inner = out.get(head)
        out[head] = _put(inner if isinstance(inner, dict) else {}, rest, value)
    else:
        out[head] = value
    return out


def with_options(story: Story, values: dict[str, Any]) -> Story:
    """The story with these options set (everything else shared; rule tables recomputed).
    Raises SweepError when the story's rule system refuses the options."""
    opts = dict(story.options)
    for k, v in values.items():
        opts = _put(opts, k, v)
    new = dataclasses.replace(
        story, options=opts, cache={k: v for k, v in story.cache.items() if k == "_kana"}
    )
    problems = _validate(new)
    if problems:
        raise SweepError(f"{', '.join(f'{k}={v!r}' for k, v in values.items())}: {problems[0]}")
    return new


def _validate(story: Story) -> list[str]:
    """What the rule system says of the story's options (the loader's own check, rerun)."""
    if story.rules == "none":
        return []
    from runner.rules import system

    rs = system(story.rules)
    if rs.validate is None:
        return []
    raw = {
        "story": {
            "id": story.id,
            "title": story.title,
            "rules": story.rules,
            "start": story.start,
            "language": story.language,
            "options": story.options,
        },
        "variables": {k: v.value for k, v in story.variables.items()},
        "items": {k: {"name": v.name, **v.props} for k, v in story.items.items()},
        "characters": {
            k: {"name": c.name, "kind": c.kind, "stats": c.stats, "props": c.props}
            for k, c in story.characters.items()
        },
        "nodes": {k: n.props for k, n in story.nodes.items()},
        "endings": {k: {"kind": e.kind, "title": e.title} for k, e in story.endings.items()},
        **story.extra,
    }
    try:
        found = rs.validate(raw)
    except Exception as e:  # noqa: BLE001 - a rule system that chokes on the value
        return [f"the {story.rules} rules cannot use it ({type(e).__name__})"]
    return [msg for where, msg in found if str(where).startswith("story.options")]


def sweep(story: Story, sets: list[tuple[str, list[Any]]], runs: int, **sim: Any) -> dict:
    """Plays ``runs`` games under every combination of the ``sets`` values; one row each."""
    from runner.authoring.simulate import simulate

    keys = [k for k, _ in sets]
    rows: list[dict[str, Any]] = []
    endings: list[str] = list(story.endings)
    for combo in itertools.product(*(vals for _, vals in sets)):
        values = dict(zip(keys, combo, strict=True))
        rep = simulate(with_options(story, values), runs, **sim)
        for e in rep.endings:
            if e not in endings:
                endings.append(e)
        rows.append(
            {
                "set": values,
                "endings": rep.endings,
                "turns": rep.turns,
                "coverage": rep.coverage,
                "failed_games": rep.failed_games,
            }
        )
    reached = [e for e in endings if any(r["endings"].get(e) for r in rows)]
    return {
        "story": story.id,
        "runs": runs,
        "seed": sim.get("seed", 0),
        "policy": sim.get("policy", "random"),
        "options": keys,
        "endings": reached,
        "ending_kinds": {e: story.endings[e].kind for e in reached if e in story.endings},
        "rows": rows,
    }


def _show(v: Any) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return str(v)


def format_table(res: dict, lang: str = "ja") -> str:
    """Endings (percent of games) per setting, one row each."""
    from runner.ui.render import width

    head = (
        f"{res['story']}: 各設定 {res['runs']} 回（方針 {res['policy']}、シード {res['seed']}）"
        if lang == "ja"
        else f"{res['story']}: {res['runs']} games per setting (policy {res['policy']}, seed {res['seed']})"
    )
    cols = [*res["options"], *res["endings"], "turns" if lang != "ja" else "手数"]
    body = []
    for r in res["rows"]:
        cells = [_show(r["set"][k]) for k in res["options"]]
        cells += [
            f"{100 * r['endings'].get(e, 0) / max(1, res['runs']):.1f}%" for e in res["endings"]
        ]
        cells.append(f"{r['turns']['mean']:g}")
        body.append(cells)
    widths = [max(width(c) for c in [h, *(row[i] for row in body)]) for i, h in enumerate(cols)]
    n_opt = len(res["options"])

    def line(cells: list[str]) -> str:
        out = []
        for i, c in enumerate(cells):
            pad = " " * (widths[i] - width(c))
            out.append(c + pad if i < n_opt else pad + c)
        return "  ".join(out).rstrip()

    kinds = res.get("ending_kinds", {})
    legend = ", ".join(f"{e} ({kinds[e]})" for e in res["endings"] if e in kinds)
    lines = [head, "", line(cols), line(["-" * w for w in widths])] + [line(c) for c in body]
    if legend:
        lines += ["", ("エンディング: " if lang == "ja" else "endings: ") + legend]
    return "\n".join(lines) + "\n"
