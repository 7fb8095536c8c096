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
        raise BadInput(TournamentCode.BAD_TABLE_REF, f"--table takes {TABLE_REF} (e.g. 5e1a:2:3: the tournament's id "
                       f"or name, the round, the table), not {text[:80]!r}")
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
        raise BadInput(TournamentCode.AMBIGUOUS_NAME, f"{len(named)} tournaments are called {name!r} "
                       f"({', '.join(t.id for t in named)}): name the table as {TABLE_REF} with the id")
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
            raise NotFound(TournamentCode.NOT_FOUND, f"{given.named_by}: no tournament {given.tournament!r} "
                           "(see `referee tournament list`)")
        said = [(k, v, str(want)) for k, v, want in (("round", rnd, given.round), ("table", table, given.table)) if v]
        wrong = [f"{k} {v!r}" for k, v, want in said if v != want]
        if event and event not in (found.id, found.name):
            wrong.insert(0, f"event {event!r}")
        if wrong:
            lines = ", ".join(str(header.lines[k]) for k in ("event", "round", "table") if k in header.lines)
            raise BadInput(TournamentCode.TABLE_DISAGREES,
                           f"{given.named_by} names {found.name} ({found.id}) round {given.round} table "
                           f"{given.table}, but the transcript's header says {', '.join(wrong)} ({source}:{lines}): "
                           "correct the one that is wrong (or leave those header lines out)")
        return Where(found.id, given.round, given.table, given.named_by)
    if not event or not rnd or not table:
        return None
    found = find(service, event, prefix=False)
    if found is None:
        return None
    for key, value in (("round", rnd), ("table", table)):
        if not (value.isascii() and value.isdigit() and int(value) > 0):
            raise BadInput(TournamentCode.BAD_TABLE_REF,
                           f"{source}:{header.lines[key]}: the header's event names tournament {found.name} "
                           f"({found.id}), so its {key} must be a {key} number of it, not {value[:40]!r}")
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
        raise NotFound(TournamentCode.NO_TABLE, f"{where.named_by}: {name} round {where.round} has no table "
                       f"{where.table}" if 1 <= where.round <= state.current else
                       f"{where.named_by}: {name} has no round {where.round} paired (rounds paired: "
                       f"{', '.join(str(i) for i in range(1, state.current + 1)) or 'none yet'})")
    key = (where.round, where.table)
    here = f"round {where.round} table {where.table} of {name}"
    if key in state.withdrawn:
        raise BadInput(TournamentCode.WITHDRAWN, f"{here}: its pairing was withdrawn (record {state.withdrawn[key]}); "
                       "a withdrawn table has no match to import")
    if key in state.attached:
        record = service.records(state.id, state.attached[key])[-1].event
        digest = record.digest if isinstance(record, ev.TranscriptAttached) else ""
        return Target(state, where.round, where.table, t.seats, t.match_id, digest)
    result = state.results.get(key)
    if result is not None and result.source != "log":
        raise BadInput(TournamentCode.HAS_RESULT, f"{here} has a result recorded by the arbiter ({words(result.outcome)}, "
                       f"record {result.n}): a transcript cannot replace it; change it with `tournament result "
                       f"--correct`")
    head = service.referee.store.head(t.match_id) if t.match_id is not None else 0
    if head:
        raise BadInput(TournamentCode.PLAYED_ON_SYSTEM, f"{here} is played on the system: its match {t.match_id} has "
                       f"{head} {'entry' if head == 1 else 'entries'}, so a transcript of it would be a second record of the game")
    if result is not None:  # a closed round's table always had a match with a result (or an arbiter's)
        raise BadInput(TournamentCode.ROUND_CLOSED, f"{here}: round {where.round} is closed")
    return Target(state, where.round, where.table, t.seats, t.match_id)


def check_header(target: Target, header: Header, source: str) -> None:
    """The transcript is of the tournament's game, with the table's players in its seat order."""
    game = header.values["game"].strip()
    cfg = target.state.config
    here = f"round {target.round} table {target.table} of {cfg.name}"
    if game != cfg.game:
        raise BadInput(TournamentCode.WRONG_GAME, f"{source}:{header.lines['game']}: the transcript is a game of "
                       f"{game!r}; {cfg.name} plays {cfg.game}")
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
        raise BadInput(TournamentCode.WRONG_PLAYERS, f"{where}: the transcript's players are {', '.join(players)}; "
                       f"{here} seats {' v '.join(seats)} ({why or 'a player is named twice'})")
    raise BadInput(TournamentCode.WRONG_SEATS, f"{where}: the transcript seats {', '.join(players)}; {here} seats "
                   f"{seats[0]} first ({' v '.join(seats)}): write 'players: {', '.join(seats)}'")


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
        raise BadInput(CardsCode.NOT_BUNDLED, f"{source}:{header.lines['cards']}: card set {cards[:80]!r} is not "
                       f"bundled with {game.id} ({', '.join(sorted(game.card_sets)) or 'none'}): a transcript sent "
                       "to the server names a bundled set (the server never reads a file a client names)")


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
