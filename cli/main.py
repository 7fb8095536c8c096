"""The ``referee`` command: a thin veneer over a referee (:class:`referee.api.RefereeApi`): the service
over a local database, or a server in client mode (``--server URL --token T``, kept on the context).

Each command parses its arguments, calls one method and renders the answer (:mod:`cli.render` for
people, ``--json`` for scripts). Domain errors become one line on stderr and an exit code here, in
:func:`run`, and nowhere else. Heavy modules (rich, the engine, the store) are imported inside the
commands so that ``referee play`` starts fast.

Exit codes: 0 done (intent accepted, scenarios passed, import clean); 1 the referee said no (intent
rejected, a scenario failed, an import had rejected or unreadable lines, audit found something);
2 bad input (nothing written); 3 not found; 4 conflict (stale sequence number); 5 storage problem;
70 internal error (a bug: please report it).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.i18n import N_, gettext

from cli.common import (
    Connection,
    DbOpt,
    Exit,
    JsonOpt,
    app,
    connection,
    db_path,
    fail,
    kv,
    local_referee,
    print_json,
    referee_for,
    report_entry,
)
from cli.lazy import lean

if TYPE_CHECKING:
    from referee.api import RefereeApi
    from schemas.http import AuditAnswer


# -- games -----------------------------------------------------------------------------------------


@app.command(help=N_("""List the games, or show one game's intents and options.

    Example: referee games by_all_means
    """))
def games(
    game: Annotated[str | None, typer.Argument(help=N_("A game id: show its intents (notation) and options."))] = None,
    json: JsonOpt = False,
) -> None:
    from referee.service import Referee
    from referee.store import open_store

    service = Referee(open_store(":memory:"))
    if game is None:
        rows = [service.describe_game(g.id) for g in service.games]
        if json:
            print_json(rows)
            return
        from cli import render

        render.games(rows)
        return
    info = service.describe_game(game)
    if json:
        print_json(info)
        return
    from cli import render

    render.game(info)


# -- matches ---------------------------------------------------------------------------------------


def _read_toml(path: str, what: str) -> dict[str, Any]:
    from referee.inputs import parse_toml, read_file
    from schemas import SCENARIO_MAX

    return parse_toml(read_file(path, f"{what} file", SCENARIO_MAX), f"{what} file {path}")


@app.command(help=N_("""Create a match; prints its id alone on the last line.

    With --continue-from MATCH the new match continues that finished one: the game reads its final
    state and writes what carries over (X-Files: the series' next game, its score, avatars, climax deal)
    into the new match's options, so the new match replays on its own; `meta.continues` names MATCH.

    Example: referee new by_all_means --players alice,bob --seed 7
    Example: referee new xfiles_encounters --continue-from 3f9c --seed 8
    """))
def new(
    ctx: typer.Context,
    game: Annotated[str, typer.Argument(help=N_("Game id (see `referee games`)."))],
    players: Annotated[str | None, typer.Option("--players", "-p", help=N_("Seat names in seating order, comma-separated "
                                                "(with --continue-from: the previous match's, unless given)."))] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=N_("Match option name=value (repeatable)."))] = None,
    cards: Annotated[str | None, typer.Option("--cards", help=N_("A bundled card set name or a card-definition TOML file."))] = None,
    deck: Annotated[list[str] | None, typer.Option("--deck", help=N_("seat=deck_id from the card set (repeatable)."))] = None,
    seed: Annotated[int | None, typer.Option("--seed", help=N_("Digital match: chance comes from this seed."))] = None,
    chance: Annotated[str | None, typer.Option("--chance", help=N_("physical (outcomes typed in) or digital."))] = None,
    position: Annotated[str | None, typer.Option("--position", help=N_("TOML file of dotted-path overrides of the state after setup."))] = None,
    title: Annotated[str, typer.Option("--title", help=N_("A title shown in listings."))] = "",
    undo_policy: Annotated[str, typer.Option("--undo-policy", help=N_("Who may undo: any (seat), own_last, or arbiter."))] = "any",
    continue_from: Annotated[str | None, typer.Option("--continue-from", help=N_("A finished match this one continues "
                                                      "(a series' next game): the game carries what it needs from its "
                                                      "final state into this match's options."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    pos = _read_toml(position, "position") if position else {}
    if "position" in pos and isinstance(pos["position"], dict):
        pos = pos["position"]
    conn = connection(ctx)
    if players is None and continue_from is None:
        fail(N_("name the seats: --players alice,bob (or continue a finished match: --continue-from MATCH)"))
    if conn.server:
        _new_remote(conn, game, players, kv(option, "option"), cards, kv(deck, "deck"), seed, chance, pos, title,
                    undo_policy, json, continue_from)
        return
    service = local_referee(ctx, db, create=True)
    seats = players.split(",") if players is not None else list(service.load(str(continue_from)).config.players)
    info = service.new_match(
        game, seats, options=kv(option, "option"), cards=cards, decks=kv(deck, "deck"),
        seed=seed, chance=chance, position=pos, title=title, undo=undo_policy, continue_from=continue_from,
    )
    if json:
        print_json(info)
        return
    from cli import render

    render.created(info)
    print(info.id)


def _new_remote(conn: Connection, game: str, players: str | None, options: dict[str, str], cards: str | None,
                decks: dict[str, str], seed: int | None, chance: str | None, position: dict[str, Any], title: str,
                undo: str, json: bool, continue_from: str | None = None) -> None:
    """``referee --server URL new ...``: create the match on the server and show its tokens once. With
    ``--continue-from`` the token is the previous match's arbiter's, and its seats are the default."""
    from cli.client import RemoteReferee

    server = conn.server or ""
    client = RemoteReferee(server, conn.token, need_token=continue_from is not None)
    seats = ([p.strip() for p in players.split(",")] if players is not None
             else list(client.match_info(str(continue_from)).players))
    body: dict[str, Any] = {"game": game, "players": seats, "options": options, "decks": decks, "seed": seed,
                            "chance": chance, "position": position, "title": title, "undo": undo,
                            "continue_from": continue_from}
    if cards is not None and os.path.exists(cards):
        from referee.inputs import read_file
        from schemas import CARDS_TEXT_MAX

        body["cards_text"] = read_file(cards, "card file", CARDS_TEXT_MAX)
    else:
        body["cards"] = cards
    answer = client.create_match(body)
    if json:
        print_json(answer)
        return
    from cli import render

    render.tokens(server, answer)
    print(answer.match.id)


@app.command(help=N_("""Submit one intent; prints the verdict. Exit 0 if accepted, 1 if rejected (both are logged).

    Example: referee play 3f9c alice draw_main card=TR6
    """))
def play(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id (a unique prefix of 4+ characters will do)."))],
    seat: Annotated[str, typer.Argument(help=N_("The seat submitting the intent."))],
    intent: Annotated[list[str], typer.Argument(help=N_("The intent in notation: verb key=value ..."))],
    expect_seq: Annotated[int | None, typer.Option("--expect-seq", help=N_("Refuse (exit 4) unless the log is at this entry."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    service = referee_for(ctx, db)
    text = " ".join(_requote(w) for w in intent)
    res = service.submit(match, seat, text, expected_seq=expect_seq)
    report_entry(res, json)


def _requote(word: str) -> str:
    """Words arrive unquoted from the shell: quote a value that contains spaces again."""
    key, sep, value = word.partition("=")
    if sep and any(c.isspace() for c in value) and not value.startswith('"'):
        return f'{key}="' + value.replace('"', '\\"') + '"'
    return word


@app.command(help=N_("""List the intents the referee would accept now, seat by seat (hints at the table).

    Open-ended declared effects are shown without changes. In a physical match the cards a draw
    names are consistent examples only: type the card that came up. With --as SEAT the list is what
    that seat may be shown: nothing it cannot see.

    Example: referee legal 3f9c alice   ·   referee legal 3f9c table
    Example: referee legal 3f9c --as bob --json
    """))
def legal(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    seat: Annotated[str | None, typer.Argument(help=N_("Only this seat's intents, or another actor's of the game (Copycat's table, Android's arbiter) (default: every one's)."))] = None,
    as_: Annotated[str | None, typer.Option("--as", help=N_("Only this seat's intents, as it sees them: a card it "
                                            "cannot know yet is '?' (or left out in a digital match)."),
                                            show_default=False)] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    if seat is not None and as_ is not None and seat != as_:
        fail(N_("name one seat: {seat!r} or --as {as_!r}"), seat=seat, as_=as_)
    service = referee_for(ctx, db)
    answer = service.legal(match, as_ or seat, blind=as_ is not None)
    if json:
        print_json({"seq": answer.seq, "legal": answer.legal})
        return
    from cli import render

    render.legal(answer)


@app.command(name="import", help=N_("""Adjudicate a hand-recorded transcript: every line is kept, every problem listed with its line.

    Exit 0 once the transcript is adjudicated and stored (illegal moves are verdicts, listed with
    their reasons); with --strict, exit 1 if any line was rejected or could not be read. A bad header
    writes nothing (exit 2). --check writes nothing at all. A transcript the database already holds
    (the same text, read with the same card data) is not written again: the summary names the match
    that holds it (its id on the last line, exit as for an import) unless --again. With --table (or
    header lines naming a tournament's table) the match becomes that table's: seats checked against the
    pairing, its result read from the log into the standings.

    --revise MATCH: the transcript is a corrected one of that match; each changed, added or removed
    move line becomes a correction appended to its log (nothing written if nothing changed).

    Example: referee import replays/by_all_means/club-night.txt   ·   referee import my-game.txt --check   ·   referee import sheet.txt --revise 3f9c --reason "typos" --by Jo   ·   referee import sheet.txt --table 5e1a:2:3
    """))
def import_(
    ctx: typer.Context,
    file: Annotated[str, typer.Argument(help=N_("Transcript file ('-' reads standard input)."))],
    strict: Annotated[bool, typer.Option("--strict", help=N_("Exit 1 if any line was rejected or could not be read."))] = False,
    check: Annotated[bool, typer.Option("--check", help=N_("Adjudicate and report every problem, but write nothing (no database is created)."))] = False,
    again: Annotated[bool, typer.Option("--again", help=N_("Import it even if the database holds this transcript already (a new match)."))] = False,
    revise: Annotated[str | None, typer.Option("--revise", help=N_("A corrected transcript of this match: its changed lines become corrections (see `referee amend`), not a new match."))] = None,
    reason: Annotated[str, typer.Option("--reason", help=N_("With --revise: why the lines are corrected (kept in the log); with --table: why it is attached (kept in the tournament's record)."))] = "",
    by: Annotated[str, typer.Option("--by", help=N_("With --revise: who corrects them (required); with --table: who attaches it (default: organiser)."))] = "",
    table: Annotated[str | None, typer.Option("--table", metavar="T:ROUND:TABLE", help=N_("Attach it to that paired table of tournament T (its id or name) as the table's match; event:, round: and table: header lines naming a tournament's table do the same."))] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    from referee.transcript import adjudicate, store

    from referee.inputs import read_file, read_stdin
    from schemas import TRANSCRIPT_MAX

    if file == "-":
        text, source, base = read_stdin("the transcript", TRANSCRIPT_MAX), "<stdin>", os.getcwd()
    else:
        text = read_file(file, "transcript", TRANSCRIPT_MAX)
        source, base = file, os.path.dirname(os.path.abspath(file))
    if revise is not None:
        from cli.amending import revised

        if check or again or strict:
            fail(N_("--revise writes a revision of the match: it takes neither --check, --again nor --strict"))

        return revised(local_referee(ctx, db), revise, text, reason=reason, by=by, source=source, base=base, json=json)
    if table is not None and connection(ctx).server:
        _upload(connection(ctx), text, source, table, check=check, strict=strict, json=json, why=reason)
        return
    from referee.store.postgres import is_url

    shared = is_url(db_path(ctx, db))  # a PostgreSQL database: there is one (its tables made when first used)
    if connection(ctx).server or shared or os.path.exists(db_path(ctx, db)):
        service = local_referee(ctx, db, create=shared and not check)
    else:  # no database yet: adjudicate without one, and create it only to write the match
        from referee.service import Referee
        from referee.store import open_store

        service = Referee(open_store(":memory:"))
    from referee.transcript import read

    parsed = read(service, text, source)
    if _to_table(service, text, source, base, parsed, table, check=check, again=again, strict=strict, json=json,
                 by=by or "organiser", why=reason):
        return
    done = adjudicate(service, text, source, base, parsed=parsed)
    summary = done.summary
    if not check and (again or not summary.already):
        if not shared and not os.path.exists(db_path(ctx, db)):
            service = local_referee(ctx, db, create=True)
        summary = store(service, done)
    if json:
        print_json(summary)
    else:
        from cli import scorekeeping

        scorekeeping.imported(source, summary, check=check)
        if summary.stored or summary.already:
            print(summary.match_id)
    if strict and summary.problems:
        raise Exit(1)


def _upload(conn: Connection, text: str, source: str, table: str, *, check: bool, strict: bool, json: bool,
            why: str) -> None:
    """``import --table`` in client mode: the transcript sent to the server (the organiser's token), which
    adjudicates and attaches it as a local import does."""
    from cli.tournament_client import RemoteTournaments
    from referee.tournament.attach import parse_ref
    from schemas.tournament import TranscriptUpload

    where = parse_ref(table)
    answer = RemoteTournaments(conn.server or "", conn.token).upload(
        where.tournament, where.round, where.table, TranscriptUpload(text=text, check=check, reason=why))
    _shown(source, answer, json=json, strict=strict)


def _shown(source: str, answer: Any, *, json: bool, strict: bool) -> None:
    if json:
        print_json(answer)
    else:
        from cli import scorekeeping

        scorekeeping.table_imported(source, answer)
        if not answer.checked:
            print(answer.match_id)
    if strict and answer.summary.problems:
        raise Exit(1)


def _to_table(service: Any, text: str, source: str, base: str, parsed: Any, table: str | None, *, check: bool,
              again: bool, strict: bool, json: bool, by: str, why: str) -> bool:
    """``import --table`` (or header lines naming a tournament's table): the transcript adjudicated as that
    table's match and attached to it. False when nothing names a table (a plain import)."""
    if table is None and not all(k in parsed[0].values for k in ("event", "round", "table")):
        return False  # (nothing could name a table: the tournaments' code is not even loaded)
    from referee.tournament import attach
    from referee.tournament.service import Tournaments

    given = attach.parse_ref(table) if table is not None else None
    tournaments = Tournaments(service)
    where = attach.where_of(tournaments, parsed[0], source, given)
    if where is None:
        return False
    if again:
        fail(N_("--again makes a second match; a table has one match (a corrected transcript revises it)"))
    answer = attach.import_to_table(tournaments, text, source, base, where, parsed, check=check, by=by, why=why)
    _shown(source, answer, json=json, strict=strict)
    return True


@app.command(help=N_("""Export a match for people (md, a self-contained html page) or programs (json, txt).

    Everything goes through the game's view for the role asked: a seat's export never shows another
    seat's hidden cards. The txt export of the arbiter's view imports back to the same match.

    Example: referee export 3f9c --format html --as alice -o game.html
    """))
def export(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    format: Annotated[str, typer.Option("--format", "-f", help=N_("txt (transcript), md, html or json."))] = "md",
    as_: Annotated[str, typer.Option("--as", help=N_("arbiter (everything), a seat, or spectator."))] = "arbiter",
    output: Annotated[str | None, typer.Option("--output", "-o", help=N_("Write to this file instead of standard output."))] = None,
    db: DbOpt = None,
) -> None:
    from cli import outfile

    if output is not None:
        outfile.check(output)  # a target it would refuse is refused before the work
    pieces = referee_for(ctx, db).export(match, format, as_)  # locally, made as the log is walked
    if output is None:
        for piece in pieces:
            sys.stdout.write(piece)
        return
    # through a temporary file beside it, moved into place at the end: whole or not at all
    size = outfile.write(output, pieces)
    from cli import render

    render.written(output, size, format, as_)


@app.command(help=N_("""Attach an annotation to entry N (the entry itself is never changed). An annotation is shown as
    written to whom it is for; an arbiter's note that names hidden cards is written --for arbiter.

    Example: referee annotate 3f9c 12 "should have kept the agent" --kind mistake --by arbiter
    Example: referee annotate 3f9c line:23 "misread the card" --kind disputed
    """))
def annotate(
    ctx: typer.Context,
    match: Annotated[str, typer.Argument(help=N_("Match id."))],
    seq: Annotated[str, typer.Argument(help=N_("The entry to annotate: an entry number, or line:N for the entry read from line N of the imported transcript."))],
    text: Annotated[str, typer.Argument(help=N_("The annotation."))],
    kind: Annotated[str, typer.Option("--kind", help=N_("comment, disputed, ruling, good or mistake."))] = "comment",
    by: Annotated[str, typer.Option("--by", help=N_("Who says so."))] = "",
    for_: Annotated[str, typer.Option("--for", help=N_("Who may read it: all, arbiter, or one seat (shown as written to them, to nobody else)."))] = "all",
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    kinds = ("comment", "disputed", "ruling", "good", "mistake")
    if kind not in kinds:
        fail(N_("--kind must be one of {kinds}, not {kind!r}"), kinds=", ".join(kinds), kind=kind)
    service = referee_for(ctx, db)
    from referee import entryref

    note = service.annotate(match, entryref.resolve(service, match, seq, "the entry to annotate"), text, kind=kind, by=by, audience=for_)
    if json:
        print_json(note)
    else:
        from cli import render

        render.annotated(note.seq, note.kind)


@app.command(help=N_("""Check the whole record: the configuration (card data, options, seed) and rules version against
    the genesis hash, every verdict re-adjudicated from setup, every entry hash, the chain, every state
    hash and snapshot, and the annotations' chain. Exit 0 if clean, 1 with the first divergence of
    each match. A clean audit prints the head: keep it with the result; --expect-head HEAD fails when
    the head differs (a cut at the end, an edited title, a rehashed log).

    Example: referee audit 3f9c   ·   referee audit --all --json   ·   referee audit 3f9c --expect-head 5d2a...
    """))
def audit(
    ctx: typer.Context,
    match: Annotated[str | None, typer.Argument(help=N_("Match id (omit with --all)."))] = None,
    all_: Annotated[bool, typer.Option("--all", help=N_("Audit every match in the database."))] = False,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=N_("Processes for a long log, checked in stretches between snapshots (the report is the same)."), show_default=N_("the cores available, at most 8"))] = 0,
    accept_rules_change: Annotated[bool, typer.Option("--accept-rules-change", help=N_("A match recorded under other rules than the referee's is re-adjudicated under the new rules (a note) instead of failing the audit."))] = False,
    expect_head: Annotated[str | None, typer.Option("--expect-head", help=N_("The head an earlier audit printed: a head that differs now is a finding (the record changed since)."), show_default=False)] = None,
    db: DbOpt = None,
    json: JsonOpt = False,
) -> None:
    if (match is None) == (not all_):
        fail(N_("name one match, or pass --all (e.g. referee audit 3f9c)"))
    if expect_head is not None and match is None:
        fail(N_("--expect-head names one match's head: name the match (e.g. referee audit 3f9c --expect-head HEAD)"))
    if jobs < 0:
        fail(N_("--jobs must be 1 or more (0 = the cores available), not {jobs}"), jobs=jobs)
    if jobs == 0:
        from referee.audit import default_jobs

        jobs = default_jobs()
    if match is None:
        local = local_referee(ctx, db)
        service: RefereeApi = local
        ids = [m.id for m in local.store.list_matches()]
    else:
        service = referee_for(ctx, db)
        ids = [service.match_info(match).id]
    if json:
        reports = service.audit_many(ids, jobs=jobs, accept_rules_change=accept_rules_change)
        reports = _expecting(reports, expect_head)
        print_json(reports if all_ else reports[0])
    else:
        from cli import render

        with render.progress(gettext(N_("audit {n} matches"), n=len(ids)) if all_
                             else gettext(N_("audit {match}"), match=ids[0])) as moved:
            reports = service.audit_many(ids, moved, jobs=jobs, accept_rules_change=accept_rules_change)
        reports = _expecting(reports, expect_head)
        render.audits(reports)
    if any(not r.clean for r in reports):
        raise Exit(1)


def _expecting(reports: list[AuditAnswer], expect_head: str | None) -> list[AuditAnswer]:
    """The reports, the first with a finding if its head is not ``expect_head`` (when one is given)."""
    if expect_head is None:
        return reports
    from referee.audit import expecting

    return [expecting(reports[0], expect_head), *reports[1:]]


def _click_exceptions() -> tuple[tuple[type[Any], ...], tuple[type[Any], ...]]:
    """Usage errors and exits of the click typer runs on: the copy newer typer releases carry (click
    itself, which nothing then uses, is not imported), else click."""
    errors: list[type[Any]] = []
    exits: list[type[Any]] = []
    try:
        __import__("typer._click.exceptions")
        modules: tuple[str, ...] = ("typer._click.exceptions", "typer")
    except ImportError:
        modules = ("click.exceptions", "typer")
    for module in modules:
        mod = __import__(module, fromlist=["ClickException", "Exit"])
        for name, found in (("ClickException", errors), ("Exit", exits)):
            cls = getattr(mod, name, None)
            if isinstance(cls, type) and cls not in found:
                found.append(cls)
    return tuple(errors), tuple(exits)


# the other commands live in modules of their own, each registering its commands on app: the time
# travel and rulings (rule, undo, redo, confirm, fork), the reads (show, log, matches, replay, diff),
# the scorekeeper's card listings (cards, template) and the hall's (serve, ratings, db copy, scenario run)
from cli import timetravel  # noqa: E402,F401
from cli import reading  # noqa: E402,F401
from cli import cardcmds  # noqa: E402,F401
from cli import admin  # noqa: E402,F401
from cli import amending  # noqa: E402,F401
from cli import players  # noqa: E402,F401


INTERRUPTED = N_("interrupted")

#: the options before the command that take a value (``--lang`` among them)
_GLOBAL_VALUES = ("--server", "--token", "--db", "--lang", "--durability")


def _asked_language(argv: list[str]) -> str | None:
    """The ``--lang`` given before the command (``referee --lang ru play ...``), if any."""
    words = iter(argv)
    for word in words:
        if word.startswith("--lang="):
            return word.partition("=")[2]
        if word == "--lang":
            return next(words, None)
        if word in _GLOBAL_VALUES:
            next(words, None)
        elif not word.startswith("-"):
            break
    return None


def run(argv: list[str] | None = None) -> None:
    """Entry point: runs the app and turns every domain error into one line and an exit code."""
    click_errors, click_exits = _click_exceptions()
    try:
        from referee import i18n

        # chosen before the app runs: a help is rendered before the options' callback would choose it
        i18n.use(i18n.choose(_asked_language(sys.argv[1:] if argv is None else argv)))
        # typer 0.29 turns Ctrl-C (and any click Exit) into a *returned* exit code when it does not
        # exit itself: an interrupted command must not look like a success to a script
        code = lean(app)(args=argv, standalone_mode=False)
        if isinstance(code, int) and not isinstance(code, bool) and code != 0:
            if code == 130:
                sys.stderr.write(gettext(INTERRUPTED) + "\n")
            sys.exit(code)
    except Exit as exc:
        sys.exit(exc.code)
    except click_exits as exc:
        sys.exit(exc.exit_code)
    except click_errors as exc:
        from cli.usage import show

        show(exc)  # in the reader's language (click says its own in English)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write(gettext(INTERRUPTED) + "\n")
        sys.exit(130)
    except BrokenPipeError:
        # the reader went away (``referee log ... | head``): stop quietly, as a program killed by SIGPIPE
        # would, and let nothing more reach the closed pipe
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(141)
    except RecursionError:
        # only input nested past the stack gets here (each reader bounds what it knows of)
        sys.stderr.write(gettext(N_("error: the input nests too deeply to read")) + "\n")
        sys.exit(2)
    except Exception as exc:  # noqa: BLE001 - the one place errors become exit codes
        from referee.errors import BadInput, RefereeError
        from referee.store import BadSetting

        if isinstance(exc, BadSetting):  # a store's setting the user gave (e.g. --durability): bad input
            bad = BadInput(exc.code, exc.message)
            bad.template = exc.template  # said through the catalog in the store (read in the reader's language)
            exc = bad
        if isinstance(exc, RefereeError):
            if "--json" in (argv if argv is not None else sys.argv[1:]):
                print_json({"code": exc.code, "message": exc.message, "detail": exc.detail})
            sys.stderr.write(gettext(N_("error: {message}"), message=exc.text(gettext)) + "\n")
            sys.exit(exc.exit_code)
        if os.environ.get("REFEREE_DEBUG"):
            raise
        sys.stderr.write(gettext(N_("internal error: {kind}: {problem} (a bug in referee; rerun with REFEREE_DEBUG=1 for "
                                    "details)"), kind=type(exc).__name__, problem=exc) + "\n")
        sys.exit(70)


if __name__ == "__main__":
    # run as ``python -m cli.main``: this file is then ``__main__``, whose commands registered themselves
    # on cli.common's app above, as the imported cli.main's would
    run()
