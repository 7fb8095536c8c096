"""What the ``referee`` command prints for a scorekeeper: an import's (or a check's) summary with the
follow-on rejections grouped under the line they follow from, a ruling on an old entry with the line it
replays, a card set, a transcript skeleton. Printed with rich through :mod:`cli.render`'s console (so
piped output follows the same rules); every text from a file or a match goes through
:func:`cli.render.escape`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from cli.render import console, escape, outcome
from referee.i18n import gettext, ngettext

if TYPE_CHECKING:
    from referee.rulings import Replayed, RulingReport
    from rich.console import Console

    from schemas import ImportProblem, ImportSummary
    from schemas.tournament import TableImported
    from schemas.listing import Listed


def imported(source: str, summary: ImportSummary, *, check: bool = False) -> None:
    """An import's summary: what was written (or, checked or found already imported, that nothing was),
    the counts, every problem with its line — follow-ons grouped under the line they follow — and the
    result."""
    con = console()
    src = escape(source)
    counts = _counts(summary)
    before = ", ".join(summary.already)
    if check:
        con.print(gettext("Checked {src} ({game}), nothing written: {counts}", src=src, game=summary.game, counts=counts))
        if summary.already:
            con.print(gettext("It is already in the database as match [bold]{before}[/bold].", before=before))
    elif not summary.stored:
        con.print(gettext("{src} is already in the database as match [bold]{before}[/bold]: nothing written "
                          "(--again imports it as a new match). What it holds: {counts}",
                          src=src, before=before, counts=counts))
    else:
        con.print(gettext("Imported {src} as match [bold]{match}[/bold] ({game}): {counts}",
                          src=src, match=summary.match_id, game=summary.game, counts=counts))
        if summary.already:
            con.print(gettext("(It was imported before as match {before}; --again imported it anyway, as this new "
                              "match.)", before=before))
    _found(con, src, summary)
    if summary.stored or summary.already:
        con.print(gettext("See it: referee show {match} · referee log {match}", match=summary.match_id))


def _counts(summary: ImportSummary) -> str:
    """``86 lines, 82 accepted, 4 rejected, 0 unreadable.``, in the reader's language (its plurals)."""
    unreadable = len(summary.problems) - summary.rejected
    return (ngettext("{n} line", "{n} lines", summary.lines) + ", "
            + ngettext("[green]{n} accepted[/green]", "[green]{n} accepted[/green]", summary.accepted) + ", "
            + ngettext("[red]{n} rejected[/red]", "[red]{n} rejected[/red]", summary.rejected) + ", "
            + ngettext("{n} unreadable.", "{n} unreadable.", unreadable))


def table_imported(source: str, answer: TableImported) -> None:
    """A transcript imported to a tournament's table (or checked for it): which table, what the import
    found, and the table's result."""
    con = console()
    src, s = escape(source), answer.summary
    table = gettext("{name} ({tournament}) round {round} table {table} ({seats})", name=escape(answer.name),
                    tournament=answer.tournament, round=answer.round, table=answer.table,
                    seats=escape(' v '.join(answer.seats)))
    counts = _counts(s)
    if answer.checked:
        con.print(gettext("Checked {src} for {table}, nothing written: it would be the table's match: {counts}",
                          src=src, table=table, counts=counts))
    elif answer.attached:
        con.print(gettext("Imported {src} as match [bold]{match}[/bold], the match of {table}: {counts}", src=src,
                          match=answer.match_id, table=table, counts=counts))
        if answer.replaces:
            con.print(gettext("(The match the pairing made for the table, {match}, was never played: it is set aside.)",
                              match=answer.replaces))
    elif answer.revised:
        con.print(gettext("Revised match [bold]{match}[/bold], the match of {table}, from {src}: its changed lines are "
                          "appended as corrections (see `referee log {match}`). The sheet: {counts}",
                          match=answer.match_id, table=table, src=src, counts=counts))
    else:
        con.print(gettext("{table} holds this transcript already as match [bold]{match}[/bold]: nothing written. "
                          "What it holds: {counts}", table=table, match=answer.match_id, counts=counts))
    _found(con, src, s)
    if answer.checked:
        return
    con.print(gettext("The table's result, read from the log: {result}. See the standings: referee tournament "
                      "standings {tournament}", result=escape(answer.result_words), tournament=answer.tournament))


