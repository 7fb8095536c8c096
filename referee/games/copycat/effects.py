"""Cards and offices at work: ``play_card`` (§4.4), ``use_office`` (§4.5), ``lay_down`` (§4.8),
``activate_card`` (§4.9), ``buy`` (§4.10) and the effect kinds of §4.13, with their checks in the
spec's order. An effect runs in a context: the phase (2 or 3), ``dup`` (a copy, a re-use or a second
office use: its coins are not doubled) and the copy chain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine.codes import TurnCode

from .codes import Code
from .data import unknown_card, unknown_office
from .model import (
    ActivateCard, Bought, Buy, CardPending, CardsKept, CardsMoved, CardUsed, CardUsedAgain, CoinsGained, Doubled,
    EffectArgs, ElbowPermitsGained, FreePlacementGained, HandLaidDown, LayDown, OfficeUsed, PlacementsGained, PlayCard,
    PurchaseDue, PurchasesGained, StreetShifted, TurnActed, UseOffice, VpGained, WorkersRecruited,
)
from .txn import R_ACTIVATE, R_BUY, R_EFFECT, R_LAY, R_LIMIT, R_OFFICE, R_PLAY, Tx

if TYPE_CHECKING:
    from .data import Card, OfficeCard

NO_ARGS = EffectArgs()
PHASE2_KINDS = frozenset({"gain_workers", "trash_for_worker", "extra_placement", "elbow_placement", "draw_cards",
                          "donations", "card_exchange", "reuse_card", "reuse_office", "copy_card"})
PHASE3_KINDS = frozenset({"gain_coins", "double_coins", "trash_for_coins", "buy", "special_buy", "gain_vp",
                          "double_tokens", "coins_to_vp", "coin_or_vp", "reuse_card", "reuse_office", "copy_card",
                          "keep_cards"})
MANUAL_COLORS = {2: frozenset({"purple", "blue", "gray"}), 3: frozenset({"yellow", "green", "yellow_green", "gray"})}
#: card kinds a laid-down card leaves pending, for activate_card
PENDING = frozenset({"coin_or_vp", "copy_card", "reuse_office", "reuse_card", "manual"})


def usable(kind: str, color: str, phase: int) -> bool:
    if kind == "manual":
        return color in MANUAL_COLORS[phase]
    return kind in (PHASE2_KINDS if phase == 2 else PHASE3_KINDS)


def phase_no(tx: Tx) -> int:
    return 2 if tx.st.phase == "actions" else 3


def check_turn(tx: Tx) -> None:
    if tx.st.current != tx.seat:
        tx.fail(TurnCode.NOT_YOUR_TURN, f"it is {tx.st.current or 'nobody'}'s turn, not {tx.seat}'s", R_PLAY)


def card_of(tx: Tx, card: str, rule: str) -> Card:
    found = tx.rules.cards.get(card)
    if found is None:
        tx.fail(Code.UNKNOWN_CARD, unknown_card(tx.rules.cards, card), rule)
    return found


def office_of(tx: Tx, office: str, rule: str) -> OfficeCard:
    found = tx.rules.offices.get(office)
    if found is None:
        tx.fail(Code.UNKNOWN_OFFICE, unknown_office(tx.rules.offices, office), rule)
    return found


# -- the intents -------------------------------------------------------------------------------------------


def play_card(tx: Tx, intent: PlayCard) -> None:
    tx.require(tx.st.phase == "actions", Code.WRONG_PHASE, f"cards are played in the actions phase, not in {tx.st.phase} "
               "(in buying they are laid down)", R_PLAY)
    check_turn(tx)
    card = card_of(tx, intent.card, R_PLAY)
    p = tx.st.players[tx.seat]
    tx.require(intent.card in p.hand, Code.CARD_NOT_IN_HAND, f"{intent.card} is not in {tx.seat}'s hand", R_PLAY)
    tx.check(usable(card.kind, card.color, 2), Code.CARD_WRONG_PHASE,
             f"{intent.card} ({card.color}, {card.kind}) cannot be played in the actions phase", R_PLAY)
    tx.emit(CardsMoved(seat=tx.seat, cards=(intent.card,), from_="hand", to="play_area"),
            CardUsed(seat=tx.seat, card=intent.card), TurnActed())
    effect(tx, card.kind, card.n, card.color, intent.args or NO_ARGS, 2, False, frozenset({intent.card}), "args")


def use_office(tx: Tx, intent: UseOffice) -> None:
    st = tx.st
    tx.require(st.phase in ("actions", "buying"), Code.WRONG_PHASE, f"offices are used in actions or buying, not in {st.phase}",
               R_OFFICE)
    check_turn(tx)
    office = office_of(tx, intent.office, R_OFFICE)
    o = st.offices.get(intent.office)
    tx.require(o is not None and tx.seat in o.workers, Code.OFFICE_NOT_YOURS,
               f"{tx.seat} has no worker on {intent.office}", R_OFFICE)
    assert o is not None
    phase = phase_no(tx)
    if phase == 2:
        ok = office.kind in ("draw_cards", "card_exchange", "reuse_card") or (
            office.kind == "manual" and office.color in ("blue", "gray"))
    else:
        ok = office.kind not in ("draw_cards", "card_exchange") and not (
            office.kind == "manual" and office.color in ("blue", "purple"))
    tx.check(ok, Code.OFFICE_WRONG_PHASE, f"{intent.office} ({office.kind}) does not act in the "
             f"{'actions' if phase == 2 else 'buying'} phase", R_OFFICE)
    if phase == 2 and not tx.rules.options["phase2_office_use_any_turn"]:
        tx.check(intent.office in st.turn.placed, Code.OFFICE_NOT_PLACED_THIS_TURN,
                 f"{tx.seat}'s worker came to {intent.office} in an earlier turn; in the actions phase an office acts "
                 "in the turn of its placement", R_OFFICE)
    tx.check(o.uses.get(tx.seat, 0) < 1, Code.OFFICE_ALREADY_USED,
             f"{tx.seat} has used {intent.office} this round (a second use needs Team Bonus)", R_OFFICE)
    tx.emit(OfficeUsed(seat=tx.seat, office=intent.office, times=1))
    if phase == 2:
        tx.emit(TurnActed())
    office_effect(tx, office, intent.args or NO_ARGS, phase, False, "args")


def lay_down(tx: Tx, intent: LayDown) -> None:
    st = tx.st
    tx.require(st.phase == "buying", Code.WRONG_PHASE, f"cards are laid down in the buying phase, not in {st.phase}", R_LAY)
    check_turn(tx)
    p = st.players[tx.seat]
    tx.check(not p.laid_down, Code.ALREADY_LAID_DOWN, f"{tx.seat} has laid down this turn", R_LAY)
    hand = list(p.hand)
    for card in (*intent.keep, *intent.choices):
        if card not in tx.rules.cards:
            tx.fail(Code.UNKNOWN_CARD, "a card named in keep or choices is not a card of this match", R_LAY)
    for card in intent.keep:
        if card not in hand:
            tx.fail(Code.CARD_NOT_IN_HAND, f"a card to keep is not in {tx.seat}'s hand", R_LAY)
        hand.remove(card)
    for card in intent.choices:
        if card not in p.hand:
            tx.fail(Code.CARD_NOT_IN_HAND, f"{card} (choices) is not in {tx.seat}'s hand", R_LAY)
    cards = tx.rules.cards
    if intent.keep:
        tx.check(any(cards[c].kind == "keep_cards" for c in hand), Code.KEEP_NOT_ALLOWED,
                 "cards may be kept only when a Brainstorming card is laid down", R_LAY)
    for card, value in intent.choices.items():
        if cards[card].kind != "coin_or_vp" or card in intent.keep or value not in ("coin", "vp"):
            tx.fail(Code.INVALID_CHOICE, f"choices.{card}={value}: a choice is coin or vp, for a laid-down coin-or-VP card",
                    R_LAY)
    if intent.keep:
        tx.emit(CardsKept(seat=tx.seat, cards=tuple(sorted(intent.keep))))
    if hand:
        tx.emit(CardsMoved(seat=tx.seat, cards=tuple(sorted(hand)), from_="hand", to="play_area"))
    tx.emit(HandLaidDown(seat=tx.seat))
    if tx.rules.options["donation_cards_count_in_phase3"]:  # §7 A16, the literal reading
        for cid in p.play_area:
            paid = cards[cid]
            if paid.kind in ("gain_coins", "coin_or_vp"):
                coins(tx, paid.n if paid.kind == "gain_coins" else 1, False)
    for cid in sorted(hand):
        laid = cards[cid]
        kind = laid.kind
        if kind in ("gain_coins", "gain_vp", "double_coins", "double_tokens", "keep_cards") or (
                kind == "coin_or_vp" and cid in intent.choices):
            tx.emit(CardUsed(seat=tx.seat, card=cid))
            if kind == "coin_or_vp":
                effect(tx, kind, 0, laid.color, EffectArgs(choice=intent.choices[cid]), 3, False, frozenset({cid}), "")
            elif kind != "keep_cards":
                effect(tx, kind, laid.n, laid.color, NO_ARGS, 3, False, frozenset({cid}), "", automatic=True)
        else:  # pending (a choice to make) or confiscated (blue, purple, red): not used yet
            tx.emit(CardPending(seat=tx.seat, card=cid))


def activate_card(tx: Tx, intent: ActivateCard) -> None:
    st = tx.st
    tx.require(st.phase == "buying", Code.WRONG_PHASE, f"laid-down cards are activated in buying, not in {st.phase}",
               R_ACTIVATE)
    check_turn(tx)
    p = st.players[tx.seat]
    tx.check(p.laid_down, Code.LAY_DOWN_REQUIRED, f"{tx.seat} lays down the hand first", R_ACTIVATE)
    card = card_of(tx, intent.card, R_ACTIVATE)
    tx.require(intent.card in p.play_area, Code.CARD_NOT_IN_PLAY_AREA, f"{intent.card} is not in {tx.seat}'s play area",
               R_ACTIVATE)
    tx.check(p.card_uses.get(intent.card, 0) < 1, Code.CARD_ALREADY_ACTIVATED, f"{intent.card} has acted this round",
             R_ACTIVATE)
    tx.check(card.kind in PENDING and usable(card.kind, card.color, 3), Code.NO_USABLE_EFFECT,
             f"{intent.card} ({card.kind}) has nothing to activate in the buying phase", R_ACTIVATE)
    tx.emit(CardUsed(seat=tx.seat, card=intent.card))
    effect(tx, card.kind, card.n, card.color, intent.args or NO_ARGS, 3, False, frozenset({intent.card}), "args")


def buy(tx: Tx, intent: Buy) -> None:
    st = tx.st
    tx.require(st.phase == "buying", Code.WRONG_PHASE, f"cards are bought in the buying phase, not in {st.phase}", R_BUY)
    check_turn(tx)
    p = st.players[tx.seat]
    if tx.rules.options["lay_down_before_buy"]:  # §7 A40 (false: buy with the coins so far)
        tx.check(p.laid_down, Code.LAY_DOWN_REQUIRED, f"{tx.seat} lays down the hand before buying", R_BUY)
    tx.check(p.buys_left > 0, Code.NO_BUY_AVAILABLE, f"{tx.seat} has no purchase left (a purchase permit office gives them)",
             R_BUY)
    tx.require(1 <= intent.slot <= 11, Code.INVALID_SLOT, f"the street has slots 1 to 11, not {intent.slot}", R_BUY)
    cid = st.street.get(str(intent.slot))
    tx.require(cid is not None, Code.SLOT_EMPTY, f"street slot {intent.slot} is empty", R_BUY)
    assert cid is not None
    if intent.card is not None:
        tx.require(intent.card == cid, Code.SLOT_MISMATCH, f"street slot {intent.slot} holds {cid}, not {intent.card}", R_BUY)
    card = tx.rules.cards[cid]
    tx.check(card.color != "red", Code.CARD_NOT_BUYABLE, f"{cid} is a red card: it comes only with a purchase to its right",
             R_BUY)
    doctorate = card.kind == "coins_to_vp"
    spend = 0
    if doctorate:
        tx.check(intent.spend is not None, Code.SPEND_REQUIRED, f"{cid} is a doctorate: say how many coins go to VP (spend=N)",
                 R_BUY)
        spend = intent.spend or 0
        least = int(tx.rules.options["doctorate_min_spend"])
        tx.check(spend >= least and spend >= 0, Code.INVALID_AMOUNT, f"spend must be at least {least}, not {spend}", R_BUY)
    else:
        tx.check(intent.spend is None, Code.SPEND_NOT_ALLOWED, f"{cid} is not a doctorate: no spend", R_BUY)
    cost = int(tx.rules.options["doctorate_cost"]) if doctorate else card.cost
    price = cost + surcharge(intent.slot)
    have = available(p)
    tx.check(price + spend <= have, Code.NOT_ENOUGH_COINS,
             f"{cid} in slot {intent.slot} costs {price}{f' + {spend}' if spend else ''}; {tx.seat} has {have} coins", R_BUY)
    reds = tuple(c for s in range(1, intent.slot) if (c := st.street.get(str(s))) is not None
                 and tx.rules.cards[c].color == "red")
    # (a purchase that was due, special_buy_deferred=false, is this one: Bought says so)
    tx.emit(Bought(seat=tx.seat, slot=intent.slot, card=cid, price=price, spend=spend, reds=reds))


def surcharge(slot: int) -> int:
    return 0 if slot <= 4 else 1 if slot <= 8 else 2


def available(p: object) -> int:
    from .model import Player

    assert isinstance(p, Player)
    return p.coins.doublable * (1 + p.coin_doublings) + p.coins.plain - p.coins.spent


# -- effects (§4.13) -----------------------------------------------------------------------------------------


def office_effect(tx: Tx, office: OfficeCard, args: EffectArgs, phase: int, dup: bool, path: str) -> None:
    if office.kind == "reuse_card":
        reuse_card(tx, args, phase, path)
    else:
        effect(tx, office.kind, office.n, office.color, args, phase, dup, frozenset(), path)


def sub(path: str, field: str) -> str:
    return f"{path}.{field}" if path else field


def effect(tx: Tx, kind: str, n: int, color: str, args: EffectArgs, phase: int, dup: bool,
           chain: frozenset[str], path: str, automatic: bool = False) -> None:
    seat = tx.seat
    st = tx.st
    p = st.players[seat]
    opts = tx.rules.options
    if kind == "gain_workers":
        count = n if args.count is None else args.count
        tx.check(0 <= count <= n, Code.INVALID_AMOUNT, f"count must be 0 to {n}, not {count}", R_EFFECT)
        gain = max(0, min(count, st.worker_supply.get(seat, 0), int(opts["max_extra_workers"]) - p.extra_workers))
        tx.check(count == 0 or gain > 0, Code.WORKER_CAP_REACHED,
                 f"{seat} cannot recruit more workers this round ({p.extra_workers} extra, "
                 f"{st.worker_supply.get(seat, 0)} in the supply)", R_EFFECT)
        recruit(tx, gain)
    elif kind == "trash_for_worker":
        tx.check(len(args.cards) == 1, Code.TRASH_TARGET_REQUIRED, "name exactly one hand card to remove (args.cards=ID)",
                 R_EFFECT)
        card = args.cards[0]
        card_of(tx, card, R_EFFECT)
        tx.require(card in p.hand, Code.CARD_NOT_IN_HAND, f"{card} is not in {seat}'s hand", R_EFFECT)
        can = min(1, st.worker_supply.get(seat, 0), int(opts["max_extra_workers"]) - p.extra_workers)
        tx.check(can > 0, Code.WORKER_CAP_REACHED, f"{seat} cannot recruit more workers this round", R_EFFECT)
        tx.emit(CardsMoved(seat=seat, cards=(card,), from_="hand", to="box"))
        recruit(tx, max(0, can))
    elif kind == "extra_placement":
        tx.emit(PlacementsGained(count=1))
    elif kind == "elbow_placement":
        tx.emit(ElbowPermitsGained(count=1))
        if opts["elbows_mode"] == "extra_placement":
            tx.emit(PlacementsGained(count=1))
    elif kind == "draw_cards":
        count = n if args.count is None else args.count
        tx.check(0 <= count <= n, Code.INVALID_AMOUNT, f"count must be 0 to {n}, not {count}", R_EFFECT)
        tx.draw_own(seat, count, args.drawn, sub(path, "drawn"), R_EFFECT)
    elif kind == "donations":
        donations(tx, args, path)
    elif kind == "card_exchange":
        tx.check(len(args.cards) > 0, Code.NOTHING_SELECTED, "name the hand cards to exchange (args.cards=...)", R_EFFECT)
        tx.check(len(args.cards) <= n, Code.TOO_MANY_CARDS, f"at most {n} cards are exchanged, not {len(args.cards)}", R_EFFECT)
        hand = list(p.hand)
        for card in args.cards:
            card_of(tx, card, R_EFFECT)
            tx.require(card in hand, Code.CARD_NOT_IN_HAND, f"{card} is not in {seat}'s hand", R_EFFECT)
            hand.remove(card)
        tx.emit(CardsMoved(seat=seat, cards=tuple(sorted(args.cards)), from_="hand", to="temp_discard"))
        tx.draw_own(seat, len(args.cards), args.drawn, sub(path, "drawn"), R_EFFECT)
    elif kind == "gain_coins":
        coins(tx, n, dup)
    elif kind in ("double_coins", "double_tokens"):
        what = "coins" if kind == "double_coins" else "tokens"
        done = p.coin_doublings if what == "coins" else p.token_doublings
        cap = int(opts["doubling_cap"])
        if done >= cap and not automatic and opts["explicit_third_doubling"] == "reject":
            tx.fail(Code.DOUBLING_CAP_REACHED, f"{seat} has doubled {what} {cap} times this round", R_LIMIT)
        tx.emit(Doubled(seat=seat, what=what, capped=done >= cap))
    elif kind == "trash_for_coins":
        tx.check(not p.laid_down, Code.ALREADY_LAID_DOWN, "cards to get rid of come from the hand, before lay-down", R_EFFECT)
        tx.check(len(args.cards) > 0, Code.NOTHING_SELECTED, "name the hand cards to get rid of (args.cards=...)", R_EFFECT)
        tx.check(len(args.cards) <= n, Code.TOO_MANY_CARDS, f"at most {n} cards, not {len(args.cards)}", R_EFFECT)
        hand = list(p.hand)
        for card in args.cards:
            card_of(tx, card, R_EFFECT)
            tx.require(card in hand, Code.CARD_NOT_IN_HAND, f"{card} is not in {seat}'s hand", R_EFFECT)
            hand.remove(card)
        tx.emit(CardsMoved(seat=seat, cards=tuple(sorted(args.cards)), from_="hand", to="box"))
        coins(tx, len(args.cards), dup)
    elif kind == "buy":
        tx.emit(PurchasesGained(seat=seat, count=n))
    elif kind == "special_buy":
        filled = sum(1 for v in st.street.values() if v is not None)
        refill = tx.supply_facts(sub(path, "refill"), args.refill, 11 - filled, R_EFFECT)
        tx.emit(StreetShifted(refill=refill), PurchasesGained(seat=seat, count=1))
        if not opts["special_buy_deferred"]:  # §7 A36, false: the purchase is the seat's next move or lost
            tx.emit(PurchaseDue())
    elif kind == "gain_vp":
        tx.emit(VpGained(seat=seat, vp=n))
    elif kind == "coin_or_vp":
        tx.require(args.choice is not None, Code.CHOICE_REQUIRED, "choose coin or vp (args.choice=coin|vp)", R_EFFECT)
        tx.check(args.choice in ("coin", "vp"), Code.INVALID_CHOICE, f"the choice is coin or vp, not {args.choice!r}", R_EFFECT)
        if args.choice == "vp":
            tx.emit(VpGained(seat=seat, vp=2))
        else:
            coins(tx, 1, dup)
    elif kind == "reuse_card":
        reuse_card(tx, args, phase, path)
    elif kind == "copy_card":
        copy_card(tx, args, phase, chain, path)
    elif kind == "reuse_office" and opts["team_bonus_mode"] == "free_placement":  # §7 A18, the other reading
        tx.check(phase == 2, Code.NO_USABLE_EFFECT, "Team Bonus gives a placement: it acts in the actions phase only",
                 R_EFFECT)
        tx.emit(FreePlacementGained())
    elif kind == "reuse_office":
        reuse_office(tx, args, phase, path)
    elif kind == "manual":
        from .manual import declared

        declared(tx, args)
    else:  # keep_cards, coins_to_vp, none: nothing to do as an effect of their own
        tx.fail(Code.NO_USABLE_EFFECT, f"{kind} has no effect to use here", R_EFFECT)


def recruit(tx: Tx, gain: int) -> None:
    if gain:
        tx.emit(WorkersRecruited(seat=tx.seat, count=gain))


def coins(tx: Tx, n: int, dup: bool) -> None:
    plain = dup and not tx.rules.options["duplicate_coins_doublable"]
    tx.emit(CoinsGained(seat=tx.seat, coins=n, doublable=not plain))


def donations(tx: Tx, args: EffectArgs, path: str) -> None:
    """Donations (§4.13, §5.4): pay with hand money cards and unused offices, draw a card per coin. With
    ``donation_payment_offices`` naming ``trash_for_coins`` such an office pays 1 coin for each hand card
    named in ``args.cards`` (up to its maximum); with ``garden_party_in_phase2`` a Garden party among the
    pay cards adds the rest of the payment once more (at most ``doubling_cap`` of them)."""
    seat, st, opts = tx.seat, tx.st, tx.rules.options
    p = st.players[seat]
    paid = 0
    parties = []
    hand = list(p.hand)
    for cid in args.pay_cards:
        card = card_of(tx, cid, R_EFFECT)
        tx.require(cid in hand, Code.CARD_NOT_IN_HAND, f"{cid} (pay_cards) is not in {seat}'s hand", R_EFFECT)
        hand.remove(cid)
        if card.kind == "double_coins" and opts["garden_party_in_phase2"]:
            parties.append(cid)
            continue
        tx.check(card.kind in ("gain_coins", "coin_or_vp"), Code.NOT_A_COIN_SOURCE, f"{cid} ({card.kind}) pays no coins",
                 R_EFFECT)
        paid += card.n if card.kind == "gain_coins" else 1
    kinds = tuple(opts["donation_payment_offices"])
    trash_max = 0
    for oid in args.pay_offices:
        office = office_of(tx, oid, R_EFFECT)
        tx.check(office.kind in kinds, Code.NOT_A_COIN_SOURCE, f"{oid} ({office.kind}) pays no coins for Donations", R_EFFECT)
        o = st.offices.get(oid)
        tx.require(o is not None and seat in o.workers, Code.OFFICE_NOT_YOURS, f"{seat} has no worker on {oid}", R_EFFECT)
        assert o is not None
        tx.check(o.uses.get(seat, 0) < 1, Code.OFFICE_ALREADY_USED, f"{seat} has used {oid} this round", R_EFFECT)
        if office.kind == "trash_for_coins":
            trash_max += office.n
        else:
            paid += office.n
    if trash_max:
        tx.check(len(args.cards) > 0, Code.NOTHING_SELECTED, "name the hand cards the get-rid office takes (args.cards=...)",
                 R_EFFECT)
        tx.check(len(args.cards) <= trash_max, Code.TOO_MANY_CARDS, f"the get-rid offices take at most {trash_max} cards, "
                 f"not {len(args.cards)}", R_EFFECT)
        for cid in args.cards:
            card_of(tx, cid, R_EFFECT)
            tx.require(cid in hand, Code.CARD_NOT_IN_HAND, f"{cid} (cards) is not in {seat}'s hand", R_EFFECT)
            hand.remove(cid)
        paid += len(args.cards)
    if parties:
        cap = int(opts["doubling_cap"])
        tx.check(len(parties) <= cap, Code.DOUBLING_CAP_REACHED, f"at most {cap} Garden parties double one payment",
                 R_LIMIT)
        paid *= 1 + len(parties)
    count = paid if args.count is None else args.count
    tx.check(0 <= count <= paid, Code.NOT_ENOUGH_COINS, f"{count} cards need {count} coins; {seat} pays {paid}", R_EFFECT)
    if args.pay_cards:
        tx.emit(CardsMoved(seat=seat, cards=tuple(sorted(args.pay_cards)), from_="hand", to="play_area"))
        for cid in args.pay_cards:
            tx.emit(CardUsed(seat=seat, card=cid))
    if trash_max:
        tx.emit(CardsMoved(seat=seat, cards=tuple(sorted(args.cards)), from_="hand", to="box"))
    for oid in args.pay_offices:
        tx.emit(OfficeUsed(seat=seat, office=oid, times=1))
    tx.draw_own(seat, count, args.drawn, sub(path, "drawn"), R_EFFECT)


def _target_checks(tx: Tx, target: str, phase: int) -> Card:
    """A copy's or re-use's target (already known to be in the play area): uses and kind."""
    p = tx.st.players[tx.seat]
    card = tx.rules.cards[target]
    limit = int(tx.rules.options["card_use_limit"])
    tx.check(p.card_uses.get(target, 0) < limit, Code.CARD_USE_LIMIT, f"{target} has been used {limit} times this round",
             R_LIMIT)
    pointless = not usable(card.kind, card.color, phase) or card.kind in ("keep_cards", "none", "coins_to_vp")
    if pointless and tx.rules.options["reject_pointless_targets"]:
        tx.fail(Code.NO_USABLE_EFFECT, f"{target} ({card.kind}) has no effect to repeat in this phase", R_EFFECT)
    if card.kind in ("double_coins", "double_tokens") and tx.rules.options["explicit_third_doubling"] == "reject":
        field = "coin_doublings" if card.kind == "double_coins" else "token_doublings"
        cap = int(tx.rules.options["doubling_cap"])
        tx.check(getattr(p, field) < cap, Code.DOUBLING_CAP_REACHED, f"{tx.seat} has doubled {cap} times this round", R_LIMIT)
    return card


def reuse_card(tx: Tx, args: EffectArgs, phase: int, path: str) -> None:
    target = args.target_card
    tx.require(target is not None, Code.TARGET_REQUIRED, "name the card to use again (args.target_card=ID)", R_EFFECT)
    assert target is not None
    card_of(tx, target, R_EFFECT)
    tx.require(target in tx.st.players[tx.seat].play_area, Code.CARD_NOT_IN_PLAY_AREA,
               f"{target} is not in {tx.seat}'s play area", R_EFFECT)
    card = _target_checks(tx, target, phase)
    tx.emit(CardUsedAgain(seat=tx.seat, card=target))
    if usable(card.kind, card.color, phase) and card.kind not in ("keep_cards", "none", "coins_to_vp"):
        effect(tx, card.kind, card.n, card.color, args.then or NO_ARGS, phase, True, frozenset({target}), sub(path, "then"))
    if target in tx.st.players[tx.seat].play_area:
        to = str(tx.rules.options["reused_card_destination"])  # §7 A33: temp_discard, or box
        tx.emit(CardsMoved(seat=tx.seat, cards=(target,), from_="play_area", to=to))


def copy_card(tx: Tx, args: EffectArgs, phase: int, chain: frozenset[str], path: str) -> None:
    target = args.target_card
    tx.require(target is not None, Code.TARGET_REQUIRED, "name the card to copy (args.target_card=ID)", R_EFFECT)
    assert target is not None
    if not tx.rules.options["press_secretary_self_copy"]:
        tx.require(target not in chain, Code.CANNOT_COPY_SELF, f"{target} is already in this copy chain", R_EFFECT)
    card_of(tx, target, R_EFFECT)
    tx.require(target in tx.st.players[tx.seat].play_area, Code.CARD_NOT_IN_PLAY_AREA,
               f"{target} is not in {tx.seat}'s play area", R_EFFECT)
    card = _target_checks(tx, target, phase)
    tx.emit(CardUsedAgain(seat=tx.seat, card=target))
    if usable(card.kind, card.color, phase) and card.kind not in ("keep_cards", "none", "coins_to_vp"):
        effect(tx, card.kind, card.n, card.color, args.then or NO_ARGS, phase, True, chain | {target}, sub(path, "then"))


def reuse_office(tx: Tx, args: EffectArgs, phase: int, path: str) -> None:
    oid = args.target_office
    tx.require(oid is not None, Code.TARGET_REQUIRED, "name the office to use again (args.target_office=ID)", R_EFFECT)
    assert oid is not None
    office = office_of(tx, oid, R_EFFECT)
    o = tx.st.offices.get(oid)
    tx.require(o is not None and tx.seat in o.workers, Code.OFFICE_NOT_YOURS, f"{tx.seat} has no worker on {oid}", R_EFFECT)
    assert o is not None
    if phase == 2:
        ok = office.kind in ("draw_cards", "card_exchange", "reuse_card") or (
            office.kind == "manual" and office.color in ("blue", "gray"))
    else:
        ok = office.kind not in ("draw_cards", "card_exchange") and not (
            office.kind == "manual" and office.color in ("blue", "purple"))
    if office.kind == "reuse_card" and not tx.rules.options["team_bonus_may_target_reuse_office"]:
        ok = False
    tx.check(ok, Code.OFFICE_WRONG_PHASE, f"{oid} ({office.kind}) cannot act again in this phase", R_EFFECT)
    uses = o.uses.get(tx.seat, 0)
    if tx.rules.options["team_bonus_requires_prior_use"]:
        tx.check(uses >= 1, Code.OFFICE_NOT_YET_USED, f"{tx.seat} has not used {oid} yet this round", R_EFFECT)
    tx.check(uses < 2, Code.OFFICE_USE_LIMIT, f"{tx.seat}'s worker on {oid} has acted twice this round", R_LIMIT)
    tx.emit(OfficeUsed(seat=tx.seat, office=oid, times=uses + 1))
    office_effect(tx, office, args.then or NO_ARGS, phase, True, sub(path, "then"))
