"""Reopening a finished digital match: the fresh secret every later chance outcome is drawn from.

Every role reads a digital match's seed when the match ends (:mod:`referee.redaction`), so no later
outcome may come from it. What reopens a finished match is the arbiter's: an undo back into play (a
ruling on the main line goes through one) is recorded as a :class:`~referee.engine.entries.Reopening`,
and a fork of it that plays on starts with a :class:`~referee.engine.entries.Reopen` entry. Either holds
a fresh secret, drawn here when the entry is written (never by a fold: replay and audit read it from the
entry), and its commitment (:func:`referee.engine.core.reseed_commitment`), which every role sees at
once; the secret is shown to the other roles when the match is over again. The seed in force at a point
of the log is the latest such secret before it (:meth:`referee.history.History.seed_in_force`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from schemas import SEED_MAX

from .engine import core
from .engine.entries import Reopen, Reopening, Undo

if TYPE_CHECKING:
    from .config import Loaded
    from .history import History


def fresh_secret() -> int:
    """A fresh secret seed (from the operating system's randomness, like a new match's secret seed)."""
    import secrets  # (imported here: only a reopening draws a secret)

    return secrets.randbelow(SEED_MAX + 1)


def reopening_undo(secret: int, loaded: Loaded, seq: int, to: int, reason: str) -> Undo:
    """The arbiter's undo (entry ``seq``) of a finished digital match back to entry ``to``, with the fresh
    ``secret``."""
    return Reopening(to=to, target=to, reason=reason, secret=secret,
                     commitment=core.reseed_commitment(loaded.match.id, seq, secret))


def fork_reopen(history: History, loaded: Loaded, fork_id: str, at: int, head: int,
                fresh: Callable[[], int]) -> tuple[Reopen, Any] | None:
    """The first entry's act of fork ``fork_id`` of a digital match at entry ``at``, with the state it
    follows, if the fork plays on from a seed every role has read (the match is over, or was reopened
    after ``at``, so the seed in force there was revealed): a :class:`Reopen`, the arbiter's, with a
    fresh committed secret (drawn from ``fresh``). Else None."""
    if loaded.config.chance != "digital":
        return None
    revealed = history.over(loaded) or any(seq > at for seq, _ in history.reseeds(loaded, head))
    _, state = history.state_at(loaded, at)
    if not revealed or loaded.rules.outcome(state) is not None:
        return None
    secret = fresh()
    return Reopen(secret=secret, commitment=core.reseed_commitment(fork_id, at + 1, secret),
                  reason="a fork of a finished match plays on from a fresh secret"), state
