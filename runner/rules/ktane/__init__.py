"""``ktane``: bomb-defusal modules as rule hooks. One module so far: 「ダンジョン・2F」.

A story presses the module's buttons with ``ktane.press('forward')`` and ends itself with
``if: "ktane.exploded()"`` / ``if: "ktane.solved()"``. Everything the module shows is in
:func:`view`; the logic lives in :mod:`runner.rules.ktane.dungeon`, the edgework in
:mod:`runner.rules.ktane.edgework`. Story options (``story.options``):

- ``strikes``: strikes that explode the bomb (default 3);
- ``timer``: seconds on the countdown (default none); a front end runs it down with
  ``ktane.tick(seconds)``;
- ``fight_gap``: ``[lo, hi]`` moves between fights, drawn at random (default ``[1, 3]``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runner.rules.base import Context, RuleError, RuleSystem
from runner.rules.ktane import dungeon, edgework
from runner.rules.meta import MAX_SECONDS, Arg, MetaCommand

SYSTEM = RuleSystem("ktane", "Keep Talking and Nobody Explodes モジュール（ダンジョン・2F）")
SYSTEM.titles["en"] = "Keep Talking and Nobody Explodes modules (Dungeon 2F)"

KEY = "ktane"

ZONE_JA = {
    "red": "赤",
    "yellow": "黄色",
    "green": "緑",
    "blue": "青",
    "magenta": "マゼンタ",
    "white": "白",
    "off": "消灯",
}
BUTTON_JA = {"forward": "前", "left": "左", "right": "右", "sword": "剣", "shield": "盾"}

TEXT: dict[str, dict[str, str]] = {
    "ja": {
        "move.forward": "前へ進む。",
        "move.left": "左へ曲がる。",
        "move.right": "右へ曲がる。",
        "stage": "ステージ{stage}。明かりは{zone}。",
        "fight": "明かりが白に変わった。敵だ！",
        "hit.sword": "剣で斬った。",
        "hit.shield": "盾で受けた。",
        "hit.forward": "前へ踏み込んだ。",
        "hit.left": "左へかわした。",
        "hit.right": "右へかわした。",
        "beaten": "敵を倒した。明かりが消える。",
        "auto_win": "明かりが白く光ったが、もう敵は残っていない。戦闘は自動で勝ち。",
        "strike": "ミス。これで{strikes}回目。",
        "exploded": "ミス。爆弾が爆発した。",
        "timeout": "時間切れ。爆弾が爆発した。",
        "solved": "ステージ16へ。モジュール解除！",
        "over": "モジュールはもう止まっている。",
        "serial": "シリアルナンバーは{serial}。",
        "indicators": "インジケーターは{list}。",
        "no_indicators": "インジケーターはない。",
        "lit": "点灯した{label}",
        "unlit": "消えた{label}",
        "batteries": "電池は{n}本。",
        "time": "残り時間は{t}秒。",
        "keeper.fight": "敵：{name}（{number}）。手順：{seq}。",
        "keeper.move": "正しい動き：{button}（x＝{x}、レベル{level}）。",
    },
    "en": {
        "move.forward": "You go forward.",
        "move.left": "You turn left.",
        "move.right": "You turn right.",
        "stage": "Stage {stage}. The LED is {zone}.",
        "fight": "The LED is white: you have met an enemy!",
        "hit.sword": "Sword: a hit.",
        "hit.shield": "Shield: a block.",
        "hit.forward": "You step forward.",
        "hit.left": "You dodge left.",
        "hit.right": "You dodge right.",
        "beaten": "The enemy is beaten and the LED goes out.",
        "auto_win": "The LED is white, but every list of enemies is used up: the fight is won at once.",
        "strike": "Strike. That makes {strikes}.",
        "exploded": "Strike. The bomb explodes.",
        "timeout": "Time is up. The bomb explodes.",
        "solved": "On to stage 16: the module is solved!",
        "over": "The module has already stopped.",
        "serial": "The serial number is {serial}.",
        "indicators": "Indicators: {list}.",
        "no_indicators": "There are no indicators.",
        "lit": "lit {label}",
        "unlit": "unlit {label}",
        "batteries": "{n} batteries.",
        "time": "{t} seconds left.",
        "keeper.fight": "Enemy: {name} ({number}). Actions: {seq}.",
        "keeper.move": "Correct move: {button} (x = {x}, level {level}).",
    },
}


def _lang(ctx: Context) -> str:
    lang = str(getattr(ctx.story, "language", "ja") or "ja")
    return "en" if lang.startswith("en") else "ja"


def texts(lang: str) -> dict[str, str]:
    """Every word the module says in ``lang``, by key (for translators: katari strings); the
    English ones are the manual's (katari manual dungeon_2f --lang en), word for word."""
    lang = "en" if lang.startswith("en") else "ja"
    out = dict(TEXT[lang])
    for z, ja in ZONE_JA.items():
        out[f"zone.{z}"] = ja if lang == "ja" else z
    for b, ja in BUTTON_JA.items():
        out[f"button.{b}"] = ja if lang == "ja" else b
    for n, name in (dungeon.NAMES_JA if lang == "ja" else dungeon.NAMES_EN).items():
        out[f"enemy.{n}"] = name
    return out


