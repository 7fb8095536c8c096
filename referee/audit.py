"""The audit: re-adjudicate a match's whole log and check everything that was recorded.

Every entry is checked in order: its seq follows the one before, its ``prev_hash`` is the hash of
the entry before, its own hash is the hash of its bytes, the bytes decode, the index columns match
the body, the verdict re-derived now under the referee's rules equals the recorded one, and the state
hash after it equals the hash of the state derived now. Snapshots are checked last, against the
derived state hashes. The report names the first divergence exactly.

**Stretches.** A long log can be checked as several stretches at once, one process each (``jobs``).
A stretch after the first starts from a snapshot: the snapshot's bytes hash to the state hash the
log records for its entry (checked before the stretch is planned), and the stretch before it
re-derives that very state hash, so a clean report says what a single pass would say. Findings are
merged in log order: the first stretch with a finding decides the report, exactly as a single pass
would stop there. A stretch's process reads the log through its own connection (``Store.reopen``);
a store that lives in one process's memory is audited in one pass.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec

from .engine import core
from .engine.protocol import Accepted, Rejected
from .timeline import Header, Timeline

if TYPE_CHECKING:
    from .service import Loaded, Referee

#: the fewest entries worth a process of their own (forking and reading the prefix cost ~20 ms)
MIN_STRETCH = 1500
#: how often (entries) a stretch reports its progress
TICK = 256
#: reading one entry's index columns before a stretch, as a share of auditing one entry
PREFIX_COST = 0.05
#: how many of the latest states a stretch keeps for undo targets
WINDOW = 8192


@dataclass
class Stretch:
    """What one stretch of the audit found."""

    start: int
    stop: int
    checked: int = 0
    #: the seq after the last entry read (a single pass uses it to find entries missing at the end)
    expected: int = 0
    findings: list[dict[str, Any]] = field(default_factory=list)
    #: the derived state hash after each entry that has a snapshot
    derived: dict[int, str] = field(default_factory=dict)


def default_jobs() -> int:
    """Processes an audit may use: the cores this process may run on, at most 8."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(8, cores))


def can_fork() -> bool:
    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def run(referee: Referee, match_id: str, progress: Callable[[int, int], None] | None = None,
        jobs: int = 1) -> dict[str, Any]:
    loaded = referee.load(match_id)
    m = loaded.match
    head = referee.store.head(m.id)
    notes: list[str] = []
    if m.rules_version != loaded.game.rules_version:
        notes.append(
            f"recorded under {loaded.game.id} rules {m.rules_version}; the referee now has rules "
            f"{loaded.game.rules_version} (verdicts are re-derived with the new rules)"
        )
    snapshots = referee._snapshots_of(m)  # newest first
    want = frozenset(s.seq for s in snapshots)
    bounds = plan(referee, loaded, snapshots, head, jobs)
    stretches = _run(referee, loaded, bounds, want, head, progress)
    findings: list[dict[str, Any]] = []
    checked = 0
    derived: dict[int, str] = {}
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
            want_hash = derived.get(snap.seq)
            got = core.sha256_hex(snap.state)
            if want_hash is None or got != want_hash or snap.state_hash != want_hash:
                findings.append({"seq": snap.seq, "what": "snapshot", "recorded": got, "derived": want_hash or ""})
                break
    if not findings and last.expected - 1 != head:
        findings.append({"seq": head, "what": "missing", "recorded": f"head {head}",
                         "derived": f"entries end at {last.expected - 1}"})
    last_entry = referee.entry_at(m, head) if head else None
    return {"match_id": m.id, "entries": checked, "head": head, "clean": not findings,
            "findings": findings, "notes": notes, "rules_version": m.rules_version,
            "current_rules_version": loaded.game.rules_version,
            "head_hash": last_entry.hash if last_entry is not None else m.genesis_hash}


def run_many(referee: Referee, match_ids: list[str], progress: Callable[[int, int], None] | None = None,
             jobs: int = 1) -> list[dict[str, Any]]:
    """Audit several matches (reports in the order given). A match long enough for stretches is
    audited in stretches, one after another; the shorter ones are shared out among ``jobs``
    processes, a whole match each."""
    heads = {mid: referee.store.head(referee.resolve(mid).id) for mid in match_ids}
    total = sum(heads.values())
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    def alone(mid: str) -> dict[str, Any]:
        def inner(d: int, _t: int) -> None:
            if progress is not None:
                progress(done + d, total)

        report = run(referee, mid, inner, jobs)
        step(heads[mid])
        return report

    reports: dict[str, dict[str, Any]] = {}
    shared = [mid for mid in match_ids if heads[mid] < 2 * MIN_STRETCH]
    if jobs <= 1 or len(shared) < 2 or not can_fork() or referee.store.reopen() is None:
        shared = []
    for mid in match_ids:
        if mid not in shared:
            reports[mid] = alone(mid)
    if shared:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(min(jobs, len(shared)), initializer=_pool_start, initargs=(referee,)) as pool:
            for mid, report in zip(shared, pool.imap(_pool_audit, shared, chunksize=4), strict=True):
                reports[mid] = report
                step(heads[mid])
    return [reports[mid] for mid in match_ids]


