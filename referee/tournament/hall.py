"""The hall page of a tournament (``GET /hall/{id}``): pairings by table and live standings, for a
screen in the playing hall.

Each table's match id links to :data:`TABLE`, the match's live step-through view: the HTML viewer of
:mod:`referee.viewer` (the one ``referee export --format html`` writes), fetched with the same token
(``/tournaments/{id}/matches/{match}/viewer``: the organiser sees the match as its arbiter, a player at
that table as their seat, anyone else as a spectator) and fetched again whenever
``/tournaments/{id}/matches/{match}/events`` says the match has a new entry or annotation; a reader
stepping back through it stays at the entry they are reading.

The page is a fixed shell that holds no data: it reads a tournament token from its URL's fragment
(``#token=...``, which a browser never sends to the server), asks ``/tournaments/{id}/events`` for
the pairings and standings with that token, and redraws them each time the server sends a new
snapshot (server-sent events, read with ``fetch`` so the token goes in the Authorization header).
Every name is put on the page as text, never as markup. Under the tables stands the head of the
tournament's record as the standings were read (``tournament audit --expect-head`` checks it).
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from .style import stylesheet

if TYPE_CHECKING:
    from .access import Entrant, TournamentAccess


def snapshot(access: TournamentAccess, who: Entrant) -> dict[str, Any]:
    """What the hall page shows, as ``who`` may read it: the tournament's name, its pairings and the
    standings after the last *completed* round: while a table of round N has no result, the standings
    after round N-1 (after round 0: nobody has played yet), ``playing`` naming round N (else null)."""
    from schemas.tournament import StandingsAnswer

    standings = access.standings(who, None, None, None)
    playing = None
    n = standings.after_round
    if n and isinstance(standings, StandingsAnswer) and any(p.round == n for p in standings.pending):
        playing = n
        standings = access.standings(who, n - 1, None, None)
    return {"name": access.show(who).name, "pairings": access.pairings(who, None), "standings": standings,
            "playing": playing, "you": {"role": who.role, "player": who.player}}

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tournament __TID__</title>
<style>__STYLE__</style></head>
<body data-updates="0">
<header><h1 id="title">Tournament __TID__</h1><div id="status">connecting…</div></header>
<div class="pages two">
<section><h2>Standings <span id="after"></span></h2>
<div class="scroll"><table class="facts" id="standings"><thead><tr id="standings-head"></tr></thead><tbody id="standings-body"></tbody></table></div></section>
<section><h2>Pairings <span id="round"></span></h2>
<div class="scroll"><table class="facts" id="pairings"><thead><tr><th class="n">table</th><th>players</th><th>result</th><th>match</th></tr></thead>
<tbody id="pairings-body"></tbody></table></div></section>
<p class="head" id="head-line">record head <code id="head"></code></p>
</div>
<script>
"use strict";
const tid = __TID_JSON__;
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
function cell(row, text, cls) { const td = document.createElement("td"); td.textContent = String(text); if (cls) td.className = cls; row.appendChild(td); return td; }
// a table's match opens as the live step-through view, read with this page's token (in the fragment again)
function watch(td, mid, mine) {
  if (!mid) return;
  const a = document.createElement("a"); a.textContent = mid; a.className = "watch mid"; a.title = "watch this table's match live";
  a.href = "/hall/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid) + "#token=" + encodeURIComponent(token);
  td.appendChild(a);
  if (!mine) return;  // a player's own table: their seat's page, where they play (issue 26)
  const p = document.createElement("a"); p.textContent = "play"; p.className = "play"; p.title = "your seat's page";
  p.href = "/play/" + encodeURIComponent(mid) + "#token=" + encodeURIComponent(token);
  td.append(" ", p);
}
function render(snap) {
  const st = snap.standings, pr = snap.pairings;
  $("title").textContent = snap.name || ("Tournament " + tid);
  // standings after round N only once every table of round N has its result (snap.playing: the round still being played)
  $("after").textContent = st.after_round ? "after round " + st.after_round : "(no round completed yet)";
  $("head").textContent = st.head || "";
  const head = $("standings-head"); head.replaceChildren();
  for (const h of ["rank", "player", "played", ...st.tiebreaks]) { const th = document.createElement("th"); th.textContent = h; if (h !== "player") th.className = "n"; head.appendChild(th); }
  const body = $("standings-body"); body.replaceChildren();
  for (const r of st.rows) {
    const tr = document.createElement("tr"); if (r.dropped) tr.className = "dropped";
    cell(tr, r.rank, "n"); cell(tr, r.name + (r.dropped ? " (dropped)" : ""), "who"); cell(tr, r.played, "n");
    for (const t of st.tiebreaks) cell(tr, r.values[t], "n");
    tr.dataset.player = r.player; body.appendChild(tr);
  }
  const rounds = pr.rounds; const last = rounds[rounds.length - 1];
  $("round").textContent = last ? "round " + last.round + (last.closed ? "" : " (being played)") : "(none yet)";
  const pb = $("pairings-body"); pb.replaceChildren();
  if (last) {
    for (const t of last.tables) {
      const tr = document.createElement("tr"); cell(tr, t.table, "n"); cell(tr, t.seats.join(" v "));
      if (t.result) cell(tr, t.result); else { const s = document.createElement("span"); s.className = "state"; s.textContent = "playing"; cell(tr, "").appendChild(s); }
      const you = snap.you || {};
      watch(cell(tr, ""), t.match_id, you.role === "player" && t.seats.includes(you.player)); pb.appendChild(tr);
    }
    for (const b of last.byes) { const tr = document.createElement("tr"); cell(tr, "bye"); cell(tr, b); cell(tr, "bye"); cell(tr, ""); pb.appendChild(tr); }
    for (const b of last.half_byes || []) { const tr = document.createElement("tr"); cell(tr, "bye"); cell(tr, b); cell(tr, "half-point bye"); cell(tr, ""); pb.appendChild(tr); }
  }
  document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
  $("status").textContent = "live; last update " + new Date().toLocaleTimeString();
}
__FOLLOW__
if (!token) { $("status").textContent = "open this page as /hall/" + tid + "#token=<a token of the tournament>"; } else {
  follow("/tournaments/" + encodeURIComponent(tid) + "/events", {"Authorization": "Bearer " + token}, render);
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
    return PAGE.replace("__STYLE__", stylesheet()).replace("__FOLLOW__", FOLLOW).replace("__TID_JSON__", _js(tournament_id)).replace("__TID__", html.escape(tournament_id))


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
