"""The declared :class:`referee.store.Notifier`: a store says whether it announces appends across
processes (``store.notifier``), and one that does (PostgreSQL) wakes a listener with the match's id of
every append, written through any connection."""

from __future__ import annotations

import threading

import pytest

from referee.store import Notifier, open_store
from support.store_contract import a_match, an_entry, assert_implements, store  # noqa: F401 - fixture


def test_a_store_declares_whether_it_announces_appends(store):
    notifier = store.notifier
    if type(store).__name__ == "MemoryStore":  # one process's memory: no other process to hear of
        assert notifier is None
    else:  # PostgreSQL's LISTEN/NOTIFY; a SQLite file watched (tests/test_stream_wake.py)
        assert notifier is not None
        assert_implements(notifier, Notifier)


def test_a_store_without_listen_fails_the_notifier_check():
    """The check above can fail: the in-memory store has no listen method."""
    from referee.store.memory import MemoryStore

    with pytest.raises(AssertionError, match="lacks Notifier.listen"):
        assert_implements(MemoryStore(), Notifier)


def test_postgres_wakes_a_listener_with_each_appended_match(pg_server):
    url = pg_server.fresh(empty=True)
    listening, writer = open_store(url), open_store(url)
    woken: list[str] = []
    seen = threading.Event()

    def wake(match_id: str) -> None:
        woken.append(match_id)
        seen.set()

    assert listening.notifier is not None
    stop = listening.notifier.listen(wake)
    try:
        writer.create_match(a_match("m1"))
        # the listener's connection may not be listening yet: append until it hears one (bounded)
        for seq in range(1, 51):
            writer.append(an_entry(seq, "m1"), expected_seq=seq - 1)
            if seen.wait(0.2):
                break
        assert seen.is_set(), "no notification within 50 appends"
        assert set(woken) == {"m1"}
    finally:
        stop()
        listening.close()
        writer.close()


def test_the_hall_listens_only_to_a_declared_notifier(db):
    """The HTTP app asks the store for its notifier: over PostgreSQL or a SQLite file it listens and its
    match streams poll only as a fallback; over a store without one (one process's memory) it polls, even
    through a store that happens to have a ``listen`` method (nothing is found by probing)."""
    from referee.service import Referee
    from referee.store.memory import MemoryStore
    from support.apps import app_client
    from support.pile import PILE

    calls: list[str] = []
    inner = open_store(db)
    memory = MemoryStore()

    class Probed:
        """The store, with a ``listen`` method that its (absent) notifier does not declare."""

        def __getattr__(self, name):
            return getattr(memory, name)

        def listen(self, wake, resumed=None):
            calls.append("listen")
            return lambda: None

    assert inner.notifier is not None and memory.notifier is None
    with app_client(lambda: Referee(inner, games=[PILE]), poll=0.2, listen_poll=10) as client:
        hall = client.app.state.hall
        assert (hall.entry_poll, hall.stop_listening is not None) == (10, True)
    with app_client(lambda: Referee(Probed(), games=[PILE]), poll=0.2, listen_poll=10) as client:
        hall = client.app.state.hall
        assert (hall.entry_poll, hall.stop_listening, calls) == (0.2, None, [])
    inner.close()
