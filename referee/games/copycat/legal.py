"""Legal intents (hints, fuzzing, the property tests): candidates for the seat in the current phase,
each kept only if the deciders accept it. In a physical match the chance facts are filled with a
consistent example (the first cards by id); in a digital one they are left out for the referee to draw.

Not every legal intent is listed (a Donations payment has many splits): the list holds, for each
card and office, a plain use of it, enough for play to go on to the end of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .decide import attempt
from .effects import PENDING, usable
from .model import (
    ActivateCard, Buy, ChooseOrderCard, Cleanup, DrawHand, EffectArgs, EndTurn, LayDown, Pass, PlaceWorker, PlayCard,
    Setup, State, UseOffice,
)
from .txn import BoundRules, first_chooser


def _args_for(rules: BoundRules, kind: str, hand: tuple[str, ...], play_area: tuple[str, ...]) -> list[EffectArgs | None]:
    if kind in ("card_exchange", "trash_for_worker", "trash_for_coins"):
        return [EffectArgs(cards=(c,)) for c in hand[:1]]
    if kind == "donations":
        pay = tuple(c for c in hand if rules.cards[c].kind == "gain_coins")
        return [EffectArgs(pay_cards=pay)] if pay else []
    if kind == "coin_or_vp":
        return [EffectArgs(choice="coin"), EffectArgs(choice="vp")]
    if kind == "reuse_card" or kind == "copy_card":
        return [EffectArgs(target_card=c, then=EffectArgs(choice="vp")) for c in dict.fromkeys(play_area)]
    if kind == "manual":
        return []
    return [None]


def candidates(rules: BoundRules, state: State, seat: str) -> list[Any]:
    phase = state.phase
    if phase == "setup":
        n = len(rules.players)
        street = rules.data.street_2p if n == 2 else rules.data.street
        doctors = tuple(sorted(c.id for c in rules.cards.values() if c.stage == "V")[:n])
        return [Setup(street=street, doctorates=doctors, first_office=rules.data.first_office, bus=rules.players)]
    if phase == "cleanup":
        return [Cleanup()]
    if seat not in state.players:  # the table (no seat) only sets up and cleans up
        return []
    p = state.players[seat]
    if phase == "planning":
        if not p.drawn_this_round:
            return [DrawHand()]
        if not p.order_chosen:
            return [ChooseOrderCard(card=c) for c in dict.fromkeys(p.hand)] or [ChooseOrderCard()]
        return []
    if state.current != seat:
        return []
    out: list[Any] = []
    if phase == "actions":
        out += [PlaceWorker(office=o) for o in sorted(state.offices)]
        for cid in dict.fromkeys(p.hand):
            card = rules.cards[cid]
            if usable(card.kind, card.color, 2):
                rest = tuple(c for c in p.hand if c != cid)
                out += [PlayCard(card=cid, args=a) for a in _args_for(rules, card.kind, rest, p.play_area)]
        for oid in state.turn.placed:
            office = rules.offices[oid]
            out += [UseOffice(office=oid, args=a) for a in _args_for(rules, office.kind, p.hand, p.play_area)]
        out += [Pass(), EndTurn()]
        return out
    if phase == "buying":
        if not p.laid_down:
            choices = {c: "coin" for c in p.hand if rules.cards[c].kind == "coin_or_vp"}
            out.append(LayDown(choices=choices))
            for oid, o in sorted(state.offices.items()):
                if seat in o.workers and rules.offices[oid].kind == "trash_for_coins":
                    out += [UseOffice(office=oid, args=EffectArgs(cards=(c,))) for c in dict.fromkeys(p.hand)]
            return out
        for oid, o in sorted(state.offices.items()):
            if seat in o.workers:
                office = rules.offices[oid]
                out += [UseOffice(office=oid, args=a) for a in _args_for(rules, office.kind, p.hand, p.play_area)]
        for cid in dict.fromkeys(p.play_area):
            card = rules.cards[cid]
            if card.kind in PENDING and p.card_uses.get(cid, 0) == 0:
                if card.kind == "reuse_office":
                    out += [ActivateCard(card=cid, args=EffectArgs(target_office=o)) for o, off in sorted(state.offices.items())
                            if seat in off.workers]
                else:
                    out += [ActivateCard(card=cid, args=a) for a in _args_for(rules, card.kind, p.hand, p.play_area)]
        if p.buys_left > 0:
            for slot, held in ((str(n), state.street.get(str(n))) for n in range(1, 12)):
                if held is not None:
                    if rules.cards[held].kind == "coins_to_vp":
                        out += [Buy(slot=int(slot), spend=0), Buy(slot=int(slot), spend=max(0, _coins(p) - 2))]
                    else:
                        out.append(Buy(slot=int(slot)))
        out.append(EndTurn())
    return out


def _coins(p: Any) -> int:
    return int(p.coins.doublable * (1 + p.coin_doublings) + p.coins.plain - p.coins.spent)


def legal_intents(rules: BoundRules, state: State, seat: str) -> Sequence[Any]:
    if state.phase == "game_over":
        return []
    digital = rules.config.chance == "digital"
    out = []
    for intent in candidates(rules, state, seat):
        if digital and isinstance(intent, Setup):
            intent = Setup()
        if isinstance(intent, Setup) and not digital:  # the baseline facts, typed
            if attempt(rules, state, seat, intent)[1] is None:
                out.append(intent)
            continue
        tx, refusal = attempt(rules, state, seat, intent, fill=first_chooser)
        if refusal is not None:
            continue
        out.append(intent if digital else rules.fill(state, seat, intent, first_chooser))
    return out
