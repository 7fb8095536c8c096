"""Events in words: the sentence each event reads as in logs, transcripts and exports ("alice places
an agent on bear.sheriff"), None for bookkeeping events whose neighbours already say it. The engine
words an event as its reader sees it (redacted first), so a sentence names no more than the event
shows; in counted mode a draw names no card ids.
"""

from __future__ import annotations

from typing import Any

import msgspec

from referee.engine.speech import N_, gettext, ngettext

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

#: the phases' openings, by phase
_PHASES = {"AGENT_PLACE": N_("agent placement begins"), "AGENT_COLLECT": N_("agent collection begins"),
           "EMPIRE_PHASE": N_("the empire phases begin"), "DISCARD": N_("the discard phase begins"),
           "REVEAL": N_("the reveal phase begins"), "CI_SWAP": N_("the token swap phase begins"),
           "CI_REVEAL": N_("the token naming phase begins"), "FINAL_SCORING": N_("the final reveal begins"),
           "GAME_OVER": N_("the game is over")}


#: the reasons its outcomes give that no other word names, as referee.outcome says them (through the catalog)
OUTCOME_REASONS = (N_("fewest swaps"), N_("most cards"), N_("shared"), N_("first in turn order"))

#: a card's timings and effects, and what opens a position's action, by id (said spaced in English)
_WORDS = {"before": N_("before"), "during": N_("during"), "after": N_("after"),
          "mutual_annihilation": N_("mutual annihilation"), "disband": N_("disband"),
          "relocate_agent": N_("relocate agent"), "reinforcement": N_("reinforcement"),
          "borrow_action": N_("borrow action"), "move_banners": N_("move banners"), "manual": N_("manual"),
          "move_agent": N_("move agent"), "replacement": N_("replacement")}


def _word(key: str) -> str:
    return gettext(_WORDS[key]) if key in _WORDS else key.replace("_", " ")


def _cards(cards: tuple[str, ...]) -> str:
    return ", ".join(cards) if cards else gettext("nothing")


def _list(items: list[str]) -> str:
    return ", ".join(items)


