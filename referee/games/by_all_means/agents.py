"""Agents (rules spec 4.7, 4.9): the agent actions — ``agent_draw``, ``agent_attack_player``,
``agent_attack_agent``, with the common checks A1-A4 — and ``activate_ability`` (intent 21: an
agent's or another object's activated ability, its text declared as changes); and the agent limit:
the decision opened when a player controls too many face-up agents after an action, and the agent
given up for it.
"""

from __future__ import annotations

from typing import Any

from .codes import Code
from . import manual, refs
from .fold import get_obj
from .model import ActivateAbility, AgentActed, AgentAttackAgent, AgentAttackPlayer, AgentDraw, Pending
from .turn import spend_agent, spend_main
from .txn import Txn, efficiency, reckless, resilience, revealed


def _agent_checks(txn: Txn, seat: str, cell: str, kind: str, extra_allowed: bool = True) -> Any:
    """A1-A4 (4.7), then the action is spent and recorded; the agent."""
    a = txn.state.field[cell].agent
    if a is None or a.controller != seat:
        txn.fail(Code.NO_SUCH_AGENT, f"{seat} has no agent on {cell}", "R-AGENTS")
    assert a is not None
    if a.turned:
        txn.check(False, Code.AGENT_TURNED, f"{a.card} on {cell} is turned", "R-AGENT-DEFAULTS")
    if any(x.oid == a.oid and x.kind == kind for x in txn.state.turn.agent_actions):
        txn.check(False, Code.AGENT_REPEAT_ACTION, f"{a.card} on {cell} has already taken a {kind} action this turn", "R-AGENT-DEFAULTS")
    spend_agent(txn, seat, extra_allowed)
    txn.emit(AgentActed(oid=a.oid, kind=kind))
    return a


def _attack_kind(txn: Txn, which: str) -> str:
    return "attack" if txn.opts["agent_attack_kinds"] == "merged" else f"attack_{which}"


def agent_draw(txn: Txn, i: AgentDraw) -> None:
    seat = txn.seat
    _agent_checks(txn, seat, i.agent, "draw")
    if not txn.player(seat).extra_archive.count > 0:
        txn.fail(Code.ARCHIVE_EMPTY, f"{seat}'s extra archive is empty", "R-ARCHIVES")
    cards = () if i.card is None else (i.card,)
    txn.check_draw(seat, "extra_archive", cards, 1)
    txn.turn_agent(i.agent, True, "draws from the extra archive")
    txn.draw(seat, "extra_archive", cards, f"{seat}.hand", "agent draw")


def agent_attack_player(txn: Txn, i: AgentAttackPlayer) -> None:
    seat = txn.seat
    _agent_checks(txn, seat, i.agent, _attack_kind(txn, "player"))
    e = efficiency(txn.ctx, txn.state, i.agent)
    r = reckless(txn.ctx, txn.state, i.agent)
    txn.turn_agent(i.agent, True, "attacks")
    txn.lose(txn.ctx.opp(seat), "reputation", e, f"attack by the agent on {i.agent}")
    if r:
        txn.lose(seat, "reputation", e, f"recklessness of the agent on {i.agent}")


def agent_attack_agent(txn: Txn, i: AgentAttackAgent) -> None:
    seat = txn.seat
    a = _agent_checks(txn, seat, i.agent, _attack_kind(txn, "agent"), txn.opts["attack_agent_extra"])
    target = txn.state.field[i.target].agent
    txn.require(target is not None and target.controller != seat, Code.TARGET_NOT_OPPONENT_AGENT,
                f"{i.target} holds no agent of {txn.ctx.opp(seat)}", "R-AGENT-DEFAULTS")
    txn.check(revealed(txn.state, i.target), Code.TARGET_NOT_REVEALED, f"the agent on {i.target} is not revealed", "R-AGENTS")
    e = efficiency(txn.ctx, txn.state, i.agent)
    r = reckless(txn.ctx, txn.state, i.agent)
    res = resilience(txn.ctx, txn.state, i.target)
    txn.turn_agent(i.agent, True, "attacks an agent")
    if e >= res:
        txn.send_agent_to_utility(i.target, f"attacked by {a.card} ({e} against {res})")
    if r:
        txn.lose(seat, "reputation", e, f"recklessness of the agent on {i.agent}")
    limit_after(txn, seat)


def activate_ability(txn: Txn, i: ActivateAbility) -> None:
    seat = txn.seat
    ref = refs.any_object(txn.ctx, i.object, seat)
    obj = get_obj(txn.state, ref)
    if obj is None:
        txn.fail(Code.NO_SUCH_OBJECT, f"there is no object at {i.object}", "R-OBJECTS")
    in_buffer = "." in ref
    txn.require(not in_buffer or (txn.opts["buffer_abilities"] and ref.startswith(f"{seat}.")), Code.NO_SUCH_OBJECT,
                "buffer cards cannot use activated abilities (option buffer_abilities)" , "R-OBJECTS")
    if getattr(obj, "controller", getattr(obj, "owner", None)) != seat:
        txn.fail(Code.NOT_YOUR_OBJECT, f"{obj.card} at {i.object} is not {seat}'s", "R-OBJECTS")
    ability = txn.ctx.card(obj.card).ability(i.ability)
    if ability is None or ability.kind not in ("activated", "activated_free"):
        txn.fail(Code.NO_SUCH_ABILITY, f"{obj.card} has no activated ability {i.ability!r}", "R-ICONS")
    assert ability is not None
    is_agent = ref.endswith("/agent")
    cell = ref.split("/")[0]
    if is_agent:
        if obj.turned:
            txn.check(False, Code.AGENT_TURNED, f"{obj.card} on {cell} is turned", "R-AGENT-DEFAULTS")
        kind = f"ability:{i.ability}"
        if any(x.oid == obj.oid and x.kind == kind for x in txn.state.turn.agent_actions):
            txn.check(False, Code.AGENT_REPEAT_ACTION, f"{obj.card} on {cell} has already used {i.ability} this turn", "R-AGENT-DEFAULTS")
    if ability.kind == "activated":
        if is_agent:
            spend_agent(txn, seat)
        else:
            spend_main(txn)
    if is_agent:
        txn.emit(AgentActed(oid=obj.oid, kind=f"ability:{i.ability}"))
        if ability.kind == "activated" or txn.opts["free_ability_turns_agent"]:
            txn.turn_agent(cell, True, f"uses {i.ability}")
    manual.apply_changes(txn, seat, i.object, i.changes, i.note or f"{obj.card}: {ability.text or ability.id}")


def limit_after(txn: Txn, seat: str, resume: str = "none") -> None:
    """After an action: a player over the agent limit decides which agent to give up."""
    over = txn.limit_exceeded()
    if over is not None and txn.state.pending is None:
        txn.open_decision(Pending(kind="agent_limit", decider=over[0], actor=seat, resume=resume, cells=tuple(over[1])))  # type: ignore[arg-type]


def give_up(txn: Txn, cell: str) -> None:
    """N3: the agent given up for the limit leaves with its whole stack (A-19; with
    agent_limit_discard=shadow_first a shadowed agent cannot be named at all)."""
    txn.kill_stack(cell, "given up for the agent limit")
