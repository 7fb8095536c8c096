"""Playing an empire card (§4.17, card notes §7): the card window, the card and its cost cards in
hand, the cost paid (catalogued, or declared and flagged), the timing; then the six effect
primitives — mutual annihilation, reinforcement, relocate agent, borrow action, move banners and
disband — each checked before anything is recorded and applied after the card is. A card without a
primitive (``effect=manual``) waits for its ``manual_effect``.
"""

from __future__ import annotations

from typing import Any

from .codes import Code
from .combat import fight, fort_strikes
from .data import EMPIRES, card_empire, split
from .model import (
    AgentMoved,
    AnnihilationDeclared,
    AuditFlagRaised,
    BannersMoved,
    BannersReturned,
    CardPlayed,
    CardResolving,
    DeckShuffled,
    Effect,
    FortTriggered,
    PlayCard,
    SubActivationOpened,
)
from .txn import R_NOTES, R_PLAY, Tx


def play_card(tx: Tx, intent: PlayCard) -> None:  # noqa: C901 - §4.17 in order
    rules = tx.rules
    s = tx.state
    c = s.cursor
    slot = rules.current_slot(s)
    # 1
    window = s.phase == "EMPIRE_PHASE" and c is not None and intent.position == slot and tx.seat == c.acting_player
    if not window:
        if s.phase != "EMPIRE_PHASE" or c is None:
            msg = f"cards are played around a council position's action; the game is in {s.phase}"
        elif intent.position != slot:
            msg = f"{intent.position} is not the active position ({slot})"
        else:
            msg = f"only {c.acting_player}, who controls {slot}, may play cards now"
        tx.fail(Code.NO_CARD_WINDOW, msg, R_PLAY)
    assert c is not None and slot is not None
    # 2
    during_ok = ("combat_pending",) if rules.options["during_window"] == "combat_only" else ("pending", "combat_pending")
    stage_ok = {"before": c.stage == "pending", "during": c.stage in during_ok, "after": c.stage == "done"}[intent.timing]
    if not stage_ok:
        tx.fail(Code.NO_CARD_WINDOW, f"a {intent.timing} card cannot be played now ({slot} is {c.stage})", R_PLAY)
    # 3
    if c.resolving_card is not None:
        tx.fail(Code.CARD_RESOLVING, f"{c.resolving_card} is still being resolved", R_PLAY)
    hand = s.players[tx.seat].hand
    # 4
    if not rules.hand_has(hand, intent.card):
        tx.fail(Code.CARD_NOT_IN_HAND, f"{intent.card} is not in {tx.seat}'s hand", R_PLAY)
    # 5
    rest = list(hand)
    rest.remove(intent.card if intent.card in rest else card_empire(intent.card) or intent.card)
    seen: set[str] = {intent.card}
    for x in intent.extra_cost_cards:
        if x in seen:
            tx.fail(Code.DUPLICATE_CARD, f"{x} is named twice (the played card cannot pay twice)", R_PLAY)
        seen.add(x)
        entry = x if x in rest else (card_empire(x) if rules.counted and card_empire(x) in rest else None)
        if entry is None:
            tx.fail(Code.CARD_NOT_IN_HAND, f"cost card {x} is not in {tx.seat}'s hand", R_PLAY)
        rest.remove(entry)
    # 6
    paid = sorted(card_empire(x) or x for x in (intent.card, *intent.extra_cost_cards))
    own = card_empire(intent.card) or ""
    ab = rules.ability(intent.card, intent.ability)
    effect_name = intent.effect if isinstance(intent.effect, str) else intent.effect.primitive
    flags: list[AuditFlagRaised] = []
    if ab is not None:
        tx.check(paid == sorted(ab.cost), Code.COST_MISMATCH,
                 f"ability {intent.ability} of {intent.card} costs {'+'.join(ab.cost)}; paid {'+'.join(paid)}", R_PLAY)
        tx.check(effect_name == ab.effect, Code.EFFECT_MISMATCH,
                 f"ability {intent.ability} of {intent.card} is {ab.effect}, not {effect_name}", R_PLAY)
        if rules.counted:
            flags.append(AuditFlagRaised(kind="cost_unverified", card=intent.card))
    else:
        declared = sorted(intent.declared_cost)
        tx.check(bool(declared), Code.COST_MISMATCH,
                 f"{intent.card} has no catalogued ability {intent.ability}: declare its cost (declared_cost=…)", R_PLAY)
        tx.check(own in declared, Code.COST_MISMATCH, f"the played card pays one {own} symbol: the cost must contain {own}",
                 R_PLAY)
        if intent.ability == 1:
            tx.check(declared == [own], Code.COST_MISMATCH,
                     f"a card's first ability costs only the card itself ({own}), not {'+'.join(declared)}", R_PLAY)
        tx.check(paid == declared, Code.COST_MISMATCH, f"declared cost {'+'.join(declared)}; paid {'+'.join(paid)}", R_PLAY)
        flags.append(AuditFlagRaised(kind="cost_unverified", card=intent.card))
    # 7
    timings = rules.card_timings(intent.card, intent.ability, effect_name)
    tx.check(intent.timing in timings, Code.TIMING_NOT_ALLOWED,
             f"{effect_name} of {intent.card} is played {'/'.join(timings)}, not {intent.timing}", R_NOTES)
    effect = intent.effect
    plan = _primitive_plan(tx, intent, effect, slot) if isinstance(effect, Effect) else None
    # effects
    tx.emit(CardPlayed(player=tx.seat, card=intent.card, ability=intent.ability, timing=intent.timing,
                       position=slot, paid=tuple(intent.extra_cost_cards), effect=effect_name,
                       declared_cost=tuple(intent.declared_cost)))
    for empire in EMPIRES:
        if empire in paid:
            tx.emit(DeckShuffled(empire=empire))
    tx.emit(*flags)
    if plan is None:
        tx.emit(CardResolving(card=intent.card, kind="manual"))
        return
    plan(tx)


