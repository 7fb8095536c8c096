"""The tournament log's contract (:class:`referee.store.TournamentLog`): tournaments and their chained
events, a round's matches and tokens written with its record, on every backend."""

from __future__ import annotations

import pytest

from referee.store import Conflict, StoreError, TournamentLog
from support.store_contract import a_match, an_event, assert_implements, store  # noqa: F401 - fixture


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, TournamentLog)


def test_tournament_events_append_in_order_with_a_conflict_for_a_stale_writer(store):
    from referee.store import StoredTournament

    t = StoredTournament(id="t1", name="Cup", created_at="t")
    store.create_tournament(t, [an_event(1)])
    with pytest.raises(StoreError):
        store.create_tournament(t, [an_event(1)])
    assert store.get_tournament("t1") == t and store.get_tournament("t2") is None
    assert store.find_tournaments("t") == [t] and store.list_tournaments() == [t]
    store.append_tournament_events("t1", [an_event(2), an_event(3)], expected_n=1)
    with pytest.raises(Conflict):
        store.append_tournament_events("t1", [an_event(3)], expected_n=2)
    with pytest.raises(StoreError):
        store.append_tournament_events("nope", [an_event(1, "nope")], expected_n=0)
    assert [e.n for e in store.tournament_events("t1")] == [1, 2, 3]
    assert store.tournament_events("t1", 2) == [an_event(1), an_event(2)]
    assert store.tournament_events("t1")[2].body == b"b3"


def test_a_rounds_matches_and_tokens_go_in_with_its_record_or_not_at_all(store):
    from referee.store import StoredToken, StoredTournament

    store.create_tournament(StoredTournament(id="t1", name="Cup", created_at="t"), [an_event(1)])
    store.create_match(a_match("m0"))
    tok = [StoredToken(token_hash=f"h{i}", match_id=f"m{i}", role="arbiter") for i in (1, 2)]
    # a token hash already taken (or a stale record) refuses the lot: no match, token or record is written
    with pytest.raises(StoreError):
        store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m1"), a_match("m2")],
                                       tokens=[*tok, StoredToken(token_hash="h1", match_id="m2", role="spectator")])
    with pytest.raises(Conflict):
        store.append_tournament_events("t1", [an_event(3)], expected_n=2, matches=[a_match("m1")], tokens=tok[:1])
    with pytest.raises(StoreError):  # a match that exists already
        store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m0"), a_match("m1")])
    assert store.get_match("m1") is None and store.get_match("m2") is None and store.find_token("h1") is None
    assert [e.n for e in store.tournament_events("t1")] == [1]
    store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m1"), a_match("m2")], tokens=tok)
    assert store.get_match("m2") == a_match("m2") and store.tokens("m1") == tok[:1] and store.head("m1") == 0
    assert [e.n for e in store.tournament_events("t1")] == [1, 2]


def test_an_imported_match_goes_in_whole_with_the_record_that_attaches_it_or_not_at_all(store):
    """A transcript attached to a table: the new match, its entries, annotations and transcript digest, and
    the tournament's record, in one transaction; a stale record or a misnumbered entry writes none of it."""
    from referee.store import StoredTournament
    from support.store_contract import a_note, an_entry

    store.create_tournament(StoredTournament(id="t1", name="Cup", created_at="t"), [an_event(1)])
    entries = [an_entry(1), an_entry(2, verdict="rejected")]
    note = a_note(1, "", "n1")
    with pytest.raises(Conflict):
        store.append_tournament_events("t1", [an_event(3)], expected_n=2, matches=[a_match("m1")], entries=entries,
                                       annotations=[note], transcripts=[("d1", "m1")])
    with pytest.raises(StoreError):  # entries must number on from the new match's start
        store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m1")],
                                       entries=[entries[1]], transcripts=[("d1", "m1")])
    with pytest.raises(StoreError):  # and be a new match's
        store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m1")],
                                       entries=[an_entry(1, mid="m9")])
    assert store.get_match("m1") is None and store.find_transcript("d1") == []
    assert [e.n for e in store.tournament_events("t1")] == [1]
    store.append_tournament_events("t1", [an_event(2)], expected_n=1, matches=[a_match("m1")], entries=entries,
                                   annotations=[note], transcripts=[("d1", "m1")])
    assert list(store.entries("m1")) == entries and store.head("m1") == 2
    assert store.annotations("m1") == [note] and store.find_transcript("d1") == ["m1"]
    assert [e.n for e in store.tournament_events("t1")] == [1, 2]
