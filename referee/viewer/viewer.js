(function () {
'use strict';
// The match viewer: steps through the entries, drawing the table after each one from the frames the
// page carries (each the change from the entry before). Knows no game: it draws boards of areas and
// pieces, sections of labelled facts, and every field as stored (behind "details").
const $ = id => document.getElementById(id);
const names = {}, colours = {};
const seatColours = ['#2f6fb5', '#c0392b', '#2e8b57', '#8e44ad', '#d4870b', '#16868c', '#7b5e3b', '#c2185b'];
const sideColours = ['#8d6e63', '#c9a227', '#78909c', '#b5651d', '#9c4f96', '#5e8c31', '#00897b', '#6d4c41', '#ad1457', '#455a64'];
let sides = 0;
// what the lent drawing reads is declared before the seat's page returns (a const below the return is never set)
const MAP_COLUMN = 68, MAP_ROOMY = 124;  // px a column needs to be drawn at all / to show its facts
const SVG = 'http://www.w3.org/2000/svg';
// on a page without the viewer's markup (a seat's page, referee/seatpage) the drawing is lent, nothing else runs
if (!$('viewer')) { window.refereeDrawing = {drawBoard, drawSection, worded, names, colours, seatColours, notice}; return; }
const main = $('viewer'), slider = $('slider'), boardPanel = $('board');
const players = JSON.parse(main.dataset.players);
const items = [...document.querySelectorAll('#moves li.entry[data-index]')];
const frames = [JSON.parse($('initial').textContent)].concat(
  items.map(li => JSON.parse(li.querySelector('script.state').textContent)));
const N = items.length;
const indexOfSeq = {}; items.forEach((li, k) => { indexOfSeq[li.dataset.seq] = k + 1; });
const boardsAt = [], sectionsAt = [], headlineAt = [];
// a frame's boards and sections are patches of the ones before (copied where they change, shared where not)
function patch(old, p) {
  if (p[0] === '=') return p[1];
  if (p[0] === '~') { const out = old.slice(); for (const k in p[1]) out[Number(k)] = patch(old[Number(k)], p[1][k]); return out; }
  const out = Object.assign({}, old);
  for (const k in p[1]) out[k] = patch(old ? old[k] : undefined, p[1][k]);
  for (const k of p[2]) delete out[k];
  return out;
}
let b = [], s = [], h = '';
frames.forEach((f, i) => {
  if (f.b) b = patch(b, f.b); if (f.s) s = patch(s, f.s); if (f.n) Object.assign(names, f.n);
  if (f.h !== undefined) h = f.h;
  boardsAt[i] = b; sectionsAt[i] = s; headlineAt[i] = h;
});
// every field as stored: a snapshot every 64 frames, the changes applied from there
const snaps = {};
function flatAt(i) {
  const base = Math.floor(i / 64) * 64;
  if (!snaps[base]) { const prev = base ? flatAt(base - 1) : {}; snaps[base] = apply(Object.assign({}, prev), frames[base]); }
  const out = Object.assign({}, snaps[base]);
  for (let k = base + 1; k <= i; k++) apply(out, frames[k]);
  return out;
}
function apply(flat, f) { if (f.f) Object.assign(flat, f.f); for (const k of f.x || []) delete flat[k]; return flat; }

// colours: the seats first, then every other side in the order the boards first show it
players.forEach((p, k) => { colours[p] = seatColours[k % seatColours.length]; });
function notice(owner) { if (owner && !(owner in colours)) colours[owner] = sideColours[sides++ % sideColours.length]; }
boardsAt.forEach((bs, i) => { if (i && bs === boardsAt[i - 1]) return;
  for (const bd of bs) for (const a of bd.areas || []) { notice(a.owner); for (const p of a.pieces || []) notice(p.owner); } });

function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
function paint(e, owner) { if (owner && colours[owner]) e.style.setProperty('--c', colours[owner]); return e; }
// a text with each id that has a printed name shown by its name, the id on hover (the words as the
// referee splits them: referee/engine/present.py WORD)
function named(id) { const n = el('span', 'named', names[id]); n.title = id; return n; }
function worded(text) {
  const frag = document.createDocumentFragment();
  let last = 0; const re = /[A-Za-z0-9_]+/g; let m;
  while ((m = re.exec(text)) !== null) {
    if (names[m[0]]) {
      frag.append(text.slice(last, m.index), named(m[0]));
      last = m.index + m[0].length;
    }
  }
  frag.append(text.slice(last));
  return frag;
}
function wordedEl(tag, cls, text) { const e = el(tag, cls); e.append(worded(text)); return e; }

function card(p) {
  const c = paint(el('div', 'card' + (p.face_down ? ' down' : '')), p.owner);
  const meta = el('div', 'meta');
  if (p.kind) meta.append(el('span', 'kind', p.kind));
  if (p.card && p.card !== '?' && !names[p.card]) meta.append(el('span', 'cid', p.card));
  if (p.owner) meta.append(el('span', 'who', p.owner));
  if (p.face_down) meta.append(el('span', 'kind', gettext("face down")));
  c.append(meta);
  c.append(p.card && names[p.card] ? wordedEl('div', 'cname', p.card) : el('div', 'cname', p.card === '?' ? gettext("unknown card") : p.name || p.card));
  if (p.value) c.append(el('span', 'val', p.value));
  if ((p.notes || []).length) c.append(wordedEl('div', 'notes', p.notes.join(' · ')));
  c.title = [p.kind, p.card, names[p.card], p.owner, p.value && gettext("value {value}", {value: p.value}), ...(p.notes || [])].filter(Boolean).join(' · ');
  return c;
}
function chip(p) {
  const c = paint(el('span', 'chip' + (p.face_down ? ' down' : '')), p.owner);
  if (p.kind) c.append(el('span', 'kind', p.kind));
  if (p.card) c.append(wordedEl('b', '', p.card));
  else if (p.name) c.append(wordedEl('b', '', p.name));
  if (p.value) c.append(el('span', '', '× ' + p.value));
  if (p.face_down) c.append(el('span', 'notes', gettext("face down")));
  if ((p.notes || []).length) c.append(wordedEl('span', 'notes', p.notes.join(' · ')));
  return c;
}
function contents(a, box) {
  const pieces = (a && a.pieces) || [];
  if (pieces.length) {
    const big = pieces.findIndex(p => p.card);
    if (big >= 0) box.append(card(pieces[big]));
    const rest = el('div', 'rbody');
    pieces.forEach((p, k) => { if (k !== big) rest.append(chip(p)); });
    if (rest.childNodes.length) box.append(rest);
  } else if (a && (a.lines || []).length) {
    for (const line of a.lines) box.append(wordedEl('div', 'notes', line));
  } else box.append(el('span', 'empty', '·'));
}
function mark(node, a, was, compare) {
  if (a) node.dataset.cell = a.id;
  if (compare && JSON.stringify(a || null) !== JSON.stringify(was || null)) node.classList.add('changed');
  return node;
}
// a region of a map: its name and holder in the head, its label, what is on it (pieces or lines)
// a piece where a tile has little room: a dot in its owner's colour with its initial, the rest on hover
function dot(p) {
  const who = names[p.name] || p.name || p.kind || '?';
  const d = paint(el('span', 'dot', who.slice(0, 1).toUpperCase()), p.owner);
  d.title = [p.kind, names[p.name] || p.name, p.owner, ...(p.notes || []).map(n => names[n] || n)].filter(Boolean).join(' · ');
  return d;
}
function tile(a, dense) {
  const t = paint(el('div', 'tile' + (a.owner ? '' : ' free')), a.owner);
  const head = el('div', 'rhead'); head.append(wordedEl('span', 'rname', a.id)); if (a.owner) head.append(el('span', '', a.owner));
  t.append(head); if (a.label) t.append(wordedEl('div', 'rlabel', a.label));
  const body = el('div', 'rbody');
  for (const p of a.pieces || []) {
    if (p.value && !p.card) { const pip = paint(el('span', 'pip', p.value), p.owner); pip.title = [p.kind, p.name || p.owner, p.value].filter(Boolean).join(' '); body.append(pip); }
    else if (!(a.owner && p.owner === a.owner && !p.card && !p.value && p.kind !== 'agent')) body.append(dense ? dot(p) : chip(p));
    else if ((p.notes || []).length) body.append(wordedEl('span', 'notes', p.notes.join(' · ')));
  }
  if (!(a.pieces || []).length) for (const line of a.lines || []) body.append(wordedEl('span', 'notes', line));
  t.append(body);
  return t;
}
// a board whose areas are placed (x column, y row): on a grid as the table lies, its links drawn as
// lines between the tiles (under them, so a line shows where the tiles leave room); where a column
// would be too narrow to read, row by row in order instead (a phone), each row's areas side by side
function drawMap(bd, was, compare) {
  const areas = bd.areas || [];
  const cols = Math.max(1, ...areas.map(a => a.x || 1)), width = $('boards').clientWidth || 600;
  const fits = width / cols >= MAP_COLUMN, roomy = width / cols >= MAP_ROOMY;
  const m = el('div', 'map' + (fits ? '' : ' rows') + (roomy ? ' roomy' : ''));
  m.dataset.columns = cols;
  const tiles = {};
  const place = a => {
    const t = mark(tile(a, fits && !roomy), a, was[a.id], compare);
    for (const [k, v] of a.facts || []) { const f = el('div', 'mfact'); f.append(worded(k), ': ', worded(v)); t.append(f); }
    t.title = [a.label, ...(a.lines || []), ...(a.facts || []).map(f => f[0] + ': ' + f[1])].filter(Boolean)
      .map(x => x.replace(/[A-Za-z0-9_]+/g, w => names[w] || w)).join('\n');
    tiles[a.id] = t; return t;
  };
  if (fits) {
    m.style.gridTemplateColumns = 'repeat(' + cols + ', minmax(0, 1fr))';
    for (const a of areas) { const t = place(a); t.style.gridColumn = String(a.x || 1); t.style.gridRow = String(a.y || 1); m.append(t); }
    m._links = (bd.links || []).filter(l => tiles[l.a] && tiles[l.b]).map(l => [tiles[l.a], tiles[l.b], l]);
  } else {
    const rows = {}; for (const a of areas) (rows[a.y || 0] = rows[a.y || 0] || []).push(a);
    for (const y of Object.keys(rows).map(Number).sort((p, q) => p - q)) {
      const r = el('div', 'maprow'); r.dataset.row = y;
      for (const a of rows[y].sort((p, q) => (p.x || 0) - (q.x || 0))) r.append(place(a));
      m.append(r);
    }
  }
  return m;
}
// the links of the maps drawn on the grid, once they are laid out (an SVG under the tiles)
function drawLinks() {
  for (const m of document.querySelectorAll('#boards .map')) {
    for (const old of m.querySelectorAll(':scope > svg')) old.remove();
    if (!(m._links || []).length) continue;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('width', m.scrollWidth); svg.setAttribute('height', m.scrollHeight); svg.setAttribute('aria-hidden', 'true');
    const kinds = [...new Set(m._links.map(([, , l]) => l.kind || ''))].filter(Boolean);
    for (const [p, q, l] of m._links) {
      const line = document.createElementNS(SVG, 'line');
      line.setAttribute('x1', p.offsetLeft + p.offsetWidth / 2); line.setAttribute('y1', p.offsetTop + p.offsetHeight / 2);
      line.setAttribute('x2', q.offsetLeft + q.offsetWidth / 2); line.setAttribute('y2', q.offsetTop + q.offsetHeight / 2);
      if (l.kind) { line.setAttribute('class', 'kind k' + (kinds.indexOf(l.kind) % 3)); line.dataset.kind = l.kind; }
      svg.append(line);
    }
    m.prepend(svg);
  }
}
function drawBoard(bd, prev, compare) {
  const was = {}; for (const a of (prev && prev.areas) || []) was[a.id] = a;
  const box = el('div', 'board'); box.dataset.board = bd.title; box.append(el('h3', '', bd.title));
  const areas = bd.areas || [];
  if (bd.layout === 'grid') {
    const rows = [...new Set(areas.map(a => a.row || ''))], cols = [...new Set(areas.map(a => a.col || ''))];
    const at = {}; areas.forEach(a => { at[(a.row || '') + '|' + (a.col || '')] = a; });
    const g = el('div', 'grid'); g.style.gridTemplateColumns = 'auto repeat(' + cols.length + ', minmax(0, 1fr))';
    g.append(el('span', 'lab', '')); cols.forEach(c => g.append(wordedEl('span', 'lab', c)));
    for (const r of rows) {
      g.append(wordedEl('span', 'lab', r));
      for (const c of cols) { const a = at[r + '|' + c]; const cell = el('div', 'cell'); contents(a, cell);
        g.append(mark(cell, a, a && was[a.id], compare)); }
    }
    box.append(g);
  } else if (bd.layout === 'regions') {
    const m = el('div', 'regions');
    for (const a of areas) m.append(mark(tile(a), a, was[a.id], compare));
    box.append(m);
  } else if (bd.layout === 'map') {
    box.append(drawMap(bd, was, compare));
  } else {  // a row of slots (a tableau drawn here too, should a game draw one as a board)
    const r = el('div', 'row');
    for (const a of areas) {
      const slot = paint(el('div', 'slot'), a.owner); slot.append(wordedEl('div', 'sid', a.id));
      if (a.label) slot.append(wordedEl('div', 'slabel', a.label));
      contents(a, slot);
      for (const [k, v] of a.facts || []) { const f = el('div', 'notes'); f.append(worded(k), ': ', worded(v)); slot.append(f); }
      r.append(mark(slot, a, was[a.id], compare));
    }
    box.append(r);
  }
  return box;
}
function factRow(label, cells, cls) { const tr = el('tr', cls); tr.append(wordedEl('td', 'k', label)); cells.forEach(c => tr.append(c)); return tr; }
function valueCell(v, seat, key) {
  const td = el('td'); td.append(worded(v === undefined ? '—' : v));
  if (seat !== undefined) { td.dataset.seat = seat; td.dataset.key = key; }
  return td;
}
function drawSection(sec, prev, compare) {
  const box = el('div', 'section'); box.dataset.section = sec.title; box.append(el('h3', '', sec.title));
  const t = el('table', 'facts'); const areas = sec.areas || [];
  const before = {}; for (const a of (prev && prev.areas) || []) before[a.id] = a;
  if (sec.layout === 'tableau') {
    const head = el('tr'); head.append(el('th', '', ''));
    areas.forEach(a => head.append(paint(wordedEl('th', '', a.id + (a.label ? ' (' + a.label + ')' : '')), a.id in colours ? a.id : a.owner)));
    t.append(head);
    if (areas.some(a => (a.lines || []).length)) {
      const changed = compare && areas.some(a => JSON.stringify(a.lines || []) !== JSON.stringify((before[a.id] || {}).lines || []));
      t.append(factRow('', areas.map(a => valueCell((a.lines || []).join(', ') || '—', a.id, '')), changed ? 'changed' : ''));
    }
    for (const kind of ['facts', 'details']) {
      const labels = [...new Set(areas.flatMap(a => (a[kind] || []).map(f => f[0])))];
      for (const label of labels) {
        let changed = false;
        const cells = areas.map(a => {
          const v = Object.fromEntries(a[kind] || [])[label];
          const w = before[a.id] ? Object.fromEntries(before[a.id][kind] || [])[label] : undefined;
          if (compare && v !== w) changed = true;
          return valueCell(v, a.id, label);
        });
        t.append(factRow(label, cells, (kind === 'details' ? 'detail' : '') + (changed ? ' changed' : '')));
      }
    }
  } else {
    for (const a of areas) {
      const old = before[a.id] || {};
      for (const kind of ['facts', 'details']) {
        const w = Object.fromEntries(old[kind] || []);
        for (const [label, v] of a[kind] || []) {
          const td = el('td'); td.append(worded(v)); td.dataset.key = label;
          t.append(factRow(label, [td], (kind === 'details' ? 'detail' : '') + (compare && w[label] !== v ? ' changed' : '')));
        }
      }
    }
  }
  box.append(t);
  return box;
}

let current = -1;
function show(i, opts) {
  opts = opts || {};
  i = Math.max(0, Math.min(N, i)); slider.value = i; current = i;
  const compare = i > 0;
  const pb = {}; for (const bd of compare ? boardsAt[i - 1] : []) pb[bd.title] = bd;
  const boardsBox = $('boards'); boardsBox.replaceChildren(...boardsAt[i].map(bd => drawBoard(bd, pb[bd.title], compare)));
  drawLinks();
  const ps = {}; for (const sec of compare ? sectionsAt[i - 1] : []) ps[sec.title] = sec;
  $('sections').replaceChildren(...sectionsAt[i].map(sec => drawSection(sec, ps[sec.title], compare)));
  legend(i);
  now(i);
  if (document.body.classList.contains('details')) raw(i);
  for (const was of document.querySelectorAll('#moves li.entry.current')) was.classList.remove('current');
  const li = i > 0 ? items[i - 1] : null;
  if (li) li.classList.add('current');
  for (const a of document.querySelectorAll('#problems a')) a.classList.toggle('at', li !== null && a.dataset.seq === li.dataset.seq);
  if (opts.hash !== false) history.replaceState(null, '', '#' + (li ? li.dataset.seq : '0'));
  if (opts.reveal !== false && li) reveal(li);
}
function legend(i) {
  const owners = new Set(players);
  for (const bd of boardsAt[i]) for (const a of bd.areas || []) { if (a.owner) owners.add(a.owner); for (const p of a.pieces || []) if (p.owner) owners.add(p.owner); }
  $('legend').replaceChildren(...[...owners].map(o => { const sp = el('span'); sp.append(paint(el('i', 'sw'), o), o); return sp; }));
}
function now(i) {
  const box = $('now'); box.replaceChildren();
  $('headline').replaceChildren(worded(headlineAt[i]));
  if (i === 0) { box.append(el('b', '', gettext("After setup")), ' — ' + gettext("before the first entry")); return; }
  const li = items[i - 1];
  box.append(el('b', '', gettext("After entry {n} of {last}: ", {n: li.dataset.seq, last: items[N - 1].dataset.seq})));
  box.append(el('span', 'move', li.dataset.move));
  const mk = li.querySelector(':scope > .ok, :scope > .bad, :scope > .held'); if (mk) box.append(' ', mk.cloneNode(true));
  for (const part of li.querySelectorAll(':scope > .why, :scope > .words, :scope > em')) box.append(part.cloneNode(true));
}
function raw(i) {
  const flat = flatAt(i), was = i > 0 ? flatAt(i - 1) : flat; const body = $('state-body'); body.replaceChildren();
  for (const k of Object.keys(flat)) { const tr = el('tr', was[k] !== flat[k] ? 'changed' : '');
    tr.append(el('td', 'path', k), el('td', '', flat[k])); body.append(tr); }
}
function phone() { return window.matchMedia('(max-width: 800px)').matches; }
// the current move where it can be seen: below the board on a phone, in the window on a desktop
function reveal(li) {
  for (let pass = 0; pass < 2; pass++) {
    const top = (phone() ? Math.max(0, boardPanel.getBoundingClientRect().bottom) : 0) + 8;
    const r = li.getBoundingClientRect(), bottom = window.innerHeight - 8;
    if (r.top >= top && r.bottom <= bottom) return;
    window.scrollBy(0, r.top - top - Math.max(0, (bottom - top - r.height) / 3));
  }
}
const problemSeqs = [...new Set([...document.querySelectorAll('#problems a[data-seq]')].map(a => Number(a.dataset.seq)))].sort((x, y) => x - y);
function seqAt(i) { return i > 0 ? Number(items[i - 1].dataset.seq) : 0; }
function problem(dir) {
  const at = seqAt(current);
  const seq = dir > 0 ? problemSeqs.find(q => q > at) : [...problemSeqs].reverse().find(q => q < at);
  if (seq !== undefined && indexOfSeq[seq] !== undefined) show(indexOfSeq[seq]);
}
function fromHash(reveal) {
  const h = decodeURIComponent(location.hash.slice(1));
  if (h === '0') { show(0, {hash: false, reveal: false}); return true; }
  if (/^\d+$/.test(h) && indexOfSeq[h] !== undefined) { show(indexOfSeq[h], {hash: false, reveal: reveal}); return true; }
  return false;
}

slider.max = N;
slider.addEventListener('input', () => show(Number(slider.value)));
$('back').onclick = () => show(current - 1);
$('next').onclick = () => show(current + 1);
$('first').onclick = () => show(0);
$('last').onclick = () => show(N);
items.forEach(li => li.addEventListener('click', e => {
  if (e.target.closest('.variation')) return;
  if (e.target.closest('a')) e.preventDefault();
  show(Number(li.dataset.index), {reveal: false});
}));
for (const a of document.querySelectorAll('#problems a[data-seq]')) a.addEventListener('click', e => {
  e.preventDefault(); const k = indexOfSeq[a.dataset.seq]; if (k !== undefined) show(k);
});
$('show-details').addEventListener('change', e => { document.body.classList.toggle('details', e.target.checked);
  $('raw').hidden = !e.target.checked; if (e.target.checked) raw(current); });
document.addEventListener('keydown', e => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target; if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
  const go = {ArrowRight: () => show(current + 1), ArrowLeft: () => show(current - 1), Home: () => show(0), End: () => show(N),
              n: () => problem(1), p: () => problem(-1)}[e.key];
  if (go) { e.preventDefault(); go(); }
});
// a map is laid out for the width it has: drawn again when the width changes
let drawnWidth = $('boards').clientWidth, resizing = 0;
window.addEventListener('resize', () => { clearTimeout(resizing); resizing = setTimeout(() => {
  if ($('boards').clientWidth !== drawnWidth && document.querySelector('#boards .map')) { drawnWidth = $('boards').clientWidth; show(current, {hash: false, reveal: false}); }
}, 120); });
window.addEventListener('hashchange', () => fromHash(true));
if (!fromHash(true)) show(N, {hash: false, reveal: false});
window.addEventListener('load', () => { if (location.hash) fromHash(true); });
})();
