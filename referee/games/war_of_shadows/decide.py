"""How an intent is judged: the framework-level checks of §4.0 in the spec's order (G1 a configured
match, G2 setup complete, G3 the actor and every id the intent names), then the intent's own decider
(:data:`DECIDERS`), on a :class:`~.txn.Tx`. Implicit closure (§3.3 rule 7): an intent refused while
the current activation is ``done`` and that names a later position (or belongs to a later phase) is
judged again on the state after closing that activation; if it is accepted there, the closure events
are recorded before its own. Likewise collectors with no agent on the board are skipped when the next
intent arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.protocol import Deciders

from .codes import Code
from . import agents, council, effects, manual, reveal, setup
from .checkin import unknown
from .model import (
    Intent,
    AddBanners,
    ArrangeLoyalty,
    Attack,
    ChooseSociety,
    CiNameEmpire,
    CiReveal,
    CollectAgent,
    ConfigureMatch,
    DealFanaticEmpire,
    DiscardCards,
    EndPosition,
    FinalReveal,
    ManualEffect,
    MoveAgent,
    PassPosition,
    PlaceAgent,
    PlayCard,
    ResolveCombat,
    SETUP_INTENTS,
    SetFirstPlayer,
    SkipSwap,
    State,
    SwapLoyalty,
    TakeCards,
)
from .queries import Queries
from .rounds import close_activation, skip_collectors, stuck_collector
from .txn import R_COMMON, R_CONFIG, Tx

#: the decider of every intent but configure_match (a match is configured by its header)
_TABLE: dict[type[Any], Callable[[Tx, Any], None]] = {
    ChooseSociety: setup.choose_society,
    SetFirstPlayer: setup.set_first_player,
    DealFanaticEmpire: setup.deal_fanatic_empire,
    ArrangeLoyalty: setup.arrange_loyalty,
    CollectAgent: agents.collect_agent,
    PlaceAgent: agents.place_agent,
    AddBanners: council.add_banners,
    Attack: council.attack,
    ResolveCombat: council.resolve_combat,
    TakeCards: council.take_cards,
    MoveAgent: council.move_agent,
    PassPosition: council.pass_position,
    EndPosition: council.end_position,
    PlayCard: effects.play_card,
    ManualEffect: manual.manual_effect,
    DiscardCards: reveal.discard_cards,
    SwapLoyalty: reveal.swap_loyalty,
    SkipSwap: reveal.skip_swap,
    CiNameEmpire: reveal.ci_name_empire,
    CiReveal: reveal.ci_reveal,
    FinalReveal: reveal.final_reveal,
}


def _again(tx: Tx, start: State, intent: Intent) -> bool:
    """After a refusal: while the activation is done (or a collector is stuck), ``tx`` begins again on
    ``start`` with the closure (or the skips), whose events then come first, and the intent is judged
    once more (True); otherwise the refusal stands."""
    rules = tx.rules
    if _may_close(rules, start, intent):
        tx.restart(start)
        close_activation(tx)
    elif stuck_collector(rules, start):
        tx.restart(start)
        skip_collectors(tx)
    else:
        return False
    return True


def _may_close(rules: Queries, state: State, intent: Any) -> bool:
    c = state.cursor
    if state.phase != "EMPIRE_PHASE" or c is None or c.stage != "done" or c.resolving_card is not None:
        return False
    if isinstance(intent, SETUP_INTENTS):
        return False
    position = getattr(intent, "position", None)
    return position is None or position != rules.current_slot(state)


def _general(tx: Tx, intent: Any) -> None:
    """G1-G3 (§4.0) before every decider; configure_match is refused first."""
    rules = tx.rules
    seat = tx.seat
    if isinstance(intent, ConfigureMatch):
        tx.fail(Code.ALREADY_CONFIGURED, "the match is already configured (by its header: players, options, "
                "board and cards); start a new match to change them", R_CONFIG)
    in_setup = isinstance(intent, SETUP_INTENTS)  # configure_match was refused above
    state = tx.state
    # G2
    if not in_setup and state.phase == "SETUP":
        tx.fail(Code.SETUP_INCOMPLETE, f"setup is not complete ({setup.still_missing(rules, state)})", R_COMMON)
    # G3: the actor, and every id the intent names
    player = getattr(intent, "player", None)
    if not in_setup and player is not None and player != seat:
        tx.fail(Code.UNKNOWN_REFERENCE, f"player={player} but {seat} submitted it; in-game intents are made "
                "by the player themself", R_COMMON)
    problem = unknown(rules, intent)
    if problem:
        tx.fail(Code.UNKNOWN_REFERENCE, problem, R_COMMON)


#: every intent judged: G1-G3, its decider; refused, judged again after the implicit closure
DECIDERS: Deciders[Tx] = Deciders(_TABLE, before=_general, again=_again)
