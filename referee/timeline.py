"""The line of play through a log with undo and redo entries.

Undo and redo never touch the entries they act on: they are entries themselves. This module works out,
from the entry headers alone, which entries are currently in effect (the *line*), which are undone
and by whom, and whether a new undo or redo would be allowed. The state after an accepted undo to N
is the state after entry N; after a redo of undo U it is the state just before U.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from .engine.codes import RedoCode, UndoCode

UndoPolicy = Literal["any", "own_last", "arbiter"]
ARBITER = "arbiter"


class Header(msgspec.Struct, frozen=True):
    """What the timeline needs to know of one entry (a Struct: an audit makes one per entry)."""

    seq: int
    kind: str
    actor: str | None
    accepted: bool  # an accepted intent, undo or redo
    meta: dict[str, Any]
    #: an intent held for a confirmation: who gives it
    held: str | None = None


class Timeline(msgspec.Struct):
    line: list[int] = msgspec.field(default_factory=list)  # effective entries, in play order
    undone_by: dict[int, int] = msgspec.field(default_factory=dict)  # entry -> the undo that removed it
    popped: dict[int, list[int]] = msgspec.field(default_factory=dict)  # undo -> what it removed
    redone_by: dict[int, int] = msgspec.field(default_factory=dict)  # undo -> the redo that reversed it
    headers: dict[int, Header] = msgspec.field(default_factory=dict)

    @classmethod
    def build(cls, headers: Iterable[Header]) -> Timeline:
        t = cls()
        for h in headers:
            t.add(h)
        return t

    # The line is always in ascending seq order (an undo cuts a tail, a redo puts back entries that
    # lie between the cut and the undo), so lookups are binary searches and cuts are tail deletions.

    def add(self, h: Header) -> None:
        self.headers[h.seq] = h
        if h.kind == "undo" and h.accepted:
            self.undo(h.seq, int(h.meta["to"]))
        elif h.kind == "redo" and h.accepted:
            self.redo(h.seq, int(h.meta["undo"]))
        else:
            self.line.append(h.seq)

    def undo(self, seq: int, to: int) -> None:
        """Accepted undo ``seq`` back to entry ``to``: the entries of the line after ``to`` leave it."""
        cut = bisect.bisect_right(self.line, to)
        removed = self.line[cut:]
        del self.line[cut:]
        self.popped[seq] = removed
        for s in removed:
            self.undone_by.setdefault(s, seq)
        self.line.append(seq)

    def redo(self, seq: int, undo: int) -> None:
        """Accepted redo ``seq`` of undo ``undo``: what that undo took out comes back in its place."""
        if not self.in_line(undo):  # only a tampered log gets here; audit reports it
            self.line.append(seq)
            return
        pos = bisect.bisect_left(self.line, undo)
        restored = self.popped.get(undo, [])
        for s in restored:
            if self.undone_by.get(s) == undo:
                del self.undone_by[s]
        self.line[pos : pos + 1] = restored
        self.line.append(seq)
        self.redone_by[undo] = seq

    def in_line(self, seq: int) -> bool:
        i = bisect.bisect_left(self.line, seq)
        return i < len(self.line) and self.line[i] == seq

    def actions_after(self, seq: int) -> list[Header]:
        """What an undo back to entry ``seq`` takes back, in play order, each action once: accepted
        intents, rulings that made a move stand, and held moves that still wait or were confirmed (the
        confirmation belongs to the move it answers; a declined one had no effect). A confirmation of a
        move at or before ``seq`` is an action of its own: undoing it makes the move wait again."""
        start = bisect.bisect_right(self.line, seq)
        headers = [self.headers[s] for s in self.line[start:]]
        answers = {int(h.meta.get("entry", 0)): h for h in headers if h.kind == "confirm"}
        out: list[Header] = []
        for h in headers:
            if h.held is not None:
                answer = answers.get(h.seq)
                if answer is None or _took_effect(answer):
                    out.append(h)
            elif h.kind == "confirm":
                if _took_effect(h) and int(h.meta.get("entry", 0)) <= seq:
                    out.append(h)
            elif h.accepted and h.kind in ("intent", "ruling"):
                out.append(h)
        return out

    def last_action(self) -> Header | None:
        """The last action of the line of play (see :meth:`actions_after`): what a plain undo takes back.
        A confirmed move is its held entry, so the undo goes back to before the move."""
        answered: set[int] = set()  # held moves declined or refused when confirmed
        for s in reversed(self.line):
            h = self.headers[s]
            if h.kind == "confirm":
                entry = int(h.meta.get("entry", 0))
                if not _took_effect(h):
                    answered.add(entry)
                elif self.in_line(entry):
                    return self.headers[entry]
                else:
                    return h
            elif h.held is not None:
                if s not in answered:
                    return h
            elif h.accepted and h.kind in ("intent", "ruling"):
                return h
        return None

    def open_hold(self) -> tuple[int, str] | None:
        """The entry of the line of play that waits for a confirmation, and who gives it; None if none
        does. (While one waits nothing else is accepted, so it is the last thing that acted.)"""
        for s in reversed(self.line):
            h = self.headers[s]
            if h.held is not None:
                return s, h.held
            if h.kind == "confirm" or (h.kind in ("intent", "ruling") and h.accepted):
                return None
        return None

    def latest_undo(self) -> int | None:
        for s in reversed(self.line):  # stops at the first undo from the end
            if self.headers[s].kind == "undo" and self.headers[s].accepted and s not in self.redone_by:
                return s
        return None

    # -- policy ---------------------------------------------------------------------------------

    def check_undo(self, actor: str, to: int, policy: UndoPolicy) -> tuple[str, str] | None:
        """None if allowed, else (code, message)."""
        if to != 0 and not self.in_line(to):
            by = self.undone_by.get(to)
            why = f"it was undone by entry {by}" if by else "it is not in the current line of play"
            return UndoCode.TARGET_UNDONE, f"cannot go back to entry {to}: {why}"
        after = self.actions_after(to)
        if not after:
            return UndoCode.NOTHING_TO_UNDO, f"nothing to undo after entry {to}: no accepted or held move follows it"
        if actor == ARBITER:
            return None
        if policy == "arbiter":
            return UndoCode.NOT_ALLOWED, "this match lets only the arbiter undo (undo policy 'arbiter')"
        if policy == "own_last":
            last = after[-1]
            if len(after) != 1 or last.actor != actor:
                return (
                    UndoCode.NOT_ALLOWED,
                    f"this match lets a seat undo only its own last action (undo policy 'own_last'); "
                    f"entries {', '.join(str(h.seq) for h in after)} would be undone"
                    + (f", and entry {last.seq} is {last.actor}'s" if last.actor != actor else ""),
                )
        return None

    def check_redo(self, actor: str, undo: int, policy: UndoPolicy) -> tuple[str, str] | None:
        h = self.headers.get(undo)
        if h is None or h.kind != "undo" or not h.accepted:
            return RedoCode.NOT_AN_UNDO, f"entry {undo} is not an accepted undo"
        if undo in self.redone_by:
            return RedoCode.ALREADY_REDONE, f"undo {undo} was already redone by entry {self.redone_by[undo]}"
        if not self.in_line(undo):
            return RedoCode.UNDO_UNDONE, f"undo {undo} is no longer in the line of play"
        played = self.actions_after(undo)
        if played:
            return (
                RedoCode.LINE_MOVED_ON,
                f"cannot redo undo {undo}: entries {', '.join(str(p.seq) for p in played)} were played since; "
                f"fork the match at {undo - 1} to keep both lines",
            )
        if actor == ARBITER:
            return None
        if policy == "arbiter":
            return UndoCode.NOT_ALLOWED, "this match lets only the arbiter undo or redo (undo policy 'arbiter')"
        if policy == "own_last" and h.actor != actor:
            return UndoCode.NOT_ALLOWED, f"only {h.actor} (who undid it) or the arbiter may redo undo {undo}"
        return None


#: an accepted undo or redo as :func:`undone_marks` reads it: ``(seq, "undo", to)`` or ``(seq, "redo", undo)``
Jump = tuple[int, str, int]


def undone_marks(start: int, stop: int, jumps: Iterable[Jump]) -> dict[int, int]:
    """``undone_by`` of the entries ``start..stop`` (only those undone are keys): the same marks as a
    :class:`Timeline` of the whole log gives them, worked out from those entries and the accepted undos
    and redos from ``start`` on alone (``jumps``, in seq order; earlier ones are skipped).

    The line followed here holds ``start..stop`` and the jumps that reach them, nothing else. Nothing
    before ``start`` changes these marks: an undo cuts the line after its target by value, whatever
    else lies in it; a redo puts back what its own undo cut, in that undo's place. So an undo after
    ``stop`` that cuts nothing followed here is passed over (nothing it puts back later is followed
    either), as is a redo of an entry not in the line followed. A page costs what it shows and a look
    at each jump after it."""
    timeline = Timeline()
    line = timeline.line
    at = start  # the first entry of start..stop not yet in the line
    for seq, kind, arg in jumps:
        if seq < start:
            continue
        if at <= stop and at < seq:
            line.extend(range(at, min(seq, stop + 1)))
        at = seq + 1
        if kind == "undo":
            if seq <= stop or bisect.bisect_right(line, arg) < len(line):
                timeline.undo(seq, arg)
        elif seq <= stop or timeline.in_line(arg):
            timeline.redo(seq, arg)
    return {s: u for s, u in timeline.undone_by.items() if s <= stop}


def _took_effect(h: Header) -> bool:
    """Whether a confirmation entry let its held move take effect: confirmed, and the move accepted
    then (a declined move, or one the rules refused once confirmed, changed nothing)."""
    return h.accepted and h.meta.get("decision", "confirm") == "confirm"
