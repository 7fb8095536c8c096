"""The PostgreSQL store's tournaments (:class:`.base.Store`'s tournament methods): a row each, their
append-only chained events (a round's matches, tokens, entries and summaries written in the transaction of
its event) and their tokens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

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
from .pg_pool import first_line
from .pg_schema import FAR, MATCH_COLS, PUT_SUMMARY

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

#: the columns of a tournament's event
_TOURNAMENT_EVENT_COLS = 'tournament_id, n, kind, "by", body, prev_hash, hash, recorded_at'


class PostgresTournaments:
    """The tournaments' methods of :class:`.postgres.PostgresStore` (its pool and statements)."""

    _psycopg: Any
    _INSERT_ENTRY: str

    if TYPE_CHECKING:  # what the store that mixes these methods in defines

        def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T: ...

        def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

        @staticmethod
        def _entry_row(e: StoredEntry) -> tuple[Any, ...]: ...

        @staticmethod
        def _insert_annotation(conn: psycopg.Connection[Any], a: StoredAnnotation) -> None: ...

    @staticmethod
    def _insert_tournament_events(conn: psycopg.Connection[Any], events: Sequence[StoredTournamentEvent]) -> None:
        if events:
            with conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO tournament_events ({_TOURNAMENT_EVENT_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s)",
                    [(e.tournament_id, e.n, e.kind, e.by, e.body, e.prev_hash, e.hash, e.recorded_at) for e in events],
                )

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        for i, e in enumerate(events, start=1):
            if e.n != i or e.tournament_id != tournament.id:
                raise StoreError.said(N_("a tournament's first events must be numbered 1, 2, ..."))
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    conn.execute("INSERT INTO tournaments (id, name, created_at) VALUES (%s,%s,%s)",
                                 (tournament.id, tournament.name, tournament.created_at))
                    self._insert_tournament_events(conn, events)
            except unique:
                raise StoreError.said(N_("tournament {tournament} already exists"), tournament=tournament.id) from None

        self._run(work)

    def get_tournament(self, tournament_id: str) -> StoredTournament | None:
        row = self._one("SELECT id, name, created_at FROM tournaments WHERE id = %s", (tournament_id,))
        return tournament_from_row(row) if row else None

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        like = like_prefix(prefix)
        rows = self._all("SELECT id, name, created_at FROM tournaments WHERE id ILIKE %s ORDER BY id", (like,))
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
        for i, e in enumerate(events, start=expected_n + 1):
            if e.n != i or e.tournament_id != tournament_id:
                raise StoreError.said(N_("tournament events must be numbered on from {n}"), n=expected_n + 1)
        check_new_matches(matches, entries, annotations, transcripts, summaries)
        unique = self._psycopg.errors.UniqueViolation

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    if conn.execute("SELECT 1 FROM tournaments WHERE id = %s FOR NO KEY UPDATE",
                                    (tournament_id,)).fetchone() is None:
                        raise StoreError.said(N_("no tournament {tournament}"), tournament=tournament_id)
                    row = conn.execute("SELECT COALESCE(MAX(n), 0) FROM tournament_events WHERE tournament_id = %s",
                                       (tournament_id,)).fetchone()
                    last = int(row[0]) if row else 0
                    if last != expected_n:
                        raise Conflict(tournament_id, expected_n, last, what="tournament event")
                    with conn.cursor() as cur:  # a round's matches and tokens with the record pairing them
                        cur.executemany(f"INSERT INTO matches ({MATCH_COLS}) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                                        [(m.id, m.game, m.rules_version, m.config, m.genesis_hash, m.created_at,
                                          m.parent, m.fork_seq, m.title) for m in matches])
                        cur.executemany("INSERT INTO tokens (token_hash, match_id, role, seat) VALUES (%s,%s,%s,%s)",
                                        [(t.token_hash, t.match_id, t.role, t.seat) for t in tokens])
                        if entries:  # an imported transcript's match, with the record attaching it
                            cur.executemany(self._INSERT_ENTRY, [self._entry_row(e) for e in entries])
                        cur.executemany("INSERT INTO transcripts (digest, match_id) VALUES (%s, %s)", transcripts)
                        cur.executemany(PUT_SUMMARY, [summary_row(s) for s in summaries])
                    for a in annotations:
                        self._insert_annotation(conn, a)
                    self._insert_tournament_events(conn, events)
            except unique as exc:
                if matches or tokens:
                    raise StoreError.said(N_("the round's matches or tokens were refused: {reason}"),
                                          reason=first_line(exc)) from None
                raise Conflict(tournament_id, expected_n, expected_n + 1, what="tournament event") from None

        self._run(work)

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        rows = self._all(
            f"SELECT {_TOURNAMENT_EVENT_COLS} FROM tournament_events WHERE tournament_id = %s AND n <= %s ORDER BY n",
            (tournament_id, stop if stop is not None else FAR),
        )
        return [StoredTournamentEvent(tournament_id=r[0], n=r[1], kind=r[2], by=r[3], body=bytes(r[4]), prev_hash=r[5],
                                      hash=r[6], recorded_at=r[7]) for r in rows]

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        errors = self._psycopg.errors

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction():
                    for t in tokens:
                        conn.execute("INSERT INTO tournament_tokens (token_hash, tournament_id, role, player)"
                                     " VALUES (%s,%s,%s,%s)", (t.token_hash, t.tournament_id, t.role, t.player))
            except errors.ForeignKeyViolation:
                raise StoreError.said(N_("no such tournament")) from None
            except errors.IntegrityError as exc:
                raise StoreError.said(N_("token refused: {reason}"), reason=first_line(exc)) from None

        self._run(work)

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None:
        row = self._one("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE token_hash = %s",
                        (token_hash,))
        return StoredTournamentToken(token_hash=row[0], tournament_id=row[1], role=row[2], player=row[3]) if row else None

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        rows = self._all("SELECT token_hash, tournament_id, role, player FROM tournament_tokens WHERE tournament_id = %s"
                         ' ORDER BY token_hash COLLATE "C"', (tournament_id,))
        return [StoredTournamentToken(token_hash=r[0], tournament_id=r[1], role=r[2], player=r[3]) for r in rows]

