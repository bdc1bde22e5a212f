"""What front ends and author tools need from Call of Cthulhu 7th edition: the names of its
view and sheets in both languages, the outcome keys of its checks, ``katari check``'s
investigator warning, the skills an editor completes, and BCDice's CoC dice commands for
``katari roll``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from runner.rules.base import Display, Finding, Investigators
from runner.rules.coc7.checks import ruled, ruled_text
from runner.rules.coc7.condition import _NAMES
from runner.rules.coc7.portable import active_sheet, command, creation_action, from_portable
from runner.rules.coc7.sheet import SKILLS, pregens
from runner.rules.coc7.system import SYSTEM
from runner.rules.coc7.template import TEMPLATES

_CONDITION_WORDS = tuple(_NAMES.values())
_EN_SHEET_KEYS = {
    "耐久力": "HP",
    "マジック・ポイント": "MP",
    "正気度": "SAN",
    "移動": "MOV",
    "移動率": "MOV",
    "ビルド": "Build",
    "近接戦闘": "Fighting",
    "ダメージ": "Damage",
    "回避": "Dodge",
    "遭遇正気度喪失": "SAN loss",
    "正気度喪失": "SAN loss",
    "ダメージボーナス": "DB",
    "ダメージ・ボーナス": "DB",
    "攻撃": "attacks",
    "装甲": "Armour",
}
"""The Japanese sheet keys an English panel names in English (the rules' own words)."""

SYSTEM.display = Display(
    labels={
        "ja": {
            "hp": "HP",
            "mp": "MP",
            "san": "SAN",
            "luck": "幸運",
            "Luck": "幸運",
            "mov": "移動",
            "build": "ビルド",
            "db": "DB",
            "investigators": "探索者",
            "active": "手番",
            "conditions": "状態",
            "major_wound": "重傷",
            "unconscious": "気絶",
            "dying": "瀕死",
            "dead": "死亡",
            "stable": "安定",
            "insane": "狂気",
            "fighters": "戦闘中の敵の耐久力",
            # The fight, in the GM panel's hidden values.
            "combat": "戦闘",
            "round": "ラウンド",
            "order": "順番",
            "awaiting": "待ち",
            "actor": "手番",
        },
        "en": {
            "hp": "HP",
            "mp": "MP",
            "san": "SAN",
            "luck": "Luck",
            "mov": "MOV",
            "build": "Build",
            "db": "DB",
            "investigators": "investigators",
            "active": "active",
            "conditions": "conditions",
            "major_wound": "major wound",
            "unconscious": "unconscious",
            "dying": "dying",
            "dead": "dead",
            "stable": "stable",
            "insane": "insane",
            "fighters": "enemies' HP in the fight",
            "combat": "fight",
            "round": "round",
            "order": "order",
            "awaiting": "awaiting",
            "actor": "actor",
            # A story's sheets written with the rules' Japanese keys (an enemy's 耐久力,
            # 移動), as an English panel names them.
            **_EN_SHEET_KEYS,
        },
    },
    stats=("HP", "hp", "MP", "mp", "SAN", "san", "Luck", "luck", "幸運", "耐久力", "正気度"),
    status_skip=frozenset({"active"}),
    same_as_stats=frozenset({"investigators"}),
    conditions=("major_wound", "unconscious", "dying", "dead", "stable", "insane"),
    sheet_skip=frozenset({"hp", "mp", "san", "luck", "san_start", "luck_start", "age"}),
    values={
        # The outcome keys this system's hooks give, as a GM reads them (``強制``'s list);
        # the status's conditions (worded in the story's language) in the other language.
        "ja": {
            "conditions": {en: ja for ja, en in _CONDITION_WORDS},
            "insane": {
                "temporary": "一時的狂気",
                "indefinite": "不定の狂気",
                "permanent": "永久的狂気",
            },
            "awaiting": {"action": "行動", "response": "対応（回避か反撃）"},
            # A stat as a line names it (a GM's damage, its roll): the sheet's own words.
            "stat": {"hp": "耐久力", "san": "正気度", "luck": "幸運", "mp": "MP"},
            "outcome": {
                "impossible": "行えない",
                "dazed": "怯ませた",
                "hidden": "見つからなかった",
                "found": "見つかった",
                "held": "捕まえた／捕まっている",
                "spent": "消費した",
                "surfaced": "浮上した",
                "dead": "死亡",
                "unconscious": "気絶",
                "hit": "命中",
                "hurt": "負傷",
                "moved": "移動した",
                "given": "渡した",
                "not_enough": "足りない",
                "pushed_failure": "プッシュして失敗",
                "win": "勝ち",
                "lose": "負け",
                "draw": "引き分け",
                "permanent": "永久的狂気",
                "indefinite": "不定の狂気",
                "temporary": "一時的狂気",
                "insane": "狂気",
                "passed": "見送った",
            },
        },
        "en": {
            "conditions": dict(_CONDITION_WORDS),
            "insane": {
                "temporary": "temporary insanity",
                "indefinite": "indefinite insanity",
                "permanent": "permanent insanity",
            },
            "awaiting": {"action": "an action", "response": "a response (dodge or fight back)"},
            "stat": {"hp": "HP", "san": "SAN", "luck": "Luck", "mp": "MP", **_EN_SHEET_KEYS},
            "outcome": {
                "impossible": "impossible",
                "dazed": "dazed",
                "hidden": "stayed hidden",
                "found": "found",
                "held": "held",
                "spent": "spent",
                "surfaced": "surfaced",
                "dead": "dead",
                "unconscious": "unconscious",
                "hit": "hit",
                "hurt": "hurt",
                "moved": "moved",
                "given": "given",
                "not_enough": "not enough",
                "pushed_failure": "pushed and failed",
                "win": "win",
                "lose": "lose",
                "draw": "draw",
                "permanent": "permanent insanity",
                "indefinite": "indefinite insanity",
                "temporary": "temporary insanity",
                "insane": "insane",
                "passed": "passed",
            },
        },
    },
)

# The keys each check can give (``katari check`` warns about an outcome no check gives).
_LEVELS = ("critical", "extreme", "hard", "regular", "success", "failure", "fumble")
_SAN = ("success", "failure", "fumble", "permanent", "indefinite", "temporary", "insane")
_OUTCOMES = {
    "check": _LEVELS,
    "hidden_check": _LEVELS,
    "luck": _LEVELS,
    "group_luck": _LEVELS,
    "push": (*_LEVELS, "pushed_failure"),
    "san": _SAN,
    "san_all": _SAN,
    "opposed": (*_LEVELS, "win", "lose", "draw"),
}
# Hooks whose quoted arguments are skill names (completed in editors).
_SKILL_HOOKS = ("check", "skill", "push", "opposed", "improve", "hidden_check")
for _name in {*_OUTCOMES, *_SKILL_HOOKS}:
    _h = SYSTEM.hooks[_name]
    SYSTEM.hooks[_name] = replace(
        _h,
        outcomes=frozenset(_OUTCOMES[_name]) if _name in _OUTCOMES else _h.outcomes,
        skill_arg=_name in _SKILL_HOOKS,
    )


def _lint(story: Any, texts: list[str]) -> list[Finding]:
    """A story whose checks need an investigator but that never gives the player one."""
    if not any("coc7." in t for t in texts):
        return []
    opts = story.options or {}
    coc = story.extra.get("coc7") or {}
    if (
        "pregen" in opts
        or "pregen" in (opts.get("coc7") or {})
        or "pregen" in coc
        or any(c.kind == "pc" for c in story.characters.values())
        or any(w in t for t in texts for w in ("choose_pregen", "quick_create", "coc7.create"))
    ):
        return []
    return [
        (
            "rules: coc7 but no investigator: a check will fail. Add `options: {pregen: 1}` "
            "to 'story', a `kind: pc` character, or call coc7.choose_pregen(n)",
            "K305",
            "warning",
        )
    ]


def _skills() -> list[tuple[str, str]]:
    """Every 7th-edition skill, by its Japanese and its English name, with its base."""
    out: list[tuple[str, str]] = []
    for ja, en, base, _more in SKILLS:
        out.append((ja, f"{en} ({base}%)"))
        out.append((en, f"{ja} ({base}%)"))
    return out


SYSTEM.lint = _lint
# `katari import`: Call of Cthulhu scenario documents into drafts of this system. It lives
# outside this package because it reads files and writes YAML, which a rule system may not.
SYSTEM.importer = "runner.importer"
# Investigators from CCFOLIA and キャラクター保管所 (`katari play --investigator`, the console's
# `import`) and back out as a CCFOLIA piece (`katari export --format ccfolia`). Reading their
# documents is runner/ccfolia's, outside this package: it reads files and standard input.
SYSTEM.investigators = Investigators(
    "runner.ccfolia.adapter",
    command=command,
    sheet=from_portable,
    creation=creation_action,
    active=active_sheet,
)
SYSTEM.skills = _skills


def _dice(text: str, source: Any) -> Any:
    """BCDice's CoC commands (CC<=50, CBR(50,30), RESB(60-50) ...). Imported on the first roll:
    a story's load and play need none of them."""
    from runner.rules.coc7.bcdice import bcdice

    return bcdice(text, source)


SYSTEM.dice = _dice
SYSTEM.ruled_text = ruled_text
SYSTEM.ruled = ruled

SYSTEM.templates.update(TEMPLATES)


def investigators(lang: str = "ja") -> str:
    """The ready-made investigators a story picks with ``options: {pregen: N}`` or
    ``coc7.choose_pregen(N)`` (the ``katari new --rules coc7`` template uses the first)."""
    ja = lang == "ja"
    head = (
        "\n出来合いの探索者（story の options: {pregen: N}、または coc7.choose_pregen(N)）:\n"
        if ja
        else "\nReady-made investigators (story options: {pregen: N}, or coc7.choose_pregen(N)):\n"
    )
    rows = [head]
    for n, p in enumerate(pregens(), 1):
        name = p["name"] if ja else f"{p.get('name_en') or p['name']} ({p['name']})"
        age = f"{p['age']}歳" if ja else f"age {p['age']}"
        c = p["chars"]
        chars = " ".join(
            f"{k} {c[k]}"
            for k in ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
            if k in c
        )
        best = sorted(p["skills"].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        skills = ("、" if ja else ", ").join(f"{k} {v}" for k, v in best)
        rows.append(
            f"  {n}. {name} — {p['occupation']}, {p['era']}, {age}, {p['native']}\n"
            f"     {chars}  HP {p['hp']} MP {p['mp']} SAN {p['san']} {'幸運' if ja else 'Luck'} {p['luck']}\n"
            f"     {'得意' if ja else 'best'}: {skills}\n"
        )
    return "".join(rows)


SYSTEM.topics["investigators"] = investigators
