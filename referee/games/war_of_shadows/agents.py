"""The agent phase's intents (§4.6–4.7): ``collect_agent`` at the start of rounds 2–4, in turn order,
and ``place_agent`` in turn order up to the quota, on a free council position or (module
region_agents) in a region, within the region-agent limit.
"""

from __future__ import annotations

from referee.engine.codes import TurnCode

from .codes import Code
from .data import split
from .model import AgentCollected, AgentPlaced, CollectAgent, PlaceAgent
from .rounds import run_agent_phase
from .txn import R_COLLECT, R_PLACE, R_REGION_AGENTS, Tx, plural


def collect_agent(tx: Tx, intent: CollectAgent) -> None:
    rules = tx.rules
    s = tx.state
    tx.require(s.phase == "AGENT_COLLECT", Code.WRONG_PHASE,
               f"agents are collected at the start of rounds 2-4; the game is in {s.phase} of round {s.round}", R_COLLECT)
    nxt = rules.next_collector(s)
    if tx.seat != nxt:
        tx.fail(TurnCode.NOT_YOUR_TURN, f"{nxt} collects next, not {tx.seat}", R_COLLECT)
    src = intent.from_
    if rules.is_position(src):
        e, p = split(src)
        here = s.council[e][p] == tx.seat
    else:
        here = tx.seat in s.region_agents[src]
    tx.require(here, Code.AGENT_NOT_FOUND, f"{tx.seat} has no agent on {src}", R_COLLECT)
    tx.emit(AgentCollected(player=tx.seat, from_=src))
    run_agent_phase(tx)


def place_agent(tx: Tx, intent: PlaceAgent) -> None:
    rules = tx.rules
    s = tx.state
    if s.phase != "AGENT_PLACE":
        why = ("collection is not finished" if s.phase == "AGENT_COLLECT"
               else f"the game is in {s.phase} of round {s.round}")
        tx.fail(Code.WRONG_PHASE, f"agents are placed in the agent phase; {why}", R_PLACE)
    placer = rules.current_placer(s)
    if tx.seat != placer:
        tx.fail(TurnCode.NOT_YOUR_TURN, f"{placer} places next, not {tx.seat}", R_PLACE)
    pl = s.players[tx.seat]
    tx.require(pl.agent_reserve >= 1, Code.NO_AGENT_IN_RESERVE, f"{tx.seat} has no agent left to place", R_PLACE)
    dst = intent.to
    if rules.is_position(dst):
        e, p = split(dst)
        holder = s.council[e][p]
        tx.require(holder is None, Code.POSITION_OCCUPIED, f"{dst} already holds {holder}'s agent", R_PLACE)
        if not rules.options["allow_replace_same_position"]:
            tx.require(s.agent_phase.collected_from.get(tx.seat) != dst, Code.POSITION_OCCUPIED,
                       f"{tx.seat} collected an agent from {dst} this round (allow_replace_same_position=false)",
                       R_PLACE)
    else:
        tx.require(rules.modules["region_agents"], Code.MODULE_DISABLED,
                   f"{dst} is a region: agents go to regions only with the module region_agents", R_REGION_AGENTS)
        tx.require(tx.seat not in s.region_agents[dst], Code.DUPLICATE_REGION_AGENT,
                   f"{tx.seat} already has an agent in {dst}", R_REGION_AGENTS)
        if rules.options["region_agent_limit_scope"] == "whole_board":
            n = len(rules.agents_on_board(s, tx.seat))
            tx.check(n < 2, Code.REGION_AGENT_LIMIT,
                     f"{tx.seat} has {plural(n, 'agent')} on the board (at most 2, region_agent_limit_scope=whole_board)",
                     R_REGION_AGENTS)
        else:
            n = rules.region_agent_count(s, tx.seat)
            tx.check(n < 2, Code.REGION_AGENT_LIMIT, f"{tx.seat} already has {plural(n, 'agent')} in regions (at most 2)",
                     R_REGION_AGENTS)
    tx.emit(AgentPlaced(player=tx.seat, to=dst))
    run_agent_phase(tx)
