"""``legal_intents``: intents a seat could submit now that would be accepted.

Candidates are generated from the state (every council action with its variants, every agent
placement, card plays with a cost the hand can pay, reveal decisions...) and each is then checked
with ``decide`` itself, so the list never offers an intent the referee would refuse. In a digital
match chance fields are left out (the referee fills them in). The list is complete enough that
random play always reaches the end of the game; it does not enumerate every split of banners or
every choice of cost cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.engine.chance import Chance
from referee.engine.protocol import Accepted, Rejected

from .data import EMPIRES, POSITIONS, SLOTS, SOCIETIES, card_empire
from .model import (
    AddBanners,
    ArrangeLoyalty,
    Arrangement,
    Attack,
    ChooseSociety,
    CiNameEmpire,
    CiReveal,
    CollectAgent,
    DealFanaticEmpire,
    DiscardCards,
    Effect,
    EndPosition,
    FinalReveal,
    ManualEffect,
    MoveAgent,
    NoteDelta,
    PassPosition,
    Placement,
    PlaceAgent,
    PlayCard,
    ResolveCombat,
    Revealed,
    ScoreDelta,
    SetFirstPlayer,
    SkipSwap,
    State,
    SwapLoyalty,
    TakeCards,
    Variant,
)
from .queries import Queries
from .rounds import skip_collectors, stuck_collector
from .txn import Tx


def legal_intents(rules: Queries, state: State, seat: str) -> Sequence[Any]:
    if state.outcome is not None or seat not in rules.players:
        return []
    source = state
    if stuck_collector(rules, state):
        tx = Tx(rules, state, seat, frozenset())
        skip_collectors(tx)
        source = tx.state
    candidates = list(_candidates(rules, source, seat))
    chance = Chance(rules.config.seed or 0, "legal") if rules.digital else None
    out = []
    seen: set[bytes] = set()
    from referee.engine.core import canonical

    for intent in candidates:
        key = canonical(intent)
        if key in seen:
            continue
        seen.add(key)
        filled = rules.filled_intent(state, seat, intent, chance)
        if isinstance(filled, Rejected):  # a candidate the generator does not deal
            continue
        verdict = rules.decide(state, seat, filled, chance)
        if isinstance(verdict, Accepted):
            out.append(intent)
    return out


def _candidates(rules: Queries, s: State, seat: str) -> Any:  # noqa: C901 - one generator per phase
    ph = s.phase
    if ph == "SETUP":
        yield from _setup(rules, s, seat)
    elif ph == "AGENT_COLLECT":
        if rules.next_collector(s) == seat:
            for place in rules.agents_on_board(s, seat):
                yield CollectAgent(from_=place)
    elif ph == "AGENT_PLACE":
        if rules.current_placer(s) == seat:
            for pid in rules.free_positions(s):
                yield PlaceAgent(to=pid)
            if rules.modules["region_agents"]:
                for r in rules.board.region_ids:
                    yield PlaceAgent(to=r)
    elif ph == "EMPIRE_PHASE":
        c = s.cursor
        if c is not None and c.acting_player == seat:
            yield from _empire_phase(rules, s, seat)
    elif ph == "DISCARD":
        hand = sorted(s.players[seat].hand)
        k = len(hand) - 5
        if k > 0 and seat not in s.discard_phase.discarded:
            yield DiscardCards(cards=tuple(hand[:k]))
            yield DiscardCards(cards=tuple(hand[-k:]))
    elif ph in ("REVEAL", "CI_SWAP"):
        if rules.next_decider(s) == seat:
            yield SkipSwap()
            yield from _swaps(rules, s, seat)
    elif ph == "CI_REVEAL":
        pending = s.reveal_phase.pending_naming
        if pending is not None:
            if pending.target == seat:
                for slot in SLOTS:
                    yield CiReveal(empire=pending.empire, slot=slot)
        elif rules.next_namer(s) == seat:
            for e in EMPIRES:
                yield CiNameEmpire(empire=e)
    elif ph == "FINAL_SCORING":
        pl = s.players[seat]
        if not pl.final_revealed:
            fixed = {slot: t.empire for slot, t in pl.loyalty.items() if t.revealed and t.empire}
            rest = [e for e in EMPIRES if e not in fixed.values()]
            arr = {slot: fixed.get(slot) or rest.pop(0) for slot in SLOTS}
            yield FinalReveal(arrangement=Arrangement(**arr))


def _setup(rules: Queries, s: State, seat: str) -> Any:
    pl = s.players[seat]
    if pl.society is None:
        taken = {p.society for p in s.players.values()}
        for soc in SOCIETIES:
            if soc not in taken:
                yield ChooseSociety(society=soc)
    if s.first_player is None:
        if rules.digital:
            yield SetFirstPlayer()
        else:
            for p in rules.players:
                yield SetFirstPlayer(player=p)
    if rules.modules["to_each_their_own"] and not s.fanatic_deal_recorded:
        if rules.digital:
            yield DealFanaticEmpire()
        else:
            yield DealFanaticEmpire(assignments={p: EMPIRES[i] for i, p in enumerate(rules.players)})
    if pl.society is not None and not pl.loyalty:
        if rules.unrecorded:
            yield ArrangeLoyalty(arrangement="unrecorded")
        elif rules.digital:
            yield ArrangeLoyalty()
        else:
            i = rules.players.index(seat)
            order = list(EMPIRES[i:] + EMPIRES[:i])
            if pl.fanatic_dealt:
                order.remove(pl.fanatic_dealt)
                order.insert(0, pl.fanatic_dealt)
            yield ArrangeLoyalty(arrangement=Arrangement(**dict(zip(SLOTS, order))))


def _swaps(rules: Queries, s: State, seat: str) -> Any:
    loyalty = s.players[seat].loyalty
    free = [slot for slot in SLOTS if not loyalty[slot].revealed]
    pairs = [(a, b) for i, a in enumerate(free) for b in free[i + 1:]][:4]
    shown = [t.empire for t in loyalty.values() if t.revealed]
    for a, b in pairs:
        if s.phase == "CI_SWAP":
            yield SwapLoyalty(slot_a=a, slot_b=b)
        elif rules.unrecorded:
            unseen = [e for e in EMPIRES if e not in shown]
            yield SwapLoyalty(slot_a=a, slot_b=b, revealed=Revealed(**{a: unseen[0], b: unseen[1]}))
        else:
            ea, eb = loyalty[b].empire, loyalty[a].empire
            yield SwapLoyalty(slot_a=a, slot_b=b, revealed=Revealed(**{a: ea, b: eb}))


def _empire_phase(rules: Queries, s: State, seat: str) -> Any:
    c = s.cursor
    assert c is not None
    slot = rules.current_slot(s)
    assert slot is not None
    if c.resolving_kind == "manual" and c.resolving_card is not None:
        yield ManualEffect(card=c.resolving_card, deltas=(NoteDelta(),))
        yield ManualEffect(card=c.resolving_card, description="one bonus point", deltas=(ScoreDelta(player=seat, delta=1),))
        return
    if c.stage == "combat_pending":
        yield ResolveCombat(position=slot)
        yield from _plays(rules, s, seat, slot, "during")
        return
    if c.stage == "done":
        yield EndPosition(position=slot)
        yield from _plays(rules, s, seat, slot, "after")
        return
    yield from _actions(rules, s, seat, slot)
    yield PassPosition(position=slot)
    if c.resolving_card is None:
        yield from _plays(rules, s, seat, slot, "before")
        if rules.options["during_window"] == "any_action":
            yield from _plays(rules, s, seat, slot, "during")


def _actions(rules: Queries, s: State, seat: str, slot: str) -> Any:
    e = slot.split(".", 1)[0]
    regions = rules.controlled_regions(s, e)
    for spec in rules.actions_at(slot):
        if spec.type == "add_banners" and spec.count is not None:
            want = min(spec.count, s.banner_supply[e])
            if want < 1:
                continue
            for r in regions:
                yield AddBanners(position=slot, count=spec.count, placements=(Placement(r, want),))
            if want == 2:
                pairs = [(a, b) for i, a in enumerate(regions) for b in regions[i + 1:]][:6]
                for a, b in pairs:
                    yield AddBanners(position=slot, count=spec.count, placements=(Placement(a, 1), Placement(b, 1)))
        elif spec.type == "attack":
            for src in regions:
                have = s.banners[src][e]
                if have < 1:
                    continue
                top = have if rules.home(src) == e else have - 1
                for dst in rules.board.neighbours[src]:
                    if rules.control(s, dst) == e:
                        continue
                    for n in range(1, top + 1):
                        yield Attack(position=slot, from_=src, to=dst, count=n)
                    if top >= 1:
                        yield Attack(position=slot, from_=src, to=dst, count=top, resolve=False)
        elif spec.type == "take_cards":
            variant = Variant(mode="fixed", n=1) if spec.mode == "fixed" else Variant(
                mode="per_symbol", symbol=spec.symbol, divisor=spec.divisor)
            if rules.digital:
                yield TakeCards(position=slot, variant=variant)
                continue
            n = rules.expected_draw(s, e, variant.mode, variant.symbol, variant.divisor)
            deck = sorted(s.deck[e])
            if rules.counted:
                yield TakeCards(position=slot, variant=variant, cards=(str(n),))
            else:
                yield TakeCards(position=slot, variant=variant, cards=tuple(deck[:n]))
                if n and len(deck) > n:
                    yield TakeCards(position=slot, variant=variant, cards=tuple(deck[-n:]))
        elif spec.type == "move_agent":
            for p in POSITIONS:
                yield MoveAgent(position=slot, destination=f"{e}.{p}")


def _pay(rules: Queries, hand: list[str], card: str, cost: Sequence[str]) -> tuple[str, ...] | None:
    """Extra cost cards from ``hand`` (without ``card``) whose empires complete ``cost``."""
    need = list(cost)
    own = card_empire(card) or card
    if own not in need:
        return None
    need.remove(own)
    rest = list(hand)
    rest.remove(card)
    extra = []
    for e in need:
        pick = next((c for c in rest if (card_empire(c) or c) == e), None)
        if pick is None:
            return None
        rest.remove(pick)
        extra.append(pick)
    if rules.counted:
        # an unidentified card in hand is named by any id of its deck
        named = []
        used: dict[str, int] = {}
        for x in extra:
            emp = card_empire(x) or x
            used[emp] = used.get(emp, 0) + 1
            named.append(f"{emp}_c{used[emp] + (1 if emp == own else 0)}")
        return tuple(named)
    return tuple(extra)


def _plays(rules: Queries, s: State, seat: str, slot: str, timing: str) -> Any:
    hand = list(s.players[seat].hand)
    c = s.cursor
    assert c is not None
    e = slot.split(".", 1)[0]
    for entry in sorted(set(hand)):
        card = f"{entry}_c1" if rules.counted and entry in EMPIRES else entry
        if rules.catalogue is not None and card in rules.catalogue:
            abilities = [(a.index, a.cost, a.effect) for a in rules.catalogue[card].abilities.values()]
            declared = False
        else:
            own = card_empire(card) or card
            abilities = [(1, (own,), "manual")]
            declared = True
        for index, cost, effect in abilities:
            if timing not in rules.card_timings(card, index, effect):
                continue
            handlist = [card if x == entry else x for x in hand] if rules.counted else hand
            extra = _pay(rules, handlist, card, cost)
            if extra is None:
                continue
            common: dict[str, Any] = {"card": card, "ability": index, "timing": timing, "position": slot, "extra_cost_cards": extra,
                                      "declared_cost": tuple(cost) if declared else ()}
            if effect == "manual":
                yield PlayCard(effect="manual", **common)
                continue
            for eff in _effects(rules, s, seat, slot, e, effect):
                yield PlayCard(effect=eff, **common)


def _effects(rules: Queries, s: State, seat: str, slot: str, e: str, prim: str) -> Any:
    c = s.cursor
    assert c is not None
    if prim == "mutual_annihilation":
        yield Effect(primitive=prim)
    elif prim == "reinforcement" and c.combat is not None:
        for r in rules.controlled_regions(s, e):
            if r != c.combat.region and s.banners[r][e] >= 2:
                yield Effect(primitive=prim, from_=r, count=1)
                break
    elif prim == "relocate_agent":
        for pid in rules.free_positions(s)[:2]:
            yield Effect(primitive=prim, destination=pid)
    elif prim == "borrow_action":
        n = 0
        for emp in EMPIRES:
            for p in POSITIONS:
                pid = f"{emp}.{p}"
                if pid != slot and rules.controller(s, emp, p) == seat and n < 2:
                    n += 1
                    yield Effect(primitive=prim, target=pid)
    elif prim == "move_banners":
        for r in rules.controlled_regions(s, e):
            if s.banners[r][e] >= 2:
                for dst in rules.board.neighbours[r][:1]:
                    yield Effect(primitive=prim, from_=r, to=dst, empire=e, count=1)
                break
    elif prim == "disband":
        for r in rules.board.region_ids:
            for emp in EMPIRES:
                n = s.banners[r][emp]
                if n < 1 or (c.combat is not None and c.combat.region == r):
                    continue
                friendly = [x for x in rules.board.neighbours[r] if rules.control(s, x) == emp]
                if rules.options["disband_destination"] == "adjacent_controlled_split" and friendly:
                    yield Effect(primitive=prim, region=r, empire=emp, placements=(Placement(friendly[0], n),))
                else:
                    yield Effect(primitive=prim, region=r, empire=emp)
                return
