"""Events in words, for transcripts and the Markdown/HTML accounts ("bob loses 3 reputation (6 → 3)")."""

from __future__ import annotations

from typing import Any

from referee.engine.messages import Messages
from referee.engine.speech import N_, gettext, ngettext

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
    "unreliable_pr": N_("{decider} must choose: {actor} gains 3 reputation, or {decider} loses 3"),
    "slander": N_("{decider} must choose: lose 3 reputation, or a main or an extra action next turn"),
    "blackmail": N_("{decider} must choose: lose 3 reputation, or give up an agent"),
    "sabotage": N_("{decider} picks two cards of {target}'s hand to discard"),
    "agent_limit": N_("{decider} controls too many agents and must give one up"),
    "on_leave_window": N_("{decider} may declare the on-leave texts of the culled cards"),
}
_EFFECTS = {
    "machinations": N_("machinations (5)"), "unreliable_pr": N_("unreliable PR (7)"), "pr_campaign": N_("PR campaign (9)"),
    "big_pr_campaign": N_("big PR campaign (11)"), "charity": N_("charity (13)"), "info_leak": N_("info leak"),
    "boost_potential": N_("boost potential"), "power_management": N_("power management"),
    "destroy_plans": N_("destroy plans"), "remove_agent": N_("remove agent"), "mutual_strike": N_("mutual strike"),
}
#: the counters, the zones of a seat and the slots of a cell, by their ids
_NAMES = {
    "reputation": N_("reputation"), "influence": N_("influence"), "trust": N_("trust"),
    "hand": N_("hand"), "main_archive": N_("main archive"), "extra_archive": N_("extra archive"),
    "utility": N_("utility"), "graffiti": N_("graffiti"), "shadow": N_("shadow"), "attached": N_("attached"),
    "agent": N_("agent"), "territory": N_("territory"), "top": N_("top"), "bottom": N_("bottom"),
}
#: why a counter, a card or a token changed, as the rules record it: read in the reader's language
#: (a cause no template matches is shown as recorded)
_CAUSES = Messages(phrases=(
    N_("{card} enters the field"), N_("{card} left the field"), N_("{card} left {cell}"), N_("{card} stands on it"),
    N_("impact of {card} at {cell}"), N_("recklessness of the agent on {cell}"), N_("attack by the agent on {cell}"),
    N_("attacked by {card} ({attack} against {defence})"), N_("influence shortfall ({cause})"),
    N_("reputation shortfall ({cause})"), N_("the shadow absorbs it ({cause})"), N_("info leak ({cause})"),
    N_("opening hand"), N_("empty hand at the start of the turn"), N_("combination"), N_("buffered"),
    N_("mulligan"), N_("draw"), N_("agent draw"), N_("foresight"), N_("draws from the extra archive"),
    N_("attacks an agent"), N_("attacks"), N_("restoration"), N_("revealed"), N_("full field"), N_("intimidate"),
    N_("loyalty 0 at the end of the turn"), N_("a shadow under its twin"), N_("placed face down"),
    N_("discarded for its effect (its shadow stays as the agent)"), N_("flipped face up"),
    N_("flipped face up beside the agent"), N_("its agent was moved"), N_("its territory left"),
    N_("stays attached"), N_("played"), N_("from hand"), N_("unreliable PR"), N_("slander"), N_("PR campaign"),
    N_("big PR campaign"), N_("machinations"), N_("charity"), N_("blackmail"), N_("sabotage"), N_("expose"),
    N_("download"), N_("inspire"), N_("boost potential"), N_("info leak"), N_("power management"),
    N_("destroy plans"), N_("remove agent"), N_("mutual strike"),
))


def _word(key: str, *, spaced: bool = True) -> str:
    """A counter's, a zone's or a slot's name in the reader's language (an unknown one as its id, with
    spaces for underscores when ``spaced``)."""
    if key in _NAMES:
        return gettext(_NAMES[key])
    return key.replace("_", " ") if spaced else key


def _cause(cause: str) -> str:
    return _CAUSES.render("", cause, gettext)


