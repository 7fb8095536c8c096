"""Events in words: the sentence each event reads as in logs, transcripts and exports ("alice places
an agent on bear.sheriff"), None for bookkeeping events whose neighbours already say it. The engine
words an event as its reader sees it (redacted first), so a sentence names no more than the event
shows; in counted mode a draw names no card ids.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .data import SLOTS
from .model import (
    ActionDone,
    AgentCollected,
    AgentMoved,
    AgentPlaced,
    AnnihilationDeclared,
    AttackLaunched,
    AuditFlagRaised,
    BannersAdded,
    BannersMoved,
    BannersReturned,
    CardPlayed,
    CardResolved,
    CardResolving,
    CardsDiscarded,
    CardsDrawn,
    CiNamed,
    CiScored,
    CombatPending,
    CombatResolved,
    DeckShuffled,
    EmpirePhaseEnded,
    FanaticEmpireDealt,
    FinalRevealed,
    FirstPlayerPassed,
    FirstPlayerSet,
    FortTriggered,
    GameEnded,
    LoyaltyArranged,
    LoyaltyRevealed,
    LoyaltySwapped,
    ManualEffectApplied,
    PhaseChanged,
    PlacementSkipped,
    PositionActivated,
    PositionEnded,
    PositionPassed,
    PositionSkipped,
    RoundMarkerPlaced,
    RoundStarted,
    ScoreComputed,
    SetupCompleted,
    SocietyChosen,
    SubActivationOpened,
    SupplyLimitEnforced,
    SwapSkipped,
    WinnerDeclared,
)
from .queries import Queries


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(cards) if cards else "nothing"


def describe(rules: Queries, ev: Any) -> str | None:  # noqa: C901 - one sentence per event
    match ev:
        case SocietyChosen(player=p, society=soc):
            return f"{p} plays the {soc.replace('_', ' ')}"
        case FirstPlayerSet(player=p, method=m):
            return f"{p} takes the first-player token ({m})"
        case FanaticEmpireDealt(player=p, token=t):
            return f"{p} is dealt a fanatic empire in secret: {t}"
        case LoyaltyArranged(player=p, tokens=tokens):
            return f"{p} placed 5 loyalty tokens face down" + ("" if tokens else " (not recorded)")
        case SetupCompleted():
            return "setup complete"
        case RoundStarted(round=r):
            return f"round {r} begins"
        case PhaseChanged(phase=ph):
            return {"AGENT_PLACE": "agent placement begins", "AGENT_COLLECT": "agent collection begins",
                    "EMPIRE_PHASE": "the empire phases begin", "DISCARD": "the discard phase begins",
                    "REVEAL": "the reveal phase begins", "CI_SWAP": "the token swap phase begins",
                    "CI_REVEAL": "the token naming phase begins", "FINAL_SCORING": "the final reveal begins",
                    "GAME_OVER": "the game is over"}.get(ph, ph.lower())
        case AgentCollected(player=p, from_=src):
            return f"{p} takes back the agent on {src}"
        case AgentPlaced(player=p, to=dst):
            return f"{p} places an agent on {dst}"
        case PlacementSkipped(player=p, step=step, reason=why):
            return f"{p}'s {'collection' if step == 'collect' else 'placement'} is skipped ({why})"
        case PositionActivated(position=pos, acting_player=who):
            return f"{pos} acts, controlled by {who}"
        case PositionSkipped(position=pos):
            return f"{pos} is skipped (nobody controls it)"
        case PositionPassed(position=pos, player=p):
            return f"{p} passes at {pos}"
        case PositionEnded(position=pos):
            return f"{pos} is done"
        case BannersAdded(empire=e, placements=pls):
            return f"the {e} adds " + ", ".join(f"{pl.n} to {pl.region}" for pl in pls)
        case AttackLaunched(empire=e, from_=src, to=dst, count=n, defender=d):
            return f"the {e} attacks {dst} from {src} with {n}" + (f" (defender: {d})" if d else "")
        case FortTriggered(region=r, empire=e):
            return f"the fort of {r} destroys 1 {e} banner"
        case CombatPending(region=r, a_after_fort=a, d=d):
            return f"combat in {r} is pending ({a} against {d}): cards may be played"
        case CombatResolved(region=r, attacker=a, defender=d, attacking=na, defending=nd, result=res, annihilation=ann):
            how = " — mutual annihilation" if ann else ""
            left = {"attacker_won": f"the {a} holds {r}", "defender_won": f"the {d} holds {r}",
                    "no_winner": f"{r} is empty"}[res]
            return f"combat in {r}: {na} {a} against {nd} {d or 'nobody'}{how}; {left}"
        case CardsDrawn(player=p, empire=e, cards=cards):
            n = len(cards)
            ids = "" if rules.counted else f": {_cards(cards)}"
            return f"{p} drew {n} card{'s' if n != 1 else ''} from the {e} deck{ids}"
        case AgentMoved(player=p, from_=src, to=dst, swapped_with=other):
            if other == p:
                return f"{p}'s agents on {src} and {dst} change places"
            return f"{p}'s agent moves {src} → {dst}" + (f" (swapping with {other}'s agent)" if other else "")
        case SubActivationOpened(position=pos, by=by):
            return f"{pos} acts next, through {by.replace('_', ' ')}"
        case ActionDone():
            return None  # bookkeeping: the action's own event says what happened
        case SupplyLimitEnforced(empire_phase=e, removals=rem):
            if not rem:
                return f"supply limit after the {e} phase: nothing over the limit"
            return f"supply limit after the {e} phase: " + ", ".join(f"{x.removed} {x.empire} from {x.region}" for x in rem)
        case EmpirePhaseEnded(empire=e):
            return f"the {e} phase ends"
        case RoundMarkerPlaced(round=r):
            return f"round marker {r} goes on the round counter"
        case FirstPlayerPassed(from_=a, to=b):
            return f"the first-player token passes from {a} to {b}"
        case CardPlayed(player=p, card=card, ability=ab, timing=t, paid=paid, effect=eff):
            extra = f", paying with {_cards(paid)}" if paid else ""
            return f"{p} plays {card} (ability {ab}, {t}, {eff.replace('_', ' ')}){extra}"
        case DeckShuffled():
            return None  # bookkeeping: the played or discarded cards' line says where they went
        case CardResolving(card=card, kind=kind):
            return f"{card} is being resolved ({kind})"
        case CardResolved(card=card):
            return f"{card} is resolved"
        case AnnihilationDeclared(region=r):
            return f"every banner in the combat in {r} will be destroyed"
        case BannersMoved(from_=src, to=dst, empire=e, count=n, why=why):
            return f"{n} {e} banner{'s' if n != 1 else ''} move {src} → {dst} ({why.replace('_', ' ')})"
        case BannersReturned(region=r, empire=e, count=n, why=why):
            return f"{n} {e} banner{'s' if n != 1 else ''} leave {r} for the supply ({why})"
        case ManualEffectApplied(player=p, card=card, description=d, deltas=deltas):
            parts = []
            for x in deltas:
                fields = [str(v) for v in msgspec.structs.astuple(x)]
                parts.append(":".join([str(type(x).__struct_config__.tag), *fields]))
            return f"{p} declares the effect of {card}" + (f" “{d}”" if d else "") + f": {', '.join(parts) or 'nothing'}"
        case AuditFlagRaised(kind=k, card=card, note=note):
            return f"flagged for audit: {k}" + (f" ({card})" if card else "") + (f" — {note}" if note else "")
        case CardsDiscarded(player=p, cards=cards, private=private):
            return f"{p} discards {len(cards)} card{'s' if len(cards) != 1 else ''}: {_cards(cards)}"
        case LoyaltySwapped(player=p, slot_a=a, slot_b=b):
            return f"{p} swaps the tokens in {a} and {b}"
        case LoyaltyRevealed(player=p, slot=slot, empire=e, why=why):
            return f"{p}'s {slot} token is face up: {e}" + (" (end of game)" if why == "game_end" else "")
        case SwapSkipped(player=p):
            return f"{p} does not swap"
        case CiNamed(player=p, target=t, empire=e):
            return f"{p} names the {e} on {t}'s board"
        case CiScored(player=p, target=t, empire=e, slot=slot, points=n):
            return f"{t}'s {e} token lies in {slot}: {p} scores {n:+d}"
        case GameEnded():
            return "the game ends after round 4's empire phases"
        case FinalRevealed(player=p, arrangement=arr):
            return f"{p} reveals: " + ", ".join(f"{s} {e}" for s, e in zip(SLOTS, arr))
        case ScoreComputed(player=p, base=b, region_agents=ra, keep_secrets=ks, ci_bonus=ci, bonus=bo, total=t):
            extras = [f"{label} {v:+d}" for label, v in (("region agents", ra), ("secrets", ks), ("counter-intelligence", ci),
                                                        ("card bonus", bo)) if v]
            return f"{p} scores {t}" + (f" ({b} from cities, " + ", ".join(extras) + ")" if extras else "")
        case WinnerDeclared(winners=w, reason=r):
            return f"winner: {', '.join(w)} ({r.replace('_', ' ')})"
    return None
