"""Playing a whole match the way its seats' pages offer it (issue 26): read every seat's answer
(``GET /matches/{id}/seat``, what ``/play/MATCH`` draws), take one of the taps they offer, submit it as the
page does (``POST /intents`` or ``/confirmations`` naming the head the page showed), until the result.

What the pages offer, in their order (:func:`offered`): a confirmation asked of a seat comes alone (while
a move waits for one, no page offers anything else); otherwise every seat's choices, seat by seat in
seating order, each seat's groups and choices in the order its page lists them. Which of them is tapped
is a :data:`Pick`: :func:`first` (the first offered choice) or :func:`seeded` (the test's own
``random.Random(seed)`` picks one of them). Both tests of a complete match (``test_seat_complete_*``) use
these, so the HTTP test and the Chromium test play the same match move for move.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Tap:
    """One tap a page offers: ``seat``'s choice ``intent`` (notation, as the page submits it, with its
    ``fields`` as ``key -> value``), or its confirmation of the held entry ``entry`` (``intent`` empty)."""

    seat: str
    intent: str = ""
    verb: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    entry: int | None = None

    @property
    def confirms(self) -> bool:
        return self.entry is not None


Pick = Callable[[list[Tap], random.Random], Tap]


def first(taps: list[Tap], rng: random.Random) -> Tap:
    """The first offered tap."""
    return taps[0]


def seeded(taps: list[Tap], rng: random.Random) -> Tap:
    """One of the offered taps, drawn by the test's own generator (never the global one)."""
    return taps[rng.randrange(len(taps))]


def answers(client: Any, mid: str, seats: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Every seat's page answer, by seat (in seating order)."""
    out = {}
    for seat, token in seats.items():
        got = client.get(f"/matches/{mid}/seat", headers=auth(token))
        assert got.status_code == 200, got.text
        out[seat] = got.json()
    return out


def offered(pages: dict[str, dict[str, Any]]) -> list[Tap]:
    """What the pages offer now, in their order (see the module's docstring)."""
    asked = [Tap(seat=s, entry=a["held"]["seq"]) for s, a in pages.items() if a["held"] and a["held"]["confirmer"] == s]
    if asked:
        return asked
    return [Tap(seat=s, intent=c["intent"], verb=g["verb"],
                fields=tuple((f["key"], f["value"]) for f in c["fields"]))
            for s, a in pages.items() for g in a["moves"] for c in g["choices"]]


def submit(client: Any, mid: str, seats: dict[str, str], tap: Tap, seq: int) -> dict[str, Any]:
    """``tap`` submitted as its page submits it, naming the head ``seq`` the page showed; the entry's answer."""
    if tap.confirms:
        done = client.post(f"/matches/{mid}/confirmations", headers=auth(seats[tap.seat]),
                           json={"entry": tap.entry, "accept": True, "expected_seq": seq})
    else:
        done = client.post(f"/matches/{mid}/intents", headers=auth(seats[tap.seat]),
                           json={"intent": tap.intent, "expected_seq": seq})
    assert done.status_code == 201, done.text
    data: dict[str, Any] = done.json()
    return data


@dataclass
class Played:
    """A match played out: the taps in order, the pages' last answers, and the result ("" if none)."""

    taps: list[Tap] = field(default_factory=list)
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)
    result: str = ""


def play_out(client: Any, mid: str, seats: dict[str, str], pick: Pick, seed: int, bound: int,
             each: Callable[[dict[str, dict[str, Any]]], None] | None = None) -> Played:
    """Tap what ``pick`` picks of what the pages offer until a page shows the result or ``bound`` taps;
    every tap must be accepted (or held for a confirmation). ``each`` sees every round of answers."""
    rng, played = random.Random(seed), Played()
    while True:
        played.pages = answers(client, mid, seats)
        if each is not None:
            each(played.pages)
        shown = {a["result"] for a in played.pages.values()}
        if shown != {""}:
            assert len(shown) == 1, f"the pages show different results: {shown}"
            played.result = shown.pop()
            return played
        taps = offered(played.pages)
        if not taps or len(played.taps) >= bound:
            return played
        tap = pick(taps, rng)
        verdict = submit(client, mid, seats, tap, played.pages[tap.seat]["seq"])
        assert verdict.get("verdict", "accepted") in ("accepted", "held"), (tap, verdict)
        played.taps.append(tap)


def replayed(referee: Any, mid: str) -> Any:
    """The match's state after its last entry as a fresh fold computes it (a new service over the same
    store, nothing remembered), once the audit — every entry re-adjudicated from setup, every verdict and
    state hash compared — found the log clean."""
    from referee.service import Referee

    fresh = Referee(referee.store)
    report = fresh.audit(mid)
    assert report.clean, report.findings
    loaded = fresh.load(mid)
    _, state = fresh.state_at(loaded, checked=True)
    return state


def same_state(referee: Any, client: Any, mid: str, arbiter: str) -> str:
    """The state the server answers the arbiter is the replay's (:func:`replayed`): the same state hash,
    which is also the one recorded with the last entry. Returns it."""
    from referee.engine.core import state_hash

    replay = state_hash(replayed(referee, mid))
    over_http = client.get(f"/matches/{mid}/state", headers=auth(arbiter))
    assert over_http.status_code == 200, over_http.text
    assert over_http.json()["state_hash"] == replay
    head = referee.store.head(mid)
    assert [e.state_hash for e in referee.store.entries(mid, head, head)] == [replay]
    return replay
