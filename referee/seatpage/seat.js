(function () {
'use strict';
// A seat's page: everything is fetched with the token of the address's fragment (sent in the
// Authorization header, never in a query); the board is drawn by the viewer's code (viewer.js, lent).
// Knows no game: the moves are the answer's choices, grouped by intent, picked field by field.
const $ = id => document.getElementById(id);
const draw = window.refereeDrawing;
const token = new URLSearchParams(location.hash.slice(1)).get('token') || '';
const mid = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const base = '/matches/' + encodeURIComponent(mid);
const body = document.body;
let ans = null, busy = false, again = false, stopped = false;
let picks = {};  // verb -> {field: value} picked so far
const typed = {};  // what the seat has typed into a choice's field (verb|key), kept across redraws
let shownJson = '';
// what a write was, as a sentence names it
const WHAT = {move: gettext("move"), confirm: gettext("confirm"), decline: gettext("decline"), 'take-back': gettext("take-back")};

function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function status(text) { $('status').textContent = text; }
function words(text) { const s = el('span'); s.append(draw.worded(text)); return s; }
// a verb or a field's key: machine text (the notation's), read as words in English, shown as it is otherwise
function human(verb) { return LANG === 'en' ? verb.replace(/_/g, ' ') : verb; }
// a refusal of this match's game in the page's language (pagewords.js): {message, rule}
async function refusalSaid(rej) {
  const english = {message: rej.message, rule: rej.rule};
  if (LANG === 'en') return english;
  const a = await askWords({refusals: [{game: ans.game, code: rej.code, message: rej.message, rule: rej.rule || '', rule_english: rej.rule_english || ''}]});
  return a ? a.refusals[0] : english;
}
// what this match's JSON says in English, in the page's language, for this token's own view (GET
// /matches/{id}/words: the view's headline and sections' titles after an entry, an entry's words); null in
// English, or when the server cannot say it (the JSON's words are shown then)
async function matchWords(query) {
  if (LANG === 'en') return null;
  try { const r = await call('GET', '/words?lang=' + encodeURIComponent(LANG) + '&' + query); return r.ok ? r.data : null; }
  catch (e) { return null; }
}
let viewSaid = null;  // {seq, headline, titles} of the view shown, in the page's language
async function sayView(a) {
  const w = await matchWords('at=' + a.seq);
  if (!w || ans !== a || w.seq !== a.seq) return;
  viewSaid = w;
  $('headline').replaceChildren(draw.worded(w.headline));
  renderTable(a);
}
// an accepted write's words (its events as this token sees them) in the page's language
async function wordsSaid(d) {
  const w = d.words && d.words.length ? await matchWords('from=' + d.seq + '&to=' + d.seq) : null;
  return w && w.entries.length === 1 && w.entries[0].seq === d.seq ? w.entries[0].words : (d.words || []);
}
function showResult(a) {
  $('result').hidden = !a.result;
  $('result').textContent = a.result ? gettext("Game over: {result}", {result: outcomeWords(a.view.outcome, a.result, () => showResult(ans))}) : '';
}

async function call(method, path, data) {
  const init = {method: method, headers: {'Authorization': 'Bearer ' + token}};
  if (data !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(data); }
  const res = await fetch(base + path, init);
  let json = null; try { json = await res.json(); } catch (e) { /* no body */ }
  return {status: res.status, ok: res.ok, data: json, retry: Number(res.headers.get('Retry-After')) || 0};
}

function stop(message) {
  stopped = true;
  $('who').textContent = gettext("This page cannot show a seat: {why}", {why: message});
  for (const id of ['moves', 'boards', 'sections', 'private', 'tools', 'held', 'reveal']) $(id).hidden = true;
  status('');
  keepAwake(false);
}

// -- reading the seat's answer ---------------------------------------------------------------------
async function load() {
  if (stopped) return;
  if (busy) { again = true; return; }
  busy = true;
  try {
    const r = await call('GET', '/seat');
    if (r.ok) {
      const text = JSON.stringify(r.data);
      if (text !== shownJson) { shownJson = text; render(r.data); }  // the same answer: nothing redrawn
      body.dataset.head = String(r.data.seq);
      body.dataset.loads = String(Number(body.dataset.loads || 0) + 1);
      status(gettext("live · entry {n}", {n: r.data.seq}));
    } else if (r.status === 429 || r.status >= 500) {
      status(gettext("the server cannot answer now; retrying")); setTimeout(load, Math.max(1500, 1000 * r.retry));
    } else stop((await errorSaid(r.data)) || 'HTTP ' + r.status);
  } catch (e) { status(gettext("connection lost; retrying")); setTimeout(load, 2000); }
  finally { busy = false; if (again) { again = false; load(); } }
}

// a tap on what is still covered asks for the reveal first (a phone lying on the table shows nothing hidden)
function covered(b) {
  if (!b.classList.contains('private') || body.classList.contains('revealed')) return false;
  const button = gettext("Hold to see your hand");
  say('held', gettext("Hold the button \"{button}\" first: this move names a card only you may see.", {button: button})); return true;
}
function secretIn(text) { return (ans.secret || []).some(x => text.indexOf(x) >= 0); }

function render(a) {
  if (ans && ans.seq !== a.seq) picks = {};
  ans = a;
  Object.assign(draw.names, a.view.names || {});
  a.players.forEach((p, k) => { draw.colours[p] = draw.seatColours[k % draw.seatColours.length]; });
  // a seat's page, or an actor's that is no seat (the arbiter's token, or the actor's own: Copycat's table)
  const you = a.role === 'seat' ? gettext("you are {seat}", {seat: a.seat}) : a.role === 'actor' ? gettext("you are the {actor}", {actor: a.seat})
    : a.seat === 'arbiter' ? gettext("you are the arbiter") : gettext("the arbiter, acting for the {actor}", {actor: a.seat});
  $('who').textContent = a.game_name + ' · ' + you;
  document.title = a.seat + ' · ' + a.game_name;
  const said = viewSaid && viewSaid.seq === a.seq ? viewSaid : null;
  $('headline').replaceChildren(draw.worded(said ? said.headline : a.view.headline || ''));
  if (!said && LANG !== 'en') sayView(a);
  showResult(a);
  body.dataset.over = a.result ? 'yes' : 'no';
  renderHeld(a);
  renderMoves(a);
  renderTable(a);
  $('takeback').hidden = !a.take_back;
  $('dispute').hidden = a.role !== 'seat';  // a seat calls the arbiter; the arbiter and the table do not
  $('dispute-send').disabled = a.seq === 0;
  $('reveal').hidden = !(a.private_areas.length || a.private_sections.length || a.secret.length);
  keepAwake(!a.result);
}

function renderTable(a) {
  const priv = new Set(a.private_areas);
  const boards = (a.view.boards || []).map(bd => {
    const box = draw.drawBoard(bd, null, false);
    for (const cell of box.querySelectorAll('[data-cell]')) if (priv.has(bd.title + '|' + cell.dataset.cell)) cell.classList.add('private');
    return box;
  });
  $('boards').replaceChildren(...boards);
  const mine = new Set(a.private_sections), open = [], hidden = [];
  const titles = viewSaid && viewSaid.seq === a.seq ? viewSaid.titles : {};
  for (const sec of a.view.sections || []) {
    const box = draw.drawSection(sec, null, false), h = box.querySelector('h3');
    if (h && titles[sec.title]) h.textContent = titles[sec.title];  // data-section keeps the JSON's title
    (mine.has(sec.title) ? hidden : open).push(box);
  }
  $('sections').replaceChildren(...open);
  $('private').replaceChildren(...hidden);
}

function renderHeld(a) {
  const box = $('held'); box.replaceChildren(); box.hidden = !a.held;
  if (!a.held) return;
  const h = a.held;
  if (h.confirmer === a.seat) {
    box.append(el('h3', '', gettext("Your confirmation is asked")), el('p', '', ''));
    box.lastChild.append(gettext("{actor} plays ", {actor: h.actor}), words(h.intent));
    const yes = el('button', 'confirm', gettext("Accept")), no = el('button', 'decline', gettext("Decline"));
    yes.type = no.type = 'button';
    yes.onclick = () => write('/confirmations', {entry: h.seq, accept: true, expected_seq: a.seq}, 'confirm');
    no.onclick = () => write('/confirmations', {entry: h.seq, accept: false, expected_seq: a.seq}, 'decline');
    box.append(yes, no);
  } else {
    const p = el('p', '', gettext("Waiting for {seat} to confirm {actor}'s move ", {seat: h.confirmer, actor: h.actor}));
    p.append(words(h.intent)); box.append(p);
  }
}

// -- the moves: a group per intent; a field picked at a time until few enough moves are left to list
const LIST_AT = 6;
function matching(g) {
  const chosen = picks[g.verb] || {};
  return g.choices.filter(c => c.fields.every(f => !(f.key in chosen) || chosen[f.key] === f.value));
}
function nextField(g, left) {
  const chosen = picks[g.verb] || {};
  for (const f of left.length ? left[0].fields : []) {
    if (f.fill || f.key in chosen) continue;
    if (new Set(left.map(c => (c.fields.find(x => x.key === f.key) || {}).value)).size > 1) return f.key;
  }
  return null;
}
function renderMoves(a) {
  const box = $('moves'); box.replaceChildren();
  if (a.result || a.held) return;
  if (!a.moves.length) { box.append(el('p', 'none', gettext("Nothing for you to do now: waiting for the others."))); return; }
  box.append(el('h2', '', gettext("Your moves")));
  for (const g of a.moves) {
    const grp = el('div', 'group'); grp.dataset.verb = g.verb;
    grp.append(el('h3', '', human(g.verb)));
    if (g.doc) grp.append(el('p', 'doc', (MOVES[a.game] || {})[g.verb] || g.doc));  // in the page's language
    const left = matching(g), chosen = picks[g.verb] || {};
    for (const key of Object.keys(chosen)) {
      const b = el('button', 'pick on'); b.type = 'button'; b.append(key + ': ', words(chosen[key]));
      b.title = gettext("pick again"); b.onclick = () => { delete chosen[key]; renderMoves(ans); };
      grp.append(b);
    }
    const key = left.length > LIST_AT ? nextField(g, left) : null;
    if (key !== null) {
      const row = el('div', 'field'); row.append(el('span', 'k', key));
      const seen = [];
      for (const c of left) { const v = c.fields.find(f => f.key === key).value; if (seen.indexOf(v) < 0) seen.push(v); }
      for (const v of seen) {
        const b = el('button', 'pick'); b.type = 'button'; b.dataset.key = key; b.dataset.value = v;
        const label = el('span'); label.append(draw.worded(v)); b.append(label);
        if (secretIn(v)) b.classList.add('private');
        b.onclick = () => { if (covered(b)) return; picks[g.verb] = Object.assign({}, chosen, {[key]: v}); renderMoves(ans); };
        row.append(b);
      }
      grp.append(row);
    } else for (const c of left) grp.append(choiceEl(c));
    box.append(grp);
  }
}
function choiceEl(c) {
  const wrap = el('div', 'option');
  const fills = c.fields.filter(f => f.fill);
  const inputs = {};
  for (const f of fills) {
    const n = f.value.split(',').length;
    const inp = el('input'); inp.dataset.key = f.key; inp.autocomplete = 'off'; inp.autocapitalize = 'characters';
    inp.placeholder = n > 1 ? gettext("{key}: what the table shows ({n}, comma-separated)", {key: f.key, n: n}) : gettext("{key}: what the table shows", {key: f.key});
    inp.setAttribute('aria-label', f.key + ' (' + f.expected + ')');
    const mark = c.intent.split(' ')[0] + '|' + f.key;
    inp.value = typed[mark] || ''; inp.addEventListener('input', () => { typed[mark] = inp.value; });
    inputs[f.key] = inp; wrap.append(inp);
  }
  const b = el('button', 'choice'); b.type = 'button'; b.dataset.intent = c.intent;
  b.append(shown(c));
  if (secretIn(c.intent) || secretIn(c.label)) b.classList.add('private');
  b.onclick = () => {
    if (covered(b)) return;
    const missing = fills.filter(f => !inputs[f.key].value.trim());
    if (missing.length) { say('rejected', gettext("Type in {keys}: what you read off the table.", {keys: missing.map(f => f.key).join(', ')})); return; }
    write('/intents', {intent: line(c, inputs), expected_seq: ans.seq, seat: ans.seat}, 'move');
  };
  wrap.append(b);
  return wrap;
}
// a move as people read it: its fields (named by the game's names), or the intent's name alone
function shown(c) {
  const label = el('span'), given = c.fields.filter(f => !f.fill);
  if (!given.length) { label.textContent = human(c.intent.split(' ')[0]); return label; }
  given.forEach((f, k) => {
    if (k) label.append(' · ');
    label.append(el('span', 'k', human(f.key) + ' '), draw.worded(f.value));
  });
  label.title = c.label;
  return label;
}
// (no regular expression literal here: Babel's JavaScript extractor, which reads this file's words, loses
// its way in one holding a quote)
const NEEDS_QUOTES = new RegExp('[\\s"\\\\]');
function quoted(v) { return NEEDS_QUOTES.test(v) ? '"' + v.split('\\').join('\\\\').split('"').join('\\"') + '"' : v; }
function line(c, inputs) {
  if (!c.fields.some(f => f.fill)) return c.intent;
  const verb = c.intent.split(' ')[0];
  return [verb, ...c.fields.map(f => f.key + '=' + quoted(f.fill ? inputs[f.key].value.trim().replace(/\s*,\s*/g, ',') : f.value))].join(' ');
}

// -- writing: the verdict at once; a race lost is said as "the game moved on", with the new table ----
function say(kind, text, rule) {
  const v = $('verdict'); v.hidden = false; v.className = kind; v.replaceChildren(words(text));
  if (rule) v.append(el('span', 'rule', gettext("rule: {rule}", {rule: rule})));
  body.dataset.verdict = kind;
}
async function write(path, data, what) {
  body.dataset.writing = what;
  for (const b of document.querySelectorAll('#moves button, #held button, #tools button')) b.disabled = true;
  try {
    const r = await call('POST', path, data);
    if (r.status === 409) say('moved', gettext("The game moved on before your {what} arrived: nothing was written. Here is the table now.", {what: WHAT[what] || what}));
    else if (r.ok && r.data && r.data.verdict !== undefined) {
      const d = r.data;
      if (d.verdict === 'rejected') {
        const r = d.rejection ? await refusalSaid(d.rejection) : null;
        say('rejected', gettext("Refused: {why}", {why: r ? r.message : d.intent}), r && r.rule);
      }
      else if (d.verdict === 'held') say('held', gettext("Held: {move} waits for {seat} to confirm it.", {move: d.intent, seat: d.confirmer}));
      else { const w = await wordsSaid(d); say('accepted', gettext("Accepted: {move}", {move: d.intent}) + (w.length ? ' — ' + w.join('; ') : '')); }
    } else if (r.ok) say('accepted', gettext("Done."));
    else say('rejected', (await errorSaid(r.data)) || 'HTTP ' + r.status);
  } catch (e) { say('rejected', gettext("Not sent: the connection is lost. Try again when the page is live.")); }
  picks = {};
  if (body.dataset.verdict === 'accepted') for (const k of Object.keys(typed)) delete typed[k];
  await load();
  if (unread > (ans ? ans.seq : 0)) await load();
  unread = 0;
  for (const b of document.querySelectorAll('#moves button, #held button, #tools button')) b.disabled = false;
  $('dispute-send').disabled = !ans || ans.seq === 0;
  delete body.dataset.writing;
}
$('takeback').onclick = () => { if (ans && ans.take_back) write('/undo', {to: ans.take_back - 1, expected_seq: ans.seq}, 'take-back'); };
$('dispute-send').onclick = async () => {
  const text = $('dispute-text').value.trim() || 'the arbiter is called to this move';  // recorded: the log's words
  const r = await call('POST', '/annotations', {seq: ans.seq, text: text, kind: 'disputed'});
  if (r.ok) { say('held', gettext("The arbiter is called to entry {n}.", {n: ans.seq})); $('dispute-text').value = ''; $('dispute').open = false; }
  else say('rejected', (await errorSaid(r.data)) || 'HTTP ' + r.status);
};

// -- hidden cards: covered until the owner holds the control; shown while used, covered again after 8 s
let holding = null, hiding = null;
function reveal(on) { body.classList.toggle('revealed', on); if (!on) clearTimeout(hiding); }
function hideLater() { clearTimeout(hiding); hiding = setTimeout(() => reveal(false), 8000); }
const rv = $('reveal');
rv.addEventListener('pointerdown', e => { e.preventDefault(); clearTimeout(holding); holding = setTimeout(() => { reveal(true); clearTimeout(hiding); }, 350); });
for (const ev of ['pointerup', 'pointercancel', 'pointerleave']) rv.addEventListener(ev, () => { clearTimeout(holding); if (body.classList.contains('revealed')) hideLater(); });
rv.addEventListener('contextmenu', e => e.preventDefault());
rv.addEventListener('keydown', e => { if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); reveal(true); clearTimeout(hiding); } });
rv.addEventListener('keyup', () => hideLater());
document.addEventListener('pointerdown', e => { if (e.target !== rv && body.classList.contains('revealed')) hideLater(); }, true);

