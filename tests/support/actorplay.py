"""Playing a match through its pages' HTTP calls where a game's actor that is no seat has a page too
(issue 26: Android's arbiter, Copycat's table; the seats-only matches of the other games are played by
tests/support/seatplay.py): what each page reads (``GET /matches/{id}/seat``) and writes when its user taps
the first offered choice (naming the actor it speaks for), whose page taps next, waits inside a page in
Chromium, and a byte search of a page for what its role may not see (the leak tests' hidden-name helpers).

Whose page taps next (:func:`next_page`): the actor that is no seat when its page offers a move (it runs the
table: the set-up, the clean-ups and the closing, as the person at a real table who deals does), else the
first seat, in seating order, whose page asks for its confirmation or offers a move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.service import Referee
from support.pageleaks import leaks  # noqa: F401 - the pages' leak check, as the tests of actor pages import it

#: the role a page reads its view as, for the leak search: a seat's own, the arbiter's (None: everything),
#: an actor's that is no seat (the spectators')
SPECTATOR = "spectator"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def read(client: Any, mid: str, token: str) -> dict[str, Any]:
    got = client.get(f"/matches/{mid}/seat", headers=auth(token))
    assert got.status_code == 200, got.text
    answer: dict[str, Any] = got.json()
    return answer


def wants(answer: dict[str, Any]) -> bool:
    """Whether the page offers its user something to tap: a confirmation asked of it, or a move."""
    held = answer["held"]
    return bool(held and held["confirmer"] == answer["seat"]) or bool(answer["moves"])


def turn_order(pages: list[str], players: list[str]) -> list[str]:
    """The order the pages are asked in: the actors that are no seat first, then the seats in seating order."""
    return [a for a in pages if a not in players] + [s for s in players if s in pages]


def next_page(answer_of: Callable[[str], dict[str, Any]], order: list[str]) -> tuple[str | None, dict[str, Any]]:
    """(the page that taps next, its answer): the first, in ``order``, whose answer (``answer_of(actor)``,
    read as that page reads it) offers something; (None, the last answer read) when none does."""
    answer: dict[str, Any] = {}
    for actor in order:
        answer = answer_of(actor)
        if wants(answer):
            return actor, answer
    return None, answer


#: a group of more moves than this is offered a field at a time (the page's ``LIST_AT``)
LIST_AT = 6


def listed_outright(group: dict[str, Any]) -> bool:
    """Whether the page lists a group's moves as buttons (six or fewer, or no field tells them apart) rather
    than asking for a field first."""
    choices = group["choices"]
    if len(choices) <= LIST_AT:
        return True
    keys = [f["key"] for f in choices[0]["fields"] if not f["fill"]]
    return not any(len({next((f["value"] for f in c["fields"] if f["key"] == k), None) for c in choices}) > 1
                   for k in keys)


def first_offered(answer: dict[str, Any]) -> dict[str, Any]:
    """The move a tap on the first offered move writes, as the page offers them: the first move button on
    the page (the first group that lists its moves outright), else — every group asks for a field first —
    the first move of the first group, which picking the first value of each field asked for leads to."""
    groups = answer["moves"]
    group = next((g for g in groups if listed_outright(g)), groups[0])
    choice: dict[str, Any] = group["choices"][0]
    return choice


def tap(client: Any, mid: str, token: str, answer: dict[str, Any]) -> dict[str, Any]:
    """What the page writes when its user taps the first thing offered: Accept on a confirmation asked of it,
    else the first offered move (:func:`first_offered`; a digital match: nothing to type in). Answers the
    write's JSON."""
    held = answer["held"]
    if held and held["confirmer"] == answer["seat"]:
        done = client.post(f"/matches/{mid}/confirmations", headers=auth(token),
                           json={"entry": held["seq"], "accept": True, "expected_seq": answer["seq"]})
    else:
        choice = first_offered(answer)
        assert not any(f["fill"] for f in choice["fields"]), choice  # digital: the referee draws
        done = client.post(f"/matches/{mid}/intents", headers=auth(token),
                           json={"intent": choice["intent"], "expected_seq": answer["seq"], "seat": answer["seat"]})
    assert done.status_code == 201, done.text
    written: dict[str, Any] = done.json()
    return written


def replayed_state_hash(referee: Referee, mid: str) -> str:
    """The state hash of a new match with the same configuration fed the log's lines again (the arbiter's
    log: the chance facts drawn are in them), in order, each by its actor, each given the verdict it had:
    what the log alone says the final position is."""
    from referee.engine import core

    loaded = referee.load(mid)
    config = loaded.config
    fresh = referee.new_match(loaded.game.id, list(config.players), options=dict(config.options), seed=config.seed,
                              chance=config.chance, undo=config.undo)
    for entry in referee.log(mid):
        assert entry.kind == "intent", f"entry {entry.seq} is a {entry.kind}: this replay feeds intents only"
        again = referee.submit(fresh.id, entry.actor or "", entry.notation)
        assert again.verdict.__class__.__name__.lower() == entry.verdict, (entry.seq, entry.notation, again.verdict)
    _, state = referee.state_at(referee.load(fresh.id))
    return core.state_hash(state)


# -- in a browser: each wait is one round trip, the page looked at from inside itself ---------------------

#: the page offers its user something to tap: a confirmation asked of it, or a move (or a field to pick)
OFFERS = "!!document.querySelector('#held button.confirm, #moves button.choice, #moves button.pick')"


def until(driver: Any, condition: str, result: str = "true", timeout: float = 30.0) -> Any:
    """Wait, inside the page, until the JavaScript expression ``condition`` holds (looked at again at each
    change of the page: :func:`support.browser.wait_on_page`), then answer the expression ``result``: one round
    trip to the browser however long it takes."""
    from support.browser import wait_on_page

    return wait_on_page(driver, f"return ({condition}) ? {{value: ({result})}} : null", timeout)["value"]


#: one tap on the first thing offered, as a user would: Accept on a confirmation asked of the page, else the
#: first move button; where a group asks for a field first, its first value, until a move is listed
TAP = """
  for (let i = 0; i < 12; i++) {
    const b = document.querySelector('#held button.confirm') || document.querySelector('#moves button.choice')
      || document.querySelector('#moves button.pick:not(.on)');
    if (!b) return ['none', ''];
    if (b.classList.contains('private') && !document.body.classList.contains('revealed')) return ['covered', ''];
    const t = b.dataset.intent || b.textContent; b.click();
    if (!b.classList.contains('pick')) return ['move', t];
  }
  return ['none', ''];"""


def tap_page(driver: Any, hold: Callable[[Any], None]) -> str:
    """Tap the first thing offered (:data:`TAP`); a covered move is first revealed by ``hold`` (the owner
    holding "Hold to see your hand"). Answers the move tapped."""
    for _ in range(3):
        kind, text = driver.execute_script(TAP)
        if kind == "covered":
            hold(driver)
            continue
        assert kind == "move", "no move offered"
        return str(text)
    raise AssertionError("the move stayed covered")
