"""Symbol effects (rules spec 4.6): legality (R-COMBO-LEGALITY), parameters, resolution; and
decisions (4.14): ``choose`` answers the pending one (an effect's, the agent limit's or the on-leave
window's), checked and applied here, then resumes what it interrupted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from msgspec.structs import replace

from .codes import Code
from . import agents, refs, turn
from .data import Combination
from .fold import get_obj
from .chance import shuffle_chance
from .model import ActionsLost, ArchiveCardsMoved, ArchiveOrdered, Choose, DecisionClosed, Pending, PlaySymbols
from .txn import Txn, revealed

RULE = "R-COMBO-TABLE"


def _archive(txn: Txn, text: str | None, kind: str | None = None) -> tuple[str, str]:
    txn.require(text is not None, Code.MISSING_EFFECT_PARAM, "name the archive with archive=SEAT.main or SEAT.extra", RULE)
    try:
        seat, zone = refs.archive(txn.ctx, str(text))
    except refs.RefError as exc:
        txn.fail(Code.BAD_EFFECT_TARGET, str(exc), RULE)
    if kind is not None:
        txn.require(zone == kind, Code.BAD_EFFECT_TARGET, f"archive={text}: this effect takes an extra archive (SEAT.extra)", RULE)
    txn.require(getattr(txn.player(seat), zone).count > 0, Code.BAD_EFFECT_TARGET, f"archive={text} is empty", RULE)
    return seat, zone


def _territory_of(txn: Txn, param: str, text: str | None, seat: str) -> str:
    txn.require(text is not None, Code.MISSING_EFFECT_PARAM, f"name the territory with {param}=CELL", RULE)
    t = txn.state.field.get(str(text))
    txn.require(t is not None and t.territory is not None and t.territory.controller == seat, Code.BAD_EFFECT_TARGET,
                f"{param}={text} must be a territory of {seat}", RULE)
    return str(text)


def check_effect(txn: Txn, seat: str, effect: str, i: PlaySymbols) -> None:
    """Checks 11 (legality, ``illegal_<effect>``) and 12 (parameters) of ``play_symbols``."""
    ctx, s = txn.ctx, txn.state
    other = ctx.opp(seat)
    code = f"illegal_{effect}"

    def legal(ok: bool, why: str) -> None:
        txn.check(ok, code, f"{effect} cannot be played: {why}", "R-COMBO-LEGALITY")

    if effect == "info_leak":
        legal(any(getattr(p, z).count for p in s.players.values() for z in ("main_archive", "extra_archive")),
              "all four archives are empty")
        owner, zone = _archive(txn, i.archive)
        count = getattr(txn.player(owner), zone).count
        if txn.opts["partial_archive_moves"] == "require_full":
            txn.require(count >= 2, Code.BAD_EFFECT_TARGET, f"archive={i.archive} holds {count} card(s); info leak needs 2", RULE)
        txn.check_draw(owner, zone, i.cards, min(2, count), RULE)
    elif effect == "mutual_strike":
        legal(all(p.trust > 0 for p in s.players.values()), "a player's trust is 0")
    elif effect == "boost_potential":
        count = txn.player(seat).main_archive.count
        legal(count >= 2, f"{seat}'s main archive has {count} card(s), fewer than 2")
        txn.check_draw(seat, "main_archive", i.cards, 2, RULE)
    elif effect == "restoration":
        legal(bool(txn.player(seat).utility), f"{seat}'s utility is empty")
        if txn.opts["restoration_full_buffer"] == "illegal":
            legal(bool(txn.free_slots(seat)), f"{seat}'s buffer has no free slot")
        txn.require(i.card is not None, Code.MISSING_EFFECT_PARAM, "name the card to restore with card=CARD", RULE)
        txn.require(i.card in txn.player(seat).utility, Code.BAD_EFFECT_TARGET, f"{i.card} is not in {seat}'s utility", RULE)
    elif effect == "foresight":
        exists = any(getattr(s.field[c], slot) is not None for c in ctx.field.cells for slot in ("territory", "agent", "graffiti"))
        exists = exists or any(b is not None for p in s.players.values() for b in p.buffer.values())
        legal(exists, "there is no object on the field or in a buffer")
        txn.require(i.target is not None, Code.MISSING_EFFECT_PARAM, "name the object with target=CELL[/agent|/graffiti] or SEAT.bufN", RULE)
        try:
            ref = refs.any_object(ctx, str(i.target), seat)
        except refs.RefError as exc:
            txn.fail(Code.BAD_EFFECT_TARGET, str(exc), RULE)
        txn.require(get_obj(s, ref) is not None, Code.BAD_EFFECT_TARGET, f"there is no object at {i.target}", RULE)
        txn.require(i.option is not None, Code.MISSING_EFFECT_PARAM, "foresight needs option=restore or option=remove", RULE)
        txn.require(i.option in ("restore", "remove"), Code.BAD_EFFECT_TARGET, "foresight takes option=restore or option=remove", RULE)
    elif effect == "download":
        legal(any(p.extra_archive.count for p in s.players.values()), "both extra archives are empty")
        owner, zone = _archive(txn, i.archive, "extra_archive")
        count = txn.player(owner).extra_archive.count
        if txn.opts["partial_archive_moves"] == "require_full":
            txn.require(count >= 3, Code.BAD_EFFECT_TARGET, f"archive={i.archive} holds {count} card(s); download needs 3", RULE)
    elif effect == "power_management":
        txn.require(i.option is not None, Code.MISSING_EFFECT_PARAM, "power management needs option=gain or option=drain", RULE)
        txn.require(i.option in ("gain", "drain"), Code.BAD_EFFECT_TARGET, "power management takes option=gain or option=drain", RULE)
    elif effect in ("inspire", "intimidate"):
        legal(bool(txn.territories(seat)) and bool(txn.territories(other)), "each player must control a territory")
        _territory_of(txn, "opp", i.opp, other)
        _territory_of(txn, "own", i.own, seat)
    elif effect == "sabotage":
        n = len(txn.player(other).hand)
        legal(n >= 2, f"{other}'s hand has {n} card(s), fewer than 2")
    elif effect == "destroy_plans":
        legal(any(b is not None for p in s.players.values() for b in p.buffer.values()), "every buffer is empty")
        txn.require(i.target is not None, Code.MISSING_EFFECT_PARAM, "name the buffer card with target=SEAT.bufN", RULE)
        try:
            ref = refs.buffer_object(ctx, str(i.target))
        except refs.RefError as exc:
            txn.fail(Code.BAD_EFFECT_TARGET, str(exc), RULE)
        txn.require(get_obj(s, ref) is not None, Code.BAD_EFFECT_TARGET, f"{i.target} is empty", RULE)
    elif effect == "remove_agent":
        legal(any(s.field[c].agent is not None for c in ctx.field.cells), "there is no agent on the field")
        txn.require(i.target is not None, Code.MISSING_EFFECT_PARAM, "name the agent's cell with target=CELL", RULE)
        txn.require(ctx.field.is_cell(str(i.target)) and s.field[str(i.target)].agent is not None, Code.BAD_EFFECT_TARGET,
                    f"there is no agent on {i.target}", RULE)


def resolve_effect(txn: Txn, seat: str, effect: str, i: PlaySymbols, combo: Combination) -> int:
    """Resolve a symbol effect; returns how many cards it put into the actor's buffer."""
    ctx = txn.ctx
    other = ctx.opp(seat)
    if effect in ("slander", "blackmail"):
        txn.deferred = Pending(kind=effect, decider=other, actor=seat, effect=effect)
    elif effect == "sabotage":
        chooser = other if txn.opts["sabotage_chooser"] == "target" else seat
        txn.deferred = Pending(kind="sabotage", decider=chooser, actor=seat, effect=effect, target=other)
    elif effect == "info_leak":
        owner, zone = refs.archive(ctx, str(i.archive))
        for cid in i.cards:
            txn.move(cid, owner, f"{owner}.{zone}", f"{owner}.utility", cause="info leak (revealed)")
    elif effect == "expose":
        txn.lose(other, "reputation", 2, "exposed")
    elif effect == "mutual_strike":
        txn.lose(seat, "trust", 1, "mutual strike")
        txn.lose(other, "trust", 1, "mutual strike")
    elif effect == "boost_potential":
        txn.draw(seat, "main_archive", i.cards, f"{seat}.hand", "boost potential")
    elif effect == "restoration":
        free = txn.free_slots(seat)
        if free:
            txn.move(str(i.card), seat, f"{seat}.utility", f"{seat}.{free[0]}", oid=txn.new_oid(), cause="restoration")
            return 1
    elif effect == "foresight":
        ref = refs.any_object(ctx, str(i.target), seat)
        obj = get_obj(txn.state, ref)
        if i.option == "remove":
            txn.set_tokens(ref, (), "foresight")
        elif getattr(obj, "face", "up") == "down":
            txn.set_tokens(ref, (), "foresight")
        else:
            lilac = list(i.lilac_as)
            card = ctx.card(obj.card)
            tokens = [txn._lilac_choice(card.id, lilac) if sym == ctx.cards.neutral_symbol else sym for sym in card.symbols]
            txn.set_tokens(ref, tuple(sorted(tokens)), "foresight")
    elif effect == "download":
        owner, _zone = refs.archive(ctx, str(i.archive))
        p = txn.player(owner)
        n = min(3, p.extra_archive.count)
        placement = txn.opts["download_placement"]
        cards = p.extra_archive.cards[:n] if ctx.exact else ()
        txn.emit(ArchiveCardsMoved(owner=owner, src="extra_archive", dst="main_archive", count=n, cards=cards,
                                   at="bottom" if placement == "bottom" else "top"))
        if placement == "shuffle" and ctx.exact and txn.chance is not None:
            order = tuple(shuffle_chance(txn.state, owner, "main_archive", txn.chance).shuffled(
                txn.archive_cards(owner, "main_archive")))
            txn.emit(ArchiveOrdered(owner=owner, archive="main_archive", cards=order))
    elif effect == "power_management":
        if i.option == "gain":
            txn.gain(seat, "influence", 1, "power management")
        else:
            txn.lose(other, "influence", 1, "power management")
    elif effect == "inspire":
        delta = combo.own_delta if combo.own_delta is not None else txn.opts["inspire_own_delta"]
        txn.change_loyalty(str(i.opp), 1, "inspire")
        txn.change_loyalty(str(i.own), delta, "inspire")
    elif effect == "intimidate":
        txn.change_loyalty(str(i.opp), -3, "intimidate")
        txn.change_loyalty(str(i.own), -1, "intimidate")
    elif effect == "destroy_plans":
        ref = refs.buffer_object(ctx, str(i.target))
        obj = get_obj(txn.state, ref)
        txn.to_utility(obj.card, obj.owner, ref, "destroy plans")
    elif effect == "remove_agent":
        cell = str(i.target)
        was_revealed = revealed(txn.state, cell)
        txn.send_agent_to_utility(cell, "remove agent")
        txn.lose(seat, "reputation", 2 if was_revealed else 4, "remove agent (" + ("revealed" if was_revealed else "hidden") + ")")
    return 0


