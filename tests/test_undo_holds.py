"""Undo and held moves: a move held for a confirmation is an action an undo takes back, whether it still
waits or was confirmed (the confirmation belongs to it); a declined or refused one changed nothing."""

from __future__ import annotations

import pytest

from referee.errors import BadInput
from referee.service import Referee
from referee.store.memory import MemoryStore

TAKE = "play_plot card=PL6 from=hand changes=move:TR1:bob.hand:bob.utility note=Raid"


def bam(undo: str = "any", bob_holds: bool = True) -> tuple[Referee, str]:
    """alice to act with PL6 in hand; bob holds TR1 (a declared effect on his hand waits for him)."""
    position = {"phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5,
                "turn.active": "alice", "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"] if bob_holds else [],
                "players.alice.unseen": ["AG2", "GF1"], "players.alice.main_archive.count": 2,
                "players.alice.extra_archive.count": 0,
                "players.bob.unseen": ["TR7"] if bob_holds else ["TR1", "TR7"],
                "players.bob.main_archive.count": 1 if bob_holds else 2, "players.bob.extra_archive.count": 0}
    r = Referee(MemoryStore(), clock=lambda: "2026-11-25T00:00:00Z")
    m = r.new_match("by_all_means", ["alice", "bob"], cards="spec", position=position, undo=undo)
    return r, m.id


def _hold(r: Referee, mid: str) -> tuple[int, str] | None:
    return r.timeline(r.load(mid)).open_hold()


def test_a_confirmed_move_is_undone_whole_and_redone():
    r, mid = bam()
    before = r.show(mid).state_hash
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    assert r.confirm(mid, held, by="bob").accepted
    after = r.show(mid).state_hash
    assert after != before
    undo = r.undo(mid, by="arbiter")
    assert undo.accepted, undo.verdict
    assert r.log(mid)[-1].meta["to"] == held - 1  # back to before the move, not to the waiting move
    assert r.show(mid).state_hash == before and _hold(r, mid) is None
    assert r.redo(mid, by="arbiter").accepted
    assert r.show(mid).state_hash == after
    assert r.audit(mid).clean


def test_own_last_lets_the_mover_take_back_a_confirmed_move_and_not_the_confirmer():
    r, mid = bam(undo="own_last")
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    assert r.confirm(mid, held, by="bob").accepted
    refused = r.undo(mid, by="bob")
    assert not refused.accepted and refused.verdict.code == "undo/not_allowed"
    assert r.undo(mid, by="alice").accepted
    assert r.audit(mid).clean


def test_a_waiting_move_may_be_taken_back_before_it_is_answered():
    r, mid = bam(undo="own_last")
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    assert _hold(r, mid) == (held, "bob")
    assert r.undo(mid, by="alice").accepted
    assert _hold(r, mid) is None
    assert r.submit(mid, "alice", "end_turn", blind=True).accepted  # nothing waits any more
    assert r.audit(mid).clean


def test_undoing_only_the_confirmation_makes_the_move_wait_again():
    r, mid = bam()
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    assert r.confirm(mid, held, by="bob").accepted
    assert r.undo(mid, by="arbiter", to=held).accepted
    assert _hold(r, mid) == (held, "bob")
    assert r.confirm(mid, held, by="bob", accept=False).accepted
    assert r.audit(mid).clean


@pytest.mark.parametrize("how", ["declined", "refused"])
def test_a_move_that_changed_nothing_is_not_undone(how):
    r, mid = bam(bob_holds=how == "declined")  # refused: bob never held TR1
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    answer = r.confirm(mid, held, by="bob", accept=how == "refused")
    assert answer.accepted == (how == "declined")
    with pytest.raises(BadInput, match="no accepted or held move"):
        r.undo(mid, by="arbiter")
    refused = r.undo(mid, by="arbiter", to=0)
    assert not refused.accepted and refused.verdict.code == "undo/nothing_to_undo"
    assert r.audit(mid).clean
