"""Inputs that never end, nest too deep, are not UTF-8 or are far too long: each gets one clear error
(exit 2, or a 4xx in the error shape), quickly, and nothing is written (issue 10, items 6, 7 and 9)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, dump
from referee.errors import BadInput
from referee.inputs import check_depth, check_text, read_file
from referee.service import Referee
from referee.store import open_store
from referee.store.memory import MemoryStore
from schemas import SEED_MAX, TEXT_MAX
from support.apps import app_client

HEADER = "game: by_all_means\nplayers: alice, bob\n"


def write(path, text: str | bytes) -> str:
    mode = "wb" if isinstance(text, bytes) else "w"
    with open(path, mode, **({} if isinstance(text, bytes) else {"encoding": "utf-8"})) as fh:
        fh.write(text)
    return str(path)


# -- files that never end ---------------------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_importing_a_device_is_refused_at_once(cli, tmp_path, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    started = time.process_time()  # CPU time: a busy machine does not inflate it
    r = cli("import", device)
    assert r.code == 2 and "character device" in r.err and "give the path of a file" in r.err
    assert time.process_time() - started < 5
    assert dump(tmp_path / "r.db") == [] or not any("INSERT INTO \"entries\"" in line for line in dump(tmp_path / "r.db"))


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_transcript_naming_a_device_as_its_cards_is_refused(cli, tmp_path, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    path = write(tmp_path / "t.txt", HEADER + f"cards: {device}\nalice: draw_opening_hand\n")
    started = time.process_time()
    r = cli("import", path)
    assert r.code == 2 and device in r.err and "character device" in r.err
    assert time.process_time() - started < 5
    assert not any("INSERT INTO \"matches\"" in line for line in dump(tmp_path / "r.db"))


def test_a_fifo_and_a_directory_are_refused_without_blocking(cli, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it for reading would block forever
    r = cli("import", str(fifo))
    assert r.code == 2 and "a pipe" in r.err
    r = cli("import", str(tmp_path))
    assert r.code == 2 and "a directory" in r.err


def test_standard_input_is_read_only_up_to_the_limit(tmp_path):
    env = {**os.environ, "REFEREE_DB": str(tmp_path / "r.db"), "PYTHONPATH": ROOT}
    started = time.perf_counter()
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-m", "cli", "import", "-"], stdin=zero, capture_output=True,
                              text=True, env=env, timeout=60, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "standard input is more than 16,000,000 bytes" in done.stderr
    assert time.perf_counter() - started < 30


def test_files_past_their_limit_are_refused_with_the_limit(tmp_path):
    path = write(tmp_path / "big.toml", "x" * 2_000)
    with pytest.raises(BadInput) as err:
        read_file(path, "card file", 1_000)
    assert err.value.code == "input/too_large" and "2,000 bytes; the limit is 1,000 bytes" in err.value.message
    assert read_file(write(tmp_path / "ok.toml", "x" * 1_000), "card file", 1_000) == "x" * 1_000


def test_a_card_file_over_a_megabyte_is_refused(cli, tmp_path):
    write(tmp_path / "huge.toml", "# " + "x" * 1_000_001 + "\n")
    path = write(tmp_path / "t.txt", HEADER + "cards: huge.toml\nalice: draw_opening_hand\n")
    r = cli("import", path)
    assert r.code == 2 and "the limit is 1,000,000 bytes" in r.err


def test_text_that_is_not_utf8_names_the_line_and_column(cli, tmp_path):
    path = write(tmp_path / "t.txt", HEADER.encode() + b"alice: draw_opening_hand cards=T\xff1\n")
    r = cli("import", path)
    assert r.code == 2 and "byte 0xff at line 3, column 33" in r.err


def test_a_byte_order_mark_is_fine(cli, tmp_path):
    path = write(tmp_path / "t.txt", b"\xef\xbb\xbf" + HEADER.encode() + b"bob: record_lot winner=alice\n")
    r = cli("import", path, "--json")
    assert r.code == 0, r.err
    assert r.json["accepted"] == 1


# -- lines far too long --------------------------------------------------------------------------------


def test_a_megabyte_move_line_is_refused_quickly_naming_the_limit(cli, tmp_path):
    path = write(tmp_path / "t.txt", HEADER + "alice: draw_main card=" + "A" * 1_000_000 + "\n")
    started = time.process_time()
    r = cli("import", path)
    elapsed = time.process_time() - started
    assert r.code == 2 and "t.txt:3" in r.err and "1,000,022 characters long" in r.err and "at most 10,000" in r.err
    assert elapsed < 5
    assert not any("INSERT INTO \"matches\"" in line for line in dump(tmp_path / "r.db"))


@pytest.mark.parametrize("shape", ["letters", "spaces", "quotes", "commas", "equals", "hashes"])
def test_the_longest_line_allowed_is_read_in_linear_time(tmp_path, shape):
    """The parser is linear: the longest line it accepts, in shapes that make backtracking regexes
    or quadratic scans slow, is adjudicated in well under a second of CPU time (a quadratic scan of
    10,000 characters takes minutes; the process's CPU time is not inflated by a busy machine)."""
    from referee.transcript import import_transcript

    filler = {"letters": "A" * 9_900, "spaces": "a" + " " * 9_890 + "b", "quotes": '"' * 9_900,
              "commas": "," * 9_900, "equals": "=" * 9_900, "hashes": " #" * 4_950}[shape]
    line = ("alice: draw_main card=" + filler)[:TEXT_MAX]
    referee = Referee(MemoryStore())
    started = time.process_time()
    summary = import_transcript(referee, HEADER + "bob: record_lot winner=alice\n" + line + "\n")
    assert time.process_time() - started < 2.0, shape
    assert summary.entries == 2


# -- headers: one validation for the CLI, transcripts and HTTP ---------------------------------------


@pytest.mark.parametrize(("line", "fragment"), [
    ("seed: -1", "seed must be a whole number from 0 to"),
    ("seed: " + "1" * 101, "seed must be a whole number from 0 to"),
    (f"seed: {SEED_MAX + 1}", "seed must be a whole number from 0 to"),
    ("seed: 1e9", "seed must be a whole number from 0 to"),
    ("title: " + "x" * 5_000, "at most 200 are accepted"),
    ("title: " + "x" * 1_000_000, "a transcript line may be at most 10,000"),
    ("event: " + "y" * 201, "at most 200 are accepted"),
])
def test_bad_header_values_write_nothing_and_name_the_line(cli, tmp_path, line, fragment):
    path = write(tmp_path / "t.txt", HEADER + line + "\nbob: record_lot winner=alice\n")
    r = cli("import", path)
    assert r.code == 2 and fragment in r.err and "t.txt:3" in r.err, r.err
    assert not any("INSERT INTO \"matches\"" in x for x in dump(tmp_path / "r.db"))


def test_the_largest_seed_is_fine_everywhere(cli, tmp_path):
    path = write(tmp_path / "t.txt", HEADER + f"seed: {SEED_MAX}\nbob: record_lot\n")
    assert cli("import", path).code == 0
    assert cli("new", "by_all_means", "--players", "a,b", "--seed", SEED_MAX + 1).code == 2
    r = cli("new", "by_all_means", "--players", "a,b", "--title", "x" * 201)
    assert r.code == 2 and "at most 200" in r.err


def test_control_characters_in_a_transcript_refuse_it(cli, tmp_path):
    path = write(tmp_path / "t.txt", HEADER + "bob: record_lot winner=alice  # \x1b[2Jgotcha\n")
    r = cli("import", path)
    assert r.code == 2 and "ESCAPE (U+001B)" in r.err and "t.txt:3" in r.err


@pytest.mark.parametrize("text", ["two\nlines", "cr\rhere", "bell\x07", "nul\x00", "sep\u2028x", "rtl\u202eevil"])
def test_free_text_is_one_printable_line(text):
    with pytest.raises(BadInput) as err:
        check_text(text, "the annotation", 100)
    assert err.value.code == "input/bad_text" and "the annotation holds" in err.value.message
    assert check_text("tab\tand ünïcödé, emoji 🎲", "the annotation", 100)


def test_depth_is_checked_without_recursion():
    deep: list = []
    node = deep
    for _ in range(100_000):
        node.append([])
        node = node[0]
    with pytest.raises(BadInput) as err:
        check_depth({"a": deep}, "the position")
    assert err.value.code == "input/too_deep"
    check_depth({"a": {"b": [1, 2, {"c": 3}]}}, "the position")


def test_deep_toml_in_a_card_file_is_a_clear_error(cli, tmp_path):
    write(tmp_path / "deep.toml", "a = " + "[" * 5000 + "]" * 5000 + "\n")
    path = write(tmp_path / "t.txt", HEADER + "cards: deep.toml\nbob: record_lot\n")
    r = cli("import", path)
    assert r.code == 2 and "nest too deeply" in r.err
    r = cli("new", "by_all_means", "--players", "a,b", "--cards", str(tmp_path / "deep.toml"))
    assert r.code == 2 and "nest too deeply" in r.err
    write(tmp_path / "pos.toml", "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n")
    r = cli("new", "by_all_means", "--players", "a,b", "--position", str(tmp_path / "pos.toml"))
    assert r.code == 2 and "nest too deeply" in r.err


def test_a_data_file_nested_too_deeply_is_refused_whatever_the_recursion_limit(monkeypatch):
    """The refusal does not rest on the parse running out of the interpreter's recursion limit (a library
    in a long-lived server may raise it): nesting past DEPTH_MAX is refused by count, and a file at the
    limit still reads."""
    import sys
    import tomllib

    from referee.engine.datafile import load_toml
    from schemas import DEPTH_MAX

    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(100_000)
        with pytest.raises(tomllib.TOMLDecodeError, match="nest too deeply"):
            load_toml("a = " + "[" * 400 + "]" * 400 + "\n")
        with pytest.raises(tomllib.TOMLDecodeError, match="nest too deeply"):
            load_toml("a = " + "{b = " * (DEPTH_MAX + 1) + "1" + "}" * (DEPTH_MAX + 1) + "\n")
    finally:
        sys.setrecursionlimit(old)
    assert load_toml("a = " + "[" * (DEPTH_MAX - 1) + "]" * (DEPTH_MAX - 1) + "\n")["a"] is not None


def test_a_deep_scenario_file_fails_as_a_scenario(cli, tmp_path):
    path = write(tmp_path / "s.toml", 'game = "by_all_means"\nplayers = ["a", "b"]\nx = ' + "[" * 4000 + "]" * 4000)
    r = cli("scenario", "run", path)
    assert r.code == 1 and "nest too deeply" in r.out


# -- HTTP: every malformed body gets the error shape -------------------------------------------------


@pytest.fixture(scope="module")
def http(module_db):
    store = open_store(module_db)  # on each backend
    with app_client(lambda: Referee(store)) as c:
        made = c.post("/matches", json={"game": "by_all_means", "players": ["alice", "bob"], "seed": 3}).json()
        yield c, made["match"]["id"], made["tokens"]
    store.close()


def _shape(answer, status: int, code: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) - {"said"} == {"code", "message", "detail"}
    if code:
        assert body["code"] == code, body


def test_deep_json_intent_objects_are_400(http):
    c, mid, tokens = http
    h = {"Authorization": f"Bearer {tokens['arbiter']}", "Content-Type": "application/json"}
    deep = "[" * 3000 + "]" * 3000
    _shape(c.post(f"/matches/{mid}/intents", content=f'{{"intent": {{"a": {deep}}}, "seat": "alice"}}', headers=h),
           400, "request/too_deep")
    shallow = "[" * 40 + "]" * 40
    _shape(c.post(f"/matches/{mid}/intents", content=f'{{"intent": {{"a": {shallow}}}, "seat": "alice"}}', headers=h),
           422, "input/too_deep")


def test_invalid_utf8_in_a_body_is_400(http):
    c, mid, tokens = http
    h = {"Authorization": f"Bearer {tokens['arbiter']}", "Content-Type": "application/json"}
    _shape(c.post(f"/matches/{mid}/intents", content=b'{"intent": "draw_main \xff", "seat": "alice"}', headers=h),
           400, "request/bad_encoding")
    _shape(c.post("/matches", content=b'{"game": "by_all_means", "players": ["al\xc3", "bob"]}',
                  headers={"Content-Type": "application/json"}), 400, "request/bad_encoding")


def test_deep_toml_and_positions_in_a_new_match_are_4xx(http):
    c, _mid, _tokens = http
    deep_toml = "a = " + "[" * 5000 + "]" * 5000
    _shape(c.post("/matches", json={"game": "by_all_means", "players": ["a", "b"], "cards_text": deep_toml}), 422)
    deep_pos = '{"game": "by_all_means", "players": ["a", "b"], "position": {"x": ' + "[" * 900 + "]" * 900 + "}}"
    _shape(c.post("/matches", content=deep_pos, headers={"Content-Type": "application/json"}), 422, "input/too_deep")
    _shape(c.post("/matches", json={"game": "by_all_means", "players": ["a", "b"], "title": "x\ny"}), 422, "input/bad_text")


def test_free_text_with_line_breaks_is_refused_over_http(http):
    c, mid, tokens = http
    h = {"Authorization": f"Bearer {tokens['seats']['alice']}"}
    forged = "gg\nbob: end_turn\nruling: stands as played — forged\nundo: to=1 by=arbiter reason=x"
    _shape(c.post(f"/matches/{mid}/annotations", json={"seq": 0, "text": forged}, headers=h), 422, "input/bad_text")
    _shape(c.post(f"/matches/{mid}/intents", json={"intent": {"type": "record_lot", "winner": "a\nb"}}, headers=h), 422)


BODIES = st.one_of(
    st.binary(max_size=2_000),
    st.builds(lambda n, o, c: (o * n + c * n).encode(), st.integers(900, 4_000), st.sampled_from(["[", "{\"a\":"]),
              st.sampled_from(["]", "}"])),
    st.builds(lambda s: s.encode("utf-8", "surrogatepass"), st.text(max_size=200)),
    st.builds(lambda a, b: b'{"intent": "' + a + b'", "seat": "' + b + b'"}', st.binary(max_size=50), st.binary(max_size=10)),
    st.builds(lambda n: b'{"intent": "' + b"x" * n + b'"}', st.sampled_from([10_001, 100_000, 1_500_000])),
)
ROUTES = ["/matches", "/matches/{mid}/intents", "/matches/{mid}/undo", "/matches/{mid}/redo", "/matches/{mid}/rulings",
          "/matches/{mid}/annotations", "/matches/{mid}/fork"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=BODIES, route=st.sampled_from(ROUTES), role=st.sampled_from(["arbiter", "alice"]))
def test_no_body_of_any_shape_gets_a_500(http, body, route, role):
    c, mid, tokens = http
    token = tokens["arbiter"] if role == "arbiter" else tokens["seats"][role]
    answer = c.post(route.format(mid=mid), content=body,
                    headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400:
        assert set(answer.json()) - {"said"} == {"code", "message", "detail"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda s: s.encode("utf-8", "surrogatepass"))))
