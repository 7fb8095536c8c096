"""The match log store: an interface (:class:`Store`) and two recorders, SQLite and in-memory.

The store sees bytes and index columns, never domain objects. Entries are append-only: there is no
method that updates or deletes one. Every append is one transaction that first checks the head
(optimistic concurrency): a writer that names a stale sequence number gets :class:`Conflict` and
nothing is written.
"""

from .base import (
    AuditRow,
    Conflict,
    DuplicateRequest,
    IndexRow,
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
)

__all__ = [
    "AuditRow",
    "Conflict",
    "DuplicateRequest",
    "IndexRow",
    "Store",
    "StoreError",
    "StoredAnnotation",
    "StoredEntry",
    "StoredMatch",
    "StoredRequest",
    "StoredSnapshot",
    "StoredToken",
    "StoredTournament",
    "StoredTournamentEvent",
    "StoredTournamentToken",
    "open_store",
]


def open_store(path: str, *, durability: str | None = None) -> Store:
    """``":memory:"`` gives an in-memory store; anything else a SQLite file (``durability``: see
    :mod:`referee.store.sqlite`)."""
    if path == ":memory:":
        from .memory import MemoryStore

        return MemoryStore()
    from .sqlite import SqliteStore

    return SqliteStore(path, durability=durability)
