"""The HTML match viewer: one self-contained page (``export --format html``) to read a match back.

The page is written in one walk over the log, a move at a time (as every export is, through
:mod:`referee.redaction` for one role). Each move's list item carries what the viewer draws after it:
the game's boards (drawn as pictures from their pieces), its sections in words, the card names of the
ids the role's view shows, and every field of the view (behind "details") — each as a change from
the move before, so a long match stays small. The style and the script are package files
(``viewer.css``, ``viewer.js``) written into the page: no network, nothing to fetch.

The problems and disputes (rejected lines, disputes, rulings, undos, declared effects) are collected
on the walk and written last; the style shows them at the top.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Iterator
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

import msgspec

from schemas import ARBITER, SPECTATOR, EntryView

from ..engine.present import board_strings, names_in
from ..engine.present import leaves as present_leaves
from ..entryref import amended
from ..engine.present import text
from ..inputs import visible
from ..outcome import words as outcome_words

if TYPE_CHECKING:
    from ..exportsource import Source


@cache
def _asset(name: str) -> str:
    return files(__package__).joinpath(name).read_text(encoding="utf-8")


def _h(value: Any) -> str:
    return html.escape(visible(str(value)), quote=True)


def _data(value: Any) -> str:
    """JSON for the page's script (never with a bare ``<``, so it cannot end its script element)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def patch(old: Any, new: Any) -> list[Any]:
    """How to make ``new`` from ``old`` (which differ), as the page's script applies it: ``["=", v]``
    (``v`` whole), ``["~", {index: patch}]`` (a list of the same length, some items changed) or
    ``["{", {key: patch}, [keys gone]]`` (a mapping)."""
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {k: (patch(old[k], v) if k in old else ["=", v]) for k, v in new.items() if k not in old or old[k] != v}
        return ["{", changed, [k for k in old if k not in new]]
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and len(old) == len(new):
        return ["~", {str(i): patch(o, n) for i, (o, n) in enumerate(zip(old, new)) if o != n}]
    return ["=", new]


