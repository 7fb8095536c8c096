"""The hall page of a tournament (``GET /hall/{id}``): one fixed shell for every token, drawn by the
role the server names in each snapshot. The organiser's console: each table of the round with its
state (:mod:`.console`: playing, waiting on a confirmation, disputed, finished), the results read from
the matches' logs that closing the round records, and the buttons that pair the next round and close
this one (``POST /tournaments/{id}/pair`` and ``/close`` with the organiser's token; enabled once every
table is finished; a refusal is shown as the server's message). A spectator's (or a player's) screen:
the projection, in type that grows with the screen, the standings after the last completed round and
the live tables. Both fit a phone (the tables become cards).

Each table's match id links to :data:`TABLE`, the match's live step-through view: the HTML viewer of
:mod:`referee.viewer` (the one ``referee export --format html`` writes), fetched with the same token
(``/tournaments/{id}/matches/{match}/viewer``: the organiser sees the match as its arbiter, a player at
that table as their seat, anyone else as a spectator) and fetched again whenever
``/tournaments/{id}/matches/{match}/events`` says the match has a new entry or annotation; a reader
stepping back through it stays at the entry they are reading. Each standings row links the player's
page (``/hall/{id}/players/{player}``, :mod:`referee.playerpage`), the token again in the fragment.

The page holds no data: it reads a tournament token from its URL's fragment (``#token=...``, which a
browser never sends to the server), asks ``/tournaments/{id}/events`` for the snapshot with that token,
and redraws each time the server sends a new one (server-sent events, read with ``fetch`` so the token
goes in the Authorization header). Its script and its few rules are ``hall.js`` and ``hall.css``.
Every name is put on the page as text, never as markup. Under the tables stands the head of the
tournament's record as the standings were read (``tournament audit --expect-head`` checks it).
"""

from __future__ import annotations

import html
import json
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from .style import stylesheet

if TYPE_CHECKING:
    from .access import Entrant, TournamentAccess


