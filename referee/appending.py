"""The service's base: what it holds (a store, the configurations, the histories, the clock) and how it
appends an entry: at the head a writer names, chained to the entry before it, with a snapshot every K
entries and the match's summary, in one transaction (:class:`Appending`). The writes (:mod:`referee.moves`,
:mod:`referee.acts`) and the service itself (:class:`referee.service.Referee`) build on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from schemas import ARBITER, Outcome

from .config import Configuration, Loaded, utc_now
from .engine import core
from .engine.codes import LogCode, MatchCode, StoreCode
from .engine.entries import Act, EntryBody, Source
from .engine.protocol import Game, Rejected
from .engine.suggest import close_names
from .errors import BadInput, ConflictError, StorageError
from .history import SNAPSHOT_EVERY, History, expect_head
from .i18n import N_
from .redaction import verdict_name
from .reopening import fresh_secret as default_secret
from . import summaries
from .store import Conflict, Store, StoredEntry, StoredRequest, StoredSnapshot, StoreError

#: how often an append that lost a race (another writer got in first) is tried again
CONFLICT_RETRIES = 8

#: ``accepted``, ``rejected``, ``held`` or ``none``: an entry's verdict column
entry_verdict_name = verdict_name


class _Unset:
    """An argument left out (where None is a value: a match with no outcome)."""


_UNSET = _Unset()


class Appending:
    """The service layer's base. Holds a store, the match configurations (:class:`Configuration`, which binds
    matches to their rules) and the match histories (:class:`History`, which reads logs and folds
    states); stateless otherwise (they keep small caches of bound rules and current states)."""

    def __init__(
        self,
        store: Store,
        *,
        games: Sequence[Game] | None = None,
        clock: Callable[[], str] = utc_now,
        snapshot_every: int = SNAPSHOT_EVERY,
        use_snapshots: bool = True,
        fresh_secret: Callable[[], int] | None = None,
    ) -> None:
        self.store = store
        self.configuration = Configuration(store, games)
        self.history = History(store, use_snapshots=use_snapshots)
        #: where a reopening's fresh secret comes from (os randomness; a test may fix it). Called when an
        #: entry is written, never by a fold: the secret is recorded in the entry
        self.fresh_secret: Callable[[], int] = fresh_secret or default_secret
        self.clock = clock
        self.snapshot_every = snapshot_every
        #: lines parsed lately: text -> (the rules they were checked against, the intent), oldest first
        self._parsed: dict[str, tuple[Any, Any]] = {}
        #: each match's summary as its last append here left it (an append replaces what its entry changes)
        self._summaries = summaries.Kept()
        # what callers read of the games, the configurations and the histories: theirs, as they were
        c, h = self.configuration, self.history
        self.game, self.describe_game, self.read_card_set = c.game, c.describe_game, c.read_card_set
        self.build_config, self._bind, self.info, self.resolve = c.build_config, c._bind, c.info, c.resolve
        self.load = c.load
        self.entries, self.index, self.audit_rows, self.entry_at = h.entries, h.index, h.audit_rows, h.entry_at
        self.snapshot, self.snapshots_of, self.bodies, self.folded = h.snapshot, h.snapshots_of, h.bodies, h.folded
        self.decode, self.state_at, self.advance, self.walk, self.over = h.decode, h.state_at, h.advance, h.walk, h.over
        self.snapshot_checks_out, self.checked_snapshot = h.snapshot_checks_out, h.checked_snapshot
        self.timeline, self.open_hold, self.marks, self.jumps = h.timeline, h.open_hold, h.marks, h.jumps
        self.seed_in_force, self.reseeds, self.holder, self.act_of = h.seed_in_force, h.reseeds, h.holder, h.act_of
        self.reopening_problem, self.annotations_on = h.reopening_problem, h.annotations_on
        self.decide_undo, self.decide_redo = h.decide_undo, h.decide_redo
        self.decide_confirm, self.decide_ruling = h.decide_confirm, h.decide_ruling

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game this service knows (imports every registered game's package)."""
        return self.configuration.games

    @property
    def given_games(self) -> tuple[Game, ...] | None:
        """The games this service was given (None: the registry's)."""
        return self.configuration.given_games
    def at_head(self, loaded: Loaded, expected_seq: int | None, *, reload: bool = False) -> tuple[int, Any]:
        """(head, state) of a match a writer appends to, refused as a conflict (nothing written) if the
        writer named another head: every write that takes an expected head checks it here, through
        :func:`referee.history.expect_head`."""
        head, state = self.state_at(loaded)
        expect_head(loaded.match.id, head, expected_seq, reload=reload)
        return head, state

    def _append(self, loaded: Loaded, entry: StoredEntry, new_state: Any, head: int, jump: int | None = None,
                request: StoredRequest | None = None, *, outcome: Outcome | None | _Unset = _UNSET) -> None:
        """Append one entry (with a snapshot every K entries, and ``request``'s idempotency key) in one
        transaction. An undo or redo that jumps back past the last of those snapshots (to ``jump``) gets a
        snapshot of its own: a later fold through it then reads the state instead of folding the jump's
        target again. ``outcome``: the match's outcome after the entry, if the caller has worked it out."""
        snapshot = None
        every = self.snapshot_every
        if every and (entry.seq % every == 0 or (jump is not None and jump < entry.seq - entry.seq % every)):
            snapshot = StoredSnapshot(
                match_id=loaded.match.id, seq=entry.seq, state=core.state_bytes(new_state), state_hash=entry.state_hash
            )
        try:
            if isinstance(outcome, _Unset):
                outcome = loaded.rules.outcome(new_state)
            summary = self._summaries.after(loaded, head=entry.seq, head_hash=entry.hash, outcome=outcome,
                                            last_activity=entry.recorded_at)
            self.store.append(entry, expected_seq=head, snapshot=snapshot, request=request, summary=summary)
        except Conflict as exc:
            self.history.forget_head(loaded.match.id)
            raise ConflictError(MatchCode.STALE_SEQ, str(exc), {"head": exc.head}) from None
        except StoreError as exc:
            raise StorageError(StoreCode.FAILED, str(exc)) from None
        self.history.remember_head(loaded.match.id, entry.seq, new_state, entry)

    def prev_hash_at(self, loaded: Loaded, head: int) -> str:
        """The hash the entry after ``head`` chains from (the genesis hash before the first entry)."""
        if head == 0:
            return loaded.match.genesis_hash
        kept = self.history.head_hash(loaded.match.id, head)  # the entry this service just appended
        if kept is not None:
            return kept
        last = self.entry_at(loaded.match, head)
        if last is None:
            raise StorageError.said(LogCode.CORRUPT, N_("entry {entry} of match {match} is missing; run `referee audit`"),
                                    entry=head, match=loaded.match.id)
        return last.hash

    def make_entry(
        self, loaded: Loaded, seq: int, state: Any, prev_hash: str, *, act: Act, actor: str | None,
        text: str, intent: Any, verdict: Any, source: Source | None = None,
    ) -> tuple[StoredEntry, Any]:
        body: EntryBody[Any, Any] = EntryBody(
            seq=seq, act=act, actor=actor, notation=text, intent=intent, verdict=verdict, source=source or Source()
        )
        new_state = self.advance(loaded, state, body)
        raw = core.canonical(body)
        entry = StoredEntry(
            match_id=loaded.match.id,
            seq=seq,
            kind=body.kind,
            actor=actor,
            verdict=entry_verdict_name(verdict),
            code=verdict.code if isinstance(verdict, Rejected) else None,
            body=raw,
            prev_hash=prev_hash,
            hash=core.entry_hash(prev_hash, raw),
            state_hash=core.state_hash(new_state),
            recorded_at=self.clock(),
        )
        return entry, new_state


