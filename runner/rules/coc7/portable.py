"""An investigator brought from elsewhere (CCFOLIA, キャラクター保管所: see runner/ccfolia),
carried into a game by the rule command ``@investigator {...}``.

The command's JSON is the *portable* form of a sheet: name, characteristics, the current
and maximum HP/MP/SAN/Luck, damage bonus, build, move, the skills that differ from their base
values, weapons, and where the sheet came from. It is the first command of a game (``katari
play STORY --investigator FILE`` sends it, and the console's ``import``), so saves, undo and
replays keep it like any command. The values are the sheet's own: the importer reports a
derived value that does not match its formula, and this module does not fix it.

At a character choice (a node with an action that calls ``coc7.quick_create`` or
``coc7.choose_pregen``) the imported investigator takes the place of that choice: the
creation action's other effects run (the story's ``who``/``pc_ready`` flags) and its ``goto``
is followed. Pure: standard library only.
"""

from __future__ import annotations

import json
import re
from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import sheet as sh
from runner.rules.meta import Arg, MetaCommand

VERSION = 1
MAX_NAME = 100
MAX_SKILLS = 120
MAX_WEAPONS = 12
MAX_VALUE = 999
"""Characteristics, skills and points of an imported investigator lie within 0..MAX_VALUE."""

NUMBERS = (
    "hp",
    "hp_max",
    "mp",
    "mp_max",
    "san",
    "san_max",
    "san_start",
    "luck",
    "luck_start",
    "mov",
    "build",
)
"""The portable sheet's number fields (the CCFOLIA reader clamps the same ones)."""
_TEXTS = ("name", "reading", "occupation", "era", "native", "db", "url", "from")
_WEAPON_TEXT = ("name", "skill", "damage")
_WEAPON_NUM = ("ammo", "capacity", "shots", "malfunction", "range")
_WEAPON_BOOL = ("db", "impale", "firearm")


MAX_SKILL_NAME = 60
"""Characters of a skill's or a weapon's name (and of a weapon's skill and damage)."""
MAX_DB = 20
MAX_NATIVE = 40
MAX_NOTE = 300
"""Characters of the reading, the URL, where it came from and the era."""


class PortableError(RuleError):
    """What the rule command refuses, said in Japanese and English (its ``str`` is English);
    the importer says it in the user's language before anything enters a game."""

    def __init__(self, ja: str, en: str) -> None:
        super().__init__(en)
        self.ja, self.en = ja, en

    def message(self, lang: str = "ja") -> str:
        return self.ja if lang == "ja" else self.en


