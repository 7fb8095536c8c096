"""A tournament's audit and its head.

The head (:func:`head_hash`) is one hash over the tournament's whole record: how many records it has,
the hash chain over every record's body (which fixes every record and their order) and every token row
of the tournament (its hash, role and player). It is printed by ``tournament audit``, ``tournament
standings``, every ``tournament export`` and the hall page. Kept by whoever holds a result, a later
head that differs shows that something of the record changed: a record rewritten and the chain
hashed again, a record cut off at the end, a token given another role. ``--expect-head`` makes the
audit say so. What no head covers and no audit reads: the clock readings (``recorded_at`` of a
record, ``created_at`` of the tournament): times kept for people, not evidence.

The audit (:func:`findings`) reads the record as it is, however it was edited, and reports what is
wrong as findings; it never stops at the first record that does not decode or fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from ..engine.core import canonical, sha256_hex
from ..errors import RefereeError
from ..service import Referee
from ..store import StoredTournament, TournamentRecords, StoredTournamentEvent, StoredTournamentToken
from . import events as ev
from .fold import CorruptTournament, Tournament, evolve, fold


class Tournaments(Protocol):
    """What the audit reads a tournament through: its records and tokens in the store, and its tables'
    matches through the match service (:class:`referee.tournament.service.Tournaments` is one)."""

    @property
    def store(self) -> TournamentRecords: ...

    @property
    def referee(self) -> Referee: ...

    def resolve(self, tournament_id: str) -> StoredTournament: ...

#: the layout of what the head hashes (a change of layout changes every head: bump it then)
HEAD_FORMAT = 1
TOKEN_ROLES = ("organiser", "spectator", "player")


def head_hash(tournament_id: str, rows: Sequence[StoredTournamentEvent],
              tokens: Sequence[StoredTournamentToken]) -> str:
    """The tournament's head: ``sha256("referee:tournament-head\\n" + canonical({...}))`` over its id,
    the number of records, the last record's hash as the bodies give it (the chain hashed again from
    the root over every body, whatever the stored hash columns say: equal to the last one's stored hash
    while the record is intact) and its token rows ``[hash, role, player]`` in hash order."""
    last = ev.root_hash(tournament_id)
    for row in rows:
        last = ev.chain_hash(last, row.body)
    body = {"format": HEAD_FORMAT, "tournament": tournament_id, "records": len(rows), "last": last,
            "tokens": [[t.token_hash, t.role, t.player] for t in sorted(tokens, key=lambda t: t.token_hash)]}
    return sha256_hex(b"referee:tournament-head\n" + canonical(body))


def chain_findings(tournament_id: str, rows: Sequence[StoredTournamentEvent]) -> tuple[list[str], list[ev.Record]]:
    """The records' chain and bodies checked (numbered 1, 2, ..., each chained to the one before, each
    readable, its columns its body's); the records that could be read."""
    found: list[str] = []
    records: list[ev.Record] = []
    prev = ev.root_hash(tournament_id)
    for i, row in enumerate(rows, start=1):
        if row.n != i:
            found.append(f"record {i}: missing (record {row.n} follows record {i - 1}: one was deleted or the "
                         "records renumbered)")
        if row.prev_hash != prev or ev.chain_hash(prev, row.body) != row.hash:
            found.append(f"record {row.n}: its hash does not follow the record before (edited or removed)")
        prev = row.hash
        try:
            record = ev.decode(row.body)
        except msgspec.DecodeError as exc:
            found.append(f"record {row.n}: cannot be read ({exc})")
            continue
        if (record.tournament, record.n, record.by) != (tournament_id, row.n, row.by) or ev.kind(record.event) != row.kind:
            found.append(f"record {row.n}: its columns (number {row.n}, {row.kind} by {row.by}) are not its body's "
                         f"(number {record.n}, {ev.kind(record.event)} by {record.by} of {record.tournament})")
        records.append(record)
    return found, records


