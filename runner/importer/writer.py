"""The draft story: a folder ``katari check`` accepts and ``katari play`` plays.

Shape (all ids are ours, ASCII; every text is the document's own, Katari adds only
structure and short labels such as 「戻る」 or 「〈目星〉」):

- ``intro`` (導入) → ``hub`` (a scene that leads to every place, the people, the climax)
  → one node per place (``p1``, ``p2``...) with the document's description as narration,
  its notes as ``keeper:``, each check an action with its outcomes, each sanity roll an
  action calling ``coc7.san``; a pushable check's failure leads to a small push scene;
- ``climax`` (or the hub) offers each ending, its conditions as keeper notes;
- each monster a ``kind: enemy`` character with a fight scene (``fight_m1``);
- the timeline as clock events (``at`` minutes after the start), their checks and
  sanity rolls as effects;
- ``IMPORT.md``: what was understood and what could not be placed, by line.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from runner.importer.model import Check, Creature, ImportFailure, Place, SanRoll, Scenario
from runner.importer.score import same_name

KIND = {"true": "good", "good": "good", "normal": "normal", "bad": "bad", "lost": "death"}
DIFF_JA = {"hard": "ハード", "extreme": "イクストリーム"}


class _Dumper(yaml.SafeDumper):
    pass


# The stories' loader reads YAML 1.2's core schema (runner/story/yamlpos.py): a line of the
# document such as 「0E0」 or 「0o17」 is a number there though not in YAML 1.1, so the dumper
# must know to quote it.
_Dumper.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    ),
    list("-+0123456789."),
)
_Dumper.add_implicit_resolver(
    "tag:yaml.org,2002:int",
    re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"),
    list("-+0123456789"),
)


def _str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    # A document's braces ({SAN} in a CCFOLIA palette) are text, not the story's {…}.
    if "{" in data or "}" in data:
        data = data.replace("{", "{{").replace("}", "}}")
    style = "|" if "\n" in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _str)


def dump(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=_Dumper,
        allow_unicode=True,
        sort_keys=False,
        width=4096,
        default_flow_style=False,
    )


def story_id(out_dir: Path) -> str:
    name = re.sub(r"[^\w\-]", "_", out_dir.resolve().name) or "imported"
    if not re.match(r"^[^\W\d]", name):
        name = "s_" + name
    return name


def q(s: str) -> str:
    """A text literal for an expression."""
    return "'" + str(s).replace("'", "").replace("\\", "") + "'"


def write_story(sc: Scenario, out_dir: str | Path, *, force: bool = False) -> Path:
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ImportFailure("out_file", path=str(out))
    if out.exists() and any(out.iterdir()):
        if not force:
            raise ImportFailure("out_exists", path=str(out))
    files = compile_story(sc, story_id(out))
    from runner.importer.report import markdown

    try:
        out.mkdir(parents=True, exist_ok=True)
        if force:
            for name in ("story.yaml", "places.yaml", "IMPORT.md"):
                if (out / name).exists():
                    (out / name).unlink()
            if (out / "tests").is_dir() and not any((out / "tests").iterdir()):
                shutil.rmtree(out / "tests")
        for name, text in files.items():
            (out / name).write_text(text, encoding="utf-8")
        (out / "IMPORT.md").write_text(markdown(sc, out), encoding="utf-8")
    except OSError as e:
        raise ImportFailure(
            "write_failed", path=str(out), why=e.strerror or type(e).__name__
        ) from None
    return out


class _Story:
    def __init__(self, sc: Scenario, sid: str) -> None:
        self.sc = sc
        self.sid = sid
        self.characters: dict[str, dict] = {}
        self.items: dict[str, dict] = {}
        self.nodes: dict[str, dict] = {}
        self.endings: dict[str, dict] = {}
        self.events: list[dict] = []
        self.opponents: dict[str, str] = {}
        self.lost_ending = ""
        self.fights: set[str] = set()


_MD_MARK = re.compile(r"\*\*|__|`|^\s*(?:>\s*)+|^\s*[-*+]\s+(?=\S)")


def clean_markdown(sc: Scenario) -> None:
    """Markdown's own marks (``**``, backticks, ``- `` bullets, ``> ``) are markup, not text."""
    if sc.format != "markdown":
        return
    from runner.importer.model import Line

    def fix(ln: Line) -> None:
        ln.raw = _MD_MARK.sub("", ln.raw).strip() or ln.raw

    for p in sc.places:
        for ln in p.narration + p.keeper:
            fix(ln)
        for c in p.checks:
            for o in c.outcomes:
                o.text = _MD_MARK.sub("", o.text).strip()
            c.context = _MD_MARK.sub("", c.context).strip()
        for s in p.san:
            s.context = _MD_MARK.sub("", s.context).strip()
    for ln in sc.background:
        fix(ln)
    for e in sc.endings:
        for ln in e.narration + e.conditions + e.rewards:
            fix(ln)
    for t in sc.timeline:
        t.what = _MD_MARK.sub("", t.what).strip()
        for ln in t.lines:
            fix(ln)


