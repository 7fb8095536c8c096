"""A page of the log costs what it shows (issue 12, item 3): ``Referee.log`` of ``start..stop`` (or the
``last`` N), the HTTP log page and the live stream's backlog read the page's entries, their annotations
and the accepted undos and redos after the page's first entry, and fold no state. What they answer is
exactly the slice of the whole log for every role: undone-by marks, annotations and redaction alike.
The tests run on both backends (conftest's ``module_db`` and ``db``: SQLite, PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import examples
from referee.access import Access, Principal
from referee.engine.notation import format_intent
from referee.errors import BadInput
from referee.redaction import View, annotations_by_entry
from referee.service import Referee
from referee.store import Store, open_store
from referee.store.sqlite import SqliteStore
from referee.timeline import Header, Timeline, undone_marks
from support.apps import app_client

PLAYERS = ["south", "north"]
ROLES = [None, "south", "north", "spectator"]

#: the ~600-entry matches below are played once per backend: the module's tests share one xdist worker
pytestmark = pytest.mark.xdist_group("log_pages")

#: the one store kept per PostgreSQL database (a pool of connections each: one per reader would be hundreds)
_SHARED: dict[str, Store] = {}


def store_at(db: str) -> Store:
    """A store over ``db`` for a new service: on SQLite a connection of its own, on PostgreSQL the one
    pool of that database (a new :class:`Referee` over it starts with caches as cold)."""
    if not db.startswith("postgresql://"):
        return SqliteStore(db)
    if db not in _SHARED:
        _SHARED[db] = open_store(db)
    return _SHARED[db]


@pytest.fixture(scope="module", autouse=True)
def _close_shared():
    yield
    while _SHARED:
        _SHARED.popitem()[1].close()


def play(r: Referee, mid: str, entries: int, seed: int) -> None:
    """Random legal play with undos (deep ones when a game ends, short ones at random), redos right
    after some of them, rejected intents and annotations for everyone, one seat or the arbiter."""
    loaded = r.load(mid)
    rng = random.Random(seed)
    head = r.store.head(mid)
    stop = head + entries
    while head < stop:
        _, state = r.state_at(loaded)
        over = loaded.rules.outcome(state) is not None
        roll = rng.random()
        if over or (head > 5 and roll < 0.08):
            line = [s for s in r.timeline(loaded).line if r.timeline(loaded).headers[s].kind == "intent"]
            back = rng.randint(1, 12 if over else 3)
            res = r.undo(mid, by="arbiter", to=line[-back] - 1 if len(line) >= back else 0)
            if res.accepted and rng.random() < 0.3:
                res = r.redo(mid, by="arbiter", undo=res.seq)
        elif roll < 0.12:  # a seat that may not act now: rejected, and logged
            seat = rng.choice(PLAYERS)
            res = r.submit(mid, seat, "end_turn")
        else:
            options = [(s, i) for s in PLAYERS for i in loaded.rules.legal_intents(state, s)]
            seat, intent = options[rng.randrange(len(options))]
            res = r.submit(mid, seat, format_intent(intent))
        head = res.seq
        if rng.random() < 0.1:
            audience = rng.choice(["all", "all", "arbiter", *PLAYERS])
            r.annotate(mid, rng.randint(1, head), f"note on {head}", by="arbiter", audience=audience)


#: (SQLite file, match, fork) of the matches this process played for the SQLite variant of :func:`match`, which
#: the PostgreSQL variant copies (the module's tests run on one worker, SQLite's first)
_PLAYED: list[tuple[str, str, str]] = []


def _play_match(path: str) -> tuple[str, str]:
    store = store_at(path)
    r = Referee(store, snapshot_every=16)
    m = r.new_match("by_all_means", PLAYERS, seed=7)
    play(r, m.id, 600, seed=7)
    fork = r.fork(m.id, at=250)
    play(r, fork.id, 40, seed=8)
    r.undo(fork.id, by="arbiter", to=200)
    play(r, fork.id, 30, seed=9)
    return m.id, fork.id


@pytest.fixture(scope="module")
def match(module_db, tmp_path_factory) -> tuple[str, str, str]:
    """(database, match, fork): a match of ~600 entries, and a fork of it at 250 with entries of its
    own and undos back past the fork point. On PostgreSQL they are the ones played on SQLite for the SQLite
    variant (or, if it did not run here, played on a SQLite file) copied over (``referee db copy``'s
    copy_matches: the same entries, snapshots and annotations), what the tests below read there: playing
    them through PostgreSQL cost this module's worker five times the CPU, and PostgreSQL's appends, undos
    and annotations are played by test_a_page_stays_right_as_the_log_grows and the store contract suite."""
    path = module_db
    if not path.startswith("postgresql://"):
        mid, fork_id = _play_match(path)
        _PLAYED[:] = [(path, mid, fork_id)]
        return path, mid, fork_id
    if _PLAYED:
        played, mid, fork_id = _PLAYED[0]
    else:
        played = str(tmp_path_factory.mktemp("played") / "r.db")
        mid, fork_id = _play_match(played)
    from referee.dbcopy import copy_matches

    store, target = store_at(played), store_at(path)
    assert copy_matches(store, target).created == 2
    for m in (mid, fork_id):
        assert list(target.entries(m)) == list(store.entries(m)) and target.annotations(m) == store.annotations(m)
    store.close()
    return path, mid, fork_id


def whole_log(r: Referee, mid: str, role: str | None) -> list[Any]:
    """The log as it was computed before pages: every entry, the whole timeline, every annotation."""
    loaded = r.load(mid)
    view = View(loaded, r.role(loaded, role))
    timeline = r.timeline(loaded)
    notes = annotations_by_entry(r.store.annotations(loaded.match.id))
    return [view.entry(entry, body, undone_by=timeline.undone_by.get(entry.seq),
                       annotations=notes.get(entry.seq, ()))[0] for entry, body in r.bodies(loaded)]


def windows(head: int, jumps: list[int]) -> list[tuple[int, int]]:
    """Pages at the start, the end, across undos and redos, of one entry and of many."""
    rng = random.Random(head)
    out = [(1, 100), (1, head), (head - 99, head), (head, head), (1, 1), (head // 2, head // 2 + 99)]
    out += [(max(1, j - d), min(head, j + e)) for j in rng.sample(jumps, min(12, len(jumps)))
            for d, e in ((0, 0), (5, 0), (30, 40))]
    out += [(a, min(head, a + rng.randint(0, 150))) for a in rng.sample(range(1, head + 1), 10)]
    return out


@pytest.mark.parametrize("which", ["match", "fork"])
def test_a_page_is_the_slice_of_the_whole_log_for_every_role(match, which):
    path, mid, fork = match
    mid = mid if which == "match" else fork
    r = Referee(store_at(path))
    head = r.store.head(mid)
    loaded = r.load(mid)
    timeline = r.timeline(loaded)
    jumps = [s for s, h in timeline.headers.items() if h.kind in ("undo", "redo") and h.accepted]
    assert len(jumps) > 10 and timeline.undone_by and any(h.kind == "redo" and h.accepted for h in timeline.headers.values())
    for role in ROLES:
        full = whole_log(r, mid, role)
        assert len(full) == head and (role is not None or any(e.annotations for e in full))
        assert r.log(mid, seat=role) == full
        warm = Referee(store_at(path))  # one service asked page after page (its caches warm)
        for start, stop in windows(head, jumps):
            cold = Referee(store_at(path))
            assert cold.log(mid, seat=role, start=start, stop=stop) == full[start - 1:stop], (role, start, stop)
            assert warm.log(mid, seat=role, start=start, stop=stop) == full[start - 1:stop], (role, start, stop)
        assert r.log(mid, seat=role, last=100) == full[-100:]
        assert r.log(mid, seat=role, start=head - 100, stop=head - 50, last=7) == full[head - 57:head - 50]
        assert r.log_page(mid, seat=role, offset=head - 30, limit=100).entries == full[-30:]
        assert list(r.log_stream(mid, seat=role, start=2)) == full[1:]


def test_pages_of_a_database_written_in_entry_format_1(tmp_path):
    """An older database's undos and redos (format-1 bodies) mark its pages as its whole timeline does."""
    import os
    import shutil

    path = str(tmp_path / "legacy.db")
    shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "legacy-2026-11-25.db"), path)
    r = Referee(SqliteStore(path))
    kinds = set()
    for m in r.store.list_matches():
        head = r.store.head(m.id)
        kinds |= {kind for _seq, kind, _to in r.jumps(r.load(m.id), 1, head)}
        for role in (None, "spectator"):
            full = whole_log(r, m.id, role)
            for start in range(1, head + 1, 3):
                assert Referee(SqliteStore(path)).log(m.id, seat=role, start=start, stop=start + 4) == full[start - 1:start + 4]
    assert kinds == {"undo", "redo"}


