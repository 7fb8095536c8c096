"""Legal intents (hints, fuzzing, the viewer): candidates for the seat's situation, each kept only if
``decide`` accepts it. In a digital match the chance fields are left out (the referee draws them); in a
physical one they hold a possible outcome."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine.protocol import Accepted

from .chance import with_outcomes
from .data import FAVOR_TYPES, cell
from .model import (
    AssignDetective, ChooseFirstPlayer, ChooseMurder, CloseCase, DealHunches, DealMemoryCards, DeclineBenefit,
    DigDeeper, DiscardPiece, DiscardTwilightCard, DrawEvidence, DrawRachelExtraCards, DrawStartingCards,
    DrawTwilightCard, EndTurn, FlyDropship, FollowLead, GetAJump, ManualEffect, Move, MoveLead, PlaceEvidence,
    PlacePiece, PlayDarkCard, PlayLightCard, ResolveGeneralEvent, ResolvePlots, ResolveSpecificEvent,
    RevealConspiracy, RideBeanstalk, SelectStartingPlot, SetAsideSpecificEvent, SkipLeadUse, State,
    TakeBaggageBenefit, TakeFavorBenefit, TakeFreeDraw, TakeShiftBenefit, UseEventAbility, UseLocationAbility,
)
from .setup import current_step, seat_of
from .txn import BoundRules


def _candidates(rules: BoundRules, s: State, seat: str) -> list[Any]:  # noqa: C901
    out: list[Any] = []
    if seat not in s.players:  # the arbiter (no seat): what it may type for any seat, ``decide`` picks
        return list(dict.fromkeys(i for x in rules.players for i in _candidates(rules, s, x)))
    if s.phase == "setup":
        step = current_step(rules, s)
        p = s.players[seat]
        if step == 1 and seat == rules.players[0]:
            out += [ChooseMurder(murder=m) for m in rules.data.murder_order]
        elif step == 3 and p.detective is None:
            taken = {q.detective for q in s.players.values()}
            out += [AssignDetective(seat=seat, detective=d) for d in sorted(rules.data.detectives) if d not in taken]
        elif step == 8 and p.hunches is None:
            out.append(DealHunches(seat=seat))
        elif step == 9 and p.plot is None:
            out.append(SelectStartingPlot(seat=seat))
        elif step == 10 and not p.hand:
            out.append(DrawStartingCards(seat=seat))
        elif step == 11 and seat == rules.players[0]:
            out.append(SetAsideSpecificEvent())
        elif step == 12 and seat == rules.players[0]:
            out += [ChooseFirstPlayer(seat=x) for x in rules.players]
        elif step == 13:
            rachel = seat_of(s, "rachel")
            if seat == rachel and not s.setup.extra_drawn:
                other = [f"{q.detective}.dark" for x, q in s.players.items() if x != seat]
                out += [DrawRachelExtraCards(sources=("rachel.light", o)) for o in other]
            if seat == rules.players[0] and seat_of(s, "raymond") and not s.setup.memory_dealt:
                out.append(DealMemoryCards())
        return out
    if s.phase == "end_of_day":
        if seat == s.first_player and s.end_of_day_queue:
            head = s.end_of_day_queue[0]
            if head == "specific_event" and s.events.specific == "sealed" and s.murder:
                out += [ResolveSpecificEvent(card=c) for c in rules.data.murders[s.murder].specific_events]
            else:
                out.append({"general_event": ResolveGeneralEvent(), "specific_event": ResolveSpecificEvent(),
                            "plot_resolution": ResolvePlots()}[head])
        return out
    if s.phase == "closing":
        return [CloseCase()] if seat == rules.players[0] else []
    if s.phase != "day":
        return out
    p = s.players[seat]
    if seat != s.active_seat:
        out += [PlayDarkCard(card=c) for c in p.hand if rules.data.cards[c].deck == "dark"]
    top = s.pending[0] if s.pending else None
    if top is not None:
        if top.seat != seat:
            return out
        if top.step == "lead_move":
            out += [MoveLead(lead=top.lead or "", to=loc) for loc in rules.map.order]
        elif top.step == "lead_use":
            out += [DrawEvidence(), RevealConspiracy(), DigDeeper(), SkipLeadUse()]
        elif top.step == "evidence_placement":
            out += [PlaceEvidence(suspect=x, face=f) for x in s.active_suspects for f in ("down", "up")]
        elif top.step == "piece_benefit":
            out += [TakeShiftBenefit(target=x, direction=d) for x in rules.players for d in ("light", "dark")]
            out += [TakeFavorBenefit(favor_type=t) for t in FAVOR_TYPES]
            out += [TakeBaggageBenefit(target=x, side=sd) for x in rules.players for sd in ("good", "bad")]
            out.append(DeclineBenefit())
        elif top.step == "piece_placement":
            pz = rules.data.puzzle
            out += [PlacePiece(at=cell(r, c), rotation=rot) for r in range(pz.rows) for c in range(pz.cols)
                    for rot in (0, 90, 180, 270)]
            out.append(DiscardPiece())
        elif top.step in ("piece_bonus", "effect_declaration"):
            out.append(ManualEffect(source=top.source))
        return out
    if seat != s.active_seat:
        return out
    out.append(EndTurn())
    here = p.location or ""
    out += [Move(to=loc) for loc in rules.map.order]
    out += [RideBeanstalk(to=loc) for loc in rules.map.beanstalk]
    if p.dropship_passes:
        out += [FlyDropship(to=loc) for loc in rules.map.order[::5]]
    decks = [f"{d}.{k}" for d in sorted(s.decks) for k in ("light", "dark")]
    if s.free_draw_window is not None:
        out += [TakeFreeDraw(deck=d) for d in decks]
    out += [DrawTwilightCard(deck=d) for d in decks]
    out += [DiscardTwilightCard(card=c) for c in p.hand]
    out += [PlayLightCard(card=c) for c in p.hand if rules.data.cards[c].deck == "light"]
    out += [FollowLead(lead=f"{t}.{o}") for t, row in sorted(s.leads.items()) for o, loc in sorted(row.items()) if loc == here]
    out.append(GetAJump())
    out.append(UseLocationAbility(location=here))
    for a in s.events.active:
        out += [UseEventAbility(event=a.event, suspect=x) for x in s.active_suspects]
    return out


def legal_intents(rules: BoundRules, state: State, seat: str) -> Sequence[Any]:
    chance = Chance(0, "legal")
    out = []
    for intent in _candidates(rules, state, seat):
        concrete = with_outcomes(rules, state, intent, chance) or intent
        if isinstance(rules.decide(state, seat, concrete, None), Accepted):
            out.append(intent if rules.digital else concrete)
    return out