def _primitive_plan(tx: Tx, intent: PlayCard, effect: Effect, slot: str) -> Any:
    """Check a primitive's preconditions (§7) now; return the function that applies it."""
    rules = tx.rules
    s = tx.state
    c = s.cursor
    assert c is not None
    e_active = split(slot)[0]
    prim = effect.primitive
    card = intent.card
    if prim == "mutual_annihilation":
        if c.combat is None:
            tx.fail(Code.NO_CARD_WINDOW, "mutual annihilation needs a pending combat (attack … resolve=false)", R_NOTES)
        combat_region = c.combat.region
        return lambda t: t.emit(AnnihilationDeclared(region=combat_region))
    if prim == "reinforcement":
        if c.combat is None or c.combat.attacker != e_active:
            tx.fail(Code.NO_CARD_WINDOW, f"reinforcement needs a pending combat of the {e_active}", R_NOTES)
        from_region, n, combat_region = effect.from_, effect.count or 0, c.combat.region
        if from_region is None or rules.control(s, from_region) != e_active or from_region == combat_region:
            tx.fail(Code.SOURCE_NOT_CONTROLLED,
                    f"effect.from must be a region the {e_active} controls, other than {combat_region}; got {from_region}", R_NOTES)
        have = s.banners[from_region][e_active]
        if n < 1:
            tx.fail(Code.NO_BANNERS_MOVED, f"reinforcement moves at least 1 banner, not {n}", R_NOTES)
        if n > have:
            tx.fail(Code.INSUFFICIENT_BANNERS, f"{from_region} holds {have} {e_active} banner(s), not {n}", R_NOTES)
        tx.check(not (rules.home(from_region) != e_active and n > have - 1), Code.CANNOT_ABANDON_CONQUERED,
                 f"{from_region} is conquered: 1 {e_active} banner must stay", R_NOTES)
        again = rules.options["fort_trigger"] == "per_entering_group" and fort_strikes(rules, combat_region, e_active)

        def reinforce(t: Tx) -> None:
            t.emit(BannersMoved(from_=from_region, to=combat_region, empire=e_active, count=n, why="reinforcement"))
            if again:
                t.emit(FortTriggered(region=combat_region, empire=e_active))
        return reinforce
    if prim == "relocate_agent":
        destination = effect.destination
        free = rules.free_positions(s)
        if not free:
            tx.fail(Code.NO_FREE_POSITION, "every council position is occupied", R_NOTES)
        if destination is None or not rules.is_position(destination):
            tx.fail(Code.INVALID_DESTINATION, f"effect.destination must be a council position, got {destination}", R_NOTES)
        de, dp = split(destination)
        holder = s.council[de][dp]
        if holder is not None:
            tx.fail(Code.POSITION_OCCUPIED, f"{destination} holds {holder}'s agent", R_NOTES)
        owner, at = rules.active_agent(s, slot)
        if owner != tx.seat or at is None:
            tx.fail(Code.AGENT_NOT_FOUND, f"no agent of {tx.seat} gives control of {slot}", R_NOTES)

        def relocate(t: Tx) -> None:
            t.emit(AgentMoved(player=t.seat, from_=at, to=destination),
                   SubActivationOpened(position=destination, by="relocate_agent"),
                   CardResolving(card=card, kind="replacement"))
        return relocate
    if prim == "borrow_action":
        target = effect.target
        if target is None or not rules.is_position(target) or target == slot:
            tx.fail(Code.INVALID_DESTINATION, f"effect.target must be another council position, got {target}", R_NOTES)
        te, tp = split(target)
        who = rules.controller(s, te, tp)
        tx.check(who == tx.seat, Code.NOT_CONTROLLED_POSITION, f"{target} is controlled by {who}, not {tx.seat}", R_NOTES)

        def borrow(t: Tx) -> None:
            t.emit(SubActivationOpened(position=target, by="borrow_action"),
                   CardResolving(card=card, kind="replacement"))
        return borrow
    if prim == "move_banners":
        src, dst, emp, n = effect.from_, effect.to, effect.empire, effect.count or 0
        if src is None or dst is None or emp is None or src == dst:
            tx.fail(Code.INVALID_DESTINATION, "move_banners needs effect.from, effect.to (another region), "
                    "effect.empire and effect.count", R_NOTES)
        if c.combat is not None and c.combat.region in (src, dst):
            tx.fail(Code.COMBAT_PENDING, f"a combat is pending in {c.combat.region}", R_NOTES)
        have = s.banners[src][emp]
        if n < 1:
            tx.fail(Code.NO_BANNERS_MOVED, f"move at least 1 banner, not {n}", R_NOTES)
        if n > have:
            tx.fail(Code.INSUFFICIENT_BANNERS, f"{src} holds {have} {emp} banner(s), not {n}", R_NOTES)
        tx.check(not (rules.home(src) != emp and n > have - 1), Code.CANNOT_ABANDON_CONQUERED,
                 f"{src} is not {emp} home: 1 {emp} banner must stay", R_NOTES)
        defender = rules.control(s, dst)

        def move(t: Tx) -> None:
            t.emit(BannersMoved(from_=src, to=dst, empire=emp, count=n, why="move_banners"),
                   AuditFlagRaised(kind="suitability_unverified", card=card))
            if defender is not None and defender != emp:
                fort = False
                if fort_strikes(rules, dst, emp):
                    t.emit(FortTriggered(region=dst, empire=emp))
                    fort = True
                a_after = t.state.banners[dst][emp]
                fight(t, dst, emp, defender, n, a_after, fort, annihilation=False, pending=False)
        return move
    if prim == "disband":
        region, empire = effect.region, effect.empire
        if region is None or empire is None:
            tx.fail(Code.INVALID_DESTINATION, "disband needs effect.region and effect.empire", R_NOTES)
        if c.combat is not None and c.combat.region == region:
            tx.fail(Code.COMBAT_PENDING, f"a combat is pending in {region}", R_NOTES)
        have = s.banners[region][empire]
        if have < 1:
            tx.fail(Code.NO_BANNERS_MOVED, f"{region} holds no {empire} banner", R_NOTES)
        friendly = [r for r in rules.board.neighbours[region] if rules.control(s, r) == empire]
        split_out = rules.options["disband_destination"] == "adjacent_controlled_split" and friendly
        placements = effect.placements
        if split_out:
            total = sum(p.n for p in placements)
            ok = total == have and all(p.n >= 1 and p.region in friendly for p in placements)
            if not ok:
                tx.fail(Code.INVALID_DESTINATION,
                        f"the {have} disbanded {empire} banner(s) go to neighbouring {empire} regions "
                        f"({', '.join(friendly)}): effect.placements=region:n,… adding up to {have}", R_NOTES)
        elif placements:
            tx.fail(Code.INVALID_DESTINATION, f"the disbanded {empire} banners return to the supply: give no placements",
                    R_NOTES)

        def disband(t: Tx) -> None:
            if split_out:
                for p in placements:
                    t.emit(BannersMoved(from_=region, to=p.region, empire=empire, count=p.n, why="disband"))
            else:
                t.emit(BannersReturned(region=region, empire=empire, count=have, why="disband"))
            t.emit(AuditFlagRaised(kind="suitability_unverified", card=card))
        return disband
    tx.fail(Code.UNKNOWN_REFERENCE, f"unknown effect {prim}", R_NOTES)
