"""Naming an entry of a match the way a scorekeeper knows it: by its number in the log (``12``) or by the
line of the imported transcript it was read from (``line:23``). Every command that takes an entry reads
it through :func:`resolve`, so an error names the same things wherever it is made: the line, and the
nearest lines that did produce entries (a blank line, a comment or a header line produces none).

A line is looked up in the entries' recorded source (``meta.line``, written at import); a match played
entry by entry records none, and its entries are named by number only."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .engine.codes import InputCode
from .errors import BadInput
from .i18n import N_

if TYPE_CHECKING:
    from schemas import EntryView

    from .api import RefereeApi

_NUMBER = re.compile(r"\d{1,9}")
_LINE = re.compile(r"line:(\d{1,9})")


def is_line(text: str) -> bool:
    """Whether ``text`` names a transcript line (``line:23``) rather than an entry number."""
    return text.strip().lower().startswith("line:")


def number(text: str, what: str = "an entry") -> int:
    """An entry number typed as a number (``12``), else BadInput saying what is expected."""
    raw = text.strip()
    if _NUMBER.fullmatch(raw):
        return int(raw)
    raise BadInput.said(InputCode.BAD_ENTRY, N_("{what}: {text!r} is not an entry: give an entry number (e.g. 12) or a "
                                                "line of the imported transcript (e.g. line:23)"), what=what, text=text[:40])


def line_number(text: str, what: str = "an entry") -> int:
    """The line ``line:23`` names, else BadInput."""
    found = _LINE.fullmatch(text.strip().lower())
    if found is None:
        raise BadInput.said(InputCode.BAD_ENTRY, N_("{what}: {text!r} is not a transcript line: write line:N with N the "
                                                    "line's number in the file (e.g. line:23)"), what=what, text=text[:40])
    return int(found.group(1))


def source_line(entry: EntryView) -> int | None:
    """The transcript line ``entry`` was read from, if it was imported (``meta.line``)."""
    value = entry.meta.get("line") if entry.meta else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def typed(entry: EntryView) -> str:
    """An entry's line as the log shows it: ``seat: intent`` for a move, the line itself for an unreadable one."""
    return f"{entry.actor}: {entry.notation}" if entry.kind == "intent" else entry.notation


def amended(entry: EntryView, earlier: dict[int, str] | None = None) -> str:
    """For a correction (``referee amend``, ``import --revise``): ``line 23 amended: was `…`, now `…` (reason,
    by)``, the line it replaces read from ``earlier`` (seq -> :func:`typed`, as shown before it); else ``""``."""
    amends = entry.meta.get("amends") if entry.meta else None
    if not isinstance(amends, int) or isinstance(amends, bool):
        return ""
    at = source_line(entry)
    where = f"line {at}" if at is not None else f"entry {amends}"
    was = (earlier or {}).get(amends)
    said = f"was `{was}`" if was is not None else f"was entry {amends}"
    return f"{where} amended: {said}, now `{typed(entry)}` ({entry.meta.get('reason', '')}, {entry.meta.get('amended_by', '')})"


def pick(entries: Iterable[EntryView], line: int, match_id: str, what: str = "an entry") -> int:
    """The entry read from transcript line ``line`` among ``entries``: the last one still in effect (a line
    played again after a ruling or an undo produced more than one), else the last. BadInput naming the
    producing lines just before and after it when none was read from it."""
    found: list[EntryView] = []
    produced: dict[int, int] = {}
    for entry in entries:
        at = source_line(entry)
        if at is None:
            continue
        produced.setdefault(at, entry.seq)
        if at == line:
            found.append(entry)
    if found:
        live = [e for e in found if e.undone_by is None]
        return (live or found)[-1].seq
    if not produced:
        raise BadInput.said(InputCode.NO_SUCH_LINE, N_("{what}: no entry of match {match} records a transcript line (it "
                                                       "was not imported from one); give the entry's number instead"),
                            what=what, match=match_id)
    before = [n for n in produced if n < line]
    after = [n for n in produced if n > line]
    nearest = ([max(before)] if before else []) + ([min(after)] if after else [])
    first, last = nearest[0], nearest[-1]
    raise BadInput.said(InputCode.NO_SUCH_LINE, N_(
        "{what}: line {line} of match {match}'s transcript produced no entry (a blank line, a comment or a header "
        "line?); the nearest that did: line:{first} (entry {first_entry})") if len(nearest) == 1 else N_(
        "{what}: line {line} of match {match}'s transcript produced no entry (a blank line, a comment or a header "
        "line?); the nearest that did: line:{first} (entry {first_entry}) and line:{last} (entry {last_entry})"),
        what=what, line=line, match=match_id, first=first, first_entry=produced[first], last=last,
        last_entry=produced[last])


def resolve(api: RefereeApi, match_id: str, text: str, what: str = "an entry", *, seat: str | None = None) -> int:
    """The entry number ``text`` names in match ``match_id``: ``12`` as it is, ``line:23`` looked up in the
    match's log as ``seat`` sees it (None: the full view; a seat or a spectator over HTTP sees every entry's
    source line too, so the same line names the same entry for every role)."""
    if not is_line(text):
        return number(text, what)
    line = line_number(text, what)
    return pick(api.log_stream(match_id, seat=seat), line, match_id, what)


def resolve_opt(api: RefereeApi, match_id: str, text: str | None, what: str = "an entry") -> int | None:
    """:func:`resolve`, passing None through (an option left out)."""
    return None if text is None else resolve(api, match_id, text, what)
