"""Binding a match (its card data parsed and checked, its rules object and the position after setup)
happens once per process per configuration (:mod:`referee.binding`): kept by the configuration's hash,
shared by every match of that configuration, at most ``BOUND_MAX`` kept, nothing kept for a
configuration the game refuses; and matches sharing one rules object play exactly as they would alone."""

from __future__ import annotations

import random

import pytest

from referee import binding
from referee.engine import core
from referee.errors import BadInput
from referee.service import Referee
from referee.store import open_store
from referee.store.memory import MemoryStore
from support.pile import PileGame


class CountingPile(PileGame):
    """Pile, counting how often a configuration is bound."""

    def __init__(self) -> None:
        self.bound = 0

    def bind(self, config):
        self.bound += 1
        return super().bind(config)


@pytest.fixture(autouse=True)
def _fresh_bindings():
    binding.forget()
    yield
    binding.forget()


def test_a_configuration_is_bound_once_per_process():
    game = CountingPile()
    referee = Referee(MemoryStore(), games=(game,))
    first = referee.new_match("pile", ["alice", "bob"], options={"stones": 7}).id
    referee.submit(first, "alice", "take count=1")
    assert game.bound == 1  # checked at creation, then loaded and played: bound once
    again = Referee(MemoryStore(), games=(game,))  # another service in the same process
    _, config = again.new_config("pile", ["alice", "bob"], options={"stones": 7})
    second = again.create_match(game, config).id
    assert again.load(second).rules is referee.load(first).rules
    assert game.bound == 1
    referee.new_match("pile", ["alice", "bob"], options={"stones": 8})
    assert game.bound == 2  # another configuration: bound anew


def test_the_least_recently_used_binding_goes_first(monkeypatch):
    monkeypatch.setattr(binding, "BOUND_MAX", 2)
    game = CountingPile()
    referee = Referee(MemoryStore(), games=(game,))
    configs = [referee.new_config("pile", ["alice", "bob"], options={"stones": n})[1] for n in (5, 6, 7)]
    for config in configs[:2]:
        referee._bind(game, config)
    referee._bind(game, configs[0])  # used again: now the most recent
    assert game.bound == 2
    referee._bind(game, configs[2])  # a third: the least recently used (stones=6) goes
    referee._bind(game, configs[0])
    assert game.bound == 3
    referee._bind(game, configs[1])
    assert game.bound == 4


def test_a_refused_configuration_is_refused_each_time_and_not_kept():
    game = CountingPile()
    referee = Referee(MemoryStore(), games=(game,))
    _, config = referee.new_config("pile", ["alice", "bob"], options={"stones": 5})
    import msgspec

    bad = msgspec.structs.replace(config, position={"pile": -1})
    for _ in range(2):
        with pytest.raises(BadInput) as refused:
            referee._bind(game, bad)
        assert refused.value.code == "pile/position_invalid"
    assert game.bound == 2
    assert referee.store.list_matches() == []


def _play(referee: Referee, match_id: str, rng: random.Random) -> tuple[str, str] | None:
    loaded = referee.load(match_id)
    _, state = referee.state_at(loaded)
    if loaded.rules.outcome(state) is not None:
        return None
    pick = loaded.rules.random_intent(state, rng)
    if pick is None:
        return None
    from referee.engine.notation import format_intent

    seat, intent = pick
    return seat, format_intent(intent)


def _hashes(referee: Referee, match_id: str) -> list[str]:
    m = referee.store.get_match(match_id)
    return [e.state_hash for e in referee.store.entries(m.id, 1, referee.store.head(m.id))]


def test_matches_sharing_a_binding_play_as_they_would_alone(db):
    """Two By All Means matches of one configuration (one rules object, whose last decision and field
    scan are kept on it), played move by move in turn, reach every state they reach played alone."""
    store = open_store(db)
    try:
        referee = Referee(store)
        game, config = referee.new_config("by_all_means", ["alice", "bob"], seed=5)
        ids = [referee.create_match(game, config).id for _ in range(2)]
        assert referee.load(ids[0]).rules is referee.load(ids[1]).rules
        rngs = [random.Random(1), random.Random(2)]
        lines: list[list[tuple[str, str]]] = [[], []]
        for _ in range(40):
            for i, match_id in enumerate(ids):
                line = _play(referee, match_id, rngs[i])
                if line is not None:
                    referee.submit(match_id, *line)
                    lines[i].append(line)
        assert lines[0] != lines[1] and min(map(len, lines)) >= 20
        together = [_hashes(referee, match_id) for match_id in ids]
        # folded anew from the log by another service of this process (the same rules object): each
        # entry's state, not the one the other match's last decision reached
        other = Referee(store)
        for match_id, hashes in zip(ids, together):
            loaded = other.load(match_id)
            assert loaded.rules is referee.load(ids[0]).rules
            for seq in (5, 20, len(hashes)):
                assert core.state_hash(other.state_at(loaded, seq)[1]) == hashes[seq - 1]
    finally:
        store.close()
    for i in range(2):
        binding.forget()
        alone = Referee(MemoryStore())
        match_id = alone.create_match(game, config).id
        for seat, text in lines[i]:
            alone.submit(match_id, seat, text)
        assert _hashes(alone, match_id) == together[i]
