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
    "unreliable_pr": "{decider} must choose: {actor} gains 3 reputation, or {decider} loses 3",
    "slander": "{decider} must choose: lose 3 reputation, or a main or an extra action next turn",
    "blackmail": "{decider} must choose: lose 3 reputation, or give up an agent",
    "sabotage": "{decider} picks two cards of {target}'s hand to discard",
    "agent_limit": "{decider} controls too many agents and must give one up",
    "on_leave_window": "{decider} may declare the on-leave texts of the culled cards",
}
_EFFECTS = {
    "machinations": "machinations (5)", "unreliable_pr": "unreliable PR (7)", "pr_campaign": "PR campaign (9)",
    "big_pr_campaign": "big PR campaign (11)", "charity": "charity (13)", "info_leak": "info leak",
    "boost_potential": "boost potential", "power_management": "power management", "destroy_plans": "destroy plans",
    "remove_agent": "remove agent", "mutual_strike": "mutual strike",
}


def _zone(z: str) -> str:
    if z == "neutral":
        return "the neutral zone"
    if "/" in z:
        cell, slot = z.split("/")
        return {"territory": cell, "shadow": f"under the agent on {cell}", "attached": f"attached at {cell}"}.get(slot, f"{cell} ({slot})")
    seat, _, zone = z.rpartition(".")
    return f"{seat}'s {zone.replace('_', ' ')}"


def _named(ctx: Ctx, card: str) -> str:
    """The card's id: whoever reads the sentence gets its printed name in its place (``name_of``)."""
    return card


def describe(ctx: Ctx, ev: Any) -> str | None:  # noqa: C901 - one phrase per event
    match ev:
        case CounterChanged(seat=seat, counter=counter, before=before, after=after, cause=cause):
            verb = "gains" if after > before else ("pays" if cause.endswith("price") else "loses")
            why = f" — {cause}" if cause and not cause.endswith("price") else (f" for {cause[:-8]}" if cause.endswith("'s price") else "")
            return f"{seat} {verb} {abs(after - before)} {counter} ({before} → {after}){why}"
        case LoyaltyChanged(cell=cell, before=before, after=after, cause=cause):
            why = f" — {cause}" if cause else ""
            return f"loyalty of {cell} {before} → {after}{why}"
        case CardMoved(card=card, owner=owner, src=src, dst=dst, cause=cause, face=face):
            shown = "a card" if card == "?" else _named(ctx, card)
            why = f" ({cause})" if cause and cause not in ("declared", "deployed", "placed", "into the neutral zone") else ""
            if dst.endswith(".hand") and src.endswith("_archive"):
                return f"{dst.split('.')[0]} draws {shown} from the {src.split('.')[1].replace('_', ' ')}{why}"
            if src.endswith(".hand") and dst.endswith("_archive"):
                return f"{src.split('.')[0]} puts {shown} into the {dst.split('.')[1].replace('_', ' ')}{why}"
            if dst == "neutral":
                return None
            if "/" in dst and src.rpartition(".")[2] in ("hand", *ctx.slots) and cause in ("deployed", "placed", "placed face down"):
                cell, slot = dst.split("/")
                where = f"from {src.split('.')[1]}" if not src.endswith(".hand") else "from hand"
                if face == "down":
                    return f"{owner} puts {shown} face down on {cell} ({where})"
                return f"{owner} puts {shown} on {cell}{'' if slot == 'territory' else ' as its ' + slot} ({where})"
            if dst.endswith(".utility"):
                return f"{shown} goes to {_zone(dst)}{why}"
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
                return f"{seat} plays the neutral combination (no effect)"
            what = "a digit" if kind == "digits" else "a symbol"
            return f"{seat} plays {what} combination: {_EFFECTS.get(effect, effect.replace('_', ' '))}"
        case DecisionOpened(pending=p):
            text = _DECISIONS.get(p.kind, "{decider} must decide")
            return text.format(decider=p.decider, actor=p.actor, target=p.target or p.decider)
        case DecisionClosed(decider=decider, answer=answer):
            return f"{decider} answers: {answer or 'done'}"
        case ActionsLost(seat=seat, main=main, extra=extra):
            return f"{seat} will lose {main} main and {extra} extra action(s) next turn"
        case ManualApplied(seat=seat, source=source, note=note, skipped=skipped):
            skipped_text = f"; skipped (cannot be applied): {', '.join(skipped)}" if skipped else ""
            return f"declared effect of {source} by {seat}" + (f" — {note}" if note else "") + " [flagged for audit]" + skipped_text
        case TurnBegan(number=number, active=active, main_left=main, extra_left=extra, untapped=untapped):
            tail = f"; untaps {', '.join(untapped)}" if untapped else ""
            return f"turn {number} begins: {active} has {main} main and {extra} extra action(s){tail}"
        case StepChanged(step=step):
            return {"end": "the turn reaches its end step (reactions, end-of-turn texts)",
                    "reactions": "the opponent may now react"}.get(step)
        case GameOver(winners=winners, reason=reason):
            return f"game over: {', '.join(winners) or 'nobody (draw)'} — {reason.replace('_', ' ')}"
        case PhaseChanged(phase=phase):
            return {"order": "both opening hands drawn and the lot recorded: the lot winner picks who starts",
                    "mulligan": "mulligans next", "play": "play begins"}.get(phase, f"phase {phase}")
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
