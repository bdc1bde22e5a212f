"""突破: obstacles declared by a story, and the players' free proposals to get past them.

A story declares obstacles under ``story.options.obstacles`` (each with a ``node``) or under
a node's ``props.obstacles``; docs/rules-ureg.md gives the format. A proposal such as
「梯子を窓に立て掛けて登る」 or "use the ladder on the window" is read into the items,
obstacle, characters and intents it names; the obstacle's own ``ways`` are tried first, then
the generic rules (reach, break, unlock, light, gap, narrow, heavy, poke).

The package's modules, each using only those above it: ``words``, ``obstacles``,
``proposal`` (reading the words), ``platforms`` (reaching heights), ``ways`` (resolving a
proposal on one obstacle), ``propose`` (the entry point). Everything is re-exported here.
"""

from __future__ import annotations

from runner.rules.ureg.breakthrough.obstacles import (
    _seen,
    active,
    fixtures,
    ob_name,
    obstacles,
)
from runner.rules.ureg.breakthrough.platforms import (
    _solve,
    forms,
    reach_attempt,
)
from runner.rules.ureg.breakthrough.proposal import (
    _PARTICLES,
    Proposal,
    _item_words,
    _word_start,
    parse,
)
from runner.rules.ureg.breakthrough.propose import (
    _FITS,
    SAID,
    _fitting,
    _look,
    _missing_names,
    _plan_matches,
    fight_obstacle,
    give_hint,
    propose,
    solve_obstacle,
)
from runner.rules.ureg.breakthrough.ways import (
    Verdict,
    _break,
    _gap,
    _heavy,
    _light,
    _lock,
    _narrow,
    _needs_ok,
    _people,
    _poke,
    _reach,
    _t,
    _tools,
    _unlock,
    _way_matches,
    modify,
    resolve,
)
from runner.rules.ureg.breakthrough.words import (
    _CATALOGUE_WORDS,
    _INTENT_KEYS,
    _LOCK_PHRASES,
    _NOT_INTENTS,
    INTENTS,
    LOOK_ONLY,
    STRONG_INTENTS,
    TAKE_ONLY,
    fold,
)

__all__ = [
    "INTENTS",
    "LOOK_ONLY",
    "STRONG_INTENTS",
    "TAKE_ONLY",
    "_CATALOGUE_WORDS",
    "_INTENT_KEYS",
    "_LOCK_PHRASES",
    "_NOT_INTENTS",
    "fold",
    "_seen",
    "active",
    "fixtures",
    "ob_name",
    "obstacles",
    "Proposal",
    "_PARTICLES",
    "_item_words",
    "_word_start",
    "parse",
    "_solve",
    "forms",
    "reach_attempt",
    "Verdict",
    "_break",
    "_gap",
    "_heavy",
    "_light",
    "_lock",
    "_narrow",
    "_needs_ok",
    "_people",
    "_poke",
    "_reach",
    "_t",
    "_tools",
    "_unlock",
    "_way_matches",
    "modify",
    "resolve",
    "SAID",
    "_FITS",
    "_fitting",
    "_look",
    "_missing_names",
    "_plan_matches",
    "fight_obstacle",
    "give_hint",
    "propose",
    "solve_obstacle",
]
