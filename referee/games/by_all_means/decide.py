"""Who may act and how an intent is judged (rules spec 3.1, 4.1). The framework's checks (match
over, not your turn — :func:`who_may_act`) come first; then G1 ``wrong_phase``, G2
``decision_pending``, G3 ``wrong_step``, G4 ``start_draw_required`` (and the move from step start to
actions); then the intent's own numbered checks in its decider (:data:`DECIDERS`, one module per part
of the game); then what follows every accepted intent. The first failure is the verdict. Everything
runs on a :class:`~.txn.Txn`, so every state change is an event and the verdict sees exactly what the
fold will.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine.protocol import Deciders

from .codes import Code
from . import agents, combos, deploy, effects, manual, model, reactions, setup, turn
from .model import (
    Intent,
    Choose,
    ChooseOrder,
    CloseTurn,
    DeclareEffect,
    DiscardForEffect,
    DrawStartCards,
    Mulligan,
    OPENING_INTENTS,
    OpponentActed,
    SETUP_INTENTS,
    State,
    StepChanged,
    Utilize,
)
from .turn import start_draw_needed
from .txn import Ctx, Txn, face_up_agents

# The routing below goes by an intent's exact class (``type(intent)``), looked up in a dict or set:
# intents are final Structs, and ``isinstance`` against Struct classes is slow.

#: the phase an intent belongs to (G1); any intent not named here belongs to phase play
PHASE_OF: dict[type, str] = {**{cls: "opening" for cls in OPENING_INTENTS}, ChooseOrder: "order", Mulligan: "mulligan"}
#: intents anyone may send whatever the turn (3.1)
ANYONE_INTENTS = frozenset((*SETUP_INTENTS, Choose, DeclareEffect))
#: intents the non-active player sends in steps end and reactions (3.1)
STEP_END_INTENTS = frozenset((CloseTurn, Utilize, DiscardForEffect))
#: reactions (4.14)
REACTIONS = frozenset((Utilize, DiscardForEffect))

#: the decider of every intent: its own checks in the spec's order, then its resolution
_TABLE: dict[type, Callable[[Txn, Any], None]] = {
    model.ShuffleArchive: setup.shuffle_archive,
    model.ReformArchives: setup.reform_archives,
    model.DrawOpeningHand: setup.draw_opening_hand,
    model.RecordLot: setup.record_lot,
    model.ChooseOrder: setup.choose_order,
    model.Mulligan: setup.mulligan,
    model.DrawStartCards: turn.draw_start_cards,
    model.EndTurn: turn.end_turn,
    model.CloseTurn: turn.close_turn,
    model.DrawMain: turn.draw_main,
    model.PlayDigits: combos.play_digits,
    model.PlaySymbols: combos.play_symbols,
    model.PlayNeutral: combos.play_neutral,
    model.DeployAgent: deploy.deploy_agent,
    model.DeployTerritory: deploy.deploy_territory,
    model.DeployGraffiti: deploy.deploy_graffiti,
    model.PlayPlot: deploy.play_plot,
    model.AgentDraw: agents.agent_draw,
    model.AgentAttackPlayer: agents.agent_attack_player,
    model.AgentAttackAgent: agents.agent_attack_agent,
    model.ActivateAbility: agents.activate_ability,
    model.Utilize: reactions.utilize,
    model.DiscardForEffect: reactions.discard_for_effect,
    model.DeclareEffect: manual.declare_effect,
    model.Choose: effects.choose,
}


def who_may_act(ctx: Ctx, state: State, intent: Intent) -> frozenset[str]:
    """The seats that may send ``intent`` now (3.1): the decider of a pending decision, the lot's
    winner for the order, either seat in setup or for a free intent, else the active player, or its
    opponent for what belongs to step end."""
    everyone = ctx.everyone
    phase = state.phase
    cls = type(intent)
    if state.pending is not None and phase == "play":
        return ctx.alone(state.pending.decider)
    if phase == "order" and cls is ChooseOrder:
        return ctx.alone(state.lot_winner) if state.lot_winner else everyone
    if phase != "play" or cls in ANYONE_INTENTS:
        return everyone
    t = state.turn
    active = t.active
    if active is None:
        return everyone
    if t.step in ("end", "reactions") and cls in STEP_END_INTENTS:
        return ctx.alone(ctx.opp(active))
    return ctx.alone(active)


def choices(txn: Txn, p: Any) -> str:
    """The answers a pending decision takes, as a scorekeeper types them (``choose option=a|b``). Only
    what the table sees is named: a sabotage's cards are in a hand, so they are described, not listed."""
    kind = p.kind
    if kind == "unreliable_pr":
        return "choose option=actor_gains|target_loses"
    if kind == "slander":
        return "choose option=lose_reputation|lose_main_action|lose_extra_action"
    if kind == "blackmail":
        cells = [cell for cell, _agent in face_up_agents(txn.ctx, txn.state, p.decider)]
        agent = f", or choose option=discard_agent target={'|'.join(cells)}" if cells else ""
        return f"choose option=lose_reputation{agent}"
    if kind == "sabotage":
        return f"choose cards=CARD,CARD (two cards of {p.target or p.decider}'s hand)"
    if kind == "agent_limit":
        return f"choose target={'|'.join(p.cells)}" if p.cells else "choose target=CELL"
    if kind == "on_leave_window":
        return "declare_effect timing=on_leave ..., or choose option=done"
    return "choose option=done"