SYSTEM.texts = texts
_TEXTS = {"ja": texts("ja"), "en": texts("en")}


def _t(ctx: Context, lang: str) -> dict[str, str]:
    """The module's words for this game: ``texts(lang)``, reworded where the story's
    translation says so (``rules.ktane.KEY``); worked out once per story."""
    tr = getattr(ctx.story, "translation", None)
    if tr is None or not tr.rule_texts:
        return _TEXTS[lang]
    key = ("ktane", "texts", lang)
    hit: dict[str, str] | None = ctx.story.cache.get(key)
    if hit is None:
        hit = {
            **_TEXTS[lang],
            **{
                k[len("rules.ktane.") :]: str(v)
                for k, v in tr.rule_texts.items()
                if k.startswith("rules.ktane.")
            },
        }
        ctx.story.cache[key] = hit
    return hit


def _options(story: Any) -> dict[str, Any]:
    opts = getattr(story, "options", None)
    return dict(opts) if isinstance(opts, dict) else {}


def _face(ctx: Context) -> Callable[[int], int]:
    def face(sides: int) -> int:
        return int(ctx.faces([sides], expr=f"1d{sides}")[0])

    return face


def _get(ctx: Context) -> dict[str, Any]:
    st = (getattr(ctx.state, "rules", None) or {}).get(KEY)
    if st is None:
        raise RuleError("the ktane module has not been set up (story rules must be ktane)")
    result: dict[str, Any] = st
    return result


def _put(ctx: Context, st: dict[str, Any]) -> None:
    ctx.state.rules[KEY] = st


def _zone_word(zone: str, t: dict[str, str]) -> str:
    return t.get(f"zone.{zone}", zone)


def _seq_words(seq: list[str], lang: str, t: dict[str, str]) -> str:
    return ("・" if lang == "ja" else " ").join(t.get(f"button.{b}", b) for b in seq)


def _narrate(ctx: Context, msgs: list[tuple[str, dict[str, Any]]], st: dict[str, Any]) -> None:
    lang = _lang(ctx)
    t = _t(ctx, lang)
    for key, p in msgs:
        if key == "move":
            ctx.say(t[f"move.{p['button']}"], id=f"ktane.move.{p['button']}")
        elif key == "stage":
            ctx.say(
                t["stage"].format(stage=p["stage"], zone=_zone_word(p["zone"], t)), id="ktane.stage"
            )
            if ctx.gm and not st["solved"]:
                _keeper_move(ctx, st, lang)
        elif key == "fight":
            ctx.say(t["fight"], id="ktane.fight")
            ctx.say(
                t["keeper.fight"].format(
                    name=t.get(f"enemy.{p['enemy']}", p["enemy"]),
                    number=p["enemy"],
                    seq=_seq_words(p["sequence"], lang, t),
                ),
                keeper=True,
                id="ktane.keeper.fight",
            )
        elif key == "hit":
            ctx.say(t[f"hit.{p['button']}"], id=f"ktane.hit.{p['button']}")
        elif key == "beaten":
            ctx.say(
                t[f"hit.{p['button']}"] + t["beaten"]
                if lang == "ja"
                else t[f"hit.{p['button']}"] + " " + t["beaten"],
                id="ktane.beaten",
            )
        elif key == "strike":
            ctx.say(t["strike"].format(strikes=p["strikes"]), id="ktane.strike")
        else:
            ctx.say(t[key], id=f"ktane.{key}")


