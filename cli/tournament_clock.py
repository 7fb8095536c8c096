"""``referee tournament clock T start --minutes 50`` / ``stop`` / ``resume`` / ``show``: the round clock
(:mod:`referee.tournament.clock`), kept in the organiser's own database. Declared on
``cli.common.tournament_app`` when :mod:`cli.tournament` is imported. Over a server the organiser's token
does the same with ``POST /tournaments/{id}/clock``.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cli.common import DbOpt, JsonOpt, connection, fail, local_referee, print_json, tournament_app

ACTIONS = ("start", "stop", "resume", "show")


@tournament_app.command("clock")
def clock(
    ctx: typer.Context,
    tournament: Annotated[str, typer.Argument(help="Tournament id (a unique prefix of 4+ characters will do).")],
    action: Annotated[str, typer.Argument(help="start, stop, resume or show.")] = "show",
    minutes: Annotated[int | None, typer.Option("--minutes", help="The round's time (start only).")] = None,
    reason: Annotated[str, typer.Option("--reason", help="Why (kept in the tournament's record).")] = "",
    by: Annotated[str, typer.Option("--by", help="Who records it (kept in the tournament's record).")] = "organiser",
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """The round clock: start it for the round being played (again: it starts over), stop it (the time
    left is kept), resume it, or show it. Each of start, stop and resume is a record of the tournament
    with the time it was made; the hall, the arbiter's page and the seats' pages count down from it, and
    flag the tables still playing once it is up.

    Example: referee tournament clock 5e1a start --minutes 50   ·   referee tournament clock 5e1a show --json
    """
    from msgspec import to_builtins

    from referee.tournament import clock as rc
    from referee.tournament.service import Tournaments

    if action not in ACTIONS:
        fail(f"the clock's action is one of {', '.join(ACTIONS)}, not {action!r}", code=2)
    if connection(ctx).server:
        fail("tournament clock reads the organiser's own database; over a server the organiser's token posts "
             "to /tournaments/ID/clock (or press the buttons of the hall's console)", code=2)
    if minutes is not None and action != "start":
        fail(f"--minutes goes with start only, not {action}", code=2)
    if action == "start" and minutes is None:
        fail("starting the clock needs the round's time: --minutes 50", code=2)
    service = Tournaments(local_referee(ctx, db))
    if action == "start":
        assert minutes is not None
        state = rc.start(service, tournament, minutes, by=by, why=reason)
    elif action == "stop":
        state = rc.stop(service, tournament, by=by, why=reason)
    elif action == "resume":
        state = rc.resume(service, tournament, by=by, why=reason)
    else:
        state = service.load(tournament)
    now = service.clock()
    shown = rc.shown(state, now)
    if json:
        print_json(to_builtins(shown) if shown is not None else None)
        return
    sys.stdout.write(rc.words(shown, now) + "\n")
