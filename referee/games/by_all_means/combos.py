"""Combinations (rules spec 4.5, 4.6): ``play_digits`` (the digit sums 5-13 and their effects),
``play_symbols`` (two symbol sources, the combination table, the effect's legality and resolution
in :mod:`.effects`) and ``play_neutral``; the repeat rule (the same combination with the same cards
once a turn), the buffer checks (hand cards to buffer, capacity, lilac choices) and the cleanup of
the neutral zone after the effect, or kept in the decision the effect opens.
"""

from __future__ import annotations

from collections import Counter

from msgspec.structs import replace

from .codes import Code
from . import refs
from .agents import limit_after
from .effects import check_effect, resolve_effect
from .fold import get_obj
from .model import ComboKey, ComboPlayed, Pending, PlayDigits, PlayNeutral, PlaySymbols, State, SymbolSpent
from .turn import spend_main
from .txn import Ctx, Txn, face_up_agents

#: the digit sums and their effects (4.6)
DIGIT_EFFECTS = {5: "machinations", 7: "unreliable_pr", 9: "pr_campaign", 11: "big_pr_campaign", 13: "charity"}


def _combo_key(txn: Txn, effect: str, objects: list[tuple[str, int | None]]) -> ComboKey | None:
    """(effect, sorted sources): object ids, new ones for hand cards (A-31)."""
    rule = txn.opts["repeat_rule"]
    if rule == "off":
        return None
    if rule == "effect_and_card_ids":
        return ComboKey(effect=effect, objects=tuple(sorted(c for c, _o in objects)))
    nxt = txn.state.next_oid
    ids = []
    for _c, oid in objects:
        if oid is None:
            ids.append(str(nxt))
            nxt += 1
        else:
            ids.append(str(oid))
    return ComboKey(effect=effect, objects=tuple(sorted(ids, key=lambda x: (len(x), x))))


def _check_repeat(txn: Txn, key: ComboKey | None, what: str) -> None:
    if key is not None and key in txn.state.turn.combos:
        txn.check(False, Code.COMBO_REPEATED, f"{what} was already played with the same cards this turn", "R-BUFFER")


def _buffer_checks(txn: Txn, seat: str, hand_cards: list[str], to_buffer: tuple[str, ...], lilac: tuple[str, ...],
                   placed_by_effect: int, free_before: int) -> None:
    """to_buffer lists hand sources only; capacity after the action (A-41); lilac choices."""
    if to_buffer:
        pool = Counter(hand_cards)
        for cid in to_buffer:
            if not pool[cid] > 0:
                txn.check(False, Code.NOT_FROM_HAND, f"to_buffer={cid}: only this action's hand cards can be buffered", "R-NEUTRAL-ZONE")
            pool[cid] -= 1
    if txn.opts["buffer_capacity_check"] == "after_departures":
        free = len(txn.free_slots(seat))
    else:
        free = free_before - placed_by_effect
    if len(to_buffer) > free:
        txn.check(False, Code.BUFFER_FULL, f"{len(to_buffer)} card(s) to buffer but {seat} has {max(0, free)} free buffer slot(s)", "R-BUFFER")
    if not (to_buffer or lilac):
        return  # no card to buffer, no lilac choice: nothing more to check
    needed: Counter[str] = Counter()
    neutral = txn.ctx.cards.neutral_symbol
    for cid in to_buffer:
        needed[cid] += txn.ctx.card(cid).symbols.count(neutral)
    given = Counter(refs.lilac_choice(txn.ctx, x)[0] for x in lilac)
    for cid in sorted(needed):
        txn.check(given[cid] >= needed[cid], Code.LILAC_CHOICE_REQUIRED,
                  f"{cid} prints {needed[cid]} lilac symbol(s): name the active symbol for each with lilac_as={cid}:SYMBOL",
                  "R-SYMBOLS")
    for x in lilac:
        sym = refs.lilac_choice(txn.ctx, x)[1]
        txn.check(sym in txn.ctx.cards.active_symbols, Code.LILAC_CHOICE_REQUIRED,
                  f"lilac_as {x}: {sym} is not an active symbol ({', '.join(txn.ctx.cards.active_symbols)})", "R-SYMBOLS")