class Frames:
    """What the viewer draws after each entry, as the change from the entry before: the boards
    (``b``) and sections (``s``) as a :func:`patch` when they differ, the game's one-line headline
    (``h``: whose turn, the score) when it changes, the fields that changed (``f``) or went (``x``),
    and the printed names of the ids (cards, locations, offices) seen for the first time (``n``): the
    script shows a name where the drawing or a field has the id, the id on hover."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.boards: Any = None
        self.sections: Any = None
        self.headline: str | None = None
        self.leaves: dict[str, Any] = {}
        self.asked: set[str] = set()
        #: the texts whose words are all in ``asked`` (a text read before names nothing new)
        self.read: set[str] = set()

    def _names(self, texts: Iterable[str]) -> dict[str, str]:
        """:func:`names_in` of the texts not read before (the same names: the words of a text read
        before are all asked already), so a board that changes in one place is not read whole again."""
        fresh = [t for t in texts if t not in self.read]
        self.read.update(fresh)
        return names_in(fresh, self.rules.name_of, self.asked)

    def frame(self, view: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        every = self.rules.boards(view)  # drawn once: the sections take the same drawing
        drawn = tuple(b for b in every if b.layout != "tableau")
        worded = self.rules.sections(view, every)
        boards = msgspec.to_builtins(drawn)
        sections = msgspec.to_builtins(worded)
        names: dict[str, str] = {}
        if boards != self.boards:
            out["b"] = patch(self.boards, boards)
            self.boards = boards
            names.update(self._names(board_strings(drawn)))
        if sections != self.sections:
            out["s"] = patch(self.sections, sections)
            self.sections = sections
            names.update(self._names(board_strings(worded)))
        headline = self.rules.headline(view)
        if headline != self.headline:
            out["h"] = self.headline = headline
            names.update(self._names((headline,)))
        leaves = present_leaves(view)
        before = self.leaves
        changed = {k: v for k, v in leaves.items()
                   if k not in before or type(before[k]) is not type(v) or before[k] != v}
        gone = [k for k in before if k not in leaves]
        if changed:
            out["f"] = {k: text(v) for k, v in changed.items()}
        if gone:
            out["x"] = gone
        self.leaves = leaves
        # an id first shown is in a field or a drawing that changed
        names.update(self._names(s for s in _strings(list(changed.values())) if len(s) <= 64))
        if names:
            out["n"] = names
        return out


#: the kinds of problem the list at the top names, in the words it shows them with
_PROBLEM_WORDS = {"rejected": "rejected", "unreadable": "unreadable", "disputed": "disputed", "ruling": "ruling",
                  "undo": "undo", "redo": "redo", "declared": "declared effect", "held": "waits for a confirmation",
                  "mistake": "marked a mistake"}


def problems_of(e: EntryView) -> list[tuple[str, str]]:
    """What about an entry a reader checking the match must see: (kind, short text) pairs."""
    out: list[tuple[str, str]] = []
    if e.rejection is not None:
        out.append(("unreadable" if e.kind == "unparsed" else "rejected", f"{e.rejection.code}: {e.rejection.message}"))
    if e.kind == "ruling":
        reason = e.meta.get("reason")
        out.append(("ruling", f"entry {e.meta.get('entry')} stands as played" + (f" — {reason}" if reason else "")))
    if e.kind in ("undo", "redo"):
        m = e.meta
        what = f"back to entry {m.get('to')}" if e.kind == "undo" else f"undo {m.get('undo')} taken back"
        out.append((e.kind, what + (f" — {m.get('reason')}" if m.get("reason") else "")))
    if e.manual and e.verdict == "accepted":
        out.append(("declared", "declared effect, marked for audit"))
    if e.verdict == "held":
        out.append(("held", f"waits for {e.meta.get('confirmer', '')} to confirm it"))
    for a in e.annotations:
        if a.kind in ("disputed", "ruling", "mistake"):
            out.append((a.kind, a.text))
    return out


def _move(e: EntryView) -> str:
    return f"{e.actor}: {e.notation}" if e.kind == "intent" else e.notation


def _entry(e: EntryView, words: list[str], frame: dict[str, Any] | None, index: int | None,
           inner: str = "", earlier: dict[int, str] | None = None) -> str:
    mark = {"accepted": '<span class="ok" title="accepted">✓</span>', "rejected": '<span class="bad" title="rejected">✗</span>',
            "held": '<span class="held" title="held">⏸</span>'}.get(e.verdict, '<span class="none">·</span>')
    cls = ["entry"] + (["undone"] if e.undone_by else []) + (["flagged"] if problems_of(e) else [])
    move = _move(e)
    if index is None:  # a variation's move: listed, not stepped through
        parts = [f'<li class="{" ".join(cls)}"><span class="seq">{e.seq}.</span> {mark} <span class="move">{_h(move)}</span>']
    else:
        parts = [f'<li class="{" ".join(cls)}" id="{e.seq}" data-index="{index}" data-seq="{e.seq}" data-move="{_h(move)}">'
                 f'<a class="seq" href="#{e.seq}" title="link to entry {e.seq}">{e.seq}.</a> {mark} '
                 f'<span class="move">{_h(move)}</span>']
    at = e.meta.get("line") if e.meta else None
    if isinstance(at, int) and not isinstance(at, bool):
        parts.append(f' <span class="line" title="line:{at} names this entry">from line {at}</span>')
    if frame is not None:
        parts.append(f'<script type="application/json" class="state">{_data(frame)}</script>')
    if e.undone_by:
        parts.append(f' <em>(undone by entry {e.undone_by})</em>')
    if amended(e, earlier):
        parts.append(f'<div class="note ruling">{_h(amended(e, earlier))}</div>')
    if e.manual:
        parts.append(" <em>(declared effect, marked for audit)</em>")
    if e.verdict == "held":
        parts.append(f" <em>(waits for {_h(e.meta.get('confirmer', ''))} to confirm it)</em>")
    if e.rejection is not None:
        rule = f" ({_h(e.rejection.rule_english or e.rejection.rule)})" if e.rejection.rule else ""
        parts.append(f'<div class="why">{_h(e.rejection.code)}: {_h(e.rejection.message)}{rule}</div>')
    if e.kind in ("undo", "redo", "ruling") and e.meta.get("reason"):
        parts.append(f'<div class="words">{_h(e.actor or "")}: {_h(e.meta["reason"])}</div>')
    if words:
        parts.append('<div class="words">' + "; ".join(_h(w) for w in words) + "</div>")
    if e.meta.get("comment"):
        parts.append(f'<div class="note"># {_h(e.meta["comment"])}</div>')
    for a in e.annotations:
        by = f" — {_h(a.by)}" if a.by and a.by != "transcript" else ""
        parts.append(f'<div class="note {_h(a.kind)}">{_h(a.kind)}: {_h(a.text)}{by}</div>')
    parts.append(inner)
    parts.append("</li>")
    return "".join(parts)


def _variation(src: Source, fork_id: str, fork_seq: int, title: str) -> Iterator[str]:
    yield (f'<div class="variation"><div class="vhead">Variation from entry {fork_seq}: {_h(title)} '
           f'<code>{_h(fork_id)}</code></div><ol>')
    count = 0
    for step in src.steps(src.load(fork_id), fork_seq + 1, states=False):
        count += 1
        yield _entry(step.entry, step.words, None, None)
    if not count:
        yield '<li class="entry empty">no moves of its own yet</li>'
    yield "</ol></div>"


def page(src: Source) -> Iterator[str]:
    """The viewer for ``src``'s role, a piece at a time."""
    m = src.match
    title = m.title or f"{m.game_name}: {' vs '.join(m.players)}"
    facts = [f"{m.game_name} · rules {m.rules_version}", "players " + ", ".join(m.players)]
    facts += [f"{k} {v}" for k, v in m.meta.items() if k in ("event", "date", "round", "table")]
    if m.parent:
        facts.append(f"forked from {m.parent} at entry {m.fork_seq}")
    seen = ("the arbiter (everything)" if src.role == ARBITER else
            "a spectator (public information only)" if src.role == SPECTATOR else f"{src.role} (what {src.role} may see)")
    rules = src.loaded.rules
    frames = Frames(rules)
    initial = frames.frame(src.view.state(src.loaded.initial))
    forks: dict[int, list[tuple[str, int, str]]] = {}
    for fork in src.forks:
        forks.setdefault(fork[1], []).append(fork)
    yield f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_h(title)}</title><style>{_asset("viewer.css")}</style></head>