def _zone(z: str) -> str:
    if z == "neutral":
        return gettext("the neutral zone")
    if "/" in z:
        cell, slot = z.split("/")
        if slot == "territory":
            return cell
        if slot == "shadow":
            return gettext("under the agent on {cell}", cell=cell)
        if slot == "attached":
            return gettext("attached at {cell}", cell=cell)
        return gettext("{cell} ({slot})", cell=cell, slot=_word(slot, spaced=False))
    seat, _, zone = z.rpartition(".")
    return gettext("{seat}'s {zone}", seat=seat, zone=_word(zone))


def _named(ctx: Ctx, card: str) -> str:
    """The card's id: whoever reads the sentence gets its printed name in its place (``name_of``)."""
    return card


def _why(cause: str) -> str:
    return gettext(" ({cause})", cause=_cause(cause)) if cause else ""


def describe(ctx: Ctx, ev: Any) -> str | None:  # noqa: C901 - one phrase per event
    match ev:
        case CounterChanged(seat=seat, counter=counter, before=before, after=after, cause=cause):
            if cause.endswith("'s price"):
                why = gettext(" for {card}", card=cause[:-8])
            elif cause.endswith("price"):
                why = ""
            else:
                why = gettext(" — {cause}", cause=_cause(cause)) if cause else ""
            values = dict(seat=seat, n=abs(after - before), counter=_word(counter, spaced=False), before=before,
                          after=after, why=why)
            if after > before:
                return gettext("{seat} gains {n} {counter} ({before} → {after}){why}", **values)
            if cause.endswith("price"):
                return gettext("{seat} pays {n} {counter} ({before} → {after}){why}", **values)
            return gettext("{seat} loses {n} {counter} ({before} → {after}){why}", **values)
        case LoyaltyChanged(cell=cell, before=before, after=after, cause=cause):
            why = gettext(" — {cause}", cause=_cause(cause)) if cause else ""
            return gettext("loyalty of {cell} {before} → {after}{why}", cell=cell, before=before, after=after, why=why)
        case CardMoved():
            return _moved(ctx, ev)
        case ArchiveCardsMoved(owner=owner, src=src, dst=dst, count=count, at=at):
            return ngettext("{n} card(s) of {seat}'s {source} go face down to the {at} of the {target}",
                            "{n} card(s) of {seat}'s {source} go face down to the {at} of the {target}", count,
                            seat=owner, source=_word(src), at=_word(at, spaced=False), target=_word(dst))
        case TokensChanged(ref=ref, before=before, after=after, cause=cause):
            none = gettext("none")
            return gettext("tokens on {zone}: {before} → {after}{why}", zone=_zone(ref), before=", ".join(before) or none,
                           after=", ".join(after) or none, why=_why(cause))
        case SymbolSpent(ref=ref, symbol=symbol):
            return gettext("{symbol} token of {zone} is spent", symbol=symbol, zone=_zone(ref))
        case SymbolsCleared():
            return None
        case AgentTurned(cell=cell, turned=turned, cause=cause):
            if turned:
                return gettext("the agent on {cell} turns{why}", cell=cell, why=_why(cause))
            return gettext("the agent on {cell} untaps{why}", cell=cell, why=_why(cause))
        case AgentMoved(src=src, dst=dst):
            return gettext("the agent on {source} moves to {target}", source=src, target=dst)
        case ComboPlayed(seat=seat, kind=kind, effect=effect):
            if kind == "neutral":
                return gettext("{seat} plays the neutral combination (no effect)", seat=seat)
            what = gettext(_EFFECTS[effect]) if effect in _EFFECTS else _cause(effect.replace("_", " "))
            if kind == "digits":
                return gettext("{seat} plays a digit combination: {effect}", seat=seat, effect=what)
            return gettext("{seat} plays a symbol combination: {effect}", seat=seat, effect=what)
        case DecisionOpened(pending=p):
            text = _DECISIONS.get(p.kind, N_("{decider} must decide"))
            return gettext(text, decider=p.decider, actor=p.actor, target=p.target or p.decider)
        case DecisionClosed(decider=decider, answer=answer):
            return gettext("{seat} answers: {answer}", seat=decider, answer=answer or gettext("done"))
        case ActionsLost(seat=seat, main=main, extra=extra):
            return gettext("{seat} will lose {main} main and {extra} extra action(s) next turn", seat=seat, main=main,
                           extra=extra)
        case ManualApplied(seat=seat, source=source, note=note, skipped=skipped):
            text = gettext("declared effect of {source} by {seat}", source=source, seat=seat)
            text += (f" — {note}" if note else "") + gettext(" [flagged for audit]")
            if skipped:
                text += gettext("; skipped (cannot be applied): {skipped}", skipped=", ".join(skipped))
            return text
        case TurnBegan(number=number, active=active, main_left=main, extra_left=extra, untapped=untapped):
            tail = gettext("; untaps {cells}", cells=", ".join(untapped)) if untapped else ""
            return gettext("turn {number} begins: {seat} has {main} main and {extra} extra action(s){tail}",
                           number=number, seat=active, main=main, extra=extra, tail=tail)
        case StepChanged(step=step):
            if step == "end":
                return gettext("the turn reaches its end step (reactions, end-of-turn texts)")
            if step == "reactions":
                return gettext("the opponent may now react")
            return None
        case GameOver(winners=winners, reason=reason):
            return gettext("game over: {winners} — {reason}", winners=", ".join(winners) or gettext("nobody (draw)"),
                           reason=_cause(reason.replace("_", " ")))
        case PhaseChanged(phase=phase):
            if phase == "order":
                return gettext("both opening hands drawn and the lot recorded: the lot winner picks who starts")
            if phase == "mulligan":
                return gettext("mulligans next")
            if phase == "play":
                return gettext("play begins")
            return gettext("phase {phase}", phase=phase)
        case LotRecorded(winner=winner):
            return gettext("{seat} wins the lot", seat=winner)
        case OrderChosen(first=first):
            return gettext("{seat} will move first", seat=first)
        case SetupDone(seat=seat, what=what):
            return None if what == "opening_drawn" else gettext("{seat} has taken the mulligan", seat=seat)
        case ArchiveShuffled(owner=owner, archive=archive):
            return gettext("{seat}'s {archive} is shuffled", seat=owner, archive=_word(archive))
        case ArchivesReformed(owner=owner):
            return gettext("{seat}'s archives are dealt again", seat=owner)
        case ArchiveOrdered(owner=owner, archive=archive):
            return gettext("{seat}'s {archive} is shuffled", seat=owner, archive=_word(archive))
        case ActionSpent() | AgentActed() | ReactionUsed() | OpponentActed() | InfluenceBooked() | ImpactsBooked():
            return None
    return None


