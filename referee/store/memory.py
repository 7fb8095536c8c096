"""An in-memory store with the same contract as the SQLite one (tests, scenarios, dry runs)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

from .base import (
    N_,
    check_new_matches,
    AuditRow,
    Conflict,
    DuplicateRequest,
    IndexRow,
    MatchSummary,
    Notifier,
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredRequest,
    StoredSnapshot,
    StoredToken,
    StoredTournament,
    StoredTournamentEvent,
    StoredTournamentToken,
    StoreError,
    tree_order,
)


class MemoryStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._matches: dict[str, StoredMatch] = {}
        self._entries: dict[str, list[StoredEntry]] = {}
        self._snapshots: dict[str, list[StoredSnapshot]] = {}
        self._annotations: dict[str, list[StoredAnnotation]] = {}
        self._tokens: dict[str, StoredToken] = {}
        self._requests: dict[tuple[str, str], StoredRequest] = {}
        self._tournaments: dict[str, StoredTournament] = {}
        self._tournament_events: dict[str, list[StoredTournamentEvent]] = {}
        self._tournament_tokens: dict[str, StoredTournamentToken] = {}
        self._transcripts: dict[str, list[str]] = {}
        self._summaries: dict[str, MatchSummary] = {}

    def create_match(
        self, match: StoredMatch, entries: Sequence[StoredEntry] = (),
        annotations: Sequence[StoredAnnotation] = (), transcript: str | None = None,
        summary: MatchSummary | None = None,
    ) -> None:
        with self._lock:
            if match.id in self._matches:
                raise StoreError.said(N_("match {match} already exists"), match=match.id)
            for i, e in enumerate(entries, start=(match.fork_seq or 0) + 1):
                if e.seq != i or e.match_id != match.id:
                    raise StoreError.said(N_("initial entries must be numbered on from the match's start"))
            if summary is not None and summary.match_id != match.id:
                raise StoreError.said(N_("a summary of match {summary_match} cannot be written with match {match}"),
                                      summary_match=summary.match_id, match=match.id)
            if summary is not None:
                self._summaries[match.id] = summary
            self._matches[match.id] = match
            self._entries[match.id] = list(entries)
            self._snapshots[match.id] = []
            self._annotations[match.id] = list(annotations)
            if transcript is not None:
                self._transcripts.setdefault(transcript, []).append(match.id)

    def find_transcript(self, digest: str) -> list[str]:
        return list(self._transcripts.get(digest, ()))

    def transcripts(self) -> list[tuple[str, str]]:
        return [(digest, mid) for digest in sorted(self._transcripts) for mid in self._transcripts[digest]]

    def add_transcript(self, digest: str, match_id: str) -> None:
        with self._lock:
            if match_id not in self._matches:
                raise StoreError.said(N_("no match {match}"), match=match_id)
            if match_id in self._transcripts.get(digest, ()):
                raise StoreError.said(N_("match {match} is already recorded with transcript {digest}"),
                                      match=match_id, digest=digest)
            self._transcripts.setdefault(digest, []).append(match_id)

    def get_match(self, match_id: str) -> StoredMatch | None:
        return self._matches.get(match_id)

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        return sorted((m for k, m in self._matches.items() if k.startswith(prefix)), key=lambda m: m.id)

    def list_matches(self) -> list[StoredMatch]:
        return sorted(self._matches.values(), key=lambda m: (m.created_at, m.id))

    def _log(self, match_id: str) -> list[StoredEntry]:
        try:
            return self._entries[match_id]
        except KeyError:
            raise StoreError.said(N_("no match {match}"), match=match_id) from None

    def head(self, match_id: str) -> int:
        log = self._log(match_id)
        return log[-1].seq if log else (self._matches[match_id].fork_seq or 0)

    def last_entry(self, match_id: str) -> StoredEntry | None:
        log = self._log(match_id)
        return log[-1] if log else None

    def append(
        self, entry: StoredEntry, expected_seq: int, snapshot: StoredSnapshot | None = None,
        request: StoredRequest | None = None, summary: MatchSummary | None = None,
    ) -> None:
        with self._lock:
            log = self._log(entry.match_id)
            if summary is not None and summary.match_id != entry.match_id:
                raise StoreError.said(N_("a summary of match {summary_match} cannot be written with an entry of "
                                         "{match}"), summary_match=summary.match_id, match=entry.match_id)
            if request is not None and (entry.match_id, request.key) in self._requests:
                raise DuplicateRequest(entry.match_id, request.key)
            head = self.head(entry.match_id)
            if head != expected_seq or entry.seq != expected_seq + 1:
                raise Conflict(entry.match_id, expected_seq, head)
            log.append(entry)
            if request is not None:
                self._requests[(entry.match_id, request.key)] = StoredRequest(
                    match_id=entry.match_id, key=request.key, fingerprint=request.fingerprint, seq=entry.seq
                )
            if snapshot is not None:
                self._snapshots[entry.match_id].append(snapshot)
            if summary is not None:
                self._summaries[entry.match_id] = summary

    def summary(self, match_id: str) -> MatchSummary | None:
        return self._summaries.get(match_id)

    def summaries(self) -> list[MatchSummary]:
        return sorted(self._summaries.values(), key=lambda s: (s.created_at, s.match_id))

    def listed(self, offset: int = 0, limit: int | None = None) -> list[tuple[MatchSummary, int]]:
        rows = tree_order(self.summaries())
        return rows[offset:] if limit is None else rows[offset:offset + limit]

    def unsummarised(self) -> list[str]:
        return sorted(mid for mid in self._matches if mid not in self._summaries)

    def put_summaries(self, summaries: Sequence[MatchSummary]) -> None:
        with self._lock:
            for s in summaries:
                self._log(s.match_id)
            for s in summaries:
                self._summaries[s.match_id] = s

    def entries(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[StoredEntry]:
        for e in self._log(match_id):
            if e.seq >= start and (stop is None or e.seq <= stop):
                yield e

    def bodies(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, bytes]]:
        for e in self.entries(match_id, start, stop):
            yield e.seq, e.body

    def audit_rows(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[AuditRow]:
        for e in self.entries(match_id, start, stop):
            yield e.seq, e.kind, e.actor, e.verdict, e.code, e.body, e.prev_hash, e.hash, e.state_hash

    def index(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[IndexRow]:
        for e in self.entries(match_id, start, stop):
            yield e.seq, e.kind, e.actor, e.verdict, e.body if e.kind in ("undo", "redo") or e.verdict == "held" else None

    def jumps(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, str, bytes]]:
        for e in self.entries(match_id, start, stop):
            if e.kind in ("undo", "redo") and e.verdict == "accepted":
                yield e.seq, e.kind, e.body

    def snapshot_at_or_before(self, match_id: str, seq: int) -> StoredSnapshot | None:
        best = None
        for snap in self._snapshots.get(match_id, []):
            if snap.seq <= seq and (best is None or snap.seq > best.seq):
                best = snap
        return best

    def add_annotation(self, annotation: StoredAnnotation) -> None:
        with self._lock:
            self._log(annotation.match_id)
            notes = self._annotations[annotation.match_id]
            if annotation.n != len(notes) + 1 or (notes and annotation.prev_hash != notes[-1].hash):
                raise Conflict(annotation.match_id, annotation.n - 1, len(notes), what="annotation")
            notes.append(annotation)

    def annotations(self, match_id: str) -> list[StoredAnnotation]:
        return list(self._annotations.get(match_id, []))

    def annotations_on(self, match_id: str, start: int, stop: int) -> list[StoredAnnotation]:
        return [a for a in self._annotations.get(match_id, []) if start <= a.seq <= stop]

    def add_tokens(self, tokens: Sequence[StoredToken]) -> None:
        with self._lock:
            for t in tokens:
                self._log(t.match_id)
                if t.token_hash in self._tokens:
                    raise StoreError.said(N_("token refused: the token hash is already recorded"))
            if len({t.token_hash for t in tokens}) != len(tokens):
                raise StoreError.said(N_("token refused: the token hash is already recorded"))
            for t in tokens:
                self._tokens[t.token_hash] = t

    def find_token(self, token_hash: str) -> StoredToken | None:
        return self._tokens.get(token_hash)

    def find_request(self, match_id: str, key: str) -> StoredRequest | None:
        return self._requests.get((match_id, key))

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        with self._lock:
            if tournament.id in self._tournaments:
                raise StoreError.said(N_("tournament {tournament} already exists"), tournament=tournament.id)
            for i, e in enumerate(events, start=1):
                if e.n != i or e.tournament_id != tournament.id:
                    raise StoreError.said(N_("a tournament's first events must be numbered 1, 2, ..."))
            self._tournaments[tournament.id] = tournament
            self._tournament_events[tournament.id] = list(events)

    def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        return self._tournaments.get(tournament_id)

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        return sorted((t for k, t in self._tournaments.items() if k.startswith(prefix)), key=lambda t: t.id)

    def list_tournaments(self) -> list[StoredTournament]:
        return sorted(self._tournaments.values(), key=lambda t: (t.created_at, t.id))

    def append_tournament_events(self, tournament_id: str, events: Sequence[StoredTournamentEvent],
                                 expected_n: int, matches: Sequence[StoredMatch] = (),
                                 tokens: Sequence[StoredToken] = (),
                                 summaries: Sequence[MatchSummary] = (),
                                 entries: Sequence[StoredEntry] = (),
                                 annotations: Sequence[StoredAnnotation] = (),
                                 transcripts: Sequence[tuple[str, str]] = ()) -> None:
        check_new_matches(matches, entries, annotations, transcripts, summaries)
        with self._lock:
            log = self._tournament_events.get(tournament_id)
            if log is None:
                raise StoreError.said(N_("no tournament {tournament}"), tournament=tournament_id)
            if len(log) != expected_n:
                raise Conflict(tournament_id, expected_n, len(log), what="tournament event")
            for i, e in enumerate(events, start=expected_n + 1):
                if e.n != i or e.tournament_id != tournament_id:
                    raise StoreError.said(N_("tournament events must be numbered on from {n}"), n=expected_n + 1)
            ids = [m.id for m in matches]
            if len(set(ids)) != len(ids) or any(i in self._matches for i in ids):
                raise StoreError.said(N_("a match of the round already exists"))
            hashes = [t.token_hash for t in tokens]
            if (len(set(hashes)) != len(hashes) or any(h in self._tokens for h in hashes)
                    or any(t.match_id not in ids for t in tokens)):
                raise StoreError.said(N_("token refused: a hash already recorded, or of no match of the round"))
            for m in matches:
                self._matches[m.id] = m
                self._entries[m.id], self._snapshots[m.id], self._annotations[m.id] = [], [], []
            for entry in entries:
                self._entries[entry.match_id].append(entry)
            for a in annotations:
                self._annotations[a.match_id].append(a)
            for digest, mid in transcripts:
                self._transcripts.setdefault(digest, []).append(mid)
            for t in tokens:
                self._tokens[t.token_hash] = t
            for s in summaries:
                self._summaries[s.match_id] = s
            log.extend(events)

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        log = self._tournament_events.get(tournament_id, [])
        return list(log if stop is None else log[:max(stop, 0)])

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        with self._lock:
            for t in tokens:
                if t.tournament_id not in self._tournaments:
                    raise StoreError.said(N_("no tournament {tournament}"), tournament=t.tournament_id)
            hashes = [t.token_hash for t in tokens]
            if len(set(hashes)) != len(hashes) or any(h in self._tournament_tokens for h in hashes):
                raise StoreError.said(N_("token refused: the token hash is already recorded"))
            for t in tokens:
                self._tournament_tokens[t.token_hash] = t

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None:
        return self._tournament_tokens.get(token_hash)

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        return sorted((t for t in self._tournament_tokens.values() if t.tournament_id == tournament_id),
                      key=lambda t: t.token_hash)

    def snapshots(self, match_id: str) -> list[StoredSnapshot]:
        latest = {s.seq: s for s in self._snapshots.get(match_id, [])}
        return [latest[seq] for seq in sorted(latest)]

    def tokens(self, match_id: str) -> list[StoredToken]:
        return sorted((t for t in self._tokens.values() if t.match_id == match_id), key=lambda t: t.token_hash)

    def requests(self, match_id: str) -> list[StoredRequest]:
        return sorted((r for (mid, _k), r in self._requests.items() if mid == match_id), key=lambda r: (r.seq, r.key))

    @property
    def notifier(self) -> Notifier | None:
        return None  # one process: its own appends are all there is

    def reopen(self) -> None:
        return None  # the data lives in this process only

    def close(self) -> None:
        pass
