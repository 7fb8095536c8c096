"""The transcript index's contract (:class:`referee.store.TranscriptIndex`): which matches were imported
from which transcript, on every backend."""

from __future__ import annotations

import pytest

from referee.store import StoreError, TranscriptIndex
from support.store_contract import a_match, an_entry, assert_implements, store  # noqa: F401 - fixture


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, TranscriptIndex)


def test_a_transcript_digest_finds_the_matches_imported_from_it(store):
    assert store.find_transcript("d1") == []
    store.create_match(a_match("m1"), [an_entry(1)], transcript="d1")
    store.create_match(a_match("m2"), transcript="d2")
    store.create_match(a_match("m3"), transcript="d1")
    assert store.find_transcript("d1") == ["m1", "m3"] and store.find_transcript("d2") == ["m2"]
    with pytest.raises(StoreError):  # all or nothing: a match refused leaves no digest behind
        store.create_match(a_match("m4"), [an_entry(2, "m4")], transcript="d3")
    assert store.find_transcript("d3") == [] and store.get_match("m4") is None


def test_transcript_digests_are_listed_and_added_for_a_copy(store):
    store.create_match(a_match("m1"), transcript="d2")
    store.create_match(a_match("m2"))
    store.create_match(a_match("m3"), transcript="d1")
    assert store.transcripts() == [("d1", "m3"), ("d2", "m1")]
    store.add_transcript("d2", "m2")
    assert store.find_transcript("d2") == ["m1", "m2"]
    assert store.transcripts() == [("d1", "m3"), ("d2", "m1"), ("d2", "m2")]
    with pytest.raises(StoreError):
        store.add_transcript("d2", "m2")  # recorded already
    with pytest.raises(StoreError):
        store.add_transcript("d3", "nope")  # no such match
    assert store.find_transcript("d3") == [] and len(store.transcripts()) == 3
