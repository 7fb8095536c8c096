"""The store's contract suites (tests/test_store_<recorder>.py), one per recorder of
:mod:`referee.store.base`: their backends (every test that takes ``store`` runs on the in-memory store,
SQLite and PostgreSQL; ``opener`` opens one SQLite or PostgreSQL database again and again, as separate
processes would), the rows they write, and a check that a backend implements a recorder's methods."""

from __future__ import annotations

import inspect

import pytest

from conftest import fresh_db
from referee.store import (
    StoredAnnotation,
    StoredEntry,
    StoredMatch,
    StoredToken,
    StoredTournamentEvent,
    open_store,
)
from referee.store.memory import MemoryStore

#: every backend a contract test runs on (test ids: ``test_x[memory]``, ``test_x[sqlite]``, ``test_x[postgres]``)
STORES = ("memory", "sqlite", "postgres")


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    """A new, empty store of each backend (closed after the test)."""
    s = MemoryStore() if request.param == "memory" else open_store(fresh_db(request, tmp_path))
    yield s
    s.close()


@pytest.fixture(params=("sqlite", "postgres"))
def opener(request, tmp_path):
    """Opens one database again and again (separate connections, as separate processes would)."""
    db = fresh_db(request, tmp_path)
    open_store(db).close()  # created (and migrated) once, before the openers race
    return lambda: open_store(db)


def recorder_methods(recorder: type) -> list[str]:
    """The methods a recorder protocol declares (its own, not those of the protocols it composes)."""
    return sorted(n for n, v in vars(recorder).items() if not n.startswith("_") and callable(v))


def assert_implements(store: object, recorder: type) -> None:
    """``store``'s class has each method of ``recorder`` with the same parameters."""
    for name in recorder_methods(recorder):
        want = list(inspect.signature(getattr(recorder, name)).parameters)
        got = getattr(type(store), name, None)
        assert got is not None, f"{type(store).__name__} lacks {recorder.__name__}.{name}"
        assert list(inspect.signature(got).parameters) == want, f"{type(store).__name__}.{name}"


def a_match(mid="m1"):
    return StoredMatch(id=mid, game="g", rules_version="1", config=b"{}", genesis_hash="g0", created_at="t")


def an_entry(seq, mid="m1", verdict="accepted"):
    return StoredEntry(match_id=mid, seq=seq, kind="intent", actor="a", verdict=verdict,
                       code=None if verdict == "accepted" else "x/y", body=f"body{seq}".encode(),
                       prev_hash=f"h{seq - 1}", hash=f"h{seq}", state_hash=f"s{seq}", recorded_at="t")


def a_note(n: int, prev: str, digest: str, seq: int = 1, text: str = "hm") -> StoredAnnotation:
    return StoredAnnotation(match_id="m1", seq=seq, kind="comment", text=text, by="arb", recorded_at="t", n=n,
                            prev_hash=prev, hash=digest, audience="all")


def a_token(h, mid="m1", role="seat", seat="alice"):
    return StoredToken(token_hash=h, match_id=mid, role=role, seat=seat)


def an_event(n, tid="t1"):
    return StoredTournamentEvent(tournament_id=tid, n=n, kind="k", by="org", body=f"b{n}".encode(),
                                 prev_hash=f"h{n - 1}", hash=f"h{n}", recorded_at="t")
