"""Declared (manual) effects (rules spec 4.11, R-MANUAL): the rulebook gives no card texts, so a
player states what a text does as a list of changes. Each item is checked for consistency against
the state as the previous items left it, then applied; an inconsistent item refuses the whole intent
(``manual_inconsistent``, naming the item). Every accepted declared effect is counted in
``manual_effects`` and its entry is flagged for audit. ``declare_effect`` (4.14) is the intent that
is nothing but a declared effect; the others carry one (plots, abilities, deploy conditions,
discards for an effect)."""

from __future__ import annotations

from typing import Any

from schemas import ARBITER

from .codes import Code
from . import refs
from .fold import get_obj
from .model import DeclareEffect, ManualApplied, State
from .txn import Ctx, Txn


class Inconsistent(Exception):
    """A declared change that cannot be applied to the state as it is (the message says why)."""


def apply_changes(txn: Txn, actor: str, source: str, changes: tuple[str, ...], note: str, *,
                  skip_inconsistent: bool = False) -> None:
    skipped: list[str] = []
    for text in changes:
        item = refs.change(txn.ctx, text)
        try:
            _apply(txn, actor, item)
        except Inconsistent as exc:
            if skip_inconsistent:
                skipped.append(text)
                continue
            txn.fail(Code.MANUAL_INCONSISTENT, f"declared change {text}: {exc}", "R-MANUAL")
    txn.emit(ManualApplied(seat=actor, source=source, note=note, skipped=tuple(skipped)))
    txn.manual = True


def _owner_of(txn: Txn, zone: str, card: str) -> str:
    """Who owns the card now at ``zone`` (checked present)."""
    state = txn.state
    if "/" in zone:
        c, slot = zone.split("/")
        if slot == "attached":
            for a in state.field[c].attached:
                if a.card == card:
                    return a.owner
            raise Inconsistent(f"no plot {card} is attached at {c}")
        obj = getattr(state.field[c], slot)
        if obj is None or obj.card != card:
            raise Inconsistent(f"{card} is not at {zone}" + (f" ({obj.card} is)" if obj is not None else " (it is empty)"))
        return str(obj.owner)
    seat, _, z = zone.rpartition(".")
    p = state.players[seat]
    if z in ("hand", "utility"):
        if card not in getattr(p, z):
            raise Inconsistent(f"{card} is not in {seat}'s {z}")
        return seat
    if z in ("main_archive", "extra_archive"):
        arch = getattr(p, z)
        if arch.count == 0:
            raise Inconsistent(f"{seat}'s {z.replace('_', ' ')} is empty")
        if txn.ctx.exact:
            if arch.cards[:1] != (card,):
                raise Inconsistent(f"{card} is not the top card of {seat}'s {z.replace('_', ' ')}")
        elif card not in p.unseen:
            raise Inconsistent(f"{card} cannot be in {seat}'s archives (every copy is accounted for)")
        return seat
    obj = p.buffer.get(z)
    if obj is None or obj.card != card:
        raise Inconsistent(f"{card} is not in {seat}'s {z}")
    return str(obj.owner)


def _kind(txn: Txn, zone: str) -> str:
    """hand, utility, archive, buffer, field or attached."""
    if "/" in zone:
        return "attached" if zone.endswith("/attached") else "field"
    z = zone.rpartition(".")[2]
    if z in ("main_archive", "extra_archive"):
        return "archive"
    return "buffer" if z in txn.ctx.slots else z


