"""Life, the flowers that count it, vanishing; and fights (戦闘), which cost life."""

from __future__ import annotations

from typing import Any

from runner.rules.base import Context, RuleError
from runner.rules.ureg import access as A
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import combat as K
from runner.rules.ureg import core as C
from runner.rules.ureg.system import hook


@hook()
def damage(ctx: Context, who: str = "", amount: int = 1) -> None:
    """Damage: each named PC loses life (a flower takes it first); life 0 → vanish."""
    C.damage(ctx, who, int(amount))


@hook(pure=True)
def life(ctx: Context, who: str = "") -> int:
    """A PC's life."""
    return int(A.stats(ctx.state)[who or C.pc_ids(ctx)[0]].get("life", 1))


@hook()
def vanish(ctx: Context, who: str = "") -> None:
    """消滅 (default: every PC still in the space)."""
    C.vanish(ctx, who)


@hook(pure=True)
def vanished(ctx: Context, who: str = "") -> bool:
    """Whether the character has vanished (no ``who``: every PC has)."""
    stats = A.stats(ctx.state)
    ids = C.split(who) or C.pc_ids(ctx)
    return all(stats.get(c, {}).get("status") == C.VANISHED for c in ids)


@hook(pure=True)
def flower_colour(ctx: Context) -> str:
    """The colour of the flowers held ("red", ...) or ""."""
    return C.value(ctx, "flower_colour") or ""


@hook(pure=True)
def flowers(ctx: Context) -> int:
    """How many flowers are held."""
    return sum(C.flowers_held(ctx).values())


def _fighters(ctx: Context, fighters: Any, weapons: Any) -> list[tuple[Any, ...]]:
    ids = C.who_list(ctx, fighters)
    wmap: dict[str, str] = {}
    wl = C.split(weapons)
    for n, w in enumerate(wl):
        if ":" in w:
            k, _, v = w.partition(":")
            wmap[k] = v
        elif n < len(ids):
            wmap[ids[n]] = w
    used: set[str] = set()
    out: list[tuple[Any, ...]] = []
    for c in ids:
        w = wmap.get(c, "")
        if w in ("", "-", "none", "素手"):
            out.append((C.character(ctx, c), "", "", None))
            continue
        if w not in A.held(ctx.state) and w not in B.fixtures(ctx):
            raise RuleError(f"{w!r} is not held")
        if w in used and A.inventory(ctx.state).get(w, 0) < 2:
            raise RuleError(f"one {w!r} cannot arm two PCs")
        used.add(w)
        out.append(
            (
                C.character(ctx, c),
                A.item_name(ctx.story, w),
                A.item_name(ctx.story, w, "en"),
                A.item_props(ctx.story, w),
            )
        )
    return out


@hook(pure=True)
def power(ctx: Context, who: str = "", item: str = "") -> float:
    """A PC's numeric combat power with one item (or bare-handed)."""
    f = _fighters(ctx, who or C.active_pcs(ctx)[0], item)[0]
    return float(K.pc_power(f[0], f[3] is not None) + K.item_power(f[3]))


@hook()
def fight(
    ctx: Context, enemies: Any, fighters: Any = "", weapons: Any = "", plan: Any = 0
) -> list[str]:
    """Numeric combat: fighters (default all PCs) with weapons ("crowbar" or "pc:crowbar,b:knife")
    and a plan modifier −5..+5 against the enemies' total power. Applies the result and returns
    outcome keys: advantage/win/success, even/trade/success or disadvantage/retreat/failure."""
    fs = _fighters(ctx, fighters, weapons)
    res = K.fight(fs, C.enemy_total(ctx, enemies), plan)
    res.say(ctx, C.lang(ctx))
    C.apply_result(ctx, res.result, [f[0].id for f in fs], enemies)
    return list(K.RESULT_KEYS[res.result])


@hook()
def combat_result(ctx: Context, result: str, fighters: Any = "", enemies: Any = "") -> list[str]:
    """About combat (UA-23): the story maps the chosen plan to advantage, even or
    disadvantage; this applies it the same way as ``fight``."""
    if result not in K.RESULT_KEYS:
        raise RuleError(f"a combat result is advantage, even or disadvantage, not {result!r}")
    ids = C.who_list(ctx, fighters)
    ctx.say(C.t(ctx, K.RESULT_JA[result], K.RESULT_EN[result]), id="ureg.fight")
    C.apply_result(ctx, result, ids, enemies)
    return list(K.RESULT_KEYS[result])


@hook(pure=True)
def neutralised(ctx: Context, enemy: str) -> bool:
    """Whether an enemy NPC has been neutralised."""
    result: bool = A.stats(ctx.state).get(enemy, {}).get("status") == C.NEUTRALISED
    return result
