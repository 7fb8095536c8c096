"""The stream reader of the hall page and a table's live view (hall.FOLLOW), run by Node with a scripted
fetch and clock (issue 23, point 8): a server that cannot answer now (503 with Retry-After, a 500, a lost
connection, a stream that ended) is tried again, backing off from 1 s (at least Retry-After) doubling to
30 s and back to 1 s once an event came through; only a refusal for good (401, 403, 404) ends it.
Skips where Node is not installed."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from referee.tournament.hall import FOLLOW

NODE = shutil.which("node") or shutil.which("nodejs")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")]

HARNESS = """
const statuses = [], delays = [], got = [];
const $ = () => ({ set textContent(v) { statuses.push(v); } });
let pending = null;
globalThis.setTimeout = (f, ms) => { delays.push(ms); pending = f; };
const json = (status, message, headers) => new Response(JSON.stringify({code: "x", message}), {status, headers});
const answers = __ANSWERS__.map((a) => a === "network" ? a
  : a.status === 200 ? new Response(a.body, {status: 200, headers: {"Content-Type": "text/event-stream"}})
  : json(a.status, a.message, a.headers || {}));
globalThis.fetch = async () => { const a = answers.shift(); if (a === "network") throw new TypeError("fetch failed"); return a; };
__FOLLOW__
(async () => {
  await follow("/tournaments/c/events", {Authorization: "Bearer t"}, (d) => got.push(d));
  for (let i = 0; pending && i < 50; i++) { const f = pending; pending = null; await f(); }
  console.log(JSON.stringify({got, delays, statuses, left: answers.length}));
})();
"""


def run(answers: list[object]) -> dict[str, object]:
    script = HARNESS.replace("__ANSWERS__", json.dumps(answers)).replace("__FOLLOW__", FOLLOW)
    done = subprocess.run([str(NODE), "-e", script], capture_output=True, text=True, timeout=30, check=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_the_reader_retries_an_unavailable_server_with_backoff_and_stops_only_on_a_refusal():
    unavailable = {"status": 503, "message": "the store is unavailable right now", "headers": {"Retry-After": "2"}}
    out = run([unavailable, {"status": 500, "message": "a bug"}, "network",
               {"status": 200, "body": 'data: {"n": 1}\n\n: keep-alive\n\ndata: {"n": 2}\n\n'},
               unavailable, {"status": 401, "message": "no such token"}])
    assert out["got"] == [{"n": 1}, {"n": 2}]
    assert out["delays"] == [2000, 4000, 8000, 1000, 2000]  # Retry-After, doubling, back to 1 s after events
    assert out["statuses"][-1] == "cannot follow: no such token" and out["left"] == 0


def test_the_backoff_stops_growing_at_30_s():
    out = run([{"status": 502, "message": "bad gateway"}] * 8 + [{"status": 404, "message": "no such tournament"}])
    assert out["delays"] == [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
    assert out["statuses"][-1] == "cannot follow: no such tournament"
