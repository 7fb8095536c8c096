"""Legal intents: candidates built from the state, kept when the referee would accept them.

``legal_intents`` lists every candidate that is accepted now (hints, fuzzing, property tests).
Declared effects (``declare_effect``, the changes of plots and abilities) are open-ended and are
offered only with no changes. In a digital match the chance fields are left out (the referee fills
them); in a physical one any consistent cards are named. ``random_intent`` draws one legal intent
cheaply (candidates in random order, the first accepted one): the benchmarks play thousands of games
with it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from referee.engine.protocol import Accepted

from .data import AGENT_TYPES
from .model import (
    ActivateAbility,
    AgentAttackAgent,
    AgentAttackPlayer,
    AgentDraw,
    Choose,
    ChooseOrder,
    CloseTurn,
    DeployAgent,
    DeployGraffiti,
    DeployTerritory,
    DiscardForEffect,
    DrawMain,
    DrawOpeningHand,
    DrawStartCards,
    EndTurn,
    Intent,
    Mulligan,
    PlayDigits,
    PlayNeutral,
    PlayPlot,
    PlaySymbols,
    RecordLot,
    State,
    Utilize,
)
from .txn import BoundRules, face_up_agents


def _draws(rules: BoundRules, state: State, seat: str, zone: str, n: int) -> tuple[str, ...]:
    p = state.players[seat]
    arch = getattr(p, zone)
    n = min(n, arch.count)
    if rules.ctx.exact:
        return tuple(arch.cards[:n])
    return tuple(p.unseen[:n])


def _accepts(rules: BoundRules, state: State, seat: str, intent: Any) -> bool:
    if seat not in rules.actors(state, intent):
        return False
    return isinstance(rules.decide(state, seat, intent, None), Accepted)


def _offer(rules: BoundRules, intent: Any, chance_fields: dict[str, Any]) -> tuple[Any, Any]:
    """(what to check, what to offer): in a digital match the offered intent omits chance fields."""
    import msgspec

    full = msgspec.structs.replace(intent, **chance_fields) if chance_fields else intent
    return full, (intent if rules.ctx.digital else full)


def candidates(rules: BoundRules, state: State, seat: str) -> Iterator[tuple[Any, Any]]:  # noqa: C901
    ctx, o = rules.ctx, rules.ctx.opts
    p = state.players[seat]
    if state.phase == "over":
        return
    if state.pending is not None:
        pd = state.pending
        if seat != pd.decider:
            return
        if pd.kind == "unreliable_pr":
            yield from ((c, c) for c in (Choose(option="actor_gains"), Choose(option="target_loses")))
        elif pd.kind == "slander":
            yield from ((c, c) for c in (Choose(option=x) for x in ("lose_reputation", "lose_main_action", "lose_extra_action")))
        elif pd.kind == "blackmail":
            yield Choose(option="lose_reputation"), Choose(option="lose_reputation")
            for cell, _a in face_up_agents(ctx, state, seat):
                c = Choose(option="discard_agent", target=cell)
                yield c, c
        elif pd.kind == "sabotage":
            hand = state.players[pd.target or seat].hand
            for pair in sorted(set(itertools.combinations(hand, 2))):
                c = Choose(cards=pair)
                yield c, c
        elif pd.kind == "agent_limit":
            for cell in pd.cells:
                yield Choose(target=cell), Choose(target=cell)
        else:
            yield Choose(option="done"), Choose(option="done")
        return
    if state.phase == "opening":
        if not p.opening_drawn:
            yield _offer(rules, DrawOpeningHand(), {"cards": _draws(rules, state, seat, "main_archive", o["opening_hand"])})
        if state.lot_winner is None:
            if ctx.digital:
                yield RecordLot(winner=ctx.players[0]), RecordLot()
            else:
                for s in ctx.players:
                    yield RecordLot(winner=s), RecordLot(winner=s)
        return
    if state.phase == "order":
        for s in ctx.players:
            yield ChooseOrder(first=s), ChooseOrder(first=s)
        return
    if state.phase == "mulligan":
        if not p.mulligan_done:
            yield Mulligan(), Mulligan()
            if p.hand:
                ret = (p.hand[0],)
                yield _offer(rules, Mulligan(return_=ret), {"drawn": _draws(rules, state, seat, "main_archive", 1)})
        return
    active = state.turn.active
    if seat != active:
        if state.turn.step in ("end", "reactions"):
            yield CloseTurn(), CloseTurn()
            yield from _free(rules, state, seat)
        return
    if state.turn.step in ("end", "reactions"):
        return
    if state.turn.step == "start" and not p.hand and p.main_archive.count:
        need = min(o["empty_hand_draw"], p.main_archive.count)
        yield _offer(rules, DrawStartCards(), {"cards": _draws(rules, state, seat, "main_archive", need)})
        return
    yield EndTurn(), EndTurn()
    if p.main_archive.count:
        yield _offer(rules, DrawMain(), {"card": _draws(rules, state, seat, "main_archive", 1)[0]})
    yield from _free(rules, state, seat)
    sources = [("hand", c) for c in sorted(set(p.hand))] + [(s, b.card) for s, b in sorted(p.buffer.items()) if b is not None]
    cells = ctx.field.cells
    field = state.field
    territory_cells = [c for c in cells if field[c].territory is not None]
    i: Intent
    for zone, cid in sources:
        card = ctx.card(cid)
        if card.type == "territory":
            for cell in cells:
                if field[cell].territory is None:
                    i = DeployTerritory(card=cid, from_=zone, cell=cell)  # type: ignore[arg-type]
                    yield i, i
        elif card.type in AGENT_TYPES:
            mine = face_up_agents(ctx, state, seat)
            full = len(mine) >= o["agent_limit"]
            for cell in cells:
                if field[cell].agent is None:
                    i = DeployAgent(card=cid, from_=zone, cell=cell, replace=mine[0][0] if full and mine else None)  # type: ignore[arg-type]
                    yield i, i
            if card.type == "graffiti_agent":
                for cell in territory_cells:
                    i = DeployGraffiti(card=cid, from_=zone, cell=cell)  # type: ignore[arg-type]
                    yield i, i
        elif card.type == "graffiti":
            for cell in territory_cells:
                i = DeployGraffiti(card=cid, from_=zone, cell=cell)  # type: ignore[arg-type]
                yield i, i
        elif card.type == "plot":
            attach = territory_cells[:1] if card.stays_attached else [None]
            for attach_cell in attach:
                i = PlayPlot(card=cid, from_=zone, attach=attach_cell, note="declared with no changes")  # type: ignore[arg-type]
                yield i, i
    yield from _digits(rules, state, seat)
    yield from _symbols(rules, state, seat)
    neutral = ctx.cards.neutral_symbol
    for cid in sorted(set(p.hand)):
        if neutral in ctx.card(cid).symbols:
            for other in sorted(set(p.hand)):
                for sym in sorted(set(ctx.card(other).symbols)):
                    if other != cid or p.hand.count(cid) > 1:
                        i = PlayNeutral(lilac=cid, with_=f"hand:{other}:{sym}")
                        yield i, i
    for cell, a in face_up_agents(ctx, state, seat):
        if p.extra_archive.count:
            yield _offer(rules, AgentDraw(agent=cell), {"card": _draws(rules, state, seat, "extra_archive", 1)[0]})
        yield AgentAttackPlayer(agent=cell), AgentAttackPlayer(agent=cell)
        for tcell, _t in face_up_agents(ctx, state, ctx.opp(seat)):
            i = AgentAttackAgent(agent=cell, target=tcell)
            yield i, i
        for ab in ctx.card(a.card).abilities:
            if ab.kind in ("activated", "activated_free"):
                i = ActivateAbility(object=f"{cell}/agent", ability=ab.id, note="declared with no changes")
                yield i, i


def _free(rules: BoundRules, state: State, seat: str) -> Iterator[tuple[Any, Any]]:
    p = state.players[seat]
    ctx = rules.ctx
    for cid in sorted(set(p.hand)):
        card = ctx.card(cid)
        if "utilization" in card.keywords:
            drawn = _draws(rules, state, seat, "main_archive", 1)
            if drawn:
                yield _offer(rules, Utilize(card=cid), {"drawn": drawn[0]})
            else:
                yield Utilize(card=cid), Utilize(card=cid)
        if "discard_this" in card.keywords:
            i = DiscardForEffect(card=cid, note="declared with no changes")
            yield i, i


def _digits(rules: BoundRules, state: State, seat: str) -> Iterator[tuple[Any, Any]]:
    ctx = rules.ctx
    p = state.players[seat]
    hand = [c for c in p.hand if ctx.card(c).digit is not None]
    slots = [s for s, b in sorted(p.buffer.items()) if b is not None and ctx.card(b.card).digit is not None]
    items = [("hand", c, ctx.card(c).digit or 0) for c in hand] + [("buf", s, ctx.card(p.buffer[s].card).digit or 0) for s in slots]  # type: ignore[union-attr]
    seen = set()
    for n in (1, 2, 3):
        for combo in itertools.combinations(range(len(items)), n):
            total = sum(items[k][2] for k in combo)
            if total not in (5, 7, 9, 11, 13):
                continue
            h = tuple(sorted(items[k][1] for k in combo if items[k][0] == "hand"))
            b = tuple(items[k][1] for k in combo if items[k][0] == "buf")
            if (h, b) in seen:
                continue
            seen.add((h, b))
            i = PlayDigits(hand=h, buffer=b, option="steal" if total == 5 else None)
            yield i, i
            if h and p.buffer and any(v is None for v in p.buffer.values()):
                j = PlayDigits(hand=h, buffer=b, option="steal" if total == 5 else None, to_buffer=h[:1],
                               lilac_as=_lilac_for(rules, h[0]))
                yield j, j


def _lilac_for(rules: BoundRules, cid: str) -> tuple[str, ...]:
    ctx = rules.ctx
    n = ctx.card(cid).symbols.count(ctx.cards.neutral_symbol)
    return tuple(f"{cid}:{ctx.cards.active_symbols[0]}" for _ in range(n))


def _params(rules: BoundRules, state: State, seat: str, effect: str) -> dict[str, Any]:
    """One set of parameters for an effect (the first suitable targets)."""
    ctx = rules.ctx
    other = ctx.opp(seat)
    field = state.field
    cells = ctx.field.cells
    if effect == "info_leak":
        for owner in (other, seat):
            for which in ("main", "extra"):
                arch = getattr(state.players[owner], f"{which}_archive")
                if arch.count:
                    return {"archive": f"{owner}.{which}", "cards": _draws(rules, state, owner, f"{which}_archive", 2)}
        return {}
    if effect == "boost_potential":
        return {"cards": _draws(rules, state, seat, "main_archive", 2)}
    if effect == "restoration":
        util = state.players[seat].utility
        return {"card": util[0]} if util else {}
    if effect == "foresight":
        for c in cells:
            for slot in ("agent", "territory", "graffiti"):
                obj = getattr(field[c], slot)
                if obj is not None and (slot != "graffiti" or obj.face == "up") and ctx.cards.neutral_symbol not in ctx.card(obj.card).symbols:
                    return {"target": c if slot == "territory" else f"{c}/{slot}", "option": "restore"}
        return {}
    if effect == "download":
        for owner in (other, seat):
            if state.players[owner].extra_archive.count:
                return {"archive": f"{owner}.extra"}
        return {}
    if effect == "power_management":
        return {"option": "gain"}
    if effect in ("inspire", "intimidate"):
        opp = next((c for c in cells if field[c].territory is not None and field[c].territory.controller == other), None)  # type: ignore[union-attr]
        own = next((c for c in cells if field[c].territory is not None and field[c].territory.controller == seat), None)  # type: ignore[union-attr]
        return {"opp": opp, "own": own} if opp and own else {}
    if effect == "destroy_plans":
        for owner in (other, seat):
            for slot, b in sorted(state.players[owner].buffer.items()):
                if b is not None:
                    return {"target": f"{owner}.{slot}"}
        return {}
    if effect == "remove_agent":
        for owner in (other, seat):
            for c, _a in face_up_agents(ctx, state, owner):
                return {"target": c}
        return {}
    return {}


def _symbols(rules: BoundRules, state: State, seat: str) -> Iterator[tuple[Any, Any]]:
    ctx = rules.ctx
    p = state.players[seat]
    neutral = ctx.cards.neutral_symbol
    hand_src = [(f"hand:{c}:{s}", ("hand", c)) for c in sorted(set(p.hand)) for s in sorted(set(ctx.card(c).symbols)) if s != neutral]
    buf_src = [(f"{slot}:{s}", ("buf", slot)) for slot, b in sorted(p.buffer.items()) if b is not None
               for s in sorted(set(b.active_symbols)) if s != neutral]
    field_src = []
    for c in ctx.field.cells:
        for slot in ("territory", "agent", "graffiti"):
            obj = getattr(state.field[c], slot)
            if obj is not None and getattr(obj, "controller", None) == seat:
                ref = c if slot == "territory" else f"{c}/{slot}"
                field_src += [(f"{ref}:{s}", ("field", ref)) for s in sorted(set(obj.active_symbols)) if s != neutral]
    pairs = list(itertools.combinations(hand_src + buf_src, 2)) + list(itertools.combinations(field_src, 2))
    cache: dict[str, dict[str, Any]] = {}
    for (ta, oa), (tb, ob) in pairs:
        if oa == ob and not (oa[0] == "hand" and p.hand.count(oa[1]) > 1):
            continue
        sa, sb = ta.rsplit(":", 1)[1], tb.rsplit(":", 1)[1]
        combo = ctx.table.get((min(sa, sb), max(sa, sb)))
        if combo is None:
            continue
        if combo.effect not in cache:
            cache[combo.effect] = _params(rules, state, seat, combo.effect)
        params = dict(cache[combo.effect])
        chance = {k: params.pop(k) for k in ("cards",) if k in params}
        yield _offer(rules, PlaySymbols(use=(ta, tb), **params), chance)


def legal_intents(rules: BoundRules, state: State, seat: str) -> list[Any]:
    out = []
    seen = set()
    for full, offered in candidates(rules, state, seat):
        if _accepts(rules, state, seat, full):
            key = repr(offered)
            if key not in seen:
                seen.add(key)
                out.append(offered)
    return out


def random_intent(rules: BoundRules, state: State, seats: tuple[str, ...], rng: Any,
                  end_turn_weight: float = 0.08) -> tuple[str, Any] | None:
    """One legal (seat, intent), chosen at random without listing them all; None if nobody can act."""
    pool = [(s, full, offered) for s in seats for full, offered in candidates(rules, state, s)]
    rng.shuffle(pool)
    ends = [x for x in pool if isinstance(x[1], (EndTurn, CloseTurn))]
    if ends and rng.random() < end_turn_weight:
        pool = ends + pool
    for seat, full, offered in pool:
        if _accepts(rules, state, seat, full):
            return seat, offered
    return None
