"""A live stream is woken by an append instead of waiting for its next look at the store (issue 26's
latency): in its own process by the hub, in another process sharing the database by the store's
notifier (a SQLite file's :class:`referee.store.sqlite_notify.FileNotifier`, PostgreSQL's LISTEN).
Every server here looks at the store by itself only every 30 s, so an entry that arrives within a few
seconds was announced."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import httpx
import pytest

from referee.httphall import Hub
from referee.service import Referee
from referee.store import open_store
from referee.store.sqlite_notify import FileNotifier
from support.apps import live_server
from support.pile import PILE
from support.store_contract import a_match, an_entry

#: what a stream would wait without an announcement
POLL = 30.0
#: what an announced entry may take on a loaded machine
SOON = 5.0


def serving(db: str):
    """A live server (tests/support/apps.py's) of the test game over ``db``, looking by itself every 30 s."""
    return live_server(lambda: Referee(open_store(db), games=[PILE]), keepalive=POLL, poll=POLL, listen_poll=POLL)


def first_entry_after(url: str, mid: str, token: str, append) -> float:
    """Open the match's stream, wait for its backlog (one entry), ``append()`` and return how long the next
    entry took to arrive."""
    with httpx.stream("GET", f"{url}/matches/{mid}/events", headers={"Authorization": f"Bearer {token}"},
                      timeout=POLL + 10) as stream:
        seen = 0
        for line in stream.iter_lines():
            if line.startswith("data:"):
                seen += 1
                if seen == 1:
                    sent = time.monotonic()
                    append()
                else:
                    assert json.loads(line[5:])["seq"] == 2
                    return time.monotonic() - sent
    raise AssertionError("the stream ended")


def a_table(url: str) -> tuple[str, dict[str, str]]:
    made = httpx.post(f"{url}/matches", json={"game": "pile", "players": ["alice", "bob"]}, timeout=30).json()
    mid, tokens = made["match"]["id"], made["tokens"]
    auth = {"Authorization": f"Bearer {tokens['seats']['alice']}"}
    httpx.post(f"{url}/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02"}, headers=auth,
               timeout=30).raise_for_status()
    return mid, {"alice": tokens["seats"]["alice"], "spectator": tokens["spectator"]}


def take(url: str, mid: str, token: str) -> None:
    answer = httpx.post(f"{url}/matches/{mid}/intents", json={"intent": "take 2"},
                        headers={"Authorization": f"Bearer {token}"}, timeout=30)
    assert answer.status_code == 201, answer.text


def test_an_append_in_the_process_wakes_its_streams_at_once(db):
    with serving(db) as live:
        mid, tokens = a_table(live.url)
        took = first_entry_after(live.url, mid, tokens["spectator"], lambda: take(live.url, mid, tokens["alice"]))
    assert took < SOON


def test_an_append_in_another_process_wakes_the_streams_through_the_stores_notifier(db):
    """Two apps over one database stand for two worker processes: each has its own hub, so the entry written
    through one reaches the other's stream only through the store's announcement."""
    with serving(db) as writer, serving(db) as reader:
        mid, tokens = a_table(writer.url)
        took = first_entry_after(reader.url, mid, tokens["spectator"], lambda: take(writer.url, mid, tokens["alice"]))
    assert took < SOON


def test_an_announcement_between_a_streams_look_and_its_wait_is_not_lost():
    """A stream holds its event from before it looks at the store until after it waits: an append announced
    in between leaves the event set, so the wait ends at once instead of at the next poll."""

    async def scenario() -> bool:
        hub = Hub()
        hub.loop = asyncio.get_running_loop()
        with hub.watching("m1") as woken:
            woken.clear()
            # ... the stream looks at the store here and finds nothing; meanwhile an append is announced:
            await asyncio.to_thread(hub.notify, "m1")
            await asyncio.sleep(0)  # the announcement reaches the loop
            await asyncio.wait_for(woken.wait(), POLL)
            assert hub.waiters == {"m1": {woken}}
        return hub.waiters == {}

    assert asyncio.run(scenario())


def test_a_sqlite_file_announces_each_match_appended_by_any_connection(tmp_path):
    path = str(tmp_path / "notify.db")
    writer = open_store(path)
    writer.create_match(a_match("m1"))
    writer.create_match(a_match("m2"))
    writer.append(an_entry(1, "m1"), expected_seq=0)  # before listening: never announced
    woken: list[str] = []
    seen = threading.Event()

    def wake(match_id: str) -> None:
        woken.append(match_id)
        seen.set()

    notifier = writer.notifier
    assert isinstance(notifier, FileNotifier)
    stop = notifier.listen(wake)
    try:
        other = open_store(path)  # another connection, as another process's
        other.append(an_entry(2, "m1"), expected_seq=1)
        other.append(an_entry(1, "m2"), expected_seq=0)
        other.close()
        deadline = time.monotonic() + SOON
        while set(woken) != {"m1", "m2"} and time.monotonic() < deadline:
            seen.wait(0.05)
        assert sorted(woken) == ["m1", "m2"]  # each match once: the entry before listening was not announced
    finally:
        stop()
        writer.close()


@pytest.mark.parametrize("path", [":memory:"])
def test_a_store_in_one_processs_memory_announces_nothing(path):
    assert open_store(path).notifier is None
