"""Exports of a match for people and programs: txt (the transcript format again), md, html, json.

Every export is one walk over the log through :mod:`referee.redaction`, the one place that decides what
a role sees: states through the game's ``view`` for that role, entries as that role sees them, and the
words built from the events as that role sees them. A seat's export never names another seat's hidden
cards — not in the state, the events, the words or undone lines.

Exports are *streamed*: :func:`export_chunks` yields the text a piece at a time while it walks the log,
keeping nothing but the state in hand, so a 20,000-entry match costs the memory of one entry (the HTTP
service sends the pieces as they come). :func:`export` joins them.

Roles: ``arbiter`` (everything; the only role whose txt export re-imports to the same match),
a seat name, or ``spectator`` (what every seat may see).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import msgspec

from schemas import (
    ARBITER,
    EXPORT_FORMAT,
    SPECTATOR,
    EntryView,
    ExportMatch,
    MatchExport,
    Outcome,
)

from .errors import BadInput
from .exportsource import Source, source
from .history import Reader
from .i18n import N_, gettext, refused, speaking_each
from .entryref import amended, typed
from .freetext import escape_text
from .inputs import visible
from .outcome import words as outcome_words
from .engine.codes import ExportCode

FORMATS = ("txt", "md", "html", "json")


def document(referee: Reader, match_id: str, role: str = ARBITER) -> MatchExport:
    """The whole export as one value (tests and small matches; :func:`export_chunks` streams it)."""
    src = source(referee, match_id, role)
    return msgspec.json.decode(b"".join(c.encode() for c in speaking_each("en", _json(src))), type=MatchExport)


def export(referee: Reader, match_id: str, fmt: str, role: str = ARBITER) -> str:
    return "".join(export_chunks(referee, match_id, fmt, role))


def export_chunks(referee: Reader, match_id: str, fmt: str, role: str = ARBITER) -> Iterator[str]:
    """The export as pieces of text, produced while the log is walked (nothing is built whole)."""
    if fmt not in FORMATS:
        raise BadInput.said(ExportCode.BAD_FORMAT, N_("format must be one of {formats}, not {format}"),
                            formats=", ".join(FORMATS), format=repr(fmt))
    src = source(referee, match_id, role)  # errors (an unknown match or seat) before the first piece
    if fmt == "json":  # what programs read: its words in English, whatever the reader's language
        return speaking_each("en", _json(src))
    return {"txt": _txt, "md": _markdown, "html": _html}[fmt](src)


# -- json ------------------------------------------------------------------------------------------


def _indented(value: Any, pad: str) -> str:
    text = msgspec.json.format(msgspec.json.encode(value), indent=2).decode()
    return text.replace("\n", "\n" + pad)


def _json(src: Source) -> Iterator[str]:
    """The :class:`schemas.MatchExport` document, written a step at a time (same shape and keys as
    encoding it whole, validated against ``schemas/match-export.schema.json``)."""
    loaded = src.loaded
    yield "{\n"
    yield f'  "format": {_indented(EXPORT_FORMAT, "  ")},\n'
    yield f'  "role": {_indented(src.role, "  ")},\n'
    yield f'  "match": {_indented(src.match, "  ")},\n'
    yield f'  "initial_state": {_indented(src.view.state(loaded.initial), "  ")},\n'
    yield '  "steps": ['
    first = True
    for step in src.steps():
        yield ("\n    " if first else ",\n    ") + _indented(step, "    ")
        first = False
    yield ("\n  ],\n" if not first else "],\n")
    yield f'  "annotations": {_indented(src.notes, "  ")},\n'
    yield '  "variations": ['
    first = True
    for fork_id, fork_seq, title in src.forks:
        fl = src.load(fork_id)
        yield ("\n    " if first else ",\n    ") + "{\n"
        yield f'      "match_id": {json.dumps(fork_id)},\n      "fork_seq": {fork_seq},\n'
        yield f'      "title": {json.dumps(title, ensure_ascii=False)},\n      "steps": ['
        inner = True
        for step in src.steps(fl, fork_seq + 1):
            yield ("\n        " if inner else ",\n        ") + _indented(step, "        ")
            inner = False
        yield ("\n      ]\n    }" if not inner else "]\n    }")
        first = False
    yield ("\n  ],\n" if not first else "],\n")
    yield f'  "outcome": {_indented(src.head, "  ")}\n'
    yield "}\n"


# -- txt: the transcript format --------------------------------------------------------------------


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fmt_opt(value: Any) -> str:
    """An option's value as typed: true/false, a,b,c for a list, name:value,… for a map."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def _seed_lines(m: ExportMatch) -> list[str]:
    if m.chance != "digital":
        return []
    if m.seed is not None:
        return [f"seed: {m.seed}"]
    # a seat's or a spectator's export while the match goes on: the seed is the arbiter's
    return ["chance: digital", f"# the seed is kept by the arbiter until the match ends; its commitment is {m.seed_commitment}"]


