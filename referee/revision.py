"""A corrected transcript imported again: a revision of the same match, not a second one.

``referee import sheet.txt --revise MATCH`` (or :func:`revise`) compares the new transcript's move lines
with the match's lines in effect (each entry read from a transcript line, as amended since) and turns
the differences into one correction, appended as :mod:`referee.amend` appends one:

* an arbiter's undo back before the first line that differs (its reason lists every line amended,
  inserted or struck, why and by whom);
  (no undo when nothing has changed the state since: the lines after it were all refused or unreadable);
* from there on, the new transcript's move lines played in order, each recording its new line; a line
  that replaces another records the entry it amends (``amends``), as ``referee amend`` does; a line
  added is played where it stands; a line removed is struck: it stays in the log, undone, and nothing
  takes its place.

Supported: move lines changed, added or removed. Refused, nothing written: a header that describes
another match (players, game, cards, options, chance), an undo, redo, confirmation or acting ruling line
after the first difference, or a ruling or confirmation in the match's log after it (they name entry
numbers the revision moves: amend those lines one by one). Comments and annotations are not compared.
An unchanged transcript writes nothing ("no change").
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from schemas import ARBITER, NAME_MAX, Outcome

from .amend import AmendRefused, TableFollow, changed_since, check_reason, follow_tables
from .errors import BadInput, RefereeError
from .i18n import N_
from .inputs import check_text
from .redaction import verdict_name
from .service import Referee
from .engine.codes import ReviseCode, TranscriptCode

#: the transcript lines that act on entries by number (their numbers move in a revision)
_ACTING = ("undo", "redo", "confirm", "decline")


class Changed(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a revision: ``amended`` (the old entry ``entry`` replaced), ``inserted`` or ``struck``."""

    what: str
    old_line: int | None = None
    line: int | None = None
    entry: int | None = None
    was: str = ""
    now: str = ""
    seq: int | None = None
    verdict: str = ""


class Revision(msgspec.Struct, frozen=True, kw_only=True):
    """What a revision wrote (``changed`` false: nothing)."""

    match_id: str
    changed: bool
    undo: int | None = None
    lines: list[Changed] = []
    #: the move lines after the first difference played again unchanged (entry, verdict)
    replayed: list[tuple[int, str]] = []
    outcome_before: Outcome | None = None
    outcome: Outcome | None = None
    tables: list[TableFollow] = []


def _norm(seat: str | None, text: str) -> str:
    return f"{seat}: {' '.join(text.split())}" if seat else " ".join(text.split())


#: ``[N.] seat: text`` and a ruling that acts (``stands``, ``rewind to``), as a transcript has them
_SEATED = re.compile(r"^\s*(?:\d+\s*[.)]\s*)?([A-Za-z0-9_-]+)\s*:\s*(.*?)\s*$")
_ACTS = re.compile(r"^\s*(?:(?:entry\s+\d+\s+)?stands\b|rewind\s+to\b)", re.IGNORECASE)


def _raw(line: str) -> str:
    """A line as typed, compared without its trailing comment, its move number and extra white space."""
    from .transcript import strip_comment

    body = strip_comment(line)[0]
    found = _SEATED.match(body)
    return _norm(found.group(1), found.group(2)) if found else _norm(None, body)


def _actor_verbs(referee: Referee, game: str) -> Mapping[str, frozenset[str]]:
    """The verbs each of the game's other actors (Copycat's table, Android's arbiter) may write: every verb."""
    from .engine.notation import verbs_of

    try:
        found = referee.game(game.strip())
    except RefereeError:
        return {}
    verbs = frozenset(verbs_of(found.intent_type))
    return {actor: verbs for actor in found.capabilities.other_actors}