def token_findings(state: Tournament, tokens: Sequence[StoredTournamentToken]) -> list[str]:
    """Token rows that no issuing of tokens makes: more than one organiser's or spectators' token in
    force, a player's token for no registered player or a second one in force for the same player, an
    unknown role. A token a later issuing revoked (``tokens_issued``) is not in force."""
    found: list[str] = []
    seen: dict[tuple[str, str | None], int] = {}
    for t in tokens:
        if t.token_hash in state.revoked:
            continue
        where = f"token {t.token_hash[:12]}"
        if t.role not in TOKEN_ROLES:
            found.append(f"{where}: role {t.role!r} is none of {', '.join(TOKEN_ROLES)}")
            continue
        if (t.role == "player") != (t.player is not None):
            found.append(f"{where}: a {t.role}'s token " + ("names no player" if t.player is None
                                                             else f"names player {t.player}"))
            continue
        if t.player is not None and t.player not in state.players:
            found.append(f"{where}: a token of player {t.player}, who is not registered")
        key = (t.role, t.player)
        seen[key] = seen.get(key, 0) + 1
    for (role, player), count in sorted(seen.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        if count > 1:
            whose = f"player {player}" if player is not None else f"the {role}"
            found.append(f"tokens: {count} tokens of {whose} (the tournament issues one; a token's role was changed?)")
    return found


def orphan_findings(t: Tournaments, state: Tournament) -> list[str]:
    """Matches that name a table of this tournament (their configuration's ``tournament`` and ``round``,
    ``table``) that the tournament's records do not hold: a pairing that was never recorded."""
    held = {x.match_id for rnd in state.rounds for x in rnd.tables if x.match_id is not None} | set(state.set_aside)
    needle = b'"tournament":' + msgspec.json.encode(state.id)
    found = []
    for m in t.referee.store.list_matches():
        if m.id in held or needle not in m.config:
            continue
        try:
            meta = msgspec.json.decode(m.config).get("meta") or {}
        except (msgspec.DecodeError, AttributeError):
            continue  # its own audit reports a configuration that cannot be read
        if meta.get("tournament") == state.id:
            found.append(f"match {m.id}: names round {meta.get('round', '?')} table {meta.get('table', '?')} of this "
                         "tournament, which no record of it pairs (a pairing that was not recorded)")
    return found


def findings(t: Tournaments, tournament_id: str) -> tuple[list[str], str, int]:
    """Everything wrong with the tournament's record (empty: clean), its head and how many records it has."""
    stored = t.resolve(tournament_id)
    tid = stored.id
    rows = t.store.tournament_events(tid)
    tokens = t.store.tournament_tokens(tid)
    head = head_hash(tid, rows, tokens)
    found, records = chain_findings(tid, rows)
    try:
        state = fold(records)
    except CorruptTournament as exc:
        return [*found, f"the records do not fold: {exc!s}"], head, len(rows)  # !s: English (a Said formats in the reader's language)
    if state.config.name != stored.name:
        found.append(f"the tournament's name is {stored.name!r}; its first record says {state.config.name!r}")
    found += token_findings(state, tokens)
    found += table_findings(t, state)
    found += closing_findings(t, state, records)
    found += report_findings(records)
    found += orphan_findings(t, state)
    return list(dict.fromkeys(found)), head, len(rows)


def table_findings(t: Tournaments, state: Tournament) -> list[str]:
    """Every table's match: there, holding the table's players, clean by its own audit, and the result
    copied from its log the log's at the entry named."""
    found: list[str] = []
    for rnd in state.rounds:
        for x in rnd.tables:
            if x.match_id is None:
                continue
            where = f"round {rnd.number} table {x.table} (match {x.match_id})"
            try:
                found += _table(t, state, rnd.number, x, where)
            except RefereeError as exc:
                found.append(f"{where}: {exc}")
            except msgspec.DecodeError as exc:  # a stored row edited into bytes that do not decode
                found.append(f"{where}: the match's record cannot be read ({exc})")
    return found


def _table(t: Tournaments, state: Tournament, number: int, x: Any, where: str) -> list[str]:
    from ..errors import NotFound

    try:
        info = t.referee.match_info(x.match_id)
    except NotFound:
        return [f"{where}: the match is missing"]
    found = []
    if tuple(info.players) != x.seats:
        found.append(f"{where}: the match's players are {', '.join(info.players)}, the table's {', '.join(x.seats)}")
    if (info.round, info.table) != (str(number), str(x.table)):
        found.append(f"{where}: the match names round {info.round} table {info.table}")
    found += match_token_findings(t, x, where)
    report = t.referee.audit(x.match_id)
    if not report.clean:
        f = report.findings[0]
        found.append(f"{where}: audit: entry {f.seq}: {f.what}")
    res = state.results.get((number, x.table))
    logged = res if res is not None and res.source == "log" else None
    for _old, source, _n in (res.replaced if res else ()):
        if source == "log":
            logged = None  # a corrected log copy is checked through the record that closed the round
    if logged is not None and logged.seq is not None:
        if not 0 <= logged.seq <= report.head:
            found.append(f"{where}: the result is copied from entry {logged.seq}, which the log does not have "
                         f"(it ends at {report.head})")
        elif t.referee.show(x.match_id, at=logged.seq).outcome != logged.outcome:
            found.append(f"{where}: the result copied at entry {logged.seq} differs from the log's")
    return found


def match_token_findings(t: Tournaments, x: Any, where: str) -> list[str]:
    """A table's match tokens as the pairing mints them (or none, paired ``--no-tokens``): one a seat, one
    the arbiter's, one the spectators'. A seat's token made the arbiter's shows as two of the arbiter's."""
    tokens = t.referee.store.tokens(x.match_id)
    if not tokens:
        return []
    have = sorted((tok.role, tok.seat or "") for tok in tokens)
    want = sorted([("arbiter", ""), ("spectator", ""), *[("seat", s) for s in x.seats]])
    if have == want:
        return []
    shown = ", ".join(f"{role} {seat}".strip() for role, seat in have)
    return [f"{where}: its tokens are {shown}; a pairing mints one a seat, the arbiter's and the spectators'"]


def closing_findings(t: Tournaments, state: Tournament, records: Sequence[ev.Record]) -> list[str]:
    """Each round's closing record: every result it copied is the log's at the entry it names."""
    found = []
    for record in records:
        if not isinstance(record.event, ev.RoundClosed):
            continue
        n = record.n
        rnd = state.round(record.event.round)
        for r in record.event.results:
            x = next((y for y in rnd.tables if y.table == r.table), None)
            if x is None or r.match_id != x.match_id or x.match_id is None or r.seq is None:
                found.append(f"record {n}: a result for table {r.table} that the round does not have")
                continue
            try:
                head = t.referee.store.head(x.match_id)
                if not 0 <= r.seq <= head:
                    found.append(f"record {n}: round {rnd.number} table {r.table}: the result is copied from entry "
                                 f"{r.seq} of match {x.match_id}, whose log ends at {head}")
                elif t.referee.show(x.match_id, at=r.seq).outcome != r.outcome:
                    found.append(f"record {n}: round {rnd.number} table {r.table}: the result copied at entry {r.seq} "
                                 f"is not what match {x.match_id}'s log gives there")
            except RefereeError as exc:
                found.append(f"record {n}: round {rnd.number} table {r.table}: {exc}")
            except msgspec.DecodeError as exc:
                found.append(f"record {n}: round {rnd.number} table {r.table}: match {x.match_id} cannot be read ({exc})")
    return found


def report_findings(records: Sequence[ev.Record]) -> list[str]:
    """Every report and agreement checked against the records before it: a report for a seat of a table
    without a result; an agreement naming, for every seat of its table once, that seat's latest report,
    each of the agreed result, for a table that had none."""
    found: list[str] = []
    if not records:
        return found
    state = fold(records[:1])
    for record in records[1:]:
        event = record.event
        if isinstance(event, (ev.ResultReported, ev.ResultAgreed)):
            key = (event.round, event.table)
            where = f"record {record.n}: round {event.round} table {event.table}"
            if key in state.results:
                found.append(f"{where}: a {ev.kind(event).replace('_', ' ')} after the table's result counted "
                             f"(record {state.results[key].n})")
            if isinstance(event, ev.ResultAgreed):
                found += _agreement(state, event, where)
        evolve(state, record)
        state.n = record.n
    return found


def _agreement(state: Tournament, event: ev.ResultAgreed, where: str) -> list[str]:
    t = state.table(event.round, event.table)
    if t is None:
        return [f"{where}: agreed, but the table was not paired"]
    now = state.reports.get((event.round, event.table), {})
    latest = sorted(n for _, n in now.values())
    if sorted(event.reports) != latest or set(now) != set(t.seats):
        return [f"{where}: agreed on reports {', '.join(map(str, event.reports)) or 'none'}; the seats' latest are "
                f"{', '.join(map(str, latest)) or 'none'} (of {', '.join(sorted(now)) or 'nobody'}, seated "
                f"{', '.join(t.seats)})"]
    if any(o != event.outcome for o, _ in now.values()):
        return [f"{where}: agreed on a result the seats' reports do not all give"]
    return []
