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
  const a = document.createElement("a"); a.textContent = mid.slice(0, 8); a.className = "watch mid"; a.title = gettext("watch match {match} live", {match: mid});
  a.href = "/hall/" + encodeURIComponent(tid) + "/matches/" + encodeURIComponent(mid) + LANGQ + frag;
  td.appendChild(a);
  if (!mine) return;  // a player's own table: their seat's page, where they play (referee/seatpage)
  const p = document.createElement("a"); p.textContent = gettext("play"); p.className = "play"; p.title = gettext("your seat's page");
  p.href = "/play/" + encodeURIComponent(mid) + LANGQ + frag;
  td.append(" ", p);
}
const SOURCES = {log: gettext("from its log"), arbiter: gettext("the arbiter's"), correction: gettext("a correction"), forfeit: gettext("by forfeit"), transcript: gettext("from its score sheet"), reported: gettext("reported by the seats")};
// the words of the tables' states and the standings' columns (the snapshot names them by code)
// why a table holds up the round (the organiser's console; the snapshot names it by code, t.why_code, with its values)
const WHY = {disagree: (v) => gettext("results disagree: {sides}", {sides: v.sides.map((s) => gettext("{players} reported {result}", {players: s.players.join(", "), result: s.result})).join("; ")}),
  no_match: () => gettext("no match: the arbiter records its result (`tournament result`)"),
  dispute: (v) => gettext("an open dispute on entry {entry} (a ruling annotation on it settles it)", v),
  held: (v) => gettext("entry {entry} waits for {seat} to confirm it", v),
  reported: (v) => gettext("{players} reported {result}; waiting for {waiting}", {players: v.players.join(", "), result: v.result, waiting: v.waiting.join(", ")}),
  not_finished: () => gettext("the match is not finished")};