_POOL: list[Any] = []


def _pool_start(referee: Referee) -> None:
    # keep the connection that came with the fork (never close or use it here); read through a new one
    _POOL[:] = [referee, referee.store]
    store = referee.store.reopen()
    assert store is not None
    referee.store = store


def _pool_audit(match_id: str) -> dict[str, Any]:
    return run(_POOL[0], match_id, None, 1)


def plan(referee: Referee, loaded: Loaded, snapshots: list[Any], head: int, jobs: int) -> list[int]:
    """Stretch boundaries ``[0, b1, ..., head]``: at most ``jobs`` stretches of at least
    :data:`MIN_STRETCH` entries, each after the first starting at a snapshot that checks out against
    the state hash recorded for its entry.

    A later stretch also reads the index columns of every entry before it (for the undo timeline),
    at about :data:`PREFIX_COST` of an audited entry each, so later stretches are a little shorter:
    with ``q = 1 - PREFIX_COST`` every stretch costs the same when ``b[i+1] = q * b[i] + c``.
    """
    n = min(jobs, head // MIN_STRETCH)
    if n <= 1 or not can_fork() or referee.store.reopen() is None:
        return [0, head]
    by_seq = {s.seq: s for s in snapshots if 0 < s.seq < head}
    q = 1 - PREFIX_COST
    c = head * PREFIX_COST / (1 - q**n)
    bounds = [0]
    for k in range(1, n):
        aim = c * (1 - q**k) / PREFIX_COST
        for seq in sorted(by_seq, key=lambda s: (abs(s - aim), s)):
            if seq - bounds[-1] < MIN_STRETCH // 2 or head - seq < MIN_STRETCH // 2:
                continue
            if referee.snapshot_checks_out(loaded, by_seq[seq]):
                bounds.append(seq)
                break
    bounds.append(head)
    return bounds


def _run(referee: Referee, loaded: Loaded, bounds: list[int], want: frozenset[int], head: int,
         progress: Callable[[int, int], None] | None) -> list[Stretch]:
    n = len(bounds) - 1
    counts = [0] * n

    def report() -> None:
        if progress is not None:
            progress(min(sum(counts), head), head)

    def own_tick(done: int) -> None:
        counts[0] = done
        report()

    if n == 1:
        result = stretch(referee, loaded, 0, head, want, own_tick)
        report()
        return [result]
    ctx = multiprocessing.get_context("fork")
    shared = ctx.Array("q", n, lock=False)
    children = []
    for i in range(1, n):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(referee, loaded, bounds[i], bounds[i + 1], want, shared, i, send),
                           daemon=True)
        proc.start()
        send.close()
        children.append((proc, recv))

    def tick(done: int) -> None:
        counts[0] = done
        for i in range(1, n):
            counts[i] = shared[i]
        report()

    results = [stretch(referee, loaded, 0, bounds[1], want, tick)]
    for i, (proc, recv) in enumerate(children, 1):
        if results[-1].findings:  # the report is decided: the later stretches do not matter
            proc.terminate()
            proc.join()
            continue
        got: Stretch | None = None
        try:
            while not recv.poll(0.1):
                tick(counts[0])
            got = recv.recv()
        except (EOFError, OSError):
            got = None
        proc.join()
        if got is None:  # the process failed: check its stretch here instead
            got = stretch(referee, loaded, bounds[i], bounds[i + 1], want, None)
        counts[i] = got.checked
        results.append(got)
    report()
    return results


def _child(referee: Referee, loaded: Loaded, start: int, stop: int, want: frozenset[int], shared: Any, i: int,
           send: Any) -> None:
    # the parent's connection came along with the fork: keep it (never close or use it here) and read
    # through a connection of this process's own
    inherited = referee.store
    try:
        store = inherited.reopen()
        assert store is not None
        referee.store = store

        def tick(done: int) -> None:
            shared[i] = done

        send.send(stretch(referee, loaded, start, stop, want, tick))
    except BaseException:  # noqa: BLE001 - the parent checks this stretch itself
        pass
    finally:
        send.close()


def _timeline_before(referee: Referee, loaded: Loaded, start: int) -> Timeline:
    """The timeline of entries ``1..start`` from their index columns (the stretches before this one
    check those against the bodies); only accepted undo and redo bodies are decoded, for their targets."""
    timeline = Timeline()
    decode = loaded.decoder.decode
    for e in referee.entries(loaded.match, 1, start):
        accepted = e.verdict == "accepted"
        meta: dict[str, Any] = {}
        if accepted and e.kind in ("undo", "redo"):
            try:
                meta = decode(e.body).meta
            except msgspec.DecodeError:  # a stretch before this one reports it
                accepted = False
        timeline.add(Header(seq=e.seq, kind=e.kind, actor=e.actor, accepted=accepted, meta=meta))
    return timeline


