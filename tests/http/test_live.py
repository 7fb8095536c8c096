"""The HTTP service on a real uvicorn (127.0.0.1, a free port): live streams, two scorekeepers at one
table, retried requests, the CLI as a client, and property-based fuzzing of the OpenAPI document. The
module runs on both backends (conftest's ``module_db`` and ``db``: SQLite, PostgreSQL)."""

from __future__ import annotations

import contextlib
import json
from collections import Counter
import subprocess
import sys
import threading
import time

import httpx
import pytest

from conftest import ROOT
from referee.service import Referee
from referee.store import open_store
from support.apps import live_server
from support.pile import PILE


@pytest.fixture(scope="module")
def live(module_db):
    store = open_store(module_db)
    with live_server(lambda: Referee(store, games=[PILE]), keepalive=0.3, poll=0.2) as server:
        server.db = module_db
        yield server
    store.close()


def new_table(live, **create):
    answer = httpx.post(f"{live.url}/matches", json={"game": "pile", "players": ["alice", "bob"], **create})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    tokens = {**data["tokens"]["seats"], "arbiter": data["tokens"]["arbiter"], "spectator": data["tokens"]["spectator"]}
    return data["match"]["id"], tokens


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def whole_log(live, mid, token):
    return httpx.get(f"{live.url}/matches/{mid}/log", params={"limit": 1000}, headers=auth(token)).json()["entries"]


@pytest.mark.both_backends
def test_a_spectator_follows_the_match_live_and_the_stream_ends_with_the_client(live):
    mid, tokens = new_table(live)
    httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02"},
               headers=auth(tokens["alice"]))
    seen, comments = [], 0
    with httpx.Client(base_url=live.url, timeout=10) as writer, \
            httpx.stream("GET", f"{live.url}/matches/{mid}/events", headers=auth(tokens["spectator"]), timeout=10) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        started = time.monotonic()
        for line in stream.iter_lines():
            if line.startswith("data:"):
                seen.append(json.loads(line[5:]))
                if len(seen) == 1:  # the backlog; now play on and watch it arrive
                    writer.post(f"/matches/{mid}/intents", json={"intent": "take 2"}, headers=auth(tokens["alice"]))
                    sent = time.monotonic()
                elif len(seen) == 2:
                    latency = time.monotonic() - sent
            elif line.startswith(":"):
                comments += 1
                if len(seen) >= 2:
                    # (leaving iter_lines early closes the connection: look before leaving)
                    assert httpx.get(f"{live.url}/health").json()["streams"] == 1
                    break
            assert time.monotonic() - started < 8, "the stream stalled"
    assert [e["seq"] for e in seen] == [1, 2]
    assert seen[0]["notation"] == "start first=alice tokens=?,?" and seen[1]["events"][0]["count"] == 2
    assert latency < 1.0  # woken by the append, not by the poll
    assert comments >= 1  # keep-alive
    deadline = time.monotonic() + 5
    while httpx.get(f"{live.url}/health").json()["streams"] != 0:
        assert time.monotonic() < deadline, "the stream outlived its client"
        time.sleep(0.05)


@pytest.mark.both_backends
def test_a_stream_resumes_from_last_event_id_and_sees_other_processes_entries(live):
    mid, tokens = new_table(live)
    for text in ("start first=alice tokens=K01,K02", "say note=one", "say note=two"):
        httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": text}, headers=auth(tokens["alice"]))
    headers = {**auth(tokens["bob"]), "Last-Event-ID": "2"}
    with httpx.stream("GET", f"{live.url}/matches/{mid}/events", headers=headers, timeout=10) as stream:
        ids = []
        for line in stream.iter_lines():
            if line.startswith("id:"):
                ids.append(int(line[3:]))
                if ids == [3]:
                    # an entry written behind the server's back (another process on the same file)
                    other = Referee(open_store(live.db), games=[PILE])
                    other.submit(mid, "bob", "say note=local")
                if len(ids) == 2:
                    break
    assert ids == [3, 4]


