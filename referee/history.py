"""A match's history: reading its log (through the parents of a fork), snapshots, the state after any
entry (folded from the nearest snapshot that checks out), undo timelines, and the verdicts of the
framework's own entries (undo, redo, ruling, confirmation). The audit walks the same functions.

One :class:`History` object per service (:class:`referee.service.Referee` holds it and delegates to it),
owning the caches it keeps per match; the audit (:mod:`referee.audit`) and the exports
(:mod:`referee.exportsource`) read a match through it.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from schemas import ARBITER, ENTRY_FORMAT, EntryView

from .config import Loaded
from .engine import core
from .engine.codes import LogCode, MatchCode, RulingCode
from .engine.entries import Act, Confirmation, Move, Redo, Reopen, Reopening, Ruling, Undo, fresh_secret
from .engine.messages import STILL_ILLEGAL
from .engine.protocol import Accepted, Held, Rejected
from .errors import BadInput, ConflictError, StorageError
from .i18n import N_
from .redaction import View, annotations_by_entry, verdict_name
from .store import AuditRow, IndexRow, MatchRecords, StoredAnnotation, StoredEntry, StoredMatch, StoredSnapshot
from .timeline import Header, Jump, Timeline, undone_marks

SNAPSHOT_EVERY = 64
#: what a seat or a spectator is told when it would undo or redo in a finished match
_FINISHED = (MatchCode.OVER, "the match is over: it takes annotations only; only the arbiter may reopen it (in a "
             "digital match, whose seed every role has read by now, every later outcome is then drawn from a fresh secret)")


class _ActOf(msgspec.Struct, frozen=True, tag_field="format", tag=ENTRY_FORMAT):
    """An entry body read for its act alone."""

    act: Act = Move()


class _Older(msgspec.Struct, frozen=True, tag_field="format", tag=1):
    """A body of format 1: read whole, through the upcaster."""


_ACT_OF = msgspec.json.Decoder(_ActOf | _Older)

R = TypeVar("R")


class _Bounded(OrderedDict[int, Any]):
    """A dict that forgets its oldest entries beyond ``size``."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: int, value: Any) -> None:
        super().__setitem__(key, value)
        if len(self) > self.size:
            self.popitem(last=False)


class Reader(Protocol):
    """What reads a match by its id through a :class:`History`: the binding of a match id to its rules and
    the histories (:class:`referee.service.Referee` is one; the exports and the replay take one)."""

    @property
    def history(self) -> History: ...

    def load(self, match_id: str) -> Loaded: ...


