"""Events in words for transcripts and exports. Built from the (already redacted) event only: a hidden
field reads as ``?``."""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine.speech import N_, gettext

from .model import (
    AlibiPlaced, AuditFlagged, BaggagePlaced, CaseClosed, DayPhaseEnded, DayStarted, DeltaApplied, DetectiveMoved,
    EvidenceDrawn, EvidencePlaced, EvidenceShown, FavorGained, FirstPlayerChanged, GameEnded, GeneralEventResolved,
    HeroMarkersMoved, HunchesDealt, LeadMoved, LeadRemoved, PuzzlePieceDiscarded, PuzzlePieceDrawn,
    PuzzlePiecePlaced, SceneMarkerTaken, ScoreDeclared, SpecificEventRevealed, SuspectKilled, TimeSpent, TurnEnded, TurnStarted,
    TwilightCardDiscarded, TwilightCardDrawn, TwilightCardPlayed, TwilightShifted,
)
from .txn import BoundRules


#: the reasons its outcomes give that no other word names, as referee.outcome says them (through the catalog)
OUTCOME_REASONS = (N_("case closed"),)

#: the ids a sentence names in words: how a detective travels, the piles, the sides, the day's calendar
_WORDS = {
    "vehicle": N_("vehicle"), "beanstalk": N_("beanstalk"), "dropship": N_("dropship"), "declared": N_("declared"),
    "hunch": N_("hunch"), "plot": N_("plot"),
    # i18n: the steps of a day's end, named by their ids in English
    "general_event": N_("general_event"), "specific_event": N_("specific_event"),
    "plot_resolution": N_("plot_resolution"),
    "good": N_("good"), "bad": N_("bad"), "none": N_("none"),
}


def _word(key: str) -> str:
    """An id the game names in words, in the reader's language (an unknown one as it is)."""
    return gettext(_WORDS[key]) if key in _WORDS else key


