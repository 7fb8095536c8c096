"""The end-of-round phases (§4.19–4.24): the discard phase (hands down to the limit), the reveal phase
(each player swaps two loyalty tokens and shows them, or skips), with counter-intelligence (§6.4) a
face-down swap phase and a naming phase that scores what is named, and final scoring's
``final_reveal`` for a match that never recorded its arrangements.
"""

from __future__ import annotations

from referee.engine.codes import TurnCode

from .codes import Code
from .data import EMPIRES, HAND_LIMIT, MULTIPLIER, SLOTS, card_empire
from .model import (
    CardsDiscarded,
    CiNameEmpire,
    CiNamed,
    CiReveal,
    CiScored,
    DeckShuffled,
    DiscardCards,
    FinalReveal,
    FinalRevealed,
    LoyaltyRevealed,
    LoyaltySwapped,
    PhaseChanged,
    SkipSwap,
    SwapLoyalty,
    SwapSkipped,
)
from .rounds import end_of_round, maybe_end_discard
from .scoring import score
from .txn import R_CI, R_DISCARD, R_FINAL, R_REVEAL, Tx


def discard_cards(tx: Tx, intent: DiscardCards) -> None:
    rules = tx.rules
    s = tx.state
    tx.require(s.phase == "DISCARD", Code.WRONG_PHASE, f"cards are discarded in the discard phase; the game is in {s.phase}",
               R_DISCARD)
    tx.require(tx.seat not in s.discard_phase.discarded, Code.ALREADY_DISCARDED, f"{tx.seat} has already discarded", R_DISCARD)
    hand = list(s.players[tx.seat].hand)
    for card in intent.cards:
        entry = card if card in hand else (card_empire(card) if rules.counted and card_empire(card) in hand else None)
        if entry is None:
            tx.fail(Code.CARD_NOT_IN_HAND, f"{card} is not in {tx.seat}'s hand (or is named twice)", R_DISCARD)
        hand.remove(entry)
    size = len(s.players[tx.seat].hand)
    need = max(0, size - HAND_LIMIT)
    if rules.options["discard_exact"]:
        tx.check(len(intent.cards) == need, Code.WRONG_DISCARD_COUNT,
                 f"{tx.seat} holds {size} cards and must discard {need}, not {len(intent.cards)}", R_DISCARD)
    else:
        tx.check(len(intent.cards) >= need, Code.WRONG_DISCARD_COUNT,
                 f"{tx.seat} holds {size} cards and must discard at least {need}, not {len(intent.cards)}", R_DISCARD)
    private = rules.options["discard_visibility"] == "private"
    tx.emit(CardsDiscarded(player=tx.seat, cards=tuple(intent.cards), private=private))
    for e in EMPIRES:
        if any((card_empire(c) or c) == e for c in intent.cards):
            tx.emit(DeckShuffled(empire=e))
    maybe_end_discard(tx)


def _reveal_turn(tx: Tx, verb: str) -> None:
    rules = tx.rules
    s = tx.state
    if s.phase not in ("REVEAL", "CI_SWAP"):
        tx.fail(Code.WRONG_PHASE, f"{verb} belongs to the reveal phase; the game is in {s.phase}", R_REVEAL)
    nxt = rules.next_decider(s)
    if tx.seat != nxt:
        tx.fail(TurnCode.NOT_YOUR_TURN,
                f"{nxt} decides next, not {tx.seat}" + (" (one decision per player per phase)"
                                                              if tx.seat in s.reveal_phase.decided else ""),
                R_REVEAL)


def _after_decision(tx: Tx) -> None:
    rules = tx.rules
    s = tx.state
    if rules.next_decider(s) is not None:
        return
    if s.phase == "CI_SWAP":
        tx.emit(PhaseChanged(phase="CI_REVEAL"))
        return
    end_of_round(tx)


def swap_loyalty(tx: Tx, intent: SwapLoyalty) -> None:
    rules = tx.rules
    _reveal_turn(tx, "swap_loyalty")
    s = tx.state
    a, b = intent.slot_a, intent.slot_b
    tx.require(a != b, Code.SAME_SLOT, f"slot_a and slot_b are both {a}", R_REVEAL)
    loyalty = s.players[tx.seat].loyalty
    for slot in (a, b):
        tx.check(not loyalty[slot].revealed, Code.SLOT_REVEALED, f"the token in {tx.seat}'s {slot} slot is already face up "
                 "and locked", R_REVEAL)
    rev = intent.revealed
    given = {slot: getattr(rev, slot) for slot in SLOTS if rev is not None and getattr(rev, slot) is not None}
    if s.phase == "CI_SWAP":
        tx.require(not given, Code.REVEAL_MISMATCH, "in the counter-intelligence swap phase the tokens stay face down: "
                   "give no revealed.*", R_REVEAL)
        tx.emit(LoyaltySwapped(player=tx.seat, slot_a=a, slot_b=b))
    else:
        tx.require(set(given) == {a, b}, Code.REVEAL_MISMATCH,
                   f"name the two revealed tokens: revealed.{a}=<empire> revealed.{b}=<empire>", R_REVEAL)
        if rules.unrecorded:
            shown = [t.empire for t in loyalty.values() if t.revealed]
            ok = given[a] != given[b] and given[a] not in shown and given[b] not in shown
            tx.require(ok, Code.REVEAL_MISMATCH,
                       f"revealed.{a}={given[a]} revealed.{b}={given[b]} contradicts {tx.seat}'s tokens already face up",
                       R_REVEAL)
        else:
            ok = given[a] == loyalty[b].empire and given[b] == loyalty[a].empire
            tx.require(ok, Code.REVEAL_MISMATCH,
                       f"revealed.{a}={given[a]} revealed.{b}={given[b]} is not what lies in those slots after the swap",
                       R_REVEAL)
        tx.emit(LoyaltySwapped(player=tx.seat, slot_a=a, slot_b=b),
                LoyaltyRevealed(player=tx.seat, slot=a, empire=given[a]),
                LoyaltyRevealed(player=tx.seat, slot=b, empire=given[b]))
    _after_decision(tx)


