"""The store interface and its row types."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

S = TypeVar("S", bound="StoreError")


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalog (the extractor knows the name); the store reads no catalog: a
    front end translates what :meth:`StoreError.said` kept (``referee.errors.RefereeError.text``)."""
    return msgid


class StoreError(RuntimeError):
    """The store cannot do what was asked (unreadable file, corrupt schema...)."""

    #: the catalog template the message was said through and its values (:meth:`said`), if it was
    template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls: type[S], template: str, /, **values: Any) -> S:
        """The error, its English message ``template`` (marked ``N_``) filled with ``values``; the
        template and values are kept for a front end to say it in the reader's language."""
        err = cls(template.format(**values))
        err.template = (template, values)
        return err


class StoreUnavailable(StoreError):
    """The store cannot be reached, or did not answer in time (the database is down or restarting, a
    statement or a lock wait timed out, every connection is busy): try again in a moment. A write that
    raised it may or may not have been committed; a retry of it is answered as a conflict or, with an
    idempotency key, as the first reply."""

    #: what a client is told to wait (seconds) before it tries again
    retry_after = 2


class BadSetting(ValueError):
    """A store was asked for a setting it does not know (e.g. a durability other than full or normal),
    before any database was opened. ``code`` is the stable error code a front end reports it under (as
    bad input: the setting is the user's to fix, the store is not at fault)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: as :attr:`StoreError.template` (:meth:`said`)
        self.template: tuple[str, dict[str, Any]] | None = None

    @classmethod
    def said(cls, code: str, template: str, /, **values: Any) -> BadSetting:
        """The error, its message said through ``template`` (marked ``N_``) filled with ``values``."""
        err = cls(code, template.format(**values))
        err.template = (template, values)
        return err


class Conflict(StoreError):
    """An append named a sequence number that is no longer the head."""

    def __init__(self, match_id: str, expected: int, head: int, *, what: str = "entry") -> None:
        super().__init__(
            f"match {match_id} has moved on: you expected {what} {expected} to be the last, "
            f"but the log is at {head}; reload and submit again"
        )
        self.match_id = match_id
        self.expected = expected
        self.head = head


class StoredMatch(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game: str
    rules_version: str
    config: bytes
    genesis_hash: str
    created_at: str
    parent: str | None = None
    fork_seq: int | None = None
    title: str = ""


class StoredEntry(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    seq: int
    kind: str
    actor: str | None
    verdict: str  # "accepted" | "rejected" | "held" | "none"
    code: str | None
    body: bytes
    prev_hash: str
    hash: str
    state_hash: str
    recorded_at: str


#: an entry's index columns: seq, kind, actor, verdict, and the body of an undo, redo or held entry
IndexRow = tuple[int, str, str | None, str, bytes | None]

#: what an audit checks of an entry: seq, kind, actor, verdict, code, body, prev_hash, hash, state_hash
#: (all but the match id, which it asked for, and the clock reading, which is no evidence)
AuditRow = tuple[int, str, str | None, str, str | None, bytes, str, str, str]


class StoredSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    seq: int
    state: bytes
    state_hash: str


class StoredToken(msgspec.Struct, frozen=True, kw_only=True):
    """A bearer token of one match, stored as its sha256 only (the secret itself is never kept).

    ``role`` is ``seat`` (then ``seat`` names it), ``arbiter`` or ``spectator``."""

    token_hash: str
    match_id: str
    role: str
    seat: str | None = None


class StoredRequest(msgspec.Struct, frozen=True, kw_only=True):
    """An idempotency key of one match and the entry its request appended (written in the same
    transaction as that entry). ``fingerprint`` identifies the request, so that a key reused for a
    different request can be told from a retry."""

    match_id: str
    key: str
    fingerprint: str
    seq: int


class DuplicateRequest(StoreError):
    """An append named an idempotency key that an earlier append of the match already used."""

    def __init__(self, match_id: str, key: str) -> None:
        super().__init__(f"match {match_id} already has a request with idempotency key {key!r}")
        self.match_id = match_id
        self.key = key


class StoredAnnotation(msgspec.Struct, frozen=True, kw_only=True):
    """A note on entry ``seq`` (0: on the match). Annotations are append-only and chained like
    entries: the ``n``-th annotation of a match hashes its body with the hash of the one before
    (:func:`referee.engine.hashing.annotation_hash`), so an edited, inserted or removed annotation breaks
    the chain and the audit's head covers them. ``audience`` is ``all`` or the one role that may read
    it (a seat, or ``arbiter``). ``recorded_at`` is a clock reading kept for people, not evidence."""

    match_id: str
    seq: int
    kind: str
    text: str
    by: str
    recorded_at: str
    n: int = 0
    prev_hash: str = ""
    hash: str = ""
    audience: str = "all"



def match_from_row(row: Any) -> StoredMatch:
    """A stored match from a row of ``id, game, rules_version, config, genesis_hash, created_at, parent,
    fork_seq, title`` (the SQL stores select these columns in this order)."""
    (id_, game, rv, config, genesis, created, parent, fork_seq, title) = row
    return StoredMatch(id=id_, game=game, rules_version=rv, config=bytes(config), genesis_hash=genesis,
                       created_at=created, parent=parent, fork_seq=fork_seq, title=title or "")


def entry_from_row(row: tuple[Any, ...]) -> StoredEntry:
    """A stored entry from a row of ``match_id, seq, kind, actor, verdict, code, body, prev_hash, hash,
    state_hash, recorded_at`` (a body SQLite hands back as text is its UTF-8 bytes)."""
    (mid, seq, kind, actor, verdict, code, body, prev, h, sh, rec) = row
    return StoredEntry(match_id=mid, seq=seq, kind=kind, actor=actor, verdict=verdict, code=code,
                       body=body.encode() if isinstance(body, str) else bytes(body), prev_hash=prev, hash=h,
                       state_hash=sh, recorded_at=rec or "")


def tournament_from_row(row: tuple[Any, ...]) -> StoredTournament:
    """A stored tournament from a row of ``id, name, created_at``."""
    return StoredTournament(id=row[0], name=row[1], created_at=row[2])


def check_new_matches(matches: Sequence[StoredMatch], entries: Sequence[StoredEntry] = (),
                      annotations: Sequence[StoredAnnotation] = (), transcripts: Sequence[tuple[str, str]] = (),
                      summaries: Sequence[MatchSummary] = ()) -> None:
    """What a batch of new matches may be written with (:meth:`TournamentLog.append_tournament_events`):
    entries, annotations, transcript digests and summaries of those matches only, each match's entries
    numbered on from its start in order. Raises :class:`StoreError`."""
    starts = {m.id: (m.fork_seq or 0) for m in matches}
    if len(starts) != len(matches):
        raise StoreError.said(N_("a match is given twice"))
    next_seq = dict(starts)
    for e in entries:
        if e.match_id not in next_seq or e.seq != next_seq[e.match_id] + 1:
            raise StoreError.said(N_("initial entries must be of a new match, numbered on from the match's start"))
        next_seq[e.match_id] = e.seq
    if any(a.match_id not in starts for a in annotations) or any(m not in starts for _, m in transcripts):
        raise StoreError.said(N_("an annotation or a transcript of no new match"))
    if any(s.match_id not in starts for s in summaries):
        raise StoreError.said(N_("a summary of no match of the round"))


def like_prefix(prefix: str) -> str:
    """A SQL ``LIKE`` pattern matching the ids that begin with ``prefix``, its ``\\``, ``%`` and ``_``
    escaped with a backslash (the SQL stores say ``ESCAPE '\\'``, or rely on it as PostgreSQL's default)."""
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def annotation_from_row(r: tuple[Any, ...]) -> StoredAnnotation:
    """A stored annotation from a database row of ``match_id, seq, kind, text, by, recorded_at, n,
    prev_hash, hash, audience`` (the SQL stores select these columns in this order; NULLs read as the
    defaults of rows written before a column existed)."""
    return StoredAnnotation(match_id=r[0], seq=r[1], kind=r[2], text=r[3], by=r[4] or "", recorded_at=r[5] or "",
                            n=r[6] or 0, prev_hash=r[7] or "", hash=r[8] or "", audience=r[9] or "all")

class MatchSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What a listing shows of a match, kept as it changes (a projection of its log, like an event
    store's read model): written in the same transaction as the entry that changes it, rebuilt from the
    log and compared by the audit. Not evidence: no hash covers it, and it is the one row a store
    rewrites (a match's summary is replaced by each append).

    ``status`` is ``playing`` or ``over``; ``outcome`` the canonical JSON of the outcome (b"" while
    playing); ``head`` and ``head_hash`` the last entry's seq and hash (the genesis hash, or the
    parent's entry at the fork, before a match's own first entry); ``last_activity`` that entry's clock
    reading (the match's creation before one); the rest repeat the match's row and configuration."""

    match_id: str
    game: str
    rules_version: str
    created_at: str
    seats: tuple[str, ...]
    status: str
    head: int
    head_hash: str
    last_activity: str
    outcome: bytes = b""
    parent: str | None = None
    fork_seq: int | None = None
    title: str = ""
    event: str = ""
    round: str = ""
    table: str = ""
    seed_commitment: str = ""


#: a summary's columns, in the order the SQL stores write and read them
SUMMARY_COLS = ("match_id, game, rules_version, created_at, seats, status, head, head_hash, last_activity, outcome,"
                " parent, fork_seq, title, event, rnd, tbl, seed_commitment")


#: the listing of a database without forks, or all of it (the order of :meth:`MatchSummaries.summaries`)
LISTED_FLAT = f"SELECT {SUMMARY_COLS} FROM match_summaries ORDER BY created_at, match_id LIMIT {{p}} OFFSET {{p}}"
#: every match's id in that order (read from the listing's index alone)
LISTED_IDS = "SELECT match_id FROM match_summaries ORDER BY created_at, match_id"
#: each fork's parent
LISTED_FORKS = "SELECT match_id, parent FROM match_summaries WHERE parent IS NOT NULL"
#: a page this long or longer is read whole and ordered as it is read (shorter ones by their ids)
PAGE_BY_IDS_MAX = 500


def tree_page(ids: Sequence[str], parents: Mapping[str, str], offset: int,
              limit: int | None) -> list[tuple[str, int]]:
    """The ids ``offset..offset+limit`` of the fork tree (as :func:`tree_order` lists it) of the matches
    ``ids`` (in the order of :meth:`MatchSummaries.summaries`), forks given by ``parents`` (fork -> parent),
    each with its depth. Only the forks are walked as a tree: the other matches are counted past."""
    present = set(ids)
    under = {f for f, p in parents.items() if p in present}  # forks listed under their parent
    kids: dict[str, list[str]] = {}
    for mid in [m for m in ids if m in under]:
        kids.setdefault(parents[mid], []).append(mid)
    stop = len(ids) if limit is None else offset + limit
    out: list[tuple[str, int]] = []
    at = 0
    for top in ([m for m in ids if m not in under] if under else ids):
        if at >= stop:
            break
        if top not in kids:
            if at >= offset:
                out.append((top, 0))
            at += 1
            continue
        stack = [(top, 0)]
        while stack and at < stop:
            mid, depth = stack.pop()
            if at >= offset:
                out.append((mid, depth))
            at += 1
            stack.extend((c, depth + 1) for c in reversed(kids.get(mid, [])))
    return out


def listed_rows(read: Callable[[str, Sequence[Any]], list[Any]], mark: str, offset: int, limit: int | None,
                no_limit: Any) -> list[tuple[MatchSummary, int]]:
    """:meth:`MatchSummaries.listed` over a SQL database (``read(sql, params)``: its rows; ``mark``: its
    parameter mark; ``no_limit``: the LIMIT that sets none). The whole listing, and a long page, are read whole
    and ordered (without forks, as read); a short page without forks is read as it is listed (the listing's
    index); with forks, its ids are worked out from every id (that index alone) and the forks' parents, then
    the page's rows alone are read."""
    if limit is None:  # every row from offset on: read whole and ordered (no forks: as read), no fork query first
        return tree_order([summary_from_row(r) for r in read(LISTED_FLAT.format(p=mark), (no_limit, 0))])[offset:]
    parents = dict(read(LISTED_FORKS, ()))
    if not parents:
        rows = read(LISTED_FLAT.format(p=mark), (limit, offset))
        return [(summary_from_row(r), 0) for r in rows]
    if limit >= PAGE_BY_IDS_MAX:
        every = tree_order([summary_from_row(r) for r in read(LISTED_FLAT.format(p=mark), (no_limit, 0))])
        return every[offset:offset + limit]
    page = tree_page([r[0] for r in read(LISTED_IDS, ())], parents, offset, limit)
    if not page:
        return []
    marks = ", ".join([mark] * len(page))
    found = {r[0]: r for r in read(f"SELECT {SUMMARY_COLS} FROM match_summaries WHERE match_id IN ({marks})",
                                   [mid for mid, _ in page])}
    return [(summary_from_row(found[mid]), depth) for mid, depth in page if mid in found]


def tree_order(summaries: Sequence[MatchSummary]) -> list[tuple[MatchSummary, int]]:
    """The summaries with their depth in the fork tree, parents before their forks (each level in the
    order given); a fork whose parent is not among them is listed at the top."""
    if all(s.parent is None for s in summaries):  # no forks: the order given, all at the top
        return [(s, 0) for s in summaries]
    ids = {s.match_id for s in summaries}
    children: dict[str, list[MatchSummary]] = {}
    tops: list[MatchSummary] = []
    for s in summaries:
        if s.parent is not None and s.parent in ids:
            children.setdefault(s.parent, []).append(s)
        else:
            tops.append(s)
    out: list[tuple[MatchSummary, int]] = []
    for top in tops:  # only a match with forks is walked as a tree
        if top.match_id not in children:
            out.append((top, 0))
            continue
        stack = [(top, 0)]
        while stack:
            s, depth = stack.pop()
            out.append((s, depth))
            stack.extend((c, depth + 1) for c in reversed(children.get(s.match_id, ())))
    return out


def summary_row(s: MatchSummary) -> tuple[Any, ...]:
    """A summary as the values of :data:`SUMMARY_COLS` (seats joined by commas: a seat is letters,
    digits, ``_`` and ``-``)."""
    return (s.match_id, s.game, s.rules_version, s.created_at, ",".join(s.seats), s.status, s.head, s.head_hash,
            s.last_activity, s.outcome or None, s.parent, s.fork_seq, s.title, s.event, s.round, s.table,
            s.seed_commitment)


def summary_from_row(r: tuple[Any, ...]) -> MatchSummary:
    """A summary from a row of :data:`SUMMARY_COLS`."""
    return MatchSummary(match_id=r[0], game=r[1], rules_version=r[2], created_at=r[3],
                        seats=tuple(r[4].split(",")) if r[4] else (), status=r[5], head=r[6], head_hash=r[7],
                        last_activity=r[8], outcome=bytes(r[9]) if r[9] is not None else b"", parent=r[10],
                        fork_seq=r[11], title=r[12] or "", event=r[13] or "", round=r[14] or "", table=r[15] or "",
                        seed_commitment=r[16] or "")


class StoredTournament(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's row: its id, name and when it was created (everything else is in its events)."""

    id: str
    name: str
    created_at: str


class StoredTournamentEvent(msgspec.Struct, frozen=True, kw_only=True):
    """The ``n``-th event of a tournament (1, 2, ...), chained like a match's entries: ``hash`` covers
    ``prev_hash`` and the canonical ``body`` (:mod:`referee.tournament.events`). ``kind`` and ``by``
    repeat the body's tag and author for listings; ``recorded_at`` is a clock reading, no evidence."""

    tournament_id: str
    n: int
    kind: str
    by: str
    body: bytes
    prev_hash: str
    hash: str
    recorded_at: str


class StoredTournamentToken(msgspec.Struct, frozen=True, kw_only=True):
    """A bearer token of one tournament, stored as its sha256 only: ``role`` is ``organiser``,
    ``spectator`` or ``player`` (then ``player`` names them)."""

    token_hash: str
    tournament_id: str
    role: str
    player: str | None = None


class MatchLog(Protocol):
    """The match log: matches, their append-only entries (with the idempotency keys and snapshots written
    alongside them), read back whole, as fold bodies, audit rows, index columns or undo/redo jumps."""

    def create_match(
        self, match: StoredMatch, entries: Sequence[StoredEntry] = (),
        annotations: Sequence[StoredAnnotation] = (), transcript: str | None = None,
        summary: MatchSummary | None = None,
    ) -> None:
        """Create a match and (atomically, for imports) its first entries and annotations; ``transcript``:
        the digest of the transcript it was imported from (:meth:`TranscriptIndex.find_transcript` finds
        it again); ``summary``: its :class:`MatchSummary`, written in the same transaction."""

    def get_match(self, match_id: str) -> StoredMatch | None: ...

    def find_matches(self, prefix: str) -> list[StoredMatch]:
        """Matches whose id starts with ``prefix`` (for short ids typed by people)."""

    def list_matches(self) -> list[StoredMatch]: ...

    def head(self, match_id: str) -> int:
        """The seq of the last entry (0 when the log is empty)."""

    def last_entry(self, match_id: str) -> StoredEntry | None: ...

    def append(
        self, entry: StoredEntry, expected_seq: int, snapshot: StoredSnapshot | None = None,
        request: StoredRequest | None = None, summary: MatchSummary | None = None,
    ) -> None:
        """Append one entry (and optionally a snapshot) in one transaction if the head is
        ``expected_seq``; otherwise raise :class:`Conflict` and write nothing. With ``request``, its
        idempotency key is recorded (pointing at the entry's seq) in the same transaction; a key the
        match already used raises :class:`DuplicateRequest` and writes nothing. With ``summary``, the
        match's :class:`MatchSummary` is replaced by it in the same transaction."""

    def entries(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[StoredEntry]:
        """Entries with ``start <= seq <= stop`` in seq order."""

    def bodies(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, bytes]]:
        """``(seq, body)`` of the entries ``start..stop`` in seq order: what a fold reads."""

    def audit_rows(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[AuditRow]:
        """:data:`AuditRow` of the entries ``start..stop`` in seq order: what an audit checks."""

    def index(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[IndexRow]:
        """``(seq, kind, actor, verdict, body)`` of the entries ``start..stop`` in seq order, the body
        for undo and redo entries and held intents only (None otherwise): what a timeline needs, cheaply."""

    def jumps(self, match_id: str, start: int = 1, stop: int | None = None) -> Iterator[tuple[int, str, bytes]]:
        """``(seq, kind, body)`` of the accepted undo and redo entries ``start..stop`` in seq order."""

    def snapshot_at_or_before(self, match_id: str, seq: int) -> StoredSnapshot | None: ...

    def snapshots(self, match_id: str) -> list[StoredSnapshot]:
        """A match's snapshots in seq order (what ``referee db copy`` copies)."""

    def find_request(self, match_id: str, key: str) -> StoredRequest | None:
        """The request recorded with idempotency key ``key`` for the match, if any."""

    def requests(self, match_id: str) -> list[StoredRequest]:
        """A match's idempotency keys in seq order (what ``referee db copy`` copies)."""


class MatchSummaries(Protocol):
    """Each match's :class:`MatchSummary` (a projection of its log, kept as it changes): what listings,
    the hall, standings and ratings read instead of folding every match."""

    def summary(self, match_id: str) -> MatchSummary | None:
        """The match's summary (None: the match has none yet, e.g. a database written before summaries)."""

    def summaries(self) -> list[MatchSummary]:
        """Every summary, in the order matches are listed (``created_at``, then id)."""

    def listed(self, offset: int = 0, limit: int | None = None) -> list[tuple[MatchSummary, int]]:
        """The summaries as ``referee matches`` lists them, each with its depth in the fork tree: a match,
        then its forks under it (depth first, each level in the order of :meth:`summaries`; a fork whose
        parent has no summary at the top), from the ``offset``-th on, at most ``limit`` of them. Only the
        page is read: the order is worked out by the database."""

    def unsummarised(self) -> list[str]:
        """The ids of the matches without a summary (written before summaries were kept, or copied without
        one), in id order: what a listing builds from their logs first."""

    def put_summaries(self, summaries: Sequence[MatchSummary]) -> None:
        """Write summaries rebuilt from the logs (one transaction), each replacing its match's; a summary
        of a match the store does not hold raises :class:`StoreError` and writes nothing."""


class Annotations(Protocol):
    """A match's annotations: append-only and chained (see :class:`StoredAnnotation`)."""

    def add_annotation(self, annotation: StoredAnnotation) -> None:
        """Append one annotation if it is the ``n``-th of its match (n = the count so far + 1) and its
        ``prev_hash`` is the hash of the one before; otherwise raise :class:`Conflict`, write nothing."""

    def annotations(self, match_id: str) -> list[StoredAnnotation]:
        """A match's annotations in the order they were added (``n``)."""

    def annotations_on(self, match_id: str, start: int, stop: int) -> list[StoredAnnotation]:
        """A match's annotations of entries ``start..stop`` in the order they were added."""


class MatchRecords(MatchLog, Annotations, Protocol):
    """A match's whole record: its log and its annotations (what reading a match's history needs)."""


class AccessTokens(Protocol):
    """Who may do what: the bearer tokens of matches and of tournaments, kept as their sha256 only."""

    def add_tokens(self, tokens: Sequence[StoredToken]) -> None:
        """Record bearer tokens (hashes) of a match, all at once."""

    def find_token(self, token_hash: str) -> StoredToken | None: ...

    def tokens(self, match_id: str) -> list[StoredToken]:
        """A match's token hashes (what ``referee db copy`` copies), in token-hash order."""

    def add_tournament_tokens(self, tokens: Sequence[StoredTournamentToken]) -> None:
        """Record bearer tokens (hashes) of a tournament, all at once."""

    def find_tournament_token(self, token_hash: str) -> StoredTournamentToken | None: ...

    def tournament_tokens(self, tournament_id: str) -> list[StoredTournamentToken]:
        """A tournament's token hashes in token-hash order (what ``referee db copy`` copies)."""


class TournamentLog(Protocol):
    """Tournaments and their append-only, chained events."""

    def create_tournament(self, tournament: StoredTournament, events: Sequence[StoredTournamentEvent]) -> None:
        """Create a tournament and (atomically) its first events, numbered 1, 2, ...; an id that exists
        raises :class:`StoreError`."""

    def get_tournament(self, tournament_id: str) -> StoredTournament | None: ...

    def find_tournaments(self, prefix: str) -> list[StoredTournament]:
        """Tournaments whose id starts with ``prefix``."""

    def list_tournaments(self) -> list[StoredTournament]: ...

    def append_tournament_events(self, tournament_id: str, events: Sequence[StoredTournamentEvent],
                                 expected_n: int, matches: Sequence[StoredMatch] = (),
                                 tokens: Sequence[StoredToken] = (),
                                 summaries: Sequence[MatchSummary] = (),
                                 entries: Sequence[StoredEntry] = (),
                                 annotations: Sequence[StoredAnnotation] = (),
                                 transcripts: Sequence[tuple[str, str]] = ()) -> None:
        """Append events ``expected_n + 1, ...`` in one transaction if the tournament's last event is
        ``expected_n``; otherwise raise :class:`Conflict` and write nothing. ``matches`` (new), their
        ``tokens`` and ``summaries`` are created in the same transaction: a round's matches and the record
        that pairs them are written all or nothing. ``entries``, ``annotations`` and ``transcripts``
        (``(digest, match_id)``) belong to those new matches (an imported transcript and the record that
        attaches it to its table), each match's entries numbered from its start
        (:func:`check_new_matches`)."""

    def tournament_events(self, tournament_id: str, stop: int | None = None) -> list[StoredTournamentEvent]:
        """A tournament's events ``1..stop`` (default: all) in order."""


class TranscriptIndex(Protocol):
    """Which matches were imported from which transcript (by the transcript's digest)."""

    def find_transcript(self, digest: str) -> list[str]:
        """The ids of the matches imported from a transcript with this digest, in the order they were written."""

    def transcripts(self) -> list[tuple[str, str]]:
        """Every ``(digest, match_id)`` recorded, by digest, each digest's matches in the order they were
        written (what ``referee db copy`` copies)."""

    def add_transcript(self, digest: str, match_id: str) -> None:
        """Record that ``match_id`` was imported from a transcript with this digest (as
        ``create_match(transcript=...)`` does; ``referee db copy`` writes those of a match it copied);
        an unknown match or a pair already recorded raises :class:`StoreError`."""


class TournamentRecords(TournamentLog, AccessTokens, Annotations, Protocol):
    """What the tournament commands read and write themselves: the tournament log, the tournaments'
    tokens (a tournament's head covers them) and a table's annotations (its open disputes)."""


class Notifier(Protocol):
    """A store shared by several processes that announces every append (PostgreSQL: LISTEN/NOTIFY)."""

    def listen(self, wake: Callable[[str], None], resumed: Callable[[], None] | None = None) -> Callable[[], None]:
        """Call ``wake(match_id)`` (on a thread of its own) whenever an entry of any match is committed by
        any process; ``resumed()`` each time it listens again after a drop (notifications sent meanwhile
        are lost). Returns what stops it."""


class Store(MatchLog, MatchSummaries, Annotations, AccessTokens, TournamentLog, TranscriptIndex, Protocol):
    """Every recorder over one database, as the service layer opens it. One contract suite per recorder
    tests every backend; callers that need only one recorder are typed against it."""

    @property
    def notifier(self) -> Notifier | None:
        """What announces appends across processes, for a store that can (None: the readers poll)."""

    def reopen(self) -> Store | None:
        """The same data through a new connection of its own, for another process (after a fork);
        None for a store that lives in one process's memory."""

    def close(self) -> None: ...
