"""The access tokens' contract (:class:`referee.store.AccessTokens`): match and tournament bearer tokens,
kept as hashes, all or nothing, on every backend."""

from __future__ import annotations

import pytest

from referee.store import AccessTokens, StoreError
from support.store_contract import a_match, a_token, an_event, assert_implements, store  # noqa: F401 - fixture


def test_every_backend_implements_the_recorder(store):
    assert_implements(store, AccessTokens)


def test_tokens_are_found_by_hash(store):
    store.create_match(a_match())
    store.add_tokens([a_token("h1"), a_token("h2", role="arbiter", seat=None), a_token("h3", role="spectator", seat=None)])
    assert store.find_token("h1") == a_token("h1")
    assert store.find_token("h2").role == "arbiter" and store.find_token("h2").seat is None
    assert store.find_token("nope") is None


def test_tokens_are_all_or_nothing_and_unique(store):
    store.create_match(a_match())
    store.add_tokens([a_token("h1")])
    with pytest.raises(StoreError):
        store.add_tokens([a_token("h2"), a_token("h1")])
    assert store.find_token("h2") is None
    with pytest.raises(StoreError):
        store.add_tokens([a_token("h9", mid="absent")])
    assert store.find_token("h9") is None


def test_tournament_tokens(store):
    from referee.store import StoredTournament, StoredTournamentToken

    store.create_tournament(StoredTournament(id="t1", name="Cup", created_at="t"), [an_event(1)])
    org = StoredTournamentToken(token_hash="h1", tournament_id="t1", role="organiser")
    ann = StoredTournamentToken(token_hash="h2", tournament_id="t1", role="player", player="ann")
    store.add_tournament_tokens([org, ann])
    assert store.find_tournament_token("h2") == ann and store.find_tournament_token("nope") is None
    with pytest.raises(StoreError):
        store.add_tournament_tokens([org])
    with pytest.raises(StoreError):
        store.add_tournament_tokens([StoredTournamentToken(token_hash="h3", tournament_id="nope", role="spectator")])
    assert store.find_tournament_token("h3") is None
    store.create_tournament(StoredTournament(id="t2", name="Other", created_at="t"), [])
    store.add_tournament_tokens([StoredTournamentToken(token_hash="h0", tournament_id="t2", role="organiser")])
    assert store.tournament_tokens("t1") == [org, ann] and store.tournament_tokens("nope") == []  # (by hash)