def describe(rules: BoundRules, event: Any) -> str | None:  # noqa: C901
    match event:
        case DetectiveMoved(seat=s, to=to, means=means):
            return gettext("{seat} goes to {place} ({means})", seat=s, place=to, means=_word(means))
        case TimeSpent(seat=s, amount=n):
            return gettext("{seat} spends {n} TIME", seat=s, n=n)
        case TwilightCardDrawn(seat=s, deck=d, card=c):
            return gettext("{seat} draws {card} from {deck}", seat=s, card=c, deck=d)
        case TwilightCardDiscarded(seat=s, card=c):
            return gettext("{seat} discards {card} face up to the bottom of its deck", seat=s, card=c)
        case TwilightCardPlayed(seat=s, card=c, to=to):
            if to == "bottom":
                return gettext("{seat} plays {card} (to bottom)", seat=s, card=c)
            return gettext("{seat} plays {card} (to {place})", seat=s, card=c, place=to.replace("_", " "))
        case TwilightShifted(seat=s, amount=n):
            if n > 0:
                return gettext("{seat}'s twilight marker shifts dark by {n}", seat=s, n=abs(n))
            return gettext("{seat}'s twilight marker shifts light by {n}", seat=s, n=abs(n))
        case LeadMoved(lead=lead, to=to, by=by):
            return gettext("{seat} moves lead {lead} to {place}", seat=by, lead=lead, place=to)
        case LeadRemoved(lead=lead):
            return gettext("lead {lead} leaves the game", lead=lead)
        case EvidenceDrawn(seat=s, kind=k):
            return gettext("{seat} draws an evidence token ({kind})", seat=s, kind=k)
        case EvidencePlaced(seat=s, suspect=x, file=f, face_up=up):
            if up:
                return gettext("{seat} places evidence on {suspect}'s {file} file, face up", seat=s, suspect=x, file=f)
            return gettext("{seat} places evidence on {suspect}'s {file} file, face down", seat=s, suspect=x, file=f)
        case EvidenceShown(suspect=x, file=f, kind=k):
            return gettext("the token on {suspect}'s {file} file shows {kind}", suspect=x, file=f, kind=k)
        case PuzzlePieceDrawn(seat=s, piece=p, pile=pile):
            return gettext("{seat} reveals puzzle piece {piece} from the {pile} pile", seat=s, piece=p, pile=pile)
        case HeroMarkersMoved(markers=m):
            moves = [gettext("{marker} to {place}", marker=k, place=v) for k, v in m.items()]
            return gettext("hero markers: {moves}", moves=", ".join(moves))
        case PuzzlePiecePlaced(piece=p, cell=c, rotation=r):
            return gettext("piece {piece} placed at {cell} (rotation {rotation})", piece=p, cell=c, rotation=r)
        case PuzzlePieceDiscarded(piece=p):
            return gettext("piece {piece} discarded", piece=p)
        case FavorGained(seat=s, favor_type=t, amount=n):
            if n > 0:
                return gettext("{seat} gains {n} {favor} favor", seat=s, n=abs(n), favor=t)
            return gettext("{seat} spends {n} {favor} favor", seat=s, n=abs(n), favor=t)
        case BaggagePlaced(seat=s, side=side):
            return gettext("{side} baggage on {seat}'s plot", side=_word(side), seat=s)
        case SceneMarkerTaken(seat=s):
            return gettext("{seat}'s hero marker is on the scene of the crime", seat=s)
        case AlibiPlaced(suspect=x):
            return gettext("an alibi for {suspect}", suspect=x)
        case TurnEnded(seat=s, auto=True):
            return gettext("{seat}'s turn ends (no TIME left)", seat=s)
        case TurnStarted(seat=s, time=t):
            return gettext("{seat}'s turn ({time} TIME)", seat=s, time=t)
        case DayStarted(day=d, seat=s, time=t):
            return gettext("day {day} begins: {seat} is first ({time} TIME)", day=d, seat=s, time=t)
        case DayPhaseEnded(queue=q):
            if q:
                return gettext("end of day: {calendar}", calendar=", ".join(_calendar(x) for x in q))
            return gettext("end of day (nothing on the calendar)")
        case FirstPlayerChanged(seat=s):
            return gettext("{seat} becomes first player", seat=s)
        case GeneralEventResolved(card=c):
            if c:
                return gettext("general event {card}", card=c)
            return gettext("general event (deck empty)")
        case SpecificEventRevealed(card=c):
            return gettext("the murder-specific event is {card}", card=c)
        case HunchesDealt(seat=s, guilty=g, innocent=i):
            return gettext("{seat} is dealt hunches (guilty {guilty}, innocent {innocent})", seat=s, guilty=g, innocent=i)
        case SuspectKilled(suspect=x):
            return gettext("{suspect} is killed (three hits)", suspect=x)
        case DeltaApplied(seat=s, delta=d):
            tag = type(d).__struct_config__.tag
            fields = [str(v) for v in msgspec.structs.astuple(d)]
            if fields:
                return gettext("{seat} declares {what}: {fields}", seat=s, what=tag, fields=":".join(fields))
            return gettext("{seat} declares {what}", seat=s, what=tag)
        case AuditFlagged(kind=k, note=n):
            return gettext("flagged for audit: {kind}", kind=k) + (f" ({n})" if n else "")
        case GameEnded(case=c):
            killer = c.killer if isinstance(c.killer, str) else ", ".join(c.killer)
            return gettext("the game ends; totals {totals}; killer: {killer}",
                           totals=", ".join(f"{k} {v:+d}" for k, v in c.totals.items()), killer=_word(killer))
        case ScoreDeclared(seat=s, source=src, vp=vp):
            return gettext("{seat} scores {vp} VP ({source})", seat=s, vp=format(vp, "+d"), source=_word(src))
        case CaseClosed(scores=sc, winners=w):
            return gettext("case closed: {scores}; winner(s): {winners}",
                           scores=", ".join(f"{k} {v}" for k, v in sc.items()), winners=", ".join(w))
    return None


def _calendar(item: str) -> str:
    """A step of the day's end (``general_event``, ...) in the reader's language; its id in English."""
    return _word(item)