def _found(con: Console, src: str, summary: ImportSummary) -> None:
    """An import's problems with their lines (follow-ons grouped under the line they follow), the lines the
    entries came from, and the result."""
    followers: dict[int, list[ImportProblem]] = {}
    for p in summary.problems:
        if p.after is not None:
            followers.setdefault(p.after, []).append(p)
    for p in summary.problems:
        if p.after is not None:
            continue
        _problem(con, src, p, "  ", summary.game)
        more = followers.get(p.line, [])
        if more:
            con.print("      " + ngettext("[bold]{n} more line fails because line {line} was rejected[/bold] (the same "
                                       "seat's, before any of its lines is accepted again):",
                                       "[bold]{n} more lines fail because line {line} was rejected[/bold] (the same "
                                       "seat's, before any of its lines is accepted again):", len(more), line=p.line))
            for q in more:
                _problem(con, src, q, "        ", summary.game)
    if summary.entry_lines:
        first, last = summary.entry_lines[0], summary.entry_lines[-1]
        con.print(gettext("Lines {first}–{last} became entries {first_entry}–{last_entry}: `line:N` names the entry "
                    "read from line N wherever an entry is taken (show --at, log --from, annotate, rule, undo --to, "
                    "fork --at).", first=first.line, last=last.line, first_entry=first.entry, last_entry=last.entry))
    if summary.outcome is not None:
        con.print(gettext("[bold]Result[/bold]: {result}", result=outcome(summary.outcome)))
    else:
        con.print(gettext("[bold]Result[/bold]: the game is not over."))


def _read(game: str, p: ImportProblem) -> tuple[str, str]:
    """A problem's message and rule citation in the reader's language: as recorded (the citation with its
    English headings) in English; otherwise through the game's templates and rulebook."""
    from referee import i18n

    if i18n.current() == "en":
        return p.message, p.rule_english or p.rule
    from referee.games import find

    found = find(game)
    if found is None:
        return p.message, p.rule_english or p.rule
    return i18n.refusal(found.messages, p.code, p.message), i18n.citation(found.rulebook, p.rule)


def _problem(con: object, src: str, p: ImportProblem, indent: str, game: str = "") -> None:
    from rich.console import Console

    assert isinstance(con, Console)
    message, cited = _read(game, p)
    rule = f" ({escape(cited)})" if p.rule else ""
    entry = gettext("(entry {entry}) ", entry=p.entry) if p.entry is not None else ""
    con.print(f"{indent}{src}:{p.line}: {entry}{escape(p.code)}: {escape(message)}{rule}")
    con.print(f"{indent}    [dim]{escape(p.text)}[/dim]")


def listed(title: str, rows: Sequence[Listed]) -> None:
    """A card set as a scorekeeper reads it: what to type, the name, the kind, where it is found."""
    from cli.render import new_table

    table = new_table(title=title, title_justify="left")
    for col in ("type this", "name", "kind", "where", "notes"):
        table.add_column(col, overflow="fold")
    for r in rows:
        table.add_row(escape(r.typed), escape(r.name), escape(r.kind), escape(r.where), escape(r.note))
    console().print(table)


def ruled(report: RulingReport) -> None:
    """A ruling on an old entry: the ruling, where the corrected line was written, and every entry
    replayed on it with its new verdict (and its old one where that changed)."""
    con = console()
    res = report.ruling
    reason = f" — {escape(report.reason)}" if report.reason else ""
    con.print(gettext("[green]✓ ruling[/green] #{seq}: entry {entry} of {match} stands as played{reason}", seq=res.seq,
                      entry=report.entry, match=report.match_id, reason=reason))
    for word in res.words:
        con.print(f"  {escape(word)}")
    if report.fork:
        con.print(gettext("On a new line of play: match [bold]{target}[/bold], a fork of {match} at {entry} (the match "
                          "itself is unchanged; --main makes the corrected line the main one).", target=report.target,
                          match=report.match_id, entry=report.entry))
    else:
        con.print(gettext("On the main line of {target}: entry {undo} went back to entry {entry}, the ruling is entry "
                          "{seq}, and the entries after {entry} are played again after it.", target=report.target,
                          undo=report.undo, entry=report.entry, seq=res.seq))
    changed = sum(1 for r in report.replayed if r.changed)
    con.print(ngettext("Replayed {n} entries after entry {entry} ({changed} with a new verdict):",
                       "Replayed {n} entries after entry {entry} ({changed} with a new verdict):", len(report.replayed),
                       entry=report.entry, changed=changed))
    for r in report.replayed:
        replayed(con, r)
    if report.outcome is not None:
        con.print(gettext("[bold]Result[/bold] on this line: {result}", result=outcome(report.outcome)))
    else:
        con.print(gettext("[bold]Result[/bold] on this line: the game is not over."))


def replayed(con: object, r: Replayed) -> None:
    from rich.console import Console

    assert isinstance(con, Console)
    new = f"#{r.seq}" if r.seq is not None else "—"
    style = {"accepted": "green", "rejected": "red", "held": "yellow"}.get(r.verdict, "dim")
    was = gettext(" (was {was})", was=r.was) if r.changed else ""
    why = f" — {escape(r.why)}" if r.why else ""
    con.print(f"  {r.old:>4} → {new:<5} {escape(r.actor or '')} {escape(r.text)}  "
              f"[{style}]{r.verdict}[/{style}]{was}{why}")
