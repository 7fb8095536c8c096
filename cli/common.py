"""What every ``referee`` command module shares: the app and its groups, the connection (a server in
client mode or a local database, kept on the context), the common options, the referee a command
talks to (:func:`referee_for`, :func:`local_referee`: stores are opened through
:func:`referee.store.open_store` only), and how a command prints JSON, reports the entry it appended
or fails with one line.

The command modules (:mod:`cli.main`, :mod:`cli.timetravel`, :mod:`cli.reading`, :mod:`cli.cardcmds`,
:mod:`cli.admin`, :mod:`cli.tournament`) import this module, never each other's names. Heavy modules
are imported inside the functions so that ``referee play`` starts fast.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, NoReturn

import typer

from referee.i18n import N_

from cli.lazy import LateTyper
from cli.codes import ClientCode

if TYPE_CHECKING:
    from referee.api import RefereeApi, SubmitResult
    from referee.service import Referee

app = typer.Typer(
    name="referee",
    help=N_("Adjudicate tabletop games from an append-only log of intents: play, replay, import, audit."),
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
scenario_app = typer.Typer(help=N_("Run scenario files (conformance tests anyone can write)."), no_args_is_help=True)
app.add_typer(scenario_app, name="scenario")
#: `referee tournament ...`: its commands are in cli/tournament.py, imported only when this group is built
tournament_app = LateTyper("cli.tournament", help=N_("Tournaments: players, pairings, results from the match logs, standings."),
                           no_args_is_help=True)
app.add_typer(tournament_app, name="tournament")
db_app = typer.Typer(help=N_("Move matches between databases (SQLite files and PostgreSQL URLs)."), no_args_is_help=True)
app.add_typer(db_app, name="db")


#: a command that needs a local database, run with --server
LOCAL_ONLY = N_("this command needs a local database (it is not available with --server); drop --server/--token "
                "or use the HTTP API (see /schema on the server)")


class Connection(NamedTuple):
    """Where the commands find their referee: a server (client mode, ``--server URL --token T``), or,
    without one, a local database. The callback puts it on the context (``ctx.obj``) for the command."""

    server: str | None = None
    token: str | None = None
    #: ``--durability`` (None: ``$REFEREE_DURABILITY``, else full; see :mod:`referee.store.sqlite`)
    durability: str | None = None
    #: ``referee --db X <command>``: the database of every command that takes --db (None: theirs)
    db: str | None = None


@app.callback(help=N_("""Adjudicate tabletop games from an append-only log of intents: play, replay, import, audit."""))
def _client_mode(
    ctx: typer.Context,
    server: Annotated[str | None, typer.Option("--server", envvar="REFEREE_SERVER", help=N_("Talk to a referee server (URL) instead of a local database: new, play, legal, show, log, export, undo, redo, rule, confirm, annotate, audit, replay, diff, ratings, and tournament (with a tournament's token)."), show_default=False)] = None,
    token: Annotated[str | None, typer.Option("--token", envvar="REFEREE_TOKEN", help=N_("The token to use with --server: a match's (a seat's, the arbiter's or the spectators'), or for tournament commands a tournament's."), show_default=False)] = None,
    db: Annotated[str | None, typer.Option("--db", help=N_("The database for the command (as its own --db): a SQLite file or a postgresql:// URL."), show_default=False)] = None,
    lang: Annotated[str | None, typer.Option("--lang", help=N_("The language people read: en or ru (else $REFEREE_LANG, else the locale's, else en). Codes, notation and --json stay as they are."), show_default=False)] = None,
    durability: Annotated[str | None, typer.Option("--durability", help=N_("full (the default): an entry is reported only once it is on disk; normal: several times faster appends for bulk imports and benchmarks, but an OS crash or power loss can lose the last acknowledged entries. Also $REFEREE_DURABILITY."), show_default=False)] = None,
) -> None:
    from referee import i18n

    i18n.use(i18n.choose(lang))  # every run chooses afresh (a process may run several commands: the tests)
    ctx.obj = Connection(server=server or None, token=token, durability=durability, db=db or None)


def connection(ctx: typer.Context) -> Connection:
    found = ctx.find_object(Connection)
    return found if found is not None else Connection()


DbOpt = Annotated[
    str | None,
    typer.Option("--db", help=N_("SQLite database file, or a postgresql://user@host/dbname URL (default: $REFEREE_DB or ./referee.db)"), show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help=N_("Print machine-readable JSON instead of tables."))]


class Exit(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def db_path(ctx: typer.Context, db: str | None) -> str:
    """The database a command uses: its --db, else the one given before the command (``referee --db X
    play ...``), else $REFEREE_DB, else ./referee.db. Two different --db are refused."""
    outer = connection(ctx).db
    if db and outer and db != outer:
        fail(N_("--db given twice: {outer!r} before the command and {db!r} after it; give one"), outer=outer, db=db)
    return db or outer or os.environ.get("REFEREE_DB") or "referee.db"


def referee_for(ctx: typer.Context, db: str | None) -> RefereeApi:
    """The referee the command talks to: the server's in client mode, else the local database's."""
    conn = connection(ctx)
    if conn.server:
        from cli.client import RemoteReferee

        return RemoteReferee(conn.server, conn.token)
    return local_referee(ctx, db)


def local_referee(ctx: typer.Context, db: str | None, *, create: bool = False) -> Referee:
    """The service over the local database, for the commands that need one (matches, import, fork,
    audit --all); in client mode they are refused."""
    if connection(ctx).server:
        from referee.errors import BadInput

        raise BadInput.said(ClientCode.UNSUPPORTED, LOCAL_ONLY)
    from referee.errors import StorageError
    from referee.engine.codes import StoreCode
    from referee.service import Referee
    from referee.store import StoreError, open_store

    path = db_path(ctx, db)
    every = os.environ.get("REFEREE_SNAPSHOT_EVERY", "")
    if every and not every.isdigit():
        fail(N_("REFEREE_SNAPSHOT_EVERY must be a whole number of entries, not {every!r}"), every=every)
    try:
        store = open_store(path, create=create, durability=connection(ctx).durability)
    except StoreError as exc:
        raise StorageError(StoreCode.UNAVAILABLE, str(exc)) from None
    return Referee(store, snapshot_every=int(every)) if every else Referee(store)


def print_json(value: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n")


def fail(message: str, code: int = 2, **values: Any) -> NoReturn:
    """Bad input, said through the catalog: ``message`` a template marked ``N_`` and filled with ``values``
    (English in ``--json``, the reader's language on stderr)."""
    from referee.engine.codes import InputCode
    from referee.errors import BadInput

    err = BadInput.said(InputCode.INVALID, message, **values)
    err.exit_code = code
    raise err


def kv(items: list[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            fail(N_("{what} {item!r} is not name=value (e.g. --{what} reaction_window=false)"), what=what, item=item)
        out[key.strip()] = value.strip()
    return out


def report_entry(res: SubmitResult, json: bool) -> None:
    """The entry an intent, undo, redo, ruling or confirmation appended; exit 1 if it was rejected."""
    if json:
        from referee.engine.protocol import Rejected

        v = res.verdict
        print_json({
            "match_id": res.match_id, "seq": res.seq, "actor": res.actor, "intent": res.notation,
            "verdict": "accepted" if res.accepted else "held" if res.held else "rejected",
            "rejection": {"code": v.code, "message": v.message, "rule": v.rule, "rule_english": res.rule_english}
            if isinstance(v, Rejected) else None,
            "events": res.events, "state_hash": res.state_hash, "outcome": res.outcome,
        })
    else:
        from cli import lines

        shown = lines.result(res)
        if not lines.write(shown):  # what it cannot print as rich would, rich prints
            from cli import render

            render.printed(shown)
    if not (res.accepted or res.held):
        raise Exit(1)
