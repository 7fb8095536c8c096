"""``referee player NAME``: one player's history (events, matches, results per game, rating over
time), read from the matches' summaries (:mod:`referee.players`). Registered on
:data:`cli.common.app` when :mod:`cli.main` imports this module."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.i18n import N_, gettext, ngettext

from cli.common import DbOpt, JsonOpt, app, local_referee, print_json


def lines(found: object) -> str:
    """The history as plain lines (for a pipe): one line a record, tab-free, in a fixed order."""
    from schemas.players import PlayerHistory

    assert isinstance(found, PlayerHistory)
    out = [f"player {found.player}" + (f" (game {found.game})" if found.game else "")]
    for e in found.events:
        out.append(f"event {e.name}: {e.matches} matches")
    for g in found.games:
        out.append(f"record {g.game}: {g.wins}-{g.draws}-{g.losses} (W-D-L) of {g.played}, "
                   f"win rate {g.win_rate * 100:.1f}%")
    if found.rating:
        now = found.rating[-1]
        out.append(f"rating {now.ordinal:.2f} (mu {now.mu:.2f}, sigma {now.sigma:.2f}) after {len(found.rating)} "
                   f"rated matches ({found.model})")
    for m in found.matches:
        at = " ".join(x for x in (m.event, f"round {m.round}" if m.round else "", f"table {m.table}" if m.table else "") if x)
        side = f"with {', '.join(m.partners)}" if m.partners else f"vs {', '.join(m.opponents) or '-'}"
        out.append(f"match {m.match_id} {m.game} {side}: {m.result}"
                   + (f" ({m.score})" if m.score is not None else "") + (f" [{at}]" if at else "") + f" {m.last_activity}")
    return "".join(line + "\n" for line in out)


@app.command(help=N_("""One player's history: the events they played in, their matches (opponents, result, last activity),
    wins-draws-losses and win rate per game, and their rating (openskill, as `referee ratings`) after each
    rated match. Forks are left out. An unknown player is refused (exit 3) with the closest names.

    Example: referee player alice --game by_all_means
    """))
def player(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help=N_("The player: a seat name, as the matches and tournaments name them."))],
    game: Annotated[str | None, typer.Option("--game", help=N_("Only this game's matches."), show_default=False)] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee.players import of_database

    found = of_database(local_referee(ctx, db), name, game=game)
    if json:
        import msgspec

        print_json(msgspec.to_builtins(found))
        return
    if not sys.stdout.isatty():
        sys.stdout.write(lines(found))
        return
    _table(found)


def _table(found: object) -> None:
    """The history as rich tables, for a person at a terminal."""
    from cli.render import console, escape, new_table
    from schemas.players import PlayerHistory

    assert isinstance(found, PlayerHistory)
    con = console()
    events = escape(', '.join(f'{e.name} ({e.matches})' for e in found.events))
    con.print(f"[bold]{escape(found.player)}[/bold]" + (f" ({escape(found.game)})" if found.game else "")
              + (gettext(" — events: {events}", events=events) if found.events else ""))
    games = new_table(title=gettext("Results per game"), title_justify="left")
    for col in (N_("game"), N_("played"), N_("W-D-L"), N_("win rate")):
        games.add_column(gettext(col), no_wrap=True)
    for g in found.games:
        games.add_row(escape(g.game), str(g.played), f"{g.wins}-{g.draws}-{g.losses}", f"{g.win_rate * 100:.1f}%")
    con.print(games)
    if found.rating:
        now = found.rating[-1]
        trend = " → ".join(f"{p.ordinal:.1f}" for p in found.rating[-8:])
        figures = f"[bold]{now.ordinal:.2f}[/bold] (mu {now.mu:.2f}, sigma {now.sigma:.2f})"
        con.print(ngettext("rating {figures} after {n} rated matches ({model}); lately {trend}",
                           "rating {figures} after {n} rated matches ({model}); lately {trend}", len(found.rating),
                           figures=figures, model=found.model, trend=trend))
    table = new_table(title=gettext("Matches"), title_justify="left")
    table.add_column(gettext("id"), no_wrap=True)
    for col in (N_("game"), N_("opponents"), N_("result"), N_("event"), N_("round"), N_("table"), N_("last activity*")):
        table.add_column(gettext(col), no_wrap=col in ("game", "result", "round", "table", "last activity*"))
    for m in found.matches:
        shown = m.result + (f" ({m.score})" if m.score is not None else "")
        side = ("with " + ", ".join(m.partners)) if m.partners else ", ".join(m.opponents)
        table.add_row(m.match_id, escape(m.game), escape(side), shown, escape(m.event),
                      escape(m.round), escape(m.table), m.last_activity)
    con.print(table)
