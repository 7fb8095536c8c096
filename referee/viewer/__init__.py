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
from ..i18n import N_, gettext
from ..pagelang import words as page_words
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
_PROBLEM_WORDS = {"rejected": N_("rejected"), "unreadable": N_("unreadable"), "disputed": N_("disputed"),
                  "ruling": N_("ruling"), "undo": N_("undo"), "redo": N_("redo"), "declared": N_("declared effect"),
                  "held": N_("waits for a confirmation"), "mistake": N_("marked a mistake")}
#: an annotation's kind as a note shows it
_NOTE_WORDS = {"comment": N_("comment"), "disputed": N_("disputed"), "ruling": N_("ruling"), "mistake": N_("mistake")}
#: the match's facts a viewer names beside the game
_FACT_WORDS = {"event": N_("event"), "date": N_("date"), "round": N_("round"), "table": N_("table")}


def _refused(e: EntryView, game: Any) -> tuple[str, str]:
    """A rejection's message and rule citation as the reader reads them: as recorded (the citation's English
    headings) in English, through the game's templates and rulebook in another language."""
    from .. import i18n

    rej = e.rejection
    assert rej is not None
    if i18n.current() == "en" or game is None:
        return rej.message, rej.rule_english or rej.rule
    return i18n.refusal(game.messages, rej.code, rej.message), i18n.citation(game.rulebook, rej.rule)


def problems_of(e: EntryView, game: Any = None) -> list[tuple[str, str]]:
    """What about an entry a reader checking the match must see: (kind, short text) pairs, in the reader's
    language (a refusal read through ``game``'s templates)."""
    out: list[tuple[str, str]] = []
    if e.rejection is not None:
        out.append(("unreadable" if e.kind == "unparsed" else "rejected", f"{e.rejection.code}: {_refused(e, game)[0]}"))
    if e.kind == "ruling":
        reason = e.meta.get("reason")
        out.append(("ruling", gettext("entry {n} stands as played", n=e.meta.get("entry"))
                    + (f" — {reason}" if reason else "")))
    if e.kind in ("undo", "redo"):
        m = e.meta
        what = (gettext("back to entry {n}", n=m.get("to")) if e.kind == "undo" else
                gettext("undo {n} taken back", n=m.get("undo")))
        out.append((e.kind, what + (f" — {m.get('reason')}" if m.get("reason") else "")))
    if e.manual and e.verdict == "accepted":
        out.append(("declared", gettext("declared effect, marked for audit")))
    if e.verdict == "held":
        out.append(("held", gettext("waits for {seat} to confirm it", seat=e.meta.get("confirmer", ""))))
    for a in e.annotations:
        if a.kind in ("disputed", "ruling", "mistake"):
            out.append((a.kind, a.text))
    return out


def _move(e: EntryView) -> str:
    return f"{e.actor}: {e.notation}" if e.kind == "intent" else e.notation


