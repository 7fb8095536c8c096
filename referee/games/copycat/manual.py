"""Declared effects (§4.12): the standalone ``manual_effect`` intent and the ``declared`` arguments of a
card or office whose effect is ``manual``. Each op is checked against the state the previous ones left
(the card must be in its ``from`` zone, a street slot it goes to must be empty, counters stay in range);
the entry is flagged for audit.
"""

from __future__ import annotations

from typing import Any

from .codes import Code
from .fold import PLAYER_ZONES, read
from .model import SLOTS, AdjustOp, EffectArgs, ManualApplied, ManualEffect, MoveOp, State
from .txn import R_MANUAL, Tx

_COUNTERS = ("score", "workers_available", "extra_workers", "vp_tokens", "vp_pending", "coins.doublable",
             "coins.plain", "coins.spent", "buys_left", "coin_doublings", "token_doublings")


def manual_effect(tx: Tx, intent: ManualEffect) -> None:
    tx.check(bool(intent.reason and intent.reason.strip()), Code.REASON_REQUIRED,
             "a manual effect needs a reason (reason=\"...\")", R_MANUAL)
    apply_ops(tx, intent.ops, intent.reason or "")


def declared(tx: Tx, args: EffectArgs) -> None:
    tx.check(bool(args.declared), Code.DECLARATION_REQUIRED,
             "this effect is not in the referee's vocabulary: declare its changes (args.declared=move:...,adjust:...)",
             R_MANUAL)
    apply_ops(tx, args.declared, "declared effect")


def _zone(tx: Tx, state: State, path: str) -> tuple[str, Any] | None:
    """(kind, current content) of a zone path, or None if it names no zone."""
    parts = path.split(".")
    if path in ("box", "supply"):
        return ("pile", None)
    if len(parts) == 2 and parts[0] == "street" and parts[1] in SLOTS:
        return ("slot", state.street.get(parts[1]))
    if len(parts) == 3 and parts[0] == "players" and parts[1] in state.players and parts[2] in PLAYER_ZONES:
        return ("zone", read(state, parts))
    return None


def apply_ops(tx: Tx, ops: tuple[MoveOp | AdjustOp, ...], reason: str) -> None:
    state = tx.st
    players = tx.rules.players
    cap = int(tx.rules.options["doubling_cap"])
    for i, op in enumerate(ops, start=1):
        if isinstance(op, MoveOp):
            src, dst = _zone(tx, state, op.from_), _zone(tx, state, op.to)
            if src is None or dst is None:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.from_ if src is None else op.to!r} is not a zone path", R_MANUAL)
            assert src is not None and dst is not None
            if op.card not in tx.rules.cards:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: unknown card {op.card!r}", R_MANUAL)
            if op.from_ == "box":
                held = op.card in state.box
            elif op.from_ == "supply":
                held = any(op.card in b.cards for b in state.supply.bands)
            elif src[0] == "slot":
                held = src[1] == op.card
            else:
                held = op.card in src[1]
            if not held:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.card} is not in {op.from_}", R_MANUAL)
            if dst[0] == "slot" and dst[1] is not None:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.to} is occupied", R_MANUAL)
            from .fold import move

            state = move(state, (op.card,), op.from_, op.to)
        else:
            parts = op.counter.split(".")
            ok = (len(parts) >= 3 and parts[0] == "players" and parts[1] in players and ".".join(parts[2:]) in _COUNTERS) \
                or (len(parts) == 3 and parts[0] == "offices" and parts[1] in state.offices and parts[2] == "vp_tokens") \
                or (len(parts) == 2 and parts[0] == "worker_supply" and parts[1] in players)
            if not ok:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.counter!r} is not a counter path", R_MANUAL)
            value = (read(state, parts) or 0) + op.delta
            if value < 0:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.counter} would go below 0 ({value})", R_MANUAL)
            if parts[-1] in ("coin_doublings", "token_doublings") and value > cap:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {op.counter} would exceed the doubling cap {cap}", R_MANUAL)
            if parts[0] == "worker_supply" and value > 4:
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: a seat has 4 spare workers at most", R_MANUAL)
            from .fold import add, update_state

            state = update_state(state, op.counter, add(op.delta))
            if parts[0] == "players" and parts[-1] in ("workers_available", "extra_workers"):
                p = state.players[parts[1]]
                placed = sum(1 for o in state.offices.values() for w in o.workers if w == parts[1])
                if p.workers_available + placed > 3 + int(tx.rules.options["max_extra_workers"]):
                    tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: {parts[1]} would hold more than "
                            f"{3 + int(tx.rules.options['max_extra_workers'])} workers", R_MANUAL)
    tx.emit(ManualApplied(ops=ops, reason=reason))
    tx.manual = True
