"""Verdicts do not answer questions about hidden cards (issue 10, item 4).

A seat that types its own intents (over HTTP with its own token) sees only its own view, so:

* a declared effect that takes a card from where it cannot see (another seat's hand) is *held* until
  that seat, or the arbiter, confirms it, as at a real table; the answer the seat gets is the same
  whatever the hidden truth is, and the confirmation, an entry of its own, is adjudicated then;
* in a digital match it may not type a chance outcome (its next card): that is refused whatever it
  says, before adjudication, so accept/reject never tells it the order of its archive.
"""

from __future__ import annotations

import msgspec
import pytest

from referee.errors import BadInput
from referee.export import export
from referee.service import Referee
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.apps import app_client

TAKE = "play_plot card=PL6 from=hand changes=move:TR1:bob.hand:bob.utility note=Raid"


def bam(bob_holds: bool):
    """alice to act, PL6 in hand; bob holds TR1 (or it lies in his archive)."""
    position = {"phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5,
                "turn.active": "alice", "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"] if bob_holds else [],
                "players.alice.unseen": ["AG2", "GF1"], "players.alice.main_archive.count": 2,
                "players.alice.extra_archive.count": 0,
                "players.bob.unseen": ["TR7"] if bob_holds else ["TR1", "TR7"],
                "players.bob.main_archive.count": 1 if bob_holds else 2, "players.bob.extra_archive.count": 0}
    r = Referee(MemoryStore(), clock=lambda: "2026-11-25T00:00:00Z")
    m = r.new_match("by_all_means", ["alice", "bob"], cards="spec", position=position)
    return r, m.id


def _answer(res) -> bytes:
    return msgspec.json.encode([res.seq, res.notation, type(res.verdict).__name__, msgspec.to_builtins(res.verdict)])


def test_a_declared_effect_on_a_hidden_hand_is_held_whatever_the_hand_holds():
    answers = []
    for holds in (True, False):
        r, mid = bam(holds)
        res = r.submit(mid, "alice", TAKE, blind=True)
        assert res.held and res.verdict.confirmer == "bob"
        answers.append((_answer(res), [msgspec.json.encode(e) for e in r.log(mid, seat="alice")]))
    assert answers[0] == answers[1]  # what alice learns does not depend on bob's hand


def test_nothing_is_played_while_an_entry_waits_and_the_confirmation_decides():
    for holds, verdict in ((True, "accepted"), (False, "rejected")):
        r, mid = bam(holds)
        held = r.submit(mid, "alice", TAKE, blind=True).seq
        blocked = r.submit(mid, "alice", "end_turn", blind=True)
        assert not blocked.accepted and blocked.verdict.code == "match/awaiting_confirmation"
        with pytest.raises(BadInput, match="waits for bob"):
            r.confirm(mid, held, by="alice")
        done = r.confirm(mid, held, by="bob")
        assert ("accepted" if done.accepted else "rejected") == verdict, done.verdict
        state = r.show(mid).state
        if holds:
            assert state["players"]["bob"]["utility"] == ["TR1"] and state["manual_effects"] == 1
        else:
            assert done.verdict.code == "by_all_means/manual_inconsistent"
            assert state["players"]["alice"]["hand"] == ["PL6"]  # nothing happened
        assert r.submit(mid, "alice", "end_turn", blind=True).accepted  # play goes on
        assert r.audit(mid).clean


def test_a_declined_effect_has_no_effect_and_the_arbiter_may_confirm():
    r, mid = bam(True)
    before = r.show(mid).state_hash
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    declined = r.confirm(mid, held, by="bob", accept=False, reason="not that card")
    assert declined.accepted and r.show(mid).state_hash == before
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    assert r.confirm(mid, held, by="arbiter").accepted
    assert r.audit(mid).clean
    with pytest.raises(BadInput, match="nothing waits"):
        r.confirm(mid, held, by="bob")


def test_the_cli_and_transcripts_see_everything_and_adjudicate_at_once():
    r, mid = bam(True)
    assert r.submit(mid, "alice", TAKE).accepted  # the arbiter's own line: no confirmation needed