def stretch(referee: Referee, loaded: Loaded, start: int, stop: int, want: frozenset[int],
            tick: Callable[[int], None] | None) -> Stretch:
    """Check entries ``start+1 .. stop``, from the state after entry ``start``."""
    from .service import entry_verdict_name

    m = loaded.match
    rules = loaded.rules
    config = loaded.config
    decode = loaded.decoder.decode
    out = Stretch(start=start, stop=stop)
    findings = out.findings
    if start == 0:
        state, prev, timeline = loaded.initial, m.genesis_hash, Timeline()
    else:  # an anchor plan() checked
        anchor = referee.entry_at(m, start)
        snap = referee._snapshot(m, start)
        assert anchor is not None and snap is not None and snap.seq == start
        state = loaded.state_decoder.decode(snap.state)
        prev = anchor.hash
        timeline = _timeline_before(referee, loaded, start)
    # states the audit itself derived, for undo and redo targets (never a cache from before: the
    # file may have been edited since); the last WINDOW entries' states, older ones folded again
    jumps: dict[int, Any] = {start: state}
    hashed_state: Any = None
    hashed = ""
    expected = start + 1
    checked = 0
    for entry in referee.entries(m, start + 1, stop):
        seq = entry.seq
        if seq != expected:
            findings.append({"seq": expected, "what": "missing",
                             "recorded": f"entry {seq} follows entry {expected - 1}",
                             "derived": f"entry {expected} (an entry was deleted or the log reordered)"})
            break
        expected += 1
        if entry.prev_hash != prev:
            findings.append({"seq": seq, "what": "chain", "recorded": entry.prev_hash, "derived": prev})
            break
        derived_hash = core.entry_hash(prev, entry.body)
        if derived_hash != entry.hash:
            findings.append({"seq": seq, "what": "entry_hash", "recorded": entry.hash, "derived": derived_hash})
            break
        try:
            body = decode(entry.body)
        except msgspec.DecodeError as exc:
            findings.append({"seq": seq, "what": "decode", "recorded": "", "derived": str(exc)})
            break
        kind = body.kind
        recorded = body.verdict
        code = recorded.code if isinstance(recorded, Rejected) else None
        if (body.seq != seq or entry.kind != kind or entry.actor != body.actor or entry.code != code
                or entry.verdict != entry_verdict_name(recorded)):
            findings.append({"seq": seq, "what": "index_columns",
                             "recorded": repr((entry.kind, entry.actor, entry.verdict, entry.code)),
                             "derived": repr((kind, body.actor, entry_verdict_name(recorded), code))})
            break
        verdict: Any = recorded
        if kind == "intent" and body.intent is not None and body.actor is not None:
            _, verdict = core.adjudicate(rules, state, body.actor, body.intent, core.chance_for(config, f"seq:{seq}"))
        elif kind == "undo" and body.actor is not None:
            verdict = referee._decide_undo(loaded, timeline, body.actor, int(body.meta.get("to", -1)))
        elif kind == "redo" and body.actor is not None:
            verdict = referee._decide_redo(loaded, timeline, body.actor, int(body.meta.get("undo", -1)))
        elif kind == "ruling" and body.intent is not None:
            verdict = referee._decide_ruling(loaded, state, str(body.meta.get("seat")), body.intent, body.meta, seq)
        # Struct equality is field by field, the same test as comparing canonical bytes but cheaper
        if verdict != recorded and core.canonical(verdict) != core.canonical(recorded):
            from .service import _verdict_text

            findings.append({"seq": seq, "what": "verdict", "recorded": _verdict_text(recorded),
                             "derived": _verdict_text(verdict)})
            break
        timeline.add(Header(seq=seq, kind=kind, actor=body.actor, accepted=isinstance(recorded, Accepted),
                            meta=body.meta))
        if kind == "intent":
            state = core.apply(rules, state, verdict)  # the derived verdict, equal to the recorded one
        else:
            state = referee.advance(loaded, state, body, jumps, jumps, checked=True)
        jumps[seq] = state
        jumps.pop(seq - WINDOW, None)
        if state is not hashed_state:  # a rejection or a note leaves the very same state
            hashed_state, hashed = state, core.state_hash(state)
        if hashed != entry.state_hash:
            findings.append({"seq": seq, "what": "state_hash", "recorded": entry.state_hash, "derived": hashed})
            break
        if seq in want:
            out.derived[seq] = hashed
        prev = entry.hash
        checked += 1
        if tick is not None and not checked % TICK:
            tick(checked)
    out.checked = checked
    out.expected = expected
    if tick is not None:
        tick(checked)
    return out
