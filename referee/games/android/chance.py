"""Digital chance (§1.11): the referee fills every omitted chance outcome from the match's seeded
generator and records the filled intent, so replay never re-rolls. Each outcome is drawn from the seed
and the pile's own history of draws (``state.draws``), never the entry number: undo and the same move
draw the same, a refused line changes nothing, a fork draws what the main line drew. A typed outcome
that differs from the generator's is ``android/chance_mismatch``. :func:`chance_fields` names those
fields."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine.chance import Chance
from referee.engine.protocol import Rejected

from .codes import Code
from .model import (
    Intent,
    ChooseFirstPlayer, ChooseMurder, DealHunches, Draws, DealMemoryCards, DrawEvidence, DrawRachelExtraCards,
    DrawStartingCards, DrawTwilightCard, HunchDeal, MemoryDeal, PlotPick, ResolveGeneralEvent, RevealConspiracy,
    SelectStartingPlot, SetAsideSpecificEvent, StartingDraw, State, TakeFreeDraw,
)
from .setup import seat_of
from .txn import BoundRules

R_CHANCE = "§1.11 (digital match)"


def chance_fields(rules: BoundRules, intent: Any) -> tuple[str, ...]:
    if isinstance(intent, ChooseMurder):
        return ("murder",) if intent.method == "random" else ()
    if isinstance(intent, ChooseFirstPlayer):
        return ("seat",) if intent.method == "random" else ()
    if isinstance(intent, DealHunches):
        return ("guilty", "innocent", "dealt")
    if isinstance(intent, SelectStartingPlot):
        return ("plot", "picks")
    if isinstance(intent, DrawStartingCards):
        return ("light", "dark", "drawn")
    if isinstance(intent, SetAsideSpecificEvent):
        return ("card",)
    if isinstance(intent, DrawRachelExtraCards):
        return ("cards",)
    if isinstance(intent, DealMemoryCards):
        return ("deal",)
    if isinstance(intent, (TakeFreeDraw, DrawTwilightCard, ResolveGeneralEvent)):
        return ("card",)
    if isinstance(intent, DrawEvidence):
        return ("token",)
    if isinstance(intent, RevealConspiracy):
        return ("piece",)
    return ()


def _face_down(rules: BoundRules, state: State, deck: str) -> tuple[tuple[str, ...], bool]:
    """What a draw from ``deck`` takes from, and whether the deck is reshuffled first."""
    det, _, kind = deck.partition(".")
    d = state.decks.get(det, {}).get(kind)
    if d is None:
        return (), False
    if d.face_down:
        return d.face_down, False
    return (d.bottom, True) if rules.options["reshuffle_before_draw"] else ((), False)


def key(state: State, pile: str, reshuffle: bool = False, later: int = 0) -> str:
    """What ``pile``'s next draw is drawn under (``reshuffle``: once it has been reshuffled first;
    ``later``: that many cards after it): which pile, its reshuffles, how many were drawn since."""
    h = state.draws.get(pile, Draws())
    shuffles, drawn = (h.shuffles + 1, 0) if reshuffle else (h.shuffles, h.drawn)
    return f"{pile}:shuffle{shuffles}:drawn{drawn + later}"


#: the intents with an outcome of chance (every other is left as typed)
CHANCY = (ChooseMurder, ChooseFirstPlayer, DealHunches, SelectStartingPlot, DrawStartingCards, SetAsideSpecificEvent,
          DrawRachelExtraCards, DealMemoryCards, TakeFreeDraw, DrawTwilightCard, ResolveGeneralEvent, DrawEvidence,
          RevealConspiracy)


def fill(rules: BoundRules, state: State, seat: str, intent: Intent, chance: Chance | None) -> Intent | Rejected:
    if chance is None or not isinstance(intent, CHANCY):
        return intent
    filled: Intent | None = with_outcomes(rules, state, intent, chance)
    if filled is None:
        return intent
    for name in chance_fields(rules, intent):
        typed = getattr(intent, name)
        if typed not in (None, (), "") and typed != getattr(filled, name):
            return Rejected(Code.CHANCE_MISMATCH, f"{name}={typed} is not what the match's generator drew", R_CHANCE)
    return filled


def with_outcomes(rules: BoundRules, state: State, it: Any, chance: Chance) -> Any:  # noqa: C901
    """``it`` with its chance fields drawn. Each outcome is drawn under a name of its own: a setup step's
    (``murder``, ``plot.<seat>``), or a pile's and its history of draws (:func:`key`), never an entry
    number, so undoing and doing it again, or doing something else first, draws the same."""
    rep = msgspec.structs.replace
    if isinstance(it, ChooseMurder) and it.method == "random":
        return rep(it, murder=chance.derive("murder").choice(sorted(rules.data.murders)))
    if isinstance(it, ChooseFirstPlayer) and it.method == "random":
        return rep(it, seat=chance.derive("first_player").choice(rules.players))
    if isinstance(it, DealHunches):
        active = sorted(state.active_suspects)
        taken_g = {p.hunches.guilty for p in state.players.values() if p.hunches}
        taken_i = {p.hunches.innocent for p in state.players.values() if p.hunches}
        guilty = [s for s in chance.derive("hunches.guilty").shuffled(active) if s not in taken_g]
        innocent = [s for s in chance.derive("hunches.innocent").shuffled(active) if s not in taken_i]
        seats = [it.seat] if it.seat is not None else [s for s in rules.players if state.players[s].hunches is None]
        if len(guilty) < len(seats) or len(innocent) < len(seats) or any(s not in state.players for s in seats):
            return None
        if it.seat is not None:
            return rep(it, guilty=guilty[0], innocent=innocent[0])
        return rep(it, dealt=tuple(HunchDeal(seat=s, guilty=g, innocent=i) for s, g, i in zip(seats, guilty, innocent)))
    if isinstance(it, SelectStartingPlot):
        seats = [it.seat] if it.seat is not None else [s for s in rules.players if state.players[s].plot is None]
        picks = []
        for s in seats:
            det = state.players[s].detective if s in state.players else None
            if det is None:
                return None
            eligible = [p for p, ok in rules.data.detectives[det].plots if ok]
            picks.append(PlotPick(seat=s, plot=chance.derive(f"plot.{s}").choice(eligible)))
        if it.seat is not None:
            return rep(it, plot=picks[0].plot)
        return rep(it, picks=tuple(picks))
    if isinstance(it, DrawStartingCards):
        seats = [it.seat] if it.seat is not None else [s for s in rules.players if not state.players[s].hand]
        draws = []
        for s in seats:
            det = state.players[s].detective if s in state.players else None
            left = state.players[rules.left(s)].detective if s in state.players else None
            if det is None or left is None:
                return None
            light = chance.derive(key(state, f"{det}.light")).shuffled(sorted(state.decks[det]["light"].face_down))[:2]
            dark = chance.derive(key(state, f"{left}.dark")).choice(sorted(state.decks[left]["dark"].face_down))
            draws.append(StartingDraw(seat=s, light_1=light[0], light_2=light[1], dark=dark))
        if it.seat is not None:
            d = draws[0]
            return rep(it, light=(d.light_1, d.light_2), dark=d.dark)
        return rep(it, drawn=tuple(draws))
    if isinstance(it, SetAsideSpecificEvent):
        if state.murder is None or it.card == "sealed":
            return None
        return rep(it, card=chance.derive("specific_event").choice(rules.data.murders[state.murder].specific_events))
    if isinstance(it, DrawRachelExtraCards):
        if len(it.sources) != 2:
            return None
        cards: list[str] = []
        for n, src in enumerate(it.sources):
            face_down, fresh = _face_down(rules, state, src)
            pool = sorted(c for c in face_down if c not in cards)
            if not pool:
                return None
            later = it.sources[:n].count(src)  # the second card from one deck is its next draw
            cards.append(chance.derive(key(state, src, fresh, later)).choice(pool))
        return rep(it, cards=tuple(cards))
    if isinstance(it, DealMemoryCards):
        raymond = seat_of(state, "raymond")
        if raymond is None:
            return None
        others = [s for s in rules.players if s != raymond]
        mem = chance.derive("memory").shuffled(sorted(rules.data.detectives["raymond"].memory_cards))
        return rep(it, deal=tuple(MemoryDeal(seat=s, card=c) for s, c in zip(others, mem)))
    if isinstance(it, (TakeFreeDraw, DrawTwilightCard)):
        cards_left, fresh = _face_down(rules, state, it.deck)
        return rep(it, card=chance.derive(key(state, it.deck, fresh)).choice(sorted(cards_left))) if cards_left else None
    if isinstance(it, ResolveGeneralEvent):
        general = sorted(state.events.general_deck)
        return rep(it, card=chance.derive(key(state, "general_deck")).choice(general)) if general else None
    if isinstance(it, DrawEvidence):
        bag = [k for k, n in sorted(state.evidence_pile.items()) for _ in range(n)]
        return rep(it, token=chance.derive(key(state, "evidence_pile")).choice(bag)) if bag else None
    if isinstance(it, RevealConspiracy):
        pile = state.puzzle.markers.get(next((st.seat for st in state.pending if st.step == "lead_use"), ""), "box")
        pieces = sorted(state.puzzle.piles.get(pile, ()))
        return rep(it, piece=chance.derive(key(state, f"puzzle.{pile}")).choice(pieces)) if pieces else None
    return None

