"""The hall's commands: ``serve`` (the HTTP service), ``ratings``, ``db copy`` and ``scenario run``.
Registered on :data:`cli.common.app` (and its ``db`` and ``scenario`` groups) when :mod:`cli.main`
imports this module."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee.i18n import N_, gettext, ngettext

from cli.common import DbOpt, Exit, JsonOpt, connection, db_path, fail, local_referee, print_json, app, db_app, scenario_app

AdoptOpt = Annotated[bool, typer.Option(
    "--adopt-database", help=N_("Let the referee add its tables to a PostgreSQL database (schema) that already holds "
    "other tables (refused without it). Also $REFEREE_PG_ADOPT=1."))]


def _adopt(adopt: bool) -> None:
    if adopt:  # (through the environment: serve's worker processes open the store too)
        import os

        from referee.store.postgres import ADOPT_ENV

        os.environ[ADOPT_ENV] = "1"


@app.command(help=N_("""Serve matches over HTTP (JSON; seat, arbiter and spectator tokens; live event streams).

    Every write is on disk before it is answered (synchronous=FULL); `referee --durability normal serve`
    trades that for speed (see the README's "Determinism, hashing and the log"). The API is described
    at /schema on the server.

    Example: referee serve --port 8000 --db hall.db
    """))
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help=N_("Address to listen on (127.0.0.1: this machine only)."))] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help=N_("TCP port."))] = 8000,
    workers: Annotated[int, typer.Option("--workers", help=N_("Server processes on the one socket (more cores, more throughput)."))] = 1,
    db: DbOpt = None,
    adopt: AdoptOpt = False,
) -> None:
    from cli.serve import serve as run_server

    if workers < 1:
        fail(N_("--workers must be 1 or more"))
    _adopt(adopt)
    run_server(host, port, db_path(ctx, db), workers=workers, durability=connection(ctx).durability)


@app.command(help=N_("""Player ratings from every finished match (openskill's Weng-Lin model), reproducible from the logs.
    A match still being played is neither rated nor counted. Over a server: --token the server's admin token.

    Example: referee ratings --game by_all_means --json
    """))
def ratings(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option("--game", help=N_("Only this game's matches."), show_default=False)] = None,
    model: Annotated[str, typer.Option("--model", help=N_("openskill's model: plackett-luce, bradley-terry-full, bradley-terry-part, thurstone-mosteller-full or thurstone-mosteller-part."))] = "plackett-luce",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    conn = connection(ctx)
    if conn.server:  # GET /ratings: the same numbers over the server's database
        from cli.tournament_client import RemoteTournaments

        answer = RemoteTournaments(conn.server, conn.token, need_token=False).ratings(game=game, model=model)
    else:
        from referee.ratings import answer as compute

        answer = compute(local_referee(ctx, db), game=game, model=model)
    if json:
        import msgspec

        print_json(msgspec.to_builtins(answer))
        return
    sys.stdout.write(ngettext("{n} matches rated ({model})", "{n} matches rated ({model})", answer.rated,
                              model=answer.model)
                     + "".join(f", {n} {why}" for why, n in answer.skipped.items()) + "\n")
    for i, r in enumerate(answer.players, start=1):
        figures = gettext("(mu {mu:.2f}, sigma {sigma:.2f}, ", mu=r.mu, sigma=r.sigma)
        sys.stdout.write(f"{i:>4}  {r.player:<24} {r.ordinal:7.2f}  " + figures
                         + ngettext("{n} matches)", "{n} matches)", r.matches) + "\n")


@db_app.command("copy", help=N_("""Copy every match (entries, snapshots, idempotency keys, annotations, token hashes, the digest of
    the transcript it was imported from) and every tournament (its events, token hashes) verbatim, in
    either direction. Run it again to resume a copy that stopped: each match continues from the target's
    head, each tournament from its last event; one that differs in the target is refused, naming it.
    Written at durability normal unless --durability says otherwise (a copy cut short by a crash is
    resumed). `audit --all` on the target prints the same heads as on the source.

    Example: referee db copy hall.db postgresql://referee@db.hall.lan/referee
    """))
def db_copy(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(help=N_("The database to copy from: a SQLite file or a postgresql:// URL."))],
    target: Annotated[str, typer.Argument(help=N_("The database to copy into (created if it does not exist)."))],
    json: JsonOpt = False,
    adopt: AdoptOpt = False,
) -> None:
    from referee.dbcopy import copy_matches
    from referee.errors import StorageError
    from referee.engine.codes import StoreCode
    from referee.store import StoreError, open_store

    if connection(ctx).server:
        fail(N_("db copy works on databases, not through --server"))
    _adopt(adopt)
    try:
        src = open_store(source, create=False)
        dst = open_store(target, durability=connection(ctx).durability or "normal")
    except StoreError as exc:
        raise StorageError(StoreCode.UNAVAILABLE, str(exc)) from None
    try:
        report = copy_matches(src, dst, lambda mid, done, total: None)
    except StoreError as exc:
        from referee.engine.speech import again

        raise StorageError.said(StoreCode.FAILED, N_("{problem}; nothing more was copied (run it again once that is settled)"),
                                problem=again(str(exc), exc.template)) from None
    finally:
        src.close()
        dst.close()
    if json:
        print_json(report)
        return
    print(gettext("copied {matches} matches ({created} new, {up_to_date} already up to date): {entries} entries, "
                  "{annotations} annotations, {tokens} tokens, {summaries} summaries, {transcripts} transcript digests; "
                  "{tournaments} tournaments ({tournaments_created} new): {tournament_events} events, "
                  "{tournament_tokens} tokens", matches=report.matches, created=report.created,
                  up_to_date=report.up_to_date, entries=report.entries, annotations=report.annotations,
                  tokens=report.tokens, summaries=report.summaries, transcripts=report.transcripts,
                  tournaments=report.tournaments, tournaments_created=report.tournaments_created,
                  tournament_events=report.tournament_events, tournament_tokens=report.tournament_tokens))


@db_app.command("summaries", help=N_("""Rebuild every match's summary (what `referee matches`, standings and ratings read) from its log,
    and say which were missing or differed. Listing builds a missing one anyway; after `audit` reports a
    summary finding, this puts it right.

    Example: referee db summaries --db hall.db
    """))
def db_summaries(ctx: typer.Context, db: DbOpt = None, json: JsonOpt = False) -> None:
    from referee.errors import StorageError
    from referee.engine.codes import StoreCode
    from referee.store import StoreError
    from referee.summaries import rebuild_all

    if connection(ctx).server:
        fail(N_("db summaries works on a database, not through --server"))
    try:
        count, changed = rebuild_all(local_referee(ctx, db))
    except StoreError as exc:
        raise StorageError(StoreCode.FAILED, str(exc)) from None
    if json:
        print_json({"matches": count, "rebuilt": changed})
        return
    print(gettext("{count} summaries checked; {changed} were missing or differed and were rebuilt", count=count,
                  changed=len(changed)) + (": " + ", ".join(changed) if changed else ""))


@db_app.command("migrate", help=N_("""Create the referee's tables, or bring them to this version's schema (what opening the database
    does anyway): run it as the role that is to own them, before servers run as a role that owns nothing.

    Example: referee db migrate --db postgresql://referee_owner@db.hall.lan/referee
    """))
def db_migrate(ctx: typer.Context, db: DbOpt = None, adopt: AdoptOpt = False, json: JsonOpt = False) -> None:
    from referee.errors import StorageError
    from referee.engine.codes import StoreCode
    from referee.store import StoreError, open_store
    from referee.store.postgres import shown

    if connection(ctx).server:
        fail(N_("db migrate works on a database, not through --server"))
    _adopt(adopt)
    path = db_path(ctx, db)
    try:
        store = open_store(path, durability=connection(ctx).durability)
    except StoreError as exc:
        raise StorageError(StoreCode.UNAVAILABLE, str(exc)) from None
    version = store.schema_version() if hasattr(store, "schema_version") else None
    store.close()
    if json:
        print_json({"database": shown(path), "schema": version})
        return
    print(gettext("{database} is a referee database", database=shown(path))
          + (gettext(" (schema {version})", version=version) if version is not None else ""))


@db_app.command("grant", help=N_("""Let a PostgreSQL role that owns nothing read and add rows to the referee's tables, and nothing
    more: servers run as it cannot rewrite or delete the log, nor switch its triggers off. Run it as the
    tables' owner (after `referee db migrate`).

    Example: referee db grant referee_writer --db postgresql://referee_owner@db.hall.lan/referee
    """))
def db_grant(
    ctx: typer.Context,
    role: Annotated[str, typer.Argument(help=N_("The PostgreSQL role servers are to run as (it must exist)."))],
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee.errors import StorageError
    from referee.engine.codes import StoreCode
    from referee.store import StoreError, open_store
    from referee.store.postgres import PostgresStore, is_url

    path = db_path(ctx, db)
    if connection(ctx).server or not is_url(path):
        fail(N_("db grant works on a PostgreSQL database (a postgresql:// URL)"))
    if not role or len(role) > 63 or not all(c.isalnum() or c in "_-" for c in role):
        fail(N_("{role!r} is not a role name (letters, digits, _ and -, at most 63)"), role=role)
    try:
        store = open_store(path, create=False)
        assert isinstance(store, PostgresStore)
        statements = store.grant_writer(role)
    except StoreError as exc:
        raise StorageError(StoreCode.FAILED, str(exc)) from None
    store.close()
    if json:
        print_json({"role": role, "grants": statements})
        return
    print(gettext("{role} may now read and add rows to the referee's tables ({statements} grants); it owns none of them",
                  role=role, statements=statements))


@scenario_app.command("run", help=N_("""Run scenario files; exit 0 only if every step of every file holds.

    Example: referee scenario run tests/scenarios/by_all_means/
    """))
def scenario_run(
    files: Annotated[list[str], typer.Argument(help=N_("Scenario files or folders of them."))],
    json: JsonOpt = False,
) -> None:
    from referee.scenario import expand, run_file

    paths = expand(files)
    if not paths:
        fail(N_("no scenario files found in {files}"), files=", ".join(files))
    results = [run_file(p) for p in paths]
    failed = [r for r in results if not r.passed]
    if json:
        print_json([
            {"file": r.path, "title": r.title, "steps": r.steps, "passed": r.passed,
             "failures": [{"step": f.step, "what": f.what} for f in r.failures]}
            for r in results
        ])
    else:
        from cli import render

        render.scenarios(results)
    if failed:
        raise Exit(1)
