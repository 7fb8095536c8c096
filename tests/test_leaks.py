"""Nothing hidden reaches a role that may not see it (issue 10, items 1, 3 and the leak test).

For both games, after random legal play (digital, played over HTTP by each seat with its own token),
after the demo transcripts (physical), after declared effects and after lines typed with quoted
values, every answer a seat or a spectator can get — state now and at earlier entries, the log a page
at a time, replay, legal intents, the seat's page, audit, every export format, the live stream (SSE), the match's info,
and the CLI's service calls — is searched byte for byte for:

* card ids the role has never been able to see, and their names (an id hidden from the role at some
  point that it never saw in its own view while public: a card named by a public fact stays named);
* loyalty tokens and dealt empires of other seats;
* anything that would let it re-derive a chance outcome: the seed (before the match ends), the
  genesis, entry and state hashes.

The CLI's answer and the HTTP answer for the same role are compared too: one redaction path.
"""

from __future__ import annotations

import json
import random
import re

import msgspec
import pytest
from litestar.testing import TestClient

from conftest import ROOT
from referee.access import Access
from referee.engine.notation import format_intent
from referee.export import export
from referee.http import create_app
from referee.service import Referee
from referee.store import Store
from referee.store.memory import MemoryStore
from referee.transcript import import_transcript
from support.leaksearch import Searcher, Tokens, is_plain, pattern, secrets_in
from support.leaksearch import tokens as tokens_of

FORMATS = ("txt", "md", "html", "json")


class Hall:
    """A referee with an HTTP client over the same store."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store if store is not None else MemoryStore()
        self.referee = Referee(self.store)
        self.client = TestClient(create_app(lambda: Referee(self.store)))
        self.client.__enter__()

    def close(self) -> None:
        self.client.__exit__(None, None, None)

    def tokens(self, mid: str) -> dict[str, str]:
        minted = Access(Referee(self.store))._mint(self.referee.info(self.referee.resolve(mid)))
        return {**minted.seats, "arbiter": minted.arbiter, "spectator": minted.spectator}


@pytest.fixture(scope="module")
def hall():
    h = Hall()
    yield h
    h.close()


@pytest.fixture(scope="module")
def built(hall):
    """The module's games, each played over HTTP or imported once a worker and checked one role a test:
    ``built(key, make)`` is ``make()``'s (match id, tokens), made the first time ``key`` is asked for."""
    games: dict[tuple, tuple[str, dict[str, str]]] = {}

    def get(key: tuple, make) -> tuple[str, dict[str, str]]:
        if key not in games:
            games[key] = make()
        return games[key]

    return get


@pytest.fixture(scope="module")
def pg_hall(pg_server):
    """The hall over a PostgreSQL database (issue 18): a sample of the checks below runs there too (all of
    them twice would cost minutes; the store keeps bytes, and what a role sees is decided above it)."""
    from referee.store.postgres import PostgresStore

    h = Hall(PostgresStore(pg_server.fresh()))
    yield h
    h.close()
    h.store.close()


