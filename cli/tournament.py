"""``referee tournament ...``: the tournament commands, a veneer over
:class:`referee.tournament.api.TournamentApi` (each command parses, calls one method, prints): the local
database's (:class:`~referee.tournament.api.LocalTournaments`) or, with ``--server URL --token T``, a
server's (:class:`cli.tournament_client.RemoteTournaments`), which answer with the same Structs.

Declared on ``cli.main.tournament_app``, a :class:`cli.lazy.LateTyper`: this module is imported only
when the ``tournament`` group is built, so no other command pays for it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.i18n import N_, gettext, ngettext

import cli.tournament_paper  # noqa: F401  (declares `tournament tokens` and `slips` on tournament_app)
import cli.tournament_clock  # noqa: F401  (declares `tournament clock` on tournament_app)
from cli.common import DbOpt, Exit, JsonOpt, connection, fail, local_referee, print_json, tournament_app

if TYPE_CHECKING:
    from referee.tournament.api import TournamentApi
    from referee.tournament.service import Tournaments
    from schemas.tournament import StandingsAnswer

player_app = typer.Typer(help=N_("Register, drop, reinstate or rename a player."), no_args_is_help=True)
tournament_app.add_typer(player_app, name="player")

TidArg = Annotated[str, typer.Argument(help=N_("Tournament id (a unique prefix of 4+ characters will do)."))]
ByOpt = Annotated[str, typer.Option("--by", help=N_("Who records it (kept in the tournament's record)."))]
ReasonOpt = Annotated[str, typer.Option("--reason", help=N_("Why (kept in the tournament's record)."))]


def _tournaments(ctx: typer.Context, db: str | None, *, create: bool = False) -> Tournaments:
    """The local service (``tournament new`` and ``list``; refused in client mode)."""
    from referee.tournament.service import Tournaments

    return Tournaments(local_referee(ctx, db, create=create))


def _api(ctx: typer.Context, db: str | None) -> TournamentApi:
    """The tournaments the command talks to: the server's in client mode (``--server URL --token T``,
    a tournament token), else the local database's."""
    conn = connection(ctx)
    if conn.server:
        from cli.tournament_client import RemoteTournaments

        return RemoteTournaments(conn.server, conn.token)
    from referee.tournament.api import LocalTournaments

    return LocalTournaments(local_referee(ctx, db))


def _list(text: str | None) -> list[str]:
    return [w.strip() for w in (text or "").split(",") if w.strip()]