def _finish_combo(txn: Txn, seat: str, to_buffer_cards: tuple[str, ...], lilac: tuple[str, ...],
                  spent: list[tuple[int, str]]) -> None:
    """After the effect: the cleanup now, or, when the effect awaits a decision, kept in it."""
    chosen: tuple[int, ...] = ()
    if to_buffer_cards:
        by_card: dict[str, list[int]] = {}
        for nc in txn.state.neutral_zone.cards:
            if nc.origin == "hand":
                by_card.setdefault(nc.card, []).append(nc.oid)
        chosen = tuple(by_card[cid].pop(0) for cid in to_buffer_cards)
    if txn.deferred is not None:
        txn.open_decision(replace(txn.deferred, to_buffer=chosen, lilac_as=lilac, spent=tuple(spent)))
        return
    txn.cleanup(seat, chosen, lilac, tuple(spent))
    limit_after(txn, seat)


def play_digits(txn: Txn, i: PlayDigits) -> None:
    seat = txn.seat
    spend_main(txn, "R-DIGITS")
    txn.require(len(i.hand) + len(i.buffer) > 0, Code.TOO_FEW_CARDS, "a digit combination needs at least one card", "R-DIGITS")
    txn.require_in_hand(seat, i.hand, "R-DIGITS")
    slots = []
    for slot in i.buffer:
        if not (slot in txn.ctx.slots and txn.player(seat).buffer.get(slot) is not None):
            txn.fail(Code.BUFFER_SLOT_EMPTY, f"{seat}'s {slot} is empty", "R-BUFFER")
        if slot in slots:
            txn.fail(Code.DUPLICATE_SOURCE, f"{slot} is named twice", "R-DIGITS")
        slots.append(slot)
    buf = txn.player(seat).buffer
    cards = [*i.hand, *(buf[s].card for s in slots)]
    total = 0
    for cid in cards:
        digit = txn.ctx.card(cid).digit
        if digit is None:
            txn.fail(Code.NO_DIGIT, f"{cid} has no digit", "R-DIGITS")
        total += digit
    if total not in DIGIT_EFFECTS:
        txn.check(False, Code.DIGIT_SUM_INVALID,
                  f"the digits add up to {total} ({' + '.join(f'{c}:{txn.ctx.card(c).digit}' for c in cards)}); a digit combination makes 5, 7, 9, 11 or 13",
                  "R-DIGITS")
    need = 2 if total == 5 or not txn.opts["single_card_digits"] else 1
    if len(cards) < need:
        txn.check(False, Code.TOO_FEW_CARDS, f"a digit combination of {total} needs at least {need} cards", "R-DIGITS")
    effect = DIGIT_EFFECTS.get(total, "")
    key = _combo_key(txn, f"digits:{total}", [*((c, None) for c in i.hand), *((buf[s].card, buf[s].oid) for s in slots)])
    _check_repeat(txn, key, f"the digit combination {total}")
    if effect == "machinations":
        _machinations_params(txn, seat, i)
    free_before = len(txn.free_slots(seat))
    for cid in i.hand:
        txn.to_neutral(cid, seat, f"{seat}.hand", "hand")
    for s in slots:
        obj = buf[s]
        txn.to_neutral(obj.card, obj.owner, f"{seat}.{s}", "buffer", obj.oid)
    txn.emit(ComboPlayed(seat=seat, kind="digits", effect=effect, key=key))
    _digit_effect(txn, seat, effect, i)
    _buffer_checks(txn, seat, list(i.hand), i.to_buffer, i.lilac_as, 0, free_before)
    _finish_combo(txn, seat, i.to_buffer, i.lilac_as, [])


