"""``referee tournament clock T start --minutes 50`` / ``stop`` / ``resume`` / ``show``: the round clock
(:mod:`referee.tournament.clock`), kept in the organiser's own database. Declared on
``cli.common.tournament_app`` when :mod:`cli.tournament` is imported. Over a server the organiser's token
does the same with ``POST /tournaments/{id}/clock``.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.i18n import N_

from cli.common import DbOpt, JsonOpt, connection, fail, local_referee, print_json, tournament_app

ACTIONS = ("start", "stop", "resume", "show")


@tournament_app.command("clock", help=N_("""The round clock: start it for the round being played (again: it starts over), stop it (the time
    left is kept), resume it, or show it. Each of start, stop and resume is a record of the tournament
    with the time it was made; the hall, the arbiter's page and the seats' pages count down from it, and
    flag the tables still playing once it is up.

    Example: referee tournament clock 5e1a start --minutes 50   ·   referee tournament clock 5e1a show --json
    """))
def clock(
    ctx: typer.Context,
    tournament: Annotated[str, typer.Argument(help=N_("Tournament id (a unique prefix of 4+ characters will do)."))],
    action: Annotated[str, typer.Argument(help=N_("start, stop, resume or show."))] = "show",
    minutes: Annotated[int | None, typer.Option("--minutes", help=N_("The round's time (start only)."))] = None,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the tournament's record)."))] = "",
    by: Annotated[str, typer.Option("--by", help=N_("Who records it (kept in the tournament's record)."))] = "organiser",
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from msgspec import to_builtins

    from referee.tournament import clock as rc
    from referee.tournament.service import Tournaments

    if action not in ACTIONS:
        fail(N_("the clock's action is one of {actions}, not {action!r}"), code=2, actions=", ".join(ACTIONS), action=action)
    if minutes is not None and action != "start":
        fail(N_("--minutes goes with start only, not {action}"), code=2, action=action)
    if action == "start" and minutes is None:
        fail(N_("starting the clock needs the round's time: --minutes 50"), code=2)
    conn = connection(ctx)
    if conn.server:
        _remote(conn.server, conn.token, tournament, action, minutes, reason, json)
        return
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


def _remote(server: str, token: str | None, tournament: str, action: str, minutes: int | None, reason: str,
            json: bool) -> None:
    """The same over a server (``--server URL --token T``): the organiser's token sets the clock, any of the
    tournament's tokens shows it; the time left is counted from this machine's clock."""
    import urllib.parse

    from msgspec import to_builtins

    from cli.client import decode
    from cli.tournament_client import RemoteTournaments
    from referee.config import utc_now
    from referee.tournament.clock import words
    from schemas.tournament import HallClock

    remote = RemoteTournaments(server, token)
    path = "/tournaments/" + urllib.parse.quote(tournament, safe="") + "/clock"
    shown: HallClock | None
    if action == "show":
        shown = remote.http.get(path, HallClock | None)  # type: ignore[arg-type]
    else:
        body: dict[str, object] = {"action": action, "reason": reason}
        if minutes is not None:
            body["minutes"] = minutes
        shown = decode(remote.http.call("POST", path, body), HallClock)
    if json:
        print_json(to_builtins(shown) if shown is not None else None)
        return
    sys.stdout.write(words(shown, utc_now()) + "\n")