def compile_story(sc: Scenario, sid: str) -> dict[str, str]:
    clean_markdown(sc)
    st = _Story(sc, sid)
    _characters(st)
    _endings(st)
    intro = next((p for p in sc.places if p.role == "intro"), None)
    climax = next((p for p in sc.places if p.role == "climax"), None)
    others = [p for p in sc.places if p.role not in ("intro", "climax")]
    for i, p in enumerate(others, 1):
        p.id = "people" if p.role == "people" else f"p{i}"
    hub_actions: list[dict] = []
    for p in others:
        label = p.name if p.role != "people" else "登場人物"
        hub_actions.append(
            {
                "id": f"go_{p.id}",
                "label": _short(label, 30),
                "aliases": _aliases(p.name),
                "goto": p.id,
            }
        )
        st.nodes[p.id] = _place(st, p, back="hub")
    if climax is not None:
        climax.id = "climax"
        hub_actions.append(
            {
                "id": "go_climax",
                "label": "クライマックスへ",
                "aliases": ["クライマックス", "climax"],
                "goto": "climax",
            }
        )
        node = _place(st, climax, back="hub", back_label="探索に戻る")
        node["actions"] = _unique(
            _fight_actions(st, [m.name for m in sc.monsters])
            + node["actions"][:-1]
            + _ending_actions(st)
            + node["actions"][-1:]
        )
        st.nodes["climax"] = node
    hub: dict[str, Any] = {"kind": "scene", "title": _hub_title(sc)}
    # the background is read once, with the introduction; the hub keeps the timeline's notes
    keeper = ([] if intro is not None else [ln.raw for ln in sc.background]) + _timeline_notes(sc)
    if keeper:
        hub["keeper"] = keeper
    if climax is None:
        hub_actions = (
            _fight_actions(st, [m.name for m in sc.monsters]) + hub_actions + _ending_actions(st)
        )
    hub["actions"] = _unique(hub_actions)
    nodes: dict[str, dict] = {}
    if intro is not None:
        intro.id = "intro"
        nodes["intro"] = _place(st, intro, back="hub", back_label="探索を始める")
        if sc.background:
            nodes["intro"]["keeper"] = [ln.raw for ln in sc.background] + nodes["intro"].get(
                "keeper", []
            )
            nodes["intro"] = {
                k: nodes["intro"][k]
                for k in ("kind", "title", "narration", "keeper", "actions")
                if k in nodes["intro"]
            }
        nodes.update({k: v for k, v in st.nodes.items() if k.startswith("intro_push")})
    nodes["hub"] = hub
    # each place, then its push scenes
    for nid, node in st.nodes.items():
        if "_push" not in nid:
            nodes[nid] = node
            nodes.update({k: v for k, v in st.nodes.items() if k.startswith(f"{nid}_push")})
    _events(st)
    if intro is not None:
        # what the timeline says happens at the very start is said as the game begins
        for ev in [e for e in st.events if e.get("at") == 0]:
            nodes["intro"].setdefault("on_enter", []).extend(ev["effects"])
            st.events.remove(ev)
    for mid in sorted(st.fights):
        nodes[f"fight_{mid}"] = _fight_node(st, mid)
    start = "intro" if intro is not None else "hub"
    story: dict[str, Any] = {
        "id": sid,
        "title": sc.title or sid,
        "language": "ja",
        "rules": "coc7",
        "start": start,
    }
    if sc.time:
        story["length"] = sc.time
    story["credits"] = [
        f"原作：{sc.title or Path(sc.path).name}（{Path(sc.path).name} を katari import で取り込んだ下書き。"
        "本文は原作のまま）"
    ]
    story["options"] = {"pregen": 1}
    head: dict[str, Any] = {"story": story}
    if st.events or sc.search_cost:
        start_min = (sc.clock_start or 0) % 1440
        head["clock"] = {"start": f"{start_min // 60:02d}:{start_min % 60:02d}"}
    if st.characters:
        head["characters"] = st.characters
    if st.items:
        head["items"] = st.items
    if st.events:
        head["events"] = st.events
    head["endings"] = st.endings
    comment = (
        f"# {sc.title or sid}: a draft made by `katari import` from {Path(sc.path).name}.\n"
        f"# The text is the document's own; Katari added the structure and short labels.\n"
        f"# What was understood, line by line: IMPORT.md. Next: katari check, katari play --gm.\n"
    )
    return {
        "story.yaml": comment + dump(head),
        "places.yaml": "# Places, scenes and fights.\n" + dump({"nodes": nodes}),
    }


