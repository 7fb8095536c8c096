"""Exports of a match for people and programs: txt (the transcript format again), md, html, json.

Every export is built from one :class:`schemas.MatchExport` document, and that document is built only
from what the role asked for may see: states through the game's ``view`` for that role, log entries
through the service's redacted log, and event words redacted with the same hidden ids. A seat's
export never names another seat's hidden cards — not in the state, the events or undone lines.

Roles: ``arbiter`` (everything; the only role whose txt export re-imports to the same match),
a seat name, or ``spectator`` (what every seat may see).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import msgspec

from schemas import (
    ARBITER,
    SPECTATOR,
    EntryView,
    ExportMatch,
    ExportStep,
    ExportVariation,
    MatchConfig,
    MatchExport,
)

from .engine.protocol import Accepted, Rejected
from .inputs import visible
from .service import Loaded, Referee, _plain, redact_text, visible_parts
from .transcript import escape_text

FORMATS = ("txt", "md", "html", "json")


def _event_words(loaded: Loaded, events: Any) -> list[str]:
    """Events in words: the game's ``describe_event`` (an event it gives no words is bookkeeping and
    is left out); a game without one gets a generic line per event."""
    describe = getattr(loaded.rules, "describe_event", None)
    out = []
    for ev in events:
        if describe is not None:
            text = describe(ev)
            if text:
                out.append(text)
            continue
        text = None
        if text is None:
            data = _plain(ev)
            kind = data.pop("type", "event") if isinstance(data, dict) else "event"
            rest = ", ".join(f"{k} {_short(v)}" for k, v in data.items() if v not in (None, [], {}, ""))
            text = f"{kind.replace('_', ' ')}" + (f": {rest}" if rest else "")
        out.append(text)
    return out


def _short(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_short(v) for v in value) or "—"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_short(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _group(view: dict[str, Any]) -> str:
    """A heading for the move list: the turn (and whose) or the round, when the state has one."""
    turn = view.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("number"), int) and turn.get("number"):
        who = turn.get("active")
        rnd = view.get("round")
        return f"Turn {turn['number']}" + (f" — {who}" if who else "") + (f" (round {rnd})" if isinstance(rnd, int) else "")
    rnd = view.get("round")
    if isinstance(rnd, int):
        return f"Round {rnd}"
    phase = view.get("phase")
    return f"{str(phase).capitalize()}" if isinstance(phase, str) else ""


def _steps(referee: Referee, loaded: Loaded, role: str | None, start: int, stop: int | None) -> Iterator[ExportStep]:
    views = {e.seq: e for e in referee.log(loaded.match.id, seat=role)}
    _, state = referee.state_at(loaded, start - 1)
    group = _group(_plain(loaded.rules.view(state, role)))
    for entry, body in referee.bodies(loaded, start, stop):
        state = referee.advance(loaded, state, body)
        view = _plain(loaded.rules.view(state, role))
        events = body.verdict.events if isinstance(body.verdict, Accepted) else ()
        if role is not None:
            _intent, events, _removed = visible_parts(loaded.rules, body.actor, body.intent, events, role)
        words = _event_words(loaded, events)
        if role is not None:
            hidden = loaded.rules.hidden_ids(state, role)
            words = [redact_text(w, hidden) for w in words]
        yield ExportStep(entry=views[entry.seq], words=words, state=view, group=group)
        group = _group(view)


def document(referee: Referee, match_id: str, role: str = ARBITER) -> MatchExport:
    loaded = referee.load(match_id)
    seat = referee.role(loaded, role)
    m = loaded.match
    config: MatchConfig = loaded.config
    steps = list(_steps(referee, loaded, seat, 1, None))
    variations = []
    for info, _depth in referee.forks():
        if info.parent == m.id:
            fl = referee.load(info.id)
            variations.append(ExportVariation(
                match_id=info.id, fork_seq=info.fork_seq or 0, title=info.title,
                steps=list(_steps(referee, fl, seat, (info.fork_seq or 0) + 1, None)),
            ))
    final = referee.state(m.id, seat=seat)
    notes = [a for a in referee.store.annotations(m.id) if a.seq == 0]
    from schemas import Annotation, Outcome

    return MatchExport(
        role=role or ARBITER,
        match=ExportMatch(
            id=m.id, game=loaded.game.id, game_name=loaded.game.name, rules_version=m.rules_version,
            players=config.players, title=m.title, meta=dict(config.meta), options=dict(config.options),
            cards=config.cards, decks=dict(config.decks), chance=config.chance, seed=config.seed, undo=config.undo, parent=m.parent,
            fork_seq=m.fork_seq, created_at=m.created_at,
        ),
        initial_state=_plain(loaded.rules.view(loaded.initial, seat)),
        steps=steps,
        annotations=[Annotation(seq=0, kind=a.kind, text=a.text, by=a.by, recorded_at=a.recorded_at) for a in notes],
        variations=variations,
        outcome=Outcome(**final["outcome"]) if final["outcome"] else None,
    )


def export(referee: Referee, match_id: str, fmt: str, role: str = ARBITER) -> str:
    if fmt not in FORMATS:
        from .errors import BadInput

        raise BadInput("export/bad_format", f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    doc = document(referee, match_id, role)
    if fmt == "json":
        return msgspec.json.format(msgspec.json.encode(doc), indent=2).decode() + "\n"
    return {"txt": to_txt, "md": to_markdown, "html": to_html}[fmt](doc)


# -- txt: the transcript format --------------------------------------------------------------------


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fmt_opt(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def to_txt(doc: MatchExport) -> str:
    """The transcript format again. Every free text (annotations, comments, reasons, the title and the
    other metadata) is written with :func:`referee.transcript.escape_text`, so that whatever it says it
    reads back as that text and never as a move, an undo or a ruling."""
    m = doc.match
    out = [f"# {m.game_name} — exported by referee (as {doc.role})"]
    out += [f"# {escape_text(a.text)}" for a in doc.annotations if a.kind == "comment"]
    out.append(f"game: {m.game}")
    out.append(f"players: {', '.join(m.players)}")
    if m.cards:
        out.append(f"cards: {escape_text(m.cards)}")
    if m.decks:
        out.append("deck: " + ", ".join(f"{seat}={deck}" for seat, deck in m.decks.items()))
    for k, v in m.options.items():
        out.append(f"option: {k}={_fmt_opt(v)}")
    if m.chance == "digital":
        out.append(f"seed: {m.seed or 0}")
    if m.undo != "any":
        out.append(f"undo: {m.undo}")
    for key in ("title", "event", "date", "round", "table"):
        value = m.title if key == "title" and m.title else m.meta.get(key)
        if value:
            out.append(f"{key}: {escape_text(value)}")
    out.append("")
    for step in doc.steps:
        out.extend(_txt_entry(step.entry))
    return "\n".join(out) + "\n"


_MARK = {"good": "!", "mistake": "?"}
#: what a ruling annotation may not begin with bare: words that would make it act when read back
_ACTS = re.compile(r"^\s*(?:entry\s+\d+\s+)?(?:stands|rewind)", re.IGNORECASE)


def _reason(text: str) -> str:
    return f" reason={_q(escape_text(text))}"


def _txt_entry(e: EntryView) -> list[str]:
    lines: list[str] = []
    comment = e.meta.get("comment")
    tail = f"  # {escape_text(str(comment))}" if comment else ""
    number = e.meta.get("number")
    prefix = f"{number}. " if isinstance(number, int) else ""
    if e.kind == "intent":
        lines.append(f"{prefix}{e.actor}: {e.notation}{tail}")
    elif e.kind == "unparsed":
        lines.append(visible(e.notation))
    elif e.kind == "undo":
        m = e.meta
        reason = _reason(str(m.get("reason"))) if m.get("reason") else ""
        lines.append(f"undo: to={m.get('to')} by={e.actor}{reason}")
    elif e.kind == "redo":
        m = e.meta
        reason = _reason(str(m.get("reason"))) if m.get("reason") else ""
        lines.append(f"redo: undo={m.get('undo')} by={e.actor}{reason}")
    elif e.kind == "ruling":
        m = e.meta
        reason = f" — {escape_text(str(m.get('reason')), lead='-—:, ')}" if m.get("reason") else ""
        lines.append(f"ruling: entry {m.get('entry')} stands as played{reason}")
    for a in e.annotations:
        if a.kind in _MARK:
            lines.append(f"{_MARK[a.kind]} {escape_text(a.text, lead='!?')}")
        elif a.kind == "disputed":
            lines.append(f"disputed: {escape_text(a.text)}")
        elif a.kind == "ruling":
            text = escape_text(a.text)
            if _ACTS.match(text):  # an annotation that says "stands..." is not a ruling that acts
                text = f"\\u{ord(text[0]):04x}" + text[1:]
            lines.append(f"ruling: {text}")
        else:
            lines.append(f"# {escape_text(a.text)}")
    return lines


# -- markdown --------------------------------------------------------------------------------------


def _result(doc: MatchExport) -> str:
    if doc.outcome is None:
        return "not finished"
    winners = ", ".join(doc.outcome.winners)
    scores = ""
    if doc.outcome.scores:
        scores = " — scores " + ", ".join(f"{k} {v}" for k, v in doc.outcome.scores.items())
    return (f"**{winners}** won ({doc.outcome.reason})" if winners else f"draw ({doc.outcome.reason})") + scores


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~#])")


def _md_escape(text: str) -> str:
    """Free text as Markdown text that reads as itself where it stands (inside a list item, a quote or
    a table cell, never at the start of a line): the characters that make emphasis, links, code,
    strike-through, table cells or headings backslash-escaped, ``<`` and ``&`` as entities (no HTML
    gets through), and any line break or control character as ``\\uXXXX``."""
    text = visible(text).replace("&", "&amp;").replace("<", "&lt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_code(text: str) -> str:
    """Text as a Markdown code span: it cannot hold a backtick (shown as ``'``) or a line break."""
    return "`" + visible(text).replace("`", "'") + "`"


def _md_entry(e: EntryView, words: list[str]) -> list[str]:
    who = e.actor or "—"
    code = _md_code(f"{e.actor}: {e.notation}" if e.kind == "intent" else e.notation)
    if e.verdict == "accepted":
        mark = "✓"
    elif e.verdict == "rejected":
        mark = "✗"
    else:
        mark = "·"
    head = f"{e.seq}. {mark} {code}"
    if e.undone_by:
        head = f"{e.seq}. ~~{mark} {code}~~ *(undone by entry {e.undone_by})*"
    lines = [head]
    if e.verdict == "accepted" and e.manual:
        lines[0] += " — *declared effect, marked for audit*"
    if e.rejection is not None:
        rule = f" ({e.rejection.rule})" if e.rejection.rule else ""
        label = "unreadable" if e.kind == "unparsed" else "rejected"
        lines.append(f"   - **{label}** {_md_code(e.rejection.code)}: {_md_escape(e.rejection.message)}{_md_escape(rule)}")
    if e.kind in ("undo", "redo") and e.meta.get("reason"):
        lines.append(f"   - {who}: {_md_escape(str(e.meta['reason']))}")
    for w in words:
        lines.append(f"   - {_md_escape(w)}")
    if e.meta.get("comment"):
        lines.append(f"   - *# {_md_escape(str(e.meta['comment']))}*")
    for a in e.annotations:
        label = {"good": "!", "mistake": "?", "disputed": "disputed:", "ruling": "ruling:", "comment": "note:"}.get(a.kind, a.kind + ":")
        by = f" — {a.by}" if a.by and a.by != "transcript" else ""
        lines.append(f"   > {label} {_md_escape(a.text)}{by}")
    return lines


def to_markdown(doc: MatchExport) -> str:
    m = doc.match
    title = m.title or f"{m.game_name}: {' vs '.join(m.players)}"
    out = [f"# {_md_escape(title)}", ""]
    facts = [
        ("Game", f"{m.game_name} ({m.game}, rules {m.rules_version})"),
        ("Players", ", ".join(m.players)),
        ("Cards", m.cards or "—"),
        ("Chance", "physical (typed in)" if m.chance == "physical" else f"digital, seed {m.seed}"),
    ]
    facts += [(k.capitalize(), v) for k, v in m.meta.items() if k in ("event", "date", "round", "table")]
    if m.options:
        facts.append(("Options", ", ".join(f"{k}={_fmt_opt(v)}" for k, v in m.options.items())))
    if m.parent:
        facts.append(("Forked from", f"{m.parent} at entry {m.fork_seq}"))
    facts.append(("Result", _result(doc)))
    facts.append(("Seen as", "arbiter (everything)" if doc.role == ARBITER else
                  ("spectator (public information only)" if doc.role == SPECTATOR else f"{doc.role} (own view)")))
    out += ["| | |", "|---|---|"] + [f"| {k} | {_md_escape(str(v))} |" for k, v in facts] + [""]
    for a in doc.annotations:
        out.append(f"> {_md_escape(a.text)}")
    if doc.annotations:
        out.append("")
    counts = {"accepted": 0, "rejected": 0, "none": 0}
    for s in doc.steps:
        counts[s.entry.verdict] += 1
    out.append(f"{len(doc.steps)} entries: {counts['accepted']} accepted, {counts['rejected']} rejected"
               + (f", {counts['none']} unreadable lines" if counts["none"] else "") + ".")
    out += ["", "## Moves", ""]
    group = None
    for s in doc.steps:
        if s.group != group and s.group:
            out += ["", f"### {_md_escape(s.group)}", ""]
            group = s.group
        out += _md_entry(s.entry, s.words)
    for v in doc.variations:
        out += ["", f"## Variation from entry {v.fork_seq}: {_md_escape(v.title)} ({_md_code(v.match_id)})", ""]
        for s in v.steps:
            out += _md_entry(s.entry, s.words)
    out += ["", "## Result", "", _result(doc), ""]
    return "\n".join(out)


# -- html ------------------------------------------------------------------------------------------

_CSS = """
:root{--ok:#1b7f3b;--bad:#b3261e;--mute:#666;--bg:#fafaf7;--line:#ddd}
*{box-sizing:border-box}body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:var(--bg);color:#222}
header{padding:14px 16px;background:#24323f;color:#fff}header h1{font-size:1.25rem;margin:0 0 4px}
header .facts{font-size:.85rem;opacity:.9}main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;padding:14px}
@media (max-width:800px){main{grid-template-columns:1fr}}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 12px}
h2{font-size:1.05rem;margin:4px 0 8px}h3{font-size:.95rem;margin:14px 0 4px;color:#24323f}
ol{padding-left:0;list-style:none;margin:0}li.entry{padding:5px 6px;border-radius:6px;cursor:pointer}
li.entry:hover{background:#f1f4f8}li.entry.current{background:#e4ecf7;outline:1px solid #9bb4d6}
li.undone .move{text-decoration:line-through;color:var(--mute)}
.seq{display:inline-block;min-width:2.2em;color:var(--mute);font-variant-numeric:tabular-nums}
.ok{color:var(--ok);font-weight:600}.bad{color:var(--bad);font-weight:600}.move{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;word-break:break-word}
.why{color:var(--bad);font-size:.85em;margin-left:2.2em}.words{color:#333;font-size:.85em;margin-left:2.2em}
.note{font-size:.85em;margin-left:2.2em;color:#6b4e00}
.controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap;margin-bottom:8px}
.controls button{font-size:1rem;padding:6px 12px;border-radius:6px;border:1px solid #9bb4d6;background:#fff}
.controls input[type=range]{flex:1;min-width:140px}
table{border-collapse:collapse;width:100%;font-size:.85em}td{border-bottom:1px solid #eee;padding:3px 4px;vertical-align:top;word-break:break-word}
td.path{color:var(--mute);width:45%}tr.changed td{background:#fff4c2}
.result{font-weight:600}#state-title{font-weight:600;margin:4px 0}
table.board{table-layout:fixed}table.board td{border:1px solid #ccc;padding:4px;font-size:.8em;height:3.2em}
table.board th{color:var(--mute);font-weight:500;width:1.6em}table.board td.changed,table.seats td.changed{background:#fff4c2}
table.board .empty{color:#bbb;text-align:center}table.seats th{text-align:left;font-weight:600}
"""

_JS = """
const data = JSON.parse(document.getElementById('match-data').textContent);
const steps = data.steps; const slider = document.getElementById('slider');
const label = document.getElementById('state-title'); const body = document.getElementById('state-body');
const boardBox = document.getElementById('board'); const seatsBox = document.getElementById('seats');
const CELL = /^[A-Z][0-9]+$/;
function fmt(v){ return Array.isArray(v) ? (v.length ? v.map(x => typeof x === 'object' ? JSON.stringify(x) : String(x)).join(', ') : '—')
  : (v === null || v === undefined ? '—' : String(v)); }
function flat(v, p, out){ if (v && typeof v === 'object' && !Array.isArray(v)) { const ks = Object.keys(v);
  if (!ks.length && p) out[p] = '{}'; for (const k of ks) flat(v[k], p ? p + '.' + k : k, out); }
  else out[p] = fmt(v); return out; }
function stateAt(i){ return i === 0 ? data.initial_state : steps[i - 1].state; }
function el(tag, text, cls){ const e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
function isBoard(f){ const ks = f && typeof f === 'object' ? Object.keys(f) : []; return ks.length > 0 && ks.every(k => CELL.test(k)); }
function objText(slot, o){ if (!o || typeof o !== 'object') return '';
  let t = (slot === 'territory' ? '' : slot + ' ') + (o.card || '?') + ' (' + (o.controller || o.owner || '');
  if (o.loyalty !== undefined) t += ', ' + o.loyalty; if (o.face === 'down') t += ', face down';
  if (o.turned) t += ', turned'; if (o.shadow) t += ', shadow ' + o.shadow; t += ')';
  if (o.active_symbols && o.active_symbols.length) t += ' [' + o.active_symbols.join(',') + ']'; return t; }
function drawBoard(f, prev){ boardBox.innerHTML = ''; if (!isBoard(f)) return;
  const ks = Object.keys(f); const cols = [...new Set(ks.map(k => k[0]))].sort();
  const rows = [...new Set(ks.map(k => Number(k.slice(1))))].sort((a, b) => b - a);
  const t = el('table', undefined, 'board'); const head = el('tr'); head.append(el('th', ''));
  cols.forEach(c => head.append(el('th', c))); t.append(head);
  for (const r of rows) { const tr = el('tr'); tr.append(el('th', String(r)));
    for (const c of cols) { const cell = f[c + r] || {}; const td = el('td'); td.dataset.cell = c + r;
      for (const slot of ['territory', 'graffiti', 'agent']) { const s = objText(slot, cell[slot]); if (s) td.append(el('div', s)); }
      for (const a of (cell.attached || [])) td.append(el('div', 'attached ' + a.card));
      if (!td.childNodes.length) td.append(el('div', '·', 'empty'));
      if (prev && JSON.stringify(prev[c + r]) !== JSON.stringify(cell)) td.className = 'changed';
      tr.append(td); } t.append(tr); }
  boardBox.append(el('h3', 'Field'), t); }
function drawSeats(p, prev){ seatsBox.innerHTML = ''; if (!p || typeof p !== 'object' || Array.isArray(p)) return;
  const seats = Object.keys(p); if (!seats.length || !seats.every(s => p[s] && typeof p[s] === 'object')) return;
  const now = {}, before = {}; seats.forEach(s => { now[s] = flat(p[s], '', {}); before[s] = prev && prev[s] ? flat(prev[s], '', {}) : now[s]; });
  const keys = [...new Set(seats.flatMap(s => Object.keys(now[s])))];
  const t = el('table', undefined, 'seats'); const head = el('tr'); head.append(el('th', ''));
  seats.forEach(s => head.append(el('th', s))); t.append(head);
  for (const k of keys) { const tr = el('tr'); tr.append(el('td', k, 'path'));
    seats.forEach(s => { const td = el('td', now[s][k] === undefined ? '—' : now[s][k]); td.dataset.seat = s; td.dataset.key = k;
      if (before[s][k] !== now[s][k]) td.className = 'changed'; tr.append(td); }); t.append(tr); }
  seatsBox.append(el('h3', 'Players'), t); }
function show(i){ i = Math.max(0, Math.min(steps.length, i)); slider.value = i;
  const st = stateAt(i); const pst = i > 0 ? stateAt(i - 1) : null;
  const hasBoard = isBoard(st.field); const hasSeats = st.players && typeof st.players === 'object' && !Array.isArray(st.players);
  drawBoard(st.field, pst && pst.field); drawSeats(hasSeats ? st.players : null, pst && pst.players);
  const rest = {}; for (const k of Object.keys(st)) if (!(hasBoard && k === 'field') && !(hasSeats && k === 'players')) rest[k] = st[k];
  const prest = {}; if (pst) for (const k of Object.keys(rest)) prest[k] = pst[k];
  const now = flat(rest, '', {}); const before = pst ? flat(prest, '', {}) : now;
  label.textContent = i === 0 ? 'After setup' : 'After entry ' + steps[i - 1].entry.seq + ' (' + (steps[i-1].entry.actor || '—') + ': ' + steps[i - 1].entry.notation + ')';
  body.innerHTML = ''; for (const k of Object.keys(now)) { const tr = document.createElement('tr');
    if (before[k] !== now[k]) tr.className = 'changed'; const a = document.createElement('td'); a.className = 'path';
    a.textContent = k; const b = document.createElement('td'); b.textContent = now[k]; tr.append(a, b); body.append(tr); }
  document.querySelectorAll('li.entry').forEach(li => li.classList.toggle('current', Number(li.dataset.index) === i)); }
slider.max = steps.length; slider.addEventListener('input', () => show(Number(slider.value)));
document.getElementById('back').onclick = () => show(Number(slider.value) - 1);
document.getElementById('next').onclick = () => show(Number(slider.value) + 1);
document.querySelectorAll('li.entry').forEach(li => li.onclick = () => show(Number(li.dataset.index)));
document.addEventListener('keydown', e => { if (e.key === 'ArrowRight') show(Number(slider.value) + 1); if (e.key === 'ArrowLeft') show(Number(slider.value) - 1); });
show(steps.length);
"""


def _h(text: Any) -> str:
    return html.escape(visible(str(text)), quote=True)


def _html_entry(index: int, e: EntryView, words: list[str]) -> str:
    mark = {"accepted": '<span class="ok">✓</span>', "rejected": '<span class="bad">✗</span>'}.get(e.verdict, "·")
    cls = "entry undone" if e.undone_by else "entry"
    move = f"{e.actor}: {e.notation}" if e.kind == "intent" else e.notation
    parts = [f'<li class="{cls}" data-index="{index}" data-seq="{e.seq}"><span class="seq">{e.seq}.</span> {mark} '
             f'<span class="move">{_h(move)}</span>']
    if e.undone_by:
        parts.append(f' <em>(undone by entry {e.undone_by})</em>')
    if e.manual:
        parts.append(" <em>(declared effect, marked for audit)</em>")
    if e.rejection is not None:
        rule = f" ({_h(e.rejection.rule)})" if e.rejection.rule else ""
        parts.append(f'<div class="why">{_h(e.rejection.code)}: {_h(e.rejection.message)}{rule}</div>')
    if words:
        parts.append('<div class="words">' + "; ".join(_h(w) for w in words) + "</div>")
    if e.meta.get("comment"):
        parts.append(f'<div class="note"># {_h(e.meta["comment"])}</div>')
    for a in e.annotations:
        parts.append(f'<div class="note">{_h(a.kind)}: {_h(a.text)}</div>')
    parts.append("</li>")
    return "".join(parts)


def to_html(doc: MatchExport) -> str:
    m = doc.match
    title = m.title or f"{m.game_name}: {' vs '.join(m.players)}"
    facts = [f"{m.game_name} · rules {m.rules_version}", "players " + ", ".join(m.players)]
    facts += [f"{k} {v}" for k, v in m.meta.items() if k in ("event", "date", "round", "table")]
    facts.append("seen as " + doc.role)
    result = _result(doc).replace("**", "")
    items, group = [], None
    for i, s in enumerate(doc.steps, start=1):
        if s.group and s.group != group:
            items.append(f"</ol><h3>{_h(s.group)}</h3><ol>")
            group = s.group
        items.append(_html_entry(i, s.entry, s.words))
    variations = ""
    for v in doc.variations:
        variations += (f"<h3>Variation from entry {v.fork_seq}: {_h(v.title)}</h3><ol>"
                       + "".join(_html_entry(-1, s.entry, s.words) for s in v.steps) + "</ol>")
    payload = {"initial_state": doc.initial_state,
               "steps": [{"entry": {"seq": s.entry.seq, "actor": s.entry.actor, "notation": s.entry.notation},
                          "state": s.state} for s in doc.steps]}
    # inside <script>, "<" never appears as itself: no text can end the element or open a comment
    data = json.dumps(payload, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_h(title)}</title><style>{_CSS}</style></head>
<body><header><h1>{_h(title)}</h1><div class="facts">{_h(' · '.join(facts))}</div>
<div class="result">Result: {_h(result)}</div></header>
<main><section><h2>Moves</h2><ol>{''.join(items)}</ol>{variations}</section>
<section><h2>State</h2><div class="controls"><button id="back" aria-label="back">◀ Back</button>
<input id="slider" type="range" min="0" value="0" aria-label="entry"><button id="next" aria-label="next">Next ▶</button></div>
<div id="state-title"></div><div id="board"></div><div id="seats"></div>
<h3>Turn and match</h3><table><tbody id="state-body"></tbody></table></section></main>
<script type="application/json" id="match-data">{data}</script>
<script>{_JS}</script></body></html>
"""
