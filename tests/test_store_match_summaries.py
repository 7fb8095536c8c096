"""The match summaries' contract (:class:`referee.store.MatchSummaries`): each match's summary written in
the same transaction as the entry (or the match, or the round's matches) that changes it, replaced by
each append, rewritten from the logs by ``put_summaries``, on every backend."""

from __future__ import annotations

import msgspec
import pytest

from referee.store import Conflict, DuplicateRequest, MatchSummaries, MatchSummary, StoredRequest, StoreError
from support.store_contract import (  # noqa: F401 - fixtures
    a_match,
    an_entry,
    an_event,
    assert_implements,
    store,
)
from referee.store import StoredTournament


def a_summary(seq: int, mid: str = "m1", **changes) -> MatchSummary:
    base = MatchSummary(match_id=mid, game="g", rules_version="1", created_at="t", seats=("alice", "bob"),
                        status="playing", head=seq, head_hash=f"h{seq}", last_activity=f"at{seq}", event="club",
                        round="2", table="7", title="a title", seed_commitment="c0")
    return msgspec.structs.replace(base, **changes)


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, MatchSummaries)


def test_a_match_created_with_its_summary_lists_it(store):
    assert store.summaries() == [] and store.summary("m1") is None
    store.create_match(a_match(), summary=a_summary(0))
    assert store.summary("m1") == a_summary(0)
    assert store.summaries() == [a_summary(0)]


def test_each_append_replaces_the_summary_with_every_field_kept(store):
    store.create_match(a_match(), summary=a_summary(0))
    store.append(an_entry(1), expected_seq=0, summary=a_summary(1))
    over = a_summary(2, status="over", outcome=b'{"how":"win","winners":["alice"]}', parent="p0", fork_seq=3)
    store.append(an_entry(2), expected_seq=1, summary=over)
    assert store.summary("m1") == over
    assert store.summaries() == [over]


def test_an_append_without_a_summary_leaves_it(store):
    store.create_match(a_match(), summary=a_summary(0))
    store.append(an_entry(1), expected_seq=0)
    assert store.summary("m1") == a_summary(0)


def test_a_refused_append_writes_no_summary(store):
    """A stale writer's or a reused key's append changes neither the log nor the summary: they are one
    transaction."""
    store.create_match(a_match(), summary=a_summary(0))
    store.append(an_entry(1), expected_seq=0, summary=a_summary(1), request=StoredRequest(
        match_id="m1", key="k", fingerprint="f", seq=0))
    with pytest.raises(Conflict):
        store.append(an_entry(1), expected_seq=0, summary=a_summary(1, status="over"))
    with pytest.raises(DuplicateRequest):
        store.append(an_entry(2), expected_seq=1, summary=a_summary(2), request=StoredRequest(
            match_id="m1", key="k", fingerprint="f", seq=0))
    assert store.summary("m1") == a_summary(1)
    assert store.head("m1") == 1


def test_a_summary_of_another_match_is_refused_and_nothing_written(store):
    store.create_match(a_match(), summary=a_summary(0))
    store.create_match(a_match("m2"), summary=a_summary(0, "m2"))
    with pytest.raises(StoreError):
        store.append(an_entry(1), expected_seq=0, summary=a_summary(1, "m2"))
    assert store.head("m1") == 0 and store.summary("m2") == a_summary(0, "m2")
    with pytest.raises(StoreError):
        store.create_match(a_match("m3"), summary=a_summary(0, "m4"))
    assert store.get_match("m3") is None and store.summary("m4") is None


def test_summaries_are_listed_by_creation_then_id(store):
    for mid, created in (("b", "t2"), ("c", "t1"), ("a", "t2")):
        store.create_match(msgspec.structs.replace(a_match(mid), created_at=created),
                           summary=a_summary(0, mid, created_at=created))
    assert [s.match_id for s in store.summaries()] == ["c", "a", "b"]


def test_put_summaries_rewrites_and_refuses_an_unknown_match_whole(store):
    store.create_match(a_match())
    store.create_match(a_match("m2"))
    assert store.summaries() == []  # a match written without one (an older database) has none
    store.put_summaries([a_summary(0), a_summary(0, "m2")])
    assert [s.match_id for s in store.summaries()] == ["m1", "m2"]
    with pytest.raises(StoreError):
        store.put_summaries([a_summary(5), a_summary(0, "nope")])
    assert store.summary("m1") == a_summary(0) and store.summary("nope") is None
    store.put_summaries([a_summary(5)])
    assert store.summary("m1") == a_summary(5)