def _fail(ja: str, en: str) -> PortableError:
    return PortableError(f"@investigator：{ja}", f"@investigator: {en}")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Control characters (escape sequences start with one): no text of a sheet holds them."""


def _text(v: Any, what: str, n: int = MAX_NAME) -> str:
    if not isinstance(v, str) or len(v) > n:
        raise _fail(
            f"{what} は {n} 文字までのテキストです",
            f"{what} must be text of at most {n} characters",
        )
    if _CONTROL.search(v):
        raise _fail(f"{what} に制御文字があります", f"{what} holds a control character")
    return v


def _number(v: Any, what: str, lo: int = -MAX_VALUE, hi: int = MAX_VALUE) -> int:
    if type(v) is not int or not lo <= v <= hi:
        raise _fail(
            f"{what} は {lo}〜{hi} の整数です", f"{what} must be a whole number from {lo} to {hi}"
        )
    return v


def from_portable(data: Any) -> dict[str, Any]:
    """The full coc7 sheet of a portable investigator; :class:`PortableError` (one line, a
    :class:`RuleError`) for anything that is not one. These are the bounds of an imported
    investigator; the importer applies them too (:func:`check`), so nothing it accepts is
    refused here."""
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise PortableError(
            f"@investigator には取り込んだ探索者の JSON（v: {VERSION}）を渡します",
            f"@investigator takes the JSON of an imported investigator (v: {VERSION})",
        )
    name = _text(data.get("name"), "name").strip()
    if not name:
        raise _fail("探索者の名前がありません", "the investigator has no name")
    chars = data.get("chars")
    if not isinstance(chars, dict) or sorted(chars) != sorted(sh.CHARS):
        raise _fail(
            f"chars には {' '.join(sh.CHARS)} が要ります", f"chars must give {' '.join(sh.CHARS)}"
        )
    c = {k: _number(chars[k], k, 0) for k in sh.CHARS}
    skills = data.get("skills") or {}
    if not isinstance(skills, dict) or len(skills) > MAX_SKILLS:
        raise _fail(
            f"技能は {MAX_SKILLS} 個までです", f"skills must be a mapping of at most {MAX_SKILLS}"
        )
    sk = {_text(k, "skill", MAX_SKILL_NAME): _number(v, f"skill {k}", 0) for k, v in skills.items()}
    weapons = data.get("weapons") or []
    if not isinstance(weapons, list) or len(weapons) > MAX_WEAPONS:
        raise _fail(
            f"武器は {MAX_WEAPONS} 個までです", f"weapons must be a list of at most {MAX_WEAPONS}"
        )
    ws = []
    for w in weapons:
        if not isinstance(w, dict):
            raise _fail("武器はそれぞれマッピングです", "each weapon is a mapping")
        out: dict[str, Any] = {}
        for k in _WEAPON_TEXT:
            if k in w:
                out[k] = _text(w[k], f"weapon {k}", MAX_SKILL_NAME)
        for k in _WEAPON_NUM:
            if k in w:
                out[k] = _number(w[k], f"weapon {k}", 0)
        for k in _WEAPON_BOOL:
            if k in w:
                out[k] = bool(w[k])
        if "name" not in out:
            raise _fail("名前のない武器があります", "a weapon has no name")
        ws.append(out)
    age = data.get("age")
    s = sh.make_investigator(
        name,
        c,
        {},
        luck=_number(data.get("luck", c["POW"]), "luck", 0),
        age=_number(age, "age", 0) if age is not None else None,
        occupation=_text(data.get("occupation", ""), "occupation"),
        native=_text(data.get("native", "日本語"), "native", MAX_NATIVE),
    )
    s["skills"] = sk  # the sheet's own names and values (already canonical)
    for k in NUMBERS:
        if k in data:
            s[k] = _number(data[k], k)
    if "db" in data:
        s["db"] = _text(data["db"], "db", MAX_DB)
    s["weapons"] = ws or [sh.weapon("素手")]
    for k in ("reading", "url", "from", "era"):
        if data.get(k):
            s[k] = _text(data[k], k, MAX_NOTE)
    s["imported"] = True
    return s


def to_portable(s: dict[str, Any]) -> dict[str, Any]:
    """The portable form of a coc7 investigator sheet (skills at their base value left out)."""
    out: dict[str, Any] = {"v": VERSION, "name": s["name"], "chars": dict(s["chars"])}
    for k in ("occupation", "age", "native", "reading", "url", "from", "era"):
        if s.get(k) not in (None, ""):
            out[k] = s[k]
    for k in (*NUMBERS, "db"):
        if k in s:
            out[k] = s[k]
    chars = s["chars"]
    out["skills"] = {
        k: v
        for k, v in s.get("skills", {}).items()
        if v != sh.base_value(k, chars) or sh.base_value(k, chars) == 0
    }
    out["weapons"] = [
        {k: w[k] for k in (*_WEAPON_TEXT, *_WEAPON_NUM, *_WEAPON_BOOL) if k in w}
        for w in s.get("weapons", [])
        if w.get("name") != "素手"
    ]
    return out


_SPACE = re.compile(r"\s")


def command(data: dict[str, Any]) -> str:
    """``@investigator {...}``: compact JSON on one line; white space inside names (a space,
    an ideographic space) is written as ``\\u0020``, ``\\u3000``… because the engine splits
    a rule command's arguments on white space."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return "@investigator " + _SPACE.sub(lambda m: f"\\u{ord(m.group()):04x}", body)