def describe(rules: Queries, ev: Any) -> str | None:  # noqa: C901 - one sentence per event
    match ev:
        case SocietyChosen(player=p, society=soc):
            return gettext("{player} plays the {society}", player=p, society=soc.replace("_", " "))
        case FirstPlayerSet(player=p, method=m):
            return gettext("{player} takes the first-player token ({method})", player=p, method=m)
        case FanaticEmpireDealt(player=p, token=t):
            return gettext("{player} is dealt a fanatic empire in secret: {token}", player=p, token=t)
        case LoyaltyArranged(player=p, tokens=tokens):
            if tokens:
                return gettext("{player} placed 5 loyalty tokens face down", player=p)
            return gettext("{player} placed 5 loyalty tokens face down (not recorded)", player=p)
        case SetupCompleted():
            return gettext("setup complete")
        case RoundStarted(round=r):
            return gettext("round {round} begins", round=r)
        case PhaseChanged(phase=ph):
            return gettext(_PHASES[ph]) if ph in _PHASES else ph.lower()
        case AgentCollected(player=p, from_=src):
            return gettext("{player} takes back the agent on {position}", player=p, position=src)
        case AgentPlaced(player=p, to=dst):
            return gettext("{player} places an agent on {position}", player=p, position=dst)
        case PlacementSkipped(player=p, step=step, reason=why):
            if step == "collect":
                return gettext("{player}'s collection is skipped ({reason})", player=p, reason=why)
            return gettext("{player}'s placement is skipped ({reason})", player=p, reason=why)
        case PositionActivated(position=pos, acting_player=who):
            return gettext("{position} acts, controlled by {player}", position=pos, player=who)
        case PositionSkipped(position=pos):
            return gettext("{position} is skipped (nobody controls it)", position=pos)
        case PositionPassed(position=pos, player=p):
            return gettext("{player} passes at {position}", player=p, position=pos)
        case PositionEnded(position=pos):
            return gettext("{position} is done", position=pos)
        case BannersAdded(empire=e, placements=pls):
            placed = [gettext("{n} to {region}", n=pl.n, region=pl.region) for pl in pls]
            return gettext("the {empire} adds {placements}", empire=e, placements=_list(placed))
        case AttackLaunched(empire=e, from_=src, to=dst, count=n, defender=d):
            if d:
                return gettext("the {empire} attacks {target} from {source} with {n} (defender: {defender})",
                               empire=e, target=dst, source=src, n=n, defender=d)
            return gettext("the {empire} attacks {target} from {source} with {n}", empire=e, target=dst, source=src, n=n)
        case FortTriggered(region=r, empire=e):
            return gettext("the fort of {region} destroys 1 {empire} banner", region=r, empire=e)
        case CombatPending(region=r, a_after_fort=a, d=d):
            return gettext("combat in {region} is pending ({attacking} against {defending}): cards may be played",
                           region=r, attacking=a, defending=d)
        case CombatResolved(region=r, attacker=a, defender=d, attacking=na, defending=nd, result=res, annihilation=ann):
            left = {"attacker_won": gettext("the {empire} holds {region}", empire=a, region=r),
                    "defender_won": gettext("the {empire} holds {region}", empire=d, region=r),
                    "no_winner": gettext("{region} is empty", region=r)}[res]
            values = dict(region=r, attacking=na, attacker=a, defending=nd, defender=d or gettext("nobody"), left=left)
            if ann:
                return gettext("combat in {region}: {attacking} {attacker} against {defending} {defender} — mutual "
                               "annihilation; {left}", **values)
            return gettext("combat in {region}: {attacking} {attacker} against {defending} {defender}; {left}", **values)
        case CardsDrawn(player=p, empire=e, cards=cards):
            if rules.counted:
                return ngettext("{player} drew {n} card from the {empire} deck",
                                "{player} drew {n} cards from the {empire} deck", len(cards), player=p, empire=e)
            return ngettext("{player} drew {n} card from the {empire} deck: {cards}",
                            "{player} drew {n} cards from the {empire} deck: {cards}", len(cards),
                            player=p, empire=e, cards=_cards(cards))
        case AgentMoved(player=p, from_=src, to=dst, swapped_with=other):
            if other == p:
                return gettext("{player}'s agents on {source} and {target} change places", player=p, source=src, target=dst)
            if other:
                return gettext("{player}'s agent moves {source} → {target} (swapping with {other}'s agent)",
                               player=p, source=src, target=dst, other=other)
            return gettext("{player}'s agent moves {source} → {target}", player=p, source=src, target=dst)
        case SubActivationOpened(position=pos, by=by):
            return gettext("{position} acts next, through {by}", position=pos, by=_word(by))
        case ActionDone():
            return None  # bookkeeping: the action's own event says what happened
        case SupplyLimitEnforced(empire_phase=e, removals=rem):
            if not rem:
                return gettext("supply limit after the {empire} phase: nothing over the limit", empire=e)
            removed = [gettext("{n} {empire} from {region}", n=x.removed, empire=x.empire, region=x.region) for x in rem]
            return gettext("supply limit after the {empire} phase: {removals}", empire=e, removals=_list(removed))
        case EmpirePhaseEnded(empire=e):
            return gettext("the {empire} phase ends", empire=e)
        case RoundMarkerPlaced(round=r):
            return gettext("round marker {round} goes on the round counter", round=r)
        case FirstPlayerPassed(from_=a, to=b):
            return gettext("the first-player token passes from {source} to {target}", source=a, target=b)
    return _later(ev)