def choose(txn: Txn, i: Choose) -> None:
    """``choose`` (4.14): the pending decision answered, closed, and what it interrupted resumed."""
    seat = txn.seat
    p = txn.state.pending
    txn.require(p is not None, Code.NO_DECISION_PENDING, "there is no decision to answer", "R-EFFECT-ORDER")
    assert p is not None
    answer(txn, seat, p, i)
    txn.emit(DecisionClosed(kind=p.kind, decider=p.decider, answer=_answer_text(i)))
    if p.kind == "on_leave_window" and p.seats:
        txn.open_decision(replace(p, decider=p.seats[0], seats=p.seats[1:]))
        return
    if p.resume == "cleanup":
        txn.cleanup(p.actor, p.to_buffer, p.lilac_as, p.spent)
        agents.limit_after(txn, p.actor)
    elif p.resume == "close_turn":
        if p.kind == "agent_limit" and txn.opts["on_leave_before_status_check"]:
            if turn.open_on_leave(txn, str(txn.state.turn.active), list(p.culled)):
                return
        turn.close(txn, "C4")
    else:
        agents.limit_after(txn, p.actor)



def answer(txn: Txn, seat: str, p: Pending, i: Choose) -> None:
    """Check the answer to the pending decision (``invalid_choice``) and apply its result."""
    def bad(why: str) -> Any:
        txn.fail(Code.INVALID_CHOICE, f"{p.kind}: {why}", _rule(p.kind))

    decider, actor = p.decider, p.actor
    if p.kind == "unreliable_pr":
        if i.option == "actor_gains":
            txn.gain(actor, "reputation", 3, "unreliable PR")
        elif i.option == "target_loses":
            txn.lose(decider, "reputation", 3, "unreliable PR")
        else:
            bad("answer option=actor_gains or option=target_loses")
    elif p.kind == "slander":
        lost = txn.player(decider).actions_lost_next_turn
        if i.option == "lose_reputation":
            txn.lose(decider, "reputation", 3, "slander")
        elif i.option == "lose_main_action":
            txn.emit(ActionsLost(seat=decider, main=lost.main + 1, extra=lost.extra))
        elif i.option == "lose_extra_action":
            if txn.opts["slander_extra_requires_agent"] and txn.agent_count(decider) == 0:
                bad(f"{decider} controls no agent, so losing an extra action is not a choice")
            txn.emit(ActionsLost(seat=decider, main=lost.main, extra=lost.extra + 1))
        else:
            bad("answer option=lose_reputation, lose_main_action or lose_extra_action")
    elif p.kind == "blackmail":
        if i.option == "lose_reputation":
            txn.lose(decider, "reputation", 3, "blackmail")
        elif i.option == "discard_agent":
            cell = i.target
            a = txn.state.field.get(cell or "")
            if cell is None or a is None or a.agent is None or a.agent.controller != decider:
                bad(f"discard_agent needs target=CELL holding one of {decider}'s agents")
            txn.send_agent_to_utility(str(cell), "given up to blackmail")
        else:
            bad("answer option=lose_reputation or option=discard_agent target=CELL")
    elif p.kind == "sabotage":
        target = p.target or decider
        hand = Counter(txn.player(target).hand)
        want = Counter(i.cards)
        if len(i.cards) != 2 or any(hand[c] < n for c, n in want.items()):
            bad(f"name exactly two cards from {target}'s hand with cards=C1,C2")
        for cid in i.cards:
            txn.to_utility(cid, target, f"{target}.hand", "sabotage")
    elif p.kind == "agent_limit":
        if i.target not in p.cells:
            bad(f"give up one of the agents on {', '.join(p.cells)} with target=CELL")
        agents.give_up(txn, str(i.target))
    elif p.kind == "on_leave_window":
        if i.option not in (None, "done"):
            bad("answer option=done once the on-leave effects are declared")
    else:  # pragma: no cover - every kind the rules open is handled above
        bad("unknown decision")


def _rule(kind: str) -> str:
    return {"agent_limit": "R-GRAFFIGENTS", "on_leave_window": "R-ICONS"}.get(kind, RULE)



def _answer_text(i: Choose) -> str:
    parts = []
    if i.option:
        parts.append(i.option)
    if i.target:
        parts.append(f"target {i.target}")
    if i.cards:
        parts.append("cards " + ",".join(i.cards))
    return " ".join(parts)
