"""Applying one event to the state (``evolve``): no validation, no choices. Total over every event tag;
the data set (map, decks, murders) is read from the bound rules, never from the event's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec.structs import replace

from .data import BANKS, EVIDENCE, LEAD_TYPES, PILES
from .model import (
    ActionNoted, ActiveAbility, Draws, AlibiPlaced, CardReturned, SceneHeroRestored, AuditFlagged, BaggagePlaced, BenefitTaken, CaseClosed, ComponentsPlaced, Deck,
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

if TYPE_CHECKING:
    from .rules import AndroidRules


def _pl(state: State, seat: str, **changes: Any) -> State:
    players = dict(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=players)


def _sorted_add(items: tuple[str, ...], *new: str) -> tuple[str, ...]:
    return tuple(sorted((*items, *new)))


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    out = list(items)
    if item in out:
        out.remove(item)
    return tuple(out)


def drew(state: State, pile: str, n: int = 1) -> State:
    """``n`` more drawn from ``pile`` (``n`` = -1: a drawn card went back where it was): its next draw
    has a new key."""
    h = state.draws.get(pile, Draws())
    return replace(state, draws={**state.draws, pile: replace(h, drawn=max(0, h.drawn + n))})


def reshuffled(state: State, pile: str) -> State:
    h = state.draws.get(pile, Draws())
    return replace(state, draws={**state.draws, pile: Draws(drawn=0, shuffles=h.shuffles + 1)})


def deck_of(rules: AndroidRules, card: str) -> tuple[str, str] | None:
    c = rules.data.cards.get(card)
    return None if c is None else (c.detective, c.deck)


def take_card(rules: AndroidRules, state: State, card: str) -> State:
    """``card`` out of the face-down part of its deck."""
    where = deck_of(rules, card)
    if where is None or where[0] not in state.decks:
        return state
    det, kind = where
    decks = {k: dict(v) for k, v in state.decks.items()}
    d = decks[det][kind]
    if card not in d.face_down:
        return state
    decks[det][kind] = replace(d, face_down=_without(d.face_down, card))
    return drew(replace(state, decks=decks), f"{det}.{kind}")


def to_bottom(rules: AndroidRules, state: State, card: str) -> State:
    where = deck_of(rules, card)
    if where is None or where[0] not in state.decks:
        return state
    det, kind = where
    decks = {k: dict(v) for k, v in state.decks.items()}
    d = decks[det][kind]
    decks[det][kind] = replace(d, bottom=(*d.bottom, card))
    return replace(state, decks=decks)


def into_hand(rules: AndroidRules, state: State, seat: str, cards: tuple[str, ...]) -> State:
    for card in cards:
        state = take_card(rules, state, card)
    return _pl(state, seat, hand=_sorted_add(state.players[seat].hand, *cards))


def evolve(rules: AndroidRules, state: State, event: Any) -> State:  # noqa: C901 - one case per event
    data = rules.data
    match event:
        case MurderChosen(murder=murder):
            m = data.murders[murder]
            active = m.suspects[: len(rules.players) + 1]
            return replace(
                state, murder=murder, active_suspects=active, day=1, lily_lockwell=m.lily[0],
                jimmy_the_snitch=m.jimmy[0], scene=replace(state.scene, location=m.crime_scene),
                suspects={s: Suspect(files={t: () for t in LEAD_TYPES}) for s in sorted(active)})
        case DetectiveAssigned(seat=seat, detective=det):
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
            players[seat] = player
            return replace(state, players=players, decks=decks)
        case ComponentsPlaced():
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
        case HunchesDealt(seat=seat, guilty=g, innocent=i):
            return _pl(state, seat, hunches=Hunches(guilty=g, innocent=i))
        case UndealtHunchesBoxed(guilty=g, innocent=i):
            return replace(state, box=_sorted_add(state.box, f"hunch.guilty.{g}", f"hunch.innocent.{i}"))
        case StartingPlotSelected(seat=seat, plot=plot):
            return _pl(state, seat, plot=Plot(current=plot))
        case StartingCardsDrawn(seat=seat, cards=cards) | ExtraCardsDrawn(seat=seat, cards=cards):
            state = into_hand(rules, state, seat, cards)
            if isinstance(event, ExtraCardsDrawn):
                state = replace(state, setup=replace(state.setup, extra_drawn=True))
            return state
        case SpecificEventSetAside(card=card):
            m = data.murders[state.murder or ""]
            boxed = () if card == "sealed" else tuple(e for e in m.specific_events if e != card)
            return replace(state, events=replace(state.events, specific=card), box=_sorted_add(state.box, *boxed),
                           setup=replace(state.setup, specific_set=True))
        case FirstPlayerChosen(seat=seat):
            state = _pl(state, seat, hero_markers_free=state.players[seat].hero_markers_free - 1)
            return replace(state, first_player=seat, time_sheet_holder=seat, scene=replace(state.scene, hero=seat))
        case HeroSetupApplied(seat=seat, detective=det):
            return _hero_setup(rules, state, seat, det)
        case MemoryCardsDealt(deal=deal):
            for md in deal:
                state = _pl(state, md.seat, memory_card=md.card)
            rest = tuple(c for det in sorted({p.detective for p in state.players.values() if p.detective})
                         for c in data.detectives[det].memory_cards if c not in {x.card for x in deal})
            return replace(state, box=_sorted_add(state.box, *rest), setup=replace(state.setup, memory_dealt=True))
        case SetupCompleted():
            return state
        case DayStarted(day=day, seat=seat, time=time):
            order = rules.rotation(seat)
            players = {s: replace(p, abilities_used=()) for s, p in state.players.items()}
            state = replace(state, phase="day", day=day, turn_order=order, turns_done=(), active_seat=seat,
                            time_left=time, time_sheet_holder=seat, end_of_day_queue=(), players=players,
                            free_draw_window=None, last_action=None)
            if day == data.days_per_week + 1 and rules.options["week_two_relocation"] == "murder_sheet" and state.murder:
                m = data.murders[state.murder]
                state = replace(state, lily_lockwell=m.lily[1], jimmy_the_snitch=m.jimmy[1])
            return state
        case TimeSpent(amount=amount):
            return replace(state, time_left=state.time_left - amount)
        case DetectiveMoved(seat=seat, to=to, means=means):
            state = _pl(state, seat, location=to)
            if means != "declared":
                quality = rules.loc(to).quality
                state = replace(state, free_draw_window=Window(quality=quality, seat=seat)
                                if quality in ("ritzy", "seedy") else None)
            return state
        case DropshipPassSpent(seat=seat):
            state = _pl(state, seat, dropship_passes=state.players[seat].dropship_passes - 1)
            return replace(state, banks={**state.banks, "dropship_pass": state.banks["dropship_pass"] + 1})
        case TwilightCardDrawn(seat=seat, card=card, free=free):
            state = into_hand(rules, state, seat, (card,))
            return replace(state, free_draw_window=None) if free else state
        case DeckReshuffled(deck=deck):
            det, _, kind = deck.partition(".")
            decks = {k: dict(v) for k, v in state.decks.items()}
            dk = decks[det][kind]
            decks[det][kind] = Deck(face_down=_sorted_add(dk.face_down, *dk.bottom), bottom=())
            return reshuffled(replace(state, decks=decks), deck)
        case TwilightCardDiscarded(seat=seat, card=card):
            state = _pl(state, seat, hand=_without(state.players[seat].hand, card))
            return to_bottom(rules, state, card)
        case LeadFollowed():
            return state
        case ActionNoted(action=action):
            return replace(state, last_action=action)
        case CardReturned(seat=seat, card=card):
            state = _pl(state, seat, hand=_without(state.players[seat].hand, card))
            c = data.cards[card]
            decks = {k: dict(v) for k, v in state.decks.items()}
            dk = decks[c.detective][c.deck]
            decks[c.detective][c.deck] = replace(dk, face_down=_sorted_add(dk.face_down, card))
            # back where it was drawn from: drawing again draws it again (no redraw by cancelling, §4.30)
            return drew(replace(state, decks=decks, last_action=None), f"{c.detective}.{c.deck}", -1)
        case SceneHeroRestored(seat=seat, hero=hero):
            state = _pl(state, seat, hero_markers_free=state.players[seat].hero_markers_free + 1)
            if hero is not None and hero in state.players:
                state = _pl(state, hero, hero_markers_free=state.players[hero].hero_markers_free - 1)
            return replace(state, scene=replace(state.scene, hero=hero), last_action=None)
        case LeadRemoved(lead=lead):
            return _set_lead(state, lead, "box")
        case LeadMoved(lead=lead, to=to):
            return _set_lead(state, lead, to)
        case EvidenceDrawn(seat=seat, kind=kind):
            state = drew(replace(state, evidence_pile={**state.evidence_pile, kind: state.evidence_pile[kind] - 1}),
                         "evidence_pile")
            return _pl(state, seat, drawn_evidence=kind)
        case EvidencePlaced(seat=seat, suspect=sus, file=file, face_up=up):
            token = Token(kind=state.players[seat].drawn_evidence or "?", face_up=up, placed_by=seat)
            state = _pl(state, seat, drawn_evidence=None)
            sv = state.suspects[sus]
            return _sus(state, sus, files={**sv.files, file: (*sv.files[file], token)})
        case EvidenceShown(suspect=sus, file=file, index=i, kind=kind):
            sv = state.suspects[sus]
            toks = list(sv.files[file])
            toks[i] = replace(toks[i], face_up=True, kind=kind)
            return _sus(state, sus, files={**sv.files, file: tuple(toks)})
        case Pushed(step=step):
            return replace(state, pending=(step, *state.pending))
        case Popped():
            return replace(state, pending=state.pending[1:])
        case WindowClosed():
            return replace(state, free_draw_window=None)
        case LeadUseSkipped() | BenefitTaken() | SetupCompleted():
            return state
        case PuzzlePieceDrawn(piece=piece, pile=pile):
            piles = dict(state.puzzle.piles)
            piles[pile] = _without(piles[pile], piece)
            return drew(replace(state, puzzle=replace(state.puzzle, piles=piles)), f"puzzle.{pile}")
        case HeroMarkersMoved(markers=markers):
            return replace(state, puzzle=replace(state.puzzle, markers={**state.puzzle.markers, **markers}))
        case PuzzlePiecePlaced(piece=piece, cell=cell, rotation=rot):
            return replace(state, puzzle=replace(state.puzzle, placed={**state.puzzle.placed, cell: Placement(piece=piece, rotation=rot)}))
        case PuzzlePieceDiscarded(piece=piece):
            return replace(state, puzzle=replace(state.puzzle, discarded=_sorted_add(state.puzzle.discarded, piece)))
        case TwilightShifted(seat=seat, amount=amount):
            return _pl(state, seat, twilight=state.players[seat].twilight + amount)
        case FavorGained(seat=seat, favor_type=t, amount=amount):
            p = state.players[seat]
            state = _pl(state, seat, favors={**p.favors, t: p.favors.get(t, 0) + amount})
            return replace(state, banks={**state.banks, f"{t}_favor": state.banks[f"{t}_favor"] - amount})
        case BaggagePlaced(seat=seat, side=side, amount=amount):
            p = state.players[seat]
            cur = p.plot or Plot(current="?")
            cur = replace(cur, good_baggage=cur.good_baggage + amount) if side == "good" else \
                replace(cur, bad_baggage=cur.bad_baggage + amount)
            state = _pl(state, seat, plot=cur)
            return replace(state, banks={**state.banks, "baggage": state.banks["baggage"] - amount})
        case TwilightCardPlayed(seat=seat, card=card, to=to):
            p = state.players[seat]
            state = _pl(state, seat, hand=_without(p.hand, card))
            if to == "in_play":
                return _pl(state, seat, in_play=_sorted_add(p.in_play, card))
            if to == "box":
                return replace(state, box=_sorted_add(state.box, card))
            return to_bottom(rules, state, card)
        case SceneMarkerTaken(seat=seat):
            old = state.scene.hero
            if old is not None and old in state.players:
                state = _pl(state, old, hero_markers_free=state.players[old].hero_markers_free + 1)
            state = _pl(state, seat, hero_markers_free=state.players[seat].hero_markers_free - 1)
            return replace(state, scene=replace(state.scene, hero=seat))
        case LocationAbilityUsed(seat=seat, location=loc):
            return _pl(state, seat, abilities_used=_sorted_add(state.players[seat].abilities_used, loc))
        case EventAbilityUsed(event=ev, vanishes=vanishes):
            if not vanishes:
                return state
            return replace(state, events=replace(state.events, active=tuple(a for a in state.events.active if a.event != ev)))
        case AlibiPlaced(suspect=sus, amount=amount):
            state = _sus(state, sus, alibis=state.suspects[sus].alibis + amount)
            return replace(state, banks={**state.banks, "alibi": state.banks["alibi"] - amount})
        case TurnEnded(seat=seat):
            return replace(state, turns_done=(*state.turns_done, seat), free_draw_window=None, last_action=None)
        case TurnStarted(seat=seat, time=time):
            return replace(state, active_seat=seat, time_left=time, time_sheet_holder=seat)
        case DayPhaseEnded(queue=queue):
            return replace(state, phase="end_of_day", end_of_day_queue=queue, active_seat=None, time_left=0)
        case FirstPlayerChanged(seat=seat):
            return replace(state, first_player=seat)
        case GeneralEventResolved(card=card, grants=grants):
            evs = state.events
            if card is not None:
                rest = _without(evs.general_deck, card)
                e = data.events[card]
                if grants and e.grants is not None:
                    evs = replace(evs, general_deck=rest, active=(*evs.active, ActiveAbility(
                        event=card, location=e.grant_location, time=e.grants.time, uses=e.uses)))
                else:
                    evs = replace(evs, general_deck=rest, general_discard=(*evs.general_discard, card))
            state = drew(state, "general_deck") if card is not None else state
            return replace(state, events=evs, end_of_day_queue=state.end_of_day_queue[1:])
        case SpecificEventRevealed(card=card):
            return replace(state, events=replace(state.events, specific=card, specific_revealed=True),
                           end_of_day_queue=state.end_of_day_queue[1:])
        case PlotsResolved():
            return replace(state, end_of_day_queue=state.end_of_day_queue[1:])
        case DeltaApplied(seat=seat, delta=delta):
            return delta_mod.apply(rules, state, seat, delta)
        case SuspectKilled(suspect=sus):
            return _sus(state, sus, alive=False)
        case AuditFlagged(kind=kind, note=note):
            return replace(state, audit_flags=(*state.audit_flags, Flag(kind=kind, note=note)))
        case GameEnded(case=case):
            suspects = {k: replace(s, files={f: tuple(replace(t, face_up=True) for t in toks) for f, toks in s.files.items()})
                        for k, s in state.suspects.items()}
            return replace(state, phase="closing", case=case, suspects=suspects, active_seat=None, time_left=0,
                           end_of_day_queue=())
        case ScoreDeclared(seat=seat, source=source, vp=vp):
            return _pl(state, seat, declared=(*state.players[seat].declared, Declared(source=source, vp=vp)))
        case CaseClosed(scores=scores, winners=winners):
            return replace(state, phase="over", result=Result(scores=scores, winners=winners))
        case _:
            raise TypeError(f"android: unknown event {event!r}")


def _sus(state: State, sus: str, **changes: Any) -> State:
    suspects = dict(state.suspects)
    suspects[sus] = replace(suspects[sus], **changes)
    return replace(state, suspects=suspects)


def _set_lead(state: State, lead: str, where: str) -> State:
    t, _, owner = lead.partition(".")
    leads = {k: dict(v) for k, v in state.leads.items()}
    leads[t][owner] = where
    return replace(state, leads=leads)


def _hero_setup(rules: AndroidRules, state: State, seat: str, det: str) -> State:
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
    state = _pl(state, seat, warrants=warrants, warrant_supply=p.warrant_supply - len(warrants), npc_favors=npc_favors,
                npc=npc, dropship_passes=p.dropship_passes + passes,
                in_play=_sorted_add(p.in_play, *hs.get("in_play", ())),
                hero_markers_free=p.hero_markers_free - int(hs.get("hero_markers", 0)),
                special=Special(directives=tuple(special["directives"]) if "directives" in special else None,
                                money=special.get("money"), mood=special.get("mood"), sanity=special.get("sanity")))
    if passes:
        state = replace(state, banks={**state.banks, "dropship_pass": state.banks["dropship_pass"] - passes})
    return state