def _later(ev: Any) -> str | None:  # noqa: C901 - one sentence per event
    """The cards, the tokens and the end of the game in words."""
    match ev:
        case CardPlayed(player=p, card=card, ability=ab, timing=t, paid=paid, effect=eff):
            values = dict(player=p, card=card, ability=ab, timing=t if t not in _WORDS else _word(t), effect=_word(eff))
            if paid:
                return gettext("{player} plays {card} (ability {ability}, {timing}, {effect}), paying with {paid}",
                               paid=_cards(paid), **values)
            return gettext("{player} plays {card} (ability {ability}, {timing}, {effect})", **values)
        case DeckShuffled():
            return None  # bookkeeping: the played or discarded cards' line says where they went
        case CardResolving(card=card, kind=kind):
            return gettext("{card} is being resolved ({kind})", card=card, kind=kind if kind not in _WORDS else _word(kind))
        case CardResolved(card=card):
            return gettext("{card} is resolved", card=card)
        case AnnihilationDeclared(region=r):
            return gettext("every banner in the combat in {region} will be destroyed", region=r)
        case BannersMoved(from_=src, to=dst, empire=e, count=n, why=why):
            return ngettext("{n} {empire} banner move {source} → {target} ({why})",
                            "{n} {empire} banners move {source} → {target} ({why})", n,
                            empire=e, source=src, target=dst, why=_word(why))
        case BannersReturned(region=r, empire=e, count=n, why=why):
            return ngettext("{n} {empire} banner leave {region} for the supply ({why})",
                            "{n} {empire} banners leave {region} for the supply ({why})", n, empire=e, region=r,
                            why=why if why not in _WORDS else _word(why))
        case ManualEffectApplied(player=p, card=card, description=d, deltas=deltas):
            parts = []
            for x in deltas:
                fields = [str(v) for v in msgspec.structs.astuple(x)]
                parts.append(":".join([str(type(x).__struct_config__.tag), *fields]))
            said = _list(parts) or gettext("nothing")
            if d:
                return gettext("{player} declares the effect of {card} “{description}”: {deltas}",
                               player=p, card=card, description=d, deltas=said)
            return gettext("{player} declares the effect of {card}: {deltas}", player=p, card=card, deltas=said)
        case AuditFlagRaised(kind=k, card=card, note=note):
            return (gettext("flagged for audit: {kind}", kind=k) + (f" ({card})" if card else "")
                    + (f" — {note}" if note else ""))
        case CardsDiscarded(player=p, cards=cards, private=private):
            return ngettext("{player} discards {n} card: {cards}", "{player} discards {n} cards: {cards}", len(cards),
                            player=p, cards=_cards(cards))
        case LoyaltySwapped(player=p, slot_a=a, slot_b=b):
            return gettext("{player} swaps the tokens in {slot_a} and {slot_b}", player=p, slot_a=a, slot_b=b)
        case LoyaltyRevealed(player=p, slot=slot, empire=e, why=why):
            if why == "game_end":
                return gettext("{player}'s {slot} token is face up: {empire} (end of game)", player=p, slot=slot, empire=e)
            return gettext("{player}'s {slot} token is face up: {empire}", player=p, slot=slot, empire=e)
        case SwapSkipped(player=p):
            return gettext("{player} does not swap", player=p)
        case CiNamed(player=p, target=t, empire=e):
            return gettext("{player} names the {empire} on {target}'s board", player=p, empire=e, target=t)
        case CiScored(player=p, target=t, empire=e, slot=slot, points=n):
            return gettext("{target}'s {empire} token lies in {slot}: {player} scores {points}",
                           target=t, empire=e, slot=slot, player=p, points=format(n, "+d"))
        case GameEnded():
            return gettext("the game ends after round 4's empire phases")
        case FinalRevealed(player=p, arrangement=arr):
            return gettext("{player} reveals: {arrangement}", player=p,
                           arrangement=_list([f"{s} {e}" for s, e in zip(SLOTS, arr)]))
        case ScoreComputed(player=p, base=b, region_agents=ra, keep_secrets=ks, ci_bonus=ci, bonus=bo, total=t):
            extras = [gettext(label, points=format(v, "+d"))
                      for label, v in ((N_("region agents {points}"), ra), (N_("secrets {points}"), ks),
                                       (N_("counter-intelligence {points}"), ci), (N_("card bonus {points}"), bo)) if v]
            if extras:
                return gettext("{player} scores {total} ({base} from cities, {extras})", player=p, total=t, base=b,
                               extras=_list(extras))
            return gettext("{player} scores {total}", player=p, total=t)
        case WinnerDeclared(winners=w, reason=r):
            return gettext("winner: {winners} ({reason})", winners=_list(list(w)), reason=r.replace("_", " "))
    return None
