"""``referee log`` as lines: one per entry, written as the entries are read, for a long log or one piped
to a file or another program.

A line is ``seq  actor  verdict  notation`` and then, after `` — ``, why and what was said of it (the
rejection with its rule, the undo that took it back, the recorder's comment, the annotations) and, for an
entry imported from a transcript, the line it was read from (``from line 23``; ``line:23`` names it). Nothing
is wrapped or cut short; the columns before the notation are padded so that a page reads as a table.
The verdict is coloured on a terminal (not with ``NO_COLOR`` or a dumb ``TERM``), plain elsewhere.
Text from the match goes through :func:`referee.inputs.visible`, so no control character reaches the
terminal. rich is not imported: 50,000 lines go out at the speed the log is read.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

from referee.entryref import amended, typed
from referee.i18n import N_, gettext, refused
from referee.inputs import visible
from schemas import EntryView

#: the one word a person reads for a line that could not be read (the log's kind ``unparsed``)
UNREADABLE = "unreadable"
#: the verdicts and the framework entries' kinds in words (what a person reads in the verdict column)
_VERDICTS = {"accepted": N_("accepted"), "rejected": N_("rejected"), "held": N_("held"), UNREADABLE: N_("unreadable"),
             "undo": N_("undo"), "redo": N_("redo"), "ruling": N_("ruling"), "confirm": N_("confirm"),
             "reopen": N_("reopen")}
#: what an annotation says it is, in words
_NOTES = {"disputed": N_("disputed"), "ruling": N_("ruling"), "mistake": N_("mistake"), "good": N_("good"),
          "comment": N_("comment")}
#: SGR colours of the verdicts on a terminal
_COLOUR = {"accepted": "32", "rejected": "31"}
#: how many lines are joined before each write
_BATCH = 200


def picked(e: EntryView, kinds: Iterable[str]) -> bool:
    """Whether ``e`` is any of ``kinds`` (``referee log --only``): rejected, disputed (an annotation
    disputes it), ruled (a ruling entry, or an annotation records a ruling on it), undone, held, manual
    (an arbiter's manual entry), annotated (anything said of it), unreadable (a line that could not be
    read)."""
    notes = {a.kind for a in e.annotations}
    facts = {
        "rejected": e.verdict == "rejected",
        "disputed": "disputed" in notes,
        "ruled": e.kind == "ruling" or "ruling" in notes,
        "undone": e.undone_by is not None,
        "held": e.verdict == "held",
        "manual": e.manual,
        "annotated": bool(e.annotations) or bool(e.meta.get("comment")),
        UNREADABLE: e.kind == "unparsed",
    }
    return any(facts.get(k, False) for k in kinds)


def verdict(e: EntryView) -> str:
    """The verdict column: accepted, rejected, held, unreadable (a line that could not be read), or the
    kind of a framework entry (undo, redo...)."""
    if e.verdict in ("accepted", "rejected", "held"):
        return e.verdict
    return UNREADABLE if e.kind == "unparsed" else e.kind


def said(word: str) -> str:
    """A verdict (:func:`verdict`) as the reader reads it."""
    return gettext(_VERDICTS[word]) if word in _VERDICTS else word


def verdict_width() -> int:
    """The verdict column's width: the longest verdict word in the reader's language."""
    return max(len(said(w)) for w in ("accepted", "rejected", "held", UNREADABLE))


def notes(e: EntryView, earlier: dict[int, str] | None = None, amended_by: dict[int, int] | None = None,
          game: str = "") -> list[str]:
    """What follows the notation: a correction's sentence (:func:`amended`), the rejection (code, message,
    rule: in the reader's language, through ``game``'s templates), manual, the undo that took the entry
    back (or the correction that amended it, from ``amended_by``), the comment and the annotations, in
    that order."""
    out: list[str] = [amended(e, earlier)] if amended(e, earlier) else []
    if e.rejection is not None:
        r = e.rejection
        message, rule = refused(game, r.code, r.message, r.rule, r.rule_english)
        out.append(f"{r.code}: {message}" + (f" ({rule})" if rule else ""))
    if e.manual:
        out.append(manual_note())
    if e.undone_by is not None:
        by = (amended_by or {}).get(e.seq)
        out.append(gettext("undone by #{seq}", seq=e.undone_by)
                   + (gettext(": amended by #{seq}", seq=by) if by is not None else ""))
    return out + remarks(e)


def manual_note() -> str:
    """The note of a manual entry (an arbiter's declared effect), in the reader's language."""
    return gettext("manual")


def origin(e: EntryView) -> str:
    """``from line 23`` for an entry read from line 23 of an imported transcript, else ``""``."""
    at = line_of(e)
    return gettext("from line {line}", line=at) if at is not None else ""


def line_of(e: EntryView) -> int | None:
    """The line of the imported transcript ``e`` was read from, if it was."""
    at = e.meta.get("line") if e.meta else None
    return at if isinstance(at, int) and not isinstance(at, bool) else None


def remarks(e: EntryView) -> list[str]:
    """What people said of the entry: the recorder's comment, then the annotations."""
    comment = [f"# {e.meta['comment']}"] if e.meta.get("comment") else []
    return comment + [f"{gettext(_NOTES[a.kind]) if a.kind in _NOTES else a.kind}: {a.text}" for a in e.annotations]


def line(e: EntryView, *, seq_width: int, actor_width: int, colour: bool = False,
         earlier: dict[int, str] | None = None, game: str = "", width: int = 0) -> str:
    word, width = verdict(e), width or verdict_width()
    text = said(word)
    shown = f"{text:<{width}}"
    if colour and word in _COLOUR:
        shown = f"\x1b[{_COLOUR[word]}m{text}\x1b[0m" + " " * (width - len(text))
    told = notes(e, earlier, game=game)
    if origin(e):
        told.append(origin(e))
    tail = ("  — " + "; ".join(told)) if told else ""
    return visible(f"{e.seq:>{seq_width}}  {(e.actor or '—'):<{actor_width}}  ") + shown + visible(f"  {e.notation}{tail}")


def colour_wanted() -> bool:
    """Colour on a terminal, unless ``NO_COLOR`` is set or ``TERM`` is dumb."""
    env = os.environ
    if env.get("NO_COLOR") or env.get("TERM", "").strip().lower() in ("dumb", "unknown"):
        return False
    try:
        return sys.stdout.isatty()
    except ValueError:
        return False


def write(entries: Iterable[EntryView], *, seq_width: int, actor_width: int, game: str = "") -> int:
    """Write a line per entry as they come (a rejection read through ``game``'s templates); returns how many."""
    out = sys.stdout
    colour = colour_wanted()
    batch: list[str] = []
    count = 0
    earlier: dict[int, str] = {}  # what a correction amends was shown before it (moves only: it amends those)
    width = verdict_width()
    for e in entries:
        if e.kind in ("intent", "unparsed"):
            earlier[e.seq] = typed(e)
        batch.append(line(e, seq_width=seq_width, actor_width=actor_width, colour=colour, earlier=earlier, game=game,
                          width=width))
        count += 1
        if len(batch) >= _BATCH:
            out.write("\n".join(batch) + "\n")
            out.flush()
            batch.clear()
    if batch:
        out.write("\n".join(batch) + "\n")
    return count
