"""The SQLite store's tournaments (:class:`.base.Store`'s tournament methods): a row each, their append-only
chained events (a round's matches, tokens, entries and summaries written in the transaction of its event)
and their tokens."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .base import (
    N_,
    check_new_matches,
    like_prefix,
    summary_row,
    tournament_from_row,
    Conflict,
    MatchSummary,
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredToken,
    StoredTournament,
    StoredTournamentEvent,
    StoredTournamentToken,
    StoreError,
)
from .sqlite_schema import MATCH_COLS
from .sqlite_summaries import PUT_SUMMARY


class SqliteTournaments:
    """The tournaments' methods of :class:`.sqlite.SqliteStore` (its connection, lock and statements)."""

    conn: sqlite3.Connection
    _lock: threading.RLock

    if TYPE_CHECKING:  # what the store that mixes these methods in defines

        def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

        def _begin_write(self) -> None: ...

        def _insert(self, e: StoredEntry) -> None: ...

        def _insert_annotation(self, a: StoredAnnotation) -> None: ...

    _TOURNAMENT_EVENT_COLS = "tournament_id, n, kind, by, body, prev_hash, hash, recorded_at"

    def _insert_tournament_event(self, e: StoredTournamentEvent) -> None:
        self.conn.execute(
            f"INSERT INTO tournament_events ({self._TOURNAMENT_EVENT_COLS}) VALUES (?,?,?,?,?,?,?,?)",
            (e.tournament_id, e.n, e.kind, e.by, e.body, e.prev_hash, e.hash, e.recorded_at),
        )

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                if conn.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament.id,)).fetchone():
                    raise StoreError.said(N_("tournament {tournament} already exists"), tournament=tournament.id)
                conn.execute("INSERT INTO tournaments (id, name, created_at) VALUES (?,?,?)",
                             (tournament.id, tournament.name, tournament.created_at))
                for i, e in enumerate(events, start=1):
                    if e.n != i or e.tournament_id != tournament.id:
                        raise StoreError.said(N_("a tournament's first events must be numbered 1, 2, ..."))
                    self._insert_tournament_event(e)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        row = self._one("SELECT id, name, created_at FROM tournaments WHERE id = ?", (tournament_id,))
        return tournament_from_row(row) if row else None

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        like = like_prefix(prefix)
        rows = self._all("SELECT id, name, created_at FROM tournaments WHERE id LIKE ? ESCAPE '\\' ORDER BY id", (like,))
        return [tournament_from_row(r) for r in rows]

    def list_tournaments(self) -> list[StoredTournament]:
        return [tournament_from_row(r) for r in self._all("SELECT id, name, created_at FROM tournaments ORDER BY created_at, id", ())]

    def append_tournament_events(self, tournament_id: str, events: Sequence[StoredTournamentEvent],
                                 expected_n: int, matches: Sequence[StoredMatch] = (),
                                 tokens: Sequence[StoredToken] = (),
                                 summaries: Sequence[MatchSummary] = (),
                                 entries: Sequence[StoredEntry] = (),
                                 annotations: Sequence[StoredAnnotation] = (),
                                 transcripts: Sequence[tuple[str, str]] = ()) -> None:
        check_new_matches(matches, entries, annotations, transcripts, summaries)
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                row = conn.execute(
                    "SELECT (SELECT COALESCE(MAX(n), 0) FROM tournament_events WHERE tournament_id = ?1)"
                    " FROM tournaments WHERE id = ?1", (tournament_id,),
                ).fetchone()
                if row is None:
                    raise StoreError.said(N_("no tournament {tournament}"), tournament=tournament_id)
                if row[0] != expected_n:
                    raise Conflict(tournament_id, expected_n, row[0], what="tournament event")
                for i, e in enumerate(events, start=expected_n + 1):
                    if e.n != i or e.tournament_id != tournament_id:
                        raise StoreError.said(N_("tournament events must be numbered on from {n}"), n=expected_n + 1)
                for m in matches:
                    conn.execute(f"INSERT INTO matches ({MATCH_COLS}) VALUES (?,?,?,?,?,?,?,?,?)",
                                 (m.id, m.game, m.rules_version, m.config, m.genesis_hash, m.created_at, m.parent,
                                  m.fork_seq, m.title))
                conn.executemany("INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (?,?,?,?)",
                                 [(t.token_hash, t.match_id, t.role, t.seat) for t in tokens])
                for entry in entries:
                    self._insert(entry)
                for a in annotations:
                    self._insert_annotation(a)
                conn.executemany("INSERT INTO transcripts (digest, match_id) VALUES (?, ?)", transcripts)
                conn.executemany(PUT_SUMMARY, [summary_row(summary) for summary in summaries])
                for e in events:
                    self._insert_tournament_event(e)
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("the round's matches or tokens were refused: {reason}"), reason=str(exc)) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        rows = self._all(
            "SELECT tournament_id, n, kind, by, CAST(body AS BLOB), prev_hash, hash, recorded_at FROM tournament_events"
            " WHERE tournament_id = ? AND n <= ? ORDER BY n",
            (tournament_id, stop if stop is not None else 2**62),
        )
        return [StoredTournamentEvent(tournament_id=r[0], n=r[1], kind=r[2], by=r[3], body=bytes(r[4]), prev_hash=r[5],
                                      hash=r[6], recorded_at=r[7]) for r in rows]

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                for t in tokens:
                    if not conn.execute("SELECT 1 FROM tournaments WHERE id = ?", (t.tournament_id,)).fetchone():
                        raise StoreError.said(N_("no tournament {tournament}"), tournament=t.tournament_id)
                    conn.execute("INSERT INTO tournament_tokens (token_hash, tournament_id, role, player) VALUES (?,?,?,?)",
                                 (t.token_hash, t.tournament_id, t.role, t.player))
                conn.execute("COMMIT")
            except sqlite3.IntegrityError as exc:
                conn.execute("ROLLBACK")
                raise StoreError.said(N_("token refused: {reason}"), reason=str(exc)) from None
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None:
        row = self._one("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE token_hash = ?",
                        (token_hash,))
        return StoredTournamentToken(token_hash=row[0], tournament_id=row[1], role=row[2], player=row[3]) if row else None

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        rows = self._all("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE tournament_id = ?"
                         " ORDER BY token_hash", (tournament_id,))
        return [StoredTournamentToken(token_hash=r[0], tournament_id=r[1], role=r[2], player=r[3]) for r in rows]
