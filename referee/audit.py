"""The audit: re-adjudicate a match's whole log and check everything that was recorded.

Every entry is checked in order: its seq follows the one before, its ``prev_hash`` is the hash of
the entry before, its own hash is the hash of its bytes, the bytes decode, the index columns match
the body, the verdict re-derived now under the referee's rules equals the recorded one, and the state
hash after it equals the hash of the state derived now. Snapshots are checked last, against the
derived state hashes. The report names the first divergence exactly.

**In parallel.** A long log can be checked by several processes at once (``jobs``). It is cut into
chunks at snapshots, and only at snapshots whose bytes hash to the state hash the log records for
their entry. Each process walks from the start of a chunk and on into the next while nobody has
taken it; when it runs into a taken chunk it starts again in the middle of the longest run of
chunks nobody took, so a process slowed down by the machine simply does less. A walk that starts at
a snapshot is sound because the walk before it re-derives that very state hash. The walks tile the
log; the first one with a finding decides the report, exactly as a single pass would stop there,
and nobody takes a chunk after a finding. Each process reads the log through its own connection
(``Store.reopen``); a store that lives in one process's memory is audited in one pass.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from schemas.http import AuditAnswer, Finding

from .engine import core
from .engine.entries import Confirmation, Move, Redo, Reopen, Ruling, Undo, fresh_secret
from .engine.protocol import Accepted, Held, Rejected
from .config import Configuration, Loaded
from .errors import RefereeError
from .history import History
from .inputs import same_head
from .redaction import verdict_name
from .store import Store
from .timeline import Header, Timeline
from .engine.codes import ConfirmCode, ReopenCode

#: the fewest entries worth a process of their own (forking and reading the prefix cost ~20 ms)
MIN_STRETCH = 1500
#: how often (entries) a stretch reports its progress
TICK = 256
#: chunks a process has to take, about (a process that finishes early takes over part of another's)
CHUNKS_PER_JOB = 8
#: the fewest entries in a chunk
MIN_CHUNK = 400
#: how many of the latest states a stretch keeps for undo targets
WINDOW = 8192


class Audited(Protocol):
    """What an audit reads: the store (opened again by the processes that check stretches), the matches'
    configurations and their histories over it (:class:`referee.service.Referee` is one)."""

    @property
    def store(self) -> Store: ...

    @property
    def configuration(self) -> Configuration: ...

    @property
    def history(self) -> History: ...


@dataclass(frozen=True)
class Reopened:
    """An audit's reading through another connection to the store (a forked process's own)."""

    store: Store
    configuration: Configuration
    history: History

    @classmethod
    def of(cls, books: Audited, store: Store) -> Reopened:
        return cls(store, books.configuration.with_store(store), books.history.with_store(store))


@dataclass
class Stretch:
    """What one run of the audit checked: entries ``start+1 .. stop`` (up to a finding)."""

    start: int
    checked: int = 0
    #: the seq after the last entry read (a single pass uses it to find entries missing at the end)
    expected: int = 0
    findings: list[Finding] = field(default_factory=list)
    #: after each entry that has a snapshot: the derived state hash, and whether the snapshot's bytes are
    #: the derived state's canonical bytes (then they hash to it: the snapshot is not hashed again)
    derived: dict[int, tuple[str, bool]] = field(default_factory=dict)

    @property
    def stop(self) -> int:
        return self.expected - 1


def default_jobs() -> int:
    """Processes an audit may use: the cores this process may run on, at most 8."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(8, cores))


def can_fork() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def _can_share(books: Audited) -> bool:
    """Other processes can take part: fork is there and the store can be opened again."""
    if not can_fork():
        return False
    probe = books.store.reopen()
    if probe is None:
        return False
    probe.close()
    return True


