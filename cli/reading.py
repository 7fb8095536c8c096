"""The commands that read a match and change nothing: ``show``, ``log``, ``matches``, ``replay`` and
``diff``. Registered on :data:`cli.common.app` when :mod:`cli.main` imports this module (at its end);
like every command they parse, call one method of the referee and render (:mod:`cli.render` for
people, ``--json`` for scripts)."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.i18n import N_

from cli.common import DbOpt, Exit, JsonOpt, connection, db_path, LOCAL_ONLY, fail, local_referee, print_json, referee_for, app
from cli.codes import ClientCode

if TYPE_CHECKING:
    from referee.service import Referee
    from referee.store import MatchSummary, Store


@app.command(help=N_("""Show a match's state (now, or after entry N), as the referee or as one seat sees it: one line
    that says where it stands (whose turn, the score, or the result), then the game's boards (the
    field, the map, each player's tableau). --raw adds every other field.

    Example: referee show 3f9c --as bob --at 12
    """))
def show(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    at: Annotated[str | None, typer.Option("--at", help=N_("Show the state after entry N (0 = after setup), or after line:N of the imported transcript."))] = None,
    as_: Annotated[str | None, typer.Option("--as", help=N_("See only what this seat may see."))] = None,
    raw: Annotated[bool, typer.Option("--raw", help=N_("Also every other field of the state, as stored."))] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    from referee import entryref
    from referee.i18n import current, speaking

    with speaking("en" if json else current()):  # --json is read by programs: its boards' titles in English
        data = service.show(match, at=entryref.resolve_opt(service, match, at, "--at"), seat=as_)
    if json:
        print_json(data)
        return
    if data.names:  # a person reads names: each id with a printed name is drawn as its name
        import msgspec

        from referee.engine.present import named, named_boards

        data = msgspec.structs.replace(data, boards=named_boards(data.boards, data.names),
                                       sections=named_boards(data.sections, data.names),
                                       headline=named(data.headline, data.names))
    from cli import boards

    if boards.write_state(data, raw=raw):  # what rich would draw, without rich (a pipe, plain text)
        return
    from cli import render

    render.state(data, raw=raw)


#: a log of more entries than this is streamed as lines even on a terminal (never built into one table)
LOG_TABLE_MAX = 500
#: what ``log --only`` can pick out (see :func:`cli.render.log_marks`)
LOG_ONLY = ("rejected", "disputed", "ruled", "undone", "held", "manual", "annotated", "unreadable")
#: older words --only still takes: the log's kind for a line that could not be read
LOG_ONLY_ALIASES = {"unparsed": "unreadable"}


@app.command(help=N_("""List the entries of a match: who, what, the verdict and why (undone ones say by which undo).

    A page costs what it shows, however long the match. Piped to a file or another program, or longer
    than 500 entries, the log is written a line per entry as it is read (never wrapped, nothing cut);
    on a terminal a shorter one is a table. --json writes a JSON array, also as it is read.

    Example: referee log 3f9c --as alice --last 20
    Example: referee log 3f9c --from 100 --to 160 --only rejected,disputed
    Example: referee log 3f9c --from line:20 --to line:40
    """))
def log(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    as_: Annotated[str | None, typer.Option("--as", help=N_("Redact for this seat."))] = None,
    from_: Annotated[str, typer.Option("--from", help=N_("The first entry shown (or line:N of the imported transcript)."))] = "1",
    to: Annotated[str | None, typer.Option("--to", help=N_("The last entry shown (default: the last one; or line:N)."),
                                           show_default=False)] = None,
    last: Annotated[int | None, typer.Option("--last", help=N_("Only the last N entries (of --from..--to)."),
                                             show_default=False)] = None,
    only: Annotated[str | None, typer.Option("--only", help=N_("Only entries that are any of: rejected, disputed, ruled, undone, "
                                             "held, manual, annotated, unreadable (comma-separated)."), show_default=False)] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    kinds = _log_only(only)
    info = service.match_info(match)
    from referee.api import log_span

    from referee import entryref

    first = entryref.resolve(service, info.id, from_, "--from")
    start, stop = log_span(info.head, first, entryref.resolve_opt(service, info.id, to, "--to"), last)
    entries = service.log_stream(info.id, seat=as_, start=start, stop=stop)
    if kinds:
        from cli.logtext import picked

        entries = (e for e in entries if picked(e, kinds))
    if json:
        _stream_json(entries)
        return
    if sys.stdout.isatty() and stop - start < LOG_TABLE_MAX:
        from cli import render

        render.log(f"Log of {info.id}", list(entries), info.game)
        return
    from cli import logtext

    logtext.write(entries, seq_width=len(str(max(stop, 1))), actor_width=max(map(len, [*info.players, "arbiter"])),
                  game=info.game)


def _log_only(only: str | None) -> tuple[str, ...]:
    if only is None:
        return ()
    kinds = tuple(LOG_ONLY_ALIASES.get(k.strip(), k.strip()) for k in only.split(",") if k.strip())
    bad = [k for k in kinds if k not in LOG_ONLY]
    if bad or not kinds:
        fail(N_("--only takes a comma-separated list of {kinds}; not {bad}"), kinds=", ".join(LOG_ONLY),
             bad=", ".join(bad) or repr(only))
    return kinds


def _stream_json(values: Iterator[Any]) -> None:
    """A JSON array of ``values``, written as they come, in the bytes :func:`print_json` gives a list
    (nothing is written until the first value is there, so an error before it leaves no half array)."""
    import msgspec

    out = sys.stdout
    first = next(values, None)
    if first is None:
        out.write("[]\n")
        return
    sep = "[\n"
    for value in itertools.chain((first,), values):
        body = msgspec.json.format(msgspec.json.encode(value), indent=2).decode()
        out.write(sep + "  " + body.replace("\n", "\n  "))
        sep = ",\n"
    out.write("\n]\n")


@app.command(help=N_("""List the matches in the database, forks under the match they branch from: each one's status and
    result, event, round and table, and its whole id. Read from the matches' summaries (kept as each
    log changes): no match is folded. On a terminal a table; piped, one tab-separated line per match
    (id, game, players, entries, status, event, round, table, title, created*), after a header line
    that starts with '#'.

    Example: referee matches --status over --event "club night" --limit 50 --offset 100 --json
    """))
def matches(
    ctx: typer.Context,
    game: Annotated[str | None, typer.Option("--game", help=N_("Only this game's matches."), show_default=False)] = None,
    player: Annotated[str | None, typer.Option("--player", help=N_("Only matches with this seat."), show_default=False)] = None,
    status: Annotated[str | None, typer.Option("--status", help=N_("Only matches being played (playing) or ended (over)."),
                                               show_default=False)] = None,
    event: Annotated[str | None, typer.Option("--event", help=N_("Only matches whose event contains this text."),
                                              show_default=False)] = None,
    round_: Annotated[str | None, typer.Option("--round", help=N_("Only matches of this round."), show_default=False)] = None,
    limit: Annotated[int | None, typer.Option("--limit", help=N_("At most this many matches (a page)."),
                                              show_default=False)] = None,
    offset: Annotated[int, typer.Option("--offset", help=N_("Leave out the first N matches listed (the pages before)."))] = 0,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    if status not in (None, "playing", "over"):
        fail(N_("--status is playing or over, not {status!r}"), status=status)
    if (limit is not None and limit < 0) or offset < 0:
        fail(N_("--limit and --offset are counts of matches (0 or more), not {count}"),
             count=limit if limit is not None and limit < 0 else offset)
    from referee import summaries

    store = _local_store(ctx, db)
    # the summaries alone (no rules bound, nothing folded); the service only for those a database lacks
    unfiltered = game is None and player is None and status is None and event is None and round_ is None
    page: list[tuple[MatchSummary, int]] | None = None
    listed: list[tuple[MatchSummary, int]] = []
    if store.unsummarised():
        listed = summaries.tree(summaries.listing(local_referee(ctx, db)))
    elif unfiltered:
        page = store.listed(offset, limit)  # the page alone, in the store's order
    else:
        listed = store.listed()
    if page is None:
        wanted = game
        if game is not None and all(s.game != game for s, _ in listed) and listed:
            wanted = local_referee(ctx, db).game(game).id  # an alias, or refused when no game has that name
        folded = event.casefold() if event is not None else None
        rows = [(s, depth) for s, depth in listed
                if (wanted is None or s.game == wanted) and (player is None or player in s.seats)
                and (folded is None or folded in s.event.casefold()) and (round_ is None or s.round == round_)
                and (status is None or s.status == status)]
        page = rows[offset:] if limit is None else rows[offset:offset + limit]
    if json:
        import msgspec

        print_json([{**msgspec.to_builtins(summaries.info(s)), "depth": depth, "status": s.status,
                     "result": summaries.outcome(s), "last_activity": s.last_activity} for s, depth in page])
        return
    if not sys.stdout.isatty():
        from cli.matchlines import match_lines

        sys.stdout.write("".join(match_lines(page)))
        return
    from cli import render

    render.matches(f"Matches in {db_path(ctx, db)}", [(summaries.info(s), depth, summaries.outcome(s)) for s, depth in page])


def _local_store(ctx: typer.Context, db: str | None) -> Store:
    """The local database's store alone (a listing needs no service); refused with --server."""
    from referee.errors import BadInput, StorageError
    from referee.engine.codes import StoreCode
    from referee.store import StoreError, open_store

    conn = connection(ctx)
    if conn.server:
        raise BadInput.said(ClientCode.UNSUPPORTED, LOCAL_ONLY)
    try:
        return open_store(db_path(ctx, db), create=False, durability=conn.durability)
    except StoreError as exc:
        raise StorageError(StoreCode.UNAVAILABLE, str(exc)) from None


