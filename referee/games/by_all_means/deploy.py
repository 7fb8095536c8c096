"""Playing a card for its price (rules spec 4.4, 4.8-4.11): ``deploy_territory`` (central first,
then next to a territory; entry, impacts and influence; ``move_agent``), ``deploy_agent`` (by its
price or its deploy condition; a second copy as the shadow of its twin; the agent limit and
``replace``), ``deploy_graffiti`` (face up, or a graffiti agent face down) and ``play_plot`` (its
text declared as changes), with the checks they share: where the card comes from and its price.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .codes import Code
from . import manual
from .agents import give_up, limit_after
from .data import AGENT_TYPES, Card
from .fold import get_obj
from .model import AgentMoved, DeployAgent, DeployGraffiti, DeployTerritory, PlayPlot
from .turn import spend_main
from .txn import Txn, face_up_agents


def _card_played(txn: Txn, seat: str, cid: str, zone: str, types: Collection[str], what: str,
                 rule: str) -> tuple[str, tuple[str, ...], Card]:
    """The first checks of every card played for its price: avail-main, src (the source zone and
    the tokens the card carries there) and the card's type (``what`` it must be)."""
    spend_main(txn)
    src, tokens = _src(txn, seat, cid, zone)
    card = txn.ctx.card(cid)
    if card.type not in types:
        txn.fail(Code.WRONG_CARD_TYPE, f"{cid} is a {card.type}, not {what}", rule)
    return src, tokens, card


def _src(txn: Txn, seat: str, card: str, zone: str) -> tuple[str, tuple[str, ...]]:
    """The "src" checks (4.1): (source zone ref, tokens it carries)."""
    if zone == "hand":
        if card not in txn.player(seat).hand:
            txn.fail(Code.CARD_NOT_IN_HAND, f"{card} is not in {seat}'s hand", "R-HAND")
        return f"{seat}.hand", ()
    if zone not in txn.ctx.slots:
        txn.fail(Code.BUFFER_SLOT_EMPTY, f"{seat} has no buffer slot {zone}", "R-BUFFER")
    obj = txn.player(seat).buffer.get(zone)
    if obj is None:
        txn.fail(Code.BUFFER_SLOT_EMPTY, f"{seat}'s {zone} is empty", "R-BUFFER")
    if obj.card != card:
        txn.fail(Code.CARD_MISMATCH, f"{seat}'s {zone} holds {obj.card}, not {card}", "R-BUFFER")
    return f"{seat}.{zone}", tuple(obj.active_symbols)


def _price(txn: Txn, seat: str, card: str, zone: str, free: bool = False) -> int:
    c = txn.ctx.card(card)
    price = c.price("hand" if zone == "hand" else "buffer")
    where = "hand" if zone == "hand" else "the buffer"
    if price is None:
        txn.check(False, Code.NOT_PLAYABLE_FROM_ZONE, f"{card} cannot be played from {where} (its price there is a dash)", "R-ACTIONS")
    if free or price is None:
        return 0
    rep = txn.player(seat).reputation
    if txn.opts["price_shortfall"] == "reject" and not rep >= price:
        txn.check(False, Code.INSUFFICIENT_REPUTATION, f"{card} costs {price} reputation from {where}; {seat} has {rep}", "R-COUNTERS")
    return price


