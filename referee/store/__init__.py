"""The match log store: an interface (:class:`Store`, the composition of one small protocol per purpose:
:class:`MatchLog`, :class:`MatchSummaries`, :class:`Annotations`, :class:`AccessTokens`, :class:`TournamentLog`,
:class:`TranscriptIndex`, and an optional :class:`Notifier`) and three backends implementing all of
them: SQLite (the default), PostgreSQL (a shared database for several servers) and in-memory.

The store sees bytes and index columns, never domain objects. Entries are append-only: there is no
method that updates or deletes one. Every append is one transaction that first checks the head
(optimistic concurrency): a writer that names a stale sequence number gets :class:`Conflict` and
nothing is written.
"""

from .base import (
    AccessTokens,
    Annotations,
    AuditRow,
    BadSetting,
    Conflict,
    DuplicateRequest,
    IndexRow,
    MatchLog,
    MatchRecords,
    MatchSummaries,
    MatchSummary,
    Notifier,
    Store,
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
    StoreUnavailable,
    TournamentLog,
    TournamentRecords,
    TranscriptIndex,
)

__all__ = [
    "AccessTokens",
    "Annotations",
    "AuditRow",
    "BadSetting",
    "Conflict",
    "DuplicateRequest",
    "IndexRow",
    "MatchLog",
    "MatchRecords",
    "MatchSummaries",
    "MatchSummary",
    "Notifier",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredAnnotation",
    "StoredEntry",
    "StoredMatch",
    "StoredRequest",
    "StoredSnapshot",
    "StoredToken",
    "StoredTournament",
    "StoredTournamentEvent",
    "StoredTournamentToken",
    "TournamentLog",
    "TournamentRecords",
    "TranscriptIndex",
    "open_store",
]


def open_store(path: str, *, durability: str | None = None, create: bool = True) -> Store:
    """The store ``path`` names: ``":memory:"`` an in-memory one, a ``postgresql://`` (or ``postgres://``)
    URL a PostgreSQL database (:mod:`referee.store.postgres`), anything else a SQLite file
    (``durability``: see :mod:`referee.store.sqlite`). ``create=False`` refuses a database that does not
    exist yet (or has no referee schema) instead of creating it."""
    if path == ":memory:":
        from .memory import MemoryStore

        return MemoryStore()
    if path.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return PostgresStore(path, durability=durability, create=create)
    from .sqlite import SqliteStore

    return SqliteStore(path, durability=durability, create=create)