@app.command(help=N_("""Show how two states differ and the first entry where two lines of play diverge.
    Exit 0 if the states are the same, 1 if they differ.

    Example: referee diff 3f9c@40 a71b   ·   referee diff 3f9c@line:52 a71b
    """))
def diff(
    ctx: typer.Context,
    a: Annotated[str, typer.Argument(help=N_("MATCH, MATCH@N or MATCH@line:N (the entry read from transcript line N)."))],
    b: Annotated[str, typer.Argument(help=N_("MATCH, MATCH@N or MATCH@line:N."))],
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee import entryref

    service = referee_for(ctx, db)

    def split(ref: str) -> tuple[str, int | None]:
        mid, sep, n = ref.partition("@")
        if sep and not (n.isdigit() or entryref.is_line(n)):
            fail(N_("{ref!r}: expected MATCH, MATCH@N with N an entry number, or MATCH@line:N"), ref=ref)
        return mid, entryref.resolve(service, mid, n, ref) if sep else None

    (ma, na), (mb, nb) = split(a), split(b)
    d = service.diff(ma, mb, at_a=na, at_b=nb)
    if json:
        print_json(d)
    else:
        from cli import render

        render.diff(d)
    if not d.same_state:
        raise Exit(1)


@app.command(help=N_("""Walk the log entry by entry as the Markdown export tells it: the intent, the verdict (with the
    rule for a rejection), what it did in words, comments and annotations; --changes adds every field
    of the state it changed (--json always has them).

    Example: referee replay 3f9c --from 30 --to 45 --changes   ·   referee replay 3f9c --step
    """))
def replay(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    from_: Annotated[str, typer.Option("--from", help=N_("First entry (or line:N of the imported transcript)."))] = "1",
    to: Annotated[str | None, typer.Option("--to", help=N_("Last entry (default: the last; or line:N)."))] = None,
    as_: Annotated[str | None, typer.Option("--as", help=N_("See only what this seat may see."))] = None,
    step: Annotated[bool, typer.Option("--step", help=N_("Step through interactively: n(ext), b(ack), j N (or j line:N), q(uit)."))] = False,
    changes: Annotated[bool, typer.Option("--changes", help=N_("Also list every field of the state each entry changed."))] = False,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    from referee import entryref
    from referee.i18n import current, speaking

    start, stop = entryref.resolve(service, match, from_, "--from"), entryref.resolve_opt(service, match, to, "--to")
    with speaking("en" if json else current()):  # --json is read by programs: its words in English
        steps = service.replay(match, start=start, stop=stop, seat=as_)
    if json:
        print_json(steps)
        return
    from cli import render

    render.replay(steps, step, input, changes, service.match_info(match).game)
