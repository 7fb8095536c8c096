"""X-Files' events as domain facts (issue 28 item 5): stored logs in the older vocabulary (every event
carrying its state-path ``changes``) still decode, fold to the same state hashes and audit clean.

``tests/fixtures/xfiles-paths-2026-11-28.db`` was written by the referee before the change
(``tests/fixtures/make_xfiles_paths_db.py``): the two-agents replay imported and a digital match with an
undo; ``xfiles-paths-2026-11-28.json`` holds its heads and every entry's state hash then.
"""

from __future__ import annotations

import glob
import json
import os
import shutil

import msgspec
import pytest

from conftest import ROOT
from referee.engine import core
from referee.games.xfiles_encounters import txn
from referee.scenario import run_file
from referee.service import Referee
from referee.store.sqlite import SqliteStore
from support import playthroughs

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
OLD = os.path.join(FIXTURES, "xfiles-paths-2026-11-28")


@pytest.fixture()
def old_log(tmp_path):
    path = tmp_path / "old.db"
    shutil.copyfile(OLD + ".db", path)
    ref = Referee(SqliteStore(str(path)))
    yield ref
    ref.store.close()


def test_old_vocabulary_logs_audit_clean_with_the_same_heads(old_log):
    with open(OLD + ".json", encoding="utf-8") as fh:
        then = json.load(fh)
    assert sorted(m.id for m in old_log.store.list_matches()) == sorted(then)
    for mid, was in then.items():
        report = old_log.audit(mid)
        assert report.clean, (mid, report.findings)
        assert (report.head, report.head_hash) == (was["head"], was["head_hash"])


def test_old_vocabulary_logs_fold_to_the_same_state_hashes(old_log):
    """Every entry's state, folded from the stored events, hashes as it did when written; and so does
    the state at an entry read from the stored snapshots (every 25th entry and the head)."""
    with open(OLD + ".json", encoding="utf-8") as fh:
        then = json.load(fh)
    for mid, was in then.items():
        loaded = old_log.load(mid)
        state, hashes = loaded.initial, []
        for _entry, body in old_log.bodies(loaded):  # one fold from setup (state_at each entry folds again)
            state = old_log.advance(loaded, state, body)
            hashes.append(core.state_hash(state))
        assert hashes == was["state_hashes"], mid
        for seq in sorted({*range(25, was["head"] + 1, 25), was["head"]}):
            assert core.state_hash(Referee(old_log.store).state_at(loaded, seq)[1]) == hashes[seq - 1], (mid, seq)


# -- the cross-check: the fold of the facts gives what the recorded paths gave --------------------------------

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "xfiles_encounters", "*.toml")))


@pytest.fixture()
def checked(monkeypatch):
    """Every X-Files event folded as decide says it and compared with decide's working copy."""
    monkeypatch.setattr(txn, "CHECK", True)


@pytest.mark.parametrize("name", ["xfiles_encounters.lone-agent", "xfiles_encounters.two-agents",
                                  "xfiles_encounters.random"])
def test_every_event_folds_to_what_decide_changed(checked, name):
    """Over the bundled replays and the seeded random game: entry by entry, every event folded (a fact
    through its handler, any other kind through its paths) gives the working copy decide left; a
    domain fact carries no paths. The playthrough's verdicts, codes and state hashes stay as pinned."""
    source = next(s for s in playthroughs.sources() if s.name == name)
    now = playthroughs.compute(source)
    with open(playthroughs.path_of(source), encoding="utf-8") as fh:
        pinned = fh.read()
    assert _pinned_columns(now) == _pinned_columns(pinned)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.basename(p))
def test_every_scenario_event_folds_to_what_decide_changed(checked, path):
    report = run_file(path)
    assert report.passed, "\n".join(f.render(path) for f in report.failures)


def _pinned_columns(text: str) -> list[tuple[str, ...]]:
    """seq, actor, kind, verdict, code, state hash and move of every entry (the events column left out)."""
    rows = [line.split("\t") for line in text.splitlines() if line[:1].isdigit()]
    return [(*r[:5], *r[6:]) for r in rows]


def test_an_old_entry_is_compared_with_the_derived_one_by_what_it_does(old_log):
    """The audit's like with like: an imported replay's entries, stored in vocabulary 1, re-adjudicated
    now give other events (facts, no paths), which fold to the very state the stored ones fold to;
    the stored events of one entry do not pass for another's."""
    from referee.engine.entries import Move
    from referee.engine.protocol import Accepted
    from referee.games.xfiles_encounters.model import VOCABULARY

    match = next(m for m in old_log.store.list_matches() if m.title != "digital")
    loaded = old_log.load(match.id)
    rules = loaded.rules
    compared, previous, after = 0, None, loaded.initial
    for stored in old_log.entries(loaded.match, 1, 80):
        body = old_log.decode(loaded, stored.seq, stored.body)
        state, after = after, old_log.advance(loaded, after, body)  # folded once, entry by entry
        if not isinstance(body.act, Move) or not isinstance(body.verdict, Accepted):
            continue
        _, derived = core.adjudicate(rules, state, body.actor, body.intent, None)
        assert isinstance(derived, Accepted)
        assert all(e.vocabulary == 1 for e in body.verdict.events)
        if any(e.vocabulary == VOCABULARY for e in derived.events):
            assert derived != body.verdict
            assert rules.same_verdict(state, body.verdict, derived)
            compared += 1
            if previous is not None:
                assert not rules.same_verdict(state, previous, derived)
        previous = body.verdict
    assert compared > 20