def _entry(e: EntryView, words: list[str], frame: dict[str, Any] | None, index: int | None,
           inner: str = "", earlier: dict[int, str] | None = None, game: Any = None) -> str:
    t = page_words(N_("accepted"), N_("rejected"), N_("held"), N_("declared effect, marked for audit"))
    mark = {"accepted": f'<span class="ok" title="{t["accepted"]}">✓</span>',
            "rejected": f'<span class="bad" title="{t["rejected"]}">✗</span>',
            "held": f'<span class="held" title="{t["held"]}">⏸</span>'}.get(e.verdict, '<span class="none">·</span>')
    cls = ["entry"] + (["undone"] if e.undone_by else []) + (["flagged"] if problems_of(e, game) else [])
    move = _move(e)
    if index is None:  # a variation's move: listed, not stepped through
        parts = [f'<li class="{" ".join(cls)}"><span class="seq">{e.seq}.</span> {mark} <span class="move">{_h(move)}</span>']
    else:
        link = gettext("link to entry {n}", n=e.seq)
        parts = [f'<li class="{" ".join(cls)}" id="{e.seq}" data-index="{index}" data-seq="{e.seq}" data-move="{_h(move)}">'
                 f'<a class="seq" href="#{e.seq}" title="{link}">{e.seq}.</a> {mark} '
                 f'<span class="move">{_h(move)}</span>']
    at = e.meta.get("line") if e.meta else None
    if isinstance(at, int) and not isinstance(at, bool):
        names, where = gettext("line:{n} names this entry", n=at), gettext("from line {n}", n=at)
        parts.append(f' <span class="line" title="{names}">{where}</span>')
    if frame is not None:
        parts.append(f'<script type="application/json" class="state">{_data(frame)}</script>')
    if e.undone_by:
        undone = gettext("undone by entry {n}", n=e.undone_by)
        parts.append(f' <em>({undone})</em>')
    if amended(e, earlier):
        parts.append(f'<div class="note ruling">{_h(amended(e, earlier))}</div>')
    if e.manual:
        parts.append(f" <em>({t['declared effect, marked for audit']})</em>")
    if e.verdict == "held":
        waits = gettext("waits for {seat} to confirm it", seat=e.meta.get("confirmer", ""))
        parts.append(f" <em>({_h(waits)})</em>")
    if e.rejection is not None:
        message, cited = _refused(e, game)
        rule = f" ({_h(cited)})" if e.rejection.rule else ""
        parts.append(f'<div class="why">{_h(e.rejection.code)}: {_h(message)}{rule}</div>')
    if e.kind in ("undo", "redo", "ruling") and e.meta.get("reason"):
        parts.append(f'<div class="words">{_h(e.actor or "")}: {_h(e.meta["reason"])}</div>')
    if words:
        parts.append('<div class="words">' + "; ".join(_h(w) for w in words) + "</div>")
    if e.meta.get("comment"):
        parts.append(f'<div class="note"># {_h(e.meta["comment"])}</div>')
    for a in e.annotations:
        by = f" — {_h(a.by)}" if a.by and a.by != "transcript" else ""
        kind = gettext(_NOTE_WORDS[a.kind]) if a.kind in _NOTE_WORDS else a.kind
        parts.append(f'<div class="note {_h(a.kind)}">{_h(kind)}: {_h(a.text)}{by}</div>')
    parts.append(inner)
    parts.append("</li>")
    return "".join(parts)


def _variation(src: Source, fork_id: str, fork_seq: int, title: str) -> Iterator[str]:
    t = page_words(N_("no moves of its own yet"))
    head = gettext("Variation from entry {n}: {title}", n=fork_seq, title=title)
    yield (f'<div class="variation"><div class="vhead">{_h(head)} '
           f'<code>{_h(fork_id)}</code></div><ol>')
    count = 0
    for step in src.steps(src.load(fork_id), fork_seq + 1, states=False):
        count += 1
        yield _entry(step.entry, step.words, None, None, game=src.loaded.game)
    if not count:
        yield f'<li class="entry empty">{t["no moves of its own yet"]}</li>'
    yield "</ol></div>"


