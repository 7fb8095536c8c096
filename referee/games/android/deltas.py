"""Declared effects (§4.30): each delta checked against the state it meets (ranges, banks, zones, ids),
then applied. ``problem`` returns a message naming what is impossible, or None; ``apply`` is the fold
of one accepted delta. Pure."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from .data import FAVOR_TYPES, LEAD_TYPES
from .model import (
    AlibiDelta, BaggageDelta, CancelLastActionDelta, CardDelta, DirectiveDelta, DropshipPassDelta, EventAbilityDelta,
    ActiveAbility, FavorDelta, FlipEvidenceDelta, HeroMarkerDelta, HitDelta, LeadDelta, MarkerDelta, MoodDelta,
    MoveDetectiveDelta, NoteDelta, NpcFavorDelta, NpcStatusDelta, PeekDelta, Plot, PlotDelta, SceneHeroDelta,
    SpecialDelta, State, TimeDelta, TimeModifierDelta, TokenDelta, TraumaDelta, TwilightDelta, TwilightFullDelta,
    VpDelta, WarrantDelta,
)
from .edits import set_lead, sorted_add, to_bottom, with_player, with_suspect, without
from .txn import BoundRules


def _bank_ok(rules: BoundRules, state: State, bank: str, take: int) -> str | None:
    """``take`` units out of a bank (negative: back into it)."""
    have = state.banks.get(bank, 0)
    if take > 0 and have < take and rules.options["bank_limits"] == "hard":
        return f"banks.{bank} holds {have}, not {take}"
    return None


def problem(rules: BoundRules, state: State, delta: Any) -> str | None:  # noqa: C901
    seat = getattr(delta, "seat", None)
    if seat is not None and not isinstance(delta, SceneHeroDelta) and seat not in state.players:
        return f"{seat!r} is not a seat"
    p = state.players.get(seat) if seat else None
    match delta:
        case MoveDetectiveDelta(location=loc) | WarrantDelta(location=loc) | MarkerDelta(location=loc):
            if loc not in rules.map.locations:
                return f"{loc!r} is not a location"
            if isinstance(delta, WarrantDelta) and p is not None:
                if delta.action == "place" and p.warrant_supply < 1:
                    return f"{seat} has no warrant left to place"
                if delta.action == "remove" and loc not in p.warrants:
                    return f"{seat} has no warrant on {loc}"
        case TimeDelta(amount=n):
            if state.time_left + n < 0:
                return f"time_left would be {state.time_left + n}"
        case TimeModifierDelta():
            pass
        case TwilightDelta(amount=n):
            assert p is not None
            lo, hi = rules.track(p.detective or "")
            if not lo <= p.twilight + n <= hi:
                return f"{seat}'s twilight would be {p.twilight + n}, outside {lo}..{hi}"
        case TwilightFullDelta():
            pass
        case FavorDelta(favor_type=t, amount=n):
            assert p is not None
            if t not in FAVOR_TYPES:
                return f"{t!r} is not a favor type ({', '.join(FAVOR_TYPES)})"
            if p.favors.get(t, 0) + n < 0:
                return f"{seat} has {p.favors.get(t, 0)} {t} favor(s), not {-n}"
            return _bank_ok(rules, state, f"{t}_favor", n)
        case NpcFavorDelta(npc=npc, amount=n):
            assert p is not None
            if npc not in p.npc:
                return f"{npc!r} is not one of {seat}'s NPCs"
            if p.npc_favors.get(npc, 0) + n < 0 or p.npc[npc].favor_supply - n < 0:
                return f"{seat}'s {npc} favors would leave 0..3"
        case NpcStatusDelta(npc=npc):
            assert p is not None
            if npc not in p.npc:
                return f"{npc!r} is not one of {seat}'s NPCs"
        case BaggageDelta(side=side, amount=n):
            assert p is not None
            if p.plot is None:
                return f"{seat} has no plot"
            have = p.plot.good_baggage if side == "good" else p.plot.bad_baggage
            if have + n < 0:
                return f"{seat}'s plot has {have} {side} baggage, not {-n}"
            return _bank_ok(rules, state, "baggage", n)
        case TraumaDelta(amount=n) | DropshipPassDelta(amount=n):
            assert p is not None
            bank, have = ("trauma", p.trauma) if isinstance(delta, TraumaDelta) else ("dropship_pass", p.dropship_passes)
            if have + n < 0:
                return f"{seat} has {have} {bank}, not {-n}"
            return _bank_ok(rules, state, bank, n)
        case TokenDelta(token=t, amount=n):
            assert p is not None
            if p.tokens.get(t, 0) + n < 0:
                return f"{seat} has {p.tokens.get(t, 0)} {t} tokens"
            return _bank_ok(rules, state, t, n)
        case HitDelta(suspect=s, amount=n) | AlibiDelta(suspect=s, amount=n):
            if s not in state.suspects:
                return f"{s!r} is not a suspect in this game"
            bank = "hit" if isinstance(delta, HitDelta) else "alibi"
            have = state.suspects[s].hits if bank == "hit" else state.suspects[s].alibis
            if have + n < 0:
                return f"{s} has {have} {bank}s, not {-n}"
            return _bank_ok(rules, state, bank, n)
        case FlipEvidenceDelta(suspect=s, file=f, index=i):
            if s not in state.suspects or f not in LEAD_TYPES:
                return f"no file {f!r} of a suspect {s!r} in this game"
            if not 0 <= i < len(state.suspects[s].files[f]):
                return f"{s}'s {f} file has no token {i}"
        case PeekDelta(suspect=s):
            if s not in state.suspects:
                return f"{s!r} is not a suspect in this game"
        case LeadDelta(lead=lead, location=loc):
            t, _, owner = lead.partition(".")
            if t not in state.leads or owner not in state.leads[t]:
                return f"{lead!r} is not a lead"
            if loc != "box" and loc not in rules.map.locations:
                return f"{loc!r} is not a location"
        case CardDelta(card=card, zone=zone):
            if card not in rules.data.cards:
                return f"{card!r} is not a twilight card"
            where = rules.card_zone(state, card)
            if where is None:
                return f"{card} is not in the game"
            target = zone.partition(".")
            if zone not in ("face_down", "bottom", "box") and not (target[0] in state.players and target[2] in ("hand", "in_play")):
                return f"zone {zone!r}: expected <seat>.hand, <seat>.in_play, face_down, bottom or box"
        case SpecialDelta(track=track):
            assert p is not None
            if getattr(p.special, track) is None:
                return f"{seat} has no {track} track"
        case MoodDelta() | DirectiveDelta() | VpDelta() | NoteDelta():
            pass
        case PlotDelta(plot=plot):
            assert p is not None
            if plot not in {x for x, _e in rules.data.detectives[p.detective or ""].plots}:
                return f"{plot!r} is not a plot of {p.detective}"
        case HeroMarkerDelta(amount=n):
            assert p is not None
            if not 0 <= p.hero_markers_free + n <= 5:
                return f"{seat}'s free hero markers would be {p.hero_markers_free + n}"
        case SceneHeroDelta(seat=who):
            if who != "none" and who not in state.players:
                return f"{who!r} is not a seat"
        case EventAbilityDelta(event=ev, location=loc, action=action):
            if ev not in rules.data.events or loc not in rules.map.locations:
                return f"no event {ev!r} or location {loc!r}"
            if action == "remove" and not any(a.event == ev for a in state.events.active):
                return f"{ev} has no ability on the map"
        case CancelLastActionDelta():
            return None
    return None


def apply(rules: BoundRules, state: State, actor: str, delta: Any) -> State:  # noqa: C901
    seat = getattr(delta, "seat", None)
    p = state.players.get(seat) if seat else None

    def bank(name: str, change: int) -> State:
        return replace(state, banks={**state.banks, name: state.banks.get(name, 0) + change})

    match delta:
        case MoveDetectiveDelta(seat=s, location=loc):
            return with_player(state, s, location=loc)
        case TimeDelta(amount=n):
            return replace(state, time_left=state.time_left + n)
        case TimeModifierDelta(seat=s, amount=n):
            assert p is not None
            return with_player(state, s, time_modifier=p.time_modifier + n)
        case TwilightDelta(seat=s, amount=n):
            assert p is not None
            return with_player(state, s, twilight=p.twilight + n)
        case TwilightFullDelta(seat=s, direction=d):
            assert p is not None
            lo, hi = rules.track(p.detective or "")
            return with_player(state, s, twilight=hi if d == "dark" else lo)
        case FavorDelta(seat=s, favor_type=t, amount=n):
            assert p is not None
            state = with_player(state, s, favors={**p.favors, t: p.favors.get(t, 0) + n})
            return bank(f"{t}_favor", -n)
        case NpcFavorDelta(seat=s, npc=npc, amount=n):
            assert p is not None
            state = with_player(state, s, npc_favors={**p.npc_favors, npc: p.npc_favors.get(npc, 0) + n},
                                npc={**p.npc, npc: replace(p.npc[npc], favor_supply=p.npc[npc].favor_supply - n)})
            return state
        case NpcStatusDelta(seat=s, npc=npc, status=st):
            assert p is not None
            return with_player(state, s, npc={**p.npc, npc: replace(p.npc[npc], status=st)})
        case BaggageDelta(seat=s, side=side, amount=n):
            assert p is not None and p.plot is not None
            plot = replace(p.plot, good_baggage=p.plot.good_baggage + n) if side == "good" else \
                replace(p.plot, bad_baggage=p.plot.bad_baggage + n)
            state = with_player(state, s, plot=plot)
            return bank("baggage", -n)
        case TraumaDelta(seat=s, amount=n):
            assert p is not None
            state = with_player(state, s, trauma=p.trauma + n)
            return bank("trauma", -n)
        case DropshipPassDelta(seat=s, amount=n):
            assert p is not None
            state = with_player(state, s, dropship_passes=p.dropship_passes + n)
            return bank("dropship_pass", -n)
        case TokenDelta(seat=s, token=t, amount=n):
            assert p is not None
            state = with_player(state, s, tokens={**p.tokens, t: p.tokens.get(t, 0) + n})
            return bank(t, -n)
        case WarrantDelta(seat=s, location=loc, action=action):
            assert p is not None
            if action == "place":
                return with_player(state, s, warrants=sorted_add(p.warrants, loc), warrant_supply=p.warrant_supply - 1)
            return with_player(state, s, warrants=without(p.warrants, loc), warrant_supply=p.warrant_supply + 1)
        case HitDelta(suspect=sus, amount=n):
            state = with_suspect(state, sus, hits=state.suspects[sus].hits + n)
            return bank("hit", -n)
        case AlibiDelta(suspect=sus, amount=n):
            state = with_suspect(state, sus, alibis=state.suspects[sus].alibis + n)
            return bank("alibi", -n)
        case FlipEvidenceDelta(suspect=sus, file=f, index=i, face=face):
            sv = state.suspects[sus]
            toks = list(sv.files[f])
            toks[i] = replace(toks[i], face_up=face == "up")
            return with_suspect(state, sus, files={**sv.files, f: tuple(toks)})
        case PeekDelta(seat=s, suspect=sus):
            others = tuple(x for x in state.suspects[sus].peeked_by if x != s)
            return with_suspect(state, sus, peeked_by=sorted_add(others, s))
        case LeadDelta(lead=lead, location=loc):
            return set_lead(state, lead, loc)
        case MarkerDelta(marker=m, location=loc):
            return replace(state, lily_lockwell=loc) if m == "lily_lockwell" else replace(state, jimmy_the_snitch=loc)
        case CardDelta(card=card, zone=zone):
            return _card_to(rules, rules.remove_card(state, card), card, zone)
        case SpecialDelta(seat=s, track=track, amount=n):
            assert p is not None
            return with_player(state, s, special=replace(p.special, **{track: (getattr(p.special, track) or 0) + n}))
        case MoodDelta(seat=s, side=side):
            assert p is not None
            return with_player(state, s, special=replace(p.special, mood=side))
        case DirectiveDelta(seat=s, card=card, action=action):
            assert p is not None
            have = p.special.directives or ()
            new = sorted_add(have, card) if action == "in" and card not in have else without(have, card)
            return with_player(state, s, special=replace(p.special, directives=new))
        case PlotDelta(seat=s, plot=plot):
            assert p is not None
            # the new plot card takes the old one's place; baggage on it moves only by baggage deltas
            return with_player(state, s, plot=replace(p.plot, current=plot) if p.plot else Plot(current=plot))
        case VpDelta(seat=s, amount=n):
            assert p is not None
            return with_player(state, s, vp=p.vp + n)
        case HeroMarkerDelta(seat=s, amount=n):
            assert p is not None
            return with_player(state, s, hero_markers_free=p.hero_markers_free + n)
        case SceneHeroDelta(seat=who):
            return replace(state, scene=replace(state.scene, hero=None if who == "none" else who))
        case EventAbilityDelta(event=ev, location=loc, action=action):
            active = tuple(a for a in state.events.active if a.event != ev)
            if action == "add":
                e = rules.data.events[ev]
                active = (*active, ActiveAbility(event=ev, location=loc, time=e.grants.time if e.grants else 0, uses=e.uses))
            return replace(state, events=replace(state.events, active=active))
        case NoteDelta() | CancelLastActionDelta():
            return state
    raise TypeError(f"android: unknown delta {delta!r}")


def _card_to(rules: BoundRules, state: State, card: str, zone: str) -> State:
    """``card`` (taken from wherever it was) put into ``zone``: its deck face down or at the bottom, the
    box, or a seat's hand or play area (``alice.hand``)."""
    owner, _, where = zone.partition(".")
    if zone == "face_down":
        det, kind = rules.data.cards[card].detective, rules.data.cards[card].deck
        decks = {k: dict(v) for k, v in state.decks.items()}
        decks[det][kind] = replace(decks[det][kind], face_down=sorted_add(decks[det][kind].face_down, card))
        return replace(state, decks=decks)
    if zone == "bottom":
        return to_bottom(rules, state, card)
    if zone == "box":
        return replace(state, box=sorted_add(state.box, card))
    q = state.players[owner]
    if where == "hand":
        return with_player(state, owner, hand=sorted_add(q.hand, card))
    return with_player(state, owner, in_play=sorted_add(q.in_play, card))
