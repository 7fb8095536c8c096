"""``referee tournament ...``: the tournament commands, a veneer over
:class:`referee.tournament.service.Tournaments` (each command parses, calls one method, prints).

Declared on ``cli.main.tournament_app``, a :class:`cli.lazy.LateTyper`: this module is imported only
when the ``tournament`` group is built, so no other command pays for it.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cli.main import DbOpt, Exit, JsonOpt, _fail, _local, _print_json, tournament_app

if TYPE_CHECKING:
    from referee.tournament.service import Tournaments
    from referee.tournament.standings import Standings

player_app = typer.Typer(help="Register, drop, reinstate or rename a player.", no_args_is_help=True)
tournament_app.add_typer(player_app, name="player")

TidArg = Annotated[str, typer.Argument(help="Tournament id (a unique prefix of 4+ characters will do).")]
ByOpt = Annotated[str, typer.Option("--by", help="Who records it (kept in the tournament's record).")]
ReasonOpt = Annotated[str, typer.Option("--reason", help="Why (kept in the tournament's record).")]


def _tournaments(ctx: typer.Context, db: str | None, *, create: bool = False) -> Tournaments:
    from referee.tournament.service import Tournaments

    return Tournaments(_local(ctx, db, create=create))


def _list(text: str | None) -> list[str]:
    return [w.strip() for w in (text or "").split(",") if w.strip()]


def _kv_ints(text: str | None, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in _list(text):
        key, sep, value = item.partition("=")
        digits = value.strip().lstrip("-")
        if not sep or not key.strip() or not digits.isdigit() or len(digits) > 12:
            _fail(f"{what} {item!r} is not name=whole number (e.g. --{what} alice=12,bob=9)")
        out[key.strip()] = int(value.strip())
    return out


def _show_row(cells: list[str], widths: list[int]) -> str:
    return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()


def _print_table(head: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    sys.stdout.write(_show_row(head, widths) + "\n")
    for r in rows:
        sys.stdout.write(_show_row(r, widths) + "\n")


def _standings_json(table: Standings) -> dict[str, Any]:
    from referee.tournament.tiebreaks import fmt

    return {
        "tournament": table.tournament, "after_round": table.after_round, "tiebreaks": list(table.tiebreaks),
        "rows": [{"rank": r.rank, "player": r.player, "name": r.name, "played": r.played, "dropped": r.dropped,
                  "values": {n: fmt(v) for n, v in zip(table.tiebreaks, r.values)}} for r in table.rows],
        "pending": [{"round": a, "table": b} for a, b in table.pending],
    }


def _print_standings(table: Standings) -> None:
    from referee.tournament.tiebreaks import fmt

    sys.stdout.write(f"standings after round {table.after_round}\n")
    _print_table(["rank", "player", *table.tiebreaks],
                 [[str(r.rank), r.name + (" (dropped)" if r.dropped else ""), *[fmt(v) for v in r.values]]
                  for r in table.rows])
    if table.pending:
        sys.stdout.write("no result yet: " + ", ".join(f"round {a} table {b}" for a, b in table.pending) + "\n")


@tournament_app.command("new")
def new(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The tournament's name.")],
    game: Annotated[str, typer.Option("--game", help="Game id (see `referee games`).")],
    format: Annotated[str, typer.Option("--format", help="swiss, round-robin or pods.")] = "swiss",
    rounds: Annotated[int | None, typer.Option("--rounds", help="How many rounds (Swiss, pods); round-robin: every pairing.", show_default=False)] = None,
    tiebreaks: Annotated[str | None, typer.Option("--tiebreaks", help="Comma-separated, in order: points, game-points, buchholz, buchholz-cut1, median-buchholz, sonneborn-berger, omw, gw, ogw, head-to-head, progressive, score.", show_default=False)] = None,
    points: Annotated[str, typer.Option("--points", help="Match points: win=3,draw=1,loss=0,bye=3 (any of them).")] = "",
    places: Annotated[str, typer.Option("--places", help="Pods: points of 1st, 2nd, ... when a table ends in a ranking (default: n-1, ..., 0).")] = "",
    table_size: Annotated[int | None, typer.Option("--table-size", help="Pods: seats a table (default: the game's most).", show_default=False)] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the drawing of lots (default: drawn now, and recorded).", show_default=False)] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="Match option name=value for every match (repeatable).")] = None,
    cards: Annotated[str | None, typer.Option("--cards", help="The bundled card set every match uses.", show_default=False)] = None,
    chance: Annotated[str, typer.Option("--chance", help="physical (outcomes typed in) or digital, for every match.")] = "physical",
    players: Annotated[str, typer.Option("--players", "-p", help="Players to register now, comma-separated.")] = "",
    by: ByOpt = "organiser",
    reason: ReasonOpt = "",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Create a tournament; prints its id alone on the last line.

    Example: referee tournament new "Club Cup" --game by_all_means --rounds 5 --players ann,ben,cy,dee
    """
    from referee.tournament.service import parse_places, parse_points

    pts = parse_points(points)
    if places:
        import msgspec

        pts = msgspec.structs.replace(pts, places=parse_places(places))
    opts: dict[str, str] = {}
    for item in option or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            _fail(f"option {item!r} is not name=value (e.g. --option reaction_window=false)")
        opts[key.strip()] = value.strip()
    service = _tournaments(ctx, db, create=True)
    state = service.create(name, game, format=format, rounds=rounds, tiebreaks=_list(tiebreaks) if tiebreaks else None,
                           points=pts, seed=seed, table_size=table_size, options=opts, cards=cards, chance=chance,
                           players=_list(players), by=by, why=reason)
    if json:
        _print_json({"id": state.id, "name": state.config.name, "game": state.config.game,
                     "format": state.config.format, "players": list(state.players)})
        return
    cfg = state.config
    sys.stdout.write(f"{cfg.name}: {cfg.game}, {cfg.format}" + (f", {cfg.rounds} rounds" if cfg.rounds else "")
                     + f", {len(state.players)} players; tie-breaks {', '.join(state.tiebreaks)}\n{state.id}\n")