def _kv_ints(text: str | None, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in _list(text):
        key, sep, value = item.partition("=")
        digits = value.strip().lstrip("-")
        if not sep or not key.strip() or not digits.isdigit() or len(digits) > 12:
            fail(N_("{what} {item!r} is not name=whole number (e.g. --{what} alice=12,bob=9)"), what=what, item=item)
        out[key.strip()] = int(value.strip())
    return out


def _show_row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()


def _print_table(head: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    sys.stdout.write(_show_row(head, widths) + "\n")
    for r in rows:
        sys.stdout.write(_show_row(r, widths) + "\n")


def _struct_json(value: Any) -> None:
    import msgspec

    print_json(msgspec.to_builtins(value))


def _print_standings(table: StandingsAnswer) -> None:
    sys.stdout.write(gettext("standings after round {round}", round=table.after_round) + "\n")
    _print_table([gettext("rank"), gettext("player"), *table.tiebreaks],
                 [[str(r.rank), (r.name or r.player) + (gettext(" (dropped)") if r.dropped else ""),
                   *[r.values[n] for n in table.tiebreaks]] for r in table.rows])
    if table.pending:
        tables = ", ".join(gettext("round {round} table {table}", round=p.round, table=p.table) for p in table.pending)
        sys.stdout.write(gettext("no result yet: {tables}", tables=tables) + "\n")
    if table.head:
        sys.stdout.write(gettext("head {head} (the whole record's: `tournament audit --expect-head` checks it)",
                                 head=table.head) + "\n")


@tournament_app.command("new", help=N_("""Create a tournament; prints its id alone on the last line.

    Example: referee tournament new "Club Cup" --game by_all_means --rounds 5 --players ann,ben,cy,dee
    """))
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help=N_("The tournament's name."))],
    game: Annotated[str, typer.Option("--game", help=N_("Game id (see `referee games`)."))],
    format: Annotated[str, typer.Option("--format", help=N_("swiss, round-robin or pods."))] = "swiss",
    rounds: Annotated[int | None, typer.Option("--rounds", help=N_("How many rounds (Swiss, pods); round-robin: every pairing."), show_default=False)] = None,
    tiebreaks: Annotated[str | None, typer.Option("--tiebreaks", help=N_("Comma-separated, in order: points, game-points, buchholz, buchholz-cut1, median-buchholz, sonneborn-berger, omw, gw, ogw, head-to-head, progressive, score."), show_default=False)] = None,
    points: Annotated[str, typer.Option("--points", help=N_("Match points: win=3,draw=1,loss=0,bye=3 (any of them; fractions too: win=1,draw=0.5); half=N a half-point bye's (default a draw's)."))] = "",
    places: Annotated[str, typer.Option("--places", help=N_("Pods: points of 1st, 2nd, ... when a table ends in a ranking (default: n-1, ..., 0)."))] = "",
    table_size: Annotated[int | None, typer.Option("--table-size", help=N_("Pods: seats a table (default: the game's most)."), show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", help=N_("Seed of the drawing of lots (default: drawn now, and recorded)."), show_default=False)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=N_("Match option name=value for every match (repeatable)."))] = None,
    cards: Annotated[str | None, typer.Option("--cards", help=N_("The card set every match uses: a bundled set's name, or a card-definition TOML file (read now; its text is kept with the tournament)."), show_default=False)] = None,
    chance: Annotated[str, typer.Option("--chance", help=N_("physical (outcomes typed in) or digital, for every match."))] = "physical",
    players: Annotated[str, typer.Option("--players", "-p", help=N_("Players to register now, comma-separated."))] = "",
    undo_policy: Annotated[str, typer.Option("--undo-policy", help=N_("Who may undo in the matches: own_last (a seat takes back only its own last action, before anyone else acts), any (seat) or arbiter."))] = "own_last",
    unplayed: Annotated[str, typer.Option("--unplayed", help=N_("How a round without a game (bye, forfeit, absence) counts in Buchholz and Sonneborn-Berger: simple (its points, no opponent) or fide (FIDE C.07: a dummy opponent with the player's own score)."))] = "simple",
    direct_encounter: Annotated[str, typer.Option("--direct-encounter", help=N_("head-to-head among level players: partial (the games some of them played) or fide (level unless all of them met)."))] = "partial",
    by: ByOpt = "organiser",
    reason: ReasonOpt = "",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee.tournament.words import parse_places, parse_points

    pts = parse_points(points)
    if places:
        import msgspec

        pts = msgspec.structs.replace(pts, places=tuple(p * pts.unit for p in parse_places(places)))
    opts: dict[str, str] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(N_("option {item!r} is not name=value (e.g. --option reaction_window=false)"), item=item)
        opts[key.strip()] = value.strip()
    cards, cards_text = _card_file(cards)
    if connection(ctx).server:
        _new_remote(ctx, name, game, format, rounds, tiebreaks, pts, seed, table_size, opts, cards, cards_text, chance,
                    players, json, undo_policy, unplayed, direct_encounter)
        return
    service = _tournaments(ctx, db, create=True)
    state = service.create(name, game, format=format, rounds=rounds, tiebreaks=_list(tiebreaks) if tiebreaks else None,
                           points=pts, seed=seed, table_size=table_size, options=opts, cards=cards,
                           cards_text=cards_text, chance=chance, players=_list(players), by=by, why=reason,
                           undo=undo_policy, unplayed=unplayed, direct_encounter=direct_encounter)
    if json:
        print_json({"id": state.id, "name": state.config.name, "game": state.config.game,
                     "format": state.config.format, "players": list(state.players), "undo": state.config.undo})
        return
    cfg = state.config
    how_many = ngettext(", {n} rounds", ", {n} rounds", cfg.rounds) if cfg.rounds else ""
    sys.stdout.write(f"{cfg.name}: {cfg.game}, {cfg.format}" + how_many
                     + ngettext(", {n} players; tie-breaks {tiebreaks}; undo policy of the matches: {undo}",
                                ", {n} players; tie-breaks {tiebreaks}; undo policy of the matches: {undo}",
                                len(state.players), tiebreaks=', '.join(state.tiebreaks), undo=cfg.undo)
                     + f"\n{state.id}\n")


def _card_file(cards: str | None) -> tuple[str | None, str | None]:
    """``--cards``: a bundled set's name as it is, or a card file read here (the name it goes by, its text);
    the service (and a server) never opens a file by its name."""
    import os

    if cards is None or not os.path.isfile(cards):
        return cards, None
    from referee.inputs import read_file
    from schemas import CARDS_TEXT_MAX, NAME_MAX

    label = os.path.basename(cards)
    return (label if 0 < len(label) <= NAME_MAX else None), read_file(cards, "card file", CARDS_TEXT_MAX)


def _new_remote(ctx: typer.Context, name: str, game: str, format: str, rounds: int | None, tiebreaks: str | None,
                pts: Any, seed: int | None, table_size: int | None, opts: dict[str, str], cards: str | None,
                cards_text: str | None, chance: str, players: str, json: bool, undo: str, unplayed: str,
                direct_encounter: str) -> None:
    """``referee --server URL tournament new ...``: created on the server, its tokens shown once."""
    import msgspec

    from cli.tournament_client import RemoteTournaments
    from schemas.tournament import CreateTournament

    conn = connection(ctx)
    body = {"name": name, "game": game, "format": format, "rounds": rounds, "tiebreaks": _list(tiebreaks) or None,
            "points": {k: getattr(pts, k) for k in ("win", "draw", "loss", "bye", "half") if getattr(pts, k) is not None},
            "points_unit": pts.unit,
            "places": list(pts.places),
            "table_size": table_size, "seed": seed, "options": opts, "cards": cards, "cards_text": cards_text,
            "chance": chance,
            "players": _list(players), "undo": undo, "unplayed": unplayed, "direct_encounter": direct_encounter}
    try:
        req = msgspec.convert({k: v for k, v in body.items() if v is not None}, CreateTournament)
    except msgspec.ValidationError as exc:
        fail(N_("tournament new: {problem}"), problem=str(exc))
    made = RemoteTournaments(conn.server or "", conn.token, need_token=False).create(req)
    hall = f"{(conn.server or '').rstrip('/')}/hall/{made.tournament}"
    if json:
        print_json({**msgspec.to_builtins(made), "hall": hall})
        return
    t = made.tokens
    out = [gettext("{name}: created on {server}; its tokens (shown once, keep them):", name=made.name,
                   server=conn.server),
           gettext("  organiser: {token}", token=t.organiser), gettext("  spectator: {token}", token=t.spectator)]
    out += [f"  {p}: {tok}" for p, tok in t.players.items()]
    out += [gettext("hall: {hall}#token={token}  (the spectators' token: for the hall's screen; a player's token in "
                    "place of it shows their own tables)", hall=hall, token=t.spectator)]
    sys.stdout.write("\n".join(out) + f"\n{made.tournament}\n")


@tournament_app.command("list", help=N_("""Every tournament in the database.

    Example: referee tournament list --json
    """))
def list_(ctx: typer.Context, db: DbOpt = None, json: JsonOpt = False) -> None:
    found = _tournaments(ctx, db).every()
    rows: list[dict[str, Any]] = [{"id": t.id, "name": t.config.name, "game": t.config.game, "format": t.config.format,
             "players": len(t.players), "rounds": t.current} for t in found]
    if json:
        print_json(rows)
        return
    _print_table(["id", "name", "game", "format", "players", "round"],
                 [[r["id"], r["name"], r["game"], r["format"], str(r["players"]), str(r["rounds"])] for r in rows])


@tournament_app.command("show", help=N_("""The tournament: settings, players, rounds, tables, what blocks the next pairing.

    Example: referee tournament show 5e1a
    """))
def show(ctx: typer.Context, tournament: TidArg, db: DbOpt = None, json: JsonOpt = False) -> None:
    import msgspec

    api = _api(ctx, db)
    shown = api.show(tournament)
    pairings = api.pairings(shown.tournament)
    data = {
        "id": shown.tournament, "name": shown.name, "game": shown.game, "format": shown.format, "rounds": shown.rounds,
        "tiebreaks": shown.tiebreaks, "records": shown.records, "seed": shown.seed, "undo": shown.undo,
        "unplayed": shown.unplayed, "direct_encounter": shown.direct_encounter, "progressive": shown.progressive,
        "players": [{"player": p.player, "name": p.name, "entered": p.entered, "dropped": p.dropped}
                    for p in shown.players],
        "round": [msgspec.to_builtins(r) for r in pairings.rounds],
        "blocks": [msgspec.to_builtins(b) for b in pairings.blocks],
        "you": msgspec.to_builtins(shown.you),
    }
    if json:
        print_json(data)
        return
    progressive = (N_("unplayed rounds: {unplayed}; direct encounter: {direct}; progressive: after every round")
                   if shown.progressive == "rounds" else
                   N_("unplayed rounds: {unplayed}; direct encounter: {direct}; progressive: after every round with a "
                      "game (recorded before the fix)"))
    dropped = gettext(" [dropped]")
    players = ", ".join(p.player + (f" ({p.name})" if p.name else "") + (dropped if p.dropped else "")
                        for p in shown.players)
    out = [f"{shown.name} ({shown.tournament}): {shown.game}, {shown.format}"
           + (ngettext(", {n} rounds", ", {n} rounds", shown.rounds) if shown.rounds else ""),
           ngettext("tie-breaks: {tiebreaks}; {n} records; undo policy of the matches: {undo}",
                    "tie-breaks: {tiebreaks}; {n} records; undo policy of the matches: {undo}", shown.records,
                    tiebreaks=", ".join(shown.tiebreaks), undo=shown.undo),
           gettext(progressive, unplayed=shown.unplayed, direct=shown.direct_encounter),
           gettext("players: {players}", players=players)]
    for r in pairings.rounds:
        out.append(gettext("round {round}", round=r.round) if r.closed else
                   gettext("round {round} (being played)", round=r.round))
        for t in r.tables:
            out.append(gettext("  table {table}: {seats}  {result}  match {match}", table=t.table,
                               seats=" v ".join(t.seats), result=t.result or gettext("no result yet"),
                               match=t.match_id or "-"))
            if t.reports and not t.result:
                reports = "; ".join(f"{x.player}: {x.typed or x.result}" for x in t.reports)
                out.append(gettext("    results disagree: {reports}", reports=reports) if t.disagree else
                           gettext("    reported: {reports}", reports=reports))
        out += [gettext("  bye: {player}", player=b) for b in r.byes]
        out += [gettext("  half-point bye: {player}", player=b) for b in r.half_byes]
        out += [gettext("  absent: {player}", player=b) for b in r.absent]
    for block in pairings.blocks:  # why: English from the answer; a phrase without values reads through the catalog
        out.append(gettext("blocks the next round: table {table} (match {match}): {why}", table=block.table,
                           match=block.match_id, why=gettext(block.why)) if block.match_id else
                   gettext("blocks the next round: table {table}: {why}", table=block.table, why=gettext(block.why)))
    sys.stdout.write("\n".join(out) + "\n")


@player_app.command("add", help=N_("""Register a player (once round 1 is paired: a late entry, from the next round on).

    Example: referee tournament player add 5e1a eve --name "Eve Adams"
    """))
def player_add(
    ctx: typer.Context, tournament: TidArg,
    player: Annotated[str, typer.Argument(help=N_("The player's id: their seat name in every match."))],
    name: Annotated[str, typer.Option("--name", help=N_("The name shown in standings."))] = "",
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import AddPlayer

    added = _api(ctx, db).add_player(tournament, AddPlayer(player=player, name=name, reason=reason), by=by)
    if json:
        _struct_json(added)
        return
    late = gettext(" (late entry: plays from round {round})", round=added.entered) if added.entered > 1 else ""
    sys.stdout.write(gettext("{player} registered", player=added.player) + late
                     + (gettext(" (record {record})", record=added.records) if added.records else "")
                     + ("\n" + gettext("  token (shown once): {token}", token=added.token) if added.token else "") + "\n")


@player_app.command("drop", help=N_("""Drop a player: not paired from the next round on; their games still count for their opponents.

    Example: referee tournament player drop 5e1a eve --reason "left at lunch"
    """))
def player_drop(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help=N_("The player."))],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    _change(ctx, db, tournament, player, {"drop": True, "reason": reason}, by, json)


@player_app.command("undrop", help=N_("""Reinstate a dropped player (paired again from the next round).

    Example: referee tournament player undrop 5e1a eve --reason "dropped by mistake"
    """))
def player_undrop(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help=N_("The player."))],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    _change(ctx, db, tournament, player, {"drop": False, "reason": reason}, by, json)


@player_app.command("rename", help=N_("""Change the name shown for a player (their id, the seat name in matches, stays).

    Example: referee tournament player rename 5e1a eve "Eve Adams-Smith"
    """))
def player_rename(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help=N_("The player."))],
    name: Annotated[str, typer.Argument(help=N_("The name shown from now on."))],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    _change(ctx, db, tournament, player, {"name": name, "reason": reason}, by, json)