def _hub_title(sc: Scenario) -> str:
    return "探索"


def _short(s: str, n: int = 28) -> str:
    s = re.sub(r"\s+", " ", s).strip()
    return s if len(s) <= n else s[:n] + "…"


def _aliases(name: str) -> list[str]:
    base = re.sub(r"[（(「『【].*$", "", name).strip()
    out = [a for a in {base, name} if a]
    return sorted(out, key=len)[:2]


def _unique(actions: list[dict]) -> list[dict]:
    seen: dict[str, int] = {}
    ids: set[str] = set()
    for a in actions:
        n = seen.get(a["label"], 0) + 1
        seen[a["label"]] = n
        if n > 1:
            a["label"] = f"{a['label']}（{n}）"
        base, k = a["id"], 2
        while a["id"] in ids:
            a["id"] = f"{base}_{k}"
            k += 1
        ids.add(a["id"])
    return actions


# ----------------------------------------------------------------------- places


def _place(st: _Story, p: Place, *, back: str, back_label: str = "戻る") -> dict:
    node: dict[str, Any] = {
        "kind": "scene" if p.role in ("intro", "climax", "people") else "place",
        "title": p.name,
    }
    if p.narration:
        node["narration"] = [ln.raw for ln in p.narration]
    if p.keeper:
        node["keeper"] = [ln.raw for ln in p.keeper]
    actions: list[dict] = []
    in_outcome = {id(o.san) for c in p.checks for o in c.outcomes if o.san is not None}
    items: list[tuple[int, dict]] = []
    for c in p.checks:
        items.append((c.line, _check_action(st, c, p, len(items) + 1)))
    for s in p.san:
        if id(s) in in_outcome:
            continue
        items.append((s.line, _san_action(s, len(items) + 1)))
    items.sort(key=lambda x: x[0])
    actions += [a for _, a in items]
    for h in st.sc.handouts:
        if h.name in p.handouts:
            hid = f"h{st.sc.handouts.index(h) + 1}"
            st.items[hid] = {
                "name": _short(h.name, 40),
                "description": " ".join(ln.raw for ln in h.text)[:400],
            }
            actions.append(
                {
                    "id": f"read_{hid}",
                    "label": _short(f"{h.name}を受け取る", 30),
                    "once": True,
                    "effects": [{"give": hid}],
                    "say": [ln.raw for ln in h.text] or [h.name],
                }
            )
    if p.role != "climax":
        actions = _fight_actions(st, p.fights) + actions
    actions.append(
        {
            "id": "back",
            "label": back_label,
            "aliases": ["戻る", "back"] if back_label == "戻る" else [back_label],
            "goto": back,
        }
    )
    node["actions"] = _unique(actions)
    return node


def _next_line(sc: Scenario, p: Place) -> int:
    later = [q.line for q in sc.places if q.line > p.line]
    return min(later) if later else 10**9


def _label_skills(c: Check) -> str:
    s = "・".join(c.written or c.skills)
    if c.difficulty in DIFF_JA:
        s += f"・{DIFF_JA[c.difficulty]}"
    if c.opposed:
        s += "・対抗"
    return s


def _check_action(st: _Story, c: Check, p: Place, n: int) -> dict:
    ctx = c.context.strip()
    label = f"{_short(ctx, 24)}（{_label_skills(c)}）" if ctx else f"〈{_label_skills(c)}〉"
    words = [_short(ctx, 24)] if ctx else []
    a: dict[str, Any] = {
        "id": f"c{n}",
        "label": label,
        "aliases": list(dict.fromkeys([*words, *c.written, *c.skills]))[:4],
    }
    cost = st.sc.search_cost if st.sc.search_cost and p.role == "place" else 0
    push = bool(c.pushable and not c.opposed and c.skills != ["幸運"] and p.id)
    if cost and not push:
        a["cost"] = cost
    expr, note = _check_expr(st, c)
    a["check"] = expr
    if note:
        a["keeper"] = note
    a["outcomes"] = _outcomes(st, c, p, n, cost if push else 0)
    return a


