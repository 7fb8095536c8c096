"""A submit reads what it needs from the head (issue 27, item 4): what waits for a confirmation from the
head entry alone when it answers, and, after an append in the same process, the head just written (its
hash, what waits after it) without reading it back. Another writer's appends make the kept head unused,
and a writer whose head went stale between reading and appending gets a conflict: never a forked chain."""

from __future__ import annotations

import pytest

from referee.engine import core
from referee.errors import ConflictError
from referee.history import History
from referee.service import Referee
from referee.store import open_store
from referee.store.memory import MemoryStore
from support.pile import PILE


def service(path=None):
    return Referee(open_store(path) if path else MemoryStore(), games=[PILE])


class Reads:
    """Counts the entry bodies a History decodes and the whole entries the store reads."""

    def __init__(self, monkeypatch, store):
        self.decodes = self.entries = 0
        real_decode, real_entries = History.decode, store.entries

        def decode(loaded, seq, body):
            self.decodes += 1
            return real_decode(loaded, seq, body)

        def entries(*args, **kw):
            self.entries += 1
            return real_entries(*args, **kw)

        monkeypatch.setattr(History, "decode", staticmethod(decode))
        monkeypatch.setattr(store, "entries", entries)


def test_a_submit_after_a_submit_reads_no_entry_back(monkeypatch):
    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    first = r.submit(m.id, "alice", "start")
    reads = Reads(monkeypatch, r.store)
    second = r.submit(m.id, "alice", "say note=hi")
    assert second.accepted and second.seq == first.seq + 1
    assert (reads.decodes, reads.entries) == (0, 0)
    assert r.store.last_entry(m.id).prev_hash == r.store.entries(m.id, 1, 1).__next__().hash
    assert r.audit(m.id).clean


def test_a_fresh_service_asks_the_head_alone_when_it_acted(monkeypatch):
    """In a new process (nothing kept) the head's index columns answer: an accepted move waits for
    nothing, so no body is decoded; a rejected head sends the reading back to the entries before it."""
    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    r.submit(m.id, "alice", "start")
    r.submit(m.id, "alice", "say note=hi")
    fresh = Referee(r.store, games=[PILE])
    loaded = fresh.load(m.id)
    reads = Reads(monkeypatch, r.store)
    assert fresh.open_hold(loaded) is None and reads.decodes == 0
    assert not r.submit(m.id, "bob", "take 99").accepted
    fresh = Referee(r.store, games=[PILE])
    assert fresh.open_hold(fresh.load(m.id)) is None and reads.decodes == 2  # entries 2 and 1 (the rejection is read from its index columns)


def test_another_writers_append_makes_the_kept_head_unused(db):
    a, b = service(db), service(db)
    m = a.new_match("pile", ["alice", "bob"], seed=1)
    a.submit(m.id, "alice", "start")
    b.submit(m.id, "alice", "say note=from-b")  # a's kept head (entry 1) is stale now
    third = a.submit(m.id, "alice", "say note=from-a")
    assert third.seq == 3
    entries = list(a.store.entries(m.id))
    assert entries[2].prev_hash == entries[1].hash
    assert a.audit(m.id).clean and b.audit(m.id).clean


def test_a_head_gone_stale_before_the_append_is_a_conflict_then_a_retry_chains_on(db, monkeypatch):
    """Between a's reading the head and its append, b appends: the store refuses a's append (it names a
    head that is no longer the head), nothing is written, and a's next try chains to b's entry."""
    a, b = service(db), service(db)
    m = a.new_match("pile", ["alice", "bob"], seed=1)
    a.submit(m.id, "alice", "start")
    real_append = a.store.append
    raced: list[int] = []

    def append(entry, *args, **kw):
        if len(raced) < 2:  # a's try at its kept head, then its try at the head it read: both raced
            raced.append(b.submit(m.id, "alice", f"say note=from-b{len(raced)}").seq)
        return real_append(entry, *args, **kw)

    monkeypatch.setattr(a.store, "append", append)
    with pytest.raises(ConflictError) as info:
        a.submit(m.id, "alice", "say note=from-a")
    assert info.value.code == "match/stale_seq" and raced == [2, 3]
    assert a.store.head(m.id) == 3
    again = a.submit(m.id, "alice", "say note=from-a")  # what the HTTP layer's retry does
    assert again.seq == 4
    entries = list(a.store.entries(m.id))
    assert [e.seq for e in entries] == [1, 2, 3, 4] and entries[3].prev_hash == entries[2].hash
    assert b.audit(m.id).clean


