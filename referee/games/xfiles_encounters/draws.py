"""Digital chance: the chance part of an answer (the cards drawn, the card revealed, the Strike card)
filled from the match's seed and the pile's own history, never from the entry number or the turn.

* A deck (a player's deck, the Strike deck) lies in an order fixed by the seed, the deck's name and how
  many times it was reshuffled (``state.shuffles``): a draw takes its top cards. Undoing a draw and
  drawing again, or doing anything else first, draws the same cards; only a reshuffle changes the order.
* A pool the rules describe by what it may hold (a conspiracy segment, the Academy deck, an evidence
  priority, the Special Agents, the avatar box, climax cards) gives its n-th hidden card from the seed,
  the pool's name and n (``state.reveals``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from . import answers, flow
from . import model as m
from .tx import Tx

if TYPE_CHECKING:
    from .rules import XFilesRules


def deck_key(state: m.State, deck: str, later: int = 0) -> str:
    """The name a deck's order is drawn under: which deck and its shuffle (``later`` shuffles on)."""
    return f"{deck}:shuffle{state.shuffles.get(deck, 0) + later}"


def fill(rules: XFilesRules, state: m.State, seat: str, intent: Any, chance: Chance) -> Any:
    """A digital match: ``intent`` with its chance fields drawn, or Rejected when a typed one differs."""
    front = state.pending[0]
    if isinstance(intent, m.Draw) and front.kind == "draw" and front.seat == seat:
        p = state.players[seat]
        name = f"players.{seat}.deck"
        n = front.count
        top = list(p.known_top)[:n]
        deck = list(p.deck)
        for c in top:
            deck.remove(c)
        if len(p.deck) >= n:
            cards = top + chance.ordered(deck_key(state, name), deck)[: n - len(top)]
        else:  # the whole deck, then the reshuffled discard's top cards
            cards = list(p.deck) + chance.ordered(deck_key(state, name, 1), p.discard)[: n - len(p.deck)]
        return _same(intent, "cards", tuple(cards), lambda a, b: sorted(a) == sorted(b))
    tx = Tx(rules, state, seat)
    item = tx.pending()[0]
    if isinstance(intent, m.Reveal) and front.kind == "reveal":
        options = answers.candidates(tx, item)
        if not options:
            return intent
        pool = answers.reveal_pool(tx, item)
        bag = [c for c, w in sorted(options) for _ in range(w)]
        drawn = chance.derive(f"reveal:{pool}:{state.reveals.get(pool, 0)}").choice(bag)
        return _same(intent, "card", drawn, lambda a, b: a == b)
    if isinstance(intent, m.TakeStrike) and front.kind in ("strike", "end_game_strike"):
        if flow.strike_count(tx) > 0:
            pile, key = state.strike_deck.cards, deck_key(state, "strike_deck")
        else:  # the discard is reshuffled into a new Strike deck first
            pile, key = state.strike_discard, deck_key(state, "strike_deck", 1)
        if not pile:
            return intent
        return _same(intent, "card", chance.ordered(key, pile)[0], lambda a, b: a == b)
    return intent


def _same(intent: Any, field: str, drawn: Any, equal: Callable[[Any, Any], bool]) -> Any:
    typed = getattr(intent, field)
    if typed is not None and not equal(typed, drawn):
        return Rejected("xfiles_encounters/chance_mismatch",
                        f"{field}: a digital match draws it from the seed; the typed value differs", "§0.1")
    return msgspec.structs.replace(intent, **{field: drawn})