def test_a_page_stays_right_as_the_log_grows(db):
    """A service that has answered pages (and kept the undos it read) answers the same as a new one
    after undos, redos and annotations are appended."""
    path = db
    r = Referee(store_at(path))
    mid = r.new_match("by_all_means", PLAYERS, seed=3).id
    play(r, mid, 80, seed=3)
    reader = Referee(store_at(path))
    for rounds in range(4):
        head = r.store.head(mid)
        for start, stop in ((head - 20, head), (40, 60), (1, head)):
            assert reader.log(mid, start=start, stop=stop) == whole_log(Referee(store_at(path)), mid, None)[start - 1:stop]
        play(r, mid, 30, seed=10 + rounds)


def test_ranges_past_the_head_are_empty_and_bad_ones_refused(match):
    path, mid, _ = match
    r = Referee(store_at(path))
    head = r.store.head(mid)
    assert r.log(mid, start=head + 1) == []
    assert r.log(mid, start=head - 1, stop=head + 50) == r.log(mid)[-2:]
    assert r.log(mid, start=10, stop=9) == [] and r.log(mid, last=0) == []
    assert r.log_page(mid, offset=head + 5).entries == []
    for bad in ({"start": 0}, {"stop": -1}, {"last": -3}):
        with pytest.raises(BadInput) as exc:
            r.log(mid, **bad)
        assert exc.value.code == "match/bad_seq"
    with pytest.raises(BadInput):  # refused when asked, not when the first entry is read
        r.log_stream(mid, seat="nobody")


