"""The commands that travel in a match's time or rule on it: ``rule``, ``undo``, ``redo``, ``confirm`` and
``fork``. Each appends an entry of its own (or, ``fork``, a new match sharing the history): nothing in
the log is ever changed. Registered on :data:`cli.common.app` when :mod:`cli.main` imports this module."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.i18n import N_

from cli.common import DbOpt, JsonOpt, connection, fail, local_referee, print_json, report_entry, referee_for, app


@app.command(help=N_("""An arbiter's ruling that a rejected intent stands as played: it is adjudicated again with the
    check that rejected it waived, as an entry of its own (the rejected entry stays as it was). If
    nothing has changed the state since, the ruling is the next entry; exit 0 if it took effect, 1 if
    the rules cannot apply the move even so (logged too). If play went on (later moves, the end of the
    match), the move is put back where it was made: a fork at the entry holds the ruling and every
    entry in effect after it, played again with its new verdict shown (--main: the match's own line,
    by an undo back to the entry, the ruling and the same entries, all appended). A ruling that cannot
    apply there is refused and nothing is written (exit 1).

    Example: referee rule 3f9c 17 --reason "the card was visible to both players"   ·   referee rule 3f9c line:23 --main
    """))
def rule(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    entry_: Annotated[str, typer.Argument(metavar="ENTRY", help=N_("The rejected entry the arbiter lets stand: an entry number, or line:N for the entry read from line N of the imported transcript."))],
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the log)."))] = "",
    main: Annotated[bool, typer.Option("--main", help=N_("When play went on after the entry: correct the match's own line (an undo back to it, the ruling, the later entries played again) instead of a fork."))] = False,
    name: Annotated[str, typer.Option("--name", help=N_("The fork's name, when the corrected line is a fork."))] = "",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help=N_("Refuse (exit 4) unless the log is at this entry."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee import entryref

    if connection(ctx).server:
        if main:
            fail(N_("--main needs the match's own database (it is not available with --server)"))
        service = referee_for(ctx, db)
        entry = entryref.resolve(service, match, entry_, "the entry ruled on")
        report_entry(service.rule_stands(match, entry, reason=reason, expected_seq=expect_seq), json)
        return
    from referee import rulings

    local = local_referee(ctx, db)
    entry = entryref.resolve(local, match, entry_, "the entry ruled on")
    if not rulings.needs_replay(local, match, entry):
        report_entry(local.rule_stands(match, entry, reason=reason, expected_seq=expect_seq), json)
        return
    report = rulings.rule(local, match, entry, reason=reason, main=main, name=name, expected_seq=expect_seq)
    if json:
        from referee.engine.protocol import Rejected

        v = report.ruling.verdict
        print_json({
            "match_id": report.match_id, "entry": report.entry, "line": "fork" if report.fork else "main",
            "target": report.target, "undo": report.undo, "seq": report.ruling.seq,
            "verdict": "accepted" if report.ruling.accepted else "rejected",
            "rejection": {"code": v.code, "message": v.message, "rule": v.rule,
                          "rule_english": report.ruling.rule_english} if isinstance(v, Rejected) else None,
            "replayed": [{"old": r.old, "seq": r.seq, "actor": r.actor, "text": r.text, "was": r.was,
                          "verdict": r.verdict, "why": r.why, "changed": r.changed} for r in report.replayed],
            "outcome": report.outcome,
        })
    else:
        from cli import scorekeeping

        scorekeeping.ruled(report)
        print(report.target)


@app.command(help=N_("""Undo to entry N by appending an undo entry (the undone entries stay in the log, marked).
    Exit 0 if accepted, 1 if the match's undo policy refuses it (the refusal is logged).

    Example: referee undo 3f9c --to 40 --by alice --reason "misread the card"   ·   referee undo 3f9c --to line:23
    """))
def undo(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    to: Annotated[str | None, typer.Option("--to", help=N_("Fold back to the state after entry N, or line:N of the imported transcript (default: before the last action: a move, a ruling, a held move)."))] = None,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the log)."))] = "",
    by: Annotated[str, typer.Option("--by", help=N_("The seat undoing, or 'arbiter'."))] = "arbiter",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help=N_("Refuse (exit 4) unless the log is at this entry."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    from referee import entryref

    res = service.undo(match, by=by, to=entryref.resolve_opt(service, match, to, "--to"), reason=reason, expected_seq=expect_seq)
    report_entry(res, json)


@app.command(help=N_("""Reverse an undo (only while nothing has been played since): also an entry.

    Example: referee redo 3f9c --by alice
    """))
def redo(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    undo_: Annotated[str | None, typer.Option("--undo", help=N_("The undo entry to reverse, by number (default: the latest in effect)."))] = None,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the log)."))] = "",
    by: Annotated[str, typer.Option("--by", help=N_("The seat redoing, or 'arbiter'."))] = "arbiter",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    from referee import entryref

    res = service.redo(match, by=by, undo=entryref.resolve_opt(service, match, undo_, "--undo"), reason=reason)
    report_entry(res, json)


@app.command(help=N_("""Answer an intent held for a confirmation. A declared effect that takes a card from where its
    player cannot see (another seat's hand) is held until that seat, or the arbiter, confirms it: it is
    then adjudicated with what only they can see. Declined, it has no effect. Exit 0 if the confirmed
    intent was accepted (or it was declined), 1 if the rules refuse it.

    Example: referee confirm 3f9c 41 --by bob   ·   referee confirm 3f9c 41 --by bob --decline
    """))
def confirm(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    entry: Annotated[str, typer.Argument(help=N_("The entry that waits for a confirmation: an entry number, or line:N for the entry read from line N of the imported transcript."))],
    by: Annotated[str, typer.Option("--by", help=N_("The seat it waits for, or 'arbiter'."))] = "arbiter",
    decline: Annotated[bool, typer.Option("--decline", help=N_("Decline it: the held intent has no effect."))] = False,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the log)."))] = "",
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help=N_("Refuse (exit 4) unless the log is at this entry."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    from referee import entryref

    res = service.confirm(match, entryref.resolve(service, match, entry, "the entry confirmed"), by=by, accept=not decline, reason=reason, expected_seq=expect_seq)
    report_entry(res, json)


@app.command(help=N_("""Start a new match sharing this one's history up to entry N (like a variation); prints its id
    alone on the last line.

    Example: referee fork 3f9c --at 40 --name "what if I kept the agent"
    """))
def fork(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    at: Annotated[str, typer.Option("--at", help=N_("Share the history up to entry N, or up to line:N of the imported transcript."))],
    name: Annotated[str, typer.Option("--name", help=N_("A title for the new line of play."))] = "",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee import entryref

    local = local_referee(ctx, db)
    info = local.fork(match, at=entryref.resolve(local, match, at, "--at"), name=name)
    if json:
        print_json(info)
        return
    from cli import render

    render.forked(info)
    print(info.id)