@tournament_app.command("list")
def list_(ctx: typer.Context, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Every tournament in the database.

    Example: referee tournament list --json
    """
    found = _tournaments(ctx, db).every()
    rows: list[dict[str, Any]] = [{"id": t.id, "name": t.config.name, "game": t.config.game, "format": t.config.format,
             "players": len(t.players), "rounds": t.current} for t in found]
    if json:
        _print_json(rows)
        return
    _print_table(["id", "name", "game", "format", "players", "round"],
                 [[r["id"], r["name"], r["game"], r["format"], str(r["players"]), str(r["rounds"])] for r in rows])


@tournament_app.command("show")
def show(ctx: typer.Context, tournament: TidArg, db: DbOpt = None, json: JsonOpt = False) -> None:
    """The tournament: settings, players, rounds, tables, what blocks the next pairing.

    Example: referee tournament show 5e1a
    """
    from referee.outcome import words

    service = _tournaments(ctx, db)
    state = service.load(tournament)
    live, _, blocks = service.live(state)
    cfg = state.config
    rounds: list[dict[str, Any]] = []
    for rnd in state.rounds:
        tables = []
        for t in rnd.tables:
            res = state.results.get((rnd.number, t.table))
            outcome = res.outcome if res else live.get((rnd.number, t.table))
            tables.append({"table": t.table, "seats": list(t.seats), "match_id": t.match_id,
                           "result": words(outcome) if outcome else None, "source": res.source if res else "log"})
        rounds.append({"round": rnd.number, "closed": rnd.closed, "tables": tables, "byes": list(rnd.byes)})
    data = {
        "id": state.id, "name": cfg.name, "game": cfg.game, "format": cfg.format, "rounds": cfg.rounds,
        "tiebreaks": list(state.tiebreaks), "records": state.n, "seed": cfg.seed,
        "players": [{"player": p.id, "name": p.display, "entered": p.entered, "dropped": p.dropped}
                    for p in state.players.values()],
        "round": rounds,
        "blocks": [{"round": b.round, "table": b.table, "match_id": b.match_id, "why": b.why} for b in blocks],
    }
    if json:
        _print_json(data)
        return
    out = [f"{cfg.name} ({state.id}): {cfg.game}, {cfg.format}" + (f", {cfg.rounds} rounds" if cfg.rounds else ""),
           f"tie-breaks: {', '.join(state.tiebreaks)}; {state.n} records",
           "players: " + ", ".join(p.id + (f" ({p.display})" if p.display else "") + (" [dropped]" if p.dropped else "")
                                   for p in state.players.values())]
    for r in rounds:
        out.append(f"round {r['round']}" + ("" if r["closed"] else " (being played)"))
        for t in r["tables"]:
            out.append(f"  table {t['table']}: {' v '.join(t['seats'])}  {t['result'] or 'no result yet'}  "
                       f"match {t['match_id'] or '-'}")
        for b in r["byes"]:
            out.append(f"  bye: {b}")
    for b in blocks:
        out.append(f"blocks the next round: table {b.table}" + (f" (match {b.match_id})" if b.match_id else "") + f": {b.why}")
    sys.stdout.write("\n".join(out) + "\n")


@player_app.command("add")
def player_add(
    ctx: typer.Context, tournament: TidArg,
    player: Annotated[str, typer.Argument(help="The player's id: their seat name in every match.")],
    name: Annotated[str, typer.Option("--name", help="The name shown in standings.")] = "",
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Register a player (once round 1 is paired: a late entry, from the next round on).

    Example: referee tournament player add 5e1a eve --name "Eve Adams"
    """
    state = _tournaments(ctx, db).add_player(tournament, player, display=name, by=by, why=reason)
    _done(state, f"{player} registered" + (f" (late entry: plays from round {state.players[player].entered})"
                                           if state.players[player].entered > 1 else ""), json)


@player_app.command("drop")
def player_drop(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help="The player.")],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Drop a player: not paired from the next round on; their games still count for their opponents.

    Example: referee tournament player drop 5e1a eve --reason "left at lunch"
    """
    state = _tournaments(ctx, db).drop(tournament, player, by=by, why=reason)
    _done(state, f"{player} dropped after round {state.current}", json)


@player_app.command("undrop")
def player_undrop(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help="The player.")],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Reinstate a dropped player (paired again from the next round).

    Example: referee tournament player undrop 5e1a eve --reason "dropped by mistake"
    """
    state = _tournaments(ctx, db).undrop(tournament, player, by=by, why=reason)
    _done(state, f"{player} is playing again", json)


