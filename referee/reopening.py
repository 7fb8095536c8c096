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

import secrets
from typing import TYPE_CHECKING

import msgspec

from schemas import ARBITER, SEED_MAX

from .engine import core
from .engine.entries import Reopen, Reopening, Undo
from .engine.protocol import Accepted

if TYPE_CHECKING:
    from .config import Loaded
    from .service import Referee
    from .store import StoredEntry


def fresh_secret() -> int:
    """A fresh secret seed (from the operating system's randomness, like a new match's secret seed)."""
    return secrets.randbelow(SEED_MAX + 1)


def reopening_undo(referee: Referee, loaded: Loaded, seq: int, to: int, reason: str) -> Undo:
    """The arbiter's undo (entry ``seq``) of a finished digital match back to entry ``to``, with a fresh secret."""
    secret = referee.fresh_secret()
    return Reopening(to=to, target=to, reason=reason, secret=secret,
                     commitment=core.reseed_commitment(loaded.match.id, seq, secret))


def fork_entries(referee: Referee, loaded: Loaded, fork_id: str, at: int, head: int) -> list[StoredEntry]:
    """The first entry of fork ``fork_id`` of a digital match at entry ``at``, if the fork plays on from a
    seed every role has read (the match is over, or was reopened after ``at``, so the seed in force there
    was revealed): a :class:`Reopen`, the arbiter's, with a fresh committed secret. Else none."""
    if loaded.config.chance != "digital":
        return []
    revealed = referee.over(loaded) or any(seq > at for seq, _ in referee.reseeds(loaded, head))
    _, state = referee.state_at(loaded, at)
    if not revealed or loaded.rules.outcome(state) is not None:
        return []
    secret = referee.fresh_secret()
    act = Reopen(secret=secret, commitment=core.reseed_commitment(fork_id, at + 1, secret),
                 reason="a fork of a finished match plays on from a fresh secret")
    entry, _ = referee.make_entry(loaded, at + 1, state, referee.prev_hash_at(loaded, at), act=act, actor=ARBITER,
                                  text="reopen: fresh secret", intent=None, verdict=Accepted(()))
    return [msgspec.structs.replace(entry, match_id=fork_id)]
