"""The PostgreSQL store's match summaries (:class:`.base.MatchSummaries`): the table of migration 6, each
row replaced in the statement of the append (or the transaction of the creation) that changes it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .base import N_, SUMMARY_COLS, MatchSummary, StoredMatch, StoreError, listed_rows, summary_from_row, summary_row
from .pg_schema import PUT_SUMMARY

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")


class PostgresSummaries:
    """The summaries' methods of :class:`.postgres.PostgresStore` (its pool and statements)."""

    _psycopg: Any

    if TYPE_CHECKING:  # what the store that mixes these methods in defines

        def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T: ...

        def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

        def get_match(self, match_id: str) -> StoredMatch | None: ...

    def summary(self, match_id: str) -> MatchSummary | None:
        row = self._one(f"SELECT {SUMMARY_COLS} FROM match_summaries WHERE match_id = %s", (match_id,))
        return summary_from_row(row) if row else None

    def summaries(self) -> list[MatchSummary]:
        rows = self._all(f"SELECT {SUMMARY_COLS} FROM match_summaries ORDER BY created_at, match_id", ())
        return list(map(summary_from_row, rows))

    def listed(self, offset: int = 0, limit: int | None = None) -> list[tuple[MatchSummary, int]]:
        return listed_rows(self._all, "%s", offset, limit, None)

    def unsummarised(self) -> list[str]:
        rows = self._all("SELECT id FROM matches WHERE NOT EXISTS (SELECT 1 FROM match_summaries s"
                         " WHERE s.match_id = matches.id) ORDER BY id", ())
        return [r[0] for r in rows]

    def put_summaries(self, summaries: Sequence[MatchSummary]) -> None:
        errors = self._psycopg.errors

        def work(conn: psycopg.Connection[Any]) -> None:
            try:
                with conn.transaction(), conn.cursor() as cur:
                    cur.executemany(PUT_SUMMARY, [summary_row(s) for s in summaries])
            except errors.ForeignKeyViolation:
                missing = next(s.match_id for s in summaries if self.get_match(s.match_id) is None)
                raise StoreError.said(N_("no match {match}"), match=missing) from None

        if summaries:
            self._run(work)
