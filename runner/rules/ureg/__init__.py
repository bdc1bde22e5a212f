"""UREG (Un Realistic Escape Game) basic system ver.1.5 as pure hooks.

「cc-by UREGベーシック Yasuda Lin」を参考にしました。 The rules are the source's; the
rulings UA-01..UA-24 settle its open points (docs/rules-ureg.md lists every hook).

The package: ``system`` (the RuleSystem every module registers its hooks on), the hooks in
``people``, ``obstacles``, ``life`` and ``progress``, the game's course in ``session`` and
``campaign``; the rules themselves in ``core``, ``physics``, ``breakthrough``, ``combat``,
``abilities``, ``items``; ``front`` (what front ends read).
"""

from __future__ import annotations

from runner.rules.meta import Arg, MetaCommand
from runner.rules.ureg import breakthrough as B
from runner.rules.ureg import core as C
from runner.rules.ureg.campaign import _meta_carry
from runner.rules.ureg.session import (
    _after_command,
    _init,
    _meta_choose,
    _meta_sync,
    _meta_time,
    _on_unmatched,
    view,
)
from runner.rules.ureg.system import SOURCE, SYSTEM
from runner.rules.ureg.text import CREDIT
from runner.rules.ureg.validate import OPTIONS, validate

SYSTEM.init = _init
SYSTEM.view = view
SYSTEM.on_unmatched = _on_unmatched
SYSTEM.after_command = _after_command
SYSTEM.validate = validate
SYSTEM.switches = frozenset(OPTIONS) - {"combat"}  # combat: about, numeric, true or false
# Rule data a story writes that players read or type (katari strings exports it): an
# obstacle's or a way's words. The ``*_en`` spellings are the story's own English.
SYSTEM.text_keys = frozenset(
    {"name", "aliases", "hint", "say", "fail", "words", "description", "label"}
)
# Rule commands, their arguments read and bounded by runner/rules/meta.py. The real-time
# reports and the carry are sent by front ends (the console refuses them from the keyboard);
# @choose, @wind and @restart stand for story actions (bots and tests); @hint a player may type.
SYSTEM.meta_commands.update(
    {
        "time_passed": MetaCommand(_meta_time, (Arg("seconds", "seconds", 0),)),
        "time_sync": MetaCommand(_meta_sync, (Arg("total", "seconds", 0),)),
        "hint": MetaCommand(lambda ctx, args: B.give_hint(ctx), player=True),
        "choose": MetaCommand(
            _meta_choose, (Arg("choice", "words"),), usage="@choose ARCHETYPE|○X ×Y [@WHO]"
        ),
        "wind": MetaCommand(lambda ctx, args: C.wind_watch(ctx)),
        "restart": MetaCommand(lambda ctx, args: C.restart(ctx)),
    }
)
SYSTEM.meta_commands["carry"] = MetaCommand(
    _meta_carry, (Arg("carry", "json"),), usage='@carry {"pc":{"good":"閃き","bad":"平凡"}}'
)

__all__ = [
    "SYSTEM",
    "CREDIT",
    "SOURCE",
    "view",
    "validate",
    "campaign_carry",
    "apply_carry",
    "carry_command",
    "escaped_pcs",
]

# The hooks register on SYSTEM as their modules are imported, in this order (the order
# `katari rules` lists them); each is also this package's attribute, ureg.NAME.
from runner.rules.ureg.people import (  # noqa: E402,F401,I001
    choose,
    chosen,
    party,
    has,
    ability,
    archetype,
    reach_height,
    jump_height,
    jump_length,
    can_cross,
    can_lift,
    can_pull_up,
    can_reach,
    reach,
    can_see,
    movement,
    has_light,
)
from runner.rules.ureg.obstacles import (  # noqa: E402,F401,I001
    solved,
    solve,
    reveal,
    propose,
    find,
    found,
    modified,
    hint,
    hint_available,
)
from runner.rules.ureg.life import (  # noqa: E402,F401,I001
    damage,
    life,
    vanish,
    vanished,
    flower_colour,
    flowers,
    power,
    fight,
    combat_result,
    neutralised,
)
from runner.rules.ureg.progress import (  # noqa: E402,F401,I001
    time_passed,
    time_sync,
    time_left,
    wind_watch,
    restart,
    escape,
    escaped,
    outcome,
    full_victory,
    partial_victory,
    failure,
    finish,
    give_up,
    option,
    floor,
    aid,
)
from runner.rules.ureg.session import (  # noqa: E402,F401,I001
    view,
)
from runner.rules.ureg.campaign import (  # noqa: E402,F401,I001
    campaign_carry,
    escaped_pcs,
    carry_command,
    apply_carry,
)

# What front ends need from this system (labels, the real-time limit, the campaign, the
# rules text): runner/rules/ureg/front.py.
from runner.rules.ureg import front as _front  # noqa: E402,F401

from runner.rules.base import Context  # noqa: E402


def _active_pc(ctx: Context) -> str:
    """Whose sheet ``{pc.name}`` reads in story text: the first active PC."""
    pcs: list[str] = C.active_pcs(ctx)
    return pcs[0] if pcs else ""


SYSTEM.active_pc = _active_pc
