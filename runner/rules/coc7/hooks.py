"""The whole coc7 rule system: its life-cycle functions, rule commands and front-end
declarations set on ``SYSTEM``, and every hook module imported so its hooks register.

``runner.rules.coc7.SYSTEM`` (the ``katari.rules`` entry point) imports this module on first
use (runner/rules/coc7/__init__.py); the dice commands (``bcdice``) import without it.
"""

from __future__ import annotations

from runner.rules.coc7 import portable as _portable
from runner.rules.coc7.investigators import _init, _validate, install
from runner.rules.coc7.offer import _offer, _on_unmatched
from runner.rules.coc7.sheet import make_enemy, make_investigator, pregens, quick_investigator
from runner.rules.coc7.system import SYSTEM
from runner.rules.coc7.views import _meta_sheet, _sheet, _view
from runner.rules.meta import Arg, MetaCommand

__all__ = [  # the package's names (runner/rules/coc7/__init__.py)
    "SYSTEM",
    "make_enemy",
    "make_investigator",
    "pregens",
    "quick_investigator",
    "install",
]

SYSTEM.init = _init
SYSTEM.view = _view
SYSTEM.sheet = _sheet
SYSTEM.offer = _offer
SYSTEM.on_unmatched = _on_unmatched
SYSTEM.validate = _validate
# Rule data a story writes that players read (katari strings exports it): a monster's short name.
SYSTEM.text_keys = frozenset({"short", "attacks"})
SYSTEM.switches = frozenset({"luck_spending", "san_cap"})
"""A monster's short name and its attacks' names (``attacks: [{name: 叩く}]``) are words players read."""
SYSTEM.meta_commands["sheet"] = MetaCommand(_meta_sheet, (Arg("who", "word", ""),), player=True)

# An investigator imported from CCFOLIA or キャラクター保管所 (runner/ccfolia): sent by the front
# end (`katari play --investigator FILE`, the console's `import`), never typed by a player.
SYSTEM.meta_commands["investigator"] = _portable.META

# The hooks register on SYSTEM as their modules are imported, in this order (the order
# `katari rules` lists them); each is also this module's attribute.
from runner.rules.coc7.investigators import (  # noqa: E402,F401,I001
    DEFAULT_OCCUPATION,
    DEFAULT_HOBBIES,
    choose_pregen,
    quick_create,
    set_active,
    give_weapon,
    give_ammo,
    spend_mp,
    improve,
)
from runner.rules.coc7.actions import (  # noqa: E402,F401,I001
    check,
    hidden_check,
    push,
    push_consequence,
    luck,
    group_luck,
    spend_luck,
    opposed,
    san,
    san_all,
    out_cold_minutes,
    come_round,
    bout_minutes,
    end_bout,
    heal,
)
from runner.rules.coc7.reads import (  # noqa: E402,F401,I001
    in_combat,
    awaiting,
    hp,
    mp,
    sanity,
    luck_points,
    skill,
    native,
    alive,
    any_alive,
    conscious,
    dying,
    insane,
    held,
    dazed,
    all_dazed,
    enemies_left,
    combat_round,
    last_combat,
    last_level,
    last_loss,
    ammo,
    jammed,
    has_weapon,
)
from runner.rules.coc7.views import (  # noqa: E402,F401,I001
    sheet_view,
)

# What front ends need from this system (labels, outcome keys, lint, skills, BCDice rolls):
# runner/rules/coc7/front.py.
from runner.rules.coc7 import front as _front  # noqa: E402,F401
from runner.rules.coc7 import scenario as _scenario  # noqa: E402,F401  (scenario hooks register on SYSTEM)

# What the hooks' arguments may be (katari check), and whose sheet `pc.name` reads.
from runner.rules.coc7 import checks as _ck  # noqa: E402
from runner.rules.coc7 import domains as _domains  # noqa: E402

_domains.declare(SYSTEM)
SYSTEM.active_pc = _ck.pc_id
