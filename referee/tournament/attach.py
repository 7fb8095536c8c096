"""A transcript reaches its table: a game played on paper at a tournament's paired table is imported as
that table's match.

The table is named by ``import --table T:ROUND:TABLE`` (or the HTTP upload's path), or by the transcript's
own ``event:``, ``round:`` and ``table:`` header lines when ``event`` is a tournament's id or name (a flag
and headers that disagree are refused, naming both). The table must be paired, not withdrawn, without an
arbiter's result, and its match not played on the system; the transcript must be a game of the
tournament's game with the table's players in its seat order. The transcript is adjudicated as any import
(:func:`referee.transcript.adjudicate`), its match naming the tournament, round and table as a pairing's
match does; the match, its entries and annotations, its transcript digest and the record attaching it
(:class:`.events.TranscriptAttached`) are written in one transaction. From then on the table's result is
read from that match's log, as a digital table's is: standings, the hall, exports and the audit read it.

The same transcript again finds the table holding it and writes nothing. Another transcript for a table
that has an imported match is a revision of that match, never a second match.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import msgspec

from schemas import TITLE_MAX
from schemas.tournament import TableImported

from ..errors import BadInput, NotFound
from ..i18n import N_
from ..freetext import unescape_text
from ..outcome import words
from ..store import StoredTournament
from ..transcript import Header, Line, adjudicate, sealed_notes
from . import events as ev
from .fold import Tournament
from .service import Tournaments
from ..engine.codes import CardsCode
from .codes import TournamentCode

#: how ``--table`` is written
TABLE_REF = "TOURNAMENT:ROUND:TABLE"


@dataclass(frozen=True)
class Where:
    """A table named by a flag or a transcript's header: the tournament (id or name), round and table."""

    tournament: str
    round: int
    table: int
    #: what named it: ``--table 5e1a:2:3`` or ``the header (sheet.txt:9)``
    named_by: str


def parse_ref(text: str) -> Where:
    """``T:ROUND:TABLE`` (the tournament's id, 4+ leading characters of it, or its name)."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[0].strip() or not all(p.strip().isdigit() and int(p) > 0 for p in parts[1:]):
        raise BadInput.said(TournamentCode.BAD_TABLE_REF, N_("--table takes {table_ref} (e.g. 5e1a:2:3: the tournament's id or name, the round, the table), not {text!r}"),
                            table_ref=TABLE_REF, text=text[:80])
    return Where(parts[0].strip(), int(parts[1]), int(parts[2]), f"--table {text}")


def find(service: Tournaments, name: str, *, prefix: bool = True) -> StoredTournament | None:
    """The tournament ``name`` names: its id (with ``prefix``, 4+ leading characters of it, as the other
    tournament commands take it) or its exact name; None when none is."""
    name = name.strip()
    if prefix:
        with contextlib.suppress(NotFound):  # no id starts so: the name may be the tournament's title
            return service.resolve(name)
    else:
        found = service.store.get_tournament(name)
        if found is not None:
            return found
    named = [t for t in service.store.list_tournaments() if t.name == name]
    if len(named) > 1:
        raise BadInput.said(TournamentCode.AMBIGUOUS_NAME, N_("{n} tournaments are called {name!r} ({items}): name the table as {table_ref} with the id"),
                            n=len(named), name=name, items=', '.join(t.id for t in named), table_ref=TABLE_REF)
    return named[0] if named else None


def _header(header: Header, key: str) -> str:
    return unescape_text(header.values.get(key, "")).strip()


def where_of(service: Tournaments, header: Header, source: str, given: Where | None) -> Where | None:
    """The table a transcript goes to: ``given`` (the flag), checked against the header's ``event``,
    ``round`` and ``table`` where it has them; else the table the header names when its ``event`` is a
    tournament's id or name and it has ``round`` and ``table``; else None (a plain import)."""
    event, rnd, table = _header(header, "event"), _header(header, "round"), _header(header, "table")
    if given is not None:
        found = find(service, given.tournament)
        if found is None:
            raise NotFound.said(TournamentCode.NOT_FOUND, N_("{named_by}: no tournament {tournament!r} (see `referee tournament list`)"),
                                named_by=given.named_by, tournament=given.tournament)
        said = [(k, v, str(want)) for k, v, want in (("round", rnd, given.round), ("table", table, given.table)) if v]
        wrong = [f"{k} {v!r}" for k, v, want in said if v != want]
        if event and event not in (found.id, found.name):
            wrong.insert(0, f"event {event!r}")
        if wrong:
            lines = ", ".join(str(header.lines[k]) for k in ("event", "round", "table") if k in header.lines)
            raise BadInput.said(TournamentCode.TABLE_DISAGREES, N_("{named_by} names {name} ({id}) round {round} table {table}, but the transcript's header says {items} ({source}:{lines}): correct the one that is wrong (or leave those header lines out)"),
                                named_by=given.named_by, name=found.name, id=found.id, round=given.round, table=given.table, items=', '.join(wrong), source=source, lines=lines)
        return Where(found.id, given.round, given.table, given.named_by)
    if not event or not rnd or not table:
        return None
    found = find(service, event, prefix=False)
    if found is None:
        return None
    for key, value in (("round", rnd), ("table", table)):
        if not (value.isascii() and value.isdigit() and int(value) > 0):
            raise BadInput.said(TournamentCode.BAD_TABLE_REF, N_("{source}:{line}: the header's event names tournament {name} ({id}), so its round must be a round number of it, not {value!r}")
                                if key == "round" else
                                N_("{source}:{line}: the header's event names tournament {name} ({id}), so its table must be a table number of it, not {value!r}"),
                                source=source, line=header.lines[key], name=found.name, id=found.id, value=value[:40])
    return Where(found.id, int(rnd), int(table), f"the header ({source}:{header.lines['event']})")