class History:
    """Reading a match's log and the states along it, over the match log and its annotations. Keeps, per
    match, the state at its head, a bounded memo of states, its undo timeline, its undo/redo jumps and its
    reseeds (the log is append-only: what was read stays true; a later call reads only what is new)."""

    def __init__(self, store: MatchRecords, *, use_snapshots: bool = True) -> None:
        self.store = store
        #: whether a fold may start from a stored snapshot (off: every state is folded from setup)
        self.use_snapshots = use_snapshots
        self._heads: dict[str, tuple[int, Any]] = {}
        self._timelines: dict[str, tuple[int, Timeline]] = {}
        self._memos: dict[str, MutableMapping[int, Any]] = {}
        self._jumps: dict[str, tuple[int, int, list[Jump]]] = {}
        self._reseeds: dict[str, tuple[int, list[tuple[int, int]]]] = {}
        #: per match, the head entry this service appended last: (seq, hash, what waits after it, if its
        #: index columns tell). Used only while the store's head is still that seq (an entry's seq is
        #: its own: no other writer has that entry), so another process's appends make it unused
        self._tips: dict[str, tuple[int, str, tuple[int, str] | None | _Unknown]] = {}

    def share_heads(self, other: History) -> None:
        """Keep the heads, the tips and the reseeds of each match in ``other``'s dicts, read and written by
        both: the services of one server process's threads (each with its own connection to one database)
        then know the head one of them appended, instead of each folding up to it again. Everything kept
        there is a fact of the append-only log (the state after entry N, the hash of entry N, the
        reseeds up to N), used only while the store's head is that N, so a kept fact another thread
        replaces with an older one costs a read, never a wrong answer."""
        self._heads, self._tips, self._reseeds = other._heads, other._tips, other._reseeds

    def with_store(self, store: MatchRecords) -> History:
        """The same reading over another connection to the store (an audit's forked process), nothing kept."""
        return History(store, use_snapshots=self.use_snapshots)

    def remember_head(self, match_id: str, seq: int, state: Any, entry: StoredEntry | None = None) -> None:
        """The state after entry ``seq``, just appended as the match's head (the next fold starts there);
        with the ``entry`` itself, its hash (the next entry's previous hash) and what waits after it."""
        self._heads[match_id] = (seq, state)
        if entry is not None and entry.seq == seq:
            self._tips[match_id] = (seq, entry.hash, _waits_after(entry.kind, entry.verdict))
            kept = self._reseeds.get(match_id)
            if kept is not None and kept[0] == seq - 1 and entry.kind in ("intent", "ruling", "confirm"):
                self._reseeds[match_id] = (seq, kept[1])  # a move, ruling or confirmation draws no fresh secret
        else:
            self._tips.pop(match_id, None)

    def forget_head(self, match_id: str) -> None:
        """The kept head of the match is stale (another writer appended): the next fold reads what is new."""
        self._heads.pop(match_id, None)
        self._tips.pop(match_id, None)

    def kept_head(self, match_id: str) -> tuple[int, Any] | None:
        """(seq, state) of the match's head as this service last knew it (the entry it appended, or the
        head a fold reached), without reading the store: another writer may have appended since, so only
        a writer whose append checks the head (:meth:`Store.append`'s expected seq) may take it for the head."""
        return self._heads.get(match_id)

    def head_hash(self, match_id: str, head: int) -> str | None:
        """The hash of entry ``head`` if this service appended it as the match's head last (None: read it)."""
        tip = self._tips.get(match_id)
        return tip[1] if tip is not None and tip[0] == head else None

    def _spans(self, m: StoredMatch, start: int, stop: int | None) -> Iterator[tuple[str, int, int | None]]:
        """(match id, start, stop) of the stored runs that make up a match's entries ``start..stop``:
        a fork's history up to its fork point is its parent's (read, never copied), then its own."""
        base = m.fork_seq or 0
        if m.parent is not None and start <= base:
            parent = self.store.get_match(m.parent)
            if parent is None:
                raise StorageError.said(LogCode.CORRUPT, N_("match {match} is a fork of {parent}, which is missing"),
                                        match=m.id, parent=m.parent)
            yield from self._spans(parent, start, base if stop is None else min(stop, base))
        if stop is None or stop > base:
            yield m.id, max(start, base + 1), stop

    def _read(self, m: StoredMatch, start: int, stop: int | None,
              read: Callable[[str, int, int | None], Iterator[R]]) -> Iterator[R]:
        """What ``read`` (a :class:`Store` reader) gives of a match's entries ``start..stop``, through
        its parents for a fork."""
        for match_id, low, high in self._spans(m, start, stop):
            yield from read(match_id, low, high)

    def entries(self, m: StoredMatch, start: int = 1, stop: int | None = None) -> Iterator[StoredEntry]:
        """A match's entries ``start..stop`` (through its parents, for a fork)."""
        return self._read(m, start, stop, self.store.entries)

    def index(self, m: StoredMatch, start: int = 1, stop: int | None = None) -> Iterator[IndexRow]:
        """:meth:`Store.index` rows of a match's entries ``start..stop`` (through its parents)."""
        return self._read(m, start, stop, self.store.index)

    def audit_rows(self, m: StoredMatch, start: int = 1, stop: int | None = None) -> Iterator[AuditRow]:
        """:meth:`Store.audit_rows` of a match's entries ``start..stop`` (through its parents)."""
        return self._read(m, start, stop, self.store.audit_rows)

    def entry_at(self, m: StoredMatch, seq: int) -> StoredEntry | None:
        return next(iter(self.entries(m, seq, seq)), None)

    def snapshot(self, m: StoredMatch, seq: int) -> StoredSnapshot | None:
        snap = self.store.snapshot_at_or_before(m.id, seq)
        if snap is not None and snap.seq > (m.fork_seq or 0):
            return snap
        if m.parent is not None:
            parent = self.store.get_match(m.parent)
            if parent is not None:
                return self.snapshot(parent, min(seq, m.fork_seq or 0))
        return None

    def bodies(self, loaded: Loaded, start: int = 1, stop: int | None = None) -> Iterator[tuple[StoredEntry, Any]]:
        for entry in self.entries(loaded.match, start, stop):
            yield entry, self.decode(loaded, entry.seq, entry.body)

    def folded(self, loaded: Loaded, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, Any]]:
        """``(seq, decoded body)`` of entries ``start..stop``: what a fold needs, read from the body
        column alone."""
        for seq, raw in self._read(loaded.match, start, stop, self.store.bodies):
            yield seq, self.decode(loaded, seq, raw)

    @staticmethod
    def decode(loaded: Loaded, seq: int, body: bytes) -> Any:
        """Entry ``seq``'s body, decoded (an entry that does not decode is a corrupt log)."""
        try:
            return loaded.decoder.decode(body)
        except msgspec.DecodeError as exc:
            raise StorageError.said(LogCode.CORRUPT, N_(
                "entry {entry} of match {match} cannot be decoded ({problem}); run `referee audit`"),
                entry=seq, match=loaded.match.id, problem=str(exc)) from None

    def state_at(self, loaded: Loaded, at: int | None = None, *, memo: MutableMapping[int, Any] | None = None,
                 checked: bool = False) -> tuple[int, Any]:
        """(seq, state) after entry ``at`` (default: the head).

        The fold starts from the nearest snapshot (or a state already known) and jumps for undo and
        redo entries to their targets' states. ``memo`` (seq -> state, default: this service's
        bounded memo for the match) keeps the states it computes, so an undo-heavy log never folds
        the same stretch twice: the state after an entry never changes (the log is append-only).
        ``checked`` (the audit's folds) starts only from a snapshot that checks out against the state
        hash recorded for its entry, and from no state kept by this service.
        """
        head = self.store.head(loaded.match.id)
        target = head if at is None else at
        if target < 0 or target > head:
            raise BadInput.said(MatchCode.BAD_SEQ, N_("entry {entry} does not exist: match {match} has entries 0..{head}"),
                                entry=target, match=loaded.match.id, head=head)
        cached = None if checked else self._heads.get(loaded.match.id)
        if cached is not None and cached[0] == target:
            return cached
        if memo is None:
            memo = self._memo(loaded.match.id)
        if target in memo:
            return target, memo[target]
        start, state = 0, loaded.initial
        if cached is not None and cached[0] < target:
            start, state = cached
        snap = self.snapshot(loaded.match, target) if self.use_snapshots else None
        # a snapshot is used only if its bytes hash to the state hash recorded for its entry (else
        # the one before it is tried): an edited snapshot is never served, and the audit names it
        while snap is not None and snap.seq > start:
            known = self.checked_snapshot(loaded, snap)
            if known is not None:
                start, state = snap.seq, known
                break
            snap = self.snapshot(loaded.match, snap.seq - 1)
        recent: OrderedDict[int, Any] = OrderedDict([(start, state)])
        for seq, body in self.folded(loaded, start + 1, target):
            state = self.advance(loaded, state, body, recent, memo, checked=checked)
            recent[seq] = state
            memo[seq] = state
            if len(recent) > 256:
                recent.popitem(last=False)
        memo[target] = state
        if target == head and not checked:
            self._heads[loaded.match.id] = (target, state)
        return target, state

    def snapshot_checks_out(self, loaded: Loaded, snap: StoredSnapshot) -> bool:
        """The snapshot's bytes hash to the state hash recorded for its entry, and decode."""
        return self.checked_snapshot(loaded, snap) is not None

    def checked_snapshot(self, loaded: Loaded, snap: StoredSnapshot) -> Any:
        """The snapshot's state if its bytes hash to the state hash recorded for its entry and decode;
        else None."""
        entry = self.entry_at(loaded.match, snap.seq)
        digest = core.sha256_hex(snap.state)
        if entry is None or entry.seq != snap.seq or digest != entry.state_hash or digest != snap.state_hash:
            return None
        try:
            return loaded.state_decoder.decode(snap.state)
        except msgspec.DecodeError:
            return None

    def _memo(self, match_id: str) -> MutableMapping[int, Any]:
        memo = self._memos.get(match_id)
        if memo is None:
            memo = self._memos[match_id] = _Bounded(4096)
            while len(self._memos) > 64:
                self._memos.pop(next(iter(self._memos)))
        return memo

    def advance(self, loaded: Loaded, state: Any, body: Any, recent: Mapping[int, Any] | None = None,
                memo: MutableMapping[int, Any] | None = None, *, checked: bool = False) -> Any:
        """The state after one entry: an intent's events, or an undo/redo's jump in time (to a
        state still in ``recent`` or ``memo``, else the snapshot written with the jump, else folded
        again from the nearest snapshot). An audit (``checked``) always derives the jump's state:
        the snapshot of the jump stands for the very state hash being checked."""
        act = body.act
        if isinstance(act, Move):
            return core.apply(loaded.rules, state, body.verdict)
        if isinstance(act, (Undo, Redo)) and isinstance(body.verdict, Accepted):
            target = act.target
            if recent is not None and target in recent:
                return recent[target]
            if memo is not None and target in memo:
                return memo[target]
            if self.use_snapshots and not checked:
                snap = self.snapshot(loaded.match, body.seq)
                if snap is not None and snap.seq == body.seq:
                    known = self.checked_snapshot(loaded, snap)
                    if known is not None:
                        return known
            return self.state_at(loaded, target, memo=memo, checked=checked)[1]
        if isinstance(act, (Ruling, Confirmation)):
            return core.apply(loaded.rules, state, body.verdict)
        return state

    def timeline(self, loaded: Loaded) -> Timeline:
        """Which entries are in effect, from the entry headers (undo and redo included). Kept per
        match and brought up to date incrementally, so an undo on a long log costs what is new."""
        cached = self._timelines.get(loaded.match.id)
        head = self.store.head(loaded.match.id)
        if cached is None or cached[0] > head:
            cached = (0, Timeline())
        seen, timeline = cached
        for h in self._headers(loaded, seen + 1, head):
            timeline.add(h)
        self._timelines[loaded.match.id] = (head, timeline)
        return timeline

    def open_hold(self, loaded: Loaded, head: int | None = None) -> tuple[int, str] | None:
        """The entry of the line of play that waits for a confirmation, and who gives it (see
        :meth:`Timeline.open_hold`). A kept timeline answers at once; without one (a fresh command) the
        head entry usually answers (the head is always in the line of play): from the entry this service
        appended last, else from the head's index columns (its body decoded only if it is held). Only a
        head that does not act (a rejection, an undo, a redo, a note) sends the reading further back, a few
        entries at a time, until the last entry that acted, so a ``referee play`` costs the same on a long
        match as on a short one. ``head``: the store's head, if the caller has just read it."""
        mid = loaded.match.id
        if mid in self._timelines:
            return self.timeline(loaded).open_hold()
        if head is None:
            head = self.store.head(mid)
        if head < 1:
            return None
        tip = self._tips.get(mid)
        waits = tip[2] if tip is not None and tip[0] == head else _UNKNOWN
        if waits is _UNKNOWN:
            for seq, kind, _actor, verdict_col, body in self.index(loaded.match, head, head):
                if verdict_col == "held" and body is not None:
                    decoded = self.decode(loaded, seq, body)
                    if isinstance(decoded.verdict, Held):
                        return seq, decoded.verdict.confirmer
                    kind, verdict_col = decoded.kind, verdict_name(decoded.verdict)
                waits = _waits_after(kind, verdict_col)
        if not isinstance(waits, _Unknown):
            return waits
        high, size = head - 1, 16
        while high >= 1:
            low = max(1, high - size + 1)
            undone = self.marks(loaded, low, high, head)
            for seq, body in reversed(list(self.folded(loaded, low, high))):
                if seq in undone:
                    continue
                verdict = body.verdict
                if isinstance(verdict, Held):
                    return seq, verdict.confirmer
                if body.kind == "confirm" or (body.kind in ("intent", "ruling") and isinstance(verdict, Accepted)):
                    return None
            high, size = low - 1, size * 4
        return None

    def marks(self, loaded: Loaded, start: int, stop: int, head: int) -> dict[int, int]:
        """Which of the entries ``start..stop`` are undone, and by which undo (the whole log's timeline
        gives the same marks): worked out from the accepted undos and redos ``start..head`` alone, so
        a page of the log costs what it shows and the jumps after it (:func:`referee.timeline.undone_marks`)."""
        return undone_marks(start, stop, self.jumps(loaded, start, head)) if start <= stop else {}

    def jumps(self, loaded: Loaded, start: int, stop: int) -> list[Jump]:
        """The accepted undos and redos ``start..stop`` (through a fork's parents), as ``(seq, kind,
        to | undo)``. Kept per match (the log is append-only): the next page reads only what is new."""
        mid = loaded.match.id
        low, high, rows = self._jumps.get(mid) or (start, start - 1, [])
        if start < low:
            rows = self._read_jumps(loaded, start, low - 1) + rows
            low = start
        if high < stop:
            rows = rows + self._read_jumps(loaded, high + 1, stop)
            high = stop
        self._jumps.pop(mid, None)
        self._jumps[mid] = (low, high, rows)
        while len(self._jumps) > 64:
            self._jumps.pop(next(iter(self._jumps)))
        first = bisect.bisect_left(rows, start, key=lambda j: j[0])
        last = bisect.bisect_right(rows, stop, key=lambda j: j[0])
        return rows[first:last]

    def _read_jumps(self, loaded: Loaded, start: int, stop: int) -> list[Jump]:
        out: list[Jump] = []
        for match_id, low, high in self._spans(loaded.match, start, stop):
            for seq, _kind, body in self.store.jumps(match_id, low, high):
                act = self.act_of(loaded, seq, body)
                if isinstance(act, Undo):
                    out.append((seq, "undo", act.to))
                elif isinstance(act, Redo):
                    out.append((seq, "redo", act.undo))
        return out

    def over(self, loaded: Loaded) -> bool:
        """Whether the match is over now (at its head): a digital match's seed is public from then on."""
        return loaded.rules.outcome(self.state_at(loaded)[1]) is not None

    def walk(self, loaded: Loaded, view: View, start: int = 1, stop: int | None = None,
             ) -> Iterator[tuple[EntryView, tuple[Any, ...], Any]]:
        """Entries ``start..stop`` one at a time, each as ``view`` sees it, with its events as the view
        sees them and the state after it (one fold from the nearest snapshot, nothing kept: a long log
        streams)."""
        head = self.store.head(loaded.match.id)
        stop = head if stop is None else min(stop, head)
        notes = annotations_by_entry(self.annotations_on(loaded, start, stop))
        marks = self.marks(loaded, start, stop, head)
        _, state = self.state_at(loaded, start - 1)
        recent: OrderedDict[int, Any] = OrderedDict([(start - 1, state)])
        for entry, body in self.bodies(loaded, start, stop):
            state = self.advance(loaded, state, body, recent)
            recent[entry.seq] = state
            if len(recent) > 256:
                recent.popitem(last=False)
            shown, events = view.entry(entry, body, undone_by=marks.get(entry.seq), annotations=notes.get(entry.seq, ()))
            yield shown, events, state

    def forks_of(self, m: StoredMatch) -> list[StoredMatch]:
        """The matches forked from ``m`` itself (its variations), in the store's order of matches."""
        return [f for f in self.store.list_matches() if f.parent == m.id]

    # -- the seed in force -------------------------------------------------------------------

    def seed_in_force(self, loaded: Loaded, before: int) -> int | None:
        """The seed entry ``before`` draws its chance outcomes from (None for a physical match): the fresh
        secret of the latest reopening of a finished match before it in the log (an arbiter's undo, or the
        first entry of a fork of a finished match), else the match's own seed. The latest in the log, not
        on the line: every earlier secret was read by every role when the match ended, so no later entry
        ever draws from one again, whatever line it is on."""
        if loaded.config.chance != "digital":
            return None
        found = self.reseeds(loaded, before - 1)
        return found[-1][1] if found else loaded.config.seed

    def reseeds(self, loaded: Loaded, stop: int) -> list[tuple[int, int]]:
        """``(seq, secret)`` of the reopenings among entries ``1..stop`` (through a fork's parents), in
        order. Kept per match (the log is append-only): a later call reads only what is new, from the
        index of undos and a fork's first entry."""
        mid = loaded.match.id
        high, rows = self._reseeds.get(mid) or (0, [])
        if high < stop:  # (what was read stays true: the head is read only when more may be there)
            stop = min(stop, self.store.head(mid))
        if high < stop:
            rows = rows + self._read_reseeds(loaded, high + 1, stop)
            high = stop
            self._reseeds.pop(mid, None)
            self._reseeds[mid] = (high, rows)
            while len(self._reseeds) > 64:
                self._reseeds.pop(next(iter(self._reseeds)), None)
        elif mid not in self._reseeds:  # kept even when empty, so that an append can bring it up to date
            self._reseeds[mid] = (high, rows)
        return [r for r in rows if r[0] <= stop]

    def _read_reseeds(self, loaded: Loaded, start: int, stop: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        for match_id, low, high in self._spans(loaded.match, start, stop):
            m = self.store.get_match(match_id)
            if m is not None and m.parent is not None and low == (m.fork_seq or 0) + 1:
                for entry in self.store.entries(match_id, low, low):  # a fork's first entry may be a Reopen
                    secret = fresh_secret(self.act_of(loaded, entry.seq, entry.body))
                    if secret is not None:
                        out.append((entry.seq, secret))
            for seq, _kind, body in self.store.jumps(match_id, low, high):
                if b"reopen_undo" not in body and b"\\u" not in body:  # not a Reopening's tag: not decoded
                    continue
                secret = fresh_secret(self.act_of(loaded, seq, body))
                if secret is not None:
                    out.append((seq, secret))
        return sorted(out)

    def holder(self, m: StoredMatch, seq: int) -> str:
        """The id of the match that holds entry ``seq`` of ``m`` (a fork's parent for its shared history)."""
        while m.parent is not None and seq <= (m.fork_seq or 0):
            parent = self.store.get_match(m.parent)
            if parent is None:
                break
            m = parent
        return m.id

    def reopening_problem(self, loaded: Loaded, seq: int, act: Act, accepted: bool, over: bool) -> str | None:
        """What is wrong with entry ``seq``'s fresh secret, if anything: an accepted undo of a finished
        digital match must carry one (a :class:`Reopening`), committed to as its entry says; nothing else
        may, except a fork's first entry (a :class:`Reopen`)."""
        digital = loaded.config.chance == "digital"
        if isinstance(act, Undo):
            needed = accepted and over and digital
            if needed != isinstance(act, Reopening):
                return ("an undo of the finished match without a fresh secret" if needed
                        else "a fresh secret on an undo that reopens no finished digital match")
        if isinstance(act, Reopen):
            m = self.store.get_match(self.holder(loaded.match, seq))
            if not digital or m is None or m.parent is None or seq != (m.fork_seq or 0) + 1:
                return "a reopening that is not the first entry of a fork of a digital match"
        if isinstance(act, (Reopening, Reopen)):
            expected = core.reseed_commitment(self.holder(loaded.match, seq), seq, act.secret)
            if act.commitment != expected:
                return f"the fresh secret does not match its commitment {act.commitment} (derived {expected})"
        return None

    def act_of(self, loaded: Loaded, seq: int, body: bytes) -> Act:
        """Entry ``seq``'s act alone (an undo's target...): the rest of the body is skipped, not decoded."""
        try:
            light = _ACT_OF.decode(body)
        except msgspec.DecodeError:
            light = None
        return light.act if isinstance(light, _ActOf) else self.decode(loaded, seq, body).act

    def annotations_on(self, loaded: Loaded, start: int, stop: int) -> list[StoredAnnotation]:
        """The match's annotations of entries ``start..stop``, in the order they were added."""
        return self.store.annotations_on(loaded.match.id, start, stop)

    def _headers(self, loaded: Loaded, start: int = 1, stop: int | None = None) -> Iterator[Header]:
        for seq, body in self.folded(loaded, start, stop):
            yield Header(
                seq=seq, kind=body.kind, actor=body.actor,
                accepted=isinstance(body.verdict, Accepted), meta=body.meta,
                held=body.verdict.confirmer if isinstance(body.verdict, Held) else None,
            )

    def snapshots_of(self, m: StoredMatch) -> list[StoredSnapshot]:
        """The snapshots along a match's log, newest first: its own after its fork point, then its
        parents' up to it (what :meth:`snapshot` would find stepping back from the head), one read of
        the store per match of the line."""
        out: list[StoredSnapshot] = []
        limit = self.store.head(m.id)
        line: StoredMatch | None = m
        while line is not None:
            base = line.fork_seq or 0
            out.extend(s for s in reversed(self.store.snapshots(line.id)) if base < s.seq <= limit)
            if line.parent is None:
                break
            limit = min(limit, base)
            line = self.store.get_match(line.parent)
        return out

    def decide_undo(self, loaded: Loaded, timeline: Timeline, actor: str, to: int,
                    over: bool = False) -> Accepted[Any] | Rejected:
        """An undo's verdict: the match's undo policy; a finished match (``over``) only the arbiter reopens."""
        if over and actor != ARBITER:
            return Rejected(*_FINISHED, "finished match")
        problem = timeline.check_undo(actor, to, loaded.config.undo)
        return Rejected(problem[0], problem[1], "undo policy") if problem else Accepted(())

    def decide_redo(self, loaded: Loaded, timeline: Timeline, actor: str, undo: int,
                    over: bool = False) -> Accepted[Any] | Rejected:
        if over and actor != ARBITER:
            return Rejected(*_FINISHED, "finished match")
        problem = timeline.check_redo(actor, undo, loaded.config.undo)
        return Rejected(problem[0], problem[1], "undo policy") if problem else Accepted(())

    def decide_confirm(self, loaded: Loaded, state: Any, intent: Any, act: Confirmation,
                        seq: int) -> Accepted[Any] | Rejected:
        """A confirmation's verdict: the held intent adjudicated as confirmed; a declined one changes nothing."""
        if act.decision == "decline":
            return Accepted(())
        chance = core.play_chance(loaded.config, self.seed_in_force(loaded, seq))
        _, verdict = core.adjudicate(loaded.rules, state, act.seat, intent, chance, confirmed=True)
        assert not isinstance(verdict, Held)
        return verdict

    def decide_ruling(self, loaded: Loaded, state: Any, intent: Any, act: Ruling, seq: int) -> Accepted[Any] | Rejected:
        seat = act.seat
        waive = frozenset(act.waive)
        if any(c.split("/")[0] in ("turn", "match") for c in waive):
            return Rejected(RulingCode.CANNOT_WAIVE, "a ruling can waive the game's own checks, not turn order or the end of the match")
        chance = core.play_chance(loaded.config, self.seed_in_force(loaded, seq))
        # the arbiter sees everything: a ruling needs no confirmation
        _, verdict = core.adjudicate(loaded.rules, state, seat, intent, chance, waive=waive, confirmed=True)
        assert not isinstance(verdict, Held)
        if isinstance(verdict, Rejected):
            # recorded in English (hashed); read through the game's templates (referee.i18n.refusal)
            return Rejected(RulingCode.STILL_ILLEGAL, STILL_ILLEGAL.format(waived=", ".join(sorted(waive)),
                                                                           code=verdict.code, reason=verdict.message),
                            verdict.rule)
        return verdict


class _Unknown:
    """What waits after an entry, when its index columns do not tell (see :func:`_waits_after`)."""


_UNKNOWN = _Unknown()


def _waits_after(kind: str, verdict: str) -> tuple[int, str] | None | _Unknown:
    """What waits for a confirmation once an entry of this kind and verdict (index columns) is the head:
    nothing after a confirmation or an accepted move or ruling (it acted); unknown otherwise (a held move
    names its confirmer in its body; what does not act leaves the answer to the entries before it)."""
    if kind == "confirm" or (kind in ("intent", "ruling") and verdict == "accepted"):
        return None
    return _UNKNOWN


def seal_annotations(match_id: str, notes: Sequence[StoredAnnotation],
                     after: StoredAnnotation | None = None) -> list[StoredAnnotation]:
    """``notes`` with their places in the match's annotation chain filled in (``n``, ``prev_hash`` and
    ``hash``), following ``after`` (the match's last annotation so far, None for the first)."""
    n, prev = (after.n, after.hash) if after is not None else (0, core.annotations_root(match_id))
    out = []
    for note in notes:
        n += 1
        digest = core.annotation_hash(prev, match_id=match_id, n=n, seq=note.seq, kind=note.kind, text=note.text,
                                      by=note.by, audience=note.audience)
        out.append(msgspec.structs.replace(note, n=n, prev_hash=prev, hash=digest))
        prev = digest
    return out


def expect_head(match_id: str, head: int, expected_seq: int | None, *, reload: bool = False) -> None:
    """The one check of a writer's expected head: a writer that names a sequence number other than the
    match's head gets a conflict with the current head (``detail.head``) and nothing is written. ``reload``:
    the conflict says to reload and submit again (a move's)."""
    if expected_seq is not None and expected_seq != head:
        err = ConflictError.said(MatchCode.STALE_SEQ, N_("match {match} is at entry {head}, not {expected}; reload and "
                                                         "submit again") if reload else N_(
            "match {match} is at entry {head}, not {expected}"), match=match_id, head=head, expected=expected_seq)
        err.detail = {"head": head}
        raise err