def deploy_territory(txn: Txn, i: DeployTerritory) -> None:
    seat = txn.seat
    src, tokens, card = _card_played(txn, seat, i.card, i.from_, ("territory",), "a territory", "R-TERRITORY")
    price = _price(txn, seat, i.card, i.from_)
    field = txn.state.field
    cell = i.cell
    if field[cell].territory is not None:
        txn.fail(Code.CELL_OCCUPIED, f"{cell} already holds a territory ({_card_at(field[cell].territory)})", "R-FIELD")
    if not any(field[c].territory is not None for c in txn.ctx.field.cells):
        central = txn.ctx.field.central
        if (txn.opts["recenter_when_empty"] or not txn.state.field_used) and cell not in central:
            txn.check(False, Code.FIRST_TERRITORY_NOT_CENTRAL,
                      f"the first territory on the field goes on a central cell ({' or '.join(central)}), not {cell}", "R-FIELD")
    elif not any(field[n].territory is not None for n in txn.ctx.field.neighbours(cell)):
        txn.check(False, Code.TERRITORY_NOT_ADJACENT, f"{cell} is not next to a territory (orthogonally)", "R-FIELD")
    enemy = field[cell].agent
    if enemy is not None and enemy.controller != seat and txn.opts["territory_on_enemy_agent"] == "forbidden":
        txn.check(False, Code.CELL_OCCUPIED, f"{cell} holds {enemy.controller}'s agent (option territory_on_enemy_agent=forbidden)", "R-AGENTS")
    if i.move_agent is not None:
        m = i.move_agent
        a = field[m].agent
        t = field[m].territory
        if not (m != cell and a is not None and a.controller == seat and t is not None and t.controller == seat):
            txn.check(False, Code.MOVE_AGENT_INVALID, f"move_agent={m}: needs another cell with {seat}'s agent standing on {seat}'s territory",
                      "R-AGENT-DEFAULTS")
    # E1-E7
    txn.pay(seat, price, f"{i.card}'s price")
    lilac = list(i.lilac_as)
    toks = txn.entry_tokens(card, i.from_ if i.from_ == "hand" else "buffer", tokens, lilac)
    txn.move(i.card, seat, src, f"{cell}/territory", oid=txn.new_oid(), controller=seat, tokens=toks,
             loyalty=card.loyalty, cause="deployed")
    a = txn.state.field[cell].agent
    if a is not None:
        if a.controller == seat:
            txn.turn_agent(cell, False, "its controller's territory entered its cell")
            txn.change_loyalty(cell, 1, f"{a.card} stands on it")
        elif a.shadow is not None and not txn.opts["shadow_saves_from_territory"]:
            txn.kill_stack(cell, f"{i.card} entered its cell")
        else:
            txn.send_agent_to_utility(cell, f"{seat}'s territory {i.card} entered its cell")
    txn.impacts(cell)
    txn.influence_enter(f"{cell}/territory")
    if i.move_agent is not None:
        m = i.move_agent
        if not (txn.state.field[cell].agent is None and txn.state.field[m].agent is not None):
            txn.check(False, Code.MOVE_AGENT_INVALID, f"move_agent={m}: {cell} still holds an agent", "R-AGENT-DEFAULTS")
        if txn.state.field[cell].agent is None and txn.state.field[m].agent is not None:
            moved = txn.state.field[m].agent
            txn.emit(AgentMoved(src=m, dst=cell))
            txn.turn_agent(cell, False, "moved onto a new territory")
            if txn.state.field[m].territory is not None and txn.state.field[m].territory.controller == moved.controller:  # type: ignore[union-attr]
                txn.change_loyalty(m, -1, f"{moved.card} left {m}")  # type: ignore[union-attr]
            txn.change_loyalty(cell, 1, f"{moved.card} stands on it")  # type: ignore[union-attr]
    limit_after(txn, seat)


def deploy_agent(txn: Txn, i: DeployAgent) -> None:
    seat = txn.seat
    src, tokens, card = _card_played(txn, seat, i.card, i.from_, AGENT_TYPES, "an agent", "R-AGENTS")
    price = 0
    if i.via == "price":
        price = _price(txn, seat, i.card, i.from_)
    else:
        txn.require(card.deploy_condition is not None, Code.NO_DEPLOY_CONDITION, f"{i.card} has no deploy condition", "R-ACTIONS")
        # N1: the condition's costs, declared and checked as changes
        manual.apply_changes(txn, seat, i.card, i.changes, i.note or f"deploy condition of {i.card}")
        txn.require(i.card in txn.player(seat).hand if i.from_ == "hand" else get_obj(txn.state, src) is not None,
                    Code.MANUAL_INCONSISTENT, f"the declared costs moved {i.card} itself", "R-MANUAL")
    state = txn.state
    mine = face_up_agents(txn.ctx, state, seat)
    twin = next(((c, a) for c, a in mine if a.card == i.card), None)
    limit = txn.opts["agent_limit"]
    if twin is not None:
        txn.check(i.cell is None or i.cell == twin[0], Code.SHADOW_CELL_MISMATCH,
                  f"a second {i.card} becomes the shadow of the one at {twin[0]}; it cannot go to {i.cell}", "R-SHADOW")
        txn.require(i.replace is None, Code.REPLACE_INVALID, "a shadow replaces no agent (omit replace)", "R-SHADOW")
    else:
        full = txn.agent_count(seat) >= limit
        if full:
            txn.check(i.replace is not None, Code.AGENT_LIMIT_CHOICE_REQUIRED,
                      f"{seat} controls {txn.agent_count(seat)} agents: name the one to give up with replace=CELL", "R-GRAFFIGENTS")
        if i.replace is not None:
            r = state.field[i.replace].agent
            ok = full and r is not None and r.controller == seat
            if ok and txn.opts["agent_limit_discard"] == "shadow_first" and r is not None and r.shadow is not None:
                ok = False
            txn.require(ok, Code.REPLACE_INVALID,
                        f"replace={i.replace}: " + ("the limit does not apply" if not full else f"no agent of {seat} there to give up"),
                        "R-GRAFFIGENTS")
        txn.require(i.cell is not None, Code.CELL_REQUIRED, "deploy_agent needs cell=CELL", "R-AGENTS")
        cell = str(i.cell)
        leaves_first = i.replace == cell and txn.opts["agent_limit_order"] == "replace_first"
        occupant = state.field[cell].agent
        if not (occupant is None or leaves_first):
            txn.fail(Code.CELL_OCCUPIED, f"{cell} already holds an agent ({_card_at(occupant)})", "R-AGENTS")
        t = state.field[cell].territory
        if not (t is None or t.controller == seat):
            txn.check(False, Code.AGENT_CELL_FORBIDDEN,
                      f"{cell} holds {t.controller if t else ''}'s territory: agents may stand only on their controller's territory or a free cell",
                      "R-AGENTS")
        if t is None and txn.opts["agent_free_cell"] == "fully_empty":
            txn.check(state.field[cell].graffiti is None and not state.field[cell].attached, Code.AGENT_CELL_FORBIDDEN,
                      f"{cell} is not empty (option agent_free_cell=fully_empty)", "R-AGENTS")
    txn.pay(seat, price, f"{i.card}'s price")
    lilac = list(i.lilac_as)
    toks = txn.entry_tokens(card, "hand" if i.from_ == "hand" else "buffer", tokens, lilac)
    if twin is not None:
        txn.move(i.card, seat, src, f"{twin[0]}/shadow", tokens=toks, cause="a shadow under its twin")
        return
    cell = str(i.cell)
    order = txn.opts["agent_limit_order"]
    if i.replace is not None and order == "replace_first":
        give_up(txn, i.replace)
    txn.place_agent(card, seat, src, cell, toks)
    if i.replace is not None and order == "place_first":
        give_up(txn, i.replace)