@dataclass
class Target:
    """The table a transcript is attached to, as its tournament's records have it."""

    state: Tournament
    round: int
    table: int
    seats: tuple[str, ...]
    #: the table's match now (the pairing's, or an earlier import's)
    match_id: str | None
    #: the digest of the transcript whose match is the table's (empty: none is)
    digest: str = ""


def target(service: Tournaments, where: Where) -> Target:
    """The table ``where`` names, checked: paired, not withdrawn, no arbiter's result, its match not played
    on the system (a table whose match came from a transcript is returned with that transcript's digest)."""
    state = service.load(where.tournament)
    t = state.table(where.round, where.table)
    name = f"{state.config.name} ({state.id})"
    if t is None:
        if 1 <= where.round <= state.current:
            raise NotFound.said(TournamentCode.NO_TABLE, N_("{named_by}: {name} round {round} has no table {table}"),
                                named_by=where.named_by, name=name, round=where.round, table=where.table)
        raise NotFound.said(TournamentCode.NO_TABLE,
                            N_("{named_by}: {name} has no round {round} paired (rounds paired: {paired})")
                            if state.current else
                            N_("{named_by}: {name} has no round {round} paired (rounds paired: none yet)"),
                            named_by=where.named_by, name=name, round=where.round,
                            paired=", ".join(str(i) for i in range(1, state.current + 1)))
    key = (where.round, where.table)
    if key in state.withdrawn:
        raise BadInput.said(TournamentCode.WITHDRAWN, N_("round {round} table {table} of {name}: its pairing was withdrawn (record {withdrawn}); a withdrawn table has no match to import"),
                            round=where.round, table=where.table, name=name, withdrawn=state.withdrawn[key])
    if key in state.attached:
        record = service.records(state.id, state.attached[key])[-1].event
        digest = record.digest if isinstance(record, ev.TranscriptAttached) else ""
        return Target(state, where.round, where.table, t.seats, t.match_id, digest)
    result = state.results.get(key)
    if result is not None and result.source != "log":
        raise BadInput.said(TournamentCode.HAS_RESULT, N_("round {round} table {table} of {name} has a result recorded by the arbiter ({result}, record {n}): a transcript cannot replace it; change it with `tournament result --correct`"),
                            round=where.round, table=where.table, name=name, result=words(result.outcome), n=result.n)
    head = service.referee.store.head(t.match_id) if t.match_id is not None else 0
    if head:
        raise BadInput.said(TournamentCode.PLAYED_ON_SYSTEM, N_("round {round} table {table} of {name} is played on the system: its match {match_id} has 1 entry, so a transcript of it would be a second record of the game")
                            if head == 1 else
                            N_("round {round} table {table} of {name} is played on the system: its match {match_id} has {head} entries, so a transcript of it would be a second record of the game"),
                            round=where.round, table=where.table, name=name, match_id=t.match_id, head=head)
    if result is not None:  # a closed round's table always had a match with a result (or an arbiter's)
        raise BadInput.said(TournamentCode.ROUND_CLOSED, N_("round {round} table {table} of {name}: round {round} is closed"),
                            round=where.round, table=where.table, name=name)
    return Target(state, where.round, where.table, t.seats, t.match_id)