def test_a_held_move_and_its_confirmation_round_trip_through_a_transcript():
    """The engine's mechanism on the test game: a guess at another seat's token waits for that seat.
    In a transcript, a move answered by a `confirm:` or `decline:` line waited for that answer."""
    from support.pile import PILE

    r = Referee(MemoryStore(), games=[PILE], clock=lambda: "")
    m = r.new_match("pile", ["alice", "bob"])
    r.submit(m.id, "alice", "start first=alice tokens=K01,K02")
    held = r.submit(m.id, "alice", "guess seat=bob token=K02", blind=True)
    assert held.held and held.verdict.confirmer == "bob"
    assert r.confirm(m.id, held.seq, by="bob").accepted
    wrong = r.submit(m.id, "bob", "guess seat=alice token=K03", blind=True)
    assert r.confirm(m.id, wrong.seq, by="alice", accept=False, reason="no").accepted
    text = export(r, m.id, "txt", "arbiter")
    assert "confirm: entry=2 by=bob" in text and 'decline: entry=4 by=alice reason="no"' in text
    again = import_transcript(r, text)
    assert not again.problems
    first = [(e.kind, e.actor, e.verdict, e.notation) for e in r.log(m.id)]
    second = [(e.kind, e.actor, e.verdict, e.notation) for e in r.log(again.match_id)]
    assert first == second and r.show(m.id).state_hash == r.show(again.match_id).state_hash
    assert r.audit(again.match_id).clean and r.audit(m.id).clean
    # a confirmation with nothing waiting is a problem of its line, and changes nothing
    bad = import_transcript(r, "game: pile\nplayers: alice, bob\nalice: start first=alice tokens=K01,K02\nconfirm: by=bob\n")
    assert [p.code for p in bad.problems] == ["confirm/nothing_to_confirm"]


def test_war_of_shadows_a_discard_from_another_hand_waits_for_that_seat():
    from test_war_of_shadows import at, new, play

    for holds in (True, False):
        pos = at("eagle", "sheriff", **{"council.eagle.sheriff": "spider", "players.spider.hand": ["eagle_c3"],
                                        **({"players.raven.hand": ["lion_c1"]} if holds else {})})
        r, mid = new(position=pos)
        play(r, mid, "spider", "play_card card=eagle_c3 ability=1 timing=before position=eagle.sheriff effect=manual")
        res = r.submit(mid, "spider", "manual_effect card=eagle_c3 deltas=discard:raven:lion_c1", blind=True)
        assert res.held and res.verdict.confirmer == "raven"
        done = r.confirm(mid, res.seq, by="raven")
        assert done.accepted is holds, done.verdict
        assert r.audit(mid).clean


def test_over_http_a_seat_gets_held_and_the_other_seat_confirms(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store)) as c:
        made = c.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "cards": "spec",
                                        "position": {"phase": "play", "first_player": "alice", "lot_winner": "alice",
                                                     "turn.number": 5, "turn.active": "alice", "turn.step": "actions",
                                                     "turn.main_left": 2, "turn.extra_left": 1,
                                                     "players.alice.hand": ["PL6"], "players.bob.hand": ["TR1"],
                                                     "players.alice.unseen": ["AG2", "GF1"],
                                                     "players.alice.main_archive.count": 2,
                                                     "players.alice.extra_archive.count": 0,
                                                     "players.bob.unseen": ["TR7"], "players.bob.main_archive.count": 1,
                                                     "players.bob.extra_archive.count": 0}}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        alice, bob = ({"Authorization": f"Bearer {tokens['seats'][s]}"} for s in ("alice", "bob"))
        answer = c.post(f"/matches/{mid}/intents", json={"intent": TAKE}, headers=alice).json()
        assert answer["verdict"] == "held" and answer["confirmer"] == "bob"
        refused = c.post(f"/matches/{mid}/confirmations", json={"entry": answer["seq"]}, headers=alice)
        assert refused.status_code == 422 and refused.json()["code"] == "confirm/not_yours"
        done = c.post(f"/matches/{mid}/confirmations", json={"entry": answer["seq"]}, headers=bob)
        assert done.status_code == 201 and done.json()["verdict"] == "accepted"
        log = c.get(f"/matches/{mid}/log", headers=alice).json()["entries"]
        assert [e["kind"] for e in log] == ["intent", "confirm"] and log[0]["meta"]["confirmer"] == "bob"