def test_http_pages_and_the_live_backlog_are_the_same_slices(match):
    path, mid, _ = match
    r = Referee(store_at(path))
    head = r.store.head(mid)
    access = Access(Referee(store_at(path)))
    for role, principal in ((None, Principal(mid, "arbiter")), ("north", Principal(mid, "seat", "north")),
                            ("spectator", Principal(mid, "spectator"))):
        full = whole_log(r, mid, role)
        for offset in (0, 250, head - 100, head - 1, head):
            page = access.log(principal, offset=offset, limit=100)
            assert page.entries == full[offset:offset + 100] and page.head == page.total == head
        assert access.entries_after(principal, 420, limit=50) == (head, full[420:470])
    # one token per backend: the PostgreSQL match is the SQLite one copied, tokens and all (the fixture)
    token = "pages-test-arbiter-" + ("postgres" if path.startswith("postgresql://") else "sqlite")
    from referee.auth import hash_token
    from referee.store import StoredToken

    r.store.add_tokens([StoredToken(token_hash=hash_token(token), match_id=mid, role="arbiter")])
    with app_client(lambda: Referee(store_at(path))) as client:
        for as_ in ("arbiter", "south", "spectator"):
            want = whole_log(r, mid, None if as_ == "arbiter" else as_)
            got = client.get(f"/matches/{mid}/log", params={"offset": 300, "limit": 100, "as": as_},
                             headers={"Authorization": f"Bearer {token}"}).json()
            assert [e["seq"] for e in got["entries"]] == list(range(301, 401))
            assert got["entries"] == [_json(e) for e in want[300:400]]


