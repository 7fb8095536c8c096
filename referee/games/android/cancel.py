"""«Отмена» (§1.12, §4.30 ``cancel_last_action``): the active seat's most recent action does not happen.

Its non-cost effects are reversed, every cost paid stays paid (TIME, a spent pass, favors, a twilight
shift). Each cancellable action leaves a :class:`~.model.LastAction` in the state: where the detective
came from, the card drawn, the hero marker it replaced, the lead followed, or — for a location ability,
an event ability or a light card — the inverse of each effect it had (``undo``, built here by
:func:`inverse` as the effect was applied, the effect declared for it afterwards included) and the
declaration it still awaits (``source``). A location ability still counts as used; an event ability
that vanished on its first use stays gone (its use counted, as a location ability's does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from referee.engine.notation import parse_intent

from .codes import Code
from .model import (
    Intent, ManualEffect,
    ActionNoted, AlibiDelta, BaggageDelta, CancelLastActionDelta, CardDelta, CardReturned, DetectiveMoved,
    DirectiveDelta, DropshipPassDelta, EventAbilityDelta, FavorDelta, FlipEvidenceDelta, HeroMarkerDelta, HitDelta,
    LeadDelta, LeadMoved, MarkerDelta, MoodDelta, MoveDetectiveDelta, NpcFavorDelta, NpcStatusDelta, PlotDelta,
    Popped, SceneHeroDelta, SceneHeroRestored, SpecialDelta, State, TimeDelta, TimeModifierDelta, TokenDelta,
    TraumaDelta, TwilightDelta, TwilightFullDelta, VpDelta, WarrantDelta, DeltaApplied, WindowClosed,
)
from .txn import R_MANUAL, BoundRules, Tx

#: the actions «Отмена» undoes (§4.30)
CANCELLABLE = ("move", "ride_beanstalk", "fly_dropship", "draw_twilight_card", "get_a_jump", "follow_lead",
               "use_location_ability", "use_event_ability", "play_light_card")
#: the actions whose effects are undone delta by delta
BY_DELTAS = ("use_location_ability", "use_event_ability", "play_light_card")


def inverse(rules: BoundRules, s: State, d: Any) -> tuple[Any, ...]:  # noqa: C901 - one case per delta kind
    """The deltas that undo ``d`` applied to ``s`` (none for a look or a note: what was seen stays seen)."""
    seat = getattr(d, "seat", "")
    p = s.players.get(seat) if isinstance(seat, str) else None
    match d:
        case MoveDetectiveDelta(seat=who):
            where = s.players[who].location
            return (MoveDetectiveDelta(seat=who, location=where),) if where else ()
        case TimeDelta(amount=n):
            return (TimeDelta(amount=-n),)
        case TimeModifierDelta(seat=who, amount=n):
            return (TimeModifierDelta(seat=who, amount=-n),)
        case TwilightDelta(seat=who, amount=n):
            return (TwilightDelta(seat=who, amount=-n),)
        case TwilightFullDelta(seat=who, direction=direction):
            assert p is not None
            lo, hi = rules.track(p.detective or "")
            return (TwilightDelta(seat=who, amount=p.twilight - (hi if direction == "dark" else lo)),)
        case FavorDelta(seat=who, favor_type=t, amount=n):
            return (FavorDelta(seat=who, favor_type=t, amount=-n),)
        case NpcFavorDelta(seat=who, npc=npc, amount=n):
            return (NpcFavorDelta(seat=who, npc=npc, amount=-n),)
        case NpcStatusDelta(seat=who, npc=npc):
            assert p is not None
            return (NpcStatusDelta(seat=who, npc=npc, status="dead" if p.npc[npc].status == "dead" else "alive"),)
        case BaggageDelta(seat=who, side=side, amount=n):
            return (BaggageDelta(seat=who, side=side, amount=-n),)
        case TraumaDelta(seat=who, amount=n):
            return (TraumaDelta(seat=who, amount=-n),)
        case DropshipPassDelta(seat=who, amount=n):
            return (DropshipPassDelta(seat=who, amount=-n),)
        case TokenDelta(seat=who, token=t, amount=n):
            return (TokenDelta(seat=who, token=t, amount=-n),)
        case WarrantDelta(seat=who, location=loc, action=action):
            return (WarrantDelta(seat=who, location=loc, action="remove" if action == "place" else "place"),)
        case HitDelta(suspect=x, amount=n):
            return (HitDelta(suspect=x, amount=-n),)
        case AlibiDelta(suspect=x, amount=n):
            return (AlibiDelta(suspect=x, amount=-n),)
        case FlipEvidenceDelta(suspect=x, file=f, index=i):
            was = s.suspects[x].files[f][i].face_up
            return (FlipEvidenceDelta(suspect=x, file=f, index=i, face="up" if was else "down"),)
        case LeadDelta(lead=lead):
            t, _, owner = lead.partition(".")
            return (LeadDelta(lead=lead, location=s.leads[t][owner]),)
        case MarkerDelta(marker=m):
            where = s.lily_lockwell if m == "lily_lockwell" else s.jimmy_the_snitch
            return (MarkerDelta(marker=m, location=where),) if where else ()
        case CardDelta(card=card):
            zone = rules.card_zone(s, card)
            return (CardDelta(card=card, zone=zone),) if zone else ()
        case SpecialDelta(seat=who, track=track, amount=n):
            return (SpecialDelta(seat=who, track=track, amount=-n),)
        case MoodDelta(seat=who):
            assert p is not None
            return (MoodDelta(seat=who, side=p.special.mood),) if p.special.mood else ()
        case DirectiveDelta(seat=who, card=card, action=action):
            assert p is not None
            held = card in (p.special.directives or ())
            if (action == "in") == held:
                return ()
            return (DirectiveDelta(seat=who, card=card, action="out" if action == "in" else "in"),)
        case PlotDelta(seat=who):
            assert p is not None
            return (PlotDelta(seat=who, plot=p.plot.current),) if p.plot else ()
        case VpDelta(seat=who, amount=n):
            return (VpDelta(seat=who, amount=-n),)
        case HeroMarkerDelta(seat=who, amount=n):
            return (HeroMarkerDelta(seat=who, amount=-n),)
        case SceneHeroDelta():
            return (SceneHeroDelta(seat=s.scene.hero or "none"),)
        case EventAbilityDelta(event=ev, location=loc, action=action):
            if action == "add":
                return (EventAbilityDelta(event=ev, location=loc, action="remove"),)
            on_map = [a for a in s.events.active if a.event == ev]
            return (EventAbilityDelta(event=ev, location=on_map[0].location, action="add"),) if on_map else ()
    return ()


def as_text(delta: Any) -> str:
    """A delta in the notation's record form (``favor:raymond:corp:-1``), as the state keeps ``undo``."""
    return ":".join([str(type(delta).__struct_config__.tag), *(str(v) for v in msgspec.structs.astuple(delta))])


