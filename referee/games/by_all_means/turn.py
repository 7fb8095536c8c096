"""The turn (rules spec 3.2-3.4, 4.3): the start-of-turn draw of an empty hand (G4), the action
economy (a main action, the first turn's draw-only slot, an agent's extra action), ``draw_main``,
and the end of a turn: ``end_turn`` opening step end, ``close_turn`` and the closing steps C1-C5
(overpopulation, the empty-archive penalty, culling, the agent limit, the on-leave window, the
status check, reactions after it, the next player's turn).
"""

from __future__ import annotations

from .codes import Code
from .model import ActionSpent, CloseTurn, DrawMain, DrawStartCards, EndTurn, Pending, StepChanged
from .txn import Txn


def start_draw_needed(txn: Txn, seat: str) -> bool:
    """G4 (4.1): ``seat`` starts its turn with an empty hand and must draw first (ruling A-42)."""
    p = txn.state.players[seat]
    if p.hand or p.main_archive.count == 0:
        return False
    return not (txn.opts["start_draw_short"] == "skip" and p.main_archive.count < txn.opts["empty_hand_draw"])


def draw_start_cards(txn: Txn, i: DrawStartCards) -> None:
    seat = txn.seat
    # the step already moved to "actions" in decide's G-checks; the checks read the hand and archive
    if not start_draw_needed(txn, seat):
        txn.fail(Code.NO_START_DRAW_NEEDED, f"{seat}'s hand is not empty (or the main archive is): no start-of-turn draw", "R-HAND")
    need = min(txn.opts["empty_hand_draw"], txn.player(seat).main_archive.count)
    txn.check_draw(seat, "main_archive", i.cards, need, "R-HAND")
    txn.draw(seat, "main_archive", i.cards, f"{seat}.hand", "empty hand at the start of the turn")


def spend_main(txn: Txn, rule: str = "R-ACTIONS") -> None:
    """avail-main (3.4): a main action is left, and not only the first turn's draw-only one."""
    t = txn.state.turn
    txn.check(t.main_left > 0, Code.NO_MAIN_ACTION_LEFT, "no main action left this turn", rule)
    if t.main_left > 0:
        txn.check(t.main_left - (1 if t.draw_only_slot else 0) >= 1, Code.FIRST_TURN_DRAW_ONLY,
                  "the only main action left this first turn must be draw_main", "R-SETUP")
        txn.emit(ActionSpent(slot="main"))


def spend_agent(txn: Txn, seat: str, extra_allowed: bool = True) -> None:
    """avail-agent (3.4): the extra action (for a player who controls an agent), else a main one."""
    t = txn.state.turn
    if extra_allowed and t.extra_left > 0 and txn.agent_count(seat) > 0:
        txn.emit(ActionSpent(slot="extra"))
        return
    free = t.main_left - (1 if t.draw_only_slot else 0)
    if free >= 1:
        txn.emit(ActionSpent(slot="main"))
        return
    if t.main_left > 0:
        txn.check(False, Code.FIRST_TURN_DRAW_ONLY, "the only action left this first turn must be draw_main", "R-SETUP")
    else:
        txn.check(False, Code.NO_ACTION_LEFT, "no extra or main action left for an agent action", "R-EXTRA")


def draw_main(txn: Txn, i: DrawMain) -> None:
    seat = txn.seat
    t = txn.state.turn
    if t.draw_only_slot:
        txn.emit(ActionSpent(slot="draw_only"))
    else:
        txn.check(t.main_left > 0, Code.NO_MAIN_ACTION_LEFT, "no main action left this turn", "R-ACTIONS")
        if t.main_left > 0:
            txn.emit(ActionSpent(slot="main"))
    if not txn.player(seat).main_archive.count > 0:
        txn.fail(Code.ARCHIVE_EMPTY, f"{seat}'s main archive is empty", "R-ARCHIVES")
    cards = () if i.card is None else (i.card,)
    txn.check_draw(seat, "main_archive", cards, 1)
    txn.draw(seat, "main_archive", cards, f"{seat}.hand", "draw")


def end_turn(txn: Txn, i: EndTurn) -> None:
    if txn.opts["reaction_window"]:
        txn.emit(StepChanged(step="end"))
    else:
        close(txn, "C1")


def close_turn(txn: Txn, i: CloseTurn) -> None:
    if txn.state.turn.step == "reactions":
        close(txn, "C5")
    else:
        close(txn, "C1")


def close(txn: Txn, start: str) -> None:
    """C1-C5 of 3.2 (``start`` resumes after a decision)."""
    s = txn.state
    active = str(s.turn.active)
    if start == "C1":
        limit = txn.opts["overpopulation_threshold"]
        for cell, t in txn.territories():  # (only the active player's count)
            if t.controller == active and t.loyalty > limit:
                txn.lose(active, "reputation", t.loyalty - limit, f"overpopulation of {t.card} at {cell}")
        if txn.player(active).main_archive.count == 0:
            txn.lose(active, "reputation", txn.opts["empty_main_penalty"], "empty main archive")
        culled: list[str] = []
        scope = None if txn.opts["cull_scope"] == "both" else active
        for cell, t in txn.territories(scope):
            if t.loyalty <= 0:
                culled += txn.territory_leaves(cell, f"loyalty {t.loyalty} at the end of the turn")
        over = txn.limit_exceeded()
        if over is not None:
            txn.open_decision(Pending(kind="agent_limit", decider=over[0], actor=active, resume="close_turn",
                                      cells=tuple(over[1]), culled=tuple(culled)))
            return
        if txn.opts["on_leave_before_status_check"] and open_on_leave(txn, active, culled):
            return
        start = "C4"
    if start == "C4":
        if txn.status_check():
            return
        if txn.opts["reaction_timing"] == "after_status_check" and s.turn.step != "reactions":
            txn.emit(StepChanged(step="reactions"))
            return
    txn.begin_turn(txn.ctx.opp(active), txn.state.turn.number + 1)


def open_on_leave(txn: Txn, active: str, culled: list[str]) -> bool:
    """Option on_leave_before_status_check: a decision for each owner of a culled card with an
    on-leave text; False when there is none."""
    owners = []
    for seat in (active, txn.ctx.opp(active)):
        if any(any(a.kind == "on_leave" for a in txn.ctx.card(c).abilities) for c in culled if c in txn.player(seat).utility):
            owners.append(seat)
    if not owners:
        return False
    txn.open_decision(Pending(kind="on_leave_window", decider=owners[0], actor=active, resume="close_turn",
                              seats=tuple(owners[1:]), culled=tuple(culled)))
    return True
