// The hall page's drawing (referee/tournament/hall.py writes it into the shell with tid, token, $ and
// follow defined): each snapshot of /tournaments/{id}/events is drawn as its role reads it. The organiser
// gets the console (each table's state and why, the results read from the logs, the buttons that pair the
// next round and close this one); a spectator or a player the projection (large type, the standings after
// the last completed round, the live tables). Every name is put on the page as text, never as markup.
const base = "/tournaments/" + encodeURIComponent(tid);
const frag = "#token=" + encodeURIComponent(token);
let last = null;
function cell(row, text, cls) { const td = document.createElement("td"); td.textContent = String(text); if (cls) td.className = cls; row.appendChild(td); return td; }
function span(parent, text, cls) { const s = document.createElement("span"); s.textContent = String(text); if (cls) s.className = cls; parent.appendChild(s); return s; }
// a table's match opens as the live step-through view, read with this page's token (in the fragment again)
function watch(td, mid, mine) {
  if (!mid) return;
  const a = document.createElement("a"); a.textContent = mid.slice(0, 8); a.className = "watch mid"; a.title = "watch match " + mid + " live";
  a.href = "/hall/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid) + frag;
  td.appendChild(a);
  if (!mine) return;  // a player's own table: their seat's page, where they play (referee/seatpage)
  const p = document.createElement("a"); p.textContent = "play"; p.className = "play"; p.title = "your seat's page";
  p.href = "/play/" + encodeURIComponent(mid) + frag;
  td.append(" ", p);
}
const SOURCES = {log: "from its log", arbiter: "the arbiter's", correction: "a correction", forfeit: "by forfeit", transcript: "from its score sheet", reported: "reported by the seats"};
function standings(snap) {
  const st = snap.standings, projection = snap.role !== "organiser";
  // standings after round N only once every table of round N has its result (snap.playing: the round still being played)
  $("after").textContent = st.after_round ? "after round " + st.after_round : "(no round completed yet)";
  $("head").textContent = st.head || "";
  // a screen across the room shows the first three tie-breaks; the organiser's console every one
  const breaks = projection ? st.tiebreaks.slice(0, 3) : st.tiebreaks;
  const head = $("standings-head"); head.replaceChildren();
  for (const h of ["rank", "player", "played", ...breaks]) { const th = document.createElement("th"); th.textContent = h; if (h !== "player") th.className = "n"; head.appendChild(th); }
  const body = $("standings-body"); body.replaceChildren();
  for (const r of st.rows) {
    const tr = document.createElement("tr"); if (r.dropped) tr.className = "dropped";
    cell(tr, r.rank, "n");
    const who = cell(tr, "", "who");
    // each player's page, read with this token (a player's token reads its own page only)
    if (snap.role !== "player" || snap.player === r.player) {
      const a = document.createElement("a"); a.className = "player"; a.textContent = r.name;
      a.href = "/hall/" + encodeURIComponent(tid) + "/players/" + encodeURIComponent(r.player) + frag;
      who.appendChild(a);
    } else who.textContent = r.name;
    if (r.dropped) span(who, " (dropped)");
    cell(tr, r.played, "n");
    for (const t of breaks) cell(tr, r.values[t], "n");
    tr.dataset.player = r.player; body.appendChild(tr);
  }
}
function tables(snap) {
  const rounds = snap.pairings.rounds; const lastRound = rounds[rounds.length - 1];
  $("round").textContent = lastRound ? "round " + lastRound.round + (lastRound.closed ? "" : " (being played)") : "(none yet)";
  const pb = $("pairings-body"); pb.replaceChildren();
  for (const t of snap.tables) {
    const tr = document.createElement("tr"); tr.dataset.table = t.table; tr.dataset.state = t.state;
    cell(tr, t.table, "n"); cell(tr, t.names.join(" v "), "who");
    const st = cell(tr, ""); span(st, t.state, "state " + t.state);
    if (t.why) span(st, t.why, "because");
    if (t.past_time) span(st, "past time", "past");
    const res = cell(tr, t.result || "");
    if (t.result && t.source) span(res, SOURCES[t.source] || t.source, "src");
    // the seats' reports of a cardboard table: what each said (the organiser, the table's players) or only that they did
    if (!t.result && t.reports && t.reports.length) span(res, t.reports.map((r) => r.player + ": " + (r.typed || r.result)).join("; "), "reports");
    watch(cell(tr, ""), t.match_id, snap.role === "player" && t.seats.includes(snap.player)); pb.appendChild(tr);
  }
  if (lastRound) {
    for (const b of lastRound.byes) { const tr = document.createElement("tr"); cell(tr, "bye"); cell(tr, b, "who"); cell(tr, ""); cell(tr, "bye"); cell(tr, ""); pb.appendChild(tr); }
    for (const b of lastRound.half_byes || []) { const tr = document.createElement("tr"); cell(tr, "bye"); cell(tr, b, "who"); cell(tr, ""); cell(tr, "half-point bye"); cell(tr, ""); pb.appendChild(tr); }
  }
}
function console_(snap) {
  const c = snap.console, box = $("console");
  box.hidden = !c;
  if (!c) return;
  const counts = {};
  for (const t of snap.tables) counts[t.state] = (counts[t.state] || 0) + 1;
  const told = ["finished", "playing", "waiting", "disputed", "disagree", "withdrawn"].filter((k) => counts[k]).map((k) => counts[k] + " " + k);
  $("console-round").textContent = snap.round ? "round " + snap.round : "no round paired yet";
  $("progress").textContent = told.length ? "(" + told.join(", ") + ")" : "";
  const pair = $("pair"), close = $("close");
  pair.textContent = c.next_round ? "Pair round " + c.next_round : "All rounds paired";
  pair.disabled = !c.can_pair; close.disabled = !c.can_close;
  close.textContent = snap.round ? "Close round " + snap.round : "Close the round";
  if (!c.can_pair) disarm(pair);
  if (!c.can_close) disarm(close);
  let note;
  if (!snap.round) note = "Pair the first round when every player is registered.";
  else if (!c.complete) note = "Round " + snap.round + " is not complete: the next round can be paired once every table is finished (or withdrawn).";
  else if ((c.to_confirm || []).length) note = "";
  else if (c.to_record) note = c.to_record + " result" + (c.to_record > 1 ? "s" : "") + " read from the matches' logs: recorded when the round closes (closing it, or pairing the next round, takes them as they stand). No result waits for anyone else's confirmation.";
  else note = "Every result of round " + snap.round + " is recorded" + (c.open ? "." : " and the round is closed.");
  if ((c.to_confirm || []).length) note = c.to_confirm.length + " result" + (c.to_confirm.length > 1 ? "s" : "") + " to confirm: the seats' reports disagree (below). " + note;
  $("console-note").textContent = note;
  confirmations(c.to_confirm || []);
}
// the disagreements: each side of each table with a button that records it as the organiser's result (POST /results)
function confirmations(list) {
  const box = $("confirm"), ul = $("confirm-list");
  const seen = ul.dataset.shown || "", now = JSON.stringify(list);
  box.hidden = !list.length;
  if (seen === now) return;  // redrawn only when it changes: an armed button stays armed
  ul.dataset.shown = now; ul.replaceChildren();
  for (const d of list) {
    const li = document.createElement("li"); li.dataset.table = d.table;
    span(li, "Round " + d.round + " table " + d.table + " (" + d.names.join(" v ") + "): ");
    for (const side of d.sides) {
      const b = document.createElement("button"); b.type = "button"; b.className = "second settle";
      b.textContent = side.names.join(", ") + " reported " + side.result;
      b.addEventListener("click", () => act(b, "/results", {round: d.round, table: d.table, result: side.typed, scores: side.scores, reason: "settled from the hall's console: the seats' reports disagreed"},
        "record " + side.typed + " for table " + d.table, () => "Table " + d.table + ": " + side.typed + " recorded as the organiser's result."));
      li.appendChild(b);
    }
    ul.appendChild(li);
  }
}
function render(snap) {
  last = snap;
  document.body.dataset.role = snap.role;
  document.body.classList.toggle("projection", snap.role !== "organiser");
  $("title").textContent = snap.name || ("Tournament " + tid);
  standings(snap); tables(snap); console_(snap); roundClock(snap.clock);
  document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
  $("status").textContent = (snap.role === "organiser" ? "organiser's console" : snap.role === "player" ? "player " + snap.player : "spectators' screen")
    + "; live, last update " + new Date().toLocaleTimeString();
}
// a button acts on its second press (the first arms it and says what the next will do)
function disarm(button) { button.classList.remove("armed"); delete button.dataset.armed; }
function say(text, bad) { const m = $("console-msg"); m.textContent = text; m.className = bad ? "bad" : ""; }
async function act(button, path, body, what, done) {
  if (!button.dataset.armed) { button.dataset.armed = "1"; button.classList.add("armed"); say("Press again to " + what + "."); return; }
  disarm(button); button.disabled = true; say(what + "…");
  try {
    const res = await fetch(base + path, {method: "POST", headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"}, body: JSON.stringify(body)});
    let answer = null; try { answer = await res.json(); } catch (e) {}
    if (!res.ok) { say("Refused: " + ((answer && answer.message) || res.status), true); button.disabled = false; return; }
    say(done(answer));
  } catch (e) { say("Could not reach the server: " + e, true); button.disabled = false; }
}
$("pair").addEventListener("click", () => {
  const n = last && last.console ? last.console.next_round : null;
  act($("pair"), "/pair", {reason: "paired from the hall's console"}, "pair round " + n, (a) => {
    minted(a);
    return "Round " + a.round + " paired: " + a.tables.length + " table" + (a.tables.length === 1 ? "" : "s") + (a.byes.length ? ", bye: " + a.byes.join(", ") : "") + ".";
  });
});
$("close").addEventListener("click", () => {
  act($("close"), "/close", {reason: "closed from the hall's console"}, "close round " + (last ? last.round : ""), () => "Round closed: its results are recorded.");
});
// the new matches' tokens, answered once to the pairing: kept on this page only, folded away
function minted(a) {
  const box = $("minted"), list = $("minted-list"); list.replaceChildren();
  for (const t of a.tables) {
    for (const [who, tok] of Object.entries(t.tokens || {})) {
      const li = document.createElement("li"); li.textContent = "table " + t.table + ", " + who + ": ";
      const code = document.createElement("code"); code.textContent = tok; li.appendChild(code); list.appendChild(li);
    }
  }
  box.hidden = !list.children.length;
}
// the round clock (snap.clock: schemas.tournament.HallClock), counted down here from the server's times
let clockShown = null;
function roundClock(c) { clockShown = c || null; clockTick(); }
function clockTick() {
  const box = $("round-clock"), c = clockShown;
  box.hidden = !c;
  if (!c) return;
  const left = c.running ? Math.round((Date.parse(c.ends_at) - Date.now()) / 1000) : c.remaining;
  const a = Math.abs(left), mmss = Math.floor(a / 60) + ":" + String(a % 60).padStart(2, "0");
  box.textContent = "round " + c.round + ": " + (left < 0 ? mmss + " past time" : mmss + " left") + (c.running ? "" : " (stopped)");
  box.classList.toggle("over", left <= 0);
}
setInterval(clockTick, 1000);
$("arbiter-link").href = "/hall/" + encodeURIComponent(tid) + "/arbiter" + frag;
