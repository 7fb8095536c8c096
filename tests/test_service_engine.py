"""The service layer and the engine on a tiny game (tests/support/pile.py): verdicts are logged,
bad input writes nothing, the hash chain and state hashes catch tampering, chance is reproducible."""

from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from conftest import ROOT
from referee.engine import core
from referee.errors import BadInput, ConflictError, NotFound
from referee.service import Referee
from referee.store.memory import MemoryStore
from schemas import Outcome
from referee.store import open_store
from support.pile import PILE


def service(path=None, **kw):
    return Referee(open_store(path) if path else MemoryStore(), games=[PILE], **kw)


def contents(db):
    """Everything the database holds (to show that nothing was written)."""
    if db.startswith("postgresql://"):
        from support.pg import dump

        return dump(db)
    return open(db, "rb").read()


def tamper(db, sql):
    """Run ``sql`` on the database behind the referee's back, its append-only trigger dropped."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("ALTER TABLE entries DISABLE TRIGGER entries_append_only")
            conn.execute(sql)
        return
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER entries_append_only_update")
    conn.execute(sql)
    conn.commit()
    conn.close()


def play(r, mid, *moves):
    return [r.submit(mid, seat, text) for seat, text in moves]


def test_accepted_and_rejected_intents_are_both_logged(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    res = play(r, m.id, ("alice", "start"), ("bob", "take 5"), ("alice", "say note=hi"))
    assert res[0].accepted
    assert res[1].verdict.code in ("pile/bad_count", "turn/not_your_turn")
    log = r.log(m.id)
    assert [e.verdict for e in log] == ["accepted", "rejected", "accepted"]
    assert log[1].rejection is not None and log[1].rejection.code == res[1].verdict.code


def test_framework_checks_run_before_the_game(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], options={"stones": "2"}, chance="physical")
    play(r, m.id, ("alice", "start first=alice tokens=K01,K02"))
    assert r.submit(m.id, "bob", "take 1").verdict.code == "turn/not_your_turn"
    assert r.submit(m.id, "alice", "take 2").accepted
    over = r.submit(m.id, "bob", "take 1")
    assert over.verdict.code == "match/over"
    assert r.show(m.id).outcome == Outcome(winners=("alice",), reason="last_stone")


@pytest.mark.parametrize(
    "seat,text,code",
    [
        ("carol", "take 1", "match/unknown_seat"),
        ("alice", "tkae 1", "input/unknown_verb"),
        ("alice", "take count=lots", "input/invalid"),
        ("alice", "take colour=red", "input/unknown_argument"),
        ("alice", "take", "input/missing_argument"),
        ("alice", 'say note="unbalanced', "input/invalid"),
        ("alice", "start first=alice tokens=K01,ZZZ", "input/unknown_reference"),
        ("alice", "say mode=shout", "input/invalid"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(db, seat, text, code):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    play(r, m.id, ("alice", "start"))
    before = contents(db), r.store.head(m.id)
    with pytest.raises(BadInput) as info:
        r.submit(m.id, seat, text)
    assert info.value.code == code
    assert info.value.message  # says what is wrong
    assert r.store.head(m.id) == before[1]


def test_unknown_match_and_option_and_players():
    r = service()
    with pytest.raises(NotFound):
        r.show("nope")
    with pytest.raises(BadInput, match="no option 'stonez'.*did you mean stones"):
        r.new_match("pile", ["a", "b"], options={"stonez": "3"})
    with pytest.raises(BadInput, match="whole number"):
        r.new_match("pile", ["a", "b"], options={"stones": "many"})
    with pytest.raises(BadInput, match="takes 2 to 4 players"):
        r.new_match("pile", ["a"])
    with pytest.raises(BadInput, match="must differ"):
        r.new_match("pile", ["a", "a"])
    with pytest.raises(NotFound, match="unknown game"):
        r.new_match("chess", ["a", "b"])
    assert r.matches() == []


def test_stale_writer_gets_a_conflict_and_nothing_is_written(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=1)
    play(r, m.id, ("alice", "start"))
    with pytest.raises(ConflictError) as info:
        r.submit(m.id, "alice", "say", expected_seq=0)
    assert info.value.code == "match/stale_seq" and info.value.detail["head"] == 1
    assert r.submit(m.id, "alice", "say", expected_seq=1).seq == 2


def test_digital_chance_is_filled_recorded_and_checked():
    r = service()
    m = r.new_match("pile", ["alice", "bob"], seed=42)
    first = r.submit(m.id, "bob", "start")
    assert "first=" in first.notation and "tokens=" in first.notation
    r2 = service()
    m2 = r2.new_match("pile", ["alice", "bob"], seed=42)
    assert r2.submit(m2.id, "alice", first.notation).accepted  # same seed, same outcome
    r3 = service()
    m3 = r3.new_match("pile", ["alice", "bob"], seed=42)
    wrong = "start first=alice tokens=K06,K05" if "K06" not in first.notation else "start first=bob tokens=K01,K02"
    assert r3.submit(m3.id, "alice", wrong).verdict.code == "pile/chance_mismatch"


def test_state_at_n_with_and_without_snapshots_agree(db):
    a = service(db, snapshot_every=2)
    m = a.new_match("pile", ["alice", "bob"], options={"stones": "30"}, seed=5)
    a.submit(m.id, "alice", "start")
    for i in range(12):
        st = a.show(m.id).state
        a.submit(m.id, st["active"], f"take {1 + i % 3}")
    b = Referee(MemoryStore(), games=[PILE], snapshot_every=0)
    b.store.create_match(a.store.get_match(m.id), list(a.store.entries(m.id)))
    for n in range(0, 14):
        assert Referee(open_store(db), games=[PILE]).show(m.id, at=n) == b.show(m.id, at=n)


def test_hash_chain_and_audit_catch_tampering(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=3)
    r.submit(m.id, "alice", "start")
    st = r.show(m.id).state
    r.submit(m.id, st["active"], "take 2")
    assert r.verify(m.id) == []
    if db.startswith("postgresql://"):
        tamper(db, "UPDATE entries SET body = convert_to(replace(convert_from(body, 'UTF8'), '\"count\":2', '\"count\":3'), 'UTF8') WHERE seq = 2")
    else:
        tamper(db, "UPDATE entries SET body = replace(body, '\"count\":2', '\"count\":3') WHERE seq = 2")
    findings = service(db).verify(m.id)
    assert findings and findings[0].startswith("entry 2:") and "hash" in findings[0]


def test_replay_in_a_new_process_gives_byte_identical_hashes(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob", "carol"], options={"stones": "12"}, seed=9)
    r.submit(m.id, "alice", "start")
    for _ in range(5):
        st = r.show(m.id).state
        r.submit(m.id, st["active"], "take 2")
    here = r.show(m.id).state_hash
    code = (
        "import sys; sys.path.insert(0, 'tests');"
        "from support.pile import PILE; from referee.service import Referee;"
        "from referee.store import open_store;"
        f"print(Referee(open_store({db!r}), games=[PILE]).show({m.id!r}).state_hash)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == here
    assert here == core.state_hash(r.state_at(r.load(m.id))[1])


def test_log_is_redacted_for_a_seat(db):
    r = service(db)
    m = r.new_match("pile", ["alice", "bob"], seed=11)
    r.submit(m.id, "alice", "start")
    tokens = r.show(m.id).state["tokens"]
    as_bob = repr(r.log(m.id, seat="bob")) + repr(r.show(m.id, seat="bob"))
    assert tokens["bob"] in as_bob
    assert tokens["alice"] not in as_bob
    assert tokens["alice"] in repr(r.log(m.id))


@pytest.mark.parametrize("game,players", [("by_all_means", ["alice", "bob"]), ("war_of_shadows", ["anna", "boris", "vera"])])
def test_deciding_leaves_no_cyclic_garbage(game, players):
    """An audit makes a decision per entry: one that held itself (a bound method of its own stored on
    it) would be freed only by the cyclic collector, which an audit keeps off while it walks; that once
    cost an audit a third of its time and kept every decision's states alive until the end."""
    import gc
    import random

    from referee.engine.notation import format_intent

    r = Referee(MemoryStore())
    m = r.new_match(game, players, cards="demo", seed=5)
    rng = random.Random(5)
    loaded = r.load(m.id)
    for _ in range(30):
        pick = loaded.rules.random_intent(r.state_at(loaded)[1], rng)
        if pick is None:
            break
        r.submit(m.id, pick[0], format_intent(pick[1]))
    state = r.state_at(loaded)[1]
    candidates = [(s, i) for s in players for i in loaded.rules.legal_intents(state, s)][:20]
    assert candidates
    chance = core.chance_for(loaded.config, "probe")
    # what the process holds already (a worker's earlier tests: gigabytes on a busy one) is set aside, so the
    # collection below walks only what the decisions made, not the whole heap twice
    gc.freeze()
    gc.disable()
    try:
        for _ in range(20):
            for seat, intent in candidates:
                core.adjudicate(loaded.rules, state, seat, intent, chance)
        left = gc.collect()
    finally:
        gc.enable()
        gc.unfreeze()
    assert left < 2 * len(candidates), f"{left} objects were freed only by the cyclic collector"
