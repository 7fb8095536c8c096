"""``referee tournament tokens`` and ``referee tournament slips``: what the organiser hands out from their
own database, the tournament's tokens with the hall's address and a printable slip per table (with a QR
code of each seat's page on the hall). Declared on ``cli.common.tournament_app`` when :mod:`cli.tournament`
is imported; both need the local database (the organiser is whoever owns it).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.i18n import N_, gettext, ngettext

from cli.common import DbOpt, JsonOpt, connection, fail, local_referee, print_json, tournament_app

#: where ``referee serve`` listens unless told otherwise (its --host and --port defaults)
SERVE_DEFAULT = "http://127.0.0.1:8000"

TidArg = Annotated[str, typer.Argument(help=N_("Tournament id (a unique prefix of 4+ characters will do)."))]
BaseOpt = Annotated[str, typer.Option("--base-url", help=N_("The hall server's address as the players reach it "
                                      "(default: where `referee serve` listens by default, http://127.0.0.1:8000)."))]


def _local_only(ctx: typer.Context, what: str) -> None:
    if connection(ctx).server:
        fail(N_("tournament {what} reads the organiser's own database; over a server the tokens are the ones "
                "`tournament new` printed (run it without --server)"), code=2, what=what)


def _base(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        fail(N_("--base-url {url!r} is not an http(s) address like {example}"), code=2, url=url, example=SERVE_DEFAULT)
    return url.strip().rstrip("/")


@tournament_app.command("tokens", help=N_("""The tournament's tokens (the organiser's, the spectators', each player's) and the hall's address.

    A token is shown once, when it is issued (only its hash is kept): the first run issues every role
    one, later runs issue one to whoever has none (a player registered since) and, with --rotate, a new
    one in place of the old, which stops working. Each issuing is a record of the tournament.

    Example: referee tournament tokens 5e1a --base-url http://hall.lan:8000 --rotate player:eve
    """))
def tokens(
    ctx: typer.Context, tournament: TidArg,
    rotate: Annotated[list[str] | None, typer.Option("--rotate", help=N_("Replace a token (repeatable): organiser, "
                      "spectator, players, player:NAME or all; the old one is refused from then on."),
                      show_default=False)] = None,
    base_url: BaseOpt = SERVE_DEFAULT,
    reason: Annotated[str, typer.Option("--reason", help=N_("Why (kept in the tournament's record)."))] = "",
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from referee.tournament.service import Tournaments
    from referee.tournament.tokens import issue, parse_rotate

    _local_only(ctx, "tokens")
    base = _base(base_url)
    service = Tournaments(local_referee(ctx, db))
    state = service.load(tournament)
    state, holders = issue(service, state.id, parse_rotate(state, rotate or []), by="organiser", why=reason)
    hall = f"{base}/hall/{state.id}"
    if json:
        print_json({"tournament": state.id, "hall": hall, "tokens": [
            {"role": h.role, "player": h.player, "token": h.token,
             "hall": f"{hall}#token={h.token}" if h.token else None} for h in holders]})
        return
    rows = [[h.role, h.player or "", h.token or gettext("(issued earlier; --rotate for a new one)")] for h in holders]
    heads = [gettext("role"), gettext("who"), gettext("token")]
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(3)]
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [heads, *rows]]
    out += [gettext("hall: {hall}#token=TOKEN  (the fragment never reaches the server; the spectators' token on the "
                    "hall's screen, each player's on their own phone)", hall=hall)]
    sys.stdout.write("\n".join(out) + "\n")


@tournament_app.command("slips", help=N_("""Printable score sheets for a round: one page a table (HTML; print it, A4 or letter).

    Each page: the table, its seats and players, the match id, the game's template with the seats and
    the table filled in and ruled lines to write the moves on, and a strip per seat with a QR code of
    the seat's page on the hall (its token in the URL's fragment). Each seated player is issued a new
    token for it (recorded; the one they held stops working): cut the strips apart and hand them out.

    Example: referee tournament slips 5e1a --round 2 --base-url http://hall.lan:8000 -o round2.html
    """))
def slips(
    ctx: typer.Context, tournament: TidArg,
    round_: Annotated[int, typer.Option("--round", help=N_("The round (paired)."))],
    output: Annotated[str, typer.Option("--output", "-o", help=N_("The HTML file to write (never over an existing one)."))] = "slips.html",
    base_url: BaseOpt = SERVE_DEFAULT,
    db: DbOpt = None,
) -> None:
    from cli import outfile
    from referee.tournament.service import Tournaments
    from referee.tournament.slips import make

    _local_only(ctx, "slips")
    base = _base(base_url)
    outfile.check(output, new_only=True)  # refused before anything is issued
    text = make(Tournaments(local_referee(ctx, db)), tournament, round_, base)
    outfile.write(output, [text], new_only=True)
    sys.stderr.write(gettext("Wrote {output}: round {round}, a page a table; print it and cut each seat's strip off",
                             output=output, round=round_) + "\n")