<body><header><h1>{_h(title)}</h1><div class="facts">{_h(' · '.join(facts))}</div>
<div class="result">Result: {_h(outcome_words(src.head))}</div><div class="role">Seen as {_h(seen)}</div></header>
<main id="viewer" data-players="{_h(_data(list(m.players)))}">
<section id="board" aria-label="the table after the current entry">
<div class="controls"><button id="first" title="first (Home)" aria-label="first">«</button><button id="back" title="back (←)" aria-label="back">◀</button>
<input id="slider" type="range" min="0" value="0" aria-label="entry"><button id="next" title="next (→)" aria-label="next">▶</button><button id="last" title="last (End)" aria-label="last">»</button></div>
<div id="headline"></div><div id="now" aria-live="polite"></div><div id="legend"></div><div id="boards"></div><div id="sections"></div>
<label class="toggle"><input type="checkbox" id="show-details"> details (object ids, cursors, internal fields)</label>
<div id="raw" hidden><h3>Every field as stored</h3><table><tbody id="state-body"></tbody></table></div>
<p class="keys">Keys: ← → one entry · Home End · n p next/previous problem · every entry number is a link</p>
</section>
<section id="moves-panel"><h2>Moves</h2>
<script type="application/json" id="initial">{_data(initial)}</script><div id="moves"><ol>"""
    group = None
    problems: list[str] = []
    earlier: dict[int, str] = {}  # the lines shown so far, for a correction's "was"
    for i, step in enumerate(src.steps(), start=1):
        head = ""
        if step.group and step.group != group:
            head = f"</ol><h3>{_h(step.group)}</h3><ol>"
            group = step.group
        e = step.entry
        found = problems_of(e)
        if found:
            tags = "".join(f'<span class="tag {kind}">{_h(_PROBLEM_WORDS[kind])}</span>' for kind in dict.fromkeys(k for k, _ in found))
            what = " · ".join(_h(w) for _, w in found)
            problems.append(f'<li><a href="#{e.seq}" data-seq="{e.seq}">{tags} <b>{e.seq}.</b> <span class="move">{_h(_move(e))}</span> '
                            f'<span class="what">— {what}</span></a></li>')
        inner = "".join(piece for fork in forks.pop(e.seq, []) for piece in _variation(src, *fork))
        yield head + _entry(e, step.words, frames.frame(step.state), i, inner, earlier)
        if e.kind in ("intent", "unparsed"):
            earlier[e.seq] = _move(e)
    yield "</ol>"
    for fork in (f for at in sorted(forks) for f in forks[at]):  # forked before the first entry or past the last
        yield from _variation(src, *fork)
    count = f"{len(problems)}" if problems else "none"
    yield f"""</div></section></main>
<nav id="problems" aria-label="problems and disputes"{'' if problems else ' class="clear"'}><h2>Problems and disputes ({count})</h2>
{'<ol>' + ''.join(problems) + '</ol>' if problems else '<p>No rejected lines, disputes, rulings, undos or declared effects.</p>'}</nav>
<script>{_asset("viewer.js")}</script></body></html>
"""