def check(data: dict[str, Any]) -> dict[str, Any]:
    """The sheet the rule command ``command(data)`` would play, checked as the engine checks
    it (the rule command's line: runner/rules/meta.py; then :func:`from_portable`), or
    :class:`PortableError` saying why it would be refused. The importer calls this, so that
    a sheet it accepts is never refused when the game starts."""
    rest = command(data).partition(" ")[2]
    try:
        values = META.parse("investigator", rest, "en")
    except RuleError as en:
        try:
            META.parse("investigator", rest, "ja")
        except RuleError as ja:
            raise PortableError(f"@investigator：{ja}", f"@investigator: {en}") from None
        raise  # pragma: no cover - both languages refuse alike
    return from_portable(values[0])


def _creates(effect: tuple[Any, ...]) -> bool:
    """Whether a story effect makes the investigator (``do: coc7.quick_create(...)`` or
    ``coc7.choose_pregen(...)``)."""
    if not effect or effect[0] != "do":
        return False
    return any(
        isinstance(ex, tuple)
        and len(ex) > 1
        and ex[0] == "call"
        and ex[1] in ("coc7.quick_create", "coc7.choose_pregen")
        for ex in effect[1]
    )


def creation_action(story: Any, node_id: str) -> Any:
    """The action of a character choice that makes a new investigator (the one calling
    ``quick_create``, else the first that chooses a pregen), or None."""
    node = getattr(story, "nodes", {}).get(node_id)
    if node is None:
        return None
    found = None
    for a in node.actions:
        for e in a.effects:
            if _creates(e):
                if any(ex[1] == "coc7.quick_create" for ex in e[1] if isinstance(ex, tuple)):
                    return a
                found = found or a
    return found


def active_sheet(state: Any) -> dict[str, Any] | None:
    """The active investigator's sheet in a game state (the one whose turn it is), or None."""
    rules = getattr(state, "rules", None) or {}
    d = rules.get("coc7") if isinstance(rules, dict) else None
    if not isinstance(d, dict):
        return None
    s = (getattr(state, "stats", None) or {}).get(d.get("pc") or "")
    return s if isinstance(s, dict) and s.get("kind") == "investigator" else None


def _meta(ctx: Context, args: list[Any]) -> None:
    """``@investigator {...}``: takes an imported investigator as the active one, at the
    start of a game: at its character choice, or before anyone is chosen."""
    s = from_portable(args[0])
    a = creation_action(ctx.story, ctx.state.node)
    chosen = bool(ck.pc_ids(ctx))
    if (
        getattr(ctx.state, "turn", 0)
        or getattr(ctx.state, "ending", None) is not None
        or (a is None and chosen)
    ):
        raise RuleError(
            ck.t(
                ctx,
                "取り込んだ探索者はゲームの始め（探索者を選ぶところ）でだけ使えます",
                "an imported investigator can only join at the start of a game "
                "(the character choice)",
            )
        )
    from runner.rules.coc7 import install

    install(ctx, s)
    who = s["name"] + (f"（{s['reading']}）" if s.get("reading") else "")
    ctx.say(
        ck.t(
            ctx,
            f"探索者：{who}（{s.get('occupation') or '職業不明'}）を取り込みました",
            f"Investigator imported: {who}"
            + (f" ({s['occupation']})" if s.get("occupation") else ""),
        ),
        id="coc7.imported",
    )
    if a is not None:
        ctx.run_effects(tuple(e for e in a.effects if not _creates(e)) + tuple(a.after))


META = MetaCommand(
    _meta, (Arg("investigator", "json"),), usage='@investigator {"v":1,"name":..,"chars":{..},..}'
)