def _move(txn: Txn, actor: str, item: refs.Change) -> None:
    """A raw move (no entry or leave routine); the continuous loyalty bonuses (an agent on its
    controller's territory, a face-down graffiti agent) begin and end with it, as do shadows."""
    ctx, state = txn.ctx, txn.state
    card = ctx.card(item.card)
    owner = _owner_of(txn, item.src, item.card)
    src_kind, dst = _kind(txn, item.src), item.dst
    dst_kind = _kind(txn, dst)
    if dst_kind in ("hand", "utility", "archive") and dst.rpartition(".")[0] != owner:
        dst = f"{owner}.utility"  # R-ILLEGAL-ZONES: a card goes only to its owner's zones
        dst_kind = "utility"
    carried = tuple(get_obj(state, item.src).active_symbols) if src_kind in ("field", "buffer") else ()
    kw: dict[str, object] = {}
    if dst_kind == "attached":
        c = dst.split("/")[0]
        if state.field[c].territory is None:
            raise Inconsistent(f"{c} holds no territory to attach {card.id} to")
        if card.type != "plot":
            raise Inconsistent(f"only plots are attached; {card.id} is a {card.type}")
        kw = {"oid": txn.new_oid()}
    elif dst_kind == "field":
        c, slot = dst.split("/")
        cellv = state.field[c]
        if getattr(cellv, slot) is not None:
            raise Inconsistent(f"{dst} is occupied")
        fits = {"territory": ("territory",), "agent": ("agent", "graffiti_agent"),
                "graffiti": ("graffiti", "graffiti_agent")}[slot]
        if card.type not in fits:
            raise Inconsistent(f"a {card.type} cannot go to a {slot} slot")
        if slot == "graffiti" and cellv.territory is None:
            raise Inconsistent(f"a graffiti needs a territory; {c} has none")
        if slot == "agent" and not item.src.endswith("/agent") and txn.agent_count(actor) >= txn.opts["agent_limit"]:
            raise Inconsistent(f"{actor} already controls {txn.agent_count(actor)} agents (limit {txn.opts['agent_limit']})")
        face = "down" if slot == "graffiti" and card.type == "graffiti_agent" else "up"
        if face == "down":
            tokens: tuple[str, ...] = ()
        elif src_kind in ("field", "buffer"):
            tokens = carried
        elif src_kind == "hand":
            tokens = txn.entry_tokens(card, "hand", (), [])
        else:
            tokens = ()
        kw = {"oid": txn.new_oid(), "controller": actor, "tokens": tokens, "face": face,
              "loyalty": card.loyalty, "entered_turn": state.turn.number}
    elif dst_kind == "buffer":
        if get_obj(state, dst) is not None:
            raise Inconsistent(f"{dst} is occupied")
        kw = {"oid": txn.new_oid(), "tokens": carried if src_kind == "buffer" else ()}
    if item.src.endswith("/agent"):
        c = item.src.split("/")[0]
        a = state.field[c].agent
        assert a is not None
        if a.shadow is not None:
            txn.move(a.shadow, a.shadow_owner or a.controller, f"{c}/shadow", f"{a.shadow_owner or a.controller}.utility",
                     cause="its agent was moved")
        t = state.field[c].territory
        if t is not None and t.controller == a.controller:
            txn.change_loyalty(c, -1, f"{a.card} left {c}")
    if item.src.endswith("/graffiti"):
        g = state.field[item.src.split("/")[0]].graffiti
        if g is not None and g.face == "down":
            txn.change_loyalty(item.src.split("/")[0], -1, "a face-down graffiti agent left")
    txn.move(card.id, owner, item.src, dst, cause="declared", **kw)
    if dst.endswith("/agent"):
        c = dst.split("/")[0]
        t = txn.state.field[c].territory
        if t is not None and t.controller == actor:
            txn.change_loyalty(c, 1, f"{card.id} stands on it")
    if dst.endswith("/graffiti") and kw.get("face") == "down":
        txn.change_loyalty(dst.split("/")[0], 1, "a face-down graffiti agent lies on it")


def _apply(txn: Txn, actor: str, item: refs.Change) -> None:
    state = txn.state
    if item.kind == "counter":
        if item.delta >= 0:
            txn.gain(item.seat, item.counter, item.delta, "declared")
        else:
            txn.lose(item.seat, item.counter, -item.delta, "declared")
    elif item.kind == "loyalty":
        if state.field[item.cell].territory is None:
            raise Inconsistent(f"{item.cell} holds no territory")
        txn.change_loyalty(item.cell, item.delta, "declared")
    elif item.kind == "move":
        _move(txn, actor, item)
    elif item.kind in ("turn", "untap"):
        if state.field[item.cell].agent is None:
            raise Inconsistent(f"no agent on {item.cell}")
        txn.turn_agent(item.cell, item.kind == "turn", "declared")
    elif item.kind in ("symbol_add", "symbol_remove"):
        obj = get_obj(state, item.ref)
        if obj is None:
            raise Inconsistent(f"no object at {item.ref}")
        tokens = list(obj.active_symbols)
        if item.kind == "symbol_add":
            tokens.append(item.symbol)
        else:
            if item.symbol not in tokens:
                raise Inconsistent(f"{obj.card} at {item.ref} carries no {item.symbol} token")
            tokens.remove(item.symbol)
        txn.set_tokens(item.ref, tuple(sorted(tokens)), "declared")
    elif item.kind == "destroy":
        if get_obj(state, item.ref) is None:
            raise Inconsistent(f"no object at {item.ref}")
        txn.destroy(item.ref, "declared")
    else:  # pragma: no cover - refs.change only makes the kinds above
        raise Inconsistent(f"unknown change {item.text}")