def skip_swap(tx: Tx, intent: SkipSwap) -> None:
    _reveal_turn(tx, "skip_swap")
    tx.emit(SwapSkipped(player=tx.seat))
    _after_decision(tx)


def ci_name_empire(tx: Tx, intent: CiNameEmpire) -> None:
    rules = tx.rules
    s = tx.state
    tx.needs_module("counter_intelligence", "ci_name_empire", R_CI)
    if s.phase != "CI_REVEAL":
        tx.fail(Code.WRONG_PHASE, f"empires are named in the counter-intelligence reveal phase; the game is in "
                f"{s.phase}", R_CI)
    pending = s.reveal_phase.pending_naming
    nxt = None if pending else rules.next_namer(s)
    if tx.seat != nxt:
        who = f"{pending.target} must first reveal {pending.empire}" if pending else f"{nxt} names next"
        tx.fail(TurnCode.NOT_YOUR_TURN, f"{who}, not {tx.seat}", R_CI)
    target = rules.ci_target(s, tx.seat)
    loyalty = s.players[target].loyalty
    shown = [slot for slot, t in loyalty.items() if t.revealed and t.empire == intent.empire]
    if shown:
        tx.fail(Code.TARGET_EMPIRE_REVEALED,
                f"{target}'s {intent.empire} token is already face up (in {shown[0]})", R_CI)
    if rules.unrecorded:
        tx.emit(CiNamed(player=tx.seat, target=target, empire=intent.empire))
        return
    slot = next(sl for sl, t in loyalty.items() if t.empire == intent.empire)
    tx.emit(CiNamed(player=tx.seat, target=target, empire=intent.empire),
            CiScored(player=tx.seat, target=target, empire=intent.empire, slot=slot, points=MULTIPLIER[slot]))
    _after_naming(tx)


def _after_naming(tx: Tx) -> None:
    rules = tx.rules
    if rules.next_namer(tx.state) is None:
        end_of_round(tx)


def ci_reveal(tx: Tx, intent: CiReveal) -> None:
    rules = tx.rules
    s = tx.state
    tx.needs_module("counter_intelligence", "ci_reveal", R_CI)
    if not rules.unrecorded or s.phase != "CI_REVEAL":
        tx.fail(Code.WRONG_PHASE, "ci_reveal is for the counter-intelligence reveal phase of a match with "
                f"loyalty_secret_mode=unrecorded (this match: {rules.options['loyalty_secret_mode']}, {s.phase})", R_CI)
    pending = s.reveal_phase.pending_naming
    if pending is None or pending.target != tx.seat or pending.empire != intent.empire:
        tx.fail(Code.NO_PENDING_NAMING, f"nobody asked {tx.seat} to reveal {intent.empire}", R_CI)
    loyalty = s.players[tx.seat].loyalty
    tx.check(not loyalty[intent.slot].revealed, Code.SLOT_REVEALED, f"{tx.seat}'s {intent.slot} token is already face up",
             R_CI)
    clash = [sl for sl, t in loyalty.items() if t.revealed and t.empire == intent.empire]
    tx.require(not clash, Code.REVEAL_MISMATCH, f"{tx.seat}'s {intent.empire} token is already face up in {clash[0] if clash else ''}",
               R_CI)
    tx.emit(CiScored(player=pending.player, target=tx.seat, empire=intent.empire, slot=intent.slot,
                     points=MULTIPLIER[intent.slot]))
    _after_naming(tx)


def final_reveal(tx: Tx, intent: FinalReveal) -> None:
    rules = tx.rules
    s = tx.state
    if s.phase != "FINAL_SCORING" or not rules.unrecorded:
        tx.fail(Code.WRONG_PHASE, f"final_reveal is for final scoring with loyalty_secret_mode=unrecorded "
                f"(the game is in {s.phase})", R_FINAL)
    pl = s.players[tx.seat]
    tx.require(not pl.final_revealed, Code.ALREADY_ARRANGED, f"{tx.seat} has already revealed their tokens", R_FINAL)
    arr = intent.arrangement
    empires = [getattr(arr, slot) for slot in SLOTS] if arr is not None else []
    ok = len(empires) == 5 and sorted(e or "" for e in empires) == sorted(EMPIRES)
    tx.require(ok, Code.INVALID_LOYALTY_ARRANGEMENT, "give arrangement.<slot>=<empire> for all five slots, each empire once",
               R_FINAL)
    for slot, e in zip(SLOTS, empires):
        t = pl.loyalty[slot]
        tx.require(not t.revealed or t.empire == e, Code.REVEAL_MISMATCH,
                   f"{tx.seat}'s {slot} token is face up showing {t.empire}, not {e}", R_FINAL)
    tx.emit(FinalRevealed(player=tx.seat, arrangement=tuple(e or "" for e in empires)))
    if all(tx.state.players[p].final_revealed for p in rules.players):
        score(tx)
