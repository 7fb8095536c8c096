"""Events in words for transcripts and exports. Built from the (already redacted) event only: a hidden
field reads as ``?``."""

from __future__ import annotations

from typing import Any

import msgspec

from .model import (
    AlibiPlaced, AuditFlagged, BaggagePlaced, CaseClosed, DayPhaseEnded, DayStarted, DeltaApplied, DetectiveMoved,
    EvidenceDrawn, EvidencePlaced, EvidenceShown, FavorGained, FirstPlayerChanged, GameEnded, GeneralEventResolved,
    HeroMarkersMoved, HunchesDealt, LeadMoved, LeadRemoved, PuzzlePieceDiscarded, PuzzlePieceDrawn,
    PuzzlePiecePlaced, SceneMarkerTaken, ScoreDeclared, SpecificEventRevealed, SuspectKilled, TimeSpent, TurnEnded, TurnStarted,
    TwilightCardDiscarded, TwilightCardDrawn, TwilightCardPlayed, TwilightShifted,
)
from .txn import BoundRules


def describe(rules: BoundRules, event: Any) -> str | None:  # noqa: C901
    match event:
        case DetectiveMoved(seat=s, to=to, means=means):
            return f"{s} goes to {to} ({means})"
        case TimeSpent(seat=s, amount=n):
            return f"{s} spends {n} TIME"
        case TwilightCardDrawn(seat=s, deck=d, card=c):
            return f"{s} draws {c} from {d}"
        case TwilightCardDiscarded(seat=s, card=c):
            return f"{s} discards {c} face up to the bottom of its deck"
        case TwilightCardPlayed(seat=s, card=c, to=to):
            return f"{s} plays {c} (to {to.replace('_', ' ')})"
        case TwilightShifted(seat=s, amount=n):
            return f"{s}'s twilight marker shifts {'dark' if n > 0 else 'light'} by {abs(n)}"
        case LeadMoved(lead=lead, to=to, by=by):
            return f"{by} moves lead {lead} to {to}"
        case LeadRemoved(lead=lead):
            return f"lead {lead} leaves the game"
        case EvidenceDrawn(seat=s, kind=k):
            return f"{s} draws an evidence token ({k})"
        case EvidencePlaced(seat=s, suspect=x, file=f, face_up=up):
            return f"{s} places evidence on {x}'s {f} file, face {'up' if up else 'down'}"
        case EvidenceShown(suspect=x, file=f, kind=k):
            return f"the token on {x}'s {f} file shows {k}"
        case PuzzlePieceDrawn(seat=s, piece=p, pile=pile):
            return f"{s} reveals puzzle piece {p} from the {pile} pile"
        case HeroMarkersMoved(markers=m):
            return "hero markers: " + ", ".join(f"{k} to {v}" for k, v in m.items())
        case PuzzlePiecePlaced(piece=p, cell=c, rotation=r):
            return f"piece {p} placed at {c} (rotation {r})"
        case PuzzlePieceDiscarded(piece=p):
            return f"piece {p} discarded"
        case FavorGained(seat=s, favor_type=t, amount=n):
            return f"{s} {'gains' if n > 0 else 'spends'} {abs(n)} {t} favor"
        case BaggagePlaced(seat=s, side=side):
            return f"{side} baggage on {s}'s plot"
        case SceneMarkerTaken(seat=s):
            return f"{s}'s hero marker is on the scene of the crime"
        case AlibiPlaced(suspect=x):
            return f"an alibi for {x}"
        case TurnEnded(seat=s, auto=True):
            return f"{s}'s turn ends (no TIME left)"
        case TurnStarted(seat=s, time=t):
            return f"{s}'s turn ({t} TIME)"
        case DayStarted(day=d, seat=s, time=t):
            return f"day {d} begins: {s} is first ({t} TIME)"
        case DayPhaseEnded(queue=q):
            return "end of day" + (": " + ", ".join(q) if q else " (nothing on the calendar)")
        case FirstPlayerChanged(seat=s):
            return f"{s} becomes first player"
        case GeneralEventResolved(card=c):
            return f"general event {c or '(deck empty)'}"
        case SpecificEventRevealed(card=c):
            return f"the murder-specific event is {c}"
        case HunchesDealt(seat=s, guilty=g, innocent=i):
            return f"{s} is dealt hunches (guilty {g}, innocent {i})"
        case SuspectKilled(suspect=x):
            return f"{x} is killed (three hits)"
        case DeltaApplied(seat=s, delta=d):
            tag = type(d).__struct_config__.tag
            fields = [str(v) for v in msgspec.structs.astuple(d)]
            return f"{s} declares {tag}" + (": " + ":".join(fields) if fields else "")
        case AuditFlagged(kind=k, note=n):
            return f"flagged for audit: {k}" + (f" ({n})" if n else "")
        case GameEnded(case=c):
            killer = c.killer if isinstance(c.killer, str) else ", ".join(c.killer)
            return "the game ends; totals " + ", ".join(f"{k} {v:+d}" for k, v in c.totals.items()) + f"; killer: {killer}"
        case ScoreDeclared(seat=s, source=src, vp=vp):
            return f"{s} scores {vp:+d} VP ({src})"
        case CaseClosed(scores=sc, winners=w):
            return "case closed: " + ", ".join(f"{k} {v}" for k, v in sc.items()) + f"; winner(s): {', '.join(w)}"
    return None