def _machinations_params(txn: Txn, seat: str, i: PlayDigits) -> None:
    txn.require(i.option is not None, Code.MISSING_EFFECT_PARAM, "machinations (5) needs option=steal or option=move_symbol", "R-DIGITS")
    if i.option != "move_symbol":
        return
    txn.require(i.move_from is not None and i.symbol is not None and i.move_to is not None, Code.MISSING_EFFECT_PARAM,
                "move_symbol needs move_from=OBJECT symbol=SYMBOL move_to=OBJECT", "R-DIGITS")
    src = _field_ref(txn.ctx, str(i.move_from))
    txn.require(src is not None and get_obj(txn.state, src) is not None, Code.BAD_EFFECT_TARGET,
                f"move_from={i.move_from} is not a field object", "R-DIGITS")
    obj = get_obj(txn.state, str(src))
    txn.require(i.symbol in obj.active_symbols, Code.NO_ACTIVE_SYMBOL, f"{obj.card} at {i.move_from} carries no {i.symbol} token", "R-DIGITS")
    dst = _field_ref(txn.ctx, str(i.move_to))
    txn.require(dst is not None and dst != src and get_obj(txn.state, dst) is not None, Code.BAD_EFFECT_TARGET,
                f"move_to={i.move_to} must be another field object", "R-DIGITS")
    if txn.opts["machinations_move_scope"] == "own_objects":
        txn.require(obj.controller == seat and get_obj(txn.state, str(dst)).controller == seat, Code.BAD_EFFECT_TARGET,
                    "option machinations_move_scope=own_objects: both objects must be yours", "R-DIGITS")


def _digit_effect(txn: Txn, seat: str, effect: str, i: PlayDigits) -> None:
    other = txn.ctx.opp(seat)
    if effect == "machinations":
        if i.option == "steal":
            txn.gain(seat, "reputation", 1, "machinations")
            txn.lose(other, "reputation", 1, "machinations")
        else:
            src, dst = _field_ref(txn.ctx, str(i.move_from)), _field_ref(txn.ctx, str(i.move_to))
            a, b = get_obj(txn.state, str(src)), get_obj(txn.state, str(dst))
            moved = list(a.active_symbols)
            moved.remove(str(i.symbol))
            txn.set_tokens(str(src), tuple(moved), "machinations")
            txn.set_tokens(str(dst), tuple(sorted((*b.active_symbols, str(i.symbol)))), "machinations")
    elif effect == "unreliable_pr":
        txn.deferred = Pending(kind="unreliable_pr", decider=other, actor=seat, effect=effect)
    elif effect == "pr_campaign":
        txn.gain(seat, "reputation", 5, "PR campaign")
    elif effect == "big_pr_campaign":
        txn.gain(seat, "reputation", 7, "big PR campaign")
    elif effect == "charity":
        txn.gain(seat, "reputation", 4, "charity")
        txn.gain(seat, "trust", 1, "charity")


