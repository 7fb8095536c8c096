"""Declared effects (§4.30): ``manual_effect`` and the deltas every other intent may carry, checked
delta by delta in sequence, applied with their automatic consequences (three hits kill a suspect; an
emptied deck reshuffles its face-up discards) and flagged for audit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import structs

from .deltas import problem
from .model import (
    AlibiDelta, CancelLastActionDelta, CardDelta, CardReturned, DeckReshuffled, DeltaApplied, DetectiveMoved, HitDelta,
    LeadDelta, LeadMoved, ManualEffect, Popped, SceneHeroRestored, SuspectKilled, WindowClosed,
)
from .txn import R_MANUAL, Tx


def check_deltas(tx: Tx, deltas: Sequence[Any]) -> None:
    """Every delta possible in sequence, without recording them (a Tx on a copy)."""
    trial = Tx(tx.rules, tx.s, tx.seat, frozenset())
    apply_deltas(trial, deltas)


def apply_deltas(tx: Tx, deltas: Sequence[Any]) -> None:
    for i, delta in enumerate(deltas, start=1):
        if isinstance(delta, CancelLastActionDelta):
            cancel_last_action(tx, i)
            continue
        why = problem(tx.rules, tx.s, delta)
        if why is not None:
            tag = type(delta).__struct_config__.tag
            tx.refuse("manual/inconsistent", f"delta {i} ({tag}): {why}", R_MANUAL)
        tx.emit(DeltaApplied(seat=tx.seat, delta=delta))
        if isinstance(delta, HitDelta) and tx.s.suspects[delta.suspect].hits >= 3 and tx.s.suspects[delta.suspect].alive:
            tx.emit(SuspectKilled(suspect=delta.suspect))
        if isinstance(delta, LeadDelta) and delta.location != "box" and any(
                loc == delta.location and f"{t}.{o}" != delta.lead for t, row in tx.s.leads.items() for o, loc in row.items()):
            tx.flag("rule_deviation", f"two leads on {delta.location}")
        if isinstance(delta, AlibiDelta) and delta.amount > 0 and not tx.s.suspects[delta.suspect].alive:
            tx.flag("rule_deviation", f"an alibi on the killed {delta.suspect}")
        if isinstance(delta, CardDelta):
            for det, kinds in sorted(tx.s.decks.items()):
                for kind, d in sorted(kinds.items()):
                    if not d.face_down and d.bottom:
                        tx.emit(DeckReshuffled(deck=f"{det}.{kind}"))


def manual_effect(tx: Tx, it: ManualEffect) -> None:
    s = tx.s
    top = s.pending[0] if s.pending else None
    declaring = top is not None and top.seat == tx.seat and top.step in ("effect_declaration", "piece_bonus")
    if tx.seat != "arbiter":
        allowed = (s.phase == "day" and tx.seat == s.active_seat) or declaring
        tx.need(allowed, "turn/not_your_turn", f"{tx.seat} may declare an effect only in its own turn "
                "(or when a declaration is pending for it)", R_MANUAL)
    if it.source is not None:
        named = [st for st in s.pending if st.source == it.source]
        if named:
            tx.need(named[0] is top, "manual/no_window", f"{it.source} is pending but {top.step if top else ''} comes first", R_MANUAL)
    elif tx.seat != "arbiter" and top is not None and not declaring \
            and not any(isinstance(d, CancelLastActionDelta) for d in it.deltas):
        tx.refuse("turn/step_pending", f"{top.seat} must finish {top.step} first", R_MANUAL)
    apply_deltas(tx, it.deltas)
    if top is not None and it.source is not None and it.source == top.source:
        tx.emit(Popped(step=top.step))
    tx.flag("manual_effect", it.source or it.note or "declared effect")


_ = structs


CANCELLABLE = ("move", "ride_beanstalk", "fly_dropship", "draw_twilight_card", "get_a_jump", "follow_lead")


def cancel_last_action(tx: Tx, i: int) -> None:
    """«Отмена»: the active seat's most recent action does not happen; every cost paid stays paid (TIME, a
    spent pass). Covered: moves (the detective goes back), a draw (the card goes back face down), a jump
    (the previous hero marker is back on the scene) and a lead followed but not yet moved."""
    s = tx.s
    la = s.last_action
    where = f"delta {i} (cancel_last_action)"
    tx.need(la is not None and la.seat == s.active_seat, "manual/inconsistent",
            f"{where}: the active seat has no action to cancel (only before its next accepted intent)", R_MANUAL)
    assert la is not None
    tx.need(la.verb in CANCELLABLE, "manual/inconsistent", f"{where}: {la.verb} is not undone by cancel_last_action here "
            f"(covered: {', '.join(CANCELLABLE)}); declare its reversal delta by delta", R_MANUAL)
    tx.emit(DeltaApplied(seat=tx.seat, delta=CancelLastActionDelta()))
    if la.verb in ("move", "ride_beanstalk", "fly_dropship"):
        tx.emit(DetectiveMoved(seat=la.seat, to=la.location or "", means="declared"), WindowClosed())
    elif la.verb == "draw_twilight_card":
        tx.need(la.card is not None and la.card in s.players[la.seat].hand, "manual/inconsistent",
                f"{where}: the card drawn is no longer in the hand", R_MANUAL)
        tx.emit(CardReturned(seat=la.seat, card=la.card or ""))
    elif la.verb == "get_a_jump":
        tx.emit(SceneHeroRestored(seat=la.seat, hero=la.hero))
    else:
        top = s.pending[0] if s.pending else None
        if top is not None and top.step == "lead_move" and top.lead == la.lead:
            tx.emit(Popped(step="lead_move"), Popped(step="lead_use"))
        elif top is not None and top.step == "lead_use" and top.lead == la.lead:
            tx.emit(LeadMoved(lead=la.lead or "", to=la.location or "", by=la.seat), Popped(step="lead_use"))
        else:
            tx.refuse("manual/inconsistent", f"{where}: {la.lead} has already been moved or used", R_MANUAL)
    from .model import ActionNoted

    tx.emit(ActionNoted(action=None))