def test_what_a_fact_leaves_unsaid_is_kept_as_paths(monkeypatch):
    """Outside the cross-check, a fact whose fold does not give what decide did (here: a handler that
    forgets points gained) carries the difference as paths, so the log still folds to the very states
    pinned, and the fold an entry is replayed with is the one recorded."""
    from referee.games.xfiles_encounters import fold, model

    monkeypatch.setitem(fold.HANDLERS._table, model.PointsGained, lambda state, event: state)
    source = next(s for s in playthroughs.sources() if s.name == "xfiles_encounters.two-agents")
    referee, match_id, _ = playthroughs._import(source, playthroughs._memory)
    gained = [e for entry in referee.log(match_id) for e in entry.events or () if e["type"] == "points_gained"]
    assert gained and all(e["changes"] for e in gained)
    assert referee.audit(match_id).clean
    with open(playthroughs.path_of(source), encoding="utf-8") as fh:
        pinned = [line.split("\t")[6] for line in fh.read().splitlines() if line[:1].isdigit()]
    assert [entry.state_hash for entry in referee.log(match_id)] == pinned


def test_a_player_fought_folds_to_what_decide_changed(checked):
    """The one fact no replay or scenario says: fighting a player an effect named (the grant used up)."""
    from test_xfiles_encounters import P2, new, play, state

    hand = ["strike_team"] * 6
    r, mid = new(position={**P2, "players.alice.hand": hand, "turn.grants": ["fight_player:bob"]})
    for _ in range(4):
        play(r, mid, "alice", "play_card card=strike_team")
    res = play(r, mid, "alice", "fight_player seat=bob")
    fought = [e for e in res.verdict.events if type(e).__name__ == "PlayerFought"]
    assert fought and fought[0].vocabulary == 2 and not fought[0].changes
    assert state(r, mid)["turn"]["grants"] == []


# -- every kind a fact, and the facts no replay or scenario says --------------------------------------------


def test_every_kind_but_the_declared_effect_is_a_fact():
    """Newly adjudicated, no X-Files event carries state paths but the declared effect: every other kind
    has a handler in fold.py, so decide says it as a fact (vocabulary 2), and the cross-check (above and
    below) holds that its handler folds to exactly what decide did."""
    from referee.games.xfiles_encounters import fold, model

    assert [k.__name__ for k in model.EVENT_TYPES if fold.HANDLERS.get(k) is None] == ["ManualEffectApplied"]


def test_the_replays_carry_no_paths_but_declared_effects():
    source = next(s for s in playthroughs.sources() if s.name == "xfiles_encounters.two-agents")
    referee, match_id, _ = playthroughs._import(source, playthroughs._memory)
    events = [e for entry in referee.log(match_id) for e in entry.events or ()]
    assert {e["type"] for e in events if e.get("changes")} == {"manual_effect_applied"}
    assert all(e.get("vocabulary") == 2 for e in events if e["type"] != "manual_effect_applied")


@pytest.mark.parametrize("name", [
    "test_replication_places_a_clone_that_must_be_defeated_too",  # the Clone placed and revealed
    "test_no_death_saves_a_player_before_the_end_and_skips_their_next_turn",  # a player saved, the turn cut short
    "test_legal_offers_declared_effects_grants_avoid_and_cancel_and_each_is_accepted",  # strikes avoided, cancelled
])
def test_the_rarer_facts_fold_to_what_decide_changed(checked, name):
    """Facts no replay or scenario says, in the game's own tests, under the cross-check."""
    import test_xfiles_encounters

    getattr(test_xfiles_encounters, name)()


SWIFT = {"status": "in_progress", "pending": [], "turn.phase": "action", "turn.seat": "alice", "season": "A",
         "players.alice.hand": ["fx_follmer_push", "strike_team", "strike_team", "field_agent"],
         "shadows.2": {"state": "revealed", "card": "fx_s3_warrior"}}