def _moved(ctx: Ctx, ev: CardMoved) -> str | None:
    """A card moved: drawn, put back, deployed, or from one zone to another."""
    card, owner, src, dst, cause, face = ev.card, ev.owner, ev.src, ev.dst, ev.cause, ev.face
    shown = gettext("a card") if card == "?" else _named(ctx, card)
    why = _why(cause) if cause not in ("declared", "deployed", "placed", "into the neutral zone") else ""
    if dst.endswith(".hand") and src.endswith("_archive"):
        return gettext("{seat} draws {card} from the {archive}{why}", seat=dst.split(".")[0], card=shown,
                       archive=_word(src.split(".")[1]), why=why)
    if src.endswith(".hand") and dst.endswith("_archive"):
        return gettext("{seat} puts {card} into the {archive}{why}", seat=src.split(".")[0], card=shown,
                       archive=_word(dst.split(".")[1]), why=why)
    if dst == "neutral":
        return None
    if "/" in dst and src.rpartition(".")[2] in ("hand", *ctx.slots) and cause in ("deployed", "placed", "placed face down"):
        cell, slot = dst.split("/")
        if src.endswith(".hand"):
            where = gettext("from hand")
        else:
            where = gettext("from {zone}", zone=src.split(".")[1])
        if face == "down":
            return gettext("{seat} puts {card} face down on {cell} ({where})", seat=owner, card=shown, cell=cell,
                           where=where)
        if slot == "territory":
            return gettext("{seat} puts {card} on {cell} ({where})", seat=owner, card=shown, cell=cell, where=where)
        return gettext("{seat} puts {card} on {cell} as its {slot} ({where})", seat=owner, card=shown, cell=cell,
                       slot=_word(slot), where=where)
    if dst.endswith(".utility"):
        return gettext("{card} goes to {zone}{why}", card=shown, zone=_zone(dst), why=why)
    return gettext("{card} moves from {source} to {target}{why}", card=shown, source=_zone(src), target=_zone(dst),
                   why=why)