def from_text(texts: tuple[str, ...]) -> tuple[Any, ...]:
    if not texts:
        return ()
    intent = parse_intent(Intent, "manual_effect deltas=" + ",".join(texts))
    assert isinstance(intent, ManualEffect)
    return intent.deltas


def cancel_last_action(tx: Tx, i: int, apply_deltas: Callable[[Tx, Sequence[Any], str], None]) -> None:
    """«Отмена»: the active seat's most recent action does not happen; every cost paid stays paid. The
    effects it reverses are applied with ``apply_deltas`` (:func:`.manual.apply_deltas`, which calls this)."""
    s = tx.s
    la = s.last_action
    where = f"delta {i} (cancel_last_action)"
    tx.require(la is not None and la.seat == s.active_seat, Code.MANUAL_INCONSISTENT,
               f"{where}: the active seat has no action to cancel (only before its next accepted intent)", R_MANUAL)
    assert la is not None
    tx.require(la.verb in CANCELLABLE, Code.MANUAL_INCONSISTENT, f"{where}: {la.verb} is not an action cancel_last_action "
               f"undoes ({', '.join(CANCELLABLE)})", R_MANUAL)
    tx.emit(DeltaApplied(seat=tx.seat, delta=CancelLastActionDelta()))
    if la.verb in ("move", "ride_beanstalk", "fly_dropship"):
        tx.emit(DetectiveMoved(seat=la.seat, to=la.location or "", means="declared"), WindowClosed())
    elif la.verb == "draw_twilight_card":
        tx.require(la.card is not None and la.card in s.players[la.seat].hand, Code.MANUAL_INCONSISTENT,
                   f"{where}: the card drawn is no longer in the hand", R_MANUAL)
        tx.emit(CardReturned(seat=la.seat, card=la.card or ""))
    elif la.verb == "get_a_jump":
        tx.emit(SceneHeroRestored(seat=la.seat, hero=la.hero))
    elif la.verb == "follow_lead":
        top = s.pending[0] if s.pending else None
        if top is not None and top.step == "lead_move" and top.lead == la.lead:
            tx.emit(Popped(step="lead_move"), Popped(step="lead_use"))
        elif top is not None and top.step == "lead_use" and top.lead == la.lead:
            tx.emit(LeadMoved(lead=la.lead or "", to=la.location or "", by=la.seat), Popped(step="lead_use"))
        else:
            tx.fail(Code.MANUAL_INCONSISTENT, f"{where}: {la.lead} has already been moved or used", R_MANUAL)
    else:
        top = s.pending[0] if s.pending else None
        if la.source is not None and top is not None and top.step == "effect_declaration" and top.source == la.source:
            tx.emit(Popped(step="effect_declaration"))
        undo = from_text(la.undo)
        for d in undo:
            if isinstance(d, HitDelta) and d.amount < 0 and not tx.s.suspects[d.suspect].alive \
                    and tx.s.suspects[d.suspect].hits + d.amount < 3:
                tx.fail(Code.MANUAL_INCONSISTENT, f"{where}: {la.verb} killed {d.suspect} (three hits), and a killed "
                        "suspect does not come back: declare what happens instead", R_MANUAL)
        apply_deltas(tx, undo, f"{where}, undoing {la.verb}")
    tx.emit(ActionNoted(action=None))