def test_a_fight_interrupted_by_a_swift_strike_fails_for_a_fighter_saved_before(checked):
    """A Swift card strikes first (§4.10); a fighter who skips their next turn under no_death does not
    fight on: fight_failed, a fact saying only that the fight is over."""
    from test_xfiles_encounters import OPTS, new, play, state

    r, mid = new(options={**OPTS, "no_death": True}, position={**SWIFT, "players.alice.skip_next_turn": True})
    for card in ("fx_follmer_push", "strike_team", "strike_team"):
        play(r, mid, "alice", f"play_card card={card}")
    play(r, mid, "alice", "fight target=shadows.2")
    assert state(r, mid)["turn"]["fight_target"] == "shadows.2:fx_s3_warrior"
    res = play(r, mid, "alice", "take_strike card=fx_strike_2")
    failed = [e for e in res.verdict.events if type(e).__name__ == "FightFailed"]
    assert failed and failed[0].vocabulary == 2 and failed[0].fight == "" and not failed[0].changes
    s = state(r, mid)
    assert s["turn"]["fight_target"] == "" and s["shadows"]["2"]["card"] == "fx_s3_warrior"


def test_a_clone_placed_on_the_conspiracy_deck(checked):
    """Replication revealed in the Shadows' last slot puts the Clone on top of the Conspiracy deck, a
    stack of its own, known to all: the next Conspiracy phase places it."""
    from test_xfiles_encounters import P2, new, play, state

    position = {**P2, "shadows.5": {"state": "hidden", "origin": "end_game"},
                "evidence.1": {"state": "collected", "card": "fx_ev1_01"},
                "conspiracy_deck.segments": [{"label": "end_game", "remaining": 0, "quota": {"end_game": 1}}]}
    r, mid = new(position=position)
    for _ in range(5):
        play(r, mid, "alice", "play_card card=strike_team")
    play(r, mid, "alice", "scan location=shadows.5")
    res = play(r, mid, "alice", "reveal card=replication")
    placed = [e for e in res.verdict.events if type(e).__name__ == "ClonePlaced"]
    assert placed and placed[0].to == "conspiracy_deck" and placed[0].n == 2 and not placed[0].changes
    s = state(r, mid)
    assert s["conspiracy_deck"]["segments"][0]["cards"] == ["clone"]
    assert [e["priority"] for e in s["clone_evidence"]] == [2, 3]


def test_the_declared_effect_vocabulary_names_the_state_as_it_is():
    """A declared effect keeps its paths (manual.py): the parts of the state they may name, and the fields
    of every record a path or its value holds, are listed as data. A state field renamed, added or
    removed changes what stored declared effects mean: this fails until the listing follows, with
    MANUAL_VOCABULARY bumped and an upcast of the older paths."""
    import msgspec.inspect as mi

    from referee.games.xfiles_encounters import manual, model

    records: dict[str, tuple[str, ...]] = {}

    def walk(tp: object) -> None:
        if isinstance(tp, mi.StructType) and tp.cls.__name__ not in records:
            fields = [f for f in tp.fields if not (tp.cls is model.State and f.encode_name == "options")]
            records[tp.cls.__name__] = tuple(sorted(f.encode_name for f in fields))
            for f in fields:
                walk(f.type)
        elif isinstance(tp, mi.ListType):
            walk(tp.item_type)
        elif isinstance(tp, mi.DictType):
            walk(tp.value_type)
        elif isinstance(tp, mi.UnionType):
            for t in tp.types:
                walk(t)

    walk(mi.type_info(model.State))
    assert records == manual.MANUAL_RECORDS
    assert manual.MANUAL_PATHS == {f.encode_name for f in msgspec.structs.fields(model.State)} - {"options"}
    assert manual.MANUAL_VOCABULARY == model.ManualEffectApplied().paths == 1


def test_a_field_only_read_is_shared_and_a_changed_one_is_the_working_copys():
    """``Working.peek`` reads a field without making it the decision's own: the start's plain data,
    shared by identity between peeks, equal to what ``d[key]`` would copy; once the decision has made the
    field its own (and changed it), peek reads that copy. A peeked field is no change the fold is compared
    against: the decision's events stay empty."""
    source = next(s for s in playthroughs.sources() if s.name == "xfiles_encounters.two-agents")
    referee, match_id, _ = playthroughs._import(source, playthroughs._memory)
    loaded = referee.load(match_id)
    state = referee.state_at(loaded, referee.store.head(match_id) // 2)[1]
    tx = txn.Tx(loaded.rules, state, loaded.rules.players[0])
    for name, key in txn._FIELDS:
        seen = tx.d.peek(key)
        assert seen == msgspec.to_builtins(getattr(state, name)), key
        assert tx.d.peek(key) is seen, key
    assert not dict.keys(tx.d), "peek made a field the decision's own"
    assert tx._diff(tx.state) == []
    own = tx.d["sector"]
    assert tx.d.peek("sector") is own
    own.append("x")
    assert tx.d.peek("sector")[-1] == "x" and msgspec.to_builtins(state.sector)[-1:] != ["x"]
    assert [c.path for c in tx._diff(tx.state)] == ["sector"]
