"""How an intent is judged: one decider per intent, checks first (``check``: a rule an arbiter's ruling
may waive; ``require``: without it the intent cannot be carried out), then the events emitted; the table
of them, ``DECIDERS``, is what ``RulesBase.decide`` runs."""

from __future__ import annotations

from referee.engine.protocol import Deciders

from .codes import Code
from .data import MAX_TAKE, R_TAKE
from .model import Take, Taken
from .txn import Tx


def take(tx: Tx, intent: Take) -> None:
    tx.check(1 <= intent.count <= MAX_TAKE, Code.BAD_COUNT, f"take 1 to {MAX_TAKE} stones, not {intent.count}", R_TAKE)
    tx.require(intent.count <= tx.state.pile, Code.NOT_ENOUGH, f"the pile has {tx.state.pile}, not {intent.count}",
               R_TAKE)
    tx.emit(Taken(seat=tx.seat, count=intent.count))


DECIDERS: Deciders[Tx] = Deciders({Take: take})