def play_symbols(txn: Txn, i: PlaySymbols) -> None:
    seat = txn.seat
    spend_main(txn, "R-SYMBOLS")
    if len(i.use) != 2:
        txn.fail(Code.NEED_TWO_SYMBOLS, f"a symbol combination uses exactly two symbols, not {len(i.use)}", "R-SYMBOLS")
    a, b = (refs.source(txn.ctx, u, seat) for u in i.use)
    kinds = {a.kind, b.kind}
    allowed = len(kinds) == 1 or kinds == {"hand", "buffer"} or (txn.opts["mixed_field_sources"] and "field" in kinds)
    if not allowed:
        txn.check(False, Code.MIXED_SOURCES_NOT_ALLOWED,
                  f"{a.kind} + {b.kind}: the two symbols come from hand+hand, hand+buffer, buffer+buffer or field+field", "R-SYMBOLS")
    state = txn.state
    hand = txn.player(seat).hand
    # the object each non-hand source names (None: there is none)
    objs = {s.ref: get_obj(state, s.ref) for s in (a, b) if s.kind != "hand"}
    for s in (a, b):
        if s.kind == "hand":
            if s.ref not in hand:
                txn.fail(Code.CARD_NOT_IN_HAND, f"{s.ref} is not in {seat}'s hand", "R-HAND")
        elif s.kind == "buffer":
            if not s.ref.startswith(f"{seat}."):
                txn.fail(Code.NOT_YOUR_OBJECT, f"{s.ref} is not {seat}'s buffer", "R-SYMBOLS")
            if objs[s.ref] is None:
                txn.fail(Code.BUFFER_SLOT_EMPTY, f"{s.ref} is empty", "R-BUFFER")
        elif objs[s.ref] is None:
            txn.fail(Code.NO_SUCH_OBJECT, f"there is no object at {_show_ref(s.ref)}", "R-OBJECTS")
    for s in (a, b):
        if s.kind == "field":
            obj = objs[s.ref]
            if not (obj.controller == seat or _double_of_mine(txn.ctx, state, seat, s.ref)):
                txn.fail(Code.NOT_YOUR_OBJECT, f"{obj.card} at {_show_ref(s.ref)} is {obj.controller}'s", "R-SYMBOLS")
    same = a.kind == b.kind and a.ref == b.ref and (a.kind != "hand" or hand.count(a.ref) < 2)
    if not same and a.kind == b.kind == "field" and txn.opts["double_agent_pair"] == "one_object":
        oa, ob = objs[a.ref], objs[b.ref]
        same = a.ref.endswith("/agent") and b.ref.endswith("/agent") and oa.card == ob.card and oa.controller != ob.controller
    if same:
        txn.fail(Code.SAME_OBJECT_SYMBOLS, "the two symbols must come from two different cards or objects", "R-SYMBOLS")
    for s in (a, b):
        if s.kind == "hand" and s.symbol not in txn.ctx.card(s.ref).symbols:
            txn.fail(Code.SYMBOL_NOT_ON_CARD,
                     f"{s.ref} does not print {s.symbol} ({', '.join(txn.ctx.card(s.ref).symbols) or 'no symbols'})", "R-SYMBOLS")
    for s in (a, b):
        if s.kind != "hand":
            obj = objs[s.ref]
            if s.symbol not in obj.active_symbols:
                txn.fail(Code.NO_ACTIVE_SYMBOL,
                         f"{obj.card} at {_show_ref(s.ref)} carries no active {s.symbol} ({', '.join(obj.active_symbols) or 'no tokens'})",
                         "R-BUFFER")
    neutral = txn.ctx.cards.neutral_symbol
    if neutral in (a.symbol, b.symbol):
        txn.check(False, Code.LILAC_NOT_PLAYABLE, f"{neutral} cannot produce an effect", "R-SYMBOLS")
    combo = txn.ctx.table.get((min(a.symbol, b.symbol), max(a.symbol, b.symbol)))
    if combo is None:
        txn.fail(Code.NO_COMBINATION, f"{a.symbol} + {b.symbol} has no entry in the combination table", "R-COMBO-TABLE")
    assert combo is not None
    effect = combo.effect
    objects = [(s.ref, None) if s.kind == "hand" else (objs[s.ref].card, objs[s.ref].oid) for s in (a, b)]
    key = _combo_key(txn, effect, objects)
    _check_repeat(txn, key, effect)
    check_effect(txn, seat, effect, i)
    free_before = len(txn.free_slots(seat))
    spent: list[tuple[int, str]] = []
    for s in (a, b):
        if s.kind == "hand":
            oid = txn.to_neutral(s.ref, seat, f"{seat}.hand", "hand")
            spent.append((oid, s.symbol))
        else:
            txn.emit(SymbolSpent(ref=s.ref, symbol=s.symbol))
    txn.emit(ComboPlayed(seat=seat, kind="symbols", effect=effect, key=key))
    placed = resolve_effect(txn, seat, effect, i, combo)
    _buffer_checks(txn, seat, [s.ref for s in (a, b) if s.kind == "hand"], i.to_buffer, i.lilac_as, placed, free_before)
    _finish_combo(txn, seat, i.to_buffer, i.lilac_as, spent)