// (in English the snapshot's own words)
function why(t) { return LANG !== "en" && t.why_code && WHY[t.why_code] ? WHY[t.why_code](t.why_values || {}) : t.why; }
// the snapshot drawn again when the words of its results arrive (pagewords.js), the updates not counted
function redraw() { if (last) { standings(last); tables(last); console_(last); } }
// what a spectator reads of a seat's report (the snapshot names it by code)
const REPORTED = {reported: gettext("reported"), agreed: gettext("agreed")};
const STATES = {playing: gettext("playing"), waiting: gettext("waiting"), disputed: gettext("disputed"), finished: gettext("finished"), withdrawn: gettext("withdrawn"), disagree: gettext("disagree")};
const COLUMNS = {rank: gettext("rank"), player: gettext("player"), played: gettext("played"), points: gettext("points"), "game-points": gettext("game-points"), buchholz: gettext("buchholz"), "buchholz-cut1": gettext("buchholz-cut1"), "median-buchholz": gettext("median-buchholz"), "sonneborn-berger": gettext("sonneborn-berger"), omw: gettext("omw"), gw: gettext("gw"), ogw: gettext("ogw"), "head-to-head": gettext("head-to-head"), progressive: gettext("progressive"), score: gettext("score")};
function standings(snap) {
  const st = snap.standings, projection = snap.role !== "organiser";
  // standings after round N only once every table of round N has its result (snap.playing: the round still being played)
  $("after").textContent = st.after_round ? gettext("after round {n}", {n: st.after_round}) : gettext("(no round completed yet)");
  $("head").textContent = st.head || "";
  // a screen across the room shows the first three tie-breaks; the organiser's console every one
  const breaks = projection ? st.tiebreaks.slice(0, 3) : st.tiebreaks;
  const head = $("standings-head"); head.replaceChildren();
  for (const h of ["rank", "player", "played", ...breaks]) { const th = document.createElement("th"); th.textContent = COLUMNS[h] || h; th.dataset.column = h; if (h !== "player") th.className = "n"; head.appendChild(th); }
  const body = $("standings-body"); body.replaceChildren();
  for (const r of st.rows) {
    const tr = document.createElement("tr"); if (r.dropped) tr.className = "dropped";
    cell(tr, r.rank, "n");
    const who = cell(tr, "", "who");
    // each player's page, read with this token (a player's token reads its own page only)
    if (snap.role !== "player" || snap.player === r.player) {
      const a = document.createElement("a"); a.className = "player"; a.textContent = r.name;
      a.href = "/hall/" + encodeURIComponent(tid) + "/players/" + encodeURIComponent(r.player) + LANGQ + frag;
      who.appendChild(a);
    } else who.textContent = r.name;
    if (r.dropped) span(who, " " + gettext("(dropped)"));
    cell(tr, r.played, "n");
    for (const t of breaks) cell(tr, r.values[t], "n");
    tr.dataset.player = r.player; body.appendChild(tr);
  }
}
function tables(snap) {
  const rounds = snap.pairings.rounds; const lastRound = rounds[rounds.length - 1];
  $("round").textContent = lastRound ? (lastRound.closed ? gettext("round {n}", {n: lastRound.round}) : gettext("round {n} (being played)", {n: lastRound.round})) : gettext("(none yet)");
  const pb = $("pairings-body"); pb.replaceChildren();
  for (const t of snap.tables) {
    const tr = document.createElement("tr"); tr.dataset.table = t.table; tr.dataset.state = t.state;
    cell(tr, t.table, "n"); cell(tr, t.names.join(gettext(" v ")), "who");
    const st = cell(tr, ""); span(st, STATES[t.state] || t.state, "state " + t.state);
    if (t.why) span(st, why(t), "because");
    if (t.past_time) span(st, gettext("past time"), "past");
    const res = cell(tr, t.result ? outcomeWords(t.outcome, t.result, redraw) : "");
    if (t.result && t.source) span(res, SOURCES[t.source] || t.source, "src");
    // the seats' reports of a cardboard table: what each said (the organiser, the table's players) or only that they did
    if (!t.result && t.reports && t.reports.length) span(res, t.reports.map((r) => r.player + ": " + (r.typed || REPORTED[r.result] || r.result)).join("; "), "reports");
    watch(cell(tr, ""), t.match_id, snap.role === "player" && t.seats.includes(snap.player)); pb.appendChild(tr);
  }
  if (lastRound) {
    for (const b of lastRound.byes) { const tr = document.createElement("tr"); cell(tr, gettext("bye")); cell(tr, b, "who"); cell(tr, ""); cell(tr, gettext("bye")); cell(tr, ""); pb.appendChild(tr); }
    for (const b of lastRound.half_byes || []) { const tr = document.createElement("tr"); cell(tr, gettext("bye")); cell(tr, b, "who"); cell(tr, ""); cell(tr, gettext("half-point bye")); cell(tr, ""); pb.appendChild(tr); }
  }
}
function console_(snap) {
  const c = snap.console, box = $("console");
  box.hidden = !c;
  if (!c) return;
  const counts = {};
  for (const t of snap.tables) counts[t.state] = (counts[t.state] || 0) + 1;
  const told = ["finished", "playing", "waiting", "disputed", "disagree", "withdrawn"].filter((k) => counts[k]).map((k) => gettext("{n} {state}", {n: counts[k], state: STATES[k]}));
  $("console-round").textContent = snap.round ? gettext("round {n}", {n: snap.round}) : gettext("no round paired yet");
  $("progress").textContent = told.length ? "(" + told.join(", ") + ")" : "";
  const pair = $("pair"), close = $("close");
  pair.textContent = c.next_round ? gettext("Pair round {n}", {n: c.next_round}) : gettext("All rounds paired");
  pair.disabled = !c.can_pair; close.disabled = !c.can_close;
  close.textContent = snap.round ? gettext("Close round {n}", {n: snap.round}) : gettext("Close the round");
  if (!c.can_pair) disarm(pair);
  if (!c.can_close) disarm(close);
  let note;
  if (!snap.round) note = gettext("Pair the first round when every player is registered.");
  else if (!c.complete) note = gettext("Round {n} is not complete: the next round can be paired once every table is finished (or withdrawn).", {n: snap.round});
  else if ((c.to_confirm || []).length) note = "";
  else if (c.to_record) note = ngettext("{n} result read from the matches' logs: recorded when the round closes (closing it, or pairing the next round, takes them as they stand). No result waits for anyone else's confirmation.", "{n} results read from the matches' logs: recorded when the round closes (closing it, or pairing the next round, takes them as they stand). No result waits for anyone else's confirmation.", c.to_record);
  else note = c.open ? gettext("Every result of round {n} is recorded.", {n: snap.round}) : gettext("Every result of round {n} is recorded and the round is closed.", {n: snap.round});
  if ((c.to_confirm || []).length) note = ngettext("{n} result to confirm: the seats' reports disagree (below).", "{n} results to confirm: the seats' reports disagree (below).", c.to_confirm.length) + " " + note;
  $("console-note").textContent = note;
  confirmations(c.to_confirm || []);
}
// the disagreements: each side of each table with a button that records it as the organiser's result (POST /results)
function confirmations(list) {
  const box = $("confirm"), ul = $("confirm-list");
  const said = list.map((d) => d.sides.map((side) => outcomeWords(side.outcome, side.result, redraw)));
  const seen = ul.dataset.shown || "", now = JSON.stringify([list, said]);
  box.hidden = !list.length;
  if (seen === now) return;  // redrawn only when it changes: an armed button stays armed
  ul.dataset.shown = now; ul.replaceChildren();
  list.forEach((d, k) => {
    const li = document.createElement("li"); li.dataset.table = d.table;
    span(li, gettext("Round {round} table {table} ({players}): ", {round: d.round, table: d.table, players: d.names.join(gettext(" v "))}));
    d.sides.forEach((side, j) => {
      const b = document.createElement("button"); b.type = "button"; b.className = "second settle";
      b.textContent = gettext("{players} reported {result}", {players: side.names.join(", "), result: said[k][j]});
      b.addEventListener("click", () => act(b, "/results", {round: d.round, table: d.table, result: side.typed, scores: side.scores, reason: "settled from the hall's console: the seats' reports disagreed"},
        gettext("record {result} for table {table}", {result: side.typed, table: d.table}), () => gettext("Table {table}: {result} recorded as the organiser's result.", {table: d.table, result: side.typed})));
      li.appendChild(b);
    });
    ul.appendChild(li);
  });
}
function render(snap) {
  last = snap;
  document.body.dataset.role = snap.role;
  document.body.classList.toggle("projection", snap.role !== "organiser");
  $("title").textContent = snap.name || gettext("Tournament {tid}", {tid: tid});
  standings(snap); tables(snap); console_(snap); roundClock(snap.clock);
  document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
  const who = snap.role === "organiser" ? gettext("organiser's console") : snap.role === "player" ? gettext("player {player}", {player: snap.player}) : gettext("spectators' screen");
  $("status").textContent = gettext("{who}; live, last update {time}", {who: who, time: new Date().toLocaleTimeString(LANG)});
}
// a button acts on its second press (the first arms it and says what the next will do)
function disarm(button) { button.classList.remove("armed"); delete button.dataset.armed; }
function say(text, bad) { const m = $("console-msg"); m.textContent = text; m.className = bad ? "bad" : ""; }
async function act(button, path, body, what, done) {
  if (!button.dataset.armed) { button.dataset.armed = "1"; button.classList.add("armed"); say(gettext("Press again to {what}.", {what: what})); return; }
  disarm(button); button.disabled = true; say(gettext("{what}…", {what: what}));
  try {
    const res = await fetch(base + path, {method: "POST", headers: {"Authorization": "Bearer " + token, "Content-Type": "application/json"}, body: JSON.stringify(body)});
    let answer = null; try { answer = await res.json(); } catch (e) {}
    if (!res.ok) { say(gettext("Refused: {why}", {why: (await errorSaid(answer)) || res.status}), true); button.disabled = false; return; }
    say(done(answer));
  } catch (e) { say(gettext("Could not reach the server: {why}", {why: e}), true); button.disabled = false; }
}
$("pair").addEventListener("click", () => {
  const n = last && last.console ? last.console.next_round : null;
  act($("pair"), "/pair", {reason: "paired from the hall's console"}, gettext("pair round {n}", {n: n}), (a) => {
    minted(a);
    return (a.byes.length ? ngettext("Round {round} paired: {n} table, bye: {byes}.", "Round {round} paired: {n} tables, bye: {byes}.", a.tables.length, {round: a.round, byes: a.byes.join(", ")})
      : ngettext("Round {round} paired: {n} table.", "Round {round} paired: {n} tables.", a.tables.length, {round: a.round}));
  });
});
$("close").addEventListener("click", () => {
  act($("close"), "/close", {reason: "closed from the hall's console"}, gettext("close round {n}", {n: last ? last.round : ""}), () => gettext("Round closed: its results are recorded."));
});
// the new matches' tokens, answered once to the pairing: kept on this page only, folded away
function minted(a) {
  const box = $("minted"), list = $("minted-list"); list.replaceChildren();
  for (const t of a.tables) {
    for (const [who, tok] of Object.entries(t.tokens || {})) {
      const li = document.createElement("li"); li.textContent = gettext("table {table}, {who}: ", {table: t.table, who: who});
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
  const time = (left < 0 ? gettext("{mmss} past time", {mmss: mmss}) : gettext("{mmss} left", {mmss: mmss})) + (c.running ? "" : " " + gettext("(stopped)"));
  box.textContent = gettext("round {n}: {time}", {n: c.round, time: time});
  box.classList.toggle("over", left <= 0);
}
setInterval(clockTick, 1000);
$("arbiter-link").href = "/hall/" + encodeURIComponent(tid) + "/arbiter" + LANGQ + frag;
if (!token) { $("status").textContent = gettext("open this page as /hall/{tid}#token=<a token of the tournament>", {tid: tid}); } else {
  follow(base + "/events", {"Authorization": "Bearer " + token}, render);
}
