"""Out to the online table: the investigator as a CCFOLIA piece, the game as a CCFOLIA room
log (the HTML of its ログ出力), and as リプレイ text.

- :func:`piece` — CCFOLIA's clipboard JSON (``{"kind":"character","data":{...}}``): the
  current HP, MP, SAN and Luck with their maxima in ``status``, the characteristics and
  DB/ビルド/MOV in ``params`` (as text, as CCFOLIA keeps them), and a 7th-edition chat palette
  in ``commands`` (``CC<={SAN} 【正気度ロール】``, ``CC<={INT} 【アイデア】``, one line for every
  skill, damage lines with ``{DB}``).
- :func:`messages` — a played game as the messages of a room: the keeper's narration (KP),
  the investigator's actions, every roll in BCDice's wording after its command
  (``CC<=60 【目星】 (1D100<=60) …``), and ``system`` lines for HP/MP/SAN/Luck changes
  (``[ 名前 ] SAN : 48 → 45``). Keeper notes and hidden rolls only in a GM log, in tab ``info``.
- :func:`log_html` and :func:`replay_text` write those messages.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from runner.rules.coc7 import sheet as sh
from runner.story.text import printable

MAIN, INFO, OTHER = "main", "info", "other"
COLORS = {"KP": "#888888", "system": "#888888"}
PC_COLOR = "#e91e63"
NPC_COLOR = "#4caf50"
GM_COLOR = "#9e9e9e"


# ---------------------------------------------------------------- the piece


def display_name(s: dict) -> str:
    """The name a table sees: ``御影 灯子（みかげ とうこ）`` when the sheet has a reading."""
    return s["name"] + (f"（{s['reading']}）" if s.get("reading") else "")


def skill_lines(s: dict) -> list[tuple[str, int]]:
    """Every skill of the 7th edition (at its base where the sheet does not list it) and the
    sheet's own, in the rulebook's order, then the rest."""
    chars = s.get("chars", {})
    own = dict(s.get("skills", {}))
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    for ja, _en, _base, _more in sh.SKILLS:
        if ja in ("ほかの言語", "母国語") or ja in seen:
            continue
        specs = sorted(k for k in own if k.startswith(ja + "(") and k not in seen)
        if ja in own or not specs:
            out.append((ja, int(own[ja]) if ja in own else sh.skill_value(s, ja)[1]))
            seen.add(ja)
        for k in specs:
            out.append((k, int(own[k])))
            seen.add(k)
    native = s.get("native") or "日本語"
    mother = f"母国語({native})"
    out.append((mother, int(own.get(mother, own.get("母国語", chars.get("EDU", 0))))))
    seen.update((mother, "母国語"))
    for k in sorted(own):
        if k not in seen:
            out.append((k, int(own[k])))
            seen.add(k)
    return out


def palette(s: dict) -> str:
    """A 7th-edition chat palette for the sheet (CCFOLIA's ``commands``)."""
    lines = [
        "CC<={SAN} 【正気度ロール】",
        "CC<={INT} 【アイデア】",
        "CC<={EDU} 【知識】",
        "CC<={幸運} 【幸運】",
    ]
    lines += [f"CC<={v} 【{k}】" for k, v in skill_lines(s)]
    for w in s.get("weapons", []):
        dmg = str(w.get("damage", "1d3")).upper()
        lines.append(
            f"{dmg}+{{DB}} 【{w['name']}のダメージ】"
            if w.get("db", True) and not w.get("firearm")
            else f"{dmg} 【{w['name']}のダメージ】"
        )
    lines += [f"CC<={{{c}}} 【{c}】" for c in sh.CHARS]
    return "\n".join(lines)


def piece(s: dict, *, note: str = "") -> dict:
    """CCFOLIA's clipboard JSON for a coc7 investigator sheet (paste it onto a board)."""
    memo = []
    if s.get("occupation"):
        memo.append(f"職業：{s['occupation']}")
    if s.get("age") is not None:
        memo.append(f"年齢：{s['age']}")
    if note:
        memo.append(note)
    params = [{"label": c, "value": str(s["chars"][c])} for c in sh.CHARS]
    params += [
        {"label": "DB", "value": printable(str(s.get("db", "0")))},
        {"label": "ビルド", "value": str(s.get("build", 0))},
        {"label": "MOV", "value": str(s.get("mov", 0))},
    ]
    status = [
        {"label": "HP", "value": s["hp"], "max": s["hp_max"]},
        {"label": "MP", "value": s["mp"], "max": s["mp_max"]},
        {"label": "SAN", "value": s["san"], "max": s.get("san_max", 99)},
        {"label": "幸運", "value": s["luck"], "max": 99},
    ]
    return {
        "kind": "character",
        "data": {
            "name": printable(display_name(s)),
            "initiative": s["chars"]["DEX"],
            "externalUrl": printable(str(s.get("url", ""))),
            "iconUrl": "",
            "memo": printable("\n".join(memo)),
            "commands": printable(palette(s)),
            "status": status,
            "params": params,
            "faces": [],
            "x": 0,
            "y": 0,
            "angle": 0,
            "width": 4,
            "height": 4,
            "active": True,
            "secret": False,
            "invisible": False,
            "hideStatus": False,
            "color": PC_COLOR,
        },
    }


# ---------------------------------------------------------------- the game as messages


@dataclass
class Message:
    name: str
    text: str
    tab: str = MAIN
    color: str = ""
    kind: str = ""
    """"kp", "pc", "npc", "system", "roll", "gm"."""


_POINTS = (("hp", "HP"), ("mp", "MP"), ("san", "SAN"), ("luck", "幸運"))


def _investigators(state: Any) -> dict[str, dict]:
    stats = getattr(state, "stats", None) or {}
    return {
        k: v for k, v in stats.items() if isinstance(v, dict) and v.get("kind") == "investigator"
    }


def active_investigator(state: Any, rules: str | None = None) -> dict | None:
    """The active investigator (asked of the rule system ``rules``, else of every one that
    keeps investigators), else the first investigator in the game; None when there is none."""
    from runner.ccfolia.table import active_sheet

    s = active_sheet(state, rules)
    if s is not None:
        return s
    pcs = _investigators(state)
    return next(iter(pcs.values()), None)


def _changes(before: Any, after: Any) -> list[Message]:
    """``[ 名前 ] SAN : 48 → 45`` for each point that moved between two states."""
    out = []
    old = _investigators(before)
    for pid, s in _investigators(after).items():
        o = old.get(pid)
        if o is None:
            continue
        for key, label in _POINTS:
            if (
                o.get(key) != s.get(key)
                and isinstance(s.get(key), int)
                and isinstance(o.get(key), int)
            ):
                out.append(
                    Message(
                        "system", f"[ {s['name']} ] {label} : {o[key]} → {s[key]}", kind="system"
                    )
                )
    return out


def _roll_command(ev: dict) -> str:
    """The command a table would have typed for a roll the rules made (``CC(1)<=60``)."""
    expr = str(ev.get("expr", ""))
    if re.match(r"^1d100(<=\d+)?$", expr, re.I) and ev.get("sides") and set(ev["sides"]) == {10}:
        bonus = int(ev.get("bonus") or 0)
        cmd = "CC" + (f"({bonus:+d})" if bonus else "")
        if ev.get("target") is not None:
            cmd += f"<={ev['target']}"
        return cmd
    return expr.upper().replace("D", "D")


def _roll_text(ev: dict) -> str:
    """A roll event's line in BCDice's wording, after its command and label."""
    label = str(ev.get("label") or "")
    skill = label.split(":", 1)[1] if ":" in label else label
    cmd = _roll_command(ev)
    text = str(ev.get("text") or "")
    text = re.sub(r"^〈[^〉]*〉\s*", "", text)
    if not text:
        from runner.rules.bcdice import add_dice
        from runner.rules.dice import ManualDice

        try:
            res = add_dice(
                str(ev.get("expr", "")).replace(" ", ""), ManualDice(list(ev.get("dice") or []))
            )
        except Exception:  # noqa: BLE001 - a roll the dice module cannot read back: its total
            res = None
        text = res.text if res is not None else f"({cmd}) ＞ {ev.get('total', '')}"
    return f"{cmd}{f' 【{skill}】' if skill else ''} {text}"


def _who(ev: dict, state: Any, default: str) -> str:
    stats = getattr(state, "stats", None) or {}
    who = ev.get("who")
    if isinstance(who, str) and isinstance(stats.get(who), dict) and stats[who].get("name"):
        return str(stats[who]["name"])
    label = str(ev.get("label") or "")
    if ":" in label:
        return label.split(":", 1)[0]
    return default


def _action_label(story: Any, state: Any, command: str) -> str:
    """What a player's command did, in the story's words (the action's label)."""
    try:
        from runner.engine import match

        c = match(story, state, command)
    except Exception:  # noqa: BLE001 - a command the matcher cannot read is shown as typed
        c = None
    return c.label if c is not None else command


def messages(story: Any, tl: Any, *, gm: bool = False) -> list[Message]:
    """The game of a timeline as a room's messages (see the module's doc)."""
    out: list[Message] = []
    for i in range(tl.pos + 1):
        events = tl.events[i] or []
        state = tl.states[i]
        before = tl.states[i - 1] if i else None
        pc = active_investigator(state) or (
            active_investigator(before) if before is not None else None
        )
        pc_name = pc["name"] if pc else "PL"
        if i:
            cmd = tl.log[i - 1].command
            if cmd.startswith("@"):
                pass  # a front end's rule command (an import, a clock report): not said at the table
            elif cmd.startswith("!"):
                if gm:
                    out.append(Message("GM", cmd, OTHER, GM_COLOR, "gm"))
            else:
                out.append(Message(pc_name, _action_label(story, before, cmd), kind="pc"))
        for ev in events:
            kind = ev.get("type")
            keeper = bool(ev.get("keeper"))
            if keeper and not gm:
                continue
            tab = INFO if keeper else MAIN
            if kind == "narration":
                sp = ev.get("speaker") or "narrator"
                if sp in ("narrator", "system"):
                    out.append(Message("KP", str(ev.get("text", "")), tab, kind="kp"))
                else:
                    out.append(
                        Message(
                            str(ev.get("name") or sp),
                            str(ev.get("text", "")),
                            tab,
                            NPC_COLOR,
                            "npc",
                        )
                    )
            elif kind == "roll":
                out.append(Message(_who(ev, state, pc_name), _roll_text(ev), tab, kind="roll"))
            elif kind == "ending":
                title = ev.get("title") or ev.get("ending") or ""
                out.append(Message("KP", f"━━ エンディング：{title} ━━", kind="kp"))
        if before is not None:
            out += _changes(before, state)
    return out


def _color(m: Message) -> str:
    if m.color:
        return m.color
    if m.kind in ("pc", "roll"):
        return PC_COLOR
    return COLORS.get(m.name, "#888888")


def _printable(title: str, msgs: list[Message]) -> tuple[str, list[Message]]:
    """What a log writes, without control characters (a save or a transcript is a file from
    elsewhere: its names and lines reach a terminal, a browser, a blog)."""
    return printable(title), [
        Message(printable(m.name), printable(m.text), m.tab, m.color, m.kind) for m in msgs
    ]


def log_html(title: str, msgs: list[Message]) -> str:
    """CCFOLIA's ログ出力: one ``<p>`` a message (tab, name, text), HTML-escaped, ``<br>`` for
    new lines."""
    title, msgs = _printable(title, msgs)
    head = [
        "<!DOCTYPE html>",
        '<html lang="ja">',
        "  <head>",
        '    <meta charset="UTF-8" />',
        '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
        '    <meta http-equiv="X-UA-Compatible" content="ie=edge" />',
        f"    <title>{html.escape(title)} - logs</title>",
        "  </head>",
        "  <body>",
        "    ",
    ]
    body = []
    for m in msgs:
        text = "<br>".join(html.escape(line) for line in m.text.split("\n"))
        body += [
            f'    <p style="color:{_color(m)};">',
            f"      <span> [{html.escape(m.tab)}]</span>",
            f"      <span>{html.escape(m.name)}</span> :",
            "      <span>",
            f"        {text}",
            "      </span>",
            "    </p>",
            "    ",
        ]
    return "\n".join(head + body + ["  </body>", "</html>", ""])


def replay_text(title: str, msgs: list[Message]) -> str:
    """リプレイ text: ``名前：発言`` a line, the keeper as KP, rolls and status lines as the
    log has them; a GM log's notes marked （KPメモ）."""
    title, msgs = _printable(title, msgs)
    out = [f"『{title}』リプレイ", ""]
    for m in msgs:
        text = m.text.replace("\n", "\n　")
        if m.kind == "system":
            out.append(text)
        elif m.kind == "gm":
            out.append(f"GM：{text}")
        elif m.tab != MAIN:
            out.append(f"{m.name}（KPメモ）：{text}")
        else:
            out.append(f"{m.name}：{text}")
    return "\n".join(out) + "\n"