@contextlib.contextmanager
def _batch_gc() -> Iterator[None]:
    """No cyclic garbage collection while entries are walked. States are frozen structs and tuples
    that reference counting frees; what the collector would do is walk the thousands of states kept
    for undo targets again and again (10-20% of an audit). One collection at the end instead."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
            gc.collect(0)


def run(books: Audited, match_id: str, progress: Callable[[int, int], None] | None = None,
        jobs: int = 1, *, accept_rules_change: bool = False) -> AuditAnswer:
    m = books.configuration.resolve(match_id)
    head = books.store.head(m.id)
    notes: list[str] = []
    # the record before the first entry: the configuration and the rules it was played under
    findings = record_findings(books.configuration, m, accept_rules_change, notes)
    checked = 0
    last: Stretch | None = None
    if not findings:
        loaded = books.configuration.load(m.id)
        snapshots = books.history.snapshots_of(m)  # newest first, read at once
        want = {s.seq: s.state for s in snapshots}
        bounds = plan(books, loaded, snapshots, head, jobs)
        with _batch_gc():
            stretches = _run(books, loaded, bounds, want, head, progress, jobs)
        derived: dict[int, tuple[str, bool]] = {}
        last = stretches[-1]
        for s in stretches:
            checked += s.checked
            derived.update(s.derived)
            if s.findings:
                findings = s.findings
                last = s
                break
        if not findings:
            for snap in snapshots:
                want_hash, same = derived.get(snap.seq, ("", False))
                if not same or snap.state_hash != want_hash:
                    findings.append(Finding(seq=snap.seq, what="snapshot", recorded=core.sha256_hex(snap.state),
                                            derived=want_hash))
                    break
        if not findings and last.expected - 1 != head:
            findings.append(Finding(seq=head, what="missing", recorded=f"head {head}",
                                    derived=f"entries end at {last.expected - 1}"))
    annotations = books.store.annotations(m.id)
    if not findings:
        findings = annotation_findings(m.id, annotations, head)
    if not findings:
        findings = summary_findings(books, m.id, head, notes)
    last_entry = books.history.entry_at(m, head) if head else None
    entries_hash = last_entry.hash if last_entry is not None else m.genesis_hash
    annotations_hash = annotations[-1].hash if annotations else core.annotations_root(m.id)
    current = books.configuration.game(m.game).rules_version if not any(f.what == "game" for f in findings) else ""
    return AuditAnswer(
        match_id=m.id, clean=not findings, entries=checked, head=head, findings=findings, notes=notes,
        rules_version=m.rules_version, current_rules_version=current,
        head_hash=core.head_seal(entries_hash=entries_hash, annotations_hash=annotations_hash, title=m.title,
                                 parent=m.parent, fork_seq=m.fork_seq),
        entries_hash=entries_hash, annotations=len(annotations), annotations_hash=annotations_hash,
    )


def expecting(report: AuditAnswer, expected: str) -> AuditAnswer:
    """``report`` with a finding (``head``) if its head is not ``expected``: the head printed before,
    kept with a result, shows that something of the record changed since (a cut at the end, a title)."""
    if same_head(expected, report.head_hash):
        return report
    found = Finding(seq=report.head, what="head", recorded=report.head_hash,
                    derived=f"{expected.strip()} (expected: the record changed since that head was printed)")
    return msgspec.structs.replace(report, clean=False, findings=[*report.findings, found])


def record_findings(configuration: Configuration, m: Any, accept_rules_change: bool, notes: list[str]) -> list[Finding]:
    """What the record says before its first entry, checked: the stored configuration (players, options,
    card data, seed) and rules version hash to the match's genesis, which every entry chains from; a fork
    has its root's configuration; the game is the configuration's; the title of an imported or newly
    created match is the one in its configuration; and the rules the referee has now are the rules the
    match was played under (a difference fails the audit unless ``accept_rules_change``)."""
    from schemas import MatchConfig

    root = m
    seen = 0
    while root.parent is not None and seen < 10_000:
        parent = configuration.store.get_match(root.parent)
        if parent is None:
            return [Finding(seq=0, what="fork", recorded=f"a fork of {root.parent}", derived="no such match")]
        root, seen = parent, seen + 1
    try:
        config = msgspec.json.decode(root.config, type=MatchConfig)
    except msgspec.DecodeError as exc:
        return [Finding(seq=0, what="config", recorded="the stored configuration", derived=f"cannot be read: {exc}")]
    derived = core.genesis_hash(root.id, root.rules_version, config)
    if m.genesis_hash != derived:
        return [Finding(seq=0, what="genesis", recorded=m.genesis_hash,
                        derived=f"{derived} (the configuration or the rules version was changed after the match was created)")]
    if m is not root and (m.config != root.config or m.rules_version != root.rules_version or m.game != root.game):
        return [Finding(seq=0, what="fork", recorded="the fork's configuration", derived=f"differs from {root.id}'s")]
    if m.game != config.game:
        return [Finding(seq=0, what="game", recorded=m.game, derived=config.game)]
    # a new match's title is in its configuration (an empty one too): the genesis covers it. A fork's name
    # (a fork shares its root's configuration) and the title of a match created before titles went into
    # the configuration are covered by the head only: the audit says so
    if m.parent is None and "title" in config.meta:
        if m.title != config.meta["title"]:
            return [Finding(seq=0, what="title", recorded=m.title, derived=config.meta["title"] or "(no title)")]
    elif m.title:
        whose = "a fork's name" if m.parent is not None else "this match's configuration holds no title (it predates them)"
        notes.append(f"the title {m.title!r} is covered by the head only ({whose}): compare the head kept")
    try:
        current = configuration.game(m.game).rules_version
    except RefereeError:
        return [Finding(seq=0, what="game", recorded=m.game, derived="this referee does not know that game")]
    if m.rules_version != current:
        if not accept_rules_change:
            return [Finding(seq=0, what="rules_version", recorded=m.rules_version,
                            derived=f"{current} (the referee's rules changed since; audit with --accept-rules-change "
                                    "to re-adjudicate under the new rules)")]
        notes.append(
            f"recorded under {m.game} rules {m.rules_version}; the referee now has rules {current} "
            "(verdicts are re-derived with the new rules, as asked)"
        )
    return []


#: what of a summary the audit compares with the one it rebuilds: what the log and the configuration derive.
#: Not the clock readings (created_at, last_activity: no evidence), nor what the summary copies from the
#: match's row (game, rules version, parent, fork point, title), which the checks before hold to the
#: genesis hash and the head
SUMMARY_FIELDS = ("status", "outcome", "head", "head_hash", "seats", "event", "round", "table", "seed_commitment")


def summary_findings(books: Audited, match_id: str, head: int, notes: list[str]) -> list[Finding]:
    """The match's summary (what listings, standings and ratings read) against the one rebuilt from its
    log: the first field that differs is a finding (a summary row changed behind the referee's back, or
    written by a bug). A match without one is noted (a listing builds it)."""
    from .summaries import rebuild

    kept = books.store.summary(match_id)
    if kept is None:
        notes.append("no summary is kept for this match yet (the first listing of the matches builds it)")
        return []
    derived = rebuild(books, match_id)
    for name in SUMMARY_FIELDS:
        got, want = getattr(kept, name), getattr(derived, name)
        if got != want:
            return [Finding(seq=head, what="summary", recorded=f"{name} {_shown(got)}",
                            derived=f"{name} {_shown(want)} (rebuild it: `referee db summaries`)")]
    return []


def _shown(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _same_refusal(recorded: Any, derived: Any) -> bool:
    """Two refusals with the same code and rule are the same verdict: the message is words for a person
    (a later version may say it better, e.g. suggest the closest card), not the adjudication. The
    recorded words stay what the log says; the entry's hash still covers them."""
    return (isinstance(recorded, Rejected) and isinstance(derived, Rejected)
            and recorded.code == derived.code and recorded.rule == derived.rule)