def _keeper_move(ctx: Context, st: dict[str, Any], lang: str) -> None:
    x = dungeon.current_x(st)
    button = dungeon.move_for(x)
    t = _t(ctx, lang)
    ctx.say(
        t["keeper.move"].format(button=t.get(f"button.{button}", button), x=x, level=st["level"]),
        keeper=True,
        id="ktane.keeper.move",
    )


def _init(ctx: Context) -> None:
    opts = _options(ctx.story)
    limit = int(opts.get("strikes", dungeon.DEFAULT_STRIKES))
    timer = opts.get("timer")
    gap = tuple(opts.get("fight_gap", dungeon.DEFAULT_FIGHT_GAP))
    st = dungeon.generate(
        _face(ctx),
        strike_limit=limit,
        timer=None if timer is None else int(timer),
        gap=(int(gap[0]), int(gap[1])),
    )
    _put(ctx, st)


SYSTEM.init = _init


def _parse_button(button: Any) -> str:
    b = str(button).strip().lower()
    b = {
        "f": "forward",
        "l": "left",
        "r": "right",
        "sw": "sword",
        "sh": "shield",
        "前": "forward",
        "左": "left",
        "右": "right",
        "剣": "sword",
        "盾": "shield",
    }.get(b, b)
    if b not in dungeon.BUTTONS:
        raise RuleError(f"ktane.press({button!r}): the buttons are " + ", ".join(dungeon.BUTTONS))
    return b


# press and tick change the module in place: the engine gives a hook that is not pure its
# own copy of state.rules first (Ctx.own; a rule command works on a copied state), and a
# command that fails is thrown away whole.


@SYSTEM.hook()
def press(ctx: Context, button: str) -> bool:
    """Presses a button (forward, left, right, sword, shield); True if it was the right one."""
    b = _parse_button(button)
    st = _get(ctx)
    before = st["strikes"]
    msgs = dungeon.press(st, b)
    _narrate(ctx, msgs, st)
    return st["strikes"] == before and msgs[0][0] != "over"


@SYSTEM.hook()
def tick(ctx: Context, seconds: int) -> None:
    """Runs the countdown down by ``seconds`` (driven by a front end's real clock)."""
    st = _get(ctx)
    msgs = dungeon.tick(st, int(seconds))
    _narrate(ctx, msgs, st)


@SYSTEM.hook()
def describe(ctx: Context) -> None:
    """Narrates the edgework and what the module shows now."""
    st = _get(ctx)
    lang = _lang(ctx)
    t = _t(ctx, lang)
    edge = st["edgework"]
    serial = " ".join(edge["serial"]) if lang == "ja" else edge["serial"]
    ctx.say(t["serial"].format(serial=serial), id="ktane.serial")
    if edge["indicators"]:
        sep = "、" if lang == "ja" else ", "
        items = sep.join(
            t["lit" if i["lit"] else "unlit"].format(label=i["label"]) for i in edge["indicators"]
        )
        ctx.say(t["indicators"].format(list=items), id="ktane.indicators")
    else:
        ctx.say(t["no_indicators"], id="ktane.indicators")
    ctx.say(t["batteries"].format(n=edge["batteries"]), id="ktane.batteries")
    if st["time_left"] is not None:
        ctx.say(t["time"].format(t=st["time_left"]), id="ktane.time")
    if st["solved"] or st["exploded"]:
        return
    if st["fight"] is not None:
        ctx.say(t["fight"], id="ktane.fight")
    else:
        ctx.say(
            t["stage"].format(stage=st["stage"], zone=_zone_word(led_of(st), t)), id="ktane.stage"
        )
        if ctx.gm:
            _keeper_move(ctx, st, lang)


def led_of(st: dict[str, Any]) -> str:
    return dungeon.led(st)


@SYSTEM.hook(pure=True)
def solved(ctx: Context) -> bool:
    """True once the module is solved (stage 16 entered)."""
    return bool(_get(ctx)["solved"])


@SYSTEM.hook(pure=True)
def exploded(ctx: Context) -> bool:
    """True once the bomb has exploded (strike limit or time)."""
    return bool(_get(ctx)["exploded"])


