// The arbiter's console (referee/tournament/arbiter.py writes it into the shell with tid, token, $ and
// follow defined). Each snapshot of /tournaments/{id}/events (the organiser's) sets the round clock and
// has the desk (/tournaments/{id}/arbiter) read again: each table's open disputes and held moves with
// their context. Each action calls the match's own route with the organiser's token (the server acts on
// it as the table's arbiter) and shows a refusal as the server's message. Every name is put as text.
const base = "/tournaments/" + encodeURIComponent(tid);
const auth = {"Authorization": "Bearer " + token};
let clock = null, reading = false, again = false, shown = null;
// the desk drawn again when the words of its refusals arrive in the page's language (pagewords.js)
function redraw() { if (shown) draw(shown); }
function el(tag, parent, text, cls) { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; if (parent) parent.appendChild(e); return e; }
// the words of codes the desk names (verdicts, notes' kinds)
const VERDICTS = {accepted: gettext("accepted"), rejected: gettext("rejected"), held: gettext("held"), none: gettext("none")};
const KINDS = {disputed: gettext("disputed"), comment: gettext("comment"), ruling: gettext("ruling"), mistake: gettext("mistake")};
function mmss(s) { const a = Math.abs(s); return Math.floor(a / 60) + ":" + String(a % 60).padStart(2, "0"); }
// the round clock counts down here, from the server's recorded times (ends_at while it runs)
function tick() {
  const c = $("clock");
  if (!clock) { c.textContent = gettext("not started"); c.classList.remove("over"); return; }
  const left = clock.running ? Math.round((Date.parse(clock.ends_at) - Date.now()) / 1000) : clock.remaining;
  c.textContent = (left < 0 ? gettext("{mmss} past time", {mmss: mmss(left)}) : gettext("{mmss} left", {mmss: mmss(left)})) + (clock.running ? "" : " " + gettext("(stopped)"));
  c.classList.toggle("over", left <= 0);
}
setInterval(tick, 1000);
async function call(method, path, body) {
  const res = await fetch(path, {method: method, headers: Object.assign({"Content-Type": "application/json"}, auth), body: body === undefined ? undefined : JSON.stringify(body)});
  let answer = null; try { answer = await res.json(); } catch (e) {}
  if (!res.ok) throw new Error((await errorSaid(answer)) || gettext("the server answered {status}", {status: res.status}));
  return answer;
}
async function read() {
  if (reading) { again = true; return; }
  reading = true;
  try { draw(await call("GET", base + "/arbiter")); $("msg").textContent = ""; }
  catch (e) { $("msg").textContent = gettext("Cannot read the desk: {why}", {why: e.message}); $("msg").className = "bad"; }
  finally { reading = false; if (again) { again = false; read(); } }
}
// an entry's words (its events) in the page's language, asked of the match's GET /matches/{id}/words with the
// organiser's token (the table's arbiter: the desk's own view); the desk's English ones until they come
const entrySaid = new Map();
function wordsOf(mid, e) { const w = entrySaid.get(mid + ":" + e.seq); return w === undefined ? e.words : w; }
async function sayEntries(d) {
  if (LANG === "en") return;
  let heard = false;
  for (const m of d.matters) {
    const seqs = [m.disputed, ...m.recent].filter(e => e && e.words && e.words.length && !entrySaid.has(m.match_id + ":" + e.seq)).map(e => e.seq);
    if (!seqs.length) continue;
    try {
      const res = await fetch("/matches/" + encodeURIComponent(m.match_id) + "/words?lang=" + encodeURIComponent(LANG) + "&from=" + Math.min(...seqs) + "&to=" + Math.max(...seqs), {headers: auth});
      if (!res.ok) continue;
      for (const x of (await res.json()).entries) entrySaid.set(m.match_id + ":" + x.seq, x.words);
      heard = true;
    } catch (e) { /* the desk's English words stay */ }
  }
  if (heard) redraw();
}
function sentence(e, mid) {
  let t = e.seq + ". " + (e.actor ? e.actor + ": " : "") + e.line + " — " + (VERDICTS[e.verdict] || e.verdict);
  const words = wordsOf(mid, e);
  if (words && words.length) t += " (" + words.join("; ") + ")";
  return t;
}
function draw(d) {
  shown = d;
  $("title").textContent = gettext("Arbiter · {name}", {name: d.name || tid});
  $("round").textContent = d.round || "–";
  clock = d.clock; tick();
  const box = $("matters"), open = {};
  // what the arbiter is typing stays typed when the list is drawn again
  for (const i of box.querySelectorAll("input[type=text]")) if (i.value) open[i.dataset.key] = i.value;
  box.replaceChildren();
  $("count").textContent = "(" + d.matters.length + ")";
  $("empty").hidden = d.matters.length > 0;
  for (const m of d.matters) box.appendChild(card(m, d, open));
  document.body.dataset.matters = String(d.matters.length);
  sayEntries(d);
  // tables whose game's actor that is no seat (Android's arbiter, Copycat's table) has moves: a link to its page
  const moves = d.actor_moves || [], list = $("actor-moves");
  list.replaceChildren();
  $("actors").hidden = !moves.length;
  for (const w of moves) {
    const li = el("li", list); li.dataset.table = w.table;
    const players = w.names.join(gettext(" v "));
    const a = el("a", li, ngettext("table {table}: {players}: {n} move for the {actor}", "table {table}: {players}: {n} moves for the {actor}", w.moves, {table: w.table, players: players, actor: w.actor}));
    a.href = w.page + LANGQ + "#token=" + encodeURIComponent(token); a.target = "_blank"; a.rel = "noopener";
  }
}
function card(m, d, open) {
  const mid = m.match_id, key = mid + ":" + m.kind + ":" + m.entry;
  const c = el("article", null, null, "matter"); c.dataset.table = m.table; c.dataset.kind = m.kind; c.dataset.entry = m.entry;
  const h = el("h3", c); el("span", h, m.kind === "dispute" ? gettext("dispute") : gettext("held move"), "kind " + m.kind);
  const players = m.names.join(gettext(" v "));
  el("span", h, gettext("table {table}: {players}", {table: m.table, players: players}));
  if (m.past_time) el("span", h, " · " + gettext("past time"), "past");
  const e = m.disputed;
  if (e) {
    const box = el("div", c, null, "entry");
    el("code", box, sentence(e, mid));
    const r = e.rejection ? refusalWords(d.game, e.rejection, redraw) : null;
    if (r) el("div", box, gettext("refused: {why}", {why: r.message}) + (r.rule ? " [" + r.rule + "]" : "") + " (" + e.rejection.code + ")", "rule");
  } else el("div", c, gettext("on the match as a whole (entry 0)"), "entry");
  for (const n of m.notes) el("div", c, (KINDS[n.kind] || n.kind) + " (" + n.by + "): " + n.text, "said-by");
  el("div", c, (m.kind === "held" ? gettext("waiting for {seat} to confirm it", {seat: m.confirmer}) : gettext("waiting for the arbiter's ruling"))
    + (m.after ? "; " + ngettext("{n} entry played after it", "{n} entries played after it", m.after) : ""), "wait");
  if (m.recent.length) { const ol = el("ol", c, null, "recent"); ol.start = m.recent[0].seq; for (const r of m.recent) el("li", ol, sentence(r, mid).replace(/^\d+\. /, "")); }
  const said = el("p", c, "", "said"); said.setAttribute("role", "status");
  const reason = input(c, key + ":text", gettext("the ruling, or a note"), open);
  const base = "/matches/" + encodeURIComponent(mid);
  const act = async (what, steps) => {
    said.className = "said"; said.textContent = gettext("{what}…", {what: what});
    try { for (const s of steps) await s(); said.textContent = gettext("{what}: done.", {what: what}); read(); }
    catch (err) { said.className = "said bad"; said.textContent = gettext("Refused: {why}", {why: err.message}); }
  };
  const row = el("form", c); row.addEventListener("submit", (ev) => ev.preventDefault());
  if (m.kind === "dispute") {
    const outcome = el("select", row); outcome.setAttribute("aria-label", gettext("the ruling's outcome"));
    if (m.can_stand) el("option", outcome, gettext("the move stands as played")).value = "stands";
    el("option", outcome, gettext("the verdict stands")).value = "upheld";
    const rule = el("button", row, gettext("Rule")); rule.type = "button"; rule.className = "rule-btn";
    rule.addEventListener("click", () => {
      const text = reason.value.trim(), stands = outcome.value === "stands";
      const note = (stands ? "ruled: entry " + m.entry + " stands as played" : "ruled: the verdict of entry " + m.entry + " stands") + (text ? " — " + text : "");
      const steps = [];
      if (stands) steps.push(() => call("POST", base + "/rulings", {entry: m.entry, reason: text}));
      steps.push(() => call("POST", base + "/annotations", {seq: m.entry, kind: "ruling", text: note}));
      act(gettext("Ruling on entry {n}", {n: m.entry}), steps);
    });
  } else {
    for (const [label, accept] of [[gettext("Confirm for {seat}", {seat: m.confirmer}), true], [gettext("Decline"), false]]) {
      const b = el("button", row, label, accept ? "" : "second"); b.type = "button";
      b.addEventListener("click", () => act(label, [() => call("POST", base + "/confirmations", {entry: m.entry, accept: accept, reason: reason.value.trim()})]));
    }
  }
  const note = el("button", row, gettext("Annotate"), "second"); note.type = "button";
  note.addEventListener("click", () => {
    const text = reason.value.trim();
    if (!text) { said.className = "said bad"; said.textContent = gettext("Type the note first."); return; }
    act(gettext("Note on entry {n}", {n: m.entry}), [() => call("POST", base + "/annotations", {seq: m.entry, kind: "comment", text: text})]);
  });
  // the arbiter may undo under any undo policy (the tournament's, d.undo, binds the seats); a second press does it
  const undo = el("button", row, gettext("Undo to before entry {n}", {n: m.entry}), "second"); undo.type = "button";
  undo.title = gettext("the seats' undo policy: {policy}; the arbiter may undo under any", {policy: d.undo});
  if (m.entry < 1) undo.disabled = true;
  undo.addEventListener("click", () => {
    if (!undo.dataset.armed) { undo.dataset.armed = "1"; said.className = "said"; said.textContent = gettext("Press again to undo entries {first}–{last}.", {first: m.entry, last: m.head}); return; }
    delete undo.dataset.armed;
    act(gettext("Undo to entry {n}", {n: m.entry - 1}), [() => call("POST", base + "/undo", {to: m.entry - 1, reason: reason.value.trim()})]);
  });
  return c;
}
function input(parent, key, hint, open) {
  const i = el("input", parent); i.type = "text"; i.placeholder = hint; i.dataset.key = key; i.setAttribute("aria-label", hint);
  i.maxLength = 2000; if (open[key]) i.value = open[key];
  return i;
}
// the organiser starts (again: over), stops and resumes the round clock; the stream brings it to every page
for (const [id, action] of [["clock-start", "start"], ["clock-stop", "stop"], ["clock-resume", "resume"]]) {
  $(id).addEventListener("click", async () => {
    const body = {action: action};
    if (action === "start") body.minutes = Number($("minutes").value);
    const m = $("clock-msg"); m.className = ""; m.textContent = {start: gettext("starting…"), stop: gettext("stopping…"), resume: gettext("resuming…")}[action];
    try { clock = await call("POST", base + "/clock", body); tick(); m.textContent = {start: gettext("Clock started."), stop: gettext("Clock stopped."), resume: gettext("Clock resumed.")}[action]; }
    catch (e) { m.className = "bad"; m.textContent = gettext("Refused: {why}", {why: e.message}); }
  });
}
$("hall").href = "/hall/" + encodeURIComponent(tid) + LANGQ + "#token=" + encodeURIComponent(token);
if (!token) { $("status").textContent = gettext("open this page as /hall/{tid}/arbiter#token=<the organiser's token>", {tid: tid}); } else {
  follow(base + "/events", auth, (snap) => {
    if (snap.role !== "organiser") { $("status").textContent = gettext("the arbiter's console needs the organiser's token (this one is a {role}'s)", {role: snap.role}); return; }
    document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
    $("status").textContent = gettext("live, last update {time}", {time: new Date().toLocaleTimeString(LANG)});
    clock = snap.clock; tick(); read();
  });
}
