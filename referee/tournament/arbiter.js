// The arbiter's console (referee/tournament/arbiter.py writes it into the shell with tid, token, $ and
// follow defined). Each snapshot of /tournaments/{id}/events (the organiser's) sets the round clock and
// has the desk (/tournaments/{id}/arbiter) read again: each table's open disputes and held moves with
// their context. Each action calls the match's own route with the organiser's token (the server acts on
// it as the table's arbiter) and shows a refusal as the server's message. Every name is put as text.
const base = "/tournaments/" + encodeURIComponent(tid);
const auth = {"Authorization": "Bearer " + token};
let clock = null, reading = false, again = false;
function el(tag, parent, text, cls) { const e = document.createElement(tag); if (text !== undefined && text !== null) e.textContent = String(text); if (cls) e.className = cls; if (parent) parent.appendChild(e); return e; }
function mmss(s) { const a = Math.abs(s); return Math.floor(a / 60) + ":" + String(a % 60).padStart(2, "0"); }
// the round clock counts down here, from the server's recorded times (ends_at while it runs)
function tick() {
  const c = $("clock");
  if (!clock) { c.textContent = "not started"; c.classList.remove("over"); return; }
  const left = clock.running ? Math.round((Date.parse(clock.ends_at) - Date.now()) / 1000) : clock.remaining;
  c.textContent = (left < 0 ? mmss(left) + " past time" : mmss(left) + " left") + (clock.running ? "" : " (stopped)");
  c.classList.toggle("over", left <= 0);
}
setInterval(tick, 1000);
async function call(method, path, body) {
  const res = await fetch(path, {method: method, headers: Object.assign({"Content-Type": "application/json"}, auth), body: body === undefined ? undefined : JSON.stringify(body)});
  let answer = null; try { answer = await res.json(); } catch (e) {}
  if (!res.ok) throw new Error((answer && answer.message) || ("the server answered " + res.status));
  return answer;
}
async function read() {
  if (reading) { again = true; return; }
  reading = true;
  try { draw(await call("GET", base + "/arbiter")); $("msg").textContent = ""; }
  catch (e) { $("msg").textContent = "Cannot read the desk: " + e.message; $("msg").className = "bad"; }
  finally { reading = false; if (again) { again = false; read(); } }
}
function sentence(e) {
  let t = e.seq + ". " + (e.actor ? e.actor + ": " : "") + e.line + " — " + e.verdict;
  if (e.words && e.words.length) t += " (" + e.words.join("; ") + ")";
  return t;
}
function draw(d) {
  $("title").textContent = "Arbiter · " + (d.name || tid);
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
  // tables whose game's actor that is no seat (Android's arbiter, Copycat's table) has moves: a link to its page
  const moves = d.actor_moves || [], list = $("actor-moves");
  list.replaceChildren();
  $("actors").hidden = !moves.length;
  for (const w of moves) {
    const li = el("li", list); li.dataset.table = w.table;
    const a = el("a", li, "table " + w.table + ": " + w.names.join(" v ") + ": " + w.moves + " move" + (w.moves === 1 ? "" : "s") + " for the " + w.actor);
    a.href = w.page + "#token=" + encodeURIComponent(token); a.target = "_blank"; a.rel = "noopener";
  }
}
function card(m, d, open) {
  const mid = m.match_id, key = mid + ":" + m.kind + ":" + m.entry;
  const c = el("article", null, null, "matter"); c.dataset.table = m.table; c.dataset.kind = m.kind; c.dataset.entry = m.entry;
  const h = el("h3", c); el("span", h, m.kind === "dispute" ? "dispute" : "held move", "kind " + m.kind);
  el("span", h, "table " + m.table + ": " + m.names.join(" v "));
  if (m.past_time) el("span", h, " · past time", "past");
  const e = m.disputed;
  if (e) {
    const box = el("div", c, null, "entry");
    el("code", box, sentence(e));
    if (e.rejection) el("div", box, "refused: " + e.rejection.message + (e.rejection.rule ? " [" + e.rejection.rule + "]" : "") + " (" + e.rejection.code + ")", "rule");
  } else el("div", c, "on the match as a whole (entry 0)", "entry");
  for (const n of m.notes) el("div", c, n.kind + " (" + n.by + "): " + n.text, "said-by");
  el("div", c, "waiting for " + m.waiting + (m.after ? "; " + m.after + " entr" + (m.after === 1 ? "y" : "ies") + " played after it" : ""), "wait");
  if (m.recent.length) { const ol = el("ol", c, null, "recent"); ol.start = m.recent[0].seq; for (const r of m.recent) el("li", ol, sentence(r).replace(/^\d+\. /, "")); }
  const said = el("p", c, "", "said"); said.setAttribute("role", "status");
  const reason = input(c, key + ":text", "the ruling, or a note", open);
  const base = "/matches/" + encodeURIComponent(mid);
  const act = async (what, steps) => {
    said.className = "said"; said.textContent = what + "…";
    try { for (const s of steps) await s(); said.textContent = what + ": done."; read(); }
    catch (err) { said.className = "said bad"; said.textContent = "Refused: " + err.message; }
  };
  const row = el("form", c); row.addEventListener("submit", (ev) => ev.preventDefault());
  if (m.kind === "dispute") {
    const outcome = el("select", row); outcome.setAttribute("aria-label", "the ruling's outcome");
    if (m.can_stand) el("option", outcome, "the move stands as played").value = "stands";
    el("option", outcome, "the verdict stands").value = "upheld";
    const rule = el("button", row, "Rule"); rule.type = "button"; rule.className = "rule-btn";
    rule.addEventListener("click", () => {
      const text = reason.value.trim(), stands = outcome.value === "stands";
      const note = (stands ? "ruled: entry " + m.entry + " stands as played" : "ruled: the verdict of entry " + m.entry + " stands") + (text ? " — " + text : "");
      const steps = [];
      if (stands) steps.push(() => call("POST", base + "/rulings", {entry: m.entry, reason: text}));
      steps.push(() => call("POST", base + "/annotations", {seq: m.entry, kind: "ruling", text: note}));
      act("Ruling on entry " + m.entry, steps);
    });
  } else {
    for (const [label, accept] of [["Confirm for " + m.confirmer, true], ["Decline", false]]) {
      const b = el("button", row, label, accept ? "" : "second"); b.type = "button";
      b.addEventListener("click", () => act(label, [() => call("POST", base + "/confirmations", {entry: m.entry, accept: accept, reason: reason.value.trim()})]));
    }
  }
  const note = el("button", row, "Annotate", "second"); note.type = "button";
  note.addEventListener("click", () => {
    const text = reason.value.trim();
    if (!text) { said.className = "said bad"; said.textContent = "Type the note first."; return; }
    act("Note on entry " + m.entry, [() => call("POST", base + "/annotations", {seq: m.entry, kind: "comment", text: text})]);
  });
  // the arbiter may undo under any undo policy (the tournament's, d.undo, binds the seats); a second press does it
  const undo = el("button", row, "Undo to before entry " + m.entry, "second"); undo.type = "button";
  undo.title = "the seats' undo policy: " + d.undo + "; the arbiter may undo under any";
  if (m.entry < 1) undo.disabled = true;
  undo.addEventListener("click", () => {
    if (!undo.dataset.armed) { undo.dataset.armed = "1"; said.className = "said"; said.textContent = "Press again to undo entries " + m.entry + "–" + m.head + "."; return; }
    delete undo.dataset.armed;
    act("Undo to entry " + (m.entry - 1), [() => call("POST", base + "/undo", {to: m.entry - 1, reason: reason.value.trim()})]);
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
    const m = $("clock-msg"); m.className = ""; m.textContent = action + "…";
    try { clock = await call("POST", base + "/clock", body); tick(); m.textContent = "Clock " + {start: "started", stop: "stopped", resume: "resumed"}[action] + "."; }
    catch (e) { m.className = "bad"; m.textContent = "Refused: " + e.message; }
  });
}
$("hall").href = "/hall/" + encodeURIComponent(tid) + "#token=" + encodeURIComponent(token);
if (!token) { $("status").textContent = "open this page as /hall/" + tid + "/arbiter#token=<the organiser's token>"; } else {
  follow(base + "/events", auth, (snap) => {
    if (snap.role !== "organiser") { $("status").textContent = "the arbiter's console needs the organiser's token (this one is a " + snap.role + "'s)"; return; }
    document.body.dataset.updates = String(Number(document.body.dataset.updates) + 1);
    $("status").textContent = "live, last update " + new Date().toLocaleTimeString();
    clock = snap.clock; tick(); read();
  });
}