@SYSTEM.hook(pure=True)
def stage(ctx: Context) -> int:
    """The stage the module shows."""
    return int(_get(ctx)["stage"])


@SYSTEM.hook(pure=True)
def led(ctx: Context) -> str:
    """The LED: red, yellow, green, blue, magenta, white or off."""
    return dungeon.led(_get(ctx))


@SYSTEM.hook(pure=True)
def strikes(ctx: Context) -> int:
    """Strikes so far."""
    return int(_get(ctx)["strikes"])


@SYSTEM.hook(pure=True)
def fighting(ctx: Context) -> bool:
    """True while an enemy is being fought (the LED is white)."""
    return _get(ctx)["fight"] is not None


@SYSTEM.hook(pure=True)
def over(ctx: Context) -> bool:
    """True once the module is solved or the bomb has exploded."""
    st = _get(ctx)
    return bool(st["solved"] or st["exploded"])


def view(story: Any, state: Any, gm: bool) -> dict[str, Any]:
    """What the module shows; with ``gm`` also the hidden numbers behind it."""
    st = (getattr(state, "rules", None) or {}).get(KEY)
    if st is None:
        return {}
    edge = st["edgework"]
    out: dict[str, Any] = {
        "stage": st["stage"],
        "led": dungeon.led(st),
        "strikes": st["strikes"],
        "solved": st["solved"],
        "edgework": {
            "serial": edge["serial"],
            "indicators": [{"label": i["label"], "lit": i["lit"]} for i in edge["indicators"]],
            "batteries": edge["batteries"],
        },
    }
    if st["time_left"] is not None:
        out["time_left"] = st["time_left"]
    if gm:
        hidden: dict[str, Any] = {
            "level": st["level"],
            "s": st["s"],
            "b": st["b"],
            "m": st["m"],
            "x": None,
            "move": None,
            "enemy": None,
            "sequence": None,
            "done": None,
            "expected": dungeon.expected(st),
        }
        fight = st["fight"]
        if fight is not None:
            hidden.update(
                enemy=fight["enemy"], sequence=list(fight["sequence"]), done=fight["done"]
            )
        elif not (st["solved"] or st["exploded"]):
            x = dungeon.current_x(st)
            hidden.update(x=x, move=dungeon.move_for(x))
        out["hidden"] = hidden
    return out


SYSTEM.view = view


def _validate(raw: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    story = raw.get("story", {}) if isinstance(raw, dict) else {}
    opts = story.get("options") or {} if isinstance(story, dict) else {}
    if not isinstance(opts, dict):
        return [("story.options", "options must be a mapping")]
    s = opts.get("strikes", dungeon.DEFAULT_STRIKES)
    if not isinstance(s, int) or isinstance(s, bool) or s < 1:
        out.append(("story.options.strikes", f"strikes must be a whole number ≥ 1, not {s!r}"))
    t = opts.get("timer")
    if t is not None and (not isinstance(t, int) or isinstance(t, bool) or t < 1):
        out.append(("story.options.timer", f"timer must be seconds ≥ 1 or null, not {t!r}"))
    g = opts.get("fight_gap", list(dungeon.DEFAULT_FIGHT_GAP))
    if (
        not isinstance(g, list | tuple)
        or len(g) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in g)
        or not 1 <= g[0] <= g[1]
    ):
        out.append(
            ("story.options.fight_gap", f"fight_gap must be [lo, hi] with 1 ≤ lo ≤ hi, not {g!r}")
        )
    return out


SYSTEM.validate = _validate


# For front ends that pass meta commands to the rule system: ``tick 5`` runs the countdown
# (sent by the console's real clock, refused from the keyboard), ``describe`` repeats what
# the bomb shows (for voice play; a player may type it). Arguments are read and bounded by
# runner/rules/meta.py.
SYSTEM.meta_commands.update(
    {
        "tick": MetaCommand(
            lambda ctx, args: tick(ctx, args[0]), (Arg("seconds", "count", 1, 0, MAX_SECONDS),)
        ),
        "describe": MetaCommand(lambda ctx, args: describe(ctx), player=True),
    }
)

__all__ = ["SYSTEM", "dungeon", "edgework", "view"]

# What front ends need from this system (labels, the countdown, the manual): runner/rules/ktane/front.py.
from runner.rules.ktane import front as _front  # noqa: E402,F401