def _check_expr(st: _Story, c: Check) -> tuple[str, str]:
    skills = c.skills
    sk = q(skills[0]) if len(skills) == 1 else f"coc7.best_skill({', '.join(q(s) for s in skills)})"
    if c.opposed:
        opp = _opponent(st, c)
        if opp:
            oid, oskill = opp
            return f"coc7.opposed({sk}, {q(oid)}, {q(oskill)})", ""
        note = f"対抗ロール（相手：{c.opponent or '未記載'}）。相手の値が書かれていないので通常の判定にしている。"
        return f"coc7.check({sk})", note
    if skills == ["幸運"]:
        return ("coc7.luck()" if c.difficulty == "regular" else f"coc7.luck({q(c.difficulty)})"), ""
    args = [sk]
    if c.difficulty != "regular" or c.bonus:
        args.append(q(c.difficulty))
    if c.bonus > 0:
        args.append(str(min(2, c.bonus)))
    elif c.bonus < 0:
        args += ["0", "''", "false", str(min(2, -c.bonus))]
    return f"coc7.check({', '.join(args)})", ""


def _opponent(st: _Story, c: Check) -> tuple[str, str] | None:
    oskill = c.opponent_skill or c.skills[0]
    for cid, spec in st.characters.items():
        if c.opponent and same_name(spec["name"], c.opponent):
            return cid, oskill
    if c.opponent_value is not None:
        key = f"{c.opponent}:{oskill}:{c.opponent_value}"
        if key not in st.opponents:
            oid = f"o{len(st.opponents) + 1}"
            st.opponents[key] = oid
            st.characters[oid] = {
                "name": c.opponent or "相手",
                "kind": "neutral",
                "stats": {oskill: c.opponent_value},
            }
        return st.opponents[key], oskill
    return None


def _outcomes(st: _Story, c: Check, p: Place, n: int, cost: int = 0) -> dict:
    out: dict[str, Any] = {}
    for o in c.outcomes:
        if o.key == "pushed_failure":
            continue
        body: dict[str, Any] = out.setdefault(o.key, {})
        says = body.setdefault("say", [])
        if o.text:
            says.append(o.text)
        if o.san is not None:
            body.setdefault("effects", []).append({"do": f"coc7.san({q(o.san.loss)})"})
    for body in out.values():
        if "say" in body and not body["say"]:
            del body["say"]
        elif "say" in body and len(body["say"]) == 1:
            body["say"] = body["say"][0]
    if c.pushable and not c.opposed and c.skills != ["幸運"] and p.id:
        # A failure leads to a choice: push or give up. The time the search costs passes
        # only after that choice, so that no timed event's roll comes between the failed
        # roll and its push (coc7.push() re-rolls the last roll).
        push_id = f"{p.id}_push{n}"
        fail = out.get("failure", {})
        if "fumble" not in out:
            out["fumble"] = dict(fail) if fail else {}
        body = dict(fail)
        body["goto"] = push_id
        out["failure"] = body
        if "otherwise" not in out:
            out["otherwise"] = {}
        if cost:
            for key, b in out.items():
                if key != "failure":
                    b.setdefault("effects", []).append({"advance": cost})
        pushed = next((o for o in c.outcomes if o.key == "pushed_failure"), None)
        st.nodes[push_id] = {
            "kind": "scene",
            "title": f"{p.name}：プッシュ",
            "actions": [
                {
                    "id": "push",
                    "label": f"プッシュする（{_label_skills(c)}）",
                    "aliases": ["プッシュする", "プッシュ", "push"],
                    **({"cost": cost} if cost else {}),
                    "check": "coc7.push()",
                    "outcomes": {
                        "failure": ({"say": pushed.text} if pushed and pushed.text else {})
                        | {"goto": p.id},
                        "otherwise": {
                            **(
                                {
                                    "say": next(
                                        (
                                            o.text
                                            for o in c.outcomes
                                            if o.key == "success" and o.text
                                        ),
                                        "",
                                    )
                                }
                                if any(o.key == "success" and o.text for o in c.outcomes)
                                else {}
                            ),
                            "goto": p.id,
                        },
                    },
                },
                {
                    "id": "give_up",
                    "label": "あきらめる",
                    "aliases": ["あきらめる"],
                    **({"cost": cost} if cost else {}),
                    "goto": p.id,
                },
            ],
        }
    if not out:
        out["otherwise"] = {}
    return out