@player_app.command("rename")
def player_rename(
    ctx: typer.Context, tournament: TidArg, player: Annotated[str, typer.Argument(help="The player.")],
    name: Annotated[str, typer.Argument(help="The name shown from now on.")],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Change the name shown for a player (their id, the seat name in matches, stays).

    Example: referee tournament player rename 5e1a eve "Eve Adams-Smith"
    """
    state = _tournaments(ctx, db).rename(tournament, player, name, by=by, why=reason)
    _done(state, f"{player} is shown as {name}", json)


def _done(state: Any, text: str, json: bool) -> None:
    if json:
        _print_json({"tournament": state.id, "records": state.n, "done": text})
    else:
        sys.stdout.write(text + f" (record {state.n})\n")


@tournament_app.command("pair")
def pair(
    ctx: typer.Context, tournament: TidArg,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the pairing the lots give; record nothing.")] = False,
    no_tokens: Annotated[bool, typer.Option("--no-tokens", help="Create the matches without tokens for the HTTP service.")] = False,
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Pair the next round: a match for each table, its seats and tokens.

    Closes the round being played (its results copied from the match logs), creates a match for each
    table and prints the seats and each match's tokens (shown once). Refused,
    naming the table, while a match of the round is unfinished, waits for a confirmation, has an open
    dispute or fails its audit (an arbiter's `tournament result` settles a table).

    Example: referee tournament pair 5e1a
    """
    paired = _tournaments(ctx, db).pair(tournament, by=by, why=reason, dry_run=dry_run, tokens=not no_tokens)
    if json:
        _print_json({"tournament": paired.tournament, "round": paired.round, "dry_run": paired.dry_run,
                     "tables": [{"table": t.table, "seats": list(t.seats), "match_id": t.match_id, "tokens": t.tokens}
                                for t in paired.tables], "byes": paired.byes})
        return
    out = [f"round {paired.round}" + (" (dry run: nothing recorded)" if paired.dry_run else "")]
    for t in paired.tables:
        out.append(f"table {t.table}: {' v '.join(t.seats)}" + (f"  match {t.match_id}" if t.match_id else ""))
        for who, token in t.tokens.items():
            out.append(f"    {who}: {token}")
    for b in paired.byes:
        out.append(f"bye: {b}")
    sys.stdout.write("\n".join(out) + "\n")


@tournament_app.command("close")
def close(ctx: typer.Context, tournament: TidArg, by: ByOpt = "organiser", reason: ReasonOpt = "",
          db: DbOpt = None, json: JsonOpt = False) -> None:
    """Close the round being played (the last one): its results are copied from the logs.

    Pairing the next round does this too.

    Example: referee tournament close 5e1a
    """
    state = _tournaments(ctx, db).close_round(tournament, by=by, why=reason)
    _done(state, f"round {state.current} closed", json)


@tournament_app.command("result")
def result(
    ctx: typer.Context, tournament: TidArg,
    round_: Annotated[int, typer.Argument(metavar="ROUND", help="The round.")],
    table: Annotated[int, typer.Argument(help="The table.")],
    outcome: Annotated[str, typer.Argument(metavar="RESULT", help="win:PLAYER (or PLAYER), draw, rank:A>B=C (= level), team-win or team-loss.")],
    scores: Annotated[str, typer.Option("--scores", help="The players' scores, if the game keeps any: alice=12,bob=9.")] = "",
    correct: Annotated[bool, typer.Option("--correct", help="Replace the table's result (from its log or an earlier entry); needs --reason.")] = False,
    by: ByOpt = "arbiter", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """An arbiter's result for a table played off the system, or a correction.

    Prints what it changed in the standings after that round.

    Example: referee tournament result 5e1a 2 3 win:alice   ·   referee tournament result 5e1a 1 2 draw --correct --reason "scoresheet misread"
    """
    state, before, after = _tournaments(ctx, db).record_result(
        tournament, round_, table, outcome, scores=_kv_ints(scores, "scores") or None, correct=correct, by=by, why=reason)
    was = {r.player: r for r in before.rows}
    changed = [(r, was[r.player]) for r in after.rows if r.player in was and (r.rank, r.values) != (was[r.player].rank, was[r.player].values)]
    if json:
        _print_json({"tournament": state.id, "records": state.n,
                     "changed": [{"player": r.player, "rank_before": w.rank, "rank_after": r.rank} for r, w in changed],
                     "standings": _standings_json(after)})
        return
    from referee.tournament.tiebreaks import fmt

    sys.stdout.write(f"round {round_} table {table}: recorded (record {state.n})\n")
    for r, w in changed:
        moved = [f"{n} {fmt(a)} -> {fmt(b)}" for n, a, b in zip(after.tiebreaks, w.values, r.values) if a != b]
        rank = f"rank {w.rank} -> {r.rank}" if w.rank != r.rank else f"rank {r.rank}"
        sys.stdout.write(f"  {r.name}: {rank}" + (": " + ", ".join(moved) if moved else "") + "\n")


@tournament_app.command("standings")
def standings(
    ctx: typer.Context, tournament: TidArg,
    after_round: Annotated[int | None, typer.Option("--after-round", help="Standings after this round (default: the last paired).", show_default=False)] = None,
    as_of: Annotated[int | None, typer.Option("--as-of", help="As they stood when the tournament had this many records.", show_default=False)] = None,
    explain: Annotated[str | None, typer.Option("--explain", help="Every number of this player's standing and the matches it came from.", show_default=False)] = None,
    db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """The standings by the tie-breaks in force (--explain PLAYER: each number's workings).

    Example: referee tournament standings 5e1a --after-round 3 --explain alice
    """
    service = _tournaments(ctx, db)
    if explain is not None:
        from referee.tournament.tiebreaks import TIEBREAKS, fmt

        e = service.explain(tournament, explain, after_round=after_round, as_of=as_of)
        if json:
            _print_json({"player": e.player, "name": e.name, "after_round": e.after_round, "rank": e.rank,
                         "values": [{"tiebreak": n, "value": fmt(v), "exact": f"{v.numerator}/{v.denominator}",
                                     "workings": lines} for n, v, lines in e.values],
                         "corrections": e.corrections})
            return
        out = [f"{e.name}: rank {e.rank} after round {e.after_round}"]
        for n, v, lines in e.values:
            out.append(f"{TIEBREAKS[n]} ({n}): {fmt(v)}")
            out += [f"    {line}" for line in lines]
        out += [f"correction: {c}" for c in e.corrections]
        sys.stdout.write("\n".join(out) + "\n")
        return
    table = service.standings(tournament, after_round=after_round, as_of=as_of)
    if json:
        _print_json(_standings_json(table))
        return
    _print_standings(table)


@tournament_app.command("tiebreaks")
def set_tiebreaks(
    ctx: typer.Context, tournament: TidArg,
    names: Annotated[str, typer.Argument(help="Comma-separated, in order (see `tournament new --help`).")],
    by: ByOpt = "organiser", reason: ReasonOpt = "", db: DbOpt = None, json: JsonOpt = False,
) -> None:
    """Change the tie-breaks (recorded with who and why; earlier standings: --as-of).

    Example: referee tournament tiebreaks 5e1a points,sonneborn-berger,buchholz --reason "as announced"
    """
    state = _tournaments(ctx, db).set_tiebreaks(tournament, _list(names), by=by, why=reason)
    _done(state, "tie-breaks: " + ", ".join(state.tiebreaks), json)


@tournament_app.command("export")
def export(
    ctx: typer.Context, tournament: TidArg,
    fmt: Annotated[str, typer.Option("--format", "-f", help="md, html, json or csv (the standings).")] = "md",
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write to this file instead of standard output.", show_default=False)] = None,
    after_round: Annotated[int | None, typer.Option("--after-round", help="Standings after this round.", show_default=False)] = None,
    db: DbOpt = None,
) -> None:
    """Standings, tables and results as Markdown, HTML, JSON or CSV.

    Example: referee tournament export 5e1a --format html -o standings.html
    """
    text = _tournaments(ctx, db).export(tournament, fmt, after_round=after_round)
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


@tournament_app.command("log")
def log(ctx: typer.Context, tournament: TidArg, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Every record of the tournament: what, who, why (nothing is ever edited).

    Example: referee tournament log 5e1a
    """
    import msgspec

    from referee.outcome import words

    records = _tournaments(ctx, db).records(tournament)
    if json:
        _print_json([msgspec.to_builtins(r) for r in records])
        return
    for r in records:
        event = msgspec.to_builtins(r.event)
        kind = event.pop("type")
        if "outcome" in event:
            event["outcome"] = words(getattr(r.event, "outcome"))
        if "tables" in event:
            event["tables"] = "; ".join(" v ".join(t["seats"]) for t in event["tables"])
        if "results" in event:
            event["results"] = len(event["results"])
        what = ", ".join(f"{k}={v}" for k, v in event.items() if v not in ("", None, [], {}, ()) and k != "points")
        sys.stdout.write(f"{r.n}. {kind} by {r.by}" + (f": {what}" if what else "") + (f" — {r.why}" if r.why else "") + "\n")


@tournament_app.command("audit")
def audit(ctx: typer.Context, tournament: TidArg, db: DbOpt = None, json: JsonOpt = False) -> None:
    """Audit every match and check every result against its log.

    Also checks the tournament's own record (its chain of hashes). Exit 0 if clean, 1 with the findings.

    Example: referee tournament audit 5e1a
    """
    findings = _tournaments(ctx, db).audit(tournament)
    if json:
        _print_json({"clean": not findings, "findings": findings})
    else:
        sys.stdout.write("clean\n" if not findings else "\n".join(findings) + "\n")
    if findings:
        raise Exit(1)
