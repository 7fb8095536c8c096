"""Chance never re-rolls (issue 23, point 3), for X-Files and Android: random legal play of a digital
match through the service, interleaved with random undo (then the same moves played again), redo and
refused lines (an unreadable line, an illegal move, a seat typing a chance value), draws what the same
moves played straight in a fresh match with the same seed draw; a fork from entry N draws what the main
line drew at N + 1. The figures of a run are printed (pytest -s)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from referee.engine.chance import Chance, typed_chance
from referee.engine.notation import format_intent
from referee.errors import RefereeError
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.timeline import ARBITER

#: game, seats, the keyword arguments of its match, how many moves the line in effect runs to
GAMES = {
    "xfiles_encounters": (["ann", "ben"], {"cards": "demo"}, 60),
    "android": (["s0", "s1", "s2"], {"cards": "demo"}, 80),
}


@dataclass
class Move:
    seq: int
    seat: str
    text: str
    recorded: bytes  # the intent as the referee recorded it, chance filled in
    intent: Any = None


def _new(game: str, seed: int) -> tuple[Referee, str]:
    seats, kwargs, _ = GAMES[game]
    r = Referee(MemoryStore(), clock=lambda: "")
    return r, r.new_match(game, seats, seed=seed, **kwargs).id


def _drew(r: Referee, mid: str, move: Move) -> bool:
    """Whether the referee filled a chance outcome into the move."""
    return bool(typed_chance(r.load(mid).rules.chance_fields(move.intent), move.intent))


def seed_of(loaded: Any) -> int:
    return int(loaded.config.seed or 0)


def _refuse(r: Referee, mid: str, state: Any, rng: random.Random, stats: Counter[str]) -> Move | None:
    """One refused line; a Move if the 'illegal' move turned out legal (it is then part of the line)."""
    loaded = r.load(mid)
    rules, seats = loaded.rules, list(loaded.config.players)
    kind = rng.choice(("unreadable", "illegal", "typed"))
    if kind == "unreadable":
        with pytest.raises(RefereeError):
            r.submit(mid, rng.choice(seats), rng.choice(("@@ ???", "frobnicate now", "= = =", "")))
        stats["refused"] += 1
        stats[kind] += 1
        return None
    pick = rules.random_intent(state, rng)
    assert pick is not None
    seat, intent = pick
    if kind == "typed":  # the seat types the outcome the referee would draw: refused before adjudication
        filled = rules.filled_intent(state, seat, intent, Chance(seed_of(loaded), "a guess"))
        if isinstance(filled, (msgspec.Struct,)) and typed_chance(rules.chance_fields(filled), filled):
            with pytest.raises(RefereeError) as exc:
                r.submit(mid, seat, format_intent(filled), blind=True)
            assert exc.value.code == "input/chance_typed"
            stats["refused"] += 1
            stats[kind] += 1
        return None
    others = [s for s in seats if s != seat and intent not in rules.legal_intents(state, s)]
    if not others:
        return None
    res = r.submit(mid, rng.choice(others), format_intent(intent))
    if res.accepted:
        return Move(res.seq, res.actor, format_intent(intent), msgspec.json.encode(res.intent), res.intent)
    stats["refused"] += 1
    stats[kind] += 1
    return None


def play_messy(game: str, seed: int) -> tuple[Referee, str, list[Move], Counter[str]]:
    """The line in effect after random play with undo, replay, redo and refused lines in between."""
    r, mid = _new(game, seed)
    target = GAMES[game][2]
    loaded = r.load(mid)
    rng = random.Random(seed)
    line: list[Move] = []
    undone: list[Move] = []  # the moves the undo in effect took back (replayed or redone next)
    stats: Counter[str] = Counter()
    while len(line) < target:
        _, state = r.state_at(loaded)
        if loaded.rules.outcome(state) is not None:
            break
        roll = rng.random()
        if undone and roll < 0.5:
            if rng.random() < 0.5:  # redo: the same entries come back
                res = r.redo(mid, by=ARBITER)
                assert res.accepted, res.verdict
                line += undone
                stats["redos"] += 1
            else:  # the same moves again: the same outcomes
                for m in undone:
                    res = r.submit(mid, m.seat, m.text)
                    assert res.accepted, (m.text, res.verdict)
                    again = msgspec.json.encode(res.intent)
                    assert again == m.recorded, f"{m.text!r} drew {again!r} after an undo, {m.recorded!r} before"
                    line.append(Move(res.seq, m.seat, m.text, again, res.intent))
                    stats["replayed"] += 1
            undone = []
            continue
        if roll < 0.25:
            legal_move = _refuse(r, mid, state, rng, stats)
            if legal_move is not None:
                line.append(legal_move)
                undone = []
            continue
        if roll < 0.37 and line:
            k = min(len(line), rng.randint(1, 3))
            res = r.undo(mid, by=ARBITER, to=line[-k].seq - 1)
            assert res.accepted, res.verdict
            undone, line = line[-k:], line[:-k]
            stats["undos"] += 1
            continue
        pick = loaded.rules.random_intent(state, rng)
        assert pick is not None, "someone can act while the game goes on"
        seat, intent = pick
        text = format_intent(intent)
        res = r.submit(mid, seat, text)
        assert res.accepted, (text, res.verdict)
        line.append(Move(res.seq, seat, text, msgspec.json.encode(res.intent), res.intent))
        undone = []
    return r, mid, line, stats


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_redo_and_refused_lines_never_reroll(game, seed):
    r, mid, line, stats = play_messy(game, seed)
    straight, sid = _new(game, seed)
    for m in line:
        res = straight.submit(sid, m.seat, m.text)
        assert res.accepted, (m.text, res.verdict)
        got = msgspec.json.encode(res.intent)
        assert got == m.recorded, f"{m.text!r} drew {got!r} played straight, {m.recorded!r} in the messy match"
    assert straight.show(sid).state_hash == r.show(mid).state_hash
    draws = [m for m in line if _drew(r, mid, m)]
    assert draws, "the line draws something"
    assert stats["undos"] and stats["refused"]
    assert r.show(mid).outcome is None  # a fork of a finished match is a reopening (the arbiter's): not this test
    # a fork from the entry before a draw draws what the main line drew
    forks = random.Random(seed).sample(draws, min(4, len(draws)))
    for m in forks:
        fork = r.fork(mid, at=m.seq - 1).id
        res = r.submit(fork, m.seat, m.text)
        assert res.accepted and msgspec.json.encode(res.intent) == m.recorded, (m.text, res.verdict)
    print(f"\n{game} seed {seed}: {len(line)} moves in effect, {stats['undos']} undos ({stats['replayed']} moves "
          f"replayed), {stats['redos']} redos, {stats['refused']} refused lines ({stats['unreadable']} unreadable, "
          f"{stats['illegal']} illegal, {stats['typed']} typed chance), {len(draws)} draws compared, "
          f"{len(forks)} forks")


# -- what a seat might try instead of an undo ---------------------------------------------------------------------

def _play(r: Referee, mid: str, seat: str, text: str) -> Any:
    res = r.submit(mid, seat, text)
    assert res.accepted, (text, res.verdict)
    return res.intent


def test_android_a_draw_cancelled_back_into_the_deck_is_drawn_again_and_moving_first_changes_nothing():
    """§4.30's cancel puts the drawn card back face down: drawing again draws it again (no redraw by
    cancelling). A move made before the draw leaves the draw alone."""
    four = ["raymond", "rachel", "louis", "caprice"]

    def new() -> tuple[Referee, str]:
        r = Referee(MemoryStore(), clock=lambda: "")
        return r, r.new_match("android", four, cards="FX-1", seed=5, position={"phase": "day"}).id

    r, mid = new()
    first = _play(r, mid, "raymond", "draw_twilight_card deck=raymond.light").card
    _play(r, mid, "raymond", "manual_effect deltas=cancel_last_action")
    assert first in r.show(mid).state["decks"]["raymond"]["light"]["face_down"]
    assert _play(r, mid, "raymond", "draw_twilight_card deck=raymond.light").card == first
    second = _play(r, mid, "raymond", "draw_twilight_card deck=raymond.light").card
    r2, mid2 = new()
    _play(r2, mid2, "raymond", "move to=a_plus_athletic_club")
    assert _play(r2, mid2, "raymond", "draw_twilight_card deck=raymond.light").card == first
    assert _play(r2, mid2, "raymond", "draw_twilight_card deck=raymond.light").card == second


def test_xfiles_a_card_played_before_the_strike_phase_leaves_the_strike_card_alone():
    position = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice",
                "sector": ["fx_s1_grey"], "players.alice.hand": ["strike_team", "strike_team"]}

    def strike(moves: list[str]) -> str:
        r = Referee(MemoryStore(), clock=lambda: "")
        mid = r.new_match("xfiles_encounters", ["alice", "bob"], cards="spec_fixture", seed=4, position=position,
                          options={"avatars": {"alice": "skinner", "bob": "mulder"}}).id
        for text in moves:
            _play(r, mid, "alice", text)
        return str(_play(r, mid, "alice", "take_strike").card)

    assert strike(["end_actions"]) == strike(["play_card card=strike_team", "end_actions"]) == \
        strike(["play_card card=strike_team", "play_card card=strike_team", "end_actions"])
