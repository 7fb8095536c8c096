"""Digital chance: the chance part of an answer (the cards drawn, the card revealed, the Strike card)
filled from the match's seed and the pile's own history of draws (``state.draws``: which pile, how many
times it was reshuffled, how many cards were drawn from it since), never from the entry number or the
turn. Undoing a draw and drawing again, or doing anything that leaves the pile alone first, draws the
same cards; a refused line changes nothing; a fork draws what the main line drew.

A pile is a player's deck (``players.<seat>.deck``), the Strike deck (``strike_deck``) or the pool a
hidden card is revealed from (:func:`answers.reveal_pool`: a conspiracy segment, the Academy deck, an
evidence priority, the Special Agents, the avatar box, a seat's climax cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .codes import Code
from . import answers, flow
from . import model as m
from .txn import BoundRules, Tx


def key(state: m.State, pile: str, reshuffle: bool = False) -> str:
    """What ``pile``'s next draw is drawn under (``reshuffle``: once it has been reshuffled first)."""
    h = state.draws.get(pile, m.Draws())
    shuffles, drawn = (h.shuffles + 1, 0) if reshuffle else (h.shuffles, h.drawn)
    return f"{pile}:shuffle{shuffles}:drawn{drawn}"


def top(chance: Chance, state: m.State, pile: str, cards: Sequence[str], n: int, reshuffle: bool = False) -> list[str]:
    """The ``n`` cards drawn next from ``pile``, which holds ``cards`` (in any order)."""
    return chance.derive(key(state, pile, reshuffle)).shuffled(sorted(cards))[:n]


def fill(rules: BoundRules, state: m.State, seat: str, intent: Any, chance: Chance) -> Any:
    """A digital match: ``intent`` with its chance fields drawn, or Rejected when a typed one differs."""
    front = state.pending[0]
    if isinstance(intent, m.Draw) and front.kind == "draw" and front.seat == seat:
        p = state.players[seat]
        pile = f"players.{seat}.deck"
        n = front.count
        known = list(p.known_top)[:n]
        deck = list(p.deck)
        for c in known:
            deck.remove(c)
        if len(p.deck) >= n:
            cards = known + top(chance, state, pile, deck, n - len(known))
        else:  # the whole deck, then the reshuffled discard's top cards
            cards = list(p.deck) + top(chance, state, pile, p.discard, n - len(p.deck), reshuffle=True)
        return _same(intent, "cards", tuple(cards), lambda a, b: sorted(a) == sorted(b))
    if isinstance(intent, m.Reveal) and front.kind == "reveal":
        tx = Tx(rules, state, seat)
        options = answers.front_candidates(tx)
        if not options:
            return intent
        bag = [c for c, w in sorted(options) for _ in range(w)]
        drawn = chance.derive(key(state, answers.reveal_pool(tx, tx.pending()[0]))).choice(bag)
        return _same(intent, "card", drawn, lambda a, b: a == b)
    if isinstance(intent, m.TakeStrike) and front.kind in ("strike", "end_game_strike"):
        tx = Tx(rules, state, seat)
        fresh = flow.strike_count(tx) <= 0  # the discard is reshuffled into a new Strike deck first
        strikes = state.strike_discard if fresh else state.strike_deck.cards
        if not strikes:
            return intent
        drawn = top(chance, state, "strike_deck", strikes, 1, reshuffle=fresh)[0]
        return _same(intent, "card", drawn, lambda a, b: a == b)
    return intent


def _same(intent: Any, field: str, drawn: Any, equal: Callable[[Any, Any], bool]) -> Any:
    typed = getattr(intent, field)
    if typed is not None and not equal(typed, drawn):
        return Rejected(Code.CHANCE_MISMATCH,
                        f"{field}: a digital match draws it from the seed; the typed value differs", "§0.1")
    return msgspec.structs.replace(intent, **{field: drawn})
