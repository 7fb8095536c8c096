"""The service is composed, not assembled from mixins (issue 28, part 6): a History reads a match over the
match log and its annotations alone, a Configuration binds matches over the match log alone, and the
audit and the exports read through them. Each is built here over a store that answers only the methods
of the recorders it is typed against: a call outside them fails the test."""

from __future__ import annotations

from typing import Any

from referee.audit import Reopened, run
from referee.config import Configuration
from referee.export import export
from referee.history import History
from referee.service import Referee
from referee.store import AccessTokens, Annotations, MatchLog, MatchSummaries


class Only:
    """``store`` answering only the methods the given recorder protocols declare."""

    def __init__(self, store: Any, *recorders: type) -> None:
        self._store = store
        self._names = {n for r in recorders for n in vars(r) if not n.startswith("_")}

    def __getattr__(self, name: str) -> Any:
        if name not in self._names:
            raise AttributeError(f"{name} is not a method of the recorders this reader was given")
        return getattr(self._store, name)


class Reader:
    """A Configuration and a History, as the exports and the audit read through them."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.configuration = Configuration(Only(store, MatchLog))
        self.history = History(Only(store, MatchLog, Annotations))
        self.load = self.configuration.load


def _played(store: Any) -> tuple[Referee, str]:
    r = Referee(store)
    m = r.new_match("by_all_means", ["alice", "bob"], seed=7)
    for _ in range(10):
        legal = r.legal(m.id).legal
        seat = next(s for s in ("alice", "bob") if legal[s])
        r.submit(m.id, seat, legal[seat][0])
    r.undo(m.id, by="arbiter", to=6, reason="a misread card")
    r.annotate(m.id, 3, "a sharp move", by="arbiter")
    r.submit(m.id, "alice", "draw_opening_hand")  # played already: a rejected entry
    return r, m.id


def test_a_history_over_the_match_log_and_annotations_reads_what_the_service_reads(db_store):
    r, mid = _played(db_store)
    reader = Reader(db_store)
    loaded, mine = r.load(mid), reader.load(mid)
    head = db_store.head(mid)
    for at in range(head + 1):
        assert reader.history.state_at(mine, at) == r.state_at(loaded, at)
    assert reader.history.timeline(mine).line == r.timeline(loaded).line
    assert reader.history.marks(mine, 1, head, head) == r.marks(loaded, 1, head, head)
    assert reader.history.open_hold(mine) == r.open_hold(loaded)
    assert reader.history.over(mine) == r.over(loaded)
    for fmt in ("txt", "json"):
        assert export(reader, mid, fmt, "alice") == export(r, mid, fmt, "alice")


def test_the_audit_reads_through_a_configuration_and_a_history(db_store):
    r, mid = _played(db_store)
    books = Reopened(Only(db_store, MatchLog, Annotations, AccessTokens, MatchSummaries), *_parts(Reader(db_store)))
    report = run(books, mid)
    assert report.clean and report == r.audit(mid)


def _parts(reader: Reader) -> tuple[Configuration, History]:
    return reader.configuration, reader.history


def test_each_service_keeps_its_own_caches():
    from referee.store.memory import MemoryStore

    store = MemoryStore()
    a, mid = _played(store)
    b = Referee(store)
    assert a.history is not b.history and a.configuration is not b.configuration
    legal = b.legal(mid).legal
    seat = next(s for s in ("alice", "bob") if legal[s])
    b.submit(mid, seat, legal[seat][0])  # b's append: a's kept head is stale, and read anew
    assert a.state_at(a.load(mid)) == b.state_at(b.load(mid))
