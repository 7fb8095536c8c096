"""``referee cards`` and ``referee template``: what a scorekeeper needs before writing a transcript.
Registered on :data:`cli.common.app` when :mod:`cli.main` imports this module (at its end), built lazily
like every command (:mod:`cli.lazy`); this module imports nothing heavy at its top."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.i18n import N_, gettext, ngettext

from cli.common import JsonOpt, kv, print_json, app


def _options(items: list[str] | None) -> dict[str, str]:
    return kv(items, "option")


@app.command(help=N_("""List a card set as a scorekeeper types it: every card's id (what a move names), its printed
    name, kind, the decks (or empire) holding it and a reminder of its prices; for a game with a board,
    its regions and positions too.

    Example: referee cards by_all_means demo   ·   referee cards war_of_shadows demo --json
    """))
def cards(
    game: Annotated[str, typer.Argument(help=N_("A game id (referee games lists them)."))],
    set_: Annotated[str | None, typer.Argument(metavar="[SET]", help=N_("A bundled card set, or a card file (default: the game's own)."))] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=N_("A match option that picks from the set (War of Shadows: board=ID)."))] = None,
    json: JsonOpt = False,
) -> None:
    import os

    from referee import skeleton
    from referee.service import Referee
    from referee.store import open_store

    from referee.i18n import current, speaking

    with speaking("en" if json else current()):  # --json is read by programs: its names in English
        found, name, rows = skeleton.listing(Referee(open_store(":memory:")).configuration, game, set_, _options(option))
    if json:
        print_json({"game": found.id, "cards": name, "listed": rows})
        return
    if not rows:
        sys.stdout.write(gettext("{game} lists no cards for card set {name}: the game declares no listing (its rules' "
                                 "`listing` hook); `referee games {id}` shows what its intents take", game=found.name,
                                 name=name, id=found.id) + "\n")
        return
    from cli import scorekeeping

    shown = os.path.basename(name) if set_ and os.path.sep in set_ else name
    scorekeeping.listed(f"{found.name}: card set {shown} ({len(rows)})", rows)


@app.command(help=N_("""Print a transcript to fill in: the header (game, players, cards, the metadata to write) and the
    opening moves as the referee accepts them from the set-up, the cards drawn marked. It imports as
    it is; overwrite the moves with what was played and go on a line per move.

    Example: referee template by_all_means --players alice,bob --cards demo -o tonight.txt
    """))
def template(
    game: Annotated[str, typer.Argument(help=N_("A game id (referee games lists them)."))],
    players: Annotated[str, typer.Option("--players", help=N_("The seats, comma-separated, in seating order (default: alice, bob...)."))] = "",
    cards_: Annotated[str | None, typer.Option("--cards", help=N_("A bundled card set or a card file (default: the game's own)."))] = None,
    option: Annotated[list[str] | None, typer.Option("--option", help=N_("A match option, name=value (repeatable)."))] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help=N_("Write to this file instead of standard output (never over an existing file)."))] = None,
) -> None:
    from cli import outfile
    from referee import skeleton
    from referee.service import Referee
    from referee.store import open_store

    if output is not None:
        outfile.check(output, new_only=True)  # refused before the work
    seats = [p.strip() for p in players.split(",") if p.strip()]
    text = skeleton.template(Referee(open_store(":memory:")).configuration, game, cards=cards_, players=seats, options=_options(option))
    if output is None:
        sys.stdout.write(text)
        return
    outfile.write(output, [text], new_only=True)
    sys.stderr.write(gettext("Wrote {output}: fill it in, then `referee import {output} --check`", output=output) + "\n")