def not_a_seat(seat: str, players: Sequence[str], others: Sequence[str] = (), *, or_arbiter: bool = False) -> BadInput:
    """The refusal of ``seat`` as an actor of a match seating ``players`` (besides them the game's ``others``, or
    the arbiter with ``or_arbiter``), naming the closest of them it may have meant."""
    names = close_names(seat, (*players, *((ARBITER,) if or_arbiter else others)))  # "a or b" in the reader's words
    seats = ", ".join(players)
    if or_arbiter:
        return BadInput.said(MatchCode.UNKNOWN_SEAT, N_(
            "{seat!r} is not a seat of this match (did you mean {names}?); seats: {seats} (or arbiter)") if names else N_(
            "{seat!r} is not a seat of this match; seats: {seats} (or arbiter)"), seat=seat, names=names, seats=seats)
    if others:
        return BadInput.said(MatchCode.UNKNOWN_SEAT, N_(
            "{seat!r} is not a seat of this match (did you mean {names}?); seats: {seats} (and {others})") if names
            else N_("{seat!r} is not a seat of this match; seats: {seats} (and {others})"),
            seat=seat, names=names, seats=seats, others=", ".join(others))
    return BadInput.said(MatchCode.UNKNOWN_SEAT, N_(
        "{seat!r} is not a seat of this match (did you mean {names}?); seats: {seats}") if names else N_(
        "{seat!r} is not a seat of this match; seats: {seats}"), seat=seat, names=names, seats=seats)


def plain(value: Any) -> Any:
    """JSON-shaped builtins (lists, dicts, str, int, bool, None) of any msgspec value."""
    return msgspec.json.decode(msgspec.json.encode(value))