def page(src: Source) -> Iterator[str]:
    """The viewer for ``src``'s role, a piece at a time."""
    from .. import i18n
    from ..pagelang import prelude

    m = src.match
    game = src.loaded.game
    versus = gettext(" vs ")
    title = m.title or f"{m.game_name}: {versus.join(m.players)}"
    facts = [gettext("{game} · rules {version}", game=m.game_name, version=m.rules_version),
             gettext("players {names}", names=", ".join(m.players))]
    facts += [f"{gettext(_FACT_WORDS[k])} {v}" for k, v in m.meta.items() if k in _FACT_WORDS]
    if m.parent:
        facts.append(gettext("forked from {parent} at entry {n}", parent=m.parent, n=m.fork_seq))
    seen = (gettext("the arbiter (everything)") if src.role == ARBITER else
            gettext("a spectator (public information only)") if src.role == SPECTATOR else
            gettext("{role} (what {role} may see)", role=src.role))
    lang = i18n.current()
    ended = outcome_words(src.head, gettext) if src.head is not None else gettext("not finished")
    result = gettext("Result: {result}", result=ended)
    seen_as = gettext("Seen as {who}", who=seen)
    rules = src.loaded.rules
    frames = Frames(rules)
    initial = frames.frame(src.view.state(src.loaded.initial))
    forks: dict[int, list[tuple[str, int, str]]] = {}
    for fork in src.forks:
        forks.setdefault(fork[1], []).append(fork)
    t = page_words(N_("the table after the current entry"), N_("first (Home)"), N_("first"), N_("back (←)"), N_("back"),
              N_("entry"), N_("next (→)"), N_("next"), N_("last (End)"), N_("last"),
              N_("details (object ids, cursors, internal fields)"), N_("Every field as stored"),
              N_("Keys: ← → one entry · Home End · n p next/previous problem · every entry number is a link"),
              N_("Moves"), N_("No rejected lines, disputes, rulings, undos or declared effects."),
              N_("problems and disputes"))
    yield f"""<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_h(title)}</title><style>{_asset("viewer.css")}</style></head>
<body><header><h1>{_h(title)}</h1><div class="facts">{_h(' · '.join(facts))}</div>
<div class="result">{_h(result)}</div><div class="role">{_h(seen_as)}</div></header>
<main id="viewer" data-players="{_h(_data(list(m.players)))}">
<section id="board" aria-label="{t["the table after the current entry"]}">
<div class="controls"><button id="first" title="{t["first (Home)"]}" aria-label="{t["first"]}">«</button><button id="back" title="{t["back (←)"]}" aria-label="{t["back"]}">◀</button>
<input id="slider" type="range" min="0" value="0" aria-label="{t["entry"]}"><button id="next" title="{t["next (→)"]}" aria-label="{t["next"]}">▶</button><button id="last" title="{t["last (End)"]}" aria-label="{t["last"]}">»</button></div>
<div id="headline"></div><div id="now" aria-live="polite"></div><div id="legend"></div><div id="boards"></div><div id="sections"></div>
<label class="toggle"><input type="checkbox" id="show-details"> {t["details (object ids, cursors, internal fields)"]}</label>
<div id="raw" hidden><h3>{t["Every field as stored"]}</h3><table><tbody id="state-body"></tbody></table></div>
<p class="keys">{t["Keys: ← → one entry · Home End · n p next/previous problem · every entry number is a link"]}</p>
</section>
<section id="moves-panel"><h2>{t["Moves"]}</h2>
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
        found = problems_of(e, game)
        if found:
            tags = "".join(f'<span class="tag {kind}">{_h(gettext(_PROBLEM_WORDS[kind]))}</span>'
                           for kind in dict.fromkeys(k for k, _w in found))
            what = " · ".join(_h(w) for _k, w in found)
            problems.append(f'<li><a href="#{e.seq}" data-seq="{e.seq}">{tags} <b>{e.seq}.</b> <span class="move">{_h(_move(e))}</span> '
                            f'<span class="what">— {what}</span></a></li>')
        inner = "".join(piece for fork in forks.pop(e.seq, []) for piece in _variation(src, *fork))
        yield head + _entry(e, step.words, frames.frame(step.state), i, inner, earlier, game)
        if e.kind in ("intent", "unparsed"):
            earlier[e.seq] = _move(e)
    yield "</ol>"
    for fork in (f for at in sorted(forks) for f in forks[at]):  # forked before the first entry or past the last
        yield from _variation(src, *fork)
    count = f"{len(problems)}" if problems else gettext("none")
    heading = gettext("Problems and disputes ({count})", count=count)
    listed = ("<ol>" + "".join(problems) + "</ol>" if problems else
              f'<p>{t["No rejected lines, disputes, rulings, undos or declared effects."]}</p>')
    script = _asset("viewer.js")
    yield f"""</div></section></main>
<nav id="problems" aria-label="{t["problems and disputes"]}"{'' if problems else ' class="clear"'}><h2>{heading}</h2>
{listed}</nav>
<script>"use strict";
{prelude(lang, script, False)}</script>
<script>{script}</script></body></html>
"""