def _txt(src: Source) -> Iterator[str]:
    """The transcript format again. Every free text (annotations, comments, reasons, the title and the
    other metadata) is written with :func:`referee.transcript.escape_text`, so that whatever it says it
    reads back as that text and never as a move, an undo or a ruling."""
    m = src.match
    out = [f"# {m.game_name} — exported by referee (as {src.role})"]
    out += [f"# {escape_text(a.text)}" for a in src.notes if a.kind == "comment"]
    out.append(f"game: {m.game}")
    out.append(f"players: {', '.join(m.players)}")
    if m.cards:
        out.append(f"cards: {escape_text(m.cards)}")
    if m.decks:
        out.append("deck: " + ", ".join(f"{seat}={deck}" for seat, deck in m.decks.items()))
    for k, v in m.options.items():
        out.append(f"option: {k}={_fmt_opt(v)}")
    out += _seed_lines(m)
    if m.undo != "any":
        out.append(f"undo: {m.undo}")
    for key in ("title", "event", "date", "round", "table"):
        value = m.title if key == "title" and m.title else m.meta.get(key)
        if value:
            out.append(f"{key}: {escape_text(value)}")
    if src.head is not None:  # as PGN's Result tag: a record that reads as a record (checked on import)
        out.append(f"result: {escape_text(_result(src.head))}")
    yield "\n".join(out) + "\n\n"
    earlier: dict[int, str] = {}  # the lines written so far, for a correction's "was"
    for step in src.steps(states=False):
        e = step.entry
        said = amended(e, earlier)  # a comment before the corrected line (read back, a comment of the undo)
        yield (f"# {escape_text(said)}\n" if said else "") + "".join(line + "\n" for line in _txt_entry(e))
        if e.kind in ("intent", "unparsed"):
            earlier[e.seq] = typed(e)


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
    elif e.kind == "confirm":
        m = e.meta
        reason = _reason(str(m.get("reason"))) if m.get("reason") else ""
        lines.append(f"{m.get('decision', 'confirm')}: entry={m.get('entry')} by={e.actor}{reason}")
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


def _result(outcome: Outcome | None) -> str:
    return outcome_words(outcome)


def _chance(m: ExportMatch) -> str:
    if m.chance == "physical":
        return "physical (typed in)"
    if m.seed is not None:
        return f"digital, seed {m.seed}" + (f" (commitment {m.seed_commitment})" if m.seed_commitment else "")
    return f"digital; the seed is the arbiter's until the match ends (commitment {m.seed_commitment})"


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