def _general(txn: Txn, intent: Any) -> None:
    """G1-G4 (4.1), and the move from step start to actions."""
    seat = txn.seat
    s = txn.state
    cls = type(intent)
    want = PHASE_OF.get(cls, "play")
    if s.phase != want:
        txn.require(False, Code.WRONG_PHASE, f"{_verb(intent)} belongs to phase {want}; the match is in phase {s.phase}",
                    "R-SETUP" if want != "play" else "R-EFFECT-ORDER")
    if want != "play":
        return
    p = s.pending
    if p is not None and cls is not Choose:
        on_leave = p.kind == "on_leave_window" and cls is DeclareEffect and intent.timing == "on_leave"
        if not on_leave:
            txn.require(False, Code.DECISION_PENDING,
                        f"{p.decider} must first answer the pending {p.kind} decision: {choices(txn, p)}", "R-EFFECT-ORDER")
        return
    if cls is Choose:
        return
    active = s.turn.active
    step = s.turn.step
    is_active = seat == active
    # (each message is built only when its check fails)
    if step in ("start", "actions"):
        bad = cls is CloseTurn or (cls is DrawStartCards and step != "start")
        if bad:
            txn.check(False, Code.WRONG_STEP, f"{_verb(intent)} does not belong to step {step} of the turn", "R-EFFECT-ORDER")
    elif is_active:
        ok = cls is DeclareEffect and not (intent.timing == "turn_end" and s.turn.opponent_acted)
        if not ok:
            txn.check(False, Code.WRONG_STEP, f"{_verb(intent)} does not belong to step {step}"
                      + (" (the opponent has acted in step end: its turn_end window is over)" if cls is DeclareEffect else ""),
                      "R-EFFECT-ORDER")
    else:
        reacting = cls in REACTIONS
        after = txn.opts["reaction_timing"] == "after_status_check"
        ok = cls is CloseTurn or cls is DeclareEffect or (reacting and (step == "reactions") == after)
        if not ok:
            txn.check(False, Code.WRONG_STEP, f"{_verb(intent)} does not belong to step {step} of the turn"
                      + (" (reactions come after the status check in this match)" if reacting and after else ""),
                      "R-OPP-TURN")
    if step == "start" and is_active:
        starter = cls is DeclareEffect and intent.timing == "turn_start"
        if cls is not DrawStartCards and cls is not DeclareEffect and start_draw_needed(txn, seat):
            txn.check(False, Code.START_DRAW_REQUIRED, f"{seat}'s hand is empty: draw_start_cards first", "R-HAND")
        if not starter:
            txn.emit(StepChanged(step="actions"))


def _after(txn: Txn, intent: Any) -> None:
    """What follows every accepted intent of phase play: the opponent has acted (in steps start, end
    and reactions), and the status check with option status_check=immediate."""
    seat = txn.seat
    s = txn.state
    if s.phase != "play" or s.turn.active is None:
        return
    cls = type(intent)
    if s.turn.step in ("end", "reactions", "start") and seat != s.turn.active and cls is not CloseTurn and cls is not Choose:
        if not s.turn.opponent_acted:
            txn.emit(OpponentActed(seat=seat))
    if txn.opts["status_check"] == "immediate" and txn.state.pending is None and txn.state.phase == "play":
        txn.status_check()


def _verb(intent: Any) -> str:
    return str(type(intent).__struct_config__.tag)


#: ``seat``'s intent judged and resolved: G1-G4, its decider, what follows it; a failed check raises a refusal
DECIDERS: Deciders[Txn] = Deciders(_TABLE, before=_general, after=_after)