def _json(entry: Any) -> Any:
    import msgspec

    return msgspec.json.decode(msgspec.json.encode(entry))


# -- what a page reads -------------------------------------------------------------------------------


class CountingStore:
    """A store that counts what is read through it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.rows: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr) or name in ("head", "get_match", "find_matches"):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            out = attr(*args, **kwargs)
            if hasattr(out, "__iter__") and not isinstance(out, (bytes, str)):
                out = list(out)
                self.rows[name] = self.rows.get(name, 0) + len(out)
            else:
                self.rows[name] = self.rows.get(name, 0) + 1
            return out

        return counted


@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_a_page_reads_its_entries_and_the_jumps_after_it_and_folds_nothing(match, monkeypatch, where):
    path, mid, _ = match
    plain = Referee(store_at(path))
    head = plain.store.head(mid)
    loaded = plain.load(mid)
    start = {"start": 1, "middle": head // 2, "end": head - 99}[where]
    timeline = plain.timeline(loaded)
    jumps_after = sum(1 for s, h in timeline.headers.items()
                      if s >= start and h.kind in ("undo", "redo") and h.accepted)
    notes = sum(1 for a in plain.store.annotations(mid) if start <= a.seq < start + 100)
    store = CountingStore(store_at(path))
    r = Referee(store)
    for name in ("state_at", "timeline", "walk", "advance"):
        monkeypatch.setattr(r, name, _refuse(name))
        monkeypatch.setattr(r.history, name, _refuse(name))  # what the history calls of its own too
    for role in ROLES:
        store.rows.clear()
        page = r.log(mid, seat=role, start=start, stop=start + 99)
        assert len(page) == 100
        assert store.rows.get("entries") == 100  # the page's own rows, once
        assert store.rows.get("jumps", 0) == (jumps_after if role is None else 0)  # read once, then kept
        assert store.rows.get("annotations_on", 0) == notes
        assert not {"index", "annotations", "snapshot_at_or_before", "last_entry"} & set(store.rows), store.rows


def _refuse(name: str) -> Any:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a log page called {name}")

    return refuse


# -- the marks themselves ----------------------------------------------------------------------------


@st.composite
def logs(draw: Any) -> list[Header]:
    """Entry headers with undos (to any earlier entry, or past nothing) and redos (of any entry, as a
    tampered log might have them, too)."""
    out: list[Header] = []
    for seq in range(1, draw(st.integers(1, 80)) + 1):
        kind = draw(st.sampled_from(["intent"] * 4 + ["undo", "redo"]))
        accepted = draw(st.booleans()) if kind != "intent" else True
        meta: dict[str, Any] = {}
        if kind == "undo":
            meta = {"to": draw(st.integers(0, seq))}
        elif kind == "redo":
            undos = [h.seq for h in out if h.kind == "undo"]
            meta = {"undo": draw(st.sampled_from(undos)) if undos and draw(st.booleans()) else draw(st.integers(1, seq))}
        out.append(Header(seq=seq, kind=kind, actor=None, accepted=accepted, meta=meta))
    return out


@settings(max_examples=examples(500), deadline=None)
@given(logs(), st.data())
def test_marks_of_any_range_are_the_whole_timelines(headers, data):
    whole = Timeline.build(headers).undone_by
    jumps = [(h.seq, h.kind, int(h.meta["to"] if h.kind == "undo" else h.meta["undo"]))
             for h in headers if h.accepted and h.kind in ("undo", "redo")]
    head = len(headers)
    start = data.draw(st.integers(1, head))
    stop = data.draw(st.integers(start - 1, head))
    assert undone_marks(start, stop, jumps) == {s: u for s, u in whole.items() if start <= s <= stop}
