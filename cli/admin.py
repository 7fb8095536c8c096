"""The hall's commands: ``serve`` (the HTTP service), ``ratings``, ``db copy`` and ``scenario run``.
Registered on :data:`cli.main.app` (and its ``db`` and ``scenario`` groups) when :mod:`cli.main`
imports this module."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from cli.main import DbOpt, Exit, JsonOpt, _connection, _db_path, _fail, _local, _print_json, app, db_app, scenario_app


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="Address to listen on (127.0.0.1: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", help="Server processes on the one socket (more cores, more throughput).")] = 1,
    db: DbOpt = None,
) -> None:
    """Serve matches over HTTP (JSON; seat, arbiter and spectator tokens; live event streams).

    Every write is on disk before it is answered (synchronous=FULL); `referee --durability normal serve`
    trades that for speed (see the README's "Determinism, hashing and the log"). The API is described
    at /schema on the server.

    Example: referee serve --port 8000 --db hall.db
    """
    from cli.serve import serve as run_server

    if workers < 1:
        _fail("--workers must be 1 or more")
    run_server(host, port, _db_path(db), workers=workers, durability=_connection(ctx).durability)


@app.command()
def ratings(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option("--game", help="Only this game's matches.", show_default=False)] = None,
    model: Annotated[str, typer.Option("--model", help="openskill's model: plackett-luce, bradley-terry-full, bradley-terry-part, thurstone-mosteller-full or thurstone-mosteller-part.")] = "plackett-luce",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    """Player ratings from every finished match (openskill's Weng-Lin model), reproducible from the logs.
    A match still being played is neither rated nor counted. Over a server: --token the server's admin token.

    Example: referee ratings --game by_all_means --json
    """
    conn = _connection(ctx)
    if conn.server:  # GET /ratings: the same numbers over the server's database
        from cli.tournament_client import RemoteTournaments

        answer = RemoteTournaments(conn.server, conn.token, need_token=False).ratings(game=game, model=model)
    else:
        from referee.ratings import answer as compute

        answer = compute(_local(ctx, db), game=game, model=model)
    if json:
        import msgspec

        _print_json(msgspec.to_builtins(answer))
        return
    sys.stdout.write(f"{answer.rated} matches rated ({answer.model})"
                     + "".join(f", {n} {why}" for why, n in answer.skipped.items()) + "\n")
    for i, r in enumerate(answer.players, start=1):
        sys.stdout.write(f"{i:>4}  {r.player:<24} {r.ordinal:7.2f}  (mu {r.mu:.2f}, sigma {r.sigma:.2f}, "
                         f"{r.matches} matches)\n")


@db_app.command("copy")
def db_copy(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help="The database to copy from: a SQLite file or a postgresql:// URL.")],
    target: Annotated[str, typer.Argument(help="The database to copy into (created if it does not exist).")],
    json: JsonOpt = False,
) -> None:
    """Copy every match (entries, snapshots, idempotency keys, annotations, token hashes, the digest of
    the transcript it was imported from) and every tournament (its events, token hashes) verbatim, in
    either direction. Run it again to resume a copy that stopped: each match continues from the target's
    head, each tournament from its last event; one that differs in the target is refused, naming it.
    Written at durability normal unless --durability says otherwise (a copy cut short by a crash is
    resumed). `audit --all` on the target prints the same heads as on the source.

    Example: referee db copy hall.db postgresql://referee@db.hall.lan/referee
    """
    from referee.dbcopy import copy_matches
    from referee.errors import StorageError
    from referee.store import StoreError, open_store

    if _connection(ctx).server:
        _fail("db copy works on databases, not through --server")
    try:
        src = open_store(source, create=False)
        dst = open_store(target, durability=_connection(ctx).durability or "normal")
    except StoreError as exc:
        raise StorageError("store/unavailable", str(exc)) from None
    try:
        report = copy_matches(src, dst, lambda mid, done, total: None)
    except StoreError as exc:
        raise StorageError("store/failed", f"{exc}; nothing more was copied (run it again once that is settled)") from None
    finally:
        src.close()
        dst.close()
    if json:
        _print_json(report)
        return
    print(f"copied {report.matches} matches ({report.created} new, {report.up_to_date} already up to date): "
          f"{report.entries} entries, {report.annotations} annotations, {report.tokens} tokens, "
          f"{report.transcripts} transcript digests; {report.tournaments} tournaments ({report.tournaments_created} new): "
          f"{report.tournament_events} events, {report.tournament_tokens} tokens")


@scenario_app.command("run")
def scenario_run(
    files: Annotated[list[str], typer.Argument(help="Scenario files or folders of them.")],
    json: JsonOpt = False,
) -> None:
    """Run scenario files; exit 0 only if every step of every file holds.

    Example: referee scenario run tests/scenarios/by_all_means/
    """
    from referee.scenario import expand, run_file

    paths = expand(files)
    if not paths:
        _fail("no scenario files found in " + ", ".join(files))
    results = [run_file(p) for p in paths]
    failed = [r for r in results if not r.passed]
    if json:
        _print_json([
            {"file": r.path, "title": r.title, "steps": r.steps, "passed": r.passed,
             "failures": [{"step": f.step, "what": f.what} for f in r.failures]}
            for r in results
        ])
    else:
        from cli import render

        render.scenarios(results)
    if failed:
        raise Exit(1)