def _san_action(s: SanRoll, n: int) -> dict:
    ctx = s.context.strip()
    label = f"{_short(ctx, 24)}（正気度 {s.loss}）" if ctx else f"正気度ロール（{s.loss}）"
    return {
        "id": f"s{n}",
        "label": label,
        "aliases": ([_short(ctx, 24)] if ctx else []) + ["正気度", "SAN"],
        "once": True,
        "check": f"coc7.san({q(s.loss)})",
        "outcomes": {"otherwise": {}},
    }


# ------------------------------------------------------------------- characters


def _characters(st: _Story) -> None:
    from runner.rules.coc7 import sheet

    m = n = 0
    for c in st.sc.creatures:
        if c.kind == "monster":
            m += 1
            c.id = f"m{m}"
        else:
            n += 1
            c.id = f"n{n}"
        stats: dict[str, Any] = {k: v for k, v in c.stats.items() if k in sheet.CHARS}
        if "HP" in c.stats:
            stats["耐久力"] = c.stats["HP"]
        if c.kind == "monster":
            if c.armor:
                stats["装甲"] = c.armor
            if c.build is not None:
                stats["ビルド"] = c.build
            if c.move:
                stats["移動"] = c.move
            first = next((a for a in c.attacks if a.skill is not None), None)
            if first is not None:
                stats["近接戦闘"] = first.skill
            dmg = _damage(c, first.damage if first else "")
            if dmg:
                stats["ダメージ"] = dmg
            if "回避" in c.skills:
                stats["回避"] = c.skills["回避"]
            if c.san and re.fullmatch(r"[\dd+\-]+/[\dd+\-]+", c.san):
                stats["遭遇正気度喪失"] = c.san
        for k, v in c.skills.items():
            if k not in ("回避",) and isinstance(v, int):
                stats.setdefault(k, v)
        spec: dict[str, Any] = {"name": c.name, "kind": "enemy" if c.kind == "monster" else "npc"}
        if stats:
            spec["stats"] = stats
        attacks = [
            {"name": a.name, **({"damage": d} if (d := _damage(c, a.damage)) else {})}
            for a in c.attacks
            if a.name
        ]
        if c.kind == "monster" and attacks:
            spec["props"] = {"attacks": attacks}
        st.characters[c.id] = spec


def _damage(c: Creature, dmg: str) -> str:
    """A damage roll the dice roller reads: DB replaced by the creature's bonus."""
    from runner.rules.coc7 import sheet
    from runner.rules.dice import parse

    if not dmg:
        return ""
    db = c.db
    if not db and re.search(r"DB|db", dmg):
        db = sheet.damage_bonus(c.stats.get("STR", 0) + c.stats.get("SIZ", 0))[0]
    d = re.sub(r"\s+", "", dmg)
    d = re.sub(
        r"[+\-]?(?:DB|db)",
        lambda m: "" if db in ("", "0") else (db if db[0] in "+-" else "+" + db),
        d,
    )
    d = d.lower().strip("+")
    try:
        parse(d)
    except Exception:  # noqa: BLE001 - anything the dice roller will not read is left out
        return ""
    return d


def _fight_actions(st: _Story, names: list[str]) -> list[dict]:
    out = []
    done: set[str] = set()
    for name in names:
        for c in st.sc.monsters:
            if c.name != name or not c.id or c.id in done:
                continue
            done.add(c.id)
            out.append(_fight_action(st, c))
    return out


def _fight_action(st: _Story, c: Creature) -> dict:
    st.fights.add(c.id)
    return {
        "id": f"fight_{c.id}",
        "label": f"{_short(c.name, 16)}と戦う",
        "aliases": ["戦う", "fight"],
        "effects": [{"do": f"coc7.start_combat({q(c.id)}, 1)"}],
        "goto": f"fight_{c.id}",
    }


