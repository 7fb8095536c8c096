"""Reactions (rules spec 4.14): ``utilize`` (a card with Utilization recycled from hand, one card
drawn) and ``discard_for_effect`` (a card with "Discard this card" discarded from hand, buffer or
field, its text declared as changes). The active player sends them in steps start and actions (not
an action); the non-active player sends them in step end (or reactions) as reactions, within the
reaction limit.
"""

from __future__ import annotations

from .codes import Code
from . import manual, refs
from .fold import get_obj
from .model import DiscardForEffect, ReactionUsed, Utilize
from .txn import Txn


def _reaction(txn: Txn, seat: str) -> bool:
    """Sent by the non-active player: a reaction, counted against reaction_limit (True)."""
    active = txn.state.turn.active
    if seat == active:
        return False
    used = txn.state.turn.reactions_used
    if not used < txn.opts["reaction_limit"]:
        txn.check(False, Code.REACTION_LIMIT, f"{seat} has used {used} reaction(s) this opponent turn (limit {txn.opts['reaction_limit']})",
                  "R-OPP-TURN")
    txn.emit(ReactionUsed(seat=seat))
    return True


def utilize(txn: Txn, i: Utilize) -> None:
    seat = txn.seat
    txn.require(i.card in txn.player(seat).hand, Code.CARD_NOT_IN_HAND, f"{i.card} is not in {seat}'s hand", "R-HAND")
    txn.require("utilization" in txn.ctx.card(i.card).keywords, Code.NO_UTILIZATION_KEYWORD,
                f"{i.card} has no Utilization keyword", "R-UTILIZE")
    _reaction(txn, seat)
    main = txn.player(seat).main_archive.count
    if main > 0:
        drawn = () if i.drawn is None else (i.drawn,)
        txn.require(len(drawn) == 1, Code.WRONG_DRAW_COUNT, "utilize draws 1 card: name it with drawn=CARD", "R-UTILIZE")
        txn.check_draw(seat, "main_archive", drawn, 1, "R-UTILIZE")
    else:
        txn.check(txn.opts["utilize_empty_main"] == "allow_no_draw", Code.ARCHIVE_EMPTY,
                  f"{seat}'s main archive is empty (option utilize_empty_main=reject)", "R-UTILIZE")
        txn.require(i.drawn is None, Code.WRONG_DRAW_COUNT, f"{seat}'s main archive is empty: omit drawn", "R-UTILIZE")
        drawn = ()
    txn.to_utility(i.card, seat, f"{seat}.hand", "utilization")
    txn.draw(seat, "main_archive", drawn, f"{seat}.hand", "utilization")


def discard_for_effect(txn: Txn, i: DiscardForEffect) -> None:
    seat = txn.seat
    where = i.from_
    if where == "hand":
        txn.require(i.card in txn.player(seat).hand, Code.CARD_NOT_IN_HAND, f"{i.card} is not in {seat}'s hand", "R-DISCARD")
        ref, zone = f"{seat}.hand", "hand"
    elif where.startswith("buf"):
        ref = refs.buffer_object(txn.ctx, where, seat)
        txn.require(ref.startswith(f"{seat}."), Code.NOT_YOUR_OBJECT, f"{where} is not {seat}'s buffer", "R-DISCARD")
        obj = get_obj(txn.state, ref)
        txn.require(obj is not None, Code.BUFFER_SLOT_EMPTY, f"{seat}'s {where} is empty", "R-BUFFER")
        txn.require(obj.card == i.card, Code.CARD_MISMATCH, f"{seat}'s {where} holds {obj.card}, not {i.card}", "R-BUFFER")
        zone = "buffer"
    else:
        ref = refs.field_object(txn.ctx, where)
        obj = get_obj(txn.state, ref)
        txn.require(obj is not None and obj.card == i.card, Code.NO_SUCH_OBJECT, f"{i.card} is not at {where}", "R-OBJECTS")
        txn.require(obj.controller == seat, Code.NOT_YOUR_OBJECT, f"{i.card} at {where} is {obj.controller}'s", "R-OBJECTS")
        zone = "field"
    card = txn.ctx.card(i.card)
    txn.require("discard_this" in card.keywords, Code.NO_DISCARD_KEYWORD, f"{i.card} has no 'Discard this card' keyword", "R-DISCARD")
    zones = card.discard_zones or (("hand", "buffer", "field") if txn.opts["discard_zones_default"] == "anywhere" else ("hand",))
    txn.check(zone in zones, Code.DISCARD_ZONE_FORBIDDEN, f"{i.card} can be discarded for its effect only from {', '.join(zones)}", "R-DISCARD")
    _reaction(txn, seat)
    if zone == "hand" or zone == "buffer":
        txn.to_utility(i.card, seat if zone == "hand" else obj.owner, ref, "discarded for its effect")
    elif ref.endswith("/agent") and obj.shadow is not None:
        txn.move(obj.shadow, obj.shadow_owner or seat, f"{ref.split('/')[0]}/shadow", f"{obj.shadow_owner or seat}.utility",
                 cause="discarded for its effect (its shadow stays as the agent)")
    else:
        txn.destroy(ref, "discarded for its effect")
    manual.apply_changes(txn, seat, i.card, i.changes, i.note or card.name)