def annotation_findings(match_id: str, annotations: list[Any], head: int) -> list[Finding]:
    """The annotations' chain: numbered 1, 2, ... in order, each chained to the one before by hash, each
    hash the hash of its own body, each on an entry of the log (0: the match)."""
    prev = core.annotations_root(match_id)
    for i, a in enumerate(annotations, start=1):
        where = f"annotation {a.n} (on entry {a.seq})"
        if a.n != i:
            return [Finding(seq=a.seq, what="annotation", recorded=where,
                            derived=f"annotation {i} (one was removed, inserted or reordered)")]
        if a.prev_hash != prev:
            return [Finding(seq=a.seq, what="annotation", recorded=f"{where} chains to {a.prev_hash}",
                            derived=prev)]
        digest = core.annotation_hash(prev, match_id=match_id, n=a.n, seq=a.seq, kind=a.kind, text=a.text, by=a.by,
                                      audience=a.audience)
        if digest != a.hash:
            return [Finding(seq=a.seq, what="annotation", recorded=f"{where}: {a.hash}",
                            derived=f"{digest} (its text, kind, author or entry was changed)")]
        if not 0 <= a.seq <= head:
            return [Finding(seq=a.seq, what="annotation", recorded=where, derived=f"entries 0..{head}")]
        prev = digest
    return []