def _change(ctx: typer.Context, db: str | None, tournament: str, player: str, change: dict[str, Any], by: str,
            json: bool) -> None:
    from schemas.tournament import PlayerChange

    _done(_api(ctx, db).change_player(tournament, player, PlayerChange(**change), by=by), json)


def _done(answer: Any, json: bool) -> None:
    """A write's :class:`schemas.tournament.Recorded`: what was done, and the record it is."""
    if json:
        _struct_json(answer)
    else:
        sys.stdout.write(answer.done + gettext(" (record {record})", record=answer.records) + "\n")


@tournament_app.command("pair", help=N_("""Pair the next round: a match for each table, its seats and tokens.

    Closes the round being played (its results copied from the match logs), creates a match for each
    table and prints the seats and each match's tokens (shown once). Refused,
    naming the table, while a match of the round is unfinished, waits for a confirmation, has an open
    dispute or fails its audit (an arbiter's `tournament result` settles a table).

    Example: referee tournament pair 5e1a   ·   referee tournament pair 5e1a --manual "ann-ben,cy-dee,eve-bye"
    """))
def pair(
    ctx: typer.Context, tournament: TidArg,
    dry_run: Annotated[bool, typer.Option("--dry-run", help=N_("Show the pairing the lots give; record nothing."))] = False,
    no_tokens: Annotated[bool, typer.Option("--no-tokens", help=N_("Create the matches without tokens for the HTTP service."))] = False,
    manual: Annotated[str | None, typer.Option("--manual", help=N_("Your pairing instead of the draw: alice-bob,carol-dave,eve-bye (first named plays first; NAME-half a half-point bye, NAME-absent nothing); every player still in, once."), show_default=False)] = None,
    manual_file: Annotated[str | None, typer.Option("--manual-file", help=N_("The same pairing read from a file (one table a line, or commas)."), show_default=False)] = None,
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import PairRequest

    if manual is not None and manual_file is not None:
        fail(N_("--manual and --manual-file: give the pairing once"))
    if manual_file is not None:
        from referee.inputs import read_file

        manual = read_file(manual_file, "pairing file", 200_000)
    paired = _api(ctx, db).pair(tournament, PairRequest(dry_run=dry_run, reason=reason, tokens=not no_tokens,
                                                        manual=manual), by=by)
    if json:
        _struct_json(paired)
        return
    out = [gettext("round {round} (dry run: nothing recorded); undo policy of the matches: {undo}",
                   round=paired.round, undo=paired.undo) if paired.dry_run else
           gettext("round {round}; undo policy of the matches: {undo}", round=paired.round, undo=paired.undo)]
    for t in paired.tables:
        seats = " v ".join(t.seats)
        out.append(gettext("table {table}: {seats}  match {match}", table=t.table, seats=seats, match=t.match_id)
                   if t.match_id else gettext("table {table}: {seats}", table=t.table, seats=seats))
        for who, token in t.tokens.items():
            out.append(f"    {who}: {token}")
    out += [gettext("bye: {player}", player=b) for b in paired.byes]
    out += [gettext("half-point bye: {player}", player=b) for b in paired.half_byes]
    sys.stdout.write("\n".join(out) + "\n")


@tournament_app.command("close", help=N_("""Close the round being played (the last one): its results are copied from the logs.

    Pairing the next round does this too.

    Example: referee tournament close 5e1a
    """))
def close(ctx: typer.Context, tournament: TidArg, by: ByOpt = "organiser", reason: ReasonOpt = "",
          db: DbOpt = None, json: JsonOpt = False) -> None:
    _done(_api(ctx, db).close(tournament, reason, by=by), json)


@tournament_app.command("result", help=N_("""An arbiter's result for a table played off the system, or a correction.

    Prints what it changed in the standings after that round.

    Example: referee tournament result 5e1a 2 3 win:alice   ·   referee tournament result 5e1a 1 2 draw --correct --reason "scoresheet misread"   ·   referee tournament result 5e1a 3 1 win:bob --forfeit
    """))
def result(
    ctx: typer.Context, tournament: TidArg,
    round_: Annotated[int, typer.Argument(metavar="ROUND", help=N_("The round."))],
    table: Annotated[int, typer.Argument(help=N_("The table."))],
    outcome: Annotated[str, typer.Argument(metavar="RESULT", help=N_("win:PLAYER (or PLAYER), draw, rank:A>B=C (= level), team-win or team-loss."))],
    scores: Annotated[str, typer.Option("--scores", help=N_("The players' scores, if the game keeps any: alice=12,bob=9."))] = "",
    correct: Annotated[bool, typer.Option("--correct", help=N_("Replace the table's result (from its log or an earlier entry); needs --reason."))] = False,
    forfeit: Annotated[bool, typer.Option("--forfeit", help=N_("A result by forfeit (RESULT win:PLAYER, or none for a double forfeit): its points count, but no game was played."))] = False,
    by: ByOpt = "arbiter", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import ResultRequest

    answer = _api(ctx, db).result(tournament, ResultRequest(
        round=round_, table=table, result=outcome, scores=_kv_ints(scores, "scores") or None, correct=correct,
        reason=reason, forfeit=forfeit), by=by)
    if json:
        _struct_json(answer)
        return
    after = answer.standings
    was = {r.player: r for r in (answer.before.rows if answer.before else ())}
    changed = [(r, was[r.player]) for r in after.rows if r.player in was and (r.rank, r.values) != (was[r.player].rank, was[r.player].values)]
    sys.stdout.write(gettext("round {round} table {table}: recorded (record {record})", round=round_, table=table,
                             record=answer.records) + "\n")
    for r, w in changed:
        moved = [f"{n} {w.values[n]} -> {r.values[n]}" for n in after.tiebreaks if w.values[n] != r.values[n]]
        rank = (gettext("rank {before} -> {after}", before=w.rank, after=r.rank) if w.rank != r.rank else
                gettext("rank {rank}", rank=r.rank))
        sys.stdout.write(f"  {r.name}: {rank}" + (": " + ", ".join(moved) if moved else "") + "\n")


@tournament_app.command("report", help=N_("""A seat's report of its table's result, for a game played on cardboard without move entry.

    The result counts once every seat of the table has reported the same; reports that differ wait for the
    organiser's `tournament result`. A seat may report again until then (its latest counts). In client mode
    a player's token reports for that player's seat only.

    Example: referee tournament report 5e1a --round 1 --table 2 --seat cy win:cy
    """))
def report(
    ctx: typer.Context, tournament: TidArg,
    round_: Annotated[int, typer.Option("--round", metavar="ROUND", help=N_("The round."))],
    table: Annotated[int, typer.Option("--table", help=N_("The table."))],
    seat: Annotated[str, typer.Option("--seat", help=N_("Whose report: the player at that table (in client mode, the token's player)."))],
    outcome: Annotated[str, typer.Argument(metavar="RESULT", help=N_("win:PLAYER (or PLAYER), draw, rank:A>B=C (= level), team-win or team-loss."))],
    scores: Annotated[str, typer.Option("--scores", help=N_("The players' scores, if the game keeps any: alice=12,bob=9."))] = "",
    by: ByOpt = "scorekeeper", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import ReportRequest

    answer = _api(ctx, db).report(tournament, round_, table, ReportRequest(
        result=outcome, seat=seat, scores=_kv_ints(scores, "scores") or None, reason=reason), by=by)
    if json:
        _struct_json(answer)
        return
    out = [gettext("round {round} table {table}: {seat}'s report recorded (record {record})", round=round_,
                   table=table, seat=answer.seat, record=answer.records) if answer.written else
           gettext("round {round} table {table}: {seat}'s report unchanged (it said that already)", round=round_,
                   table=table, seat=answer.seat)]
    out += [f"  {x.player}: {x.result}" for x in answer.reports]
    if answer.agreed:
        out.append(gettext("the seats agree: the result counts ({result})", result=answer.result))
        out += [gettext("  {player}: rank {before} -> {after}", player=c.player, before=c.rank_before,
                        after=c.rank_after) for c in answer.changed]
    elif answer.disagree:
        out.append(gettext("results disagree: the organiser records the table's result (`tournament result`)"))
    elif answer.waiting:
        out.append(gettext("waiting for {seats}", seats=", ".join(answer.waiting)))
    sys.stdout.write("\n".join(out) + "\n")


@tournament_app.command("withdraw", help=N_("""Withdraw a table's pairing before it has a result (needs --reason): its match is void for the
    standings (no points, no games, no opponents) and no longer holds up the next round.

    Example: referee tournament withdraw 5e1a 2 3 --reason "paired against the wrong player"
    """))
def withdraw(
    ctx: typer.Context, tournament: TidArg,
    round_: Annotated[int, typer.Argument(metavar="ROUND", help=N_("The round (the one being played)."))],
    table: Annotated[int, typer.Argument(help=N_("The table."))],
    by: ByOpt = "arbiter", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import WithdrawRequest

    _done(_api(ctx, db).withdraw(tournament, WithdrawRequest(round=round_, table=table, reason=reason), by=by), json)


@tournament_app.command("bye", help=N_("""Grant a player's request for a half-point bye in a round not yet paired: they are not paired in it
    and get a half-point bye's points (--points half=N; default a draw's), with no opponent. --cancel
    takes it back (an event too: nothing is edited).

    Example: referee tournament bye 5e1a eve --round 4 --reason "away for the afternoon"
    Example: referee tournament bye 5e1a eve --round 4 --cancel --reason "the exam was moved"
    """))
def half_bye(
    ctx: typer.Context, tournament: TidArg,
    player: Annotated[str, typer.Argument(help=N_("The player who asked for it."))],
    round_: Annotated[int, typer.Option("--round", help=N_("The round (not paired yet)."))],
    cancel: Annotated[bool, typer.Option("--cancel", help=N_("Take back the half-point bye granted for that round "
                                         "(before it is paired): the player is paired in it again."))] = False,
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    from schemas.tournament import HalfByeRequest

    req = HalfByeRequest(player=player, round=round_, reason=reason, cancel=cancel)
    _done(_api(ctx, db).half_bye(tournament, req, by=by), json)


@tournament_app.command("standings", help=N_("""The standings by the tie-breaks in force (--explain PLAYER: each number's workings).

    Example: referee tournament standings 5e1a --after-round 3 --explain alice
    """))
def standings(
    ctx: typer.Context, tournament: TidArg,
    after_round: Annotated[int | None, typer.Option("--after-round", help=N_("Standings after this round (default: the last paired)."), show_default=False)] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help=N_("As they stood when the tournament had this many records."), show_default=False)] = None,
    explain: Annotated[str | None, typer.Option("--explain", help=N_("Every number of this player's standing and the matches it came from."), show_default=False)] = None,
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    api = _api(ctx, db)
    if explain is not None:
        from referee.tournament.tiebreaks import TIEBREAKS

        e = api.explain(tournament, explain, after_round=after_round, as_of=as_of)
        if json:
            _struct_json(e)
            return
        out = [gettext("{name}: rank {rank} after round {round}", name=e.name, rank=e.rank, round=e.after_round)]
        for w in e.values:
            out.append(f"{gettext(TIEBREAKS[w.tiebreak])} ({w.tiebreak}): {w.value}")
            out += [f"    {line}" for line in w.workings]
        out += [gettext("correction: {correction}", correction=c) for c in e.corrections]
        sys.stdout.write("\n".join(out) + "\n")
        return
    table = api.standings(tournament, after_round=after_round, as_of=as_of)
    if json:
        _struct_json(table)
        return
    _print_standings(table)


@tournament_app.command("tiebreaks", help=N_("""Change the tie-breaks (recorded with who and why; earlier standings: --as-of).

    Example: referee tournament tiebreaks 5e1a points,sonneborn-berger,buchholz --reason "as announced"
    """))
def set_tiebreaks(
    ctx: typer.Context, tournament: TidArg,
    names: Annotated[str, typer.Argument(help=N_("Comma-separated, in order (see `tournament new --help`)."))],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    _done(_api(ctx, db).tiebreaks(tournament, _list(names), reason, by=by), json)


@tournament_app.command("export", help=N_("""Standings, tables and results as Markdown, HTML, JSON or CSV.

    Example: referee tournament export 5e1a --format html -o standings.html
    """))
def export(
    ctx: typer.Context, tournament: TidArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help=N_("md, html, json or csv (the standings)."))] = "md",
    output: Annotated[str | None, typer.Option("--output", "-o", help=N_("Write to this file instead of standard output."), show_default=False)] = None,
    after_round: Annotated[int | None, typer.Option("--after-round", help=N_("Standings after this round."), show_default=False)] = None,
    db: DbOpt = None,
) -> None:
    from cli import outfile

    if output is not None:
        outfile.check(output)  # a target it would refuse is refused before the work
    text = _api(ctx, db).export(tournament, fmt, after_round=after_round)
    if output is None:
        sys.stdout.write(text)
    else:
        outfile.write(output, [text])


@tournament_app.command("log", help=N_("""Every record of the tournament: what, who, why (nothing is ever edited).

    Example: referee tournament log 5e1a
    """))
def log(ctx: typer.Context, tournament: TidArg, db: DbOpt = None, json: JsonOpt = False) -> None:
    import msgspec

    from referee.outcome import words
    from schemas import Outcome

    records = _api(ctx, db).log(tournament)
    if json:
        print_json([msgspec.to_builtins(r) for r in records])
        return
    for r in records:
        event = dict(r.event)
        kind = event.pop("type")
        if "outcome" in event:
            event["outcome"] = words(msgspec.convert(event["outcome"], Outcome))
        if "tables" in event:
            event["tables"] = "; ".join(" v ".join(t["seats"]) for t in event["tables"])
        if "results" in event:
            event["results"] = len(event["results"])
        if "issued" in event:  # hashes only, and those are long: whose and how many
            event["issued"] = ", ".join(t["player"] or t["role"] for t in event["issued"])
            event["revoked"] = len(event.get("revoked") or ()) or None
        what = ", ".join(f"{k}={v}" for k, v in event.items() if v not in ("", None, [], {}, ()) and k != "points")
        sys.stdout.write(gettext("{n}. {kind} by {by}", n=r.n, kind=kind, by=r.by) + (f": {what}" if what else "")
                         + (f" — {r.why}" if r.why else "") + "\n")


@tournament_app.command("audit", help=N_("""Audit every match and check every result against its log.

    Also checks the tournament's own record (its chain of hashes, its token rows, matches that name a
    table it does not hold) and prints its head: one hash over its records and tokens. Keep it; an audit
    with --expect-head HEAD later fails if anything of the record changed since (a rewritten and rehashed
    record, a record cut off, a token's role). Exit 0 if clean, 1 with the findings.

    Example: referee tournament audit 5e1a   ·   referee tournament audit 5e1a --expect-head 9c1f...
    """))
def audit(
    ctx: typer.Context, tournament: TidArg,
    expect_head: Annotated[str | None, typer.Option("--expect-head", help=N_("The head an earlier audit, standings or export printed: a head that differs now is a finding."), show_default=False)] = None,
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    answer = _api(ctx, db).audit(tournament, expect_head=expect_head)
    if json:
        _struct_json(answer)
    else:
        sys.stdout.write((gettext("clean") + "\n" if answer.clean else "\n".join(answer.findings) + "\n")
                         + ngettext("head {head} ({n} records)", "head {head} ({n} records)", answer.records,
                                    head=answer.head) + "\n")
    if not answer.clean:
        raise Exit(1)