def check_header(target: Target, header: Header, source: str) -> None:
    """The transcript is of the tournament's game, with the table's players in its seat order."""
    game = header.values["game"].strip()
    cfg = target.state.config
    if game != cfg.game:
        raise BadInput.said(TournamentCode.WRONG_GAME, N_("{source}:{line}: the transcript is a game of {game!r}; {name} plays {played}"),
                            source=source, line=header.lines['game'], game=game, name=cfg.name, played=cfg.game)
    players = [p.strip() for p in header.values["players"].split(",") if p.strip()]
    seats = list(target.seats)
    if players == seats:
        return
    where = f"{source}:{header.lines['players']}"
    if sorted(players) != sorted(seats):
        extra = [p for p in players if p not in seats]
        missing = [s for s in seats if s not in players]
        why = "; ".join(x for x in (f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not at that table"
                                    if extra else "",
                                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing"
                                    if missing else "") if x)
        raise BadInput.said(TournamentCode.WRONG_PLAYERS, N_("{where}: the transcript's players are {players}; round {round} table {table} of {name} seats {seats} ({why})") if why else
                            N_("{where}: the transcript's players are {players}; round {round} table {table} of {name} seats {seats} (a player is named twice)"),
                            where=where, players=", ".join(players), round=target.round, table=target.table, name=cfg.name, seats=" v ".join(seats), why=why)
    raise BadInput.said(TournamentCode.WRONG_SEATS, N_("{where}: the transcript seats {players}; round {round} table {table} of {name} seats {first} first ({seats}): write 'players: {order}'"),
                        where=where, players=", ".join(players), round=target.round, table=target.table, name=cfg.name, first=seats[0], seats=" v ".join(seats),
                        order=", ".join(seats))


def revision(service: Tournaments, aim: Target, match_id: str, text: str, source: str, base_dir: str | None,
             fresh: TableImported, *, check: bool, by: str, why: str) -> TableImported:
    """Another transcript for a table whose match came from an import (``match_id``): a revision of that
    match (its changed lines become corrections, as ``import --revise`` makes them), never a second match.
    ``fresh``: the answer the text adjudicated on its own gives (its problems with their lines, its
    result); with ``check`` that is the answer and nothing is written. Without a reason the revision says
    which table's sheet it came from."""
    if check:
        return fresh
    from ..revision import revise

    why = why.strip() or f"corrected sheet of round {aim.round} table {aim.table} imported"
    rev = revise(service.referee, match_id, text, reason=why, by=by, source=source, base_dir=base_dir)
    # unchanged lines write nothing and leave the result as the match's log gives it
    outcome = rev.outcome if rev.changed else service.referee.show(match_id).outcome
    return msgspec.structs.replace(fresh, match_id=match_id, replaces=None, attached=False, revised=rev.changed,
                                   result=outcome, result_words=words(outcome))


