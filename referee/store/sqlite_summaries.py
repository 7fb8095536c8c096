"""The SQLite store's match summaries (:class:`.base.MatchSummaries`): the table of migration 8, each
row replaced inside the transaction of the append (or creation) that changes it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .base import N_, SUMMARY_COLS, MatchSummary, StoreError, listed_rows, summary_from_row, summary_row

#: a summary written, or replacing the match's
PUT_SUMMARY = f"INSERT OR REPLACE INTO match_summaries ({SUMMARY_COLS}) VALUES ({', '.join('?' * 17)})"


class SqliteSummaries:
    """The summaries' methods of :class:`.sqlite.SqliteStore` (its connection, lock and statements)."""

    conn: sqlite3.Connection
    _lock: threading.RLock

    if TYPE_CHECKING:  # what the store that mixes these methods in defines

        def _all(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

        def _one(self, sql: str, params: Sequence[Any]) -> Any: ...

        def _begin_write(self) -> None: ...

    def _put_summary(self, summary: MatchSummary, match_id: str) -> None:
        """Write ``summary`` (of ``match_id``, else refused) inside the transaction under way."""
        if summary.match_id != match_id:
            raise StoreError.said(N_("a summary of match {summary_match} cannot be written with match {match}"),
                                  summary_match=summary.match_id, match=match_id)
        try:
            self.conn.execute(PUT_SUMMARY, summary_row(summary))
        except sqlite3.IntegrityError as exc:  # (the transaction under way is rolled back by its writer)
            raise StoreError.said(N_("the summary of match {match} was refused: {reason}"),
                                  match=match_id, reason=str(exc)) from None

    def summary(self, match_id: str) -> MatchSummary | None:
        row = self._one(f"SELECT {SUMMARY_COLS} FROM match_summaries WHERE match_id = ?", (match_id,))
        return summary_from_row(row) if row else None

    def summaries(self) -> list[MatchSummary]:
        rows = self._all(f"SELECT {SUMMARY_COLS} FROM match_summaries ORDER BY created_at, match_id", ())
        return list(map(summary_from_row, rows))

    def listed(self, offset: int = 0, limit: int | None = None) -> list[tuple[MatchSummary, int]]:
        return listed_rows(self._all, "?", offset, limit, -1)

    def unsummarised(self) -> list[str]:
        rows = self._all("SELECT id FROM matches WHERE id NOT IN (SELECT match_id FROM match_summaries) ORDER BY id", ())
        return [r[0] for r in rows]

    def put_summaries(self, summaries: Sequence[MatchSummary]) -> None:
        with self._lock:
            conn = self.conn
            self._begin_write()
            try:
                for s in summaries:
                    if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (s.match_id,)).fetchone():
                        raise StoreError.said(N_("no match {match}"), match=s.match_id)
                    self._put_summary(s, s.match_id)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
