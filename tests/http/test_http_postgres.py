"""The HTTP service over PostgreSQL: a subset of tests/http/test_api.py (through Litestar's TestClient)
and of tests/http/test_live.py (a live server: concurrent writers, retries, a stream that sees another
process's entries), each run again here on a database of the throw-away PostgreSQL server."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from referee.http import create_app
from referee.service import Referee
from referee.store.postgres import PostgresStore
from support.live import LiveServer
from support.pile import PILE
from test_api import (  # noqa: F401 - collected again here, over PostgreSQL
    test_a_replayed_answer_is_redacted_like_the_first,
    test_a_retried_request_is_applied_once,
    test_a_stale_expected_seq_is_409_with_the_head,
    test_a_token_of_another_match_is_403,
    test_annotations,
    test_audit_for_every_role,
    test_creating_a_match_answers_one_token_per_seat_and_role,
    test_events_backlog_and_resume,
    test_fork_mints_new_tokens_and_diff_compares_with_forks,
    test_missing_malformed_and_unknown_tokens_are_401,
    test_state_is_the_view_of_the_role_asking,
    test_the_log_is_paginated,
    test_undo_redo_and_rulings,
    test_unreadable_intents_are_422_and_write_nothing,
)
from test_api import started  # noqa: F401 - the fixture, over this module's client
from test_live import (  # noqa: F401
    test_a_stream_resumes_from_last_event_id_and_sees_other_processes_entries,
    test_concurrent_retries_of_one_request_are_applied_once,
    test_two_scorekeepers_at_one_table_never_fork_the_log,
)


@pytest.fixture
def client(pg_url):
    store = PostgresStore(pg_url)
    with TestClient(create_app(lambda: Referee(store, games=[PILE]))) as c:
        yield c
    store.close()


@pytest.fixture(scope="module")
def live(pg_server):
    url = pg_server.fresh()
    store = PostgresStore(url)
    app = create_app(lambda: Referee(store, games=[PILE]), keepalive=0.3, poll=0.2)
    with LiveServer(app) as server:
        server.db = url
        yield server
    store.close()