def revise(referee: Referee, match_id: str, text: str, *, reason: str, by: str, source: str = "<transcript>",
           base_dir: str | None = None) -> Revision:
    """Make the corrected transcript ``text`` a revision of match ``match_id`` (see the module's docstring)."""
    from . import transcript as tr

    check_text(by, "who revises (--by)", NAME_MAX, required=True)
    by = by.strip()
    loaded = referee.load(match_id)
    mid = loaded.match.id
    actors = (*loaded.config.players, *loaded.game.capabilities.other_actors)
    reason = check_reason(reason, actors)
    _, lines = tr.parse(text, source, lambda name: _actor_verbs(referee, name))
    read = tr.adjudicate(referee, text, source, base_dir or os.getcwd())  # the header checked as import checks it
    mine, theirs = msgspec.json.decode(loaded.match.config), msgspec.json.decode(read.match.config)
    differs = sorted(k for k in set(mine) | set(theirs) if k != "meta" and mine.get(k) != theirs.get(k))
    if differs:
        raise AmendRefused.said(ReviseCode.OTHER_MATCH, N_(
            "the transcript's header describes another match than {match} ({keys} differ); a revision corrects lines, "
            "not the set-up: import it as a match of its own (--again)"), match=mid, keys=", ".join(differs))
    timeline = referee.timeline(loaded)
    old: list[tuple[int, int, str, Any]] = []  # (seq, line, typed, body)
    for seq in timeline.line:
        stored = referee.entry_at(loaded.match, seq)
        assert stored is not None
        body = loaded.decoder.decode(stored.body)
        if body.kind in ("intent", "unparsed") and body.source.line is not None:
            # lines are played in rising order; a line at or before the last one starts a rewrite from there
            # (a correction, and the lines after it played again), whatever of the old lines stayed in effect
            while old and old[-1][1] >= body.source.line:
                old.pop()
            old.append((seq, body.source.line, _norm(body.actor, body.notation) if body.kind == "intent"
                        else _raw(body.notation), body))
    new = [item for item in lines if item.kind in ("move", "junk")]
    typed = [_norm(item.seat, item.text) if item.kind == "move" else _raw(item.raw) for item in new]
    ops = [op for op in difflib.SequenceMatcher(None, [o[2] for o in old], typed, autojunk=False).get_opcodes()]
    first = next((op for op in ops if op[0] != "equal"), None)
    if first is None:
        return Revision(match_id=mid, changed=False)
    i0, j0 = first[1], first[3]
    since = new[j0].line if j0 < len(new) else (lines[-1].line + 1 if lines else 0)
    for item in lines:
        acting = item.kind in _ACTING or (item.kind == "annotation" and item.note_kind == "ruling"
                                          and _ACTS.match(item.text) is not None)
        if item.line >= since and acting:
            raise AmendRefused.said(ReviseCode.ACTING_LINE, N_(
                "{source}:{line}: an {kind} line after the first line that changed ({since}) names entries by number, "
                "which a revision moves: amend the changed lines one by one (referee amend)"),
                source=source, line=item.line, kind=item.kind, since=since)
    start = old[i0][0] if i0 < len(old) else None
    if start is not None:
        for seq in timeline.line:
            h = timeline.headers[seq]
            if seq > start and h.kind in ("ruling", "confirm"):
                raise AmendRefused.said(ReviseCode.ACTING_ENTRY, N_(
                    "entry {entry} of match {match} is a {kind} after the first line that changed: amend the changed "
                    "lines one by one (referee amend)"), entry=seq, match=mid, kind=h.kind)
    head = referee.store.head(mid)
    outcome_before = referee.show(mid).outcome
    changes: list[tuple[str, int | None, Any, Any]] = []  # (what, old index, new index)
    for tag, a1, a2, b1, b2 in ops[ops.index(first):]:
        if tag == "equal":
            changes += [("same", a1 + k, b1 + k, None) for k in range(a2 - a1)]
            continue
        for k in range(max(a2 - a1, b2 - b1)):
            o = a1 + k if a1 + k < a2 else None
            n = b1 + k if b1 + k < b2 else None
            changes.append(("amended" if o is not None and n is not None else "struck" if n is None else "inserted",
                            o, n, None))
    said = [f"line {new[n].line} {what}" if n is not None else f"line {old[o][1]} struck"  # type: ignore[index]
            for what, o, n, _ in changes if what != "same"]
    why = f"revision ({', '.join(said[:20])}{', …' if len(said) > 20 else ''}): {reason} — by {by}"
    undo_seq = None
    if start is not None and changed_since(referee, loaded, start - 1, head):
        undo_seq = referee.undo(mid, by=ARBITER, to=start - 1, reason=why, expected_seq=head).seq
    done: list[Changed] = []
    replayed: list[tuple[int, str]] = []
    for what, o, n, _ in changes:
        if n is None:
            assert o is not None
            done.append(Changed(what="struck", old_line=old[o][1], entry=old[o][0], was=old[o][2]))
            continue
        item = new[n]
        meta: dict[str, Any] = {"line": item.line}
        if item.comment:
            meta["comment"] = item.comment
        if item.number is not None:
            meta["number"] = item.number
        if what == "amended":
            assert o is not None
            meta.update(amends=old[o][0], reason=reason, amended_by=by)
        try:
            if item.kind != "move":
                raise BadInput.said(TranscriptCode.BAD_LINE, N_("expected '<seat>: <intent>'"))
            res = referee.submit(mid, item.seat, item.text, meta=meta)
            seq, verdict = res.seq, verdict_name(res.verdict)
        except BadInput as exc:
            seq = referee.record_unparsed(mid, item.seat or None, item.raw.strip(), exc.code, exc.message, meta)
            verdict = "unreadable"
        if what == "same":
            replayed.append((seq, verdict))
        else:
            done.append(Changed(what=what, old_line=old[o][1] if o is not None else None, line=item.line,
                                entry=old[o][0] if o is not None else None, was=old[o][2] if o is not None else "",
                                now=typed[n], seq=seq, verdict=verdict))
    digest = read.summary.digest
    if mid not in referee.store.find_transcript(digest):
        referee.store.add_transcript(digest, mid)
    outcome = referee.show(mid).outcome
    tables = follow_tables(referee, mid, by=by, why=why)
    return Revision(match_id=mid, changed=True, undo=undo_seq, lines=done, replayed=replayed,
                    outcome_before=outcome_before, outcome=outcome, tables=tables)
