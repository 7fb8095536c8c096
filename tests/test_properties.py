"""Property tests over every registered game (and the test game): random legal play from
``legal_intents``; the live fold equals a replay of the log, every verdict re-adjudicates the same,
and a random point's state equals the fold of the entries before it."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES_ENV
from referee.engine import core
from referee.engine.notation import format_intent, parse_intent
from referee.games import GAMES
from referee.service import Referee
from referee.store.memory import MemoryStore
from support.pile import PILE

ALL = (*GAMES, PILE)


def games(ci: int) -> int:
    """How many random games a test below plays of each game: ``ci`` under ``REFEREE_HYPOTHESIS=ci``, half
    of it in the quick loop (each example is a whole game played and folded again; conftest's ``examples``
    tries at least 20, more than CI plays here)."""
    return ci if os.environ.get(EXAMPLES_ENV, "") == "ci" else max(ci // 2, 3)


def play_random(game, seed: int, steps: int, players: int | None = None):
    referee = Referee(MemoryStore(), games=ALL, snapshot_every=7)
    n = players or game.min_players
    seats = [f"p{i}" for i in range(n)]
    m = referee.new_match(game.id, seats, seed=seed)
    loaded = referee.load(m.id)
    rng = random.Random(seed)
    live_hashes = []
    for _ in range(steps):
        _, state = referee.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        options = [(s, i) for s in seats for i in loaded.rules.legal_intents(state, s)]
        assert options, f"{game.id}: no legal intent for anyone while the game is not over"
        seat, intent = options[rng.randrange(len(options))]
        text = format_intent(intent)
        assert parse_intent(game.intent_type, text) == intent  # notation round-trips
        res = referee.submit(m.id, seat, text)
        assert res.accepted, f"{game.id}: legal_intents offered {text!r} to {seat} but it was {res.verdict}"
        live_hashes.append(res.state_hash)
    return referee, m.id, live_hashes


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.id)
@settings(max_examples=games(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 120), probe=st.integers(0, 10_000))
def test_live_fold_equals_replay(game, seed, steps, probe):
    referee, mid, live = play_random(game, seed, steps)
    # replay from the stored log in a fresh service (no caches, snapshots ignored)
    fresh = Referee(MemoryStore(), games=ALL, snapshot_every=0)
    fresh.store.create_match(referee.store.get_match(mid), list(referee.store.entries(mid)))
    loaded = fresh.load(mid)
    state = loaded.initial
    for (entry, body), expected in zip(fresh.bodies(loaded), live):
        state = core.apply(loaded.rules, state, body.verdict)
        assert core.state_hash(state) == expected == entry.state_hash
    assert fresh.verify(mid) == []
    if live:
        n = probe % (len(live) + 1)
        assert referee.show(mid, at=n) == fresh.show(mid, at=n)


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.id)
@settings(max_examples=games(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(2, 80), probe=st.integers(0, 10_000))
def test_state_at_n_with_and_without_snapshots_and_undo_redo(game, seed, steps, probe):
    referee, mid, live = play_random(game, seed, steps)
    if not live:
        return
    plain = Referee(referee.store, games=ALL, use_snapshots=False)
    n = probe % (len(live) + 1)
    with_snap = referee.show(mid, at=n)
    assert with_snap == plain.show(mid, at=n)
    # the fold of the first n entries, by hand
    loaded = plain.load(mid)
    state = loaded.initial
    for _entry, body in plain.bodies(loaded, 1, n):
        state = plain.advance(loaded, state, body)
    assert core.state_hash(state) == with_snap.state_hash
    # undo to n, then redo: the state is the original again
    original = referee.show(mid).state_hash
    timeline = referee.timeline(referee.load(mid))
    if timeline.actions_after(n):
        undo = referee.undo(mid, by="arbiter", to=n)
        assert undo.accepted and referee.show(mid).state_hash == with_snap.state_hash
        assert referee.redo(mid, by="arbiter").accepted
        assert referee.show(mid).state_hash == original
        assert referee.audit(mid).clean


SORTED = __import__("msgspec").json.Encoder(order="sorted")


@pytest.mark.parametrize("game", ALL, ids=lambda g: g.id)
@settings(max_examples=games(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 150))
def test_state_bytes_are_the_fully_sorted_encoding(game, seed, steps):
    """``core.state_bytes`` skips sorting struct fields for state types declared in sorted order: the
    bytes (and so every recorded hash) must be those of the fully sorted encoder, on every state."""
    referee, mid, _ = play_random(game, seed, steps)
    loaded = referee.load(mid)
    state = loaded.initial
    for _entry, body in referee.bodies(loaded):
        state = referee.advance(loaded, state, body)
        assert core.state_bytes(state) == SORTED.encode(state)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_every_game_declares_its_state_in_sorted_order(game):
    """A convention (see a game's model.py): state hashes then need no sorting of struct fields."""
    assert core.declared_sorted(game.state_type)


def test_loose_or_unsorted_types_take_the_sorted_encoder():
    # anything typed loosely, or a struct declared out of order, takes the sorted encoder
    import msgspec

    class Loose(msgspec.Struct):
        a: object

    class Unsorted(msgspec.Struct):
        b: int
        a: int

    class Tagged(msgspec.Struct, tag_field="type"):
        a: int  # the tag is encoded first by declared order, but sorts after "a"

    assert not core.declared_sorted(Loose) and not core.declared_sorted(Unsorted)
    assert not core.declared_sorted(Tagged)
    for value in (Unsorted(b=1, a=2), Tagged(a=1)):
        assert core.state_bytes(value) == SORTED.encode(value)
