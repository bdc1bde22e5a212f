"""What coc7 hooks' arguments may be, for ``katari check``: a literal argument outside its
domain (``coc7.check('Spot Hiden')``, ``coc7.san('1/1d')``, ``'hardd'``,
``start_combat('sextn')``) is an error at its place instead of a 1% roll or a story error
in play."""

from __future__ import annotations

import difflib
from typing import Any

from runner.rules.base import Domain, RuleError, RuleSystem
from runner.rules.coc7 import checks as ck
from runner.rules.coc7 import sheet as sh
from runner.rules.coc7.sanity import parse_loss
from runner.rules.dice import DiceError
from runner.rules.dice import parse as parse_dice


def _near(word: str, options: Any) -> str:
    hit = difflib.get_close_matches(word, sorted(set(options)), n=1, cutoff=0.6)
    return f" (did you mean {hit[0]!r}?)" if hit else ""


def _story_skills(story: Any) -> set[str]:
    """Skills and stats the story's own characters and the ready-made investigators have."""
    out: set[str] = set()
    for c in getattr(story, "characters", {}).values():
        for k, v in (c.stats or {}).items():
            out.add(sh.canonical(str(k)))
            if isinstance(v, dict):
                out.update(sh.canonical(str(x)) for x in v)
    for p in sh._PREGENS:
        out.update(sh.canonical(str(x)) for x in p.get("skills", {}))
    return out


def _known_skill(name: str, story: Any) -> bool:
    k = sh.canonical(name)
    if k in sh._BASE or k in ("幸運", "正気度") or k in sh.CHAR_ALIASES.values():
        return True
    m = sh._SPEC.match(k)
    if m and (m.group(1) in sh.GROUPS or m.group(1) in sh._BASE):
        return True
    return k in _story_skills(story)


def skill(value: Any, story: Any) -> str | None:
    if not isinstance(value, str) or _known_skill(value, story):
        return None
    names = [*sh._BASE, *sh._EN.values(), *sh.CHAR_ALIASES.values(), *_story_skills(story)]
    return (
        f"unknown skill {value!r}{_near(value, names)}: a 7th edition skill or characteristic, "
        "or one the story's characters have"
    )


def difficulty(value: Any, story: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        ck.difficulty(value)
    except RuleError:
        return (
            f"unknown difficulty {value!r}{_near(value, [k for k in ck.DIFFICULTY if len(k) > 1])}: "
            "regular, hard or extreme"
        )
    return None


def dice(value: Any, story: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        parse_dice(value)
    except DiceError as e:
        return f"bad dice {value!r}: {e}"
    return None


def san_loss(value: Any, story: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        parse_loss(value)
    except RuleError as e:
        return str(e)
    return None


def character(value: Any, story: Any) -> str | None:
    chars = getattr(story, "characters", {})
    if not isinstance(value, str) or value in chars or any(c.name == value for c in chars.values()):
        return None
    return f"no character {value!r} in this story{_near(value, chars)}"


def attack_damage(cid: str, stats: dict[str, Any], enemy: dict[str, Any]) -> list[tuple[str, str]]:
    """(yaml path, message) for each attack of an enemy whose damage is not dice notation
    (``damage: 1d``): found by the check, not by the first hit in play."""
    out = []
    for a in enemy.get("attacks", ()):
        dmg = a.get("damage")
        if isinstance(dmg, str) and dice(dmg, None):
            key = next((k for k in stats if str(k).lower() in ("damage", "ダメージ")), "")
            out.append(
                (
                    f"characters.{cid}.stats{'.' + str(key) if key else ''}",
                    f"attack {a.get('name', '')!r}: {dice(dmg, None)}",
                )
            )
    return out


SKILL = Domain("skill", skill)
DIFFICULTY = Domain("difficulty", difficulty)
DICE = Domain("dice", dice)
SAN_LOSS = Domain("SAN loss (X/Y)", san_loss)
CHARACTER = Domain("character", character)


def declare(system: RuleSystem) -> None:
    d = system.declare
    for h in ("check", "hidden_check"):
        d(h, skill=SKILL, difficulty=DIFFICULTY)
    d("luck", difficulty=DIFFICULTY)
    d("group_luck", difficulty=DIFFICULTY)
    d("opposed", skill=SKILL, opponent=CHARACTER, opp_skill=SKILL)
    d("skill", name=SKILL)
    d("san", loss=SAN_LOSS)
    d("san_all", loss=SAN_LOSS)
    d("start_combat", enemy=CHARACTER)
    d("damage", amount=DICE)
    d("daze", rounds=DICE)
