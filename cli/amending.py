"""``referee amend``: a line of an imported transcript corrected after the fact, as appended entries
(:mod:`referee.amend`). Registered on :data:`cli.common.app` when :mod:`cli.main` imports this module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.i18n import N_, gettext, ngettext

from cli.common import DbOpt, JsonOpt, app, local_referee, print_json

if TYPE_CHECKING:
    from referee.amend import Amendment


@app.command(help=N_("""Correct a line after import: an audited correction appended to the log. The original line stays,
    shown as amended; the corrected line is adjudicated in its place and every later entry is played
    again (as `rule --main` does), each new verdict shown. Works on a finished match (the arbiter's undo
    reopens it); the result follows, and so does the table's result in its tournament. Refused, with
    nothing written, for an unknown line, a line that made no entry, text the game's notation cannot
    read, a reason that reads as a transcript line, or no --reason/--by. Exit 0 once the correction is
    written (whatever its verdict).

    Example: referee amend 3f9c 23 "alice: draw_main card=T14" --reason "the sheet says T14" --by "Jo (arbiter)"
    """))
def amend(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    line: Annotated[str, typer.Argument(metavar="LINE", help=N_("The line to correct: its number in the imported transcript (23 or line:23), or an entry (entry:8 or #8)."))],
    text: Annotated[str, typer.Argument(metavar="TEXT", help=N_("The corrected line: 'seat: intent', or the intent alone for the same seat."))],
    reason: Annotated[str, typer.Option("--reason", help=N_("Why the line is corrected (kept in the log)."))] = "",
    by: Annotated[str, typer.Option("--by", help=N_("Who corrects it (a name, kept in the log)."))] = "",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help=N_("Refuse (exit 4) unless the log is at this entry."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee import amend as amending

    local = local_referee(ctx, db)
    done = amending.amend(local, match, line, text, reason=reason, by=by, expected_seq=expect_seq)
    if json:
        print_json(as_json(done))
        return
    shown(done)


def as_json(done: Amendment) -> dict[str, Any]:
    """An amendment as ``--json`` prints it (and HTTP answers it)."""
    import msgspec

    out: dict[str, Any] = msgspec.to_builtins(done)
    out["sentence"] = done.sentence
    for r, item in zip(done.replayed, out["replayed"]):
        item["changed"] = r.changed
    return out


def shown(done: Amendment) -> None:
    """An amendment for a person: the correction, every entry replayed after it, the result."""
    from cli.render import console, escape, outcome
    from cli.scorekeeping import replayed

    con = console()
    style = {"accepted": "green", "rejected": "red", "held": "yellow"}.get(done.verdict, "dim")
    con.print(f"[bold]{escape(done.sentence)}[/bold]")
    why = f" — {escape(done.rejection)}" if done.rejection else ""
    back = (gettext("Entry {undo} went back before entry {entry}; ", undo=done.undo, entry=done.entry)
            if done.undo is not None else
            gettext("Nothing had changed the state since entry {entry}; ", entry=done.entry - 1))
    verdict = f"[{style}]{done.verdict}[/{style}]"
    con.print(back + gettext("the corrected line is entry {seq}: {verdict}{why}", seq=done.seq, verdict=verdict,
                             why=why))
    changed = sum(1 for r in done.replayed if r.changed)
    con.print(ngettext("Replayed {n} later entries ({changed} with a new verdict):",
                       "Replayed {n} later entries ({changed} with a new verdict):", len(done.replayed), changed=changed))
    for r in done.replayed:
        replayed(con, r)
    now = outcome(done.outcome) if done.outcome is not None else gettext("the game is not over.")
    was = ("" if done.outcome == done.outcome_before else
           gettext(" (was: {result})", result=outcome(done.outcome_before) if done.outcome_before is not None
                   else gettext("not over")))
    con.print(gettext("[bold]Result[/bold]: {result}", result=now) + was)
    for t in done.tables:
        con.print(gettext("Tournament {tournament} round {round} table {table}: ", tournament=escape(t.tournament),
                          round=t.round, table=t.table) + {
            "corrected": gettext("its result follows the log (record {record}, result_corrected)", record=t.record),
            "live": gettext("its round is open: its result is read from the log"),
            "unchanged": gettext("its result stays as recorded (the same)"),
            "unfinished": gettext("the match is not finished now: the table keeps the result recorded"),
            "arbiter": gettext("the arbiter's result for it stands"),
        }.get(t.status, t.status))
    print(done.match_id)


def revised(local: Any, match: str, text: str, *, reason: str, by: str, source: str, base: str, json: bool) -> None:
    """``import --revise``: the corrected transcript made a revision of the match, and what it wrote."""
    import msgspec

    from cli.render import console, escape, outcome
    from referee.revision import revise

    done = revise(local, match, text, reason=reason, by=by, source=source, base_dir=base)
    if json:
        print_json(msgspec.to_builtins(done))
        return
    con = console()
    if not done.changed:
        con.print(gettext("No change: {src} has the move lines match {match} holds; nothing written.",
                          src=escape(source), match=done.match_id))
        print(done.match_id)
        return
    con.print(gettext("Revised match [bold]{match}[/bold] from {src}", match=done.match_id, src=escape(source))
              + (gettext(": entry {undo} went back before the first line that changed", undo=done.undo)
                 if done.undo else "") + ".")
    for c in done.lines:
        if c.what == "struck":
            con.print(gettext("  line {line} struck (entry {entry}): was `{was}`", line=c.old_line, entry=c.entry,
                              was=escape(c.was)))
        else:
            old = (gettext(" (was line {line}, entry {entry}: `{was}`)", line=c.old_line, entry=c.entry,
                           was=escape(c.was)) if c.what == "amended" else "")
            con.print(gettext("  line {line} {what}: `{now}` is entry {seq}, {verdict}{old}", line=c.line, what=c.what,
                              now=escape(c.now), seq=c.seq, verdict=c.verdict, old=old))
    con.print(ngettext("Replayed {n} unchanged lines after it.", "Replayed {n} unchanged lines after it.",
                       len(done.replayed)))
    con.print(gettext("[bold]Result[/bold]: {result}", result=outcome(done.outcome) if done.outcome is not None
                      else gettext("the game is not over.")))
    print(done.match_id)