// -- the screen stays on while the game runs (where the browser can)
let lock = null;
async function keepAwake(on) {
  if (!('wakeLock' in navigator)) { body.dataset.wake = 'unsupported'; return; }
  try {
    if (on && !lock && document.visibilityState === 'visible') {
      lock = await navigator.wakeLock.request('screen');
      lock.addEventListener('release', () => { lock = null; body.dataset.wake = 'off'; });
    } else if (!on && lock) { const l = lock; lock = null; await l.release(); }
    body.dataset.wake = lock ? 'on' : 'off';
  } catch (e) { body.dataset.wake = 'refused'; }
}

// -- live: the match's event stream (read with the token in a header); a phone that slept catches up
let stream = null, wait = 1000;
async function follow() {
  if (stopped) return;
  const ctl = new AbortController(); stream = ctl;
  const after = ans ? ans.seq : 0;
  try {
    const res = await fetch(base + '/events?after=' + after, {headers: {'Authorization': 'Bearer ' + token}, signal: ctl.signal});
    if (!res.ok) {
      if (res.status !== 429 && res.status < 500) { let m = res.status; try { m = (await errorSaid(await res.json())) || m; } catch (e) {} stop(String(m)); return; }
      wait = Math.max(wait, 1000 * (Number(res.headers.get('Retry-After')) || 0));
    } else {
      const reader = res.body.getReader(), dec = new TextDecoder(); let buf = '';
      for (;;) {
        const {value, done} = await reader.read(); if (done) break;
        buf = (buf + dec.decode(value, {stream: true})).replace(/\r\n/g, '\n');
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i); buf = buf.slice(i + 2);
          if (block.split('\n').some(l => l.startsWith('data:'))) { wait = 1000; heard(block); }
        }
      }
    }
  } catch (e) { if (ctl.signal.aborted && stream !== ctl) return; }
  if (stream !== ctl) return;
  status(gettext("reconnecting…"));
  setTimeout(() => { if (stream === ctl) { wait = Math.min(wait * 2, 30000); follow(); } }, wait);
}
// an entry the page shows already is not read again; while the page writes, the write reads the table
// back itself (its own move among what it hears), and reads again after only for an entry it did not get
let unread = 0;
function heard(block) {
  const id = Number((block.split('\n').find(l => l.startsWith('id:')) || 'id:').slice(3)) || Infinity;
  if (ans && id <= ans.seq) return;
  if (body.dataset.writing) { unread = Math.max(unread, id); return; }
  load();
}
function restart() { if (stream) stream.abort(); stream = null; wait = 1000; load().then(follow); }
document.addEventListener('visibilitychange', () => {
  if (document.hidden) { reveal(false); return; }
  restart();  // after a sleep the old connection may be dead without saying so: catch up and follow anew
  keepAwake(!!ans && !ans.result);
});
window.addEventListener('online', restart);
// leaving the page ends its stream at once (a browser holds few connections to one server)
window.addEventListener('pagehide', () => { const s = stream; stream = null; if (s) s.abort(); });
window.addEventListener('pageshow', e => { if (e.persisted) restart(); });

if (!token) stop(gettext("open it from your seat's link or QR code (it ends with #token=…)"));
else { status(gettext("connecting…")); load().then(follow); }
})();
