"""Declared effects (§4.12): the standalone ``manual_effect`` intent and the ``declared`` arguments of a
card or office whose effect is ``manual``. Each op is checked against the state the previous ones left
(the card must be in its ``from`` zone, a street slot it goes to must be empty, counters stay in range);
the entry is flagged for audit.

A declared op names state paths: the only events that still do. The paths it may name are the
vocabulary below (data, with its version): every :class:`ManualApplied` records that version, so renaming
a state field these paths name means a new version and a reading of the older one's paths in
``upcast.py``, never a silent change of what an old log meant.
"""

from __future__ import annotations

from typing import Any

from .codes import Code
from .data import card_hint
from .fold import PLAYER_ZONES, read
from .model import SLOTS, AdjustOp, EffectArgs, ManualApplied, ManualEffect, MoveOp, State
from .txn import R_MANUAL, Tx

#: the declared-effect vocabulary's version, written in every ManualApplied
VOCABULARY = 1
#: the zones a declared move takes a card from or to (``<seat>`` a seat, ``<slot>`` a street slot 1-11)
ZONES = ("box", "supply", "street.<slot>", *(f"players.<seat>.{zone}" for zone in PLAYER_ZONES))
#: the counters a declared adjustment may change (``<office>`` an office in play)
COUNTERS = (*(f"players.<seat>.{counter}" for counter in (
    "score", "workers_available", "extra_workers", "vp_tokens", "vp_pending", "coins.doublable", "coins.plain",
    "coins.spent", "buys_left", "coin_doublings", "token_doublings")), "offices.<office>.vp_tokens", "worker_supply.<seat>")


def in_vocabulary(path: str, patterns: tuple[str, ...], seats: Any, offices: Any) -> bool:
    """Whether ``path`` is one of ``patterns`` with a seat of ``seats``, an office of ``offices`` and a
    street slot in its holes."""
    parts = path.split(".")
    holes = {"<seat>": seats, "<office>": offices, "<slot>": SLOTS}
    for pattern in patterns:
        want = pattern.split(".")
        if len(want) == len(parts) and all(part in holes[w] if w in holes else part == w for w, part in zip(want, parts)):
            return True
    return False


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
    if not in_vocabulary(path, ZONES, state.players, ()):
        return None
    parts = path.split(".")
    if path in ("box", "supply"):
        return ("pile", None)
    if parts[0] == "street":
        return ("slot", state.street.get(parts[1]))
    return ("zone", read(state, parts))


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
                tx.fail(Code.MANUAL_INCONSISTENT, f"op {i}: unknown card {op.card!r}{card_hint(tx.rules.cards, op.card)}", R_MANUAL)
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
            if not in_vocabulary(op.counter, COUNTERS, players, state.offices):
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
    tx.emit(ManualApplied(ops=ops, reason=reason, vocabulary=VOCABULARY))
    tx.manual = True