def _bundled_only(service: Tournaments, header: Header, source: str) -> None:
    """A transcript with no directory of its own (one sent over HTTP) names a card set bundled with the game,
    never a file: the server reads no file a client names."""
    cards = _header(header, "cards")
    game = service.referee.game(header.values["game"].strip())
    if cards and cards not in game.card_sets:
        raise BadInput.said(CardsCode.NOT_BUNDLED, N_("{source}:{line}: card set {cards!r} is not bundled with {game} ({known}): a transcript sent to the server names a bundled set (the server never reads a file a client names)")
                            if game.card_sets else
                            N_("{source}:{line}: card set {cards!r} is not bundled with {game} (none): a transcript sent to the server names a bundled set (the server never reads a file a client names)"),
                            source=source, line=header.lines["cards"], cards=cards[:80], game=game.id,
                            known=", ".join(sorted(game.card_sets)))


def import_to_table(service: Tournaments, text: str, source: str, base_dir: str | None, where: Where,
                    parsed: tuple[Header, list[Line]], *, check: bool = False, by: str = "organiser",
                    why: str = "") -> TableImported:
    """Adjudicate a transcript as the match of the table ``where`` names and, unless ``check``, attach it
    (the match, its entries and the record, in one transaction). Bad input of any kind writes nothing."""
    header, _ = parsed
    aim = target(service, where)
    check_header(aim, header, source)
    if base_dir is None:
        _bundled_only(service, header, source)
    state = aim.state
    cfg = state.config
    meta = {"tournament": state.id, "event": cfg.name, "round": str(aim.round), "table": str(aim.table)}
    if not _header(header, "title"):
        meta["title"] = f"{cfg.name}, round {aim.round}, table {aim.table}"[:TITLE_MAX]
    done = adjudicate(service.referee, text, source, base_dir, meta=meta, parsed=parsed)
    summary = done.summary
    answer = TableImported(tournament=state.id, name=cfg.name, round=aim.round, table=aim.table,
                           seats=list(aim.seats), match_id=done.match.id, replaces=aim.match_id, checked=check,
                           summary=summary, result=summary.outcome, result_words=words(summary.outcome),
                           records=state.n)
    if aim.digest:
        current = aim.match_id or ""
        if summary.digest == aim.digest:  # this very transcript: the table holds it already
            return msgspec.structs.replace(answer, match_id=current, replaces=None, checked=False,
                                           summary=msgspec.structs.replace(summary, match_id=current))
        return revision(service, aim, current, text, source, base_dir, answer, check=check, by=by, why=why)
    if check:
        return answer
    match_id = done.match.id
    event = ev.TranscriptAttached(round=aim.round, table=aim.table, match_id=match_id, replaces=aim.match_id,
                                  digest=summary.digest)
    state = service.attach(state, event, by, why, match=done.match, entries=done.entries,
                           annotations=sealed_notes(service.referee, done),
                           summary=done.listed, digest=summary.digest)
    return msgspec.structs.replace(answer, attached=True, records=state.n,
                                   summary=msgspec.structs.replace(summary, match_id=match_id, stored=True))


def attach_text(service: Tournaments, text: str, *, table: Where | str | None = None, source: str = "<transcript>",
                base_dir: str | None = None, check: bool = False, by: str = "organiser",
                why: str = "") -> TableImported | None:
    """A transcript's text imported to the table ``table`` names (``T:ROUND:TABLE``, or a :class:`Where`) or,
    without one, to the table its header lines name; None when nothing names one (a plain import's text).
    What ``referee import --table`` and the HTTP upload call; a script or a test may call it too."""
    from ..transcript import read

    given = parse_ref(table) if isinstance(table, str) else table
    parsed = read(service.referee, text, source)
    where = where_of(service, parsed[0], source, given)
    if where is None:
        return None
    return import_to_table(service, text, source, base_dir, where, parsed, check=check, by=by, why=why)