def test_a_rounds_matches_get_their_summaries_with_the_record(store):
    store.create_tournament(StoredTournament(id="t1", name="cup", created_at="t"), [an_event(1)])
    store.append_tournament_events("t1", [an_event(2)], 1, matches=[a_match("r1"), a_match("r2")],
                                   summaries=[a_summary(0, "r1"), a_summary(0, "r2")])
    assert [s.match_id for s in store.summaries()] == ["r1", "r2"]
    with pytest.raises(Conflict):  # a stale record: neither matches nor summaries
        store.append_tournament_events("t1", [an_event(2)], 1, matches=[a_match("r3")], summaries=[a_summary(0, "r3")])
    with pytest.raises(StoreError):  # a summary of no match of the round: nothing
        store.append_tournament_events("t1", [an_event(3)], 2, matches=[a_match("r4")], summaries=[a_summary(0, "r5")])
    assert store.get_match("r4") is None and store.summary("r5") is None
    assert [s.match_id for s in store.summaries()] == ["r1", "r2"]


def test_a_summary_with_no_seats_or_texts_reads_back_the_same(store):
    bare = MatchSummary(match_id="m1", game="g", rules_version="1", created_at="t", seats=(), status="playing",
                        head=0, head_hash="g0", last_activity="t")
    store.create_match(a_match(), summary=bare)
    assert store.summary("m1") == bare


def test_the_matches_without_a_summary_are_named(store):
    """What a listing builds first: matches written before summaries were kept (or copied without one)."""
    for mid in ("m3", "m1", "m2"):
        store.create_match(a_match(mid), summary=a_summary(0, mid) if mid == "m2" else None)
    assert store.unsummarised() == ["m1", "m3"]
    store.put_summaries([a_summary(0, "m3")])
    assert store.unsummarised() == ["m1"]


def test_the_listing_puts_forks_under_their_parents_and_pages_in_the_database(store):
    """``listed`` is the fork tree of :func:`tree_order` over ``summaries`` (a match, then its forks depth
    first, each level by creation then id; a fork whose parent has no summary at the top), whatever page of
    it is asked for; ids that begin with other ids and equal clock readings sort as the tuples do."""
    from referee.store.base import tree_order

    assert store.listed() == [] and store.listed(3, 2) == []
    rows = (("ab", "t2", None), ("a", "t2", None), ("c", "t1", None), ("a1", "t4", "a"), ("a0", "t5", "a"),
            ("a00", "t3", "a0"), ("ab0", "t3", "ab"), ("o", "t0", "gone"), ("a01", "t3", "a0"))
    for mid, created, parent in rows:
        store.create_match(msgspec.structs.replace(a_match(mid), created_at=created),
                           summary=a_summary(0, mid, created_at=created, parent=parent))
    whole = store.listed()
    assert whole == tree_order(store.summaries())
    assert [(s.match_id, depth) for s, depth in whole] == [
        ("o", 0), ("c", 0), ("a", 0), ("a1", 1), ("a0", 1), ("a00", 2), ("a01", 2), ("ab", 0), ("ab0", 1)]
    for offset in range(0, 11):
        for limit in (None, 0, 1, 3, 20):
            assert store.listed(offset, limit) == (whole[offset:] if limit is None else whole[offset:offset + limit])


def test_a_long_page_is_the_same_page(store, monkeypatch):
    """A page at least PAGE_BY_IDS_MAX long is read whole and ordered; a shorter one by its ids: the same."""
    from referee.store import base

    for mid, created, parent in (("b", "t1", None), ("a", "t2", None), ("a1", "t0", "a"), ("b1", "t3", "b")):
        store.create_match(msgspec.structs.replace(a_match(mid), created_at=created),
                           summary=a_summary(0, mid, created_at=created, parent=parent))
    short = [store.listed(offset, 2) for offset in range(5)]
    monkeypatch.setattr(base, "PAGE_BY_IDS_MAX", 2)
    assert [store.listed(offset, 2) for offset in range(5)] == short
    assert [[s.match_id for s, _ in page] for page in short] == [["b", "b1"], ["b1", "a"], ["a", "a1"], ["a1"], []]


def test_a_listing_without_forks_is_the_summaries_in_order(store):
    for mid, created in (("b", "t2"), ("c", "t1"), ("a", "t2")):
        store.create_match(msgspec.structs.replace(a_match(mid), created_at=created),
                           summary=a_summary(0, mid, created_at=created))
    assert store.listed() == [(s, 0) for s in store.summaries()]
    assert [s.match_id for s, _ in store.listed(1, 1)] == ["a"]
