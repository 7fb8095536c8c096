"""The matches' HTTP routes say their own refusals through the catalog (issue 29, item 5): a token with
every heavy slot taken, a log page asked from two starts, a Last-Event-ID that is no entry number. The
message HTTP carries stays English, as before; the error reads Russian for a reader of Russian."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from referee import i18n
from referee.auth import Principal
from referee.errors import BadInput
from referee.httphall import HEAVY_PER_TOKEN, RETRY_AFTER, Hall, TooBusy
from referee.matchroutes import events, match_log

ARBITER = Principal(match_id="m1", role="arbiter")


def _request(hall: Any) -> Any:
    return SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(hall=hall)))


class _Hall:
    """What match_log reaches before it reads the log: the caller, and an entry named by number."""

    def principal(self, request: Any, match_id: str) -> Principal:
        return ARBITER

    def access(self) -> Any:
        return SimpleNamespace(entry=lambda p, ref, what: int(ref))


def test_a_token_with_every_heavy_slot_taken_is_refused_in_the_readers_language():
    hall = Hall(lambda: None)  # type: ignore[arg-type,return-value]
    keys = [hall.take_slot(ARBITER) for _ in range(HEAVY_PER_TOKEN)]
    with pytest.raises(TooBusy) as caught:
        hall.take_slot(ARBITER)
    err = caught.value
    assert err.http_status == 429 and err.code == "request/busy"
    assert err.detail == {"retry_after": RETRY_AFTER}
    assert err.message == (f"this token already has {HEAVY_PER_TOKEN} requests that read a whole log running (export, "
                           f"replay, audit, diff); retry in {RETRY_AFTER} s, when one of them has finished")
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == (
            f"по этому токену уже выполняется предельное число запросов, читающих весь журнал ({HEAVY_PER_TOKEN}: "
            f"экспорт, повтор, аудит, сравнение); повторите через {RETRY_AFTER} с, когда один из них завершится")
    with i18n.speaking("en"):
        assert err.text(i18n.gettext) == err.message
    hall.give_slot(keys[0])
    hall.give_slot(hall.take_slot(ARBITER))  # a slot given back is taken again


def test_a_log_page_from_two_starts_is_refused_in_the_readers_language():
    with pytest.raises(BadInput) as caught:
        match_log.fn(request=_request(_Hall()), match_id="m1", offset=5, limit=100, as_=None, start="3")
    err = caught.value
    assert err.code == "input/bad_page"
    assert err.message == "give the page's start as from=3 or as offset=5, not both"
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == "укажите начало страницы либо как from=3, либо как offset=5, но не оба сразу"


def test_a_last_event_id_that_is_no_entry_number_is_refused_in_the_readers_language():
    with pytest.raises(BadInput) as caught:
        asyncio.run(events.fn(request=_request(_Hall()), match_id="m1", after=None, follow=False, as_=None,
                              last_event_id="x1"))
    err = caught.value
    assert err.code == "events/bad_last_event_id"
    assert err.message == "Last-Event-ID must be an entry number, not 'x1'"
    with i18n.speaking("ru"):
        assert err.text(i18n.gettext) == "Last-Event-ID должен быть номером записи, а не 'x1'"