def h(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def answers(hall: Hall, mid: str, tokens: dict[str, str], role: str, cli_json: str,
            cli_formats: tuple[str, ...] = FORMATS) -> list[tuple[str, bytes]]:
    """Every answer ``role`` can get about the match, over HTTP and from the CLI's service calls (the
    CLI's JSON export given, as made for :func:`never_seen`; its other exports in ``cli_formats``)."""
    c, base, hd = hall.client, f"/matches/{mid}", h(tokens[role])
    head = hall.store.head(mid)
    out: list[tuple[str, bytes]] = []

    def get(what: str, path: str, **params) -> bytes:
        answer = c.get(base + path, params=params, headers=hd)
        assert answer.status_code == 200, (role, what, answer.text)
        out.append((what, answer.content))
        return answer.content

    get("info", "")
    for at in sorted({0, head // 3, 2 * head // 3, head}):
        get(f"state@{at}", "/state", at=at)
    for offset in range(0, head, 250):
        get(f"log@{offset}", "/log", offset=offset, limit=250)
    get("replay", "/replay")
    get("audit", "/audit")
    get("events", "/events", follow="false")
    if role not in ("spectator", "arbiter"):
        get("legal", "/legal")
        get("seat", "/seat")  # the seat's page's one answer (its shell holds no data: tests/test_seat_page.py)
    for fmt in FORMATS:
        get(f"export.{fmt}", "/export", format=fmt)
    # the CLI's calls for the same role
    r = hall.referee
    seat = None if role == "arbiter" else role
    out.append(("cli state", msgspec.json.encode(r.show(mid, seat=seat))))
    out.append(("cli log", msgspec.json.encode(r.log(mid, seat=seat))))
    out.append(("cli replay", msgspec.json.encode(r.replay(mid, seat=seat))))
    for fmt in FORMATS:
        if fmt == "json":
            out.append(("cli export.json", cli_json.encode()))
        elif fmt in cli_formats:
            out.append((f"cli export.{fmt}", export(r, mid, fmt, role).encode()))
    return out


def never_seen(referee: Referee, mid: str, role: str, universe: set[str], exported: str | None = None) -> set[str]:
    """Entry by entry through the role's JSON export (each step: the entry, its words and the state
    after it), check that no step names an id hidden from the role after that entry that the role has
    not seen while it was public (a card played becomes public; one drawn into another hand does not).
    Returns the ids hidden from the role at the end that it never saw: what no answer may name.
    ``exported``: the role's JSON export, where the caller has made it already."""
    loaded = referee.load(mid)
    seat = None if role == "arbiter" else role
    doc = msgspec.json.decode(export(referee, mid, "json", role) if exported is None else exported)
    state = loaded.initial
    seen = {x for x in universe if f'"{x}"' in json.dumps(doc["initial_state"])}
    plain = {x for x in universe if is_plain(x)}  # named by a text exactly when among its words
    others = {x: Searcher([x]) for x in sorted(universe - plain)}
    hidden = loaded.rules.hidden_ids(state, seat)
    for step, (_entry, body) in zip(doc["steps"], referee.bodies(loaded), strict=True):
        state = referee.advance(loaded, state, body)
        hidden = loaded.rules.hidden_ids(state, seat)
        entry = {**step["entry"], "annotations": [], "meta": {}}  # authored notes are their authors' words
        if entry["actor"] == role:  # what the role typed itself, and the answer to it, are its own
            entry.update(notation="", rejection=None)
        elif entry["verdict"] == "rejected":
            # a refused move shows what its player claimed in the fields a move makes public (as at a
            # table: "I deploy T14" — "no, no main action left"); private fields are ? whatever they
            # hold (the truth-independence tests below check that)
            entry.update(notation="")
        text = json.dumps({**step, "entry": entry})
        toks = tokens_of(text)
        for x in sorted(hidden - seen):
            assert not _names(x, text, toks, others), f"{role} learns {x!r} at entry {step['entry']['seq']}: {text[:400]}"
        seen |= ((plain & toks.words) | {x for x in others if _names(x, text, toks, others)}) - hidden
    return set(hidden) - seen


def _names(x: str, text: str, toks: Tokens, others: dict[str, Searcher]) -> bool:
    """Whether ``text`` names the id ``x`` as a whole word (not after a ``:``); ``toks`` is the text's
    :func:`~support.leaksearch.tokens`, ``others`` a searcher for each id not made of word characters."""
    return x in toks.words if x not in others else others[x].names(text, toks)


def _naming(targets: set[str]):
    """A function giving the first place a text names one of ``targets`` as a whole word, or None (the
    seat pages' and the complete matches' leak checks ask it of each page's bytes)."""
    return Searcher(targets).find


def names_of(loaded, ids: set[str], every: dict[str, str]) -> set[str]:
    """The card names of ``ids`` that no other card bears, whole or as words of its name (Android's hidden
    "Blackout" reads inside a shown "Citywide Blackout": a word search cannot tell them apart)."""
    allowed = {name for key, name in every.items() if card_of(key) not in ids}

    def inside(name: str) -> bool:
        return any(re.search(rf"(?<!\w){re.escape(name)}(?!\w)", other) for other in allowed)

    return {name for key, name in every.items() if card_of(key) in ids and len(name) > 3 and not inside(name)}


#: a Russian name's key in :func:`card_names`: its card's id with this after it
RU = "@ru"


def card_of(key: str) -> str:
    """The card a key of :func:`card_names` names (its English or its Russian name)."""
    return key[:-len(RU)] if key.endswith(RU) else key


def card_names(loaded) -> dict[str, str]:
    """The match's card names by id, and their Russian names (``name_ru``) by id + :data:`RU`: a hidden card's
    name in either language is searched for."""
    rules = loaded.rules
    if loaded.game.id == "by_all_means":
        cards = dict(rules.ctx.cards.cards)
    elif loaded.game.id == "xfiles_encounters":  # the names the front ends give for its ids (``name_of``)
        cards = {cid: c for cid, c in rules.cards.cards.items() if c.name != cid}
    elif loaded.game.id == "android":
        cards = {**rules.data.cards, **rules.data.events}
    else:
        cards = dict((rules.catalogue if hasattr(rules, "catalogue") else {}) or {})
    english = {cid: getattr(c, "name", "") for cid, c in cards.items()}
    return {**english, **{cid + RU: c.name_ru for cid, c in cards.items() if getattr(c, "name_ru", "")}}


def secrets_of_the_arbiter(hall: Hall, mid: str) -> set[str]:
    """What re-derives chance or confirms a guess: the seed (while the match goes on), the genesis,
    entry and state hashes."""
    r = hall.referee
    loaded = r.load(mid)
    out = {loaded.match.genesis_hash}
    for e in r.store.entries(mid):
        out |= {e.hash, e.state_hash}
    if loaded.config.chance == "digital" and not r.over(loaded):
        out.add(str(loaded.config.seed))
    return out


def check(hall: Hall, mid: str, tokens: dict[str, str], roles: list[str], every_format: tuple[str, ...] = (),
          only: str | None = None) -> None:
    """Every answer of every role in ``roles`` searched (see :func:`answers`); ``only``: of that one role
    (the tests below check a game's roles one a test, so that the two workers of the README's command
    share them: the game itself is built once a worker, see :func:`built`). The CLI's text, Markdown and
    HTML exports, the very function HTTP streams, are made and searched for the roles in ``every_format``
    only (each test names one or more: together every game's seats and its spectator);
    :func:`test_the_cli_exports_what_http_exports_for_every_role` (slow) compares them with HTTP's for
    every role, and tests/http/test_api.py::test_exports_are_streamed_in_pieces in every run. The CLI's
    JSON export is made for every role (it is :func:`never_seen`'s walk) and must equal HTTP's."""
    assert every_format and set(every_format) <= set(roles) and only in (None, *roles), (every_format, only)
    r = hall.referee
    loaded = r.load(mid)
    every = card_names(loaded)
    universe = set(every) | {x for role in roles for x in _all_hidden(r, mid, role)}
    hashes = secrets_of_the_arbiter(hall, mid)
    for role in roles if only is None else [only]:
        # what people wrote in notes and comments they show as they wrote it: not the referee's to hide
        authored = " ".join(a.text for a in r.store.annotations(mid)) + " ".join(
            str(e.meta.get("comment", "")) for e in r.log(mid))
        cli_json = export(r, mid, "json", role)
        forbidden = {x for x in never_seen(r, mid, role, universe, cli_json) if x not in authored}
        names = {n for n in names_of(loaded, forbidden, every) if n not in authored}
        searcher = Searcher(forbidden | names)
        got = answers(hall, mid, tokens, role, cli_json, FORMATS if role in every_format else ("json",))
        searched: set[bytes] = set()
        for what, data in got:
            if data in searched:  # byte for byte an answer searched already (the CLI's export and HTTP's)
                continue
            searched.add(data)
            text, toks = data.decode("utf-8"), tokens_of(data)
            found = searcher.find(text, toks)
            assert found is None, f"{role} learns {found.group(0)!r} from {what}: …{text[max(0, found.start() - 120):found.end() + 60]}…"
            for secret in secrets_in(text, toks, hashes):
                raise AssertionError(f"{role} gets {secret[:12]}… (a seed or hash) from {what}")
        _the_search_finds_what_is_planted(searcher, forbidden | names, hashes, dict(got)["info"].decode())
        # one redaction path: the CLI and HTTP answer the same role alike
        http_state = json.loads(dict(got)["state@" + str(hall.store.head(mid))])
        cli_state = json.loads(dict(got)["cli state"])
        assert http_state["state"] == cli_state["state"] and http_state.get("seed") == cli_state.get("seed")
        http_log = [e for what, d in got if what.startswith("log@") for e in json.loads(d)["entries"]]
        assert http_log == json.loads(dict(got)["cli log"])
        for fmt in FORMATS if role in every_format else ("json",):
            assert dict(got)[f"export.{fmt}"] == dict(got)[f"cli export.{fmt}"], (role, fmt)


def _the_search_finds_what_is_planted(searcher: Searcher, targets: set[str], hashes: set[str], text: str) -> None:
    """The search is no weaker than it looks: each kind of target (an id of word characters, a name with
    other characters, a hash) planted in the middle of one of the role's real answers is found there."""
    middle = len(text) // 2
    plain = sorted(x for x in targets if is_plain(x))
    for x in plain[:1] + sorted(targets - set(plain))[:1]:
        planted = f"{text[:middle]} {x} {text[middle:]}"
        found = searcher.find(planted)
        assert found is not None and found.start() == middle + 1 and found.group(0) == x, (x, found)
    for x in sorted(hashes)[:1]:
        planted = f"{text[:middle]} {x} {text[middle:]}"
        assert secrets_in(planted, tokens_of(planted), hashes) == [x], x


def _all_hidden(r: Referee, mid: str, role: str) -> set[str]:
    loaded = r.load(mid)
    state = loaded.initial
    out: set[str] = set()
    for _entry, body in r.bodies(loaded):
        state = r.advance(loaded, state, body)
        out |= loaded.rules.hidden_ids(state, None if role == "arbiter" else role)
    return out


# -- random legal play, digital, each seat with its own token --------------------------------------------


def play_over_http(hall: Hall, game: str, players: list[str], steps: int, seed: int, **create) -> tuple[str, dict[str, str]]:
    made = hall.client.post("/matches", json={"game": game, "players": players, "chance": "digital", **create})
    assert made.status_code == 201, made.text
    data = made.json()
    mid = data["match"]["id"]
    assert len(data["match"]["seed_commitment"]) == 64
    tokens = {**data["tokens"]["seats"], "arbiter": data["tokens"]["arbiter"], "spectator": data["tokens"]["spectator"]}
    rng = random.Random(seed)
    for n in range(steps):
        legal = {p: hall.client.get(f"/matches/{mid}/legal", headers=h(tokens[p])).json()["legal"].get(p, []) for p in players}
        options = [(p, t) for p in players for t in legal[p]]
        if not options:
            break
        seat, text = options[rng.randrange(len(options))]
        answer = hall.client.post(f"/matches/{mid}/intents", json={"intent": text}, headers=h(tokens[seat]))
        assert answer.status_code == 201, (text, answer.text)
        if n % 17 == 5:
            hall.client.post(f"/matches/{mid}/annotations", json={"seq": answer.json()["seq"], "text": f"note {n}"},
                             headers=h(tokens[seat]))
    return mid, tokens


def AGAIN(seed: int):  # noqa: N802 - reads as a seed in the lists below
    """A second random game of a game that runs no line of referee/ the first seed and the game's demo
    leave unrun (measured by tracing each test's lines: War of Shadows 8, Android 9), and costs a whole
    game again: the README's command leaves it to CI (``slow``), which plays every seed. By All Means' 11
    runs 13 lines of its fold and one each of its view and words that 3 does not: it stays."""
    return pytest.param(seed, marks=pytest.mark.slow)


def _bam(hall: Hall, seed: int) -> tuple[str, dict[str, str]]:
    return play_over_http(hall, "by_all_means", ["alice", "bob"], 90, seed, cards="demo")


BAM = ["alice", "bob", "spectator"]
WOS = ["anna", "boris", "vera", "spectator"]
ANDROID = ["ana", "ben", "cy", "dee", "spectator"]


@pytest.mark.parametrize("role", BAM)
@pytest.mark.parametrize("seed", [3, 11])
def test_by_all_means_random_play_over_http_leaks_nothing(hall, built, seed, role):
    mid, tokens = built(("by_all_means", seed), lambda: _bam(hall, seed))
    check(hall, mid, tokens, BAM, ("alice",), only=role)


@pytest.mark.parametrize("role", WOS)
@pytest.mark.parametrize("seed", [5, AGAIN(8)])
def test_war_of_shadows_random_play_over_http_leaks_nothing(hall, built, seed, role):
    mid, tokens = built(("war_of_shadows", seed), lambda: play_over_http(
        hall, "war_of_shadows", WOS[:3], 120, seed, cards="demo", options={"to_each_their_own": True, "keep_secrets": True}))
    check(hall, mid, tokens, WOS, ("vera",), only=role)


@pytest.mark.parametrize("role", ANDROID)
@pytest.mark.parametrize("seed", [4, AGAIN(9)])
def test_android_random_play_over_http_leaks_nothing(hall, built, seed, role):
    mid, tokens = built(("android", seed), lambda: play_over_http(hall, "android", ANDROID[:4], 140, seed, cards="demo"))
    check(hall, mid, tokens, ANDROID, ("dee",), only=role)


# -- the demos (physical), with quoted values and declared effects ----------------------------------------


def _import(hall: Hall, path: str, edit=lambda t: t) -> tuple[str, dict[str, str]]:
    import os

    with open(path, encoding="utf-8") as fh:
        text = edit(fh.read())
    summary = import_transcript(hall.referee, text, os.path.basename(path), os.path.dirname(path))
    return summary.match_id, hall.tokens(summary.match_id)


def _demo(hall: Hall, built, demo: str) -> tuple[str, dict[str, str]]:
    return built(("demo", demo), lambda: _import(hall, f"{ROOT}/replays/{demo}"))


@pytest.mark.parametrize("role", BAM)
def test_the_by_all_means_demo_leaks_nothing(hall, built, role):
    mid, tokens = _demo(hall, built, "by_all_means/club-night.txt")
    check(hall, mid, tokens, BAM, ("spectator",), only=role)


def test_over_postgresql_random_play_and_the_demo_leak_nothing(pg_hall):
    mid, tokens = play_over_http(pg_hall, "by_all_means", ["alice", "bob"], 90, 3, cards="demo")
    check(pg_hall, mid, tokens, ["alice", "bob", "spectator"], ("bob",))
    mid, tokens = _import(pg_hall, f"{ROOT}/replays/by_all_means/club-night.txt")
    check(pg_hall, mid, tokens, ["alice", "bob", "spectator"], ("spectator",))


@pytest.mark.parametrize("role", ["mia", "theo", "zoe", "spectator"])
def test_the_android_demo_leaks_nothing(hall, built, role):
    mid, tokens = _demo(hall, built, "android/thursday-club.txt")
    check(hall, mid, tokens, ["mia", "theo", "zoe", "spectator"], ("theo",), only=role)


@pytest.mark.parametrize("role", WOS)
def test_the_war_of_shadows_demo_typed_with_quoted_values_leaks_nothing(hall, built, role):
    quote = lambda text: re.sub(r"(arrangement\.\w+)=(\w+)", r'\1="\2"', text)  # noqa: E731
    mid, tokens = built(("quoted", "war_of_shadows"),
                        lambda: _import(hall, f"{ROOT}/replays/war_of_shadows/ember-coast.txt", quote))
    full = [e.notation for e in hall.referee.log(mid) if e.notation.startswith("arrange_loyalty")]
    assert full and all('="' in n for n in full)  # typed with quotes, accepted
    check(hall, mid, tokens, WOS, ("spectator",), only=role)
    if role in ("boris", "spectator"):
        for e in hall.referee.log(mid, seat=role):
            if e.notation.startswith("arrange_loyalty") and e.actor != role:
                assert re.findall(r"arrangement\.\w+=(\S+)", e.notation) == ["?"] * 5, e.notation


def test_declared_effects_that_move_cards_into_a_hand_leak_nothing(hall):
    position = {
        "phase": "play", "first_player": "alice", "lot_winner": "alice", "turn.number": 5, "turn.active": "alice",
        "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1, "players.alice.hand": ["PL6", "TR6"],
        "players.bob.hand": ["TR1"], "players.alice.opening_drawn": True, "players.alice.mulligan_done": True,
        "players.bob.opening_drawn": True, "players.bob.mulligan_done": True,
    }
    for seat in ("alice", "bob"):
        position.update({f"players.{seat}.unseen": ["AG2", "GF1", "PL6", "TR6", "TR7", "TR8"],
                         f"players.{seat}.main_archive.count": 4, f"players.{seat}.extra_archive.count": 2})
    info = hall.referee.new_match("by_all_means", ["alice", "bob"], cards="spec", position=position)
    res = hall.referee.submit(info.id, "alice", 'play_plot card=PL6 from=hand changes=move:TR6:alice.hand:alice.main_archive note="Back to the pile"')
    assert res.accepted, res.verdict
    check(hall, info.id, hall.tokens(info.id), ["alice", "bob", "spectator"], ("alice", "bob", "spectator"))
    bob = [e for e in hall.referee.log(info.id, seat="bob") if e.actor == "alice"][-1]
    assert "TR6" not in bob.notation and "move:?:alice.hand:alice.main_archive" in bob.notation


# -- what is redacted looks the same whatever the hidden truth is ------------------------------------------


def test_a_rejected_line_looks_the_same_whether_the_card_is_held_or_in_a_deck():
    """War of Shadows: manual_effect card=C, rejected, seen by another seat and the spectator, when C
    is in an opponent's hand and when it is in a deck."""
    seen = []
    for holder in ("boris", None):
        position = {"phase": "DISCARD", "first_player": "anna", "round_markers_placed": 1,
                    "players.anna.hand": ["bear_c1", "lion_c1"]}
        if holder:
            position[f"players.{holder}.hand"] = ["bear_c6"]
        r = Referee(MemoryStore(), clock=lambda: "")
        m = r.new_match("war_of_shadows", ["anna", "boris", "vera"], cards="demo", position=position)
        res = r.submit(m.id, "anna", "manual_effect card=bear_c6 deltas=note")
        assert not res.accepted
        seen.append({role: [msgspec.json.encode(e) for e in r.log(m.id, seat=role)] for role in ("vera", "spectator")})
    assert seen[0] == seen[1]


def test_a_rejected_draw_looks_the_same_whatever_the_opponent_holds():
    """By All Means: alice names a card she cannot draw; whether bob holds that card or it lies in his
    archive, bob and the spectator see the same line."""
    seen = []
    for bob_hand, bob_unseen in ((["TR7"], ["TR8"]), ([], ["TR7", "TR8"])):
        position = {"phase": "play", "first_player": "alice", "turn.number": 5, "turn.active": "alice",
                    "turn.step": "actions", "turn.main_left": 2, "turn.extra_left": 1,
                    "players.alice.unseen": ["AG2", "GF1"], "players.alice.main_archive.count": 2,
                    "players.alice.extra_archive.count": 0, "players.bob.hand": bob_hand,
                    "players.bob.unseen": bob_unseen, "players.bob.main_archive.count": len(bob_unseen),
                    "players.bob.extra_archive.count": 0}
        r = Referee(MemoryStore(), clock=lambda: "")
        m = r.new_match("by_all_means", ["alice", "bob"], cards="spec", position=position)
        assert not r.submit(m.id, "alice", "draw_main card=TR7").accepted
        seen.append({role: [msgspec.json.encode(e) for e in r.log(m.id, seat=role)] for role in ("bob", "spectator")})
    assert seen[0] == seen[1]
    assert b"TR7" not in seen[0]["bob"][-1] and b"card=?" in seen[0]["bob"][-1]


# -- the seed: a commitment from the start, the seed itself at the end --------------------------------------


def test_the_seed_is_committed_at_creation_and_revealed_at_the_end():
    import hashlib

    from support.pile import PILE

    r = Referee(MemoryStore(), games=[PILE])
    info = r.new_match("pile", ["alice", "bob"], chance="digital", options={"stones": 4})
    seed = r.load(info.id).config.seed
    assert seed is not None and seed > 2**32  # drawn from the system's randomness when none is given
    assert info.seed_commitment == hashlib.sha256(f"referee:seed\n{info.id}\n{seed}".encode()).hexdigest()
    r.submit(info.id, "alice", "start")
    for role in ("alice", "bob", "spectator"):
        answer = r.show(info.id, seat=role)
        assert answer.seed is None and answer.seed_commitment == info.seed_commitment
        for fmt in FORMATS:
            assert str(seed) not in export(r, info.id, fmt, role)
    assert r.show(info.id).seed == seed and f"seed: {seed}" in export(r, info.id, "txt", "arbiter")
    while r.show(info.id).outcome is None:
        active = r.show(info.id).state["active"]
        assert r.submit(info.id, active, "take 1").accepted
    for role in ("alice", "bob", "spectator"):
        answer = r.show(info.id, seat=role)
        assert answer.seed == seed  # the match is over: anyone can check the deals now
        assert hashlib.sha256(f"referee:seed\n{info.id}\n{answer.seed}".encode()).hexdigest() == answer.seed_commitment
        assert f"seed: {seed}" in export(r, info.id, "txt", role)
    fork = r.fork(info.id, at=1)
    assert r.info(r.resolve(fork.id)).seed_commitment == info.seed_commitment


def test_a_seat_sees_no_seed_in_a_digital_transcript_export(tmp_path):
    r = Referee(MemoryStore())
    text = "game: by_all_means\nplayers: alice, bob\nseed: 424242\nbob: record_lot\n"
    mid = import_transcript(r, text).match_id
    for role in ("alice", "spectator"):
        out = export(r, mid, "txt", role)
        assert "424242" not in out and "chance: digital" in out and "commitment" in out
    assert "seed: 424242" in export(r, mid, "txt", "arbiter")


COPYCAT = ["anna", "ben", "cleo", "spectator"]


@pytest.mark.parametrize("role", COPYCAT)
@pytest.mark.parametrize("seed", [4])
def test_copycat_random_play_over_http_leaks_nothing(hall, built, seed, role):
    mid, tokens = built(("copycat", seed), lambda: play_over_http(hall, "copycat", COPYCAT[:3], 150, seed, cards="demo"))
    check(hall, mid, tokens, COPYCAT, ("cleo",), only=role)


@pytest.mark.parametrize("role", COPYCAT)
def test_the_copycat_demo_leaks_nothing(hall, built, role):
    mid, tokens = _demo(hall, built, "copycat/thursday-club.txt")
    check(hall, mid, tokens, COPYCAT, ("spectator",), only=role)


@pytest.mark.slow
@pytest.mark.parametrize("demo,roles", [
    ("by_all_means/club-night.txt", ["alice", "bob", "spectator", "arbiter"]),
    ("war_of_shadows/ember-coast.txt", ["anna", "boris", "vera", "spectator", "arbiter"]),
    ("android/thursday-club.txt", ["mia", "theo", "zoe", "spectator", "arbiter"]),
    ("copycat/thursday-club.txt", ["anna", "ben", "cleo", "spectator", "arbiter"]),
    (None, ["alice", "bob", "spectator", "arbiter"]),
])
def test_the_cli_exports_what_http_exports_for_every_role(hall, built, demo, roles):
    """The rest of :func:`check`'s cross product: the CLI's export in every format, for every role, is
    byte for byte what HTTP streams to that role's token (whose answers the tests above search), after a
    demo (physical) and after random play (digital: the seed and the hashes)."""
    if demo is None:
        mid, tokens = built(("by_all_means", 3), lambda: _bam(hall, 3))
    else:
        mid, tokens = _demo(hall, built, demo)
    for role in roles:
        for fmt in FORMATS:
            answer = hall.client.get(f"/matches/{mid}/export", params={"format": fmt}, headers=h(tokens[role]))
            assert answer.status_code == 200, (role, fmt, answer.text)
            assert answer.content == export(hall.referee, mid, fmt, role).encode(), (role, fmt)


def test_the_token_search_finds_exactly_what_the_patterns_find():
    """:class:`~support.leaksearch.Searcher` (sets of a text's tokens, a regular expression only for a
    candidate with other characters) against the one pattern it stands for, and ``secrets_in`` against a
    search of the whole text for every secret, on ids that are words, ids with other characters and names
    with spaces or a ``:``, placed at the edges, after a ``:``, inside longer words, beside non-ASCII
    letters, and nowhere."""
    targets = {"K07", "TR7", "bear_c6", "lion-c1", "Pilgrim Bridge", "Dr. No", "x:y", "-5-"}
    texts = ["", "K07", "K070", "xK07", ":K07", "a:K07 b", "a::K07", "K07:", "card=K07,", "TR7 TR8", "TR77", "_TR7",
             "bear_c6.", "bear_c60", "lion-c1", "xlion-c1", "lion-c12", ":lion-c1", "the Pilgrim Bridge!",
             "Pilgrim Bridges", "Pilgrim  Bridge", "éPilgrim Bridge", "Pilgrim Bridgeé", '{"hand": ["TR1", "K07"]}',
             "K0 7", "tr7", "Dr. No", "Dr.No", "Dr. Nox", "x:y", "ax:y", "x:yz", "b x:y", "-5-", "a-5-", "-5-a",
             "é-5-é", "ÆK07Æ", "K07\n", "\nK07", "\u00e9K07"]
    searcher, whole = Searcher(targets), pattern(targets)
    for text in texts:
        a, b = searcher.find(text), whole.search(text)
        assert (a and a.span()) == (b and b.span()), text
        toks = tokens_of(text)
        assert toks.words == set(re.findall(r"(?<![A-Za-z0-9_:])[A-Za-z0-9_]+", text)), text
        assert toks.runs == set(re.findall(r"[A-Za-z0-9_]+", text)), text
    assert searcher.find("the Pilgrim Bridge!") is not None and searcher.find("TR77 :K07 Dr.No") is None
    assert Searcher(set()).find("K07") is None
    hashes = {"a" * 64, "0123456789abcdef" * 4}
    secrets = hashes | {"424242"}
    for text in ["", "a" * 63, "a" * 64, "b" + "a" * 64, "a" * 65, "x:" + "a" * 64 + ":y", "é" + "a" * 64 + "é",
                 "0123456789abcdef" * 5, "0123456789ABCDEF" * 4, "seed 424242", "4242", "A" + "a" * 64]:
        assert sorted(secrets_in(text, tokens_of(text), secrets)) == sorted(x for x in secrets if x in text), text


@pytest.mark.parametrize("role", ["alice", "bob", "spectator"])
def test_xfiles_random_play_over_http_leaks_nothing(hall, built, role):
    """X-Files' events are facts (issue 28 item 5): a face-down card pushed along the Shadows, into the
    Sector or placed from the Conspiracy deck is named by no event, only by the state, which redacts it."""
    mid, tokens = built(("xfiles_encounters", 6),
                        lambda: play_over_http(hall, "xfiles_encounters", ["alice", "bob"], 120, 6, cards="demo"))
    check(hall, mid, tokens, ["alice", "bob", "spectator"], every_format=("bob",), only=role)