def _md_entry(e: EntryView, words: list[str], earlier: dict[int, str] | None = None, game: str = "") -> list[str]:
    who = e.actor or "—"
    code = _md_code(f"{e.actor}: {e.notation}" if e.kind == "intent" else e.notation)
    mark = {"accepted": "✓", "rejected": "✗", "held": "⏸"}.get(e.verdict, "·")
    head = f"{e.seq}. {mark} {code}"
    if e.undone_by:
        head = f"{e.seq}. ~~{mark} {code}~~ *({gettext('undone by entry {n}', n=e.undone_by)})*"
    lines = [head]
    if amended(e, earlier):
        lines.append(f"   - *{_md_escape(amended(e, earlier))}*")
    if e.verdict == "accepted" and e.manual:
        lines[0] += f" — *{gettext('declared effect, marked for audit')}*"
    if e.verdict == "held":
        lines[0] += f" — *{gettext('waits for {seat} to confirm it', seat=_md_escape(str(e.meta.get('confirmer', ''))))}*"
    if e.rejection is not None:  # in the reader's language, through the game's templates
        message, cited = refused(game, e.rejection.code, e.rejection.message, e.rejection.rule, e.rejection.rule_english)
        rule = f" ({cited})" if e.rejection.rule else ""
        label = gettext("unreadable") if e.kind == "unparsed" else gettext("rejected")
        lines.append(f"   - **{label}** {_md_code(e.rejection.code)}: {_md_escape(message)}{_md_escape(rule)}")
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


def _markdown(src: Source) -> Iterator[str]:
    m = src.match
    title = m.title or f"{m.game_name}: {' vs '.join(m.players)}"
    out = [f"# {_md_escape(title)}", ""]
    facts = [
        ("Game", f"{m.game_name} ({m.game}, rules {m.rules_version})"),
        ("Players", ", ".join(m.players)),
        ("Cards", m.cards or "—"),
        ("Chance", _chance(m)),
    ]
    facts += [(k.capitalize(), v) for k, v in m.meta.items() if k in ("event", "date", "round", "table")]
    if m.options:
        facts.append(("Options", ", ".join(f"{k}={_fmt_opt(v)}" for k, v in m.options.items())))
    if m.parent:
        facts.append(("Forked from", f"{m.parent} at entry {m.fork_seq}"))
    facts.append(("Result", _result(src.head)))
    facts.append(("Seen as", "arbiter (everything)" if src.role == ARBITER else
                  ("spectator (public information only)" if src.role == SPECTATOR else f"{src.role} (own view)")))
    out += ["| | |", "|---|---|"] + [f"| {k} | {_md_escape(str(v))} |" for k, v in facts] + [""]
    for a in src.notes:
        out.append(f"> {_md_escape(a.text)}")
    if src.notes:
        out.append("")
    counts = src.counts
    out.append(f"{sum(counts.values())} entries: {counts['accepted']} accepted, {counts['rejected']} rejected"
               + (f", {counts['none']} unreadable lines" if counts["none"] else "") + ".")
    out += ["", "## Moves", ""]
    yield "\n".join(out) + "\n"
    group = None
    earlier: dict[int, str] = {}  # the lines shown so far, for a correction's "was"
    for step in src.steps():
        lines = []
        if step.group != group and step.group:
            lines += ["", f"### {_md_escape(step.group)}", ""]
            group = step.group
        lines += _md_entry(step.entry, step.words, earlier, m.game)
        if step.entry.kind in ("intent", "unparsed"):
            earlier[step.entry.seq] = typed(step.entry)
        yield "\n".join(lines) + "\n"
    for fork_id, fork_seq, title in src.forks:
        yield "\n" + f"## Variation from entry {fork_seq}: {_md_escape(title)} ({_md_code(fork_id)})" + "\n\n"
        for step in src.steps(src.load(fork_id), fork_seq + 1, states=False):
            yield "\n".join(_md_entry(step.entry, step.words, game=m.game)) + "\n"
    yield "\n".join(["", "## Result", "", _result(src.head), ""])


# -- html: the match viewer (referee/viewer) -------------------------------------------------------


def _html(src: Source) -> Iterator[str]:
    from .viewer import page

    return page(src)