def deploy_graffiti(txn: Txn, i: DeployGraffiti) -> None:
    seat = txn.seat
    src, tokens, card = _card_played(txn, seat, i.card, i.from_, ("graffiti", "graffiti_agent"), "a graffiti or graffiti agent",
                                     "R-GRAFFITI")
    face_down = card.type == "graffiti_agent"
    free = txn.opts["face_down_price" if face_down else "graffiti_price"] == "free"
    price = _price(txn, seat, i.card, i.from_, free=free)
    c = txn.state.field[i.cell]
    if c.territory is None:
        txn.fail(Code.GRAFFITI_NEEDS_TERRITORY, f"{i.cell} holds no territory", "R-GRAFFITI")
    if c.graffiti is not None:
        txn.fail(Code.CELL_OCCUPIED, f"{i.cell} already holds a graffiti", "R-GRAFFITI")
    t = c.territory
    assert t is not None
    if card.type == "graffiti" and card.placement != "any":
        allowed = (t.controller == seat) == (card.placement == "own")
        txn.check(allowed, Code.GRAFFITI_PLACEMENT_FORBIDDEN,
                  f"{i.card} goes only on {'your own' if card.placement == 'own' else 'an opponent'}'s territory; {i.cell} is {t.controller}'s",
                  "R-GRAFFITI")
    txn.pay(seat, price, f"{i.card}'s price")
    if face_down:
        txn.move(i.card, seat, src, f"{i.cell}/graffiti", oid=txn.new_oid(), controller=seat, face="down",
                 cause="placed face down")
        txn.change_loyalty(i.cell, 1, "a face-down graffiti agent lies on it")
    else:
        toks = txn.entry_tokens(card, "hand" if i.from_ == "hand" else "buffer", tokens, list(i.lilac_as))
        txn.move(i.card, seat, src, f"{i.cell}/graffiti", oid=txn.new_oid(), controller=seat, tokens=toks, cause="placed")
        txn.influence_enter(f"{i.cell}/graffiti")


def play_plot(txn: Txn, i: PlayPlot) -> None:
    seat = txn.seat
    src, _tokens, card = _card_played(txn, seat, i.card, i.from_, ("plot",), "a plot", "R-PLOTS")
    price = _price(txn, seat, i.card, i.from_)
    if card.stays_attached:
        txn.require(i.attach is not None and txn.state.field[i.attach].territory is not None, Code.BAD_EFFECT_TARGET,
                    f"{i.card} stays attached to a territory: name it with attach=CELL", "R-PLOTS")
    else:
        txn.require(i.attach is None, Code.BAD_EFFECT_TARGET, f"{i.card} does not stay attached (omit attach)", "R-PLOTS")
    txn.pay(seat, price, f"{i.card}'s price")
    buffered = txn.player(seat).buffer.get(i.from_) if i.from_ != "hand" else None
    oid = buffered.oid if buffered is not None else None
    txn.to_neutral(i.card, seat, src, "plot", oid)
    manual.apply_changes(txn, seat, i.card, i.changes, i.note or card.name,
                         skip_inconsistent=txn.opts["plot_precondition"] == "audit_only")
    txn.cleanup(seat, (), (), (), attach=i.attach)


def _card_at(obj: Any) -> str:
    return "" if obj is None else f"{obj.card} of {obj.controller}"
