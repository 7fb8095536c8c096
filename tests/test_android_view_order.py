"""Android's view puts its mappings in key order where it builds them (the state's builtins come sorted,
the few mappings it adds keys to are sorted once) instead of sorting the whole view again, recursively,
on every answer: the same bytes as that recursive sort of the view built from the state's builtins in
their own order, for every role, on the states of random games (live and decoded from snapshots, setup
to the end, under every visibility option)."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest

from referee.engine.notation import format_intent
from referee.games.android import view as android_view
from referee.service import Referee
from referee.store.memory import MemoryStore


def _recursively_sorted(value: Any) -> Any:
    """What the view's answer used to be made with: every mapping in it sorted, at every depth."""
    if isinstance(value, dict):
        return {k: _recursively_sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_recursively_sorted(v) for v in value]
    return value


def _states(seats: int, seed: int, options: dict[str, Any]):
    """Every sixth state of a random game (``random_intent``) and its last, from ``state_at`` (a snapshot
    every 5 entries, so some are decoded from one and some folded live), with its rules and roles."""
    r = Referee(MemoryStore(), snapshot_every=5)
    players = [f"s{i}" for i in range(seats)]
    mid = r.new_match("android", players, seed=seed, cards="demo", options=options).id
    loaded = r.load(mid)
    rng = random.Random(seed)
    for n in range(600):
        _, state = r.state_at(loaded)
        over = loaded.rules.outcome(state) is not None
        if n % 6 == 0 or over:
            yield loaded.rules, state, [None, *players, "spectator"]
        if over:
            return
        seat, intent = loaded.rules.random_intent(state, rng)
        assert r.submit(mid, seat, format_intent(intent)).accepted


@pytest.mark.parametrize("seats,seed,options", [
    (3, 21, {"closing_reveal": "evidence_only", "memory_card_visibility": "public"}),
    (5, 22, {}),
])
def test_the_view_is_in_key_order_at_every_depth_as_the_recursive_sort_gave_it(monkeypatch, seats, seed, options):
    checked, phases = 0, set()
    for rules, state, roles in _states(seats, seed, options):
        phases.add(state.phase)
        for role in roles:
            now = rules.view(state, role)
            with monkeypatch.context() as m:  # the state's builtins in their own order, as before
                m.setattr(android_view, "_builtins", msgspec.to_builtins)
                before = _recursively_sorted(rules.view(state, role))
            assert json.dumps(now) == json.dumps(before), (state.phase, role)
            checked += 1
    assert {"setup", "day", "over"} <= phases and checked > 150, (phases, checked)


def test_the_check_above_tells_an_unsorted_view_from_a_sorted_one():
    """An unsorted mapping anywhere in the view changes the bytes the test above compares."""
    view = {"b": 1, "a": {"d": [{"y": 1, "x": 2}], "c": 3}}
    assert json.dumps(view) != json.dumps(_recursively_sorted(view))
    assert json.dumps(_recursively_sorted(view)) == '{"a": {"c": 3, "d": [{"x": 2, "y": 1}]}, "b": 1}'