def confirmer(ctx: Any, state: Any, seat: str, changes: tuple[str, ...]) -> str | None:
    """Who must confirm a declared effect before it is checked, because a check would tell ``seat``
    what is hidden from it: the owner of a hand, a buffer kept private, an archive of a pool (which
    cards are still in it) or a face-down graffiti the effect takes a card from; the arbiter for an
    exactly tracked archive (its order is known to nobody at the table) or when two seats are read.
    Decided from the declared moves and the public state, never from the cards themselves."""
    who: set[str] = set()
    for text in changes:
        try:
            item = refs.change(ctx, text)
        except refs.RefError:
            continue  # decide refuses it, naming the change
        if item.kind != "move":
            continue
        src = item.src
        if "/" in src:
            cell, slot = src.split("/")
            g = state.field[cell].graffiti if cell in state.field else None
            if slot == "graffiti" and g is not None and g.face == "down" and g.controller != seat:
                who.add(g.controller)
            continue
        owner, _, zone = src.rpartition(".")
        if zone in ("main_archive", "extra_archive"):
            if ctx.exact:
                who.add(ARBITER)
            elif owner != seat:
                who.add(owner)
        elif owner != seat and (zone == "hand" or (zone in ctx.slots and not ctx.opts["buffer_public"])):
            who.add(owner)
    if not who:
        return None
    return who.pop() if len(who) == 1 else ARBITER


def declare_effect(txn: Txn, i: DeclareEffect) -> None:
    """``declare_effect`` (4.14): a text's effect declared on its own, at a timing that fits the step,
    from a card or object the actor controls."""
    seat = txn.seat
    s = txn.state
    step = s.turn.step
    active = s.turn.active
    ok = True
    why = ""
    if i.timing == "turn_start":
        ok = step == "start" and not (seat == active and s.turn.opponent_acted)
        why = "turn_start effects are declared in step start, the active player's first"
    elif i.timing == "turn_end":
        ok = step == "end"
        why = "turn_end effects are declared in step end"
    txn.check(ok, Code.BAD_TIMING, f"timing={i.timing} does not fit now (step {step}): {why}", "R-EFFECT-ORDER")
    txn.require(_declarable(txn.ctx, s, seat, i.source), Code.NOT_YOUR_OBJECT,
                f"{i.source} is not a card or object {seat} controls (field, buffer, hand or utility)", "R-MANUAL")
    apply_changes(txn, seat, i.source, i.changes, i.note or f"{i.timing} effect of {i.source}")


def _declarable(ctx: Ctx, s: State, seat: str, source: str) -> bool:
    if source in ctx.cards.cards:
        p = s.players[seat]
        if source in p.hand or source in p.utility:
            return True
        for c in ctx.field.cells:
            cell = s.field[c]
            for obj in (cell.territory, cell.agent, cell.graffiti):
                if obj is not None and obj.card == source and obj.controller == seat:
                    return True
            if cell.agent is not None and cell.agent.shadow == source and cell.agent.controller == seat:
                return True
            if any(a.card == source and a.owner == seat for a in cell.attached):
                return True
        return any(b is not None and b.card == source for b in p.buffer.values())
    try:
        ref = refs.any_object(ctx, source, seat)
    except refs.RefError:
        return False
    obj = get_obj(s, ref)
    return obj is not None and getattr(obj, "controller", getattr(obj, "owner", None)) == seat