def run_many(books: Audited, match_ids: list[str], progress: Callable[[int, int], None] | None = None,
             jobs: int = 1, *, accept_rules_change: bool = False) -> list[AuditAnswer]:
    """Audit several matches (reports in the order given). A match long enough for stretches is
    audited in stretches, one after another; the shorter ones are shared out among ``jobs``
    processes, a whole match each."""
    heads = {mid: books.store.head(books.configuration.resolve(mid).id) for mid in match_ids}
    total = sum(heads.values())
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    def alone(mid: str) -> AuditAnswer:
        def inner(d: int, _t: int) -> None:
            if progress is not None:
                progress(done + d, total)

        report = run(books, mid, inner, jobs, accept_rules_change=accept_rules_change)
        step(heads[mid])
        return report

    reports: dict[str, AuditAnswer] = {}
    shared = [mid for mid in match_ids if heads[mid] < 2 * MIN_STRETCH]
    if jobs <= 1 or len(shared) < 2 or not _can_share(books):
        shared = []
    for mid in match_ids:
        if mid not in shared:
            reports[mid] = alone(mid)
    if shared:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(min(jobs, len(shared)), initializer=_pool_start,
                      initargs=(books, accept_rules_change)) as pool:
            for mid, report in zip(shared, pool.imap(_pool_audit, shared, chunksize=4), strict=True):
                reports[mid] = report
                step(heads[mid])
    return [reports[mid] for mid in match_ids]


_POOL: list[Any] = []