def _writer(live, mid, seat, token, n, out, stale):
    with httpx.Client(base_url=live.url, headers=auth(token), timeout=30) as c:
        for i in range(n):
            body = {"intent": f"say note={seat}-{i}"}
            while True:
                if stale is not None:
                    body["expected_seq"] = c.get(f"/matches/{mid}/state").json()["seq"]
                answer = c.post(f"/matches/{mid}/intents", json=body)
                if answer.status_code == 409 and stale is not None:
                    assert answer.json()["detail"]["head"] > body["expected_seq"]
                    stale.append(seat)
                    continue
                assert answer.status_code == 201, answer.text
                out.append((seat, i, answer.json()["seq"]))
                break


@pytest.mark.both_backends
@pytest.mark.parametrize("mode", ["head", "expected_seq"])
def test_two_scorekeepers_at_one_table_never_fork_the_log(live, mode):
    mid, tokens = new_table(live, seed=2)
    httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "start"}, headers=auth(tokens["alice"]))
    n, out = 40, []
    stale = [] if mode == "expected_seq" else None
    threads = [threading.Thread(target=_writer, args=(live, mid, seat, tokens[seat], n, out, stale))
               for seat in ("alice", "bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(out) == 2 * n
    entries = whole_log(live, mid, tokens["arbiter"])
    assert [e["seq"] for e in entries] == list(range(1, 2 * n + 2))
    notes = [e["notation"] for e in entries[1:]]
    for seat in ("alice", "bob"):
        mine = [x for x in notes if x.startswith(f"say note={seat}-")]
        assert mine == [f"say note={seat}-{i}" for i in range(n)]  # each once, in the order sent
        answered = [seq for s, _i, seq in sorted(out) if s == seat]
        assert [entries[seq - 1]["notation"] for seq in answered] == mine
    audit = httpx.get(f"{live.url}/matches/{mid}/audit", headers=auth(tokens["arbiter"])).json()
    assert audit["clean"] is True and audit["entries"] == 2 * n + 1


@pytest.mark.both_backends
def test_concurrent_retries_of_one_request_are_applied_once(live):
    mid, tokens = new_table(live)
    httpx.post(f"{live.url}/matches/{mid}/intents", json={"intent": "start first=alice tokens=K01,K02"},
               headers=auth(tokens["alice"]))
    barrier, answers = threading.Barrier(6), []

    def retry():
        with httpx.Client(timeout=30) as c:
            barrier.wait()
            answers.append(c.post(f"{live.url}/matches/{mid}/intents", json={"intent": "take 3"},
                                  headers={**auth(tokens["alice"]), "Idempotency-Key": "move-2"}))

    threads = [threading.Thread(target=retry) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a.status_code for a in answers) == [200] * 5 + [201]
    assert len({a.content for a in answers}) == 1
    entries = whole_log(live, mid, tokens["arbiter"])
    assert [e["notation"] for e in entries] == ["start first=alice tokens=K01,K02", "take 3"]


def test_the_cli_plays_shows_and_logs_through_a_server(live, cli, monkeypatch):
    """The CLI as the server's client, run in process (conftest's ``cli``: exit code, stdout, stderr as a
    person gets them; a process of its own per command cost ~0.4 s of CPU each, and nothing here is about
    the process: test_referee_play_does_not_import_the_server_stack below starts one)."""
    monkeypatch.delenv("REFEREE_SERVER", raising=False)
    monkeypatch.delenv("REFEREE_TOKEN", raising=False)

    def _cli(*args, env=None):
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        try:
            return cli(*args)
        finally:
            for name in env or {}:
                monkeypatch.delenv(name)

    mid, tokens = new_table(live)
    server = ["--server", live.url]
    done = _cli(*server, "--token", tokens["alice"], "play", mid[:6], "alice", "start", "first=alice", "tokens=K01,K02")
    assert done.code == 0, done.err
    assert "accepted" in done.out and "#1" in done.out
    done = _cli("play", mid, "bob", "take", "1", env={"REFEREE_SERVER": live.url, "REFEREE_TOKEN": tokens["bob"]})
    assert done.code == 1 and "turn/not_your_turn" in done.out  # rejected, and logged
    done = _cli(*server, "--token", tokens["alice"], "play", mid, "bob", "take", "1")
    assert done.code == 2 and "cannot act for bob" in done.err
    done = _cli(*server, "--token", tokens["bob"], "show", mid, "--json")
    assert done.code == 0, done.err
    shown = json.loads(done.out)
    assert shown["as"] == "bob" and shown["state"]["tokens"] == {"alice": "?", "bob": "K02"}
    done = _cli(*server, "--token", tokens["bob"], "log", mid)
    assert done.code == 0 and "not_your_turn" in done.out and "K01" not in done.out
    done = _cli(*server, "--token", tokens["spectator"], "log", mid, "--json")
    assert [e["seq"] for e in json.loads(done.out)] == [1, 2]
    for span, seqs in ((["--last", "1"], [2]), (["--from", "2"], [2]), (["--to", "1"], [1]), (["--from", "3"], [])):
        done = _cli(*server, "--token", tokens["spectator"], "log", mid, *span, "--json")  # pages over HTTP
        assert done.code == 0 and [e["seq"] for e in json.loads(done.out)] == seqs, (span, done.err)
    done = _cli(*server, "--token", tokens["spectator"], "log", mid, "--only", "rejected")
    assert done.code == 0 and done.out.split()[:4] == ["2", "bob", "rejected", "take"], done.out
    done = _cli(*server, "--token", "wrong", "show", mid)
    assert done.code == 2 and "not a token" in done.err
    done = _cli(*server, "--token", tokens["alice"], "play", mid, "alice", "take", "1", "--expect-seq", "0")
    assert done.code == 4 and "at entry 2" in done.err
    done = _cli(*server, "--token", tokens["bob"], "export", mid, "--format", "txt")
    assert done.code == 0 and "alice: start" in done.out and "K01" not in done.out  # bob's view
    done = _cli(*server, "--token", tokens["arbiter"], "export", mid, "--format", "md")
    assert done.code == 0 and "K01" in done.out  # the arbiter sees everything
    done = _cli(*server, "--token", tokens["arbiter"], "matches")
    assert done.code == 2 and "local database" in done.err
    created = _cli(*server, "new", "pile", "--players", "carol,dave", "--json")  # no token needed to create
    assert created.code == 0, created.err
    answer = json.loads(created.out)
    assert set(answer["tokens"]["seats"]) == {"carol", "dave"} and answer["match"]["game"] == "pile"
    done = _cli(*server, "--token", answer["tokens"]["seats"]["carol"], "show", answer["match"]["id"], "--json")
    assert done.code == 0 and json.loads(done.out)["as"] == "carol"
    done = _cli("--server", "http://127.0.0.1:9", "--token", "x", "show", mid)
    assert done.code == 5 and "cannot reach" in done.err


def test_the_cli_answers_alike_from_its_database_and_through_a_server(cli, db, db_store, monkeypatch):
    """Client mode and local mode are one protocol (referee.api.RefereeApi) over the same Structs: over
    one database, every read command's --json is the same locally and through the server, for the
    arbiter and for a seat (with that seat's token)."""
    import shlex

    monkeypatch.setenv("REFEREE_DB", db)  # the local commands' database is the server's
    with live_server(lambda: Referee(db_store)) as server:
        created = cli("--server", server.url, "new", "by_all_means", "--players", "alice,bob", "--seed", "7", "--json")
        assert created.code == 0, created.err
        mid, tokens = created.json["match"]["id"], created.json["tokens"]
        arbiter = ("--server", server.url, "--token", tokens["arbiter"])
        alice = ("--server", server.url, "--token", tokens["seats"]["alice"])
        for _ in range(10):
            legal = cli(*arbiter, "legal", mid, "--json").json["legal"]
            seat = next(s for s in ("alice", "bob") if legal[s])
            assert cli(*arbiter, "play", mid, seat, *shlex.split(legal[seat][0])).code == 0
        again = cli(*arbiter, "play", mid, "alice", "draw_opening_hand", "--json")
        assert again.code == 1 and again.json["verdict"] == "rejected"
        ruled = cli(*arbiter, "rule", mid, str(again.json["seq"]), "--reason", "tried", "--json")
        assert ruled.code in (0, 1) and ruled.json["seq"] == again.json["seq"] + 1
        assert cli(*arbiter, "undo", mid, "--by", "arbiter").code == 0
        assert cli(*arbiter, "redo", mid, "--by", "arbiter").code == 0
        assert cli(*alice, "annotate", mid, "2", "a fine hand").code == 0
        assert cli(*arbiter, "fork", mid, "--at", "4").code == 2  # a fork's tokens come from POST .../fork
        fork = cli("fork", mid, "--at", "4", "--json").json["id"]
        cli("play", fork, "alice", *shlex.split(cli("legal", fork, "alice", "--json").json["legal"]["alice"][0]))
        reads = [("show", mid), ("show", mid, "--at", "3"), ("log", mid), ("replay", mid), ("replay", mid, "--from", "2", "--to", "5"),
                 ("audit", mid), ("diff", mid, fork), ("diff", f"{mid}@3", f"{fork}@3"), ("legal", mid)]
        for args in reads:
            local, remote = cli(*args, "--json"), cli(*arbiter, *args, "--json")
            assert (remote.code, remote.out) == (local.code, local.out), args
        for args in [("show", mid), ("log", mid), ("replay", mid)]:
            local, remote = cli(*args, "--as", "alice", "--json"), cli(*alice, *args, "--json")
            assert (remote.code, remote.out) == (local.code, local.out), args
        assert cli(*alice, "show", mid).out == cli("show", mid, "--as", "alice").out  # and the tables too


def test_referee_play_does_not_import_the_server_stack(tmp_path):
    code = (
        "import atexit, sys\n"
        "atexit.register(lambda: print('HEAVY', [m for m in ('litestar', 'uvicorn', 'httpx', 'anyio') if m in sys.modules]))\n"
        "from cli.main import run\n"
        "run(['--server', 'http://127.0.0.1:9', '--token', 't', 'play', 'abcd', 'alice', 'take', '1'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


# -- fuzzing ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def _serving(db):
    """A live server of the module's hall (:func:`live`'s) over the database ``db``."""
    store = open_store(db)
    try:
        with live_server(lambda: Referee(store, games=[PILE]), keepalive=0.3, poll=0.2) as server:
            yield server
    finally:
        store.close()


def _unexampled(doc):
    """An OpenAPI document without its ``examples``."""
    if isinstance(doc, dict):
        return {k: _unexampled(v) for k, v in doc.items() if k != "examples"}
    return [_unexampled(v) for v in doc] if isinstance(doc, list) else doc


@pytest.fixture
def servers(request, tmp_path):
    """A live server on each backend, by name: SQLite, and PostgreSQL wherever conftest's ``pg_server`` can
    be had (it fails where REFEREE_REQUIRE_POSTGRES asks for it, as CI does; elsewhere it skips, and the
    fuzzing then runs on SQLite alone, as its PostgreSQL variant skipped before)."""
    dbs = {"sqlite": str(tmp_path / "r.db")}
    with contextlib.suppress(pytest.skip.Exception):
        dbs["postgres"] = request.getfixturevalue("pg_server").fresh(empty=True)
    with contextlib.ExitStack() as stack:
        yield {name: stack.enter_context(_serving(db)) for name, db in dbs.items()}


#: the document's operations are fuzzed in this many parts (every FUZZ_PARTS-th operation a part, each a test
#: of its own), so that xdist's workers share the fuzzing
FUZZ_PARTS = 4


@pytest.mark.slow
@pytest.mark.parametrize("part", range(FUZZ_PARTS))
def test_fuzzing_the_openapi_document_finds_no_server_error(servers, part):
    """Each operation of the OpenAPI document (this part's), fuzzed with valid and with invalid requests: no
    answer is a 5xx, every 4xx has the error shape, and the match stays auditable. Each case is drawn once and
    sent to every backend's server (drawing costs several times what answering does; the draws are
    derandomized, so the backends got these same cases when each drew its own), with each token, the
    arbiter's and a seat's."""
    import schemathesis
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    tables = {}
    for backend, server in servers.items():
        mid, tokens = new_table(server, seed=1)
        httpx.post(f"{server.url}/matches/{mid}/intents", json={"intent": "start"}, headers=auth(tokens["alice"]))
        tables[backend] = server.url, mid, tokens
    documents = [httpx.get(f"{url}/schema/openapi.json", timeout=60).json() for url, _, _ in tables.values()]
    # one document, save the examples the server makes up for the error body's schema (random, per process
    # and app): the cases drawn from it fit every server
    assert all(_unexampled(d) == _unexampled(documents[0]) for d in documents)
    first_url, first_mid, first_tokens = tables["sqlite"]
    schema = schemathesis.openapi.from_url(f"{first_url}/schema/openapi.json")
    failures, calls, statuses = [], Counter(), {backend: Counter() for backend in tables}
    operations = [r.ok() for r in schema.get_all_operations()]
    assert len(operations) >= 19
    called = {backend: Counter() for backend in tables}
    for op in operations[part::FUZZ_PARTS]:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fixed = {"match_id": first_mid} if "{match_id}" in op.path else None
            query = {"follow": "false"} if op.path.endswith("/events") else None
            strategy = op.as_strategy(mode, path_parameters=fixed, query=query,
                                      headers={"Authorization": f"Bearer {first_tokens['arbiter']}"})

            @settings(max_examples=6, derandomize=True, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
            @given(case=strategy)
            def check(case):
                ours = fixed is not None and (case.path_parameters or {}).get("match_id") == first_mid
                for backend, (url, mid, tokens) in tables.items():
                    if ours:  # each server's own match (a drawn, invalid id is sent as drawn)
                        case.path_parameters = {**case.path_parameters, "match_id": mid}
                    for role in ("arbiter", "alice"):
                        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[role]}"}
                        calls[backend] += 1
                        called[backend][op.label] += 1
                        answer = case.call(base_url=url, timeout=10)
                        statuses[backend][answer.status_code] += 1
                        if answer.status_code >= 500:
                            failures.append(f"{backend}: {case.method} {case.formatted_path} {case.query} "
                                            f"{case.body!r} as {role}: {answer.status_code} {answer.text[:300]}")
                        elif answer.status_code >= 400:
                            body = answer.json()
                            said = body.get("said", {"template": "", "values": {}})  # said: when the catalog said it
                            if set(body) - {"said"} != {"code", "message", "detail"} or not (
                                    isinstance(said, dict) and set(said) == {"template", "values"}
                                    and isinstance(said["template"], str) and isinstance(said["values"], dict)):
                                failures.append(f"{backend}: {case.method} {case.formatted_path} as {role}: "
                                                f"not the error shape: {body}")

            try:
                check()
            except Unsatisfiable:  # nothing to negate in an operation without parameters
                assert mode == GenerationMode.NEGATIVE
    assert failures == []
    # the same requests to the same match: every backend answered them alike
    assert all(statuses[backend] == statuses["sqlite"] for backend in tables), statuses
    for backend, (url, mid, tokens) in tables.items():
        print(f"fuzz statuses ({backend}):", dict(sorted(statuses[backend].items())))
        # every operation of the part was sent cases (the whole document: over 1,100 calls a backend)
        assert set(called[backend]) == {op.label for op in operations[part::FUZZ_PARTS]}, (backend, called)
        assert calls[backend] > 200 // FUZZ_PARTS, (backend, calls)
        # it got past validation and auth (the whole document: over 100 answers a backend)
        assert sum(n for status, n in statuses[backend].items() if status < 300) > 50 // FUZZ_PARTS, (backend, statuses)
        audit = httpx.get(f"{url}/matches/{mid}/audit", headers=auth(tokens["arbiter"])).json()
        assert audit["clean"] is True, backend


def test_referee_serve_answers_on_loopback(db):
    from support.live import free_port

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port), "--db", db], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90  # a loaded 2-core machine starts it in 5-40 s
        while True:
            with contextlib.suppress(httpx.TransportError):  # not listening yet
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline and server.poll() is None, "referee serve did not start"
            time.sleep(0.1)
        games = httpx.get(f"http://127.0.0.1:{port}/games", timeout=30).json()
        assert games and all("intents" in g for g in games)
        assert httpx.get(f"http://127.0.0.1:{port}/schema/openapi.json", timeout=30).json()["info"]["title"] == "Referee"
    finally:
        server.terminate()
        server.wait(10)