def test_a_kept_head_gone_stale_is_adjudicated_again_at_the_head_read(db, monkeypatch):
    """A submit takes the head this service appended for the match's head without reading the store; when
    another writer appended in between, the store refuses that append (nothing written) and the submit
    reads the head and adjudicates there, once: the verdict is the one the new head gives."""
    a, b = service(db), service(db)
    m = a.new_match("pile", ["alice", "bob"], seed=1, options={"stones": 5})
    a.submit(m.id, "alice", "start")
    active = a.show(m.id).state["active"]
    b.submit(m.id, active, "take 3")  # 2 stones left, a's kept head does not know
    heads: list[int] = []
    real_adjudicate = core.adjudicate
    monkeypatch.setattr(core, "adjudicate", lambda rules, state, *args, **kw:
                        heads.append(state.pile) or real_adjudicate(rules, state, *args, **kw))
    other = "bob" if active == "alice" else "alice"
    res = a.submit(m.id, other, "take 3")
    assert heads == [5, 2]  # at a's kept head, refused by the store; then at the head read
    assert res.seq == 3 and not res.accepted
    with pytest.raises(ConflictError):  # a head named by the writer is still checked against the store's
        b.submit(m.id, other, "take 1", expected_seq=2)
    assert a.audit(m.id).clean


def test_a_match_named_by_its_whole_id_is_read_once_per_service(db, monkeypatch):
    """A match's row never changes: once bound, a submit by its whole id does not read it again; a prefix
    is still resolved through the store (and an unknown id is still refused)."""
    from referee.errors import NotFound

    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    r.submit(m.id, "alice", "start")
    rows: list[str] = []
    real = r.store.get_match
    monkeypatch.setattr(r.store, "get_match", lambda mid: rows.append(mid) or real(mid))
    assert r.submit(m.id, "alice", "say note=a").accepted
    assert r.submit(m.id, "alice", "say note=b").accepted
    assert rows == []
    assert r.submit(m.id[:6], "alice", "say note=c").seq == 4 and rows == [m.id[:6]]
    with pytest.raises(NotFound):
        r.submit("f" * 12, "alice", "say note=d")


def test_a_line_parsed_before_is_checked_again_for_its_seat_and_its_rules(monkeypatch):
    """A line the service parsed lately is not parsed again for the same rules, but an unknown seat is
    still refused, and a match bound to other rules (another configuration) parses it anew."""
    from referee.engine import notation
    from referee.errors import BadInput

    r = service()
    a = r.new_match("pile", ["alice", "bob"], seed=1)
    b = r.new_match("pile", ["alice", "bob"], seed=2, options={"stones": 7})
    r.submit(a.id, "alice", "start")
    r.submit(b.id, "alice", "start")
    parsed: list[str] = []
    real = notation.parse_intent
    monkeypatch.setattr(notation, "parse_intent", lambda tp, text: parsed.append(text) or real(tp, text))
    assert r.submit(a.id, "alice", "say note=x").accepted
    assert r.submit(a.id, "bob", "say note=x").accepted
    assert parsed == ["say note=x"]
    with pytest.raises(BadInput) as info:
        r.submit(a.id, "carol", "say note=x")
    assert info.value.code == "match/unknown_seat"
    assert r.submit(b.id, "alice", "say note=x").accepted and parsed == ["say note=x", "say note=x"]
    assert r.store.head(a.id) == 3 and r.audit(a.id).clean and r.audit(b.id).clean


def test_the_answer_is_worked_out_when_read_and_matches_the_log(monkeypatch):
    """A submit's notation, events and words are computed when first read, from what was appended."""
    from referee import moves as service_module

    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    r.submit(m.id, "alice", "start")
    calls: list[str] = []
    real = service_module.event_words
    monkeypatch.setattr(service_module, "event_words", lambda rules, events: calls.append("words") or real(rules, events))
    res = r.submit(m.id, r.show(m.id).state["active"], "take 2")
    assert res.accepted and calls == []
    assert res.words and calls == ["words"] and res.words is res.words and calls == ["words"]
    assert res.notation == "take count=2"
    assert res.events == r.log(m.id)[-1].events != []
    assert res.entry is not None and res.entry.seq == res.seq == r.store.head(m.id) == 2
    assert res.entry == r.store.last_entry(m.id)