def _double_of_mine(ctx: Ctx, state: State, seat: str, ref: str) -> bool:
    if not ref.endswith("/agent"):
        return False
    obj = get_obj(state, ref)
    return any(a.card == obj.card for _c, a in face_up_agents(ctx, state, seat))


def play_neutral(txn: Txn, i: PlayNeutral) -> None:
    seat = txn.seat
    spend_main(txn, "R-NEUTRAL-COMBO")
    hand = Counter(txn.player(seat).hand)
    txn.require(hand[i.lilac] > 0, Code.CARD_NOT_IN_HAND, f"{i.lilac} is not in {seat}'s hand", "R-HAND")
    neutral = txn.ctx.cards.neutral_symbol
    txn.require(neutral in txn.ctx.card(i.lilac).symbols, Code.NO_LILAC_SYMBOL, f"{i.lilac} prints no {neutral} symbol", "R-NEUTRAL-COMBO")
    w = refs.source(txn.ctx, i.with_, seat)
    txn.check(w.kind in ("hand", "buffer"), Code.MIXED_SOURCES_NOT_ALLOWED,
              "the neutral combination's second symbol comes from your hand or your buffer", "R-NEUTRAL-COMBO")
    if w.kind == "hand":
        txn.require(hand[w.ref] > 0, Code.CARD_NOT_IN_HAND, f"{w.ref} is not in {seat}'s hand", "R-HAND")
        txn.require(w.ref != i.lilac or hand[w.ref] > 1, Code.SAME_OBJECT_SYMBOLS, "the second symbol must be on another card", "R-NEUTRAL-COMBO")
        txn.require(w.symbol in txn.ctx.card(w.ref).symbols, Code.SYMBOL_NOT_ON_CARD, f"{w.ref} does not print {w.symbol}", "R-SYMBOLS")
    else:
        txn.require(w.ref.startswith(f"{seat}."), Code.MIXED_SOURCES_NOT_ALLOWED, f"{w.ref} is not {seat}'s buffer", "R-NEUTRAL-COMBO")
        obj = get_obj(txn.state, w.ref)
        txn.require(obj is not None, Code.BUFFER_SLOT_EMPTY, f"{w.ref} is empty", "R-BUFFER")
        txn.require(w.symbol in obj.active_symbols, Code.NO_ACTIVE_SYMBOL, f"{obj.card} at {w.ref} carries no {w.symbol}", "R-BUFFER")
    if txn.opts["neutral_lilac_pair"] == "forbidden":
        txn.check(w.symbol != neutral, Code.LILAC_NOT_PLAYABLE, "option neutral_lilac_pair=forbidden: the second symbol may not be lilac",
                  "R-NEUTRAL-COMBO")
    txn.check(all(c == i.lilac for c in i.to_buffer) and len(i.to_buffer) <= 1, Code.NOT_FROM_HAND,
              f"to_buffer may name only the lilac card {i.lilac}", "R-NEUTRAL-ZONE")
    free_before = len(txn.free_slots(seat))
    txn.to_neutral(i.lilac, seat, f"{seat}.hand", "hand")
    txn.emit(ComboPlayed(seat=seat, kind="neutral", effect="neutral", key=None))
    _buffer_checks(txn, seat, [i.lilac], i.to_buffer, i.lilac_as, 0, free_before)
    _finish_combo(txn, seat, i.to_buffer, i.lilac_as, [])


def _show_ref(ref: str) -> str:
    return ref[: -len("/territory")] if ref.endswith("/territory") else ref


def _field_ref(ctx: Ctx, text: str) -> str | None:
    try:
        return refs.field_object(ctx, text)
    except refs.RefError:
        return None