def _pool_start(books: Audited, accept_rules_change: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # keep the connection that came with the fork (never close or use it here); read through a new one
    store = books.store.reopen()
    assert store is not None
    _POOL[:] = [Reopened.of(books, store), books.store, accept_rules_change]


def _pool_audit(match_id: str) -> AuditAnswer:
    return run(_POOL[0], match_id, None, 1, accept_rules_change=_POOL[2])


def plan(books: Audited, loaded: Loaded, snapshots: list[Any], head: int, jobs: int) -> list[int]:
    """Chunk boundaries ``[0, c1, ..., head]`` for ``jobs`` processes: about :data:`CHUNKS_PER_JOB`
    chunks a process, none shorter than :data:`MIN_CHUNK` entries, each after the first starting at a
    snapshot that checks out against the state hash recorded for its entry. ``[0, head]`` when the
    log is too short to share (fewer than :data:`MIN_STRETCH` entries a process) or cannot be."""
    n = min(jobs, head // MIN_STRETCH)
    if n <= 1 or not _can_share(books):
        return [0, head]
    size = max(MIN_CHUNK, head // (n * CHUNKS_PER_JOB))
    bounds = [0]
    for snap in sorted((s for s in snapshots if 0 < s.seq < head), key=lambda s: s.seq):
        if (snap.seq - bounds[-1] >= size and head - snap.seq >= size // 2
                and books.history.snapshot_checks_out(loaded, snap)):
            bounds.append(snap.seq)
    bounds.append(head)
    return bounds if len(bounds) > 2 else [0, head]


class _Board:
    """Which chunks are taken, shared by the audit's processes (a lock and two arrays)."""

    def __init__(self, ctx: Any, chunks: int, jobs: int) -> None:
        self.lock = ctx.Lock()
        self.taken = ctx.Array("b", chunks, lock=False)
        #: the first chunk where some process found something: later chunks need no checking
        self.stop = ctx.Value("q", chunks, lock=False)
        self.done = ctx.Array("q", jobs, lock=False)

    def take(self, k: int) -> bool:
        with self.lock:
            if k >= self.stop.value or self.taken[k]:
                return False
            self.taken[k] = 1
            return True

    def take_far(self) -> int | None:
        """The middle chunk of the longest run of chunks nobody took (a process that ran into a taken
        chunk starts again there, so that the one before it keeps its own run)."""
        with self.lock:
            best: tuple[int, int] | None = None
            k = 0
            limit = self.stop.value
            while k < limit:
                if self.taken[k]:
                    k += 1
                    continue
                j = k
                while j < limit and not self.taken[j]:
                    j += 1
                if best is None or j - k > best[1] - best[0]:
                    best = (k, j)
                k = j
            if best is None:
                return None
            start, end = best
            # a run right after a taken chunk: its owner goes on into it, so start in its second half
            pick = start if start == 0 or end - start == 1 else start + (end - start) // 2
            self.taken[pick] = 1
            return pick

    def found(self, k: int) -> None:
        with self.lock:
            self.stop.value = min(self.stop.value, k + 1)


def _work(history: History, loaded: Loaded, bounds: list[int], want: Mapping[int, bytes], board: _Board, me: int,
          first: int | None, tick: Callable[[], None] | None) -> list[Stretch]:
    """Check chunks from ``first`` on while the next one is free, then start again where the longest
    run of free chunks is; one :class:`Stretch` per run."""
    out: list[Stretch] = []
    done_before = 0
    k = first
    while k is not None:
        walker = Walker(history, loaded, bounds[k], want)

        def progress(done: int, base: int = done_before) -> None:
            board.done[me] = base + done
            if tick is not None:
                tick()

        while True:
            if not walker.run(bounds[k + 1], progress):
                board.found(k)
                break
            if k + 1 < len(bounds) - 1 and board.take(k + 1):
                k += 1
                continue
            break
        out.append(walker.result)
        done_before += walker.result.checked
        k = board.take_far()
    return out


def _run(books: Audited, loaded: Loaded, bounds: list[int], want: Mapping[int, bytes], head: int,
         progress: Callable[[int, int], None] | None, jobs: int) -> list[Stretch]:
    chunks = len(bounds) - 1
    if chunks == 1:
        return [_walk(books.history, loaded, want, 0, head, None if progress is None else lambda done: progress(done, head))]
    jobs = min(jobs, chunks)
    ctx = multiprocessing.get_context("fork")
    board = _Board(ctx, chunks, jobs)
    firsts = [round(i * chunks / jobs) for i in range(jobs)]
    for k in firsts:
        board.taken[k] = 1
    children = []
    for i in range(1, jobs):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(books, loaded, bounds, want, board, i, firsts[i], send), daemon=True)
        proc.start()
        send.close()
        children.append((proc, recv))

    def tick() -> None:
        if progress is not None:
            progress(min(sum(board.done[:]), head), head)

    try:
        results = _work(books.history, loaded, bounds, want, board, 0, firsts[0], tick)
        for proc, recv in children:
            try:
                while not recv.poll(0.1):
                    tick()
                results.extend(recv.recv())
            except (EOFError, OSError):
                pass  # the process failed: its chunks are checked below
            proc.join()
    finally:  # interrupted (Ctrl-C) or failed here: the other processes stop too
        for proc, _recv in children:
            if proc.is_alive():
                proc.terminate()
                proc.join()
    results.sort(key=lambda r: r.start)
    # the runs tile the log up to the first finding; what a failed process left is checked here
    tiled: list[Stretch] = []
    at = 0
    for r in results:
        if r.start > at:
            gap = _walk(books.history, loaded, want, at, r.start)
            tiled.append(gap)
            at = gap.stop
            if gap.findings:
                break
        if r.start != at:
            continue
        tiled.append(r)
        at = r.stop
        if r.findings:
            break
    else:
        if at < head:
            tiled.append(_walk(books.history, loaded, want, at, head))
    tick()
    return tiled


def _walk(history: History, loaded: Loaded, want: Mapping[int, bytes], start: int, stop: int,
          tick: Callable[[int], None] | None = None) -> Stretch:
    """One walk from ``start`` to ``stop`` in this process."""
    walker = Walker(history, loaded, start, want)
    walker.run(stop, tick)
    return walker.result


def _child(books: Audited, loaded: Loaded, bounds: list[int], want: Mapping[int, bytes], board: _Board, me: int,
           first: int, send: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops this one
    # the parent's connection came along with the fork: keep it (never close or use it here) and read
    # through a connection of this process's own
    inherited = books.store
    # whatever goes wrong here, the parent checks the chunks this process did not report
    with send, contextlib.suppress(BaseException):
        store = inherited.reopen()
        assert store is not None
        send.send(_work(books.history.with_store(store), loaded, bounds, want, board, me, first, None))


def _timeline_before(history: History, loaded: Loaded, start: int) -> Timeline:
    """The timeline of entries ``1..start`` from their index columns (the runs before this one check
    those against the bodies); only accepted undo and redo bodies are decoded, for their targets."""
    timeline = Timeline()
    decode = loaded.decoder.decode
    for seq, kind, actor, verdict, body in history.index(loaded.match, 1, start):
        accepted = verdict == "accepted"
        meta: dict[str, Any] = {}
        held = None
        if (accepted or verdict == "held") and body is not None:
            try:
                decoded = decode(body)
            except msgspec.DecodeError:  # a run before this one reports it
                accepted = False
            else:
                meta = decoded.meta
                held = decoded.verdict.confirmer if isinstance(decoded.verdict, Held) else None
        timeline.add(Header(seq=seq, kind=kind, actor=actor, accepted=accepted, meta=meta, held=held))
    return timeline


class Walker:
    """Checks entries in order from the state after entry ``start``; :meth:`run` goes on to a later
    entry as often as asked (a process that takes the next chunk just walks on)."""

    def __init__(self, history: History, loaded: Loaded, start: int, want: Mapping[int, bytes]) -> None:
        self.history, self.loaded, self.want = history, loaded, want
        m = loaded.match
        self.result = Stretch(start=start, expected=start + 1)
        if start == 0:
            state, self.prev, self.timeline = loaded.initial, m.genesis_hash, Timeline()
        else:  # a boundary plan() checked
            anchor = history.entry_at(m, start)
            snap = history.snapshot(m, start)
            assert anchor is not None and snap is not None and snap.seq == start
            state = loaded.state_decoder.decode(snap.state)
            self.prev = anchor.hash
            self.timeline = _timeline_before(history, loaded, start)
        self.state = state
        # states the audit itself derived, for undo and redo targets (never a cache from before: the
        # file may have been edited since); the last WINDOW entries' states, older ones folded again
        self.jumps: dict[int, Any] = {start: state}
        #: the state hashes of those states this walk derived (an undo back to one is not hashed again)
        self.hashes: dict[int, str] = {}
        self.hashed_state: Any = None
        self.hashed = ""
        self.canonical_state: bytes | None = b""
        #: the canonical bytes of the states as they come, reusing those of the fields a move left as they were
        self.encoder = core.StateEncoder(type(state))
        #: the seed moves are drawn from: the match's, or the fresh secret of its latest reopening
        self.seed = history.seed_in_force(loaded, start + 1)

    def run(self, stop: int, tick: Callable[[int], None] | None) -> bool:
        """Check the entries up to ``stop``; False at a finding (then the walk is over)."""
        history, loaded, want = self.history, self.loaded, self.want
        m = loaded.match
        rules = loaded.rules
        config = loaded.config
        decode = loaded.decoder.decode
        out = self.result
        findings = out.findings
        state, prev, timeline, jumps, hashes = self.state, self.prev, self.timeline, self.jumps, self.hashes
        hashed_state, hashed, canonical_state = self.hashed_state, self.hashed, self.canonical_state
        expected, checked = out.expected, out.checked
        state_bytes = self.encoder.encode
        for seq, kind_col, actor_col, verdict_col, code_col, raw, prev_col, hash_col, state_col in \
                history.audit_rows(m, expected, stop):
            if seq != expected:
                findings.append(Finding(seq=expected, what="missing",
                                        recorded=f"entry {seq} follows entry {expected - 1}",
                                        derived=f"entry {expected} (an entry was deleted or the log reordered)"))
                break
            expected += 1
            if prev_col != prev:
                findings.append(Finding(seq=seq, what="chain", recorded=prev_col, derived=prev))
                break
            derived_hash = core.entry_hash(prev, raw)
            if derived_hash != hash_col:
                findings.append(Finding(seq=seq, what="entry_hash", recorded=hash_col, derived=derived_hash))
                break
            try:
                body = decode(raw)
            except msgspec.DecodeError as exc:
                findings.append(Finding(seq=seq, what="decode", recorded="", derived=str(exc)))
                break
            kind = body.kind
            recorded = body.verdict
            code = recorded.code if isinstance(recorded, Rejected) else None
            if (body.seq != seq or kind_col != kind or actor_col != body.actor or code_col != code
                    or verdict_col != verdict_name(recorded)):
                findings.append(Finding(seq=seq, what="index_columns",
                                        recorded=repr((kind_col, actor_col, verdict_col, code_col)),
                                        derived=repr((kind, body.actor, verdict_name(recorded), code))))
                break
            verdict: Any = recorded
            act = body.act
            over = isinstance(act, (Undo, Redo, Reopen)) and rules.outcome(state) is not None
            if isinstance(act, Move) and body.intent is not None and body.actor is not None:
                _, verdict = core.adjudicate(rules, state, body.actor, body.intent, core.play_chance(config, self.seed),
                                             awaiting=timeline.open_hold(), confirmed=not body.source.blind)
            elif isinstance(act, Undo) and body.actor is not None:
                verdict = history.decide_undo(loaded, timeline, body.actor, act.to, over)
            elif isinstance(act, Redo) and body.actor is not None:
                verdict = history.decide_redo(loaded, timeline, body.actor, act.undo, over)
            elif isinstance(act, Reopen):
                verdict = Accepted(()) if body.actor == "arbiter" else Rejected(
                    ReopenCode.NOT_ARBITER, "only the arbiter reopens a finished match")
            elif isinstance(act, Ruling) and body.intent is not None:
                verdict = history.decide_ruling(loaded, state, body.intent, act, seq)
            elif isinstance(act, Confirmation) and body.intent is not None:
                verdict = _confirm_verdict(history, loaded, timeline, state, body, act, seq)
            # Struct equality is field by field, the same test as comparing canonical bytes but cheaper
            if verdict != recorded and core.canonical(verdict) != core.canonical(recorded) \
                    and not _same_refusal(recorded, verdict) \
                    and not rules.same_verdict(state, recorded, verdict):  # an older vocabulary of events
                findings.append(Finding(seq=seq, what="verdict", recorded=_verdict_text(recorded),
                                        derived=_verdict_text(verdict)))
                break
            if isinstance(act, (Undo, Reopen)):
                problem = history.reopening_problem(loaded, seq, act, isinstance(recorded, Accepted), over)
                if problem is not None:
                    findings.append(Finding(seq=seq, what="reopening", recorded=body.notation, derived=problem))
                    break
                secret = fresh_secret(act)
                if secret is not None:
                    self.seed = secret
            # the audit's own timeline reads an entry's fields (meta) only for an undo's or a redo's
            # target and for the move a confirmation answers
            timeline.add(Header(seq=seq, kind=kind, actor=body.actor, accepted=isinstance(recorded, Accepted),
                                meta=body.meta if kind in ("undo", "redo", "confirm") else {},
                                held=recorded.confirmer if isinstance(recorded, Held) else None))
            if kind == "intent":
                state = core.apply(rules, state, verdict)  # the derived verdict, equal to the recorded one
                # (a held intent changes nothing: apply leaves the state as it is)
            else:
                state = history.advance(loaded, state, body, jumps, jumps, checked=True)
            jumps[seq] = state
            jumps.pop(seq - WINDOW, None)
            if state is not hashed_state:  # a rejection or a note leaves the very same state
                hashed_state = state
                target = act.target if isinstance(act, (Undo, Redo)) else None
                if target is not None and target in hashes and jumps.get(target) is state:
                    hashed, canonical_state = hashes[target], None  # back to a state this walk hashed
                else:
                    canonical_state = state_bytes(state)
                    hashed = core.sha256_hex(canonical_state)
            if hashed != state_col:
                findings.append(Finding(seq=seq, what="state_hash", recorded=state_col, derived=hashed))
                break
            hashes[seq] = hashed
            hashes.pop(seq - WINDOW, None)
            snapshot = want.get(seq)
            if snapshot is not None:
                if canonical_state is None:
                    canonical_state = state_bytes(state)
                out.derived[seq] = (hashed, snapshot == canonical_state)
            prev = hash_col
            checked += 1
            if tick is not None and not checked % TICK:
                tick(checked)
        self.state, self.prev, self.hashed_state, self.hashed = state, prev, hashed_state, hashed
        self.canonical_state = canonical_state
        out.expected, out.checked = expected, checked
        if tick is not None:
            tick(checked)
        return not findings


def _confirm_verdict(history: History, loaded: Loaded, timeline: Timeline, state: Any, body: Any,
                     act: Confirmation, seq: int) -> Any:
    """What a confirmation entry must hold: it answers the entry that waits, by its confirmer or the
    arbiter, and carries that intent adjudicated as confirmed (or, declined, no effect)."""
    hold = timeline.open_hold()
    if hold is None or hold[0] != act.entry or body.actor not in (hold[1], "arbiter"):
        return Rejected(ConfirmCode.NOT_WAITING, f"entry {act.entry} did not wait for {body.actor}'s confirmation")
    return history.decide_confirm(loaded, state, body.intent, act, seq)


def _verdict_text(verdict: Any) -> str:
    if isinstance(verdict, Rejected):
        return f"rejected {verdict.code}"
    if isinstance(verdict, Accepted):
        return "accepted"
    return "none"