def _fight_node(st: _Story, mid: str) -> dict:
    name = st.characters[mid]["name"]
    return {
        "kind": "combat",
        "title": f"{name}との戦闘",
        "actions": [
            {
                "id": "attack",
                "label": "攻撃する",
                "aliases": ["攻撃", "attack"],
                "when": "coc7.awaiting() == 'action'",
                "effects": [{"do": "coc7.attack()"}],
            },
            {
                "id": "dodge",
                "label": "回避する",
                "aliases": ["回避", "dodge"],
                "when": "coc7.awaiting() == 'response'",
                "effects": [{"do": "coc7.dodge()"}],
            },
            {
                "id": "fight_back",
                "label": "反撃する",
                "aliases": ["反撃"],
                "when": "coc7.awaiting() == 'response'",
                "effects": [{"do": "coc7.fight_back()"}],
            },
            {
                "id": "flee",
                "label": "逃げる",
                "aliases": ["逃げる", "flee"],
                "when": "coc7.awaiting() == 'action'",
                "effects": [{"do": "coc7.flee()"}],
            },
            {
                "id": "leave",
                "label": "戦闘を終える",
                "aliases": ["終える"],
                "when": "not coc7.in_combat()",
                "goto": "hub",
            },
        ],
    }


# --------------------------------------------------------------------- endings


def _endings(st: _Story) -> None:
    for i, e in enumerate(st.sc.endings, 1):
        e.id = f"end{i}"
        spec: dict[str, Any] = {"kind": KIND.get(e.kind, "normal"), "title": e.name}
        if e.narration:
            spec["narration"] = [ln.raw for ln in e.narration]
        st.endings[e.id] = spec
        if e.kind == "lost" and not st.lost_ending:
            st.lost_ending = e.id
    if not st.endings:
        st.endings["end"] = {"kind": "normal", "title": "おわり"}


def _ending_actions(st: _Story) -> list[dict]:
    out = []
    for e in st.sc.endings:
        a: dict[str, Any] = {
            "id": f"to_{e.id}",
            "label": _short(f"結末：{e.name}", 34),
            "end": e.id,
        }
        notes = [ln.raw for ln in e.conditions + e.rewards]
        if notes:
            a["keeper"] = notes
        out.append(a)
    if not st.sc.endings:
        out.append({"id": "to_end", "label": "物語を終える", "end": "end"})
    return out


# ---------------------------------------------------------------------- events


def _timeline_notes(sc: Scenario) -> list[str]:
    out = []
    for e in sc.timeline:
        if e.minutes is None and e.after:
            out.append(f"{e.lines[0].raw}" if e.lines else e.what)
    return out


def _events(st: _Story) -> None:
    sc = st.sc
    start = sc.clock_start
    n = 0
    for e in sc.timeline:
        if e.minutes is not None and start is not None:
            at = e.minutes - start
        elif e.minutes is None and not e.after and e.offset is not None:
            at = e.offset
        else:
            continue
        if at < 0:
            continue
        n += 1
        effects: list[dict] = []
        if e.what:
            effects.append({"say": e.what})
        more = [ln.raw for ln in e.lines[1:]]
        if more:
            effects.append({"keeper": more})
        in_outcome = set()
        for c in e.checks:
            outs = _event_outcomes(c)
            for o in c.outcomes:
                if o.san is not None:
                    in_outcome.add(id(o.san))
            expr, note = _check_expr(st, c)
            if note:
                effects.append({"keeper": note})
            effects.append({"check": expr, "outcomes": outs})
        for s in e.san:
            if id(s) not in in_outcome:
                effects.append({"do": f"coc7.san_all({q(s.loss)})"})
        if e.goto_climax and "climax" in st.nodes:
            effects.append({"goto": "climax"})
        # The GM panel's name for it (katari check warns about a timed event without one).
        head = (e.what or (e.lines[0].raw if e.lines else "") or f"t{n}").strip().splitlines()[0]
        head = head.split("。")[0] or head  # its first sentence: 「鐘が鳴る」
        title = head if len(head) <= 24 else head[:23] + "…"
        st.events.append({"id": f"t{n}", "title": title, "at": at, "effects": effects})
    if st.fights:
        if not st.lost_ending:
            st.lost_ending = "lost"
            st.endings["lost"] = {"kind": "death", "title": "探索者の死亡"}
        st.events.append(
            {"id": "all_dead", "when": "not coc7.any_alive()", "effects": [{"end": st.lost_ending}]}
        )


def _event_outcomes(c: Check) -> dict:
    out: dict[str, Any] = {}
    for o in c.outcomes:
        if o.key == "pushed_failure":
            continue
        body = out.setdefault(o.key, [])
        if o.text:
            body.append({"say": o.text})
        if o.san is not None:
            body.append({"do": f"coc7.san({q(o.san.loss)})"})
    if not out:
        out["otherwise"] = []
    return out