def snapshot(access: TournamentAccess, who: Entrant) -> dict[str, Any]:
    """What the hall page shows, as ``who`` may read it: who it is (``role``, a player's id), the
    tournament's name, its pairings, the state of each table of the last round paired (:mod:`.console`:
    read from the summaries, nothing folded) and the standings after the last *completed* round: while a
    table of round N has no result, the standings after round N-1 (after round 0: nobody has played yet),
    ``playing`` naming round N (else null). A player reads their own tables only, as their pairings. The
    organiser's alone holds ``console`` (whether the round is complete, the next round, what the buttons
    may do), each table's ``why`` and the pairing's ``blocks``."""
    from dataclasses import replace

    from ..outcome import words
    from .api import pairings_answer, standings_answer
    from .console import complete, table_states
    from .standings import standings
    from schemas.tournament import BlockRow

    service = access.local.service
    state, head = service.anchored(who.tournament)
    organiser = who.role == "organiser"
    mine = who.player if who.role == "player" else None
    states = table_states(service, state, public=not organiser)
    live = {(s.round, s.table): s.outcome for s in states if s.outcome is not None and not s.recorded}
    table = standings(state, None, live)
    playing = None
    n = table.after_round
    if n and any(r == n for r, _ in table.pending):
        playing = n
        table = standings(state, n - 1, live)
    blocks = [BlockRow(round=s.round, table=s.table, match_id=s.match_id, why=s.why) for s in states if s.why]
    tables = []
    for s in states:
        if mine is not None and mine not in s.seats:
            continue
        row: dict[str, Any] = {
            "table": s.table, "seats": list(s.seats), "names": [state.name(p) for p in s.seats],
            "match_id": s.match_id, "state": s.state, "result": words(s.outcome) if s.outcome else None,
            "source": s.source, "recorded": s.recorded}
        if organiser:
            row["why"] = s.why
        tables.append(row)
    snap: dict[str, Any] = {
        "role": who.role, "name": state.config.name,
        "pairings": pairings_answer(state, live, blocks if organiser else [], player=mine),
        "standings": standings_answer(replace(table, head=head)), "playing": playing,
        "round": state.current, "tables": tables}
    if mine is not None:
        snap["player"] = mine
    if organiser:
        is_open = bool(state.rounds) and not state.rounds[-1].closed
        done = complete(states)
        more = not state.config.rounds or state.current < state.config.rounds
        snap["console"] = {
            "open": is_open, "complete": done, "next_round": state.current + 1 if more else None,
            "can_pair": done and more, "can_close": done and is_open,
            "to_record": sum(1 for s in states if s.outcome is not None and not s.recorded)}
    return snap


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tournament __TID__</title>
<style>__STYLE__</style></head>
<body data-updates="0" data-role="">
<header><h1 id="title">Tournament __TID__</h1><div id="status">connecting…</div></header>
<div class="pages two hall">
<section id="console" hidden><h2>Console: <span id="console-round"></span> <span id="progress"></span></h2>
<p class="hint" id="console-note"></p>
<div class="actions"><button type="button" id="pair" disabled>Pair the next round</button>
<button type="button" id="close" class="second" disabled>Close the round</button></div>
<p id="console-msg" role="status"></p>
<details id="minted" hidden><summary>the new matches' tokens (answered once, to this page)</summary><ul id="minted-list"></ul></details>
</section>
<section id="tables-box"><h2>Tables <span id="round"></span></h2>
<div class="scroll"><table class="facts tables" id="pairings"><thead><tr><th class="n">table</th><th>players</th><th>state</th><th>result</th><th>match</th></tr></thead>
<tbody id="pairings-body"></tbody></table></div></section>
<section id="standings-box"><h2>Standings <span id="after"></span></h2>
<div class="scroll"><table class="facts" id="standings"><thead><tr id="standings-head"></tr></thead><tbody id="standings-body"></tbody></table></div></section>
<p class="head" id="head-line">record head <code id="head"></code></p>
</div>
<script>
"use strict";
const tid = __TID_JSON__;
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
__FOLLOW__
__SCRIPT__
if (!token) { $("status").textContent = "open this page as /hall/" + tid + "#token=<a token of the tournament>"; } else {
  follow(base + "/events", {"Authorization": "Bearer " + token}, render);
}
</script></body></html>
"""

#: the script both pages follow a server-sent event stream with: fetch (it sends the token, which an
#: EventSource cannot), read the stream's blocks, hand each data line's JSON to ``onData``. A refusal for
#: good (401, 403, 404: a bad token or table) is said and ends it; anything else (the server busy or its
#: store unavailable: 429, 5xx; a lost connection; a stream that ended) is tried again, after 1 s doubling
#: to 30 s (at least the server's Retry-After), back to 1 s once an event has come through
FOLLOW = """async function follow(url, headers, onData, wait) {
  wait = wait || 1000;
  try {
    const res = await fetch(url, {headers: headers});
    if (!res.ok) {
      let m = res.status; try { m = (await res.json()).message; } catch (e) {}
      if (res.status !== 429 && res.status < 500) { $("status").textContent = "cannot follow: " + m; return; }
      wait = Math.max(wait, 1000 * (Number(res.headers.get("Retry-After")) || 0));
      $("status").textContent = "the server cannot answer now (" + m + "); retrying";
    } else {
      const reader = res.body.getReader(); const dec = new TextDecoder(); let buf = "";
      for (;;) {
        const {value, done} = await reader.read(); if (done) break;
        buf = (buf + dec.decode(value, {stream: true})).replace(/\\r\\n/g, "\\n");
        let i;
        while ((i = buf.indexOf("\\n\\n")) >= 0) {
          const block = buf.slice(0, i); buf = buf.slice(i + 2);
          const data = block.split("\\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\\n");
          if (data) { wait = 1000; onData(JSON.parse(data)); }
        }
      }
      $("status").textContent = "the stream ended; reconnecting";
    }
  } catch (e) { $("status").textContent = "connection lost; retrying"; }
  setTimeout(() => follow(url, headers, onData, Math.min(wait * 2, 30000)), wait);
}"""


def _js(value: str) -> str:
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(tournament_id: str) -> str:
    """The hall page of ``tournament_id`` (an id typed in a URL: escaped wherever it appears)."""
    return (PAGE.replace("__STYLE__", stylesheet() + _asset("hall.css")).replace("__FOLLOW__", FOLLOW)
            .replace("__SCRIPT__", _asset("hall.js")).replace("__TID_JSON__", _js(tournament_id))
            .replace("__TID__", html.escape(tournament_id)))


@cache
def _asset(name: str) -> str:
    """A file of this package (the hall's script and its few rules on top of the tournament's sheet)."""
    return files("referee.tournament").joinpath(name).read_text(encoding="utf-8")


TABLE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Match __MID__</title>
<style>
html,body{height:100%;margin:0}body{display:flex;flex-direction:column;font-family:system-ui,sans-serif;background:#fafafa}
#bar{padding:.4em 1em;color:#555;font-size:.9em;border-bottom:1px solid #ddd}#bar a{margin-right:1em}
iframe{flex:1;border:0;width:100%}iframe[hidden]{display:none}
</style></head>
<body data-loads="0" data-head="-1">
<div id="bar"><a id="back" href="#">← the hall</a><span id="status">connecting…</span></div>
<iframe id="view" title="the match, step by step"></iframe>
<script>
"use strict";
const tid = __TID_JSON__, mid = __MID_JSON__;
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const base = "/tournaments/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid);
const auth = {headers: {"Authorization": "Bearer " + token}};
const $ = (id) => document.getElementById(id);
$("back").href = "/hall/" + encodeURIComponent(tid) + "#token=" + encodeURIComponent(token);
let frame = $("view"), url = null, busy = false, again = false;
// the viewer is fetched whole (with the token in a header) and shown from a blob: of this page's origin;
// a reader who stepped back from the last entry stays where they are, one at the last follows the play
async function load(head) {
  if (busy) { again = true; return; }
  busy = true;
  try {
    const res = await fetch(base + "/viewer", auth);
    if (res.status === 429 || res.status >= 500) { setTimeout(() => load(head), 1500); return; }  // busy or its store away: soon
    if (!res.ok) { let m = res.status; try { m = (await res.json()).message; } catch (e) {} $("status").textContent = "cannot show the match: " + m; return; }
    const text = await res.text();
    const old = frame.contentDocument && frame.contentDocument.getElementById("slider");
    const keep = old && Number(old.value) < Number(old.max) ? old.value : null;
    const next = document.createElement("iframe"); next.title = frame.title; next.hidden = true;
    const made = URL.createObjectURL(new Blob([text], {type: "text/html"}));
    await new Promise((done) => { next.addEventListener("load", done, {once: true}); next.src = made; frame.after(next); });
    if (keep !== null) { const sl = next.contentDocument.getElementById("slider"); sl.value = keep; sl.dispatchEvent(new Event("input")); }
    frame.remove(); next.hidden = false; next.id = "view"; frame = next;
    if (url) URL.revokeObjectURL(url);
    url = made;
    document.body.dataset.loads = String(Number(document.body.dataset.loads) + 1);
    document.body.dataset.head = String(head);
    $("status").textContent = "live: entry " + head + "; last update " + new Date().toLocaleTimeString();
  } catch (e) { $("status").textContent = "connection lost; retrying"; }
  finally { busy = false; if (again) { again = false; load(document.body.dataset.next); } }
}
__FOLLOW__
if (!token) { $("status").textContent = "open this page as /hall/" + tid + "/matches/" + mid + "#token=<a token of the tournament>"; } else {
  follow(base + "/events", auth.headers, (snap) => { document.body.dataset.next = String(snap.head); load(snap.head); });
}
</script></body></html>
"""


def table_page(tournament_id: str, match_id: str) -> str:
    """The live step-through view of one table's match (both ids typed in a URL: escaped)."""
    return (TABLE.replace("__FOLLOW__", FOLLOW).replace("__TID_JSON__", _js(tournament_id)).replace("__MID_JSON__", _js(match_id))
            .replace("__MID__", html.escape(match_id)))