def test_a_seat_may_not_type_a_chance_outcome_in_a_digital_match():
    """Whatever card alice types for her draw, right or wrong, the answer is the same refusal."""
    r = Referee(MemoryStore())
    m = r.new_match("by_all_means", ["alice", "bob"], seed=12345)
    r.submit(m.id, "bob", "record_lot")
    top = r.load(m.id).rules  # noqa: F841 - the archive's order is the referee's
    messages = set()
    for card in ("TR1", "TR2", "AG1", "PL2"):
        with pytest.raises(BadInput) as err:
            r.submit(m.id, "alice", f"draw_opening_hand cards={card},{card},{card},{card}", blind=True)
        assert err.value.code == "input/chance_typed"
        messages.add(err.value.message)
    assert len(messages) == 1
    head = r.store.head(m.id)
    assert head == 5  # each refusal is kept as a line that changes nothing, shown to alice and the arbiter only
    assert [e.kind for e in r.log(m.id)[1:]] == ["unparsed"] * 4
    assert not any("TR1" in e.notation for e in r.log(m.id, seat="bob"))
    assert r.show(m.id).state == r.show(m.id, at=1).state
    assert r.submit(m.id, "alice", "draw_opening_hand", blind=True).accepted  # leave it out: the referee draws


def test_over_http_typed_chance_is_422_and_legal_leaves_it_out(db_store):
    store = db_store  # on each backend
    with app_client(lambda: Referee(store)) as c:
        made = c.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "seed": 99}).json()
        mid, tokens = made["match"]["id"], made["tokens"]
        bob = {"Authorization": f"Bearer {tokens['seats']['bob']}"}
        legal = c.get(f"/matches/{mid}/legal", headers=bob).json()["legal"]["bob"]
        assert "record_lot" in legal and not any("winner=" in t for t in legal)
        answer = c.post(f"/matches/{mid}/intents", json={"intent": "record_lot winner=alice"}, headers=bob)
        assert answer.status_code == 422 and answer.json()["code"] == "input/chance_typed"
        assert c.post(f"/matches/{mid}/intents", json={"intent": "record_lot"}, headers=bob).status_code == 201


def test_a_fresh_command_finds_the_waiting_entry_by_reading_back_from_the_head():
    """``referee play`` in a new process has no kept timeline: it reads the log backwards from the head
    until the last entry that acted (Referee.open_hold), and must find what the whole timeline finds —
    through rejected entries, undos of the held entry, redos of those undos, and after a confirmation."""
    r, mid = bam(True)
    seen = []

    def check() -> None:
        fresh = Referee(r.store)  # nothing kept: the backward walk
        loaded = fresh.load(mid)
        want = r.timeline(r.load(mid)).open_hold()
        assert fresh.open_hold(loaded) == want
        seen.append(want)

    check()
    held = r.submit(mid, "alice", TAKE, blind=True).seq
    check()
    for _ in range(20):  # rejected entries after it: the walk passes over them
        r.submit(mid, "bob", "end_turn", blind=True)
    check()
    assert r.confirm(mid, held, by="bob").accepted
    check()
    ended = r.submit(mid, "alice", "end_turn", blind=True)
    assert ended.accepted, ended.verdict
    undo = r.undo(mid, by="arbiter", to=ended.seq - 1)  # the walk passes over the undo and what it undid
    assert undo.accepted, undo.verdict
    check()
    assert r.redo(mid, by="arbiter", undo=undo.seq).accepted
    check()
    assert seen == [None, (held, "bob"), (held, "bob"), None, None, None]
