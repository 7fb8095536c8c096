"""Events in words, for transcripts and the Markdown/HTML accounts ("bob loses 3 reputation (6 → 3)")."""

from __future__ import annotations

from typing import Any

from .model import (
    ActionSpent,
    ActionsLost,
    AgentActed,
    AgentMoved,
    AgentTurned,
    ArchiveCardsMoved,
    ArchiveOrdered,
    ArchiveShuffled,
    ArchivesReformed,
    CardMoved,
    ComboPlayed,
    CounterChanged,
    DecisionClosed,
    DecisionOpened,
    GameOver,
    ImpactsBooked,
    InfluenceBooked,
    LotRecorded,
    LoyaltyChanged,
    ManualApplied,
    OpponentActed,
    OrderChosen,
    PhaseChanged,
    ReactionUsed,
    SetupDone,
    StepChanged,
    SymbolsCleared,
    SymbolSpent,
    TokensChanged,
    TurnBegan,
)
from .txn import Ctx

_DECISIONS = {
    "unreliable_pr": "chooses: the actor gains 3 reputation, or they lose 3",
    "slander": "chooses: lose 3 reputation, a main action or an extra action next turn",
    "blackmail": "chooses: lose 3 reputation, or give up an agent",
    "sabotage": "discards two cards of their choice",
    "agent_limit": "gives up one agent (agent limit)",
    "on_leave_window": "declares the on-leave texts of culled cards",
}


def _zone(z: str) -> str:
    if z == "neutral":
        return "the neutral zone"
    if "/" in z:
        cell, slot = z.split("/")
        return {"territory": cell, "shadow": f"under the agent on {cell}", "attached": f"attached at {cell}"}.get(slot, f"{cell} ({slot})")
    seat, _, zone = z.rpartition(".")
    return f"{seat}'s {zone.replace('_', ' ')}"


def describe(ctx: Ctx, ev: Any) -> str | None:  # noqa: C901 - one phrase per event
    match ev:
        case CounterChanged(seat=seat, counter=counter, before=before, after=after, cause=cause):
            verb = "gains" if after > before else "loses"
            why = f" — {cause}" if cause else ""
            return f"{seat} {verb} {abs(after - before)} {counter} ({before} → {after}){why}"
        case LoyaltyChanged(cell=cell, before=before, after=after, cause=cause):
            why = f" — {cause}" if cause else ""
            return f"loyalty of {cell} {before} → {after}{why}"
        case CardMoved(card=card, src=src, dst=dst, cause=cause):
            shown = "a card" if card == "?" else card
            why = f" ({cause})" if cause and cause not in ("declared",) else ""
            if dst.endswith(".hand") and src.endswith("_archive"):
                return f"{dst.split('.')[0]} draws {shown} from {_zone(src).split(chr(39) + 's ')[1]}{why}"
            return f"{shown} moves from {_zone(src)} to {_zone(dst)}{why}"
        case ArchiveCardsMoved(owner=owner, src=src, dst=dst, count=count, at=at):
            return f"{count} card(s) of {owner}'s {src.replace('_', ' ')} go face down to the {at} of the {dst.replace('_', ' ')}"
        case TokensChanged(ref=ref, before=before, after=after, cause=cause):
            return f"tokens on {_zone(ref)}: {', '.join(before) or 'none'} → {', '.join(after) or 'none'}" + (f" ({cause})" if cause else "")
        case SymbolSpent(ref=ref, symbol=symbol):
            return f"{symbol} token of {_zone(ref)} is spent"
        case SymbolsCleared():
            return None
        case AgentTurned(cell=cell, turned=turned, cause=cause):
            return f"the agent on {cell} {'turns' if turned else 'untaps'}" + (f" ({cause})" if cause else "")
        case AgentMoved(src=src, dst=dst):
            return f"the agent on {src} moves to {dst}"
        case ComboPlayed(seat=seat, kind=kind, effect=effect):
            if kind == "neutral":
                return f"{seat} plays the neutral combination"
            return f"{seat} plays {kind} combination: {effect.replace('_', ' ')}"
        case DecisionOpened(pending=p):
            return f"{p.decider} {_DECISIONS.get(p.kind, 'decides')}"
        case DecisionClosed(decider=decider, answer=answer):
            return f"{decider} answers: {answer or 'done'}"
        case ActionsLost(seat=seat, main=main, extra=extra):
            return f"{seat} will lose {main} main and {extra} extra action(s) next turn"
        case ManualApplied(seat=seat, source=source, note=note, skipped=skipped):
            extra = f"; skipped (cannot be applied): {', '.join(skipped)}" if skipped else ""
            return f"declared effect of {source} by {seat}" + (f" — {note}" if note else "") + " [flagged for audit]" + extra
        case TurnBegan(number=number, active=active, main_left=main, extra_left=extra, untapped=untapped):
            tail = f"; untaps {', '.join(untapped)}" if untapped else ""
            return f"turn {number} begins: {active} has {main} main and {extra} extra action(s){tail}"
        case StepChanged(step=step):
            return None if step == "actions" else f"step {step}"
        case GameOver(winners=winners, reason=reason):
            return f"game over: {', '.join(winners) or 'nobody (draw)'} — {reason.replace('_', ' ')}"
        case PhaseChanged(phase=phase):
            return f"phase {phase}"
        case LotRecorded(winner=winner):
            return f"{winner} wins the lot"
        case OrderChosen(first=first):
            return f"{first} will move first"
        case SetupDone(seat=seat, what=what):
            return None if what == "opening_drawn" else f"{seat} has taken the mulligan"
        case ArchiveShuffled(owner=owner, archive=archive):
            return f"{owner}'s {archive.replace('_', ' ')} is shuffled"
        case ArchivesReformed(owner=owner):
            return f"{owner}'s archives are dealt again"
        case ArchiveOrdered(owner=owner, archive=archive):
            return f"{owner}'s {archive.replace('_', ' ')} is shuffled"
        case ActionSpent() | AgentActed() | ReactionUsed() | OpponentActed() | InfluenceBooked() | ImpactsBooked():
            return None
    return None
