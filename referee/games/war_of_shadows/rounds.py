"""The round's system steps, recorded as events with the intent that triggers them: the agent phase
moving on (collectors and placers who cannot act are skipped and flagged), the walk through the
empires' councils (§3.3: activating each controlled position in turn, skipping the empty ones), the
supply limit at the end of each empire phase (§4.16), the round counter, the first-player token
passing, the end of the discard phase and the start of the next round.
"""

from __future__ import annotations


from .data import EMPIRES, HAND_LIMIT, POSITIONS, ROUNDS, SUPPLY_LIMIT, SUPPLY_LIMIT_FARM
from .model import (
    AuditFlagRaised,
    EmpirePhaseEnded,
    FirstPlayerPassed,
    PhaseChanged,
    PlacementSkipped,
    PositionActivated,
    PositionEnded,
    PositionSkipped,
    RoundMarkerPlaced,
    RoundStarted,
    State,
    SupplyLimitEnforced,
    SupplyLimitRemoval,
)
from .queries import Queries
from .scoring import game_end
from .txn import Tx


def start_round(tx: Tx, rnd: int) -> None:
    tx.emit(RoundStarted(round=rnd))
    run_agent_phase(tx)


def run_agent_phase(tx: Tx) -> None:
    """System steps of the agent phase: skip who cannot act, move on when a step is complete."""
    rules = tx.rules
    while True:
        s = tx.state
        if s.phase == "AGENT_COLLECT":
            # a collector without any agent on the board (only after a manual effect, or in a
            # position) is skipped lazily, by the next intent: see skip_collectors
            if rules.next_collector(s) is None:
                tx.emit(PhaseChanged(phase="AGENT_PLACE"))
                continue
            return
        if s.phase == "AGENT_PLACE":
            placer = rules.current_placer(s)
            if placer is None:
                tx.emit(PhaseChanged(phase="EMPIRE_PHASE"))
                _walk(tx, rules.empire_order[0], 0)
                return
            if not rules.can_place(s, placer):
                why = "no agent in reserve" if s.players[placer].agent_reserve < 1 else "no free council position"
                tx.emit(PlacementSkipped(player=placer, step="place", reason=why),
                        AuditFlagRaised(kind="placement_skipped", note=f"{placer}: {why}"))
                continue
            return
        return


def stuck_collector(rules: Queries, state: State) -> bool:
    """Whether the player to collect next has no agent on the board to collect."""
    nxt = rules.next_collector(state) if state.phase == "AGENT_COLLECT" else None
    return nxt is not None and not rules.agents_on_board(state, nxt)


def skip_collectors(tx: Tx) -> None:
    """Collectors with no agent on the board cannot collect: they are skipped (and flagged) when
    the next intent arrives, which is then judged on the state after the skips."""
    rules = tx.rules
    while stuck_collector(rules, tx.state):
        nxt = rules.next_collector(tx.state)
        assert nxt is not None
        tx.emit(PlacementSkipped(player=nxt, step="collect", reason="no agent on the board"),
                AuditFlagRaised(kind="placement_skipped", note=f"{nxt} had no agent to collect"))
        if rules.next_collector(tx.state) is None:
            run_agent_phase(tx)


def _walk(tx: Tx, empire: str, index: int) -> None:
    rules = tx.rules
    order = rules.empire_order
    ei = order.index(empire)
    while True:
        if index < len(POSITIONS):
            p = POSITIONS[index]
            who = rules.controller(tx.state, empire, p)
            if who is not None:
                tx.emit(PositionActivated(position=f"{empire}.{p}", acting_player=who))
                return
            tx.emit(PositionSkipped(position=f"{empire}.{p}"))
            index += 1
            continue
        _supply_limit(tx, empire)
        tx.emit(EmpirePhaseEnded(empire=empire))
        ei += 1
        if ei < len(order):
            empire, index = order[ei], 0
            continue
        _round_counter(tx)
        return


def close_activation(tx: Tx) -> None:
    c = tx.state.cursor
    assert c is not None
    tx.emit(PositionEnded(position=f"{c.empire}.{c.position}"))
    _walk(tx, c.empire, POSITIONS.index(c.position) + 1)


def _supply_limit(tx: Tx, empire: str) -> None:
    rules = tx.rules
    removals = []
    for r in rules.board.regions:
        limit = SUPPLY_LIMIT_FARM if r.farm else SUPPLY_LIMIT
        for e in EMPIRES:
            n = tx.state.banners[r.id][e]
            if n > limit:
                removals.append(SupplyLimitRemoval(region=r.id, empire=e, removed=n - limit))
    tx.emit(SupplyLimitEnforced(empire_phase=empire, removals=tuple(removals)))


def _round_counter(tx: Tx) -> None:
    rules = tx.rules
    rnd = tx.state.round
    tx.emit(RoundMarkerPlaced(round=rnd))
    if rnd >= ROUNDS:
        game_end(tx)
        return
    if rules.options["first_player_pass_timing"] == "at_round_counter":
        _pass_first(tx)
    tx.emit(PhaseChanged(phase="DISCARD"))
    maybe_end_discard(tx)


def _pass_first(tx: Tx) -> None:
    rules = tx.rules
    fp = tx.state.first_player or rules.players[0]
    tx.emit(FirstPlayerPassed(from_=fp, to=rules.next_seat(tx.state, fp)))


def maybe_end_discard(tx: Tx) -> None:
    rules = tx.rules
    s = tx.state
    if all(len(s.players[p].hand) <= HAND_LIMIT for p in rules.players):
        tx.emit(PhaseChanged(phase="CI_SWAP" if rules.modules["counter_intelligence"] else "REVEAL"))


def end_of_round(tx: Tx) -> None:
    rules = tx.rules
    if rules.options["first_player_pass_timing"] == "end_of_round":
        _pass_first(tx)
    start_round(tx, tx.state.round + 1)
