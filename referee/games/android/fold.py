"""Applying one event to the state (``evolve``): no validation, no choices. Total over every event tag
(a table of one small handler per kind of event, which a test checks against the event union); the
data set (map, decks, murders) is read from the bound rules, never from the event's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from referee.engine.dispatch import Handlers

from .data import BANKS, EVIDENCE, LEAD_TYPES, PILES
from .model import (
    Event,
    ActionNoted, ActiveAbility, AlibiPlaced, CardReturned, SceneHeroRestored, AuditFlagged, BaggagePlaced, BenefitTaken, CaseClosed, ComponentsPlaced, Deck,
    DeckReshuffled, DeltaApplied, DetectiveAssigned, DetectiveMoved, DayPhaseEnded, DayStarted, DropshipPassSpent,
    EventAbilityUsed, EvidenceDrawn, EvidencePlaced, EvidenceShown, ExtraCardsDrawn, FavorGained, FirstPlayerChanged,
    FirstPlayerChosen, Flag, GameEnded, GeneralEventResolved, HeroMarkersMoved, HeroSetupApplied, Hunches,
    HunchesDealt, LeadFollowed, LeadMoved, LeadRemoved, LeadUseSkipped, LocationAbilityUsed, MemoryCardsDealt,
    MurderChosen, Npc, Placement, Player, Plot, PlotsResolved, Popped, Pushed, PuzzlePieceDiscarded,
    PuzzlePieceDrawn, PuzzlePiecePlaced, Result, SceneMarkerTaken, ScoreDeclared, Declared, SetupCompleted, Special,
    SpecificEventRevealed, SpecificEventSetAside, StartingCardsDrawn, StartingPlotSelected, State, Suspect,
    SuspectKilled, TimeSpent, Token, TurnEnded, TurnStarted, TwilightCardDiscarded, TwilightCardDrawn,
    TwilightCardPlayed, TwilightShifted, UndealtHunchesBoxed, WindowClosed, Window,
)
from . import deltas as delta_mod
from .edits import drew, reshuffled, set_lead, sorted_add, take_card, to_bottom, with_player, with_suspect, without
from .txn import BoundRules


def into_hand(rules: BoundRules, state: State, seat: str, cards: tuple[str, ...]) -> State:
    for card in cards:
        state = take_card(rules, state, card)
    return with_player(state, seat, hand=sorted_add(state.players[seat].hand, *cards))


def evolve(rules: BoundRules, state: State, event: Event) -> State:
    """``state`` after ``event``: the handler of its kind, from the table below."""
    handler = HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"android: unknown event {event!r}")
    return handler(rules, state, event)


Handler = Callable[["BoundRules", State, Any], State]
#: one handler per kind of event: (rules, state, event) -> the state after it
HANDLERS: Handlers[Handler] = Handlers("android fold")
_on = HANDLERS.on


@_on(SetupCompleted, LeadFollowed, LeadUseSkipped, BenefitTaken)
def _unchanged(rules: BoundRules, state: State, event: Any) -> State:
    """Facts that change nothing in the state (they are in the log for the record)."""
    return state


# -- setup (§2) --------------------------------------------------------------------------------------------------

@_on(MurderChosen)
def _murder_chosen(rules: BoundRules, state: State, event: MurderChosen) -> State:
    m = rules.data.murders[event.murder]
    active = m.suspects[: len(rules.players) + 1]
    return replace(
        state, murder=event.murder, active_suspects=active, day=1, lily_lockwell=m.lily[0],
        jimmy_the_snitch=m.jimmy[0], scene=replace(state.scene, location=m.crime_scene),
        suspects={s: Suspect(files={t: () for t in LEAD_TYPES}) for s in sorted(active)})


@_on(DetectiveAssigned)
def _detective_assigned(rules: BoundRules, state: State, event: DetectiveAssigned) -> State:
    data, det = rules.data, event.detective
    d = data.detectives[det]
    player = Player(
        detective=det, location=d.start_location, warrant_supply=2, hero_markers_free=5,
        favors={t: 0 for t in ("corp", "political", "society", "street")},
        tokens={t: 0 for t in ("conspiracy", "haas", "jinteki")},
        npc={n: Npc(favor_supply=tokens, status=status) for n, status, tokens in d.npcs},
        npc_favors={n: 0 for n, _s, tokens in d.npcs if tokens})
    decks = dict(state.decks)
    decks[det] = {
        kind: Deck(face_down=tuple(sorted(c.id for c in data.cards.values() if c.detective == det and c.deck == kind)))
        for kind in ("dark", "light")}
    players = dict(state.players)
    players[event.seat] = player
    return replace(state, players=players, decks=decks)


@_on(ComponentsPlaced)
def _components_placed(rules: BoundRules, state: State, event: ComponentsPlaced) -> State:
    data = rules.data
    m = data.murders[state.murder or ""]
    dets = {p.detective for p in state.players.values()}
    leads: dict[str, dict[str, str]] = {"testimony": {}, "physical": {}, "document": {}}
    for s in sorted(data.suspects):
        leads["testimony"][s] = m.testimony_leads[s] if s in state.active_suspects and s in m.testimony_leads else "box"
    for det in sorted(data.detectives):
        for t in ("physical", "document"):
            leads[t][det] = data.detectives[det].leads[t] if det in dets else "box"
    banks = dict(BANKS)
    banks["alibi"] = int(rules.options["alibi_supply"])
    pz = data.puzzle
    piles = {t: tuple(sorted(p.id for p in pz.pieces.values() if p.type == t)) for t in PILES}
    players = {s: replace(p, hero_markers_free=p.hero_markers_free - 1) for s, p in state.players.items()}
    general = tuple(sorted(e.id for e in data.events.values() if e.kind == "general"))
    return replace(
        state, leads=leads, banks=banks, evidence_pile={k: n for k, (n, _v) in EVIDENCE.items()},
        puzzle=replace(state.puzzle, piles=piles, placed={pz.center_cell: Placement(piece="center")},
                       markers={s: "shift" for s in rules.players}),
        players=players, events=replace(state.events, general_deck=general))


@_on(HunchesDealt)
def _hunches_dealt(rules: BoundRules, state: State, event: HunchesDealt) -> State:
    return with_player(state, event.seat, hunches=Hunches(guilty=event.guilty, innocent=event.innocent))


@_on(UndealtHunchesBoxed)
def _undealt_hunches_boxed(rules: BoundRules, state: State, event: UndealtHunchesBoxed) -> State:
    return replace(state, box=sorted_add(state.box, f"hunch.guilty.{event.guilty}", f"hunch.innocent.{event.innocent}"))


@_on(StartingPlotSelected)
def _starting_plot_selected(rules: BoundRules, state: State, event: StartingPlotSelected) -> State:
    return with_player(state, event.seat, plot=Plot(current=event.plot))


@_on(StartingCardsDrawn)
def _starting_cards_drawn(rules: BoundRules, state: State, event: StartingCardsDrawn) -> State:
    return into_hand(rules, state, event.seat, event.cards)


@_on(ExtraCardsDrawn)
def _extra_cards_drawn(rules: BoundRules, state: State, event: ExtraCardsDrawn) -> State:
    state = into_hand(rules, state, event.seat, event.cards)
    return replace(state, setup=replace(state.setup, extra_drawn=True))


@_on(SpecificEventSetAside)
def _specific_event_set_aside(rules: BoundRules, state: State, event: SpecificEventSetAside) -> State:
    m = rules.data.murders[state.murder or ""]
    card = event.card
    boxed = () if card == "sealed" else tuple(e for e in m.specific_events if e != card)
    return replace(state, events=replace(state.events, specific=card), box=sorted_add(state.box, *boxed),
                   setup=replace(state.setup, specific_set=True))


@_on(FirstPlayerChosen)
def _first_player_chosen(rules: BoundRules, state: State, event: FirstPlayerChosen) -> State:
    seat = event.seat
    state = with_player(state, seat, hero_markers_free=state.players[seat].hero_markers_free - 1)
    return replace(state, first_player=seat, time_sheet_holder=seat, scene=replace(state.scene, hero=seat))


@_on(HeroSetupApplied)
def _hero_setup_applied(rules: BoundRules, state: State, event: HeroSetupApplied) -> State:
    return _hero_setup(rules, state, event.seat, event.detective)


@_on(MemoryCardsDealt)
def _memory_cards_dealt(rules: BoundRules, state: State, event: MemoryCardsDealt) -> State:
    deal = event.deal
    for md in deal:
        state = with_player(state, md.seat, memory_card=md.card)
    rest = tuple(c for det in sorted({p.detective for p in state.players.values() if p.detective})
                 for c in rules.data.detectives[det].memory_cards if c not in {x.card for x in deal})
    return replace(state, box=sorted_add(state.box, *rest), setup=replace(state.setup, memory_dealt=True))


# -- the day: turns, time, movement, cards ------------------------------------------------------------------------

@_on(DayStarted)
def _day_started(rules: BoundRules, state: State, event: DayStarted) -> State:
    data, day, seat = rules.data, event.day, event.seat
    order = rules.rotation(seat)
    players = {s: replace(p, abilities_used=()) for s, p in state.players.items()}
    state = replace(state, phase="day", day=day, turn_order=order, turns_done=(), active_seat=seat,
                    time_left=event.time, time_sheet_holder=seat, end_of_day_queue=(), players=players,
                    free_draw_window=None, last_action=None)
    if day == data.days_per_week + 1 and rules.options["week_two_relocation"] == "murder_sheet" and state.murder:
        m = data.murders[state.murder]
        state = replace(state, lily_lockwell=m.lily[1], jimmy_the_snitch=m.jimmy[1])
    return state


@_on(TimeSpent)
def _time_spent(rules: BoundRules, state: State, event: TimeSpent) -> State:
    return replace(state, time_left=state.time_left - event.amount)


@_on(DetectiveMoved)
def _detective_moved(rules: BoundRules, state: State, event: DetectiveMoved) -> State:
    state = with_player(state, event.seat, location=event.to)
    if event.means != "declared":
        quality = rules.loc(event.to).quality
        state = replace(state, free_draw_window=Window(quality=quality, seat=event.seat)
                        if quality in ("ritzy", "seedy") else None)
    return state


@_on(DropshipPassSpent)
def _dropship_pass_spent(rules: BoundRules, state: State, event: DropshipPassSpent) -> State:
    state = with_player(state, event.seat, dropship_passes=state.players[event.seat].dropship_passes - 1)
    return replace(state, banks={**state.banks, "dropship_pass": state.banks["dropship_pass"] + 1})


@_on(TwilightCardDrawn)
def _twilight_card_drawn(rules: BoundRules, state: State, event: TwilightCardDrawn) -> State:
    state = into_hand(rules, state, event.seat, (event.card,))
    return replace(state, free_draw_window=None) if event.free else state


@_on(DeckReshuffled)
def _deck_reshuffled(rules: BoundRules, state: State, event: DeckReshuffled) -> State:
    det, _, kind = event.deck.partition(".")
    decks = {k: dict(v) for k, v in state.decks.items()}
    dk = decks[det][kind]
    decks[det][kind] = Deck(face_down=sorted_add(dk.face_down, *dk.bottom), bottom=())
    return reshuffled(replace(state, decks=decks), event.deck)


@_on(TwilightCardDiscarded)
def _twilight_card_discarded(rules: BoundRules, state: State, event: TwilightCardDiscarded) -> State:
    state = with_player(state, event.seat, hand=without(state.players[event.seat].hand, event.card))
    return to_bottom(rules, state, event.card)


@_on(ActionNoted)
def _action_noted(rules: BoundRules, state: State, event: ActionNoted) -> State:
    return replace(state, last_action=event.action)


@_on(CardReturned)
def _card_returned(rules: BoundRules, state: State, event: CardReturned) -> State:
    card = event.card
    state = with_player(state, event.seat, hand=without(state.players[event.seat].hand, card))
    c = rules.data.cards[card]
    decks = {k: dict(v) for k, v in state.decks.items()}
    dk = decks[c.detective][c.deck]
    decks[c.detective][c.deck] = replace(dk, face_down=sorted_add(dk.face_down, card))
    # back where it was drawn from: drawing again draws it again (no redraw by cancelling, §4.30)
    return drew(replace(state, decks=decks, last_action=None), f"{c.detective}.{c.deck}", -1)


@_on(SceneHeroRestored)
def _scene_hero_restored(rules: BoundRules, state: State, event: SceneHeroRestored) -> State:
    seat, hero = event.seat, event.hero
    state = with_player(state, seat, hero_markers_free=state.players[seat].hero_markers_free + 1)
    if hero is not None and hero in state.players:
        state = with_player(state, hero, hero_markers_free=state.players[hero].hero_markers_free - 1)
    return replace(state, scene=replace(state.scene, hero=hero), last_action=None)


@_on(LeadRemoved)
def _lead_removed(rules: BoundRules, state: State, event: LeadRemoved) -> State:
    return set_lead(state, event.lead, "box")


@_on(LeadMoved)
def _lead_moved(rules: BoundRules, state: State, event: LeadMoved) -> State:
    return set_lead(state, event.lead, event.to)


@_on(EvidenceDrawn)
def _evidence_drawn(rules: BoundRules, state: State, event: EvidenceDrawn) -> State:
    kind = event.kind
    state = drew(replace(state, evidence_pile={**state.evidence_pile, kind: state.evidence_pile[kind] - 1}),
                 "evidence_pile")
    return with_player(state, event.seat, drawn_evidence=kind)


@_on(EvidencePlaced)
def _evidence_placed(rules: BoundRules, state: State, event: EvidencePlaced) -> State:
    seat, sus, file = event.seat, event.suspect, event.file
    token = Token(kind=state.players[seat].drawn_evidence or "?", face_up=event.face_up, placed_by=seat)
    state = with_player(state, seat, drawn_evidence=None)
    sv = state.suspects[sus]
    return with_suspect(state, sus, files={**sv.files, file: (*sv.files[file], token)})


@_on(EvidenceShown)
def _evidence_shown(rules: BoundRules, state: State, event: EvidenceShown) -> State:
    sv = state.suspects[event.suspect]
    toks = list(sv.files[event.file])
    toks[event.index] = replace(toks[event.index], face_up=True, kind=event.kind)
    return with_suspect(state, event.suspect, files={**sv.files, event.file: tuple(toks)})


@_on(Pushed)
def _pushed(rules: BoundRules, state: State, event: Pushed) -> State:
    return replace(state, pending=(event.step, *state.pending))


@_on(Popped)
def _popped(rules: BoundRules, state: State, event: Popped) -> State:
    return replace(state, pending=state.pending[1:])


@_on(WindowClosed)
def _window_closed(rules: BoundRules, state: State, event: WindowClosed) -> State:
    return replace(state, free_draw_window=None)


@_on(PuzzlePieceDrawn)
def _puzzle_piece_drawn(rules: BoundRules, state: State, event: PuzzlePieceDrawn) -> State:
    piles = dict(state.puzzle.piles)
    piles[event.pile] = without(piles[event.pile], event.piece)
    return drew(replace(state, puzzle=replace(state.puzzle, piles=piles)), f"puzzle.{event.pile}")


@_on(HeroMarkersMoved)
def _hero_markers_moved(rules: BoundRules, state: State, event: HeroMarkersMoved) -> State:
    return replace(state, puzzle=replace(state.puzzle, markers={**state.puzzle.markers, **event.markers}))


@_on(PuzzlePiecePlaced)
def _puzzle_piece_placed(rules: BoundRules, state: State, event: PuzzlePiecePlaced) -> State:
    placed = {**state.puzzle.placed, event.cell: Placement(piece=event.piece, rotation=event.rotation)}
    return replace(state, puzzle=replace(state.puzzle, placed=placed))


@_on(PuzzlePieceDiscarded)
def _puzzle_piece_discarded(rules: BoundRules, state: State, event: PuzzlePieceDiscarded) -> State:
    return replace(state, puzzle=replace(state.puzzle, discarded=sorted_add(state.puzzle.discarded, event.piece)))


@_on(TwilightShifted)
def _twilight_shifted(rules: BoundRules, state: State, event: TwilightShifted) -> State:
    return with_player(state, event.seat, twilight=state.players[event.seat].twilight + event.amount)


@_on(FavorGained)
def _favor_gained(rules: BoundRules, state: State, event: FavorGained) -> State:
    t, amount = event.favor_type, event.amount
    p = state.players[event.seat]
    state = with_player(state, event.seat, favors={**p.favors, t: p.favors.get(t, 0) + amount})
    return replace(state, banks={**state.banks, f"{t}_favor": state.banks[f"{t}_favor"] - amount})


@_on(BaggagePlaced)
def _baggage_placed(rules: BoundRules, state: State, event: BaggagePlaced) -> State:
    amount = event.amount
    cur = state.players[event.seat].plot or Plot(current="?")
    cur = replace(cur, good_baggage=cur.good_baggage + amount) if event.side == "good" else \
        replace(cur, bad_baggage=cur.bad_baggage + amount)
    state = with_player(state, event.seat, plot=cur)
    return replace(state, banks={**state.banks, "baggage": state.banks["baggage"] - amount})


@_on(TwilightCardPlayed)
def _twilight_card_played(rules: BoundRules, state: State, event: TwilightCardPlayed) -> State:
    seat, card = event.seat, event.card
    p = state.players[seat]
    state = with_player(state, seat, hand=without(p.hand, card))
    if event.to == "in_play":
        return with_player(state, seat, in_play=sorted_add(p.in_play, card))
    if event.to == "box":
        return replace(state, box=sorted_add(state.box, card))
    return to_bottom(rules, state, card)


@_on(SceneMarkerTaken)
def _scene_marker_taken(rules: BoundRules, state: State, event: SceneMarkerTaken) -> State:
    old = state.scene.hero
    if old is not None and old in state.players:
        state = with_player(state, old, hero_markers_free=state.players[old].hero_markers_free + 1)
    state = with_player(state, event.seat, hero_markers_free=state.players[event.seat].hero_markers_free - 1)
    return replace(state, scene=replace(state.scene, hero=event.seat))


@_on(LocationAbilityUsed)
def _location_ability_used(rules: BoundRules, state: State, event: LocationAbilityUsed) -> State:
    used = state.players[event.seat].abilities_used
    return with_player(state, event.seat, abilities_used=sorted_add(used, event.location))


@_on(EventAbilityUsed)
def _event_ability_used(rules: BoundRules, state: State, event: EventAbilityUsed) -> State:
    if not event.vanishes:
        return state
    active = tuple(a for a in state.events.active if a.event != event.event)
    return replace(state, events=replace(state.events, active=active))


@_on(AlibiPlaced)
def _alibi_placed(rules: BoundRules, state: State, event: AlibiPlaced) -> State:
    state = with_suspect(state, event.suspect, alibis=state.suspects[event.suspect].alibis + event.amount)
    return replace(state, banks={**state.banks, "alibi": state.banks["alibi"] - event.amount})


@_on(TurnEnded)
def _turn_ended(rules: BoundRules, state: State, event: TurnEnded) -> State:
    return replace(state, turns_done=(*state.turns_done, event.seat), free_draw_window=None, last_action=None)


@_on(TurnStarted)
def _turn_started(rules: BoundRules, state: State, event: TurnStarted) -> State:
    return replace(state, active_seat=event.seat, time_left=event.time, time_sheet_holder=event.seat)


@_on(DeltaApplied)
def _delta_applied(rules: BoundRules, state: State, event: DeltaApplied) -> State:
    return delta_mod.apply(rules, state, event.seat, event.delta)


@_on(SuspectKilled)
def _suspect_killed(rules: BoundRules, state: State, event: SuspectKilled) -> State:
    return with_suspect(state, event.suspect, alive=False)


@_on(AuditFlagged)
def _audit_flagged(rules: BoundRules, state: State, event: AuditFlagged) -> State:
    return replace(state, audit_flags=(*state.audit_flags, Flag(kind=event.kind, note=event.note)))


# -- the end of the day and of the game ---------------------------------------------------------------------------

@_on(DayPhaseEnded)
def _day_phase_ended(rules: BoundRules, state: State, event: DayPhaseEnded) -> State:
    return replace(state, phase="end_of_day", end_of_day_queue=event.queue, active_seat=None, time_left=0)


@_on(FirstPlayerChanged)
def _first_player_changed(rules: BoundRules, state: State, event: FirstPlayerChanged) -> State:
    return replace(state, first_player=event.seat)


@_on(GeneralEventResolved)
def _general_event_resolved(rules: BoundRules, state: State, event: GeneralEventResolved) -> State:
    evs, card = state.events, event.card
    if card is not None:
        rest = without(evs.general_deck, card)
        e = rules.data.events[card]
        if event.grants and e.grants is not None:
            evs = replace(evs, general_deck=rest, active=(*evs.active, ActiveAbility(
                event=card, location=e.grant_location, time=e.grants.time, uses=e.uses)))
        else:
            evs = replace(evs, general_deck=rest, general_discard=(*evs.general_discard, card))
    state = drew(state, "general_deck") if card is not None else state
    return replace(state, events=evs, end_of_day_queue=state.end_of_day_queue[1:])


@_on(SpecificEventRevealed)
def _specific_event_revealed(rules: BoundRules, state: State, event: SpecificEventRevealed) -> State:
    return replace(state, events=replace(state.events, specific=event.card, specific_revealed=True),
                   end_of_day_queue=state.end_of_day_queue[1:])


@_on(PlotsResolved)
def _plots_resolved(rules: BoundRules, state: State, event: PlotsResolved) -> State:
    return replace(state, end_of_day_queue=state.end_of_day_queue[1:])


@_on(GameEnded)
def _game_ended(rules: BoundRules, state: State, event: GameEnded) -> State:
    suspects = {k: replace(s, files={f: tuple(replace(t, face_up=True) for t in toks) for f, toks in s.files.items()})
                for k, s in state.suspects.items()}
    return replace(state, phase="closing", case=event.case, suspects=suspects, active_seat=None, time_left=0,
                   end_of_day_queue=())


@_on(ScoreDeclared)
def _score_declared(rules: BoundRules, state: State, event: ScoreDeclared) -> State:
    declared = (*state.players[event.seat].declared, Declared(source=event.source, vp=event.vp))
    return with_player(state, event.seat, declared=declared)


@_on(CaseClosed)
def _case_closed(rules: BoundRules, state: State, event: CaseClosed) -> State:
    return replace(state, phase="over", result=Result(scores=event.scores, winners=event.winners))


def _hero_setup(rules: BoundRules, state: State, seat: str, det: str) -> State:
    hs = rules.data.detectives[det].hero_setup
    p = state.players[seat]
    warrants = tuple(sorted(hs.get("warrants", ())))
    npc_favors = dict(p.npc_favors)
    npc = dict(p.npc)
    for name, n in sorted(dict(hs.get("npc_favors", {})).items()):
        if name == "chairman_haas" and rules.options["floyd_start_favor"] == "director_hiro":
            name = "director_hiro"
        npc_favors[name] = npc_favors.get(name, 0) + int(n)
        if name in npc:
            npc[name] = replace(npc[name], favor_supply=npc[name].favor_supply - int(n))
    special = dict(hs.get("special", {}))
    passes = int(hs.get("dropship_passes", 0))
    state = with_player(state, seat, warrants=warrants, warrant_supply=p.warrant_supply - len(warrants),
                        npc_favors=npc_favors, npc=npc, dropship_passes=p.dropship_passes + passes,
                        in_play=sorted_add(p.in_play, *hs.get("in_play", ())),
                        hero_markers_free=p.hero_markers_free - int(hs.get("hero_markers", 0)),
                        special=Special(directives=tuple(special["directives"]) if "directives" in special else None,
                                        money=special.get("money"), mood=special.get("mood"),
                                        sanity=special.get("sanity")))
    if passes:
        state = replace(state, banks={**state.banks, "dropship_pass": state.banks["dropship_pass"] - passes})
    return state
