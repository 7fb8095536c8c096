"""Declared (manual) card effects (§4.18): a card whose effect the rules do not print is played as
``manual_effect``, the player stating its changes as deltas. Each delta is checked against the state
the previous ones left (``effect_inconsistent`` names the delta), a region left holding two empires
fights at once, and the entry is flagged for audit (and as a rule deviation where the deltas do what
the rules would not). A delta taking a card from another seat's hand waits for that seat to confirm
it (:func:`confirmer`).
"""

from __future__ import annotations

from typing import Any

from schemas import ARBITER

from .codes import Code
from .combat import fight, fort_strikes
from .data import EMPIRES
from .fold import Zones, is_position
from .model import (
    AuditFlagRaised,
    BannersDelta,
    CardResolved,
    DiscardDelta,
    DrawDelta,
    FortTriggered,
    ManualEffect,
    ManualEffectApplied,
    MoveAgentDelta,
    State,
    TransferCardDelta,
)
from .queries import Queries
from .txn import R_MANUAL, Tx


def confirmer(rules: Queries, state: State, seat: str, intent: Any) -> str | None:
    """A declared effect that discards or passes on a card from another seat's hand waits for that
    seat (or the arbiter, when it reads two hands) to confirm it: whether the card is there is that
    seat's secret."""
    if not isinstance(intent, ManualEffect):
        return None
    actor = intent.player or seat
    who = {d.player for d in intent.deltas if isinstance(d, DiscardDelta) and d.player != actor}
    who |= {d.from_player for d in intent.deltas if isinstance(d, TransferCardDelta) and d.from_player != actor}
    if not who:
        return None
    return who.pop() if len(who) == 1 else ARBITER


def manual_effect(tx: Tx, intent: ManualEffect) -> None:
    rules = tx.rules
    s = tx.state
    c = s.cursor
    # 1
    awaiting = (s.phase == "EMPIRE_PHASE" and c is not None and c.resolving_kind == "manual"
                and c.resolving_card == intent.card and tx.seat == c.acting_player)
    if not awaiting:
        if c is not None and c.resolving_kind == "manual" and s.phase == "EMPIRE_PHASE":
            msg = f"{c.acting_player}'s {c.resolving_card} awaits its declaration, not {tx.seat}'s {intent.card}"
        else:
            msg = f"no manual card effect of {tx.seat} awaits a declaration ({intent.card})"
        tx.fail(Code.NO_CARD_WINDOW, msg, R_MANUAL)
    assert c is not None
    # 2
    zones = Zones(s, rules.counted)
    before_control = {r: rules.control(s, r) for r in rules.board.region_ids}
    deviation = False
    for i, d in enumerate(intent.deltas, start=1):
        if isinstance(d, BannersDelta) and d.delta > 0:
            now = rules.control_of(zones.banners[d.region], d.region, c)
            if now != d.empire:
                deviation = True
        if isinstance(d, MoveAgentDelta) and (not is_position(d.from_) or not is_position(d.to)):
            deviation = True
        if isinstance(d, DrawDelta) and not rules.counted and d.card in EMPIRES:
            tx.fail(Code.EFFECT_INCONSISTENT, f"delta {i}: name the card drawn (an id of the {d.card} deck)", R_MANUAL)
        why = zones.apply(d)
        if why:
            tx.fail(Code.EFFECT_INCONSISTENT, f"delta {i}: {why}", R_MANUAL)
    pending_region = c.combat.region if c.combat else None
    fights = []
    for r in rules.board.region_ids:
        cols = [e for e in EMPIRES if zones.banners[r][e] > 0]
        if len(cols) > 2:
            tx.fail(Code.EFFECT_INCONSISTENT, f"after the deltas {r} would hold banners of "
                    f"{len(cols)} empires ({', '.join(cols)}); at most two", R_MANUAL)
        if len(cols) == 2 and r != pending_region:
            fights.append((r, cols))
    for r, owner in before_control.items():
        if owner is not None and rules.home(r) != owner and zones.banners[r][owner] == 0:
            deviation = True
    # effects
    tx.emit(ManualEffectApplied(player=tx.seat, card=intent.card, description=intent.description, deltas=intent.deltas))
    for r, cols in fights:
        prev = before_control[r]
        if prev in cols:
            defender: str | None = prev
        elif rules.home(r) in cols:
            defender = rules.home(r)
        else:
            defender = cols[0]
        attacker = next(e for e in cols if e != defender)
        fort = False
        a_in = tx.state.banners[r][attacker]
        if fort_strikes(rules, r, attacker):
            tx.emit(FortTriggered(region=r, empire=attacker))
            fort = True
        fight(tx, r, attacker, defender, a_in, tx.state.banners[r][attacker], fort, annihilation=False, pending=False)
    tx.emit(AuditFlagRaised(kind="manual_effect", card=intent.card))
    if deviation:
        tx.emit(AuditFlagRaised(kind="rule_deviation", card=intent.card))
    tx.emit(CardResolved(card=intent.card))
    tx.manual = True