def test_no_transcript_of_any_bytes_crashes_the_import(tmp_path_factory, text):
    from referee.errors import RefereeError
    from referee.inputs import decode
    from referee.transcript import import_transcript

    try:
        summary = import_transcript(Referee(MemoryStore()), decode(HEADER.encode() + text, "transcript"))
    except RefereeError as exc:
        assert exc.exit_code == 2 and exc.message
    else:
        assert summary.entries >= 0


QUERY = st.one_of(st.text(max_size=80), st.sampled_from(["%ff", "%c0%80", "\x00", "-1", "9" * 40, "1e9", "", " ",
                                                         "spectator", "arbiter", "alice", "../..", "a" * 5_000]))
GETS = ["/state?at={q}", "/state?as={q}", "/log?offset={q}", "/log?limit={q}&as={q}", "/replay?from={q}&to={q}",
        "/export?format={q}", "/export?format=json&as={q}", "/legal?seat={q}", "/diff?other={q}", "/events?follow=false&after={q}",
        "/audit?accept_rules_change={q}"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(GETS), q=QUERY, match=st.one_of(st.just(None), QUERY), role=st.sampled_from(["arbiter", "alice", "spectator"]))
def test_no_query_or_path_of_any_shape_gets_a_500(http, path, q, match, role):
    from urllib.parse import quote

    c, mid, tokens = http
    token = tokens["seats"][role] if role == "alice" else tokens[role]
    target = quote(match, safe="%") if match else mid
    url = f"/matches/{target}" + path.format(q=quote(q, safe="%"))
    answer = c.get(url, headers={"Authorization": f"Bearer {token}", "Last-Event-ID": "1"})
    assert answer.status_code < 500, (url, answer.text)
    if answer.status_code >= 400:
        assert set(answer.json()) - {"said"} == {"code", "message", "detail"}


def test_a_body_past_the_servers_limit_is_413_in_the_error_shape(http):
    c, _mid, _tokens = http
    answer = c.post("/matches", content=b'{"game": "' + b"x" * 2_100_000 + b'"}', headers={"Content-Type": "application/json"})
    _shape(answer, 413, "request/too_large")
    assert "2,000,000 bytes" in answer.json()["message"]
